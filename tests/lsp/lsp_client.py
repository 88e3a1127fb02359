#!/usr/bin/env python3
"""A scripted editor for `mclc lsp`: it speaks the Language Server Protocol
to the server over its stdin and stdout the way an editor would, and checks
every answer: diagnostics (an error at its token, remarks with their kind),
edits that break and fix a kernel, hover on an array access, go-to-definition
of a variable, a called function, a hardware description and an import, the
command mclc.feedbackAtLevel, HDL documents, bad input of every kind, and
the exit status after shutdown and without it.

usage: lsp_client.py MCLC SOURCE_DIR
"""

import json
import os
import queue
import subprocess
import sys
import threading

TIMEOUT = 60  # seconds for any one answer


class Server:
    def __init__(self, mclc):
        self.process = subprocess.Popen([mclc, "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.incoming = queue.Queue()
        self.notifications = []
        self.next_id = 1
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        out = self.process.stdout
        while True:
            length = None
            while True:
                line = out.readline()
                if not line:
                    self.incoming.put(None)
                    return
                line = line.rstrip(b"\r\n")
                if not line:
                    break
                name, _, value = line.partition(b":")
                if name.strip().lower() == b"content-length":
                    length = int(value)
            self.incoming.put(json.loads(out.read(length)))

    def send_raw(self, data):
        self.process.stdin.write(data)
        self.process.stdin.flush()

    def send(self, message):
        body = json.dumps(dict(message, jsonrpc="2.0")).encode()
        self.send_raw(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    def notify(self, method, params):
        self.send({"method": method, "params": params})

    def request(self, method, params=None):
        request_id = self.next_id
        self.next_id += 1
        message = {"id": request_id, "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)
        return self.wait_for(lambda m: m.get("id") == request_id and "method" not in m)

    def wait_for(self, matches):
        while True:
            message = self.incoming.get(timeout=TIMEOUT)
            if message is None:
                raise AssertionError("the server closed its output")
            if matches(message):
                return message
            if "method" in message:
                self.notifications.append(message)

    def diagnostics(self, uri):
        """The next diagnostics published for `uri`."""
        for i, n in enumerate(self.notifications):
            if n["method"] == "textDocument/publishDiagnostics" and n["params"]["uri"] == uri:
                del self.notifications[i]
                return n["params"]["diagnostics"]
        n = self.wait_for(lambda m: m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri)
        return n["params"]["diagnostics"]

    def exit_status(self):
        self.process.stdin.close()
        return self.process.wait(timeout=TIMEOUT)


def check(condition, what, detail=None):
    if not condition:
        raise AssertionError(what + ("" if detail is None else f"\n  got: {json.dumps(detail)[:2000]}"))
    print(f"ok: {what}")


def uri_of(path):
    return "file://" + os.path.abspath(path)


def position_of(text, needle, offset=0):
    """The LSP position of `needle` (plus `offset` characters) in `text`."""
    index = text.index(needle) + offset
    line = text.count("\n", 0, index)
    return {"line": line, "character": index - (text.rfind("\n", 0, index) + 1)}


def errors(diagnostics):
    return [d for d in diagnostics if d["severity"] == 1]


def at(uri, position):
    return {"textDocument": {"uri": uri}, "position": position}


def open_document(server, uri, language, text):
    server.notify("textDocument/didOpen",
                  {"textDocument": {"uri": uri, "languageId": language, "version": 1, "text": text}})
    return server.diagnostics(uri)


def main(mclc, source_dir):
    examples = os.path.join(source_dir, "examples")
    stdlib = os.path.join(source_dir, "stdlib-hw")
    matmul_path = os.path.join(examples, "matmul", "matmul.mcl")
    matmul = open(matmul_path).read()
    matmul_uri = uri_of(matmul_path)

    server = Server(mclc)
    check(server.request("hover", {})["error"]["code"] == -32002, "a request before initialize fails")
    # Example values for the remarks' quantities, as --param gives them.
    init = server.request("initialize", {"processId": None, "rootUri": None, "capabilities": {},
                                         "initializationOptions": {"params": {"n": 100, "m": 200, "p": 300}}})
    caps = init["result"]["capabilities"]
    check(caps["hoverProvider"] and caps["definitionProvider"], "initialize: hover and definition")
    check(caps["textDocumentSync"]["change"] == 1, "initialize: full text sync")
    check("mclc.feedbackAtLevel" in caps["executeCommandProvider"]["commands"], "initialize: mclc.feedbackAtLevel")
    server.notify("initialized", {})

    # A good kernel: no errors, remarks with their kinds on its lines.
    diagnostics = open_document(server, matmul_uri, "mcl", matmul)
    check(not errors(diagnostics), "matmul.mcl has no errors", diagnostics)
    remarks = [d for d in diagnostics if d["severity"] == 3 and d.get("source") == "mclc"]
    codes = {d.get("code") for d in remarks}
    check({"data-reuse", "operations"} <= codes, "matmul.mcl: remarks with their kinds as codes", diagnostics)
    reuse_a = [d for d in remarks if d["code"] == "data-reuse" and d["message"].startswith("a[i, k]")]
    check(len(reuse_a) == 1 and reuse_a[0]["range"]["start"] == position_of(matmul, "a[i,k]"),
          "the data-reuse remark on a[i,k] is at the access", remarks)

    # A broken kernel: the error is at the unknown name, over its whole length.
    broken = matmul.replace("c[i,j] += sum;", "c[i,j] += sume;")
    broken_uri = uri_of(os.path.join(examples, "matmul", "lsp_test_broken.mcl"))
    diagnostics = open_document(server, broken_uri, "mcl", broken)
    start = position_of(broken, "sume;")
    end = dict(start, character=start["character"] + 4)
    check(any(d["range"] == {"start": start, "end": end} and "sume" in d["message"] for d in errors(diagnostics)),
          "an undeclared variable is an error over its name", diagnostics)
    check(not [d for d in diagnostics if d["severity"] == 3], "no remarks for a kernel with errors", diagnostics)

    # An edit that breaks the good kernel, then one that fixes it.
    server.notify("textDocument/didChange", {"textDocument": {"uri": matmul_uri, "version": 2},
                                             "contentChanges": [{"text": matmul.replace("float sum = 0.0;", "float sum = 0.0")}]})
    diagnostics = server.diagnostics(matmul_uri)
    syntax = errors(diagnostics)
    check(syntax and "syntax error" in syntax[0]["message"]
          and syntax[0]["range"]["start"]["line"] == position_of(matmul, "float sum")["line"] + 1,
          "didChange: a missing ';' is a syntax error at the next line", diagnostics)
    server.notify("textDocument/didChange", {"textDocument": {"uri": matmul_uri, "version": 3},
                                             "contentChanges": [{"text": matmul}]})
    diagnostics = server.diagnostics(matmul_uri)
    check(not errors(diagnostics) and any(d.get("code") == "data-reuse" for d in diagnostics),
          "didChange: the fix brings the remarks back", diagnostics)

    # Hover on an array access: its declaration and its remark's quantities.
    hover = server.request("textDocument/hover", at(matmul_uri, position_of(matmul, "a[i,k]")))["result"]
    value = hover["contents"]["value"]
    check(hover["contents"]["kind"] == "markdown" and "const main float[n, p] a" in value
          and "memory space `main`" in value, "hover on a[i,k]: its declaration and memory space", hover)
    check("data-reuse" in value and "| reuse | `m` | 200 |" in value,
          "hover on a[i,k]: the reuse quantity and its value", hover)

    # Definitions: a variable, the hardware description, an import, a call.
    location = server.request("textDocument/definition", at(matmul_uri, position_of(matmul, "sum;")))["result"]
    check(location["uri"] == matmul_uri and location["range"]["start"] == position_of(matmul, "sum = 0.0"),
          "definition of a variable: its declaration", location)
    location = server.request("textDocument/definition", at(matmul_uri, position_of(matmul, "perfect void")))["result"]
    perfect_hdl = open(os.path.join(stdlib, "perfect.hdl")).read()
    check(location["uri"] == uri_of(os.path.join(stdlib, "perfect.hdl"))
          and location["range"]["start"] == position_of(perfect_hdl, "perfect;"),
          "definition of the hardware description: its name in perfect.hdl", location)

    complexmul_path = os.path.join(examples, "complexmul", "complexmul.mcl")
    complexmul = open(complexmul_path).read()
    complexmul_uri = uri_of(complexmul_path)
    diagnostics = open_document(server, complexmul_uri, "mcl", complexmul)
    check(not errors(diagnostics), "complexmul.mcl (imports lib.math.complex) has no errors", diagnostics)
    complex_path = os.path.join(examples, "lib", "math", "complex.mcl")
    location = server.request("textDocument/definition",
                              at(complexmul_uri, position_of(complexmul, "lib.math.complex", 5)))["result"]
    check(location and location["uri"] == uri_of(complex_path), "definition of an import: the module's file", location)
    location = server.request("textDocument/definition",
                              at(complexmul_uri, position_of(complexmul, "mul(t,")))["result"]
    complex_text = open(complex_path).read()
    check(location and location["uri"] == uri_of(complex_path)
          and location["range"]["start"]["line"] == position_of(complex_text, "void mul(")["line"],
          "definition of a call: the function in the imported module", location)
    location = server.request("textDocument/definition",
                              at(complexmul_uri, position_of(complexmul, "Complex[n] c")))["result"]
    check(location and location["uri"] == uri_of(complex_path)
          and location["range"]["start"] == position_of(complex_text, "Complex {"),
          "definition of a record type: the record in the imported module", location)
    location = server.request("textDocument/definition", at(complexmul_uri, position_of(complexmul, "import perfect", 7)))
    check(location["result"]["uri"] == uri_of(os.path.join(stdlib, "perfect.hdl")),
          "definition of a hardware import: its .hdl file", location)

    # Feedback at another level: translated to gpu, with its transfers.
    result = server.request("workspace/executeCommand",
                            {"command": "mclc.feedbackAtLevel", "arguments": [matmul_uri, "gpu"]})["result"]
    kinds = {r["kind"] for r in result["remarks"]}
    check("transfers" in kinds and any("gpu" in r["message"] for r in result["remarks"]),
          "mclc.feedbackAtLevel gpu: the remarks at gpu", result)
    failed = server.request("workspace/executeCommand",
                            {"command": "mclc.feedbackAtLevel", "arguments": [matmul_uri, "no_such_level"]})
    check(failed["error"]["code"] == -32803 and "no_such_level" in failed["error"]["message"],
          "mclc.feedbackAtLevel to an unknown level fails with the error", failed)
    # A document not open is read from disk, and a file that never ends (a
    # device) is refused after a bounded read rather than read without end.
    endless = server.request("workspace/executeCommand",
                             {"command": "mclc.feedbackAtLevel", "arguments": ["file:///dev/zero", "gpu"]})
    check(endless["error"]["code"] == -32602 and "'/dev/zero': it is longer than" in endless["error"]["message"],
          "mclc.feedbackAtLevel of /dev/zero is refused", endless)

    # An HDL document: an error in the editor's text, then fixed; definition
    # of what it specializes.
    gpu_path = os.path.join(stdlib, "gpu.hdl")
    gpu = open(gpu_path).read()
    gpu_uri = uri_of(gpu_path)
    diagnostics = open_document(server, gpu_uri, "hdl", gpu.replace("specializes accelerator;", "specializes acelerator;"))
    start = position_of(gpu, "accelerator;")
    check(any(d["range"]["start"] == start and "acelerator" in d["message"] for d in errors(diagnostics)),
          "gpu.hdl: an unknown parent is an error at its name", diagnostics)
    server.notify("textDocument/didChange", {"textDocument": {"uri": gpu_uri, "version": 2},
                                             "contentChanges": [{"text": gpu}]})
    diagnostics = server.diagnostics(gpu_uri)
    check(not errors(diagnostics), "gpu.hdl: fixed, no errors", diagnostics)
    location = server.request("textDocument/definition", at(gpu_uri, start))["result"]
    check(location["uri"] == uri_of(os.path.join(stdlib, "accelerator.hdl")),
          "definition of the parent after 'specializes': accelerator.hdl", location)
    # An HDL document outside the library (not saved yet): checked as a user
    # description would be, against the whole library.
    outside_uri = "file:///not/in/the/library/mine.hdl"
    diagnostics = open_document(server, outside_uri, "hdl", "hardware_description mine;\nspecializes acelerator;\n")
    check(any(d["range"]["start"] == {"line": 1, "character": 12} and "acelerator" in d["message"]
              for d in errors(diagnostics)),
          "a description outside the library: an unknown parent is an error at its name", diagnostics)
    server.notify("textDocument/didChange", {"textDocument": {"uri": outside_uri, "version": 2},
                                             "contentChanges": [{"text": "hardware_description mine;\nspecializes gpu;\n"}]})
    diagnostics = server.diagnostics(outside_uri)
    check(errors(diagnostics) and not any("acelerator" in d["message"] or "specializ" in d["message"]
                                          for d in diagnostics)
          and any("no 'parallelism' block" in d["message"] for d in errors(diagnostics)),
          "a description outside the library, fixed to specialize gpu: only what it still lacks", diagnostics)

    # Bad input of every kind: each answered, and the server goes on.
    check(server.request("textDocument/rename", {})["error"]["code"] == -32601, "an unknown method: -32601")
    check(server.request("textDocument/hover", {"textDocument": {}})["error"]["code"] == -32602,
          "bad parameters: -32602")
    server.send_raw(b"Content-Length: 9\r\n\r\n{\"id\": 1,")
    answer = server.wait_for(lambda m: "error" in m)
    check(answer["error"]["code"] == -32700 and answer["id"] is None, "malformed JSON: a parse error", answer)
    server.send_raw(b"Content-Length: twelve\r\n\r\n")
    answer = server.wait_for(lambda m: "error" in m)
    check(answer["error"]["code"] == -32700, "a bad Content-Length: a parse error", answer)
    server.send_raw(b"Content-Length: 2\r\n\r\n[]")
    answer = server.wait_for(lambda m: "error" in m)
    check(answer["error"]["code"] == -32600, "a batch: an invalid request", answer)
    server.notify("textDocument/didChange", {"textDocument": {"uri": "file:///not/open.mcl"}, "contentChanges": []})
    logged = server.wait_for(lambda m: m.get("method") == "window/logMessage")
    check("not open" in logged["params"]["message"], "a bad notification is logged", logged)
    hover = server.request("textDocument/hover", at(matmul_uri, {"line": 9999, "character": 9999}))
    check(hover["result"] is None, "hover past the end: null", hover)

    server.notify("textDocument/didClose", {"textDocument": {"uri": broken_uri}})
    check(server.diagnostics(broken_uri) == [], "didClose clears the diagnostics")

    check(server.request("shutdown")["result"] is None, "shutdown")
    check(server.request("textDocument/hover", at(matmul_uri, {"line": 0, "character": 0}))["error"]["code"] == -32600,
          "a request after shutdown fails")
    server.notify("exit", None)
    check(server.exit_status() == 0, "exit after shutdown: status 0")

    server = Server(mclc)
    server.request("initialize", {"capabilities": {}})
    server.notify("exit", None)
    check(server.exit_status() == 1, "exit without shutdown: status 1")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
