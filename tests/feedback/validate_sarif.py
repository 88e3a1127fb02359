#!/usr/bin/env python3
"""Validates `mclc feedback --format sarif` against the official SARIF 2.1.0 JSON schema.

Usage: validate_sarif.py SCHEMA MCLC EXAMPLES_DIR

For every example kernel EXAMPLES_DIR/*/*.mcl (EXAMPLES_DIR/lib holds imported
modules, not kernels) and every level in: the kernel's own level (no --hwd),
then --hwd accelerator, gpu, nvidia, hopper, fermi and x86_avx2, it runs
  MCLC feedback --format sarif -I EXAMPLES_DIR [--hwd LEVEL] FILE
and validates its stdout against SCHEMA with python3-jsonschema, using the
validator of the draft the schema declares in "$schema" (2020-12 for the copy
here). Every error is reported with its JSON path.

A kernel that cannot be translated to a level makes mclc exit with 1; that
level is skipped as a translation, but the SARIF log mclc still prints (its
results carry the error) is validated too. Any other failure (no or unparsable
output, a crash, a usage error, an error at the kernel's own level) fails the
test. At least MIN_TRANSLATED successful translations must be validated.

Finally a few deliberately broken copies of a valid log (wrong "version",
region.startLine 0, a result without "message", an unknown top-level property)
must each be rejected, proving the validator is really checking.

Exit status 0 only if every log mclc produced is valid and every broken one is
rejected.

Schema provenance: tests/feedback/sarif-schema-2.1.0.json is a byte-exact copy
(112,785 bytes, no trailing newline, sha256
ad389db5a66fad5c131178b0e1f18600ac625616cd5ea20a00ee8ee246dc7069) of
Schemata/sarif-schema-2.1.0.json in the OASIS SARIF TC repository
https://github.com/oasis-tcs/sarif-spec at commit
85971b3e048f61a6d643b95fc6233d073302f5b8 ("$id":
https://raw.githubusercontent.com/oasis-tcs/sarif-spec/master/Schemata/sarif-schema-2.1.0.json,
"$schema": JSON Schema draft 2020-12), the TC's maintained copy of the
SARIF 2.1.0 schema. Licence: that repository's LICENSE.md says its content was
contributed by OASIS TC members and is governed by the OASIS policies,
including the OASIS IPR Policy (the SARIF TC works in RF on RAND Terms mode);
OASIS work products may be copied and furnished to others without restriction
provided the OASIS copyright notice is kept (Copyright (c) OASIS Open; see
https://www.oasis-open.org/policies-guidelines/ipr). The file is kept
unmodified, with this notice of its origin; refresh it only from that source.
"""

import copy
import json
import os
import subprocess
import sys

import jsonschema
import jsonschema.validators

LEVELS = [None, "accelerator", "gpu", "nvidia", "hopper", "fermi", "x86_avx2"]
MIN_TRANSLATED = 20
TRANSLATION_FAILED = 1  # mclc's exit status for an input/translation error


def json_path(error):
    path = getattr(error, "json_path", None)
    if path is not None:
        return path
    out = "$"
    for part in error.absolute_path:
        out += f"[{part}]" if isinstance(part, int) else f".{part}"
    return out


def make_validator(schema):
    cls = jsonschema.validators.validator_for(schema)
    # The upstream schema has known defects of its own, reported here but not
    # fatal (the file must stay a verbatim copy): definitions.region puts its
    # "anyOf" inside "properties", so that constraint is not enforced, and the
    # "^(?i)..." pattern of run.language and toolComponent.language is not a
    # Python regex (not reported: the metaschema is checked without format
    # checks; it would only matter for a log that has a "language").
    seen = set()
    for e in cls(cls.META_SCHEMA).iter_errors(schema):
        note = f"note: upstream schema defect at {json_path(e)}: {e.message}"
        if note not in seen:
            seen.add(note)
            print(note)
    checker = getattr(cls, "FORMAT_CHECKER", None) or jsonschema.FormatChecker()
    return cls(schema, format_checker=checker)


def errors_of(validator, doc):
    return sorted(validator.iter_errors(doc), key=lambda e: list(e.absolute_path))


def kernels(examples):
    for app in sorted(os.listdir(examples)):
        folder = os.path.join(examples, app)
        if app == "lib" or not os.path.isdir(folder):
            continue
        for name in sorted(os.listdir(folder)):
            if name.endswith(".mcl"):
                yield os.path.join(folder, name)


def broken_variants(doc):
    """Copies of a valid log, each with one violation of the schema."""
    variants = []

    d = copy.deepcopy(doc)
    d["version"] = "2.0.0"
    variants.append(('"version" is "2.0.0"', d))

    d = copy.deepcopy(doc)
    d["unexpected"] = True
    variants.append(("unknown top-level property", d))

    results = doc["runs"][0].get("results", [])
    with_message = [i for i, r in enumerate(results) if "message" in r]
    if with_message:
        d = copy.deepcopy(doc)
        del d["runs"][0]["results"][with_message[0]]["message"]
        variants.append(('result without "message"', d))
    with_region = [
        i
        for i, r in enumerate(results)
        if r.get("locations") and "region" in r["locations"][0].get("physicalLocation", {})
    ]
    if with_region:
        d = copy.deepcopy(doc)
        d["runs"][0]["results"][with_region[0]]["locations"][0]["physicalLocation"]["region"]["startLine"] = 0
        variants.append(("region.startLine 0", d))
    return variants


def main(argv):
    if len(argv) != 4:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    schema_path, mclc, examples = argv[1:]
    with open(schema_path, encoding="utf-8") as f:
        schema = json.load(f)
    schema_id = schema.get("$id", schema.get("id", ""))
    if "2.1.0" not in schema_id or "2.1.0" not in schema.get("title", ""):
        print(f"{schema_path} is not the SARIF 2.1.0 schema ($id {schema_id!r})")
        return 1
    validator = make_validator(schema)

    failures = 0
    translated = 0
    error_logs = 0
    skipped = []
    sample = None
    for kernel in kernels(examples):
        for level in LEVELS:
            cmd = [mclc, "feedback", "--format", "sarif", "-I", examples]
            if level:
                cmd += ["--hwd", level]
            cmd.append(kernel)
            what = f"{os.path.relpath(kernel, examples)} at {level or 'its own level'}"
            try:
                run = subprocess.run(cmd, capture_output=True, text=True)
            except OSError as e:
                print(f"FAIL {what}: cannot run {mclc}: {e}")
                failures += 1
                continue
            cannot_translate = level is not None and run.returncode == TRANSLATION_FAILED
            if run.returncode != 0 and not cannot_translate:
                print(f"FAIL {what}: mclc exited with {run.returncode}\n{run.stderr.strip()}")
                failures += 1
                continue
            try:
                doc = json.loads(run.stdout)
            except json.JSONDecodeError as e:
                print(f"FAIL {what}: output is not JSON: {e}")
                failures += 1
                continue
            errors = errors_of(validator, doc)
            for e in errors:
                print(f"FAIL {what}: {json_path(e)}: {e.message}")
            failures += bool(errors)
            if cannot_translate:
                skipped.append(what)
                error_logs += 1
            else:
                translated += 1
                if sample is None and not errors:
                    sample = doc

    for what in skipped:
        print(f"skipped {what}: cannot be translated there (its error log was validated)")

    if translated < MIN_TRANSLATED:
        print(f"FAIL only {translated} translations validated, expected at least {MIN_TRANSLATED}")
        failures += 1

    rejected = 0
    variants = broken_variants(sample) if sample is not None else []
    if not variants:
        print("FAIL no valid log to break")
        failures += 1
    for what, doc in variants:
        errors = errors_of(validator, doc)
        if errors:
            rejected += 1
            print(f"rejected broken log ({what}): {json_path(errors[0])}: {errors[0].message}")
        else:
            print(f"FAIL broken log ({what}) was accepted")
            failures += 1

    print(
        f"validated {translated + error_logs} SARIF documents against SARIF 2.1.0 "
        f"({translated} translations, {error_logs} translation-error logs) with "
        f"{type(validator).__name__}; rejected {rejected} of {len(variants)} broken logs; "
        f"{failures} failure(s)"
    )
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
