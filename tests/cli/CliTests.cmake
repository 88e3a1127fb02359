# End-to-end tests of the mclc command line: exit status and output.
set(EXPECT ${CMAKE_CURRENT_SOURCE_DIR}/cli/expect.sh)
set(INPUTS ${CMAKE_CURRENT_SOURCE_DIR}/inputs)

function(mclc_test name status regex)
  add_test(NAME cli.${name} COMMAND ${EXPECT} ${status} ${regex} $<TARGET_FILE:mclc> ${ARGN})
endfunction()

# The built-in library: every description in one tree under perfect.
foreach(desc accelerator gpu nvidia fermi hopper amd mi100 mic xeon_phi cpu x86_avx2 fpga alveo_u250)
  mclc_test(list_hwd_has_${desc} 0 "(^|\\n) +${desc}(\\n|$)" list-hwd)
endforeach()
mclc_test(list_hwd_root 0 "^perfect\\n  accelerator\\n" list-hwd)
mclc_test(show_hwd_text 0 "executing par_unit: thread" show-hwd hopper)
add_test(NAME cli.show_hwd_json_all
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli/each_show_hwd_json.sh $<TARGET_FILE:mclc>)

set(VECTORADD_KERNEL ${CMAKE_SOURCE_DIR}/examples/vectoradd/vectoradd.mcl)

# Descriptions in the original MCL dialect, from a user directory.
mclc_test(dialect_hwd_path 0 "(?s)(^|\\n)perfect\\n.*\\n  dialect_gpu\\n    dialect_manycore\\n" list-hwd --hwd-path ${INPUTS}/hdl/dialect)
# The dialect's child descriptions: `device PARENT` and a cache without its
# line size load, with a warning each.
mclc_test(dialect_child_device_keeps_parents_name 0 "dialect_workstation.hdl:24:8: warning: 'device dialect_cpu' in description 'dialect_workstation' keeps the name of the description it specializes(?s).*\\n    dialect_workstation\\n"
          list-hwd --hwd-path ${INPUTS}/hdl/dialect)
mclc_test(dialect_cache_without_line_size 0 "dialect_workstation.hdl:41:7: warning: cache 'l2' has no 'cache_line_size'"
          show-hwd dialect_workstation --hwd-path ${INPUTS}/hdl/dialect)
# A bad description in a user directory: a warning for a program that does
# not use it, the errors themselves for one that does, and for list-hwd and
# show-hwd.
set(UNUSED_BAD ${INPUTS}/hdl/unused_bad)
mclc_test(unused_bad_hwd_is_a_warning 0 "broken.hdl:[0-9]+:[0-9]+: warning: hardware description 'broken' has 1 error and is left out(?s).*halfbad.hdl:14:14: warning: hardware description 'halfbad' has 1 error and is left out. the first: interconnect 'ic' needs a 'latency' property"
          check --hwd-path ${UNUSED_BAD} ${VECTORADD_KERNEL})
mclc_test(used_bad_hwd_import_is_an_error 1 "halfbad.hdl:14:14: error: interconnect 'ic' needs a 'latency' property(?s).*imports_halfbad.mcl:3:8: error: cannot import 'halfbad': its hardware description has errors"
          check --hwd-path ${UNUSED_BAD} ${INPUTS}/mcpl/hwd_with_errors/imports_halfbad.mcl)
mclc_test(used_bad_hwd_target_is_an_error 1 "halfbad.hdl:14:14: error: interconnect 'ic' needs a 'latency' property(?s).*targets_halfbad.mcl:4:1: error: function 'f' targets 'halfbad', whose hardware description has errors"
          check --hwd-path ${UNUSED_BAD} ${INPUTS}/mcpl/hwd_with_errors/targets_halfbad.mcl)
mclc_test(bad_hwd_list_is_an_error 1 "halfbad.hdl:14:14: error: interconnect 'ic' needs a 'latency' property" list-hwd --hwd-path ${UNUSED_BAD})
mclc_test(bad_hwd_show_is_an_error 1 "halfbad.hdl:14:14: error: interconnect 'ic' needs a 'latency' property" show-hwd halfbad --hwd-path ${UNUSED_BAD})
mclc_test(dialect_show 0 "\"name\": \"dialect_manycore\"" show-hwd dialect_manycore --json --hwd-path ${INPUTS}/hdl/dialect)
add_test(NAME cli.dialect_env_path COMMAND ${EXPECT} 0 "dialect_cpu" $<TARGET_FILE:mclc> list-hwd)
set_tests_properties(cli.dialect_env_path PROPERTIES ENVIRONMENT "MCL_HWD_PATH=${INPUTS}/hdl/dialect:${INPUTS}/hdl/dialect/override")
mclc_test(user_overrides_builtin 0 "dialect/override/fermi.hdl" show-hwd fermi --hwd-path ${INPUTS}/hdl/dialect/override)

# Malformed files: each a located error and exit status 1.
add_test(NAME cli.malformed_hdl
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli/each_bad_input.sh hdl $<TARGET_FILE:mclc> ${INPUTS}/hdl/bad)
add_test(NAME cli.malformed_mcpl
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli/each_bad_input.sh mcpl $<TARGET_FILE:mclc> ${INPUTS}/mcpl/bad)

# Every example checks, without a warning.
file(GLOB_RECURSE EXAMPLE_KERNELS RELATIVE ${CMAKE_SOURCE_DIR}/examples ${CMAKE_SOURCE_DIR}/examples/*.mcl)
foreach(kernel ${EXAMPLE_KERNELS})
  string(REPLACE "/" "." test_name ${kernel})
  mclc_test(check_example.${test_name} 0 NO_OUTPUT check ${CMAKE_SOURCE_DIR}/examples/${kernel})
endforeach()

# The checked AST holds the read/write sets.
add_test(NAME cli.matmul_read_write_sets
         COMMAND sh -c "$<TARGET_FILE:mclc> print-ast-json ${CMAKE_SOURCE_DIR}/examples/matmul/matmul.mcl | ${CMAKE_CURRENT_SOURCE_DIR}/cli/check_read_write_sets.py matmul n,m,p,a,b,c c")
add_test(NAME cli.reduction_read_write_sets
         COMMAND sh -c "$<TARGET_FILE:mclc> print-ast-json ${CMAKE_SOURCE_DIR}/examples/reduction/reduction.mcl | ${CMAKE_CURRENT_SOURCE_DIR}/cli/check_read_write_sets.py reduction n,sum,values sum")

# A kernel in the original dialect: packages, records, library imports from
# another include root, builtin bodies.
mclc_test(mcpl_dialect_with_include_root 0 NO_OUTPUT check -I ${CMAKE_SOURCE_DIR}/examples ${INPUTS}/mcpl/dialect/kernels/signal/rotate.mcl)
mclc_test(mcpl_dialect_without_include_root 1 "cannot find 'lib.math'" check ${INPUTS}/mcpl/dialect/kernels/signal/rotate.mcl)
# The include root implied by `package` does not depend on how the file is
# named: from inside its own directory, by a relative path.
add_test(NAME cli.implied_root_from_own_directory
         COMMAND ${EXPECT} 0 NO_OUTPUT $<TARGET_FILE:mclc> check blackscholes.mcl)
set_tests_properties(cli.implied_root_from_own_directory PROPERTIES WORKING_DIRECTORY ${CMAKE_SOURCE_DIR}/examples/blackscholes)
add_test(NAME cli.implied_root_from_a_relative_path
         COMMAND ${EXPECT} 0 NO_OUTPUT $<TARGET_FILE:mclc> check ../signal/rotate.mcl -I ${CMAKE_SOURCE_DIR}/examples)
set_tests_properties(cli.implied_root_from_a_relative_path PROPERTIES WORKING_DIRECTORY ${INPUTS}/mcpl/dialect/kernels/signal)

# Usage.
mclc_test(help 0 "list-hwd" --help)
mclc_test(subcommand_help 0 "--json" show-hwd --help)
mclc_test(unknown_subcommand 2 "unknown subcommand 'lsit-hwd'. did you mean 'list-hwd'" lsit-hwd)
mclc_test(missing_argument 2 "NAME is required" show-hwd)
mclc_test(no_subcommand 2 "subcommand" )
mclc_test(unknown_description 1 "no valid hardware description named 'hoper'. did you mean 'hopper'" show-hwd hoper)
mclc_test(missing_hwd_path 1 "directory '/nonexistent' does not exist" list-hwd --hwd-path /nonexistent)
# Inputs that are not files to read: a directory (not an empty module), a
# device that never ends (refused after a bounded read, not read without end).
mclc_test(input_is_a_directory 1 "^mclc: error: cannot read '[^']*/verify': it is a directory\\n"
          check ${INPUTS}/mcpl/verify)
mclc_test(input_never_ends 1 "^mclc: error: cannot read '/dev/zero': it is longer than 64 MiB\\n" check /dev/zero)
mclc_test(missing_input 1 "^mclc: error: cannot read '/nonexistent\\.mcl': No such file or directory\\n"
          check /nonexistent.mcl)
mclc_test(translate_to_a_full_disk 1 "^mclc: error: cannot write '/dev/full': No space left on device\\n$"
          translate ${VECTORADD_KERNEL} --hwd gpu -o /dev/full)
mclc_test(translate_to_a_directory 1 "^mclc: error: cannot write '[^']*/verify': it is a directory\\n$"
          translate ${VECTORADD_KERNEL} --hwd gpu -o ${INPUTS}/mcpl/verify)
mclc_test(report_to_a_full_disk 1 "^mclc: error: cannot write '/dev/full': No space left on device\\n$"
          report ${VECTORADD_KERNEL} --hwd gpu -o /dev/full)
mclc_test(hwd_path_holds_a_directory 1 "mclc: error: cannot read '[^']*/not_a_description\\.hdl': it is a directory"
          list-hwd --hwd-path ${INPUTS}/hdl/directory_named_hdl)

# Golden outputs (tests/golden/cases.txt; scripts/refresh-golden rewrites them).
file(STRINGS ${CMAKE_CURRENT_SOURCE_DIR}/golden/cases.txt GOLDEN_CASES REGEX "^[^#].*[|]")
foreach(golden_case ${GOLDEN_CASES})
  string(REPLACE "|" ";" parts "${golden_case}")
  list(GET parts 0 golden_name)
  list(GET parts 1 golden_args)
  string(STRIP "${golden_name}" golden_name)
  separate_arguments(golden_args UNIX_COMMAND "${golden_args}")
  add_test(NAME golden.${golden_name}
           COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli/golden.sh $<TARGET_FILE:mclc> ${CMAKE_SOURCE_DIR}
                   ${golden_name} ${golden_args})
endforeach()

# Translation errors: located, explained, exit status 1.
mclc_test(translate_above_the_kernel 1 "matmul_gpu.mcl:[0-9]+:1: error: cannot translate to 'perfect': it is not below"
          translate --hwd perfect ${CMAKE_SOURCE_DIR}/examples/matmul/matmul_gpu.mcl)
mclc_test(translate_unknown_description 1 "unknown hardware description 'hoper'. did you mean 'hopper'"
          translate --hwd hoper ${CMAKE_SOURCE_DIR}/examples/matmul/matmul.mcl)
mclc_test(translate_through_a_broken_child 1
          "matmul.mcl:[0-9]+:1: error: cannot translate 'matmul' from 'gpu' to 'widegpu': 'widegpu' breaks the rules.*\\n(.*\\n)*.*widegpu.hdl:5:22: note: 'widegpu' is described here"
          translate --hwd widegpu --hwd-path ${INPUTS}/hdl/broken_child ${CMAKE_SOURCE_DIR}/examples/matmul/matmul.mcl)
# A barrier over memory that all threads share: valid at perfect, refused at
# the barrier once translation gives the threads a grid of groups that
# cannot wait for each other inside one launch; at accelerator (no grid) it stays.
mclc_test(check_grid_barrier_at_perfect 0 NO_OUTPUT check ${INPUTS}/mcpl/translate/grid_barrier.mcl)
mclc_test(translate_grid_barrier 1
          "grid_barrier.mcl:11:9: error: barrier\\(main\\) would synchronise every unit of 'blocks' at 'hopper' \\('main' becomes 'global' there, which all of them share\\), and 'hopper' cannot do that inside one launch. end the foreach before the barrier and continue in a second top-level foreach"
          translate --hwd hopper ${INPUTS}/mcpl/translate/grid_barrier.mcl)
mclc_test(translate_grid_barrier_cpu 1 "grid_barrier.mcl:11:9: error: barrier\\(main\\) would synchronise every unit of 'threads' at 'x86_avx2'"
          translate --hwd x86_avx2 ${INPUTS}/mcpl/translate/grid_barrier.mcl)
mclc_test(translate_grid_barrier_accelerator 0 "barrier\\(dev\\);" translate --hwd accelerator ${INPUTS}/mcpl/translate/grid_barrier.mcl)
mclc_test(translate_needs_a_target 2 "--hwd is required" translate ${CMAKE_SOURCE_DIR}/examples/matmul/matmul.mcl)
add_test(NAME cli.translate_writes_output_file
         COMMAND sh -c "out=$(mktemp) && $<TARGET_FILE:mclc> translate --hwd hopper -o $out ${CMAKE_SOURCE_DIR}/examples/vectoradd/vectoradd.mcl && $<TARGET_FILE:mclc> check $out && grep -q '^hopper void vectoradd' $out")

# Code generation: list-targets and gen (the end-to-end runs are in
# tests/CMakeLists.txt, backends.*).
set(TARGET_INPUTS ${INPUTS}/targets)
set(VECTORADD ${CMAKE_SOURCE_DIR}/examples/vectoradd/vectoradd.mcl)
mclc_test(list_targets 0 "(^|\\n)x86_avx2: cpp (llvm )?opencl\\n" list-targets)
mclc_test(list_targets_user_override 0 "(^|\\n)x86_avx2: opencl\\n" list-targets --hwd-path ${TARGET_INPUTS}/opencl_only)
mclc_test(list_targets_bad_config 1 "bad/targets/x86_avx2.json:6:61: error: unknown par_group 'lanes'" list-targets --hwd-path ${TARGET_INPUTS}/bad)
mclc_test(list_targets_not_a_leaf 1 "is for 'gpu', which is not a leaf" list-targets --hwd-path ${TARGET_INPUTS}/nonleaf)
mclc_test(gen_unknown_backend 1 "unknown backend 'cppp'. did you mean 'cpp'" gen --target x86_avx2 --backend cppp ${VECTORADD} -o gen_out)
mclc_test(gen_unknown_target 1 "unknown target 'x86avx2'. did you mean 'x86_avx2'" gen --target x86avx2 --backend cpp ${VECTORADD} -o gen_out)
mclc_test(gen_not_a_leaf 1 "target 'cpu' is not a leaf" gen --target cpu --backend cpp ${VECTORADD} -o gen_out)
mclc_test(gen_no_config 1 "target 'fermi_unconfigured' has no code-generation configuration" gen --target fermi_unconfigured --backend cpp ${VECTORADD} -o gen_out --hwd-path ${TARGET_INPUTS}/unconfigured)
mclc_test(gen_no_backend_config 1 "target 'x86_avx2' has no configuration for backend 'cpp' \\(it has: opencl\\)" gen --target x86_avx2 --backend cpp ${VECTORADD} -o gen_out --hwd-path ${TARGET_INPUTS}/opencl_only)
mclc_test(gen_bad_config 1 "unknown par_group 'lanes'" gen --target x86_avx2 --backend cpp ${VECTORADD} -o gen_out --hwd-path ${TARGET_INPUTS}/bad)
mclc_test(gen_missing_output 2 "-o is required" gen --target x86_avx2 --backend cpp ${VECTORADD})
mclc_test(gen_barrier 1 "barrier.mcl:10:13: error: barrier\\(main\\) would synchronise every unit of 'threads' at 'x86_avx2'" gen --target x86_avx2 --backend cpp ${INPUTS}/mcpl/backends/barrier.mcl -o gen_out)
mclc_test(gen_grid_barrier_translated 1 "grid_barrier.mcl:11:9: error: barrier\\(main\\) would synchronise every unit of 'blocks' at 'hopper'"
          gen --target hopper --backend opencl ${INPUTS}/mcpl/translate/grid_barrier.mcl -o gen_out)
mclc_test(gen_grid_barrier_from_gpu 1 "grid_barrier_gpu.mcl:11:13: error: barrier\\(dev\\) would synchronise every unit of 'blocks' at 'gpu', and 'gpu' cannot do that inside one launch"
          gen --target hopper --backend cuda ${INPUTS}/mcpl/backends/grid_barrier_gpu.mcl -o gen_out)
foreach(backend opencl cuda)
  mclc_test(gen_grid_barrier_at_leaf_${backend} 1 "grid_barrier_hopper.mcl:12:17: error: barrier\\(global\\) would synchronise every unit of 'blocks' at 'hopper', and 'hopper' cannot do that inside one launch. end the foreach before the barrier"
            gen --target hopper --backend ${backend} ${INPUTS}/mcpl/backends/grid_barrier_hopper.mcl -o gen_out)
endforeach()
mclc_test(gen_input_error 1 "matmul_gpu.mcl:.*cannot translate to 'x86_avx2'" gen --target x86_avx2 --backend cpp ${CMAKE_SOURCE_DIR}/examples/matmul/matmul_gpu.mcl -o gen_out)
# Recursion: located at the recursive call for the backends whose kernel
# languages cannot express it; the cpp backend generates it.
foreach(target_backend hopper:opencl hopper:cuda alveo_u250:hls)
  string(REPLACE ":" ";" pair ${target_backend})
  list(GET pair 0 target)
  list(GET pair 1 backend)
  mclc_test(gen_recursion_${backend} 1 "recursion.mcl:12:16: error: this call of 'triangle' is recursive \\(it reaches itself again\\): the ${backend} backend cannot express recursion" gen --target ${target} --backend ${backend} ${INPUTS}/mcpl/backends/recursion.mcl -o gen_out)
endforeach()
mclc_test(gen_recursion_cpp 0 NO_OUTPUT gen --target x86_avx2 --backend cpp ${INPUTS}/mcpl/backends/recursion.mcl -o gen_recursion_cpp)
# A function and a constant of one name in two modules: the C backends print
# the imported ones under module-qualified names, and every backend computes
# what the interpreter does.
foreach(pair cpp:x86_avx2 opencl:x86_avx2 cuda:hopper hls:alveo_u250 llvm:x86_avx2)
  string(REPLACE ":" ";" pair ${pair})
  list(GET pair 0 backend)
  list(GET pair 1 target)
  mclc_test(gen_imported_name_clash_${backend} 0 NO_OUTPUT gen --target ${target} --backend ${backend}
            -I ${INPUTS}/mcpl/backends/include ${INPUTS}/mcpl/backends/imported_name_clash.mcl
            -o gen_imported_name_clash_${backend})
endforeach()
mclc_test(verify_imported_name_clash 0 "\\n[0-9]+ ok, 0 failed, 0 skipped" verify -I ${INPUTS}/mcpl/backends/include
          ${INPUTS}/mcpl/backends/imported_name_clash.mcl)
# Records of one name in two modules, and imported records named like the
# root's function and kernel: the imported ones take their module's name.
foreach(pair cpp:x86_avx2 opencl:x86_avx2 cuda:hopper hls:alveo_u250 llvm:x86_avx2)
  string(REPLACE ":" ";" pair ${pair})
  list(GET pair 0 backend)
  list(GET pair 1 target)
  mclc_test(gen_imported_record_clash_${backend} 0 NO_OUTPUT gen --target ${target} --backend ${backend}
            -I ${INPUTS}/mcpl/backends/include ${INPUTS}/mcpl/backends/imported_record_clash.mcl
            -o gen_imported_record_clash_${backend})
endforeach()
mclc_test(verify_imported_record_clash 0 "\\n[0-9]+ ok, 0 failed, 0 skipped" verify -I ${INPUTS}/mcpl/backends/include
          ${INPUTS}/mcpl/backends/imported_record_clash.mcl)
# A parameter's record holding an imported record named like the root's:
# verify's harness names each record through the kernel's parameters.
mclc_test(verify_record_holding_imported_record 0 "\\n[0-9]+ ok, 0 failed, 0 skipped" verify
          -I ${INPUTS}/mcpl/runtime ${INPUTS}/mcpl/runtime/record_two_pairs.mcl)
# Swapping whole arrays (backends/cfamily/ArraySwaps.h): the C-family
# backends trade pointers (or a thread's elements) as the interpreter trades
# the names' storage; the hls backend trades only the elements of its own
# arrays and refuses swaps of parameters at the swap, and every C-family
# backend refuses a swap inside a foreach of arrays declared outside it.
mclc_test(run_array_swap 0 "a: 33 elements" run ${INPUTS}/mcpl/backends/array_swap.mcl)
mclc_test(verify_array_swap 0 "\\n[0-9]+ ok, 0 failed, 0 skipped"
          verify ${INPUTS}/mcpl/backends/array_swap.mcl)
mclc_test(verify_swapped_before_writing 0 "(?s)skip [^\\n]*hls at alveo_u250: refused: [^\\n]*swapped_before_writing.mcl:11:5: error: swaps of parameters, of arrays whose size is not constant and of arrays that a view names.*\\n[0-9]+ ok, 0 failed, 1 skipped"
          verify ${INPUTS}/mcpl/verify/swapped_before_writing.mcl)
mclc_test(verify_swapped_buffers 0 "(?s)skip [^\\n]*hls at alveo_u250: refused: [^\\n]*swapped_buffers.mcl:22:9: error: swaps of parameters, of arrays whose size is not constant and of arrays that a view names.*\\n[0-9]+ ok, 0 failed, 1 skipped"
          verify ${INPUTS}/mcpl/verify/swapped_buffers.mcl)
mclc_test(verify_swapped_viewed_array 0 "\\n[0-9]+ ok, 0 failed, 0 skipped"
          verify ${INPUTS}/mcpl/backends/swapped_viewed_array.mcl)
foreach(backend opencl cuda)
  mclc_test(gen_swap_in_every_thread_${backend} 1 "swap_in_every_thread.mcl:18:27: error: swaps inside a foreach of arrays declared outside it \\('cur', outside the foreach at line 12, each of whose units would swap it. swap outside the loop\\) are not supported by the ${backend} backend"
            gen --target hopper --backend ${backend} ${INPUTS}/mcpl/backends/swap_in_every_thread.mcl -o gen_out)
endforeach()
mclc_test(verify_swap_in_a_device_function 0 "(?s)skip [^\\n]*opencl at hopper: refused: [^\\n]*swap_in_a_device_function.mcl:11:5: error: swaps of arrays in two address spaces \\('private' and '__local' here\\) are not supported by the opencl backend.*\\n[0-9]+ ok, 0 failed, 3 skipped"
          verify ${INPUTS}/mcpl/backends/swap_in_a_device_function.mcl)
mclc_test(run_swap_in_every_thread 0 "y: 65 elements" run --param n=65 ${INPUTS}/mcpl/backends/swap_in_every_thread.mcl)
# A constant computed with ^: OpenCL and CUDA refuse the float one at its
# value (they need it at compile time) and fold the int one; cpp computes both.
foreach(backend opencl cuda)
  mclc_test(gen_computed_constant_${backend} 1 "computed_constant.mcl:8:26: error: the ${backend} backend needs constant 'kScale' at compile time" gen --target hopper --backend ${backend} ${INPUTS}/mcpl/backends/computed_constant.mcl -o gen_out)
endforeach()
mclc_test(verify_computed_constant_cpp 0 "\\n[0-9]+ ok, 0 failed, 0 skipped" verify --backends cpp --targets x86_avx2 ${INPUTS}/mcpl/backends/computed_constant.mcl)
add_test(NAME cli.gen_writes_files
         COMMAND sh -c "rm -rf gen_files && $<TARGET_FILE:mclc> gen --target x86_avx2 --backend cpp ${VECTORADD} -o gen_files/nested && test -f gen_files/nested/vectoradd.h && test -f gen_files/nested/vectoradd.cpp && test -f gen_files/nested/vectoradd_kernels.cpp && test -f gen_files/nested/mcl_runtime.h && rm -rf gen_files")

# Feedback: formats and usage.
mclc_test(feedback_text 0 "matmul.mcl:9:14: remark: 'matmul' on 'thread' executes 2\\*m\\*n\\*p\\+m\\*n computational instructions"
          feedback ${CMAKE_SOURCE_DIR}/examples/matmul/matmul.mcl)
add_test(NAME cli.feedback_json
         COMMAND sh -c "$<TARGET_FILE:mclc> feedback --format json --param n=10 --param m=20 --param p=30 ${CMAKE_SOURCE_DIR}/examples/matmul/matmul.mcl | python3 -c 'import json,sys; r=json.load(sys.stdin)[\"remarks\"]; q=[x for x in r if x[\"kind\"]==\"operations\"][0][\"quantities\"][\"computations\"]; assert q[\"expr\"]==\"2*m*n*p+m*n\" and q[\"value\"]==12200, q'")
add_test(NAME cli.feedback_sarif
         COMMAND sh -c "$<TARGET_FILE:mclc> feedback --format sarif ${CMAKE_SOURCE_DIR}/examples/matmul/matmul.mcl | python3 -c 'import json,sys; s=json.load(sys.stdin); assert s[\"version\"]==\"2.1.0\" and s[\"runs\"][0][\"results\"], s'")
mclc_test(feedback_bad_param 2 "--param expects NAME=NUMBER, not 'n'" feedback --param n ${CMAKE_SOURCE_DIR}/examples/matmul/matmul.mcl)
mclc_test(feedback_bad_format 2 "--format is text, json or sarif, not 'xml'" feedback --format xml ${CMAKE_SOURCE_DIR}/examples/matmul/matmul.mcl)
mclc_test(feedback_input_error 1 "type_error.mcl:4:31: error" feedback ${INPUTS}/mcpl/bad/type_error.mcl)
# Example values that make a quantity divide by zero stop the pass, not mclc.
mclc_test(feedback_zero_params 0 "analysis stopped: .*division by zero"
          feedback --param h=0 --param w=0 --param fh=0 --param fw=0 ${CMAKE_SOURCE_DIR}/examples/convolution/convolution.mcl)

# mclc run: the interpreter and the backends runnable here on seeded inputs;
# mclc verify: versions and backends against the interpreter. The broken
# refinements of matmul_gpu_v1 (an off-by-one loop bound, a removed barrier)
# are caught with the element, the version and the engine named.
set(MATMUL ${CMAKE_SOURCE_DIR}/examples/matmul)
set(VERIFY_INPUTS ${INPUTS}/mcpl/verify)
mclc_test(run_interpreter 0 "^matmul \\(interpreter, n=5 m=35 p=37, seed 1\\)\\nc: 175 elements, sum -?[0-9.]+\\ntime: " run ${MATMUL}/matmul.mcl --param n=5 --engine interp)
mclc_test(run_cpp 0 "^matmul \\(cpp at x86_avx2, n=5 m=35 p=37, seed 1\\)\\nc: 175 elements" run ${MATMUL}/matmul.mcl --param n=5 --backend cpp --target x86_avx2)
mclc_test(run_param_before_the_file 0 "^matmul \\(interpreter, n=5 m=35 p=37, seed 1\\)" run --param n=5 --engine interp ${MATMUL}/matmul.mcl)
mclc_test(run_unknown_param 2 "'zz' is not a scalar parameter of kernel 'matmul'" run ${MATMUL}/matmul.mcl --param zz=5)
mclc_test(run_param_not_a_number 2 "--param n: '5x' is not a number" run ${MATMUL}/matmul.mcl --param n=5x)
mclc_test(run_param_not_an_int 2 "--param n: '2.5' is not an int" run ${MATMUL}/matmul.mcl --param n=2.5)
# Sizes past any machine's memory: refused with the numbers before anything
# is allocated, not an out-of-memory crash.
mclc_test(run_past_the_memory 1 "matmul\\.mcl:[0-9]+:[0-9]+: error: the parameters of 'matmul' at n=1000000 m=1000000 p=1000000 hold 3000000000003 values: [0-9.]+ GiB as the interpreter keeps them \\(the inputs and one run's results\\), more than this machine's [0-9.]+ GiB of memory. run it at smaller sizes"
          run ${MATMUL}/matmul.mcl --param n=1000000 --param m=1000000 --param p=1000000)
mclc_test(run_past_64_bits 1 "error: the parameters of 'matmul' at n=2000000000 m=2000000000 p=2000000000 hold more values than a 64-bit machine can address"
          run ${MATMUL}/matmul.mcl --param n=2000000000 --param m=2000000000 --param p=2000000000)
mclc_test(verify_past_the_memory 1 "error: the parameters of 'matmul' at n=1000000 m=1000002 p=1000004 hold 3000012000011 values"
          verify ${MATMUL}/matmul.mcl --sizes 1000000 --backends opencl --targets hopper)
mclc_test(run_negative_size 1 "matmul.mcl:[0-9]+:[0-9]+: error: array size is negative \\(-3\\)" run ${MATMUL}/matmul.mcl --param n=-3)
mclc_test(run_unknown_kernel 2 "has no kernel 'matmull'.*did you mean 'matmul'" run ${MATMUL}/matmul.mcl --kernel matmull)
mclc_test(run_module_without_kernel 1 "no_kernel.mcl:2:8: error: module 'no_kernel' has no kernel" run ${INPUTS}/mcpl/backends/no_kernel.mcl)
mclc_test(verify_module_without_kernel 1 "no_kernel.mcl:2:8: error: module 'no_kernel' has no kernel" verify ${INPUTS}/mcpl/backends/no_kernel.mcl)
mclc_test(run_backend_without_target 2 "--backend and --target go together" run ${MATMUL}/matmul.mcl --backend cpp)
mclc_test(run_index_out_of_range 1 "bad_index.mcl:9:15: error: index 0 of 'out' is 33, outside 0..32" run ${VERIFY_INPUTS}/bad_index.mcl --engine interp)
mclc_test(run_index_out_of_range_llvm 1 "bad_index.mcl:9:15: error: index outside the array's extent \\(llvm engine\\)" run ${VERIFY_INPUTS}/bad_index.mcl)
# Literals where a double is wanted are doubles in every engine and backend
# (the interpreter's values: InterpreterTest).
mclc_test(verify_double_literals 0 "\\n[0-9]+ ok, 0 failed, 0 skipped" verify ${VERIFY_INPUTS}/double_literals.mcl)
# A float literal is rounded once, to its type, in every engine and backend
# (InterpreterTest.FloatLiteralsAreRoundedOnceToTheirType).
mclc_test(verify_float_literal_rounding 0 "\\n[0-9]+ ok, 0 failed, 0 skipped" verify ${VERIFY_INPUTS}/float_literal_rounding.mcl)
mclc_test(verify_unrunnable_backend 2 "backend 'cuda' cannot run here" verify ${MATMUL}/matmul.mcl --backends cuda)
mclc_test(verify_defer_with_results 2 "--defer excludes --deferred-results" verify ${MATMUL}/matmul.mcl --defer a --deferred-results b)
add_test(NAME cli.verify_deferred
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli/verify_deferred.sh $<TARGET_FILE:mclc> ${MATMUL} ${VERIFY_INPUTS})
set_tests_properties(cli.verify_deferred PROPERTIES TIMEOUT 600)
mclc_test(verify_catches_off_by_one 1 "(?s)FAIL +[^\\n]*matmul_gpu_off_by_one.mcl: opencl at hopper: at n=7 m=9 p=11: c\\[[0-9]+,[0-9]+\\] = [^\\n]*, the reference gives .*\\n[0-9]+ ok, [1-9][0-9]* failed"
          verify ${MATMUL}/matmul.mcl ${VERIFY_INPUTS}/matmul_gpu_off_by_one.mcl --targets hopper --backends opencl --sizes 7)
mclc_test(verify_catches_missing_barrier 1 "(?s)FAIL +[^\\n]*matmul_gpu_no_barrier.mcl: interpreter at gpu: [^\\n]*matmul_gpu_no_barrier.mcl:[0-9]+:[0-9]+: error: data race on 'l_a': unit tj = [0-9]+ of the foreach at line 26 (reads|writes) an element that unit tj = [0-9]+ .*FAIL +[^\\n]*matmul_gpu_no_barrier.mcl: interpreter at hopper: "
          verify ${MATMUL}/matmul.mcl ${VERIFY_INPUTS}/matmul_gpu_no_barrier.mcl --targets hopper --backends opencl --sizes 7)
mclc_test(verify_catches_missing_end_of_round_barrier 1 "(?s)FAIL +[^\\n]*matmul_hopper_no_end_barrier.mcl: interpreter at hopper: [^\\n]*matmul_hopper_no_end_barrier.mcl:[0-9]+:[0-9]+: error: data race on 's_[ab]': unit t = [0-9]+ of the foreach at line [0-9]+ writes an element that unit t = [0-9]+ of the foreach at line [0-9]+ read, with no barrier between"
          verify ${MATMUL}/matmul.mcl ${VERIFY_INPUTS}/matmul_hopper_no_end_barrier.mcl --backends opencl --sizes 7)
mclc_test(verify_catches_threads_past_the_limit 1 "(?s)threads_past_the_limit.mcl:9:[0-9]+: error: 1200 threads in a block, but gpu allows at most 1024 \\(gpu\\.[a-z_.]*threads\\.max_nr_units\\)"
          verify ${VERIFY_INPUTS}/threads_past_the_limit.mcl --backends opencl --sizes 600)
mclc_test(verify_threads_within_the_limit 0 "\\n[0-9]+ ok, 0 failed, 0 skipped"
          verify ${VERIFY_INPUTS}/threads_past_the_limit.mcl --backends opencl --sizes 1,7,512)
mclc_test(verify_catches_local_past_the_capacity 1 "(?s)local_past_the_capacity.mcl:9:[0-9]+: error: 's' brings memory space 'local' to 40008 bytes per block, but gpu has room for at most 32768 bytes \\(gpu\\.[a-z_.]*\\.capacity\\)"
          verify ${VERIFY_INPUTS}/local_past_the_capacity.mcl --backends opencl --sizes 5001)
mclc_test(verify_local_within_the_capacity 0 "\\n[0-9]+ ok, 0 failed, 0 skipped"
          verify ${VERIFY_INPUTS}/local_past_the_capacity.mcl --backends opencl --sizes 1,7,4096)
mclc_test(verify_runs_a_full_tile 1 "(?s)note: also at n=[0-9]+: a full tile of [0-9]+ and part of the next\\n.*FAIL +[^\\n]*scale_full_tiles_wrong.mcl: interpreter at gpu: at n=[0-9]+: y\\[[0-9]+\\] = "
          verify ${VERIFY_INPUTS}/scale.mcl ${VERIFY_INPUTS}/scale_full_tiles_wrong.mcl --backends opencl --targets hopper)
# A wrong version stays unlabelled: built without optimizing it differs as well.
mclc_test(verify_labels_only_differences_of_the_opencl_optimizer 1 "FAIL +[^\\n]*scale_full_tiles_wrong.mcl: opencl at hopper: at n=[0-9]+: [^(\\n]*\\n"
          verify ${VERIFY_INPUTS}/scale.mcl ${VERIFY_INPUTS}/scale_full_tiles_wrong.mcl --backends opencl --targets hopper)
mclc_test(verify_names_a_tile_it_leaves_out 0 "note: no size runs a full tile of 65536 \\(about [0-9.]+e\\+[0-9]+ steps of the interpreter\\). --sizes 65537 runs one\\n(?s).*\\n[0-9]+ ok, 0 failed, 0 skipped"
          verify ${VERIFY_INPUTS}/wide_chunks.mcl --backends opencl --targets hopper)
mclc_test(verify_leaves_out_a_tile_where_the_reference_fails 0 "^note: not also at n=4097 \\(a full tile of 4096\\): the reference fails there: [^\\n]*bins_below_4096.mcl:10:[0-9]+: error: index 0 of 'bins' is 4097(?s).*\\n[0-9]+ ok, 0 failed, 0 skipped"
          verify ${VERIFY_INPUTS}/bins_below_4096.mcl --backends opencl --targets hopper)
mclc_test(verify_keeps_a_tile_within_max_size 0 "^note: also at n=(?!4097)[0-9]+: a full tile of [0-9]+ and part of the next\\n(?s).*\\n[0-9]+ ok, 0 failed, 0 skipped"
          verify ${VERIFY_INPUTS}/bins_below_4096.mcl --backends opencl --targets hopper --max-size 1024)
mclc_test(verify_local_of_two_launches 0 "\\n[0-9]+ ok, 0 failed, 0 skipped"
          verify ${VERIFY_INPUTS}/local_of_two_launches.mcl --backends opencl --sizes 2000)
mclc_test(check_counts_the_local_of_two_launches_apart 0 NO_OUTPUT
          check ${VERIFY_INPUTS}/local_of_two_constant_launches.mcl)
mclc_test(verify_local_of_two_constant_launches 0 "\\n[0-9]+ ok, 0 failed, 0 skipped"
          verify ${VERIFY_INPUTS}/local_of_two_constant_launches.mcl --sizes 100,6000)
mclc_test(verify_catches_local_of_a_launch_past_the_capacity 1 "local_of_two_launches.mcl:11:[0-9]+: error: 's' brings memory space 'local' to 48000 bytes per block"
          verify ${VERIFY_INPUTS}/local_of_two_launches.mcl --backends opencl --sizes 4000)

# Every application's versions agree with the interpreter running its
# perfect kernel: each version at its own level, translated to a leaf of each
# backend runnable here, and through those backends (x86_avx2: cpp and
# opencl; hopper: opencl on PoCL; alveo_u250: hls by C simulation).
foreach(app vectoradd complexmul reduction matmul gesummv convolution histogram spmv blackscholes)
  file(GLOB versions ${CMAKE_SOURCE_DIR}/examples/${app}/*.mcl)
  list(REMOVE_ITEM versions ${CMAKE_SOURCE_DIR}/examples/${app}/${app}.mcl)
  mclc_test(verify_example.${app} 0 "\\n[0-9]+ ok, 0 failed, 0 skipped"
            verify -I ${CMAKE_SOURCE_DIR}/examples ${CMAKE_SOURCE_DIR}/examples/${app}/${app}.mcl ${versions}
            --targets x86_avx2,hopper,alveo_u250)
  set_tests_properties(cli.verify_example.${app} PROPERTIES LABELS verify)
endforeach()

# A constant count whose threads per block come from `nr_processors` keeps
# its guard: gpu's 16 processors divide 4096 units evenly, fermi's 15 do not.
mclc_test(translate_constant_count_keeps_guard_at_leaf 0 "(?s)const int z = b_z \\* nrThreads_z \\+ t_z.\\s+if \\(z < 4096\\) \\{"
          translate --hwd fermi ${CMAKE_SOURCE_DIR}/tests/difftest/found/translate_constant_count_keeps_guard_at_leaf.mcl)

# A local constant does not stand for a parameter of its name in another
# scope: the second loop keeps its guard.
mclc_test(translate_shadowed_constant_keeps_guard 0 "(?s)divide_up\\(T, nrThreads_i_2\\).*if \\(i < T\\) \\{\\n *a\\[i\\] = 1.0;"
          translate --hwd gpu ${VERIFY_INPUTS}/shadowed_constant.mcl)

# Kernels of the classes of wrong results found by kernels written outside
# the project: each verifies on every leaf and backend runnable here.
foreach(kernel partial_write index_shadows_count named_like_descriptions time_steps macro_names
               record_field_sized_by_constant function_named_main group_phases sibling_nest_depths
               sibling_group_nests linearised_thread_nest pushed_guards pushed_guards_nested
               pushed_guards_split pushed_guards_split_grid module_named_div
               declaration_reads_what_it_hides pure_calls_around_barriers shorter_sibling
               pure_call_before_item_loop module_constants unit_returns unit_returns_gpu
               kernel_calls kernel_calls_gpu kernel_calls_hidden_names kernel_calls_parameter_views divide_up_negative shared_array_views imperfect_nest imperfect_nest_gpu
               local_hides_extent atomics_in_every_space locals_named_like_functions
               written_arguments_in_every_space atomics_through_device_functions
               double_buffered_local swapped_private_arrays native_math)
  mclc_test(verify_regression.${kernel} 0 "\\n[0-9]+ ok, 0 failed, 0 skipped" verify -I ${CMAKE_SOURCE_DIR}/examples
            ${VERIFY_INPUTS}/${kernel}.mcl)
  set_tests_properties(cli.verify_regression.${kernel} PROPERTIES LABELS verify)
endforeach()
# The cuda backend's asynchronous copies, modelled by the interpreter with
# their stores landing where the generated code waits: verify runs it.
mclc_test(verify_regression.async_copies 0
          "ok    [^\\n]*: interpreter at hopper, asynchronous copies of cuda, llvm\\n(?s).*\\n[0-9]+ ok, 0 failed, 0 skipped"
          verify ${VERIFY_INPUTS}/async_copies.mcl)
set_tests_properties(cli.verify_regression.async_copies PROPERTIES LABELS verify)

# The value of a function with barriers, kept by each thread: the reference
# and the llvm engine run it for the threads together.
mclc_test(verify_regression.function_with_barrier_value 0 "\\n[0-9]+ ok, 0 failed, 0 skipped"
          verify ${VERIFY_INPUTS}/function_with_barrier_value.mcl)
set_tests_properties(cli.verify_regression.function_with_barrier_value PROPERTIES LABELS verify)
# Calls of functions with barriers inside larger expressions, conditions, a
# for's start and step, and a return's value: the reference and the llvm
# engine run them for the threads together. Translating to hopper (two
# levels) gives check's two warnings once each.
mclc_test(verify_regression.lockstep_call_expressions 0 "\\n[0-9]+ ok, 0 failed, 0 skipped"
          verify ${VERIFY_INPUTS}/lockstep_call_expressions.mcl)
set_tests_properties(cli.verify_regression.lockstep_call_expressions PROPERTIES LABELS verify)
mclc_test(verify_regression.lockstep_call_private_arguments 0 "\\n[0-9]+ ok, 0 failed, 0 skipped"
          verify ${VERIFY_INPUTS}/lockstep_call_private_arguments.mcl)
set_tests_properties(cli.verify_regression.lockstep_call_private_arguments PROPERTIES LABELS verify)
# A callee's parameter sized by a module constant that a parameter of the
# caller hides, or by a scalar parameter the callee writes, a callee that
# calls a function or declares a record a parameter of the caller hides:
# the call stays
# a call (opencl refuses it, located), and what runs it agrees with the
# reference.
mclc_test(verify_regression.kernel_call_hidden_extent 0 "\\n[0-9]+ ok, 0 failed, [0-9]+ skipped"
          verify --param K=4 ${INPUTS}/mcpl/backends/kernel_call_hidden_extent.mcl)
mclc_test(verify_regression.kernel_call_hidden_function 0 "skip +[^\\n]*opencl at [^\\n]*cannot call 'square' [^\\n]* \\(note: 'square' is not inlined here: it refers to 'sq', which the caller's 'sq' hides\\)(?s).*\\n[0-9]+ ok, 0 failed, [0-9]+ skipped"
          verify ${INPUTS}/mcpl/backends/kernel_call_hidden_function.mcl)
set_tests_properties(cli.verify_regression.kernel_call_hidden_function PROPERTIES LABELS verify)
mclc_test(gen_kernel_call_hidden_function 1 "kernel_call_hidden_function.mcl:39:5: note: 'square' is not inlined here: it refers to 'sq', which the caller's 'sq' hides(?s).*kernel_call_hidden_function.mcl:40:5: note: 'scale' is not inlined here: it refers to 'Pt', which the caller's 'Pt' hides"
          gen --target hopper --backend cuda ${INPUTS}/mcpl/backends/kernel_call_hidden_function.mcl -o gen_out)
mclc_test(gen_kernel_call_hidden_extent 1 "kernel_call_hidden_extent.mcl:23:5: error: the cuda backend cannot call 'fill' outside the foreach loops(?s).*kernel_call_hidden_extent.mcl:23:5: note: 'fill' is not inlined here: its parameter 'x', of type float\\[n, 3\\] here, would not see the elements of 'a', of type float\\[n, K\\],"
          gen --target hopper --backend cuda ${INPUTS}/mcpl/backends/kernel_call_hidden_extent.mcl -o gen_out)
set_tests_properties(cli.verify_regression.kernel_call_hidden_extent PROPERTIES LABELS verify)
mclc_test(translate_warns_once 0
          "^(?s)(?!(.*:59:40: warning){2})(?!(.*:62:56: warning){2}).*:59:40: warning: .*:62:56: warning: "
          translate --hwd hopper ${VERIFY_INPUTS}/lockstep_call_expressions.mcl)
# In the right operand of && (which the threads with a false left operand
# skip): check warns, the reference stops at the call, the llvm engine
# refuses it.
mclc_test(lockstep_call_in_skipped_operand 1
          "lockstep_call_in_skipped_operand.mcl:23:26: warning: the units of 'threads' may disagree on the left operand of '&&'(?s).*lockstep_call_in_skipped_operand.mcl:23:26: error: a function with a barrier in the right operand of '&&'"
          run --engine interp ${VERIFY_INPUTS}/lockstep_call_in_skipped_operand.mcl)
mclc_test(lockstep_call_in_skipped_operand_llvm 1
          "lockstep_call_in_skipped_operand.mcl:23:26: error: backend 'llvm' does not support a call of a function with a barrier in the right operand of '&&'"
          run --engine llvm ${VERIFY_INPUTS}/lockstep_call_in_skipped_operand.mcl)

# A divisor that is a parameter: check accepts it; 0 as its example value
# stops the analysis with a remark, at every level.
mclc_test(feedback_zero_divisor_param 0 "divisor_param.mcl:6:14: remark: .* analysis stopped: .*division by zero"
          feedback --param n=100 --param m=0 ${INPUTS}/mcpl/feedback_params/divisor_param.mcl)
mclc_test(feedback_zero_divisor_param_at_gpu 0 "divisor_param.mcl:6:14: remark: .* analysis stopped: .*division by zero"
          feedback --hwd gpu --param n=100 --param m=0 ${INPUTS}/mcpl/feedback_params/divisor_param.mcl)
# A constant division by zero never reaches feedback: check refuses it.
mclc_test(feedback_constant_division_by_zero 1 "division_by_zero_count.mcl:4:59: error: division by zero"
          feedback ${INPUTS}/mcpl/bad/division_by_zero_count.mcl)

# --param names an integer parameter and gives it a size; anything else is a
# usage error, not silently ignored.
mclc_test(feedback_unknown_param 2 "--param zz: no parameter of that name \\(integer parameters: m, n, p\\)"
          feedback --param zz=5 ${CMAKE_SOURCE_DIR}/examples/matmul/matmul.mcl)
mclc_test(feedback_negative_param 2 "--param n=-5: a size is a non-negative whole number"
          feedback --param n=-5 ${CMAKE_SOURCE_DIR}/examples/matmul/matmul.mcl)
mclc_test(feedback_fractional_param 2 "--param n=2.5: a size is a non-negative whole number"
          feedback --param n=2.5 ${CMAKE_SOURCE_DIR}/examples/matmul/matmul.mcl)
mclc_test(feedback_float_param 2 "--param alpha: 'alpha' is not an integer parameter"
          feedback --param alpha=2 ${CMAKE_SOURCE_DIR}/examples/gesummv/gesummv.mcl)
mclc_test(feedback_graph_unknown_param 2 "--param zz: no parameter of that name"
          feedback -I ${CMAKE_SOURCE_DIR}/examples --param zz=1 ${CMAKE_SOURCE_DIR}/examples/cnc/cholesky/cholesky.cnc)
# The default text output: the bound first, at most ten more, and the count of
# the rest; --all prints every remark JSON has.
mclc_test(feedback_ranked_bound_first 0 "^[^\\n]*remark: bound on hopper"
          feedback --hwd hopper ${CMAKE_SOURCE_DIR}/examples/matmul/matmul.mcl)
mclc_test(feedback_ranked_rest_counted 0 "mclc: [0-9]+ more remarks not shown. --all shows every remark"
          feedback --hwd hopper ${CMAKE_SOURCE_DIR}/examples/matmul/matmul.mcl)
add_test(NAME cli.feedback_all_loses_nothing
         COMMAND sh -c "mclc=$<TARGET_FILE:mclc>; f=${CMAKE_SOURCE_DIR}/examples/matmul/matmul.mcl; \
all=$($mclc feedback --all --hwd hopper $f | grep -c ': remark: '); \
json=$($mclc feedback --format json --hwd hopper $f | python3 -c 'import json,sys; print(len(json.load(sys.stdin)[\"remarks\"]))'); \
shown=$($mclc feedback --hwd hopper $f | grep -c ': remark: '); \
echo all=$all json=$json shown=$shown; [ $all -eq $json ] && [ $shown -le 15 ] && [ $shown -lt $all ]")
mclc_test(feedback_device_fill_gesummv 0 "keeps 8 of 132 sm units busy, 124 idle"
          feedback --hwd hopper --param n=8192 ${CMAKE_SOURCE_DIR}/examples/gesummv/gesummv.mcl)
# The top remark of each application at its refined version's level is the
# one the refinement acted on.
add_test(NAME cli.feedback_top_remarks
         COMMAND python3 ${CMAKE_CURRENT_SOURCE_DIR}/cli/top_remarks.py $<TARGET_FILE:mclc> ${CMAKE_SOURCE_DIR}/examples)
