# The Concurrent Collections front end (DESIGN.md section 13): a valid graph
# checks clean; each malformed graph of tests/inputs/cnc/bad (a copy of
# pipeline.cnc with one mistake) gives its located error and exit 1.
set(CNC_INPUTS ${CMAKE_CURRENT_SOURCE_DIR}/inputs/cnc)
mclc_test(cnc.valid_pipeline 0 NO_OUTPUT check ${CNC_INPUTS}/pipeline.cnc)
mclc_test(cnc.affinity_kind 1 "affinity_kind\\.cnc:12:27: error: unknown affinity kind 'TPU' \\(CPU, GPU or FPGA\\). did you mean 'CPU'\\?"
          check -I ${CNC_INPUTS} ${CNC_INPUTS}/bad/affinity_kind.cnc)
mclc_test(cnc.constant_type 1 "constant_type\\.cnc:3:2: error: constant 'n' is a float \\(64\\.0\\), but parameter 'n' of kernel 'blur' is int"
          check -I ${CNC_INPUTS} ${CNC_INPUTS}/bad/constant_type.cnc)
mclc_test(cnc.duplicate 1 "duplicate\\.cnc:8:2: error: step collection 'edges' is declared twice \\(first at 7:14\\)"
          check -I ${CNC_INPUTS} ${CNC_INPUTS}/bad/duplicate.cnc)
mclc_test(cnc.element_type 1 "element_type\\.cnc:6:12: error: item 'smooth' holds int, but parameter 'smooth' of kernel 'blur' is float\\[n, n\\]"
          check -I ${CNC_INPUTS} ${CNC_INPUTS}/bad/element_type.cnc)
mclc_test(cnc.empty_range 1 "empty_range\\.cnc:15:14: error: the range \\{15 \\.\\. 0\\} of 'f' is empty"
          check -I ${CNC_INPUTS} ${CNC_INPUTS}/bad/empty_range.cnc)
mclc_test(cnc.item_too_large 1 "item_too_large\\.cnc:5:54: error: item 'frame' holds more values than a 64-bit int counts"
          check -I ${CNC_INPUTS} ${CNC_INPUTS}/bad/item_too_large.cnc)
mclc_test(cnc.range_divides_by_zero 1 "range_divides_by_zero\\.cnc:15:22: error: a range of 'f' divides by zero"
          check -I ${CNC_INPUTS} ${CNC_INPUTS}/bad/range_divides_by_zero.cnc)
mclc_test(cnc.range_overflow 1 "range_overflow\\.cnc:15:57: error: a range of 'f' overflows a 64-bit int"
          check -I ${CNC_INPUTS} ${CNC_INPUTS}/bad/range_overflow.cnc)
mclc_test(cnc.gets_unread 1 "gets_unread\\.cnc:13:15: error: step 'blur' gets item 'smooth' into 'smooth', but its kernel never reads it"
          check -I ${CNC_INPUTS} ${CNC_INPUTS}/bad/gets_unread.cnc)
mclc_test(cnc.item_arity 1 "item_arity\\.cnc:16:9: error: item 'edges' is indexed by 2 tag components here but by 1 at 14:33"
          check -I ${CNC_INPUTS} ${CNC_INPUTS}/bad/item_arity.cnc)
mclc_test(cnc.item_extent 1 "item_extent\\.cnc:6:11: error: extent 2 of item 'smooth' is 32, but parameter 'smooth' of kernel 'blur' has 64 there"
          check -I ${CNC_INPUTS} ${CNC_INPUTS}/bad/item_extent.cnc)
mclc_test(cnc.item_type 1 "item_type\\.cnc:6:11: error: item 'smooth' has 1 extent, but parameter 'smooth' of kernel 'blur' is float\\[n, n\\]"
          check -I ${CNC_INPUTS} ${CNC_INPUTS}/bad/item_type.cnc)
mclc_test(cnc.never_put 1 "never_put\\.cnc:13:2: error: step 'blur' gets item 'frame', which neither the environment nor any step puts"
          check -I ${CNC_INPUTS} ${CNC_INPUTS}/bad/never_put.cnc)
mclc_test(cnc.no_kernel 1 "no_kernel\\.cnc:11:2: error: no kernel 'sharpen' in the imported modules \\(filters\\)"
          check -I ${CNC_INPUTS} ${CNC_INPUTS}/bad/no_kernel.cnc)
mclc_test(cnc.no_progression 1 "no_progression\\.cnc:13:15: error: step 'blur' gets 'edges' from a cycle of steps along which the tag does not progress: an instance would wait for itself"
          check -I ${CNC_INPUTS} ${CNC_INPUTS}/bad/no_progression.cnc)
mclc_test(cnc.not_prescribed 1 "not_prescribed\\.cnc:9:2: error: no tag collection prescribes step 'blur' \\(add `<tag> :: \\(blur\\).`\\)"
          check -I ${CNC_INPUTS} ${CNC_INPUTS}/bad/not_prescribed.cnc)
mclc_test(cnc.puts_unwritten 1 "puts_unwritten\\.cnc:13:45: error: step 'blur' puts item 'frame' from 'frame', but its kernel never writes it"
          check -I ${CNC_INPUTS} ${CNC_INPUTS}/bad/puts_unwritten.cnc)
mclc_test(cnc.range_not_constant 1 "range_not_constant\\.cnc:15:19: error: a range of 'f' uses 'm', which is neither an int constant nor an earlier range's name: bounds must be constant"
          check -I ${CNC_INPUTS} ${CNC_INPUTS}/bad/range_not_constant.cnc)
mclc_test(cnc.syntax 1 "syntax\\.cnc:9:6: error: syntax error: no viable alternative at input '\\(blur.'"
          check -I ${CNC_INPUTS} ${CNC_INPUTS}/bad/syntax.cnc)
mclc_test(cnc.tag_arity 1 "tag_arity\\.cnc:13:17: error: step 'blur' is prescribed by 'f', whose tags have 1 component, but this relation names 2"
          check -I ${CNC_INPUTS} ${CNC_INPUTS}/bad/tag_arity.cnc)
mclc_test(cnc.tag_component 1 "tag_component\\.cnc:13:10: error: the tag function of 'frame' uses 'j', which is neither a component of the tag of \\(blur : k\\) nor an int constant. did you mean 'k'\\?"
          check -I ${CNC_INPUTS} ${CNC_INPUTS}/bad/tag_component.cnc)
mclc_test(cnc.unknown_import 1 "unknown_import\\.cnc:2:8: error: cannot find module 'filterz': no filterz\\.mcl under "
          check -I ${CNC_INPUTS} ${CNC_INPUTS}/bad/unknown_import.cnc)
mclc_test(cnc.unknown_item 1 "unknown_item\\.cnc:13:2: error: unknown item collection 'frames'. did you mean 'frame'\\?"
          check -I ${CNC_INPUTS} ${CNC_INPUTS}/bad/unknown_item.cnc)
mclc_test(cnc.unknown_step 1 "unknown_step\\.cnc:11:9: error: unknown step collection 'blurr'. did you mean 'blur'\\?"
          check -I ${CNC_INPUTS} ${CNC_INPUTS}/bad/unknown_step.cnc)
mclc_test(cnc.unknown_tag 1 "unknown_tag\\.cnc:11:2: error: unknown tag collection 'g'. did you mean 'f'\\?"
          check -I ${CNC_INPUTS} ${CNC_INPUTS}/bad/unknown_tag.cnc)
mclc_test(cnc.unmatched_parameter 1 "unmatched_parameter\\.cnc:9:2: error: parameter 'threshold' of kernel 'sobel' matches no constant or tag component \\(parameters are matched by name\\)"
          check -I ${CNC_INPUTS} ${CNC_INPUTS}/bad/unmatched_parameter.cnc)
mclc_test(cnc.parameter_twice 1 "parameter_twice\\.cnc:13:15: error: parameter 'frame' of kernel 'blur' is bound to two items the step gets \\(frame and this one\\)"
          check -I ${CNC_INPUTS} ${CNC_INPUTS}/bad/parameter_twice.cnc)
# Feedback on a graph: each step's kernel remarks with the graph's constants
# as example values, and each edge's bytes per tag.
mclc_test(cnc.feedback 0 "(?s)filters\\.mcl:6:14: remark: 'blur' on 'thread' executes n\\^2 \\(= 4096\\).*pipeline\\.cnc:13:2: remark: step 'blur' gets 'frame' \\(4096 x float\\): 16384 bytes per tag \\[transfers\\]"
          feedback ${CNC_INPUTS}/pipeline.cnc)

# The graphs on the runtime (mclc gen --graph, mcl_add_graph), the test
# graph and examples/cnc: the result with CPU workers only, the OpenCL worker
# only, both, and two MPI ranks.
if(MCL_BUILD_RUNTIME_EXAMPLES)
  include(${CMAKE_SOURCE_DIR}/cmake/MclKernels.cmake)
  add_executable(cnc_pipeline cnc/app/pipeline_main.cpp)
  target_include_directories(cnc_pipeline PRIVATE ${CMAKE_SOURCE_DIR}/examples)
  target_compile_options(cnc_pipeline PRIVATE ${MCL_WARNINGS})
  mcl_add_graph(TARGET cnc_pipeline GRAPH inputs/cnc/pipeline.cnc MPI)
  foreach(app ${MCL_CNC_APPS} pipeline)
    mcl_run_app_tests(cnc.${app} cnc_${app} cpu opencl both mpi)
  endforeach()
  # mclc verify GRAPH.cnc: the graph with the interpreter against the runtime.
  add_test(NAME cnc.verify COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cnc/verify_graph.sh $<TARGET_FILE:mclc>)
  set_tests_properties(cnc.verify PROPERTIES LABELS runtime TIMEOUT 900)
endif()
