# The heterogeneous runtime (DESIGN.md section 12): the generator's version
# table and refusals, and each example of examples/runtime run with CPU
# workers only, the OpenCL (PoCL) worker only, both, under mpirun, and with
# an injected device failure. ctest -R runtime runs them.
set(RUNTIME_INPUTS ${CMAKE_CURRENT_SOURCE_DIR}/inputs/mcpl/runtime)

# The version each leaf runs for matmul (the table of the issue).
mclc_test(runtime.matmul_version_table 0
          "kernel matmul\\n  alveo_u250 <- matmul \\(perfect\\)[^\\n]*\\n  fermi      <- matmul_gpu_v1 \\(gpu\\)[^\\n]*\\n  hopper     <- matmul_hopper_v2 \\(hopper\\)[^\\n]*\\n  mi100      <- matmul_gpu_v1 \\(gpu\\)[^\\n]*\\n  x86_avx2   <- matmul_x86_avx2_v2 \\(x86_avx2\\): cpu workers \\(cpp\\), opencl workers \\(opencl\\)[^\\n]*\\n  xeon_phi   <- matmul \\(perfect\\)"
          gen --runtime starpu ${CMAKE_SOURCE_DIR}/examples/matmul/matmul.mcl ${CMAKE_SOURCE_DIR}/examples/matmul/matmul_gpu.mcl
          ${CMAKE_SOURCE_DIR}/examples/matmul/matmul_gpu_v1.mcl ${CMAKE_SOURCE_DIR}/examples/matmul/matmul_hopper.mcl
          ${CMAKE_SOURCE_DIR}/examples/matmul/matmul_hopper_v2.mcl ${CMAKE_SOURCE_DIR}/examples/matmul/matmul_x86_avx2.mcl
          ${CMAKE_SOURCE_DIR}/examples/matmul/matmul_x86_avx2_v2.mcl -o ${CMAKE_CURRENT_BINARY_DIR}/runtime_matmul_gen)
mclc_test(runtime.versions_disagree 1
          "scale_other_params.mcl:5:34: error: parameter 2 of 'scale' is 'double factor' here but 'float factor' in module 'scale'"
          gen --runtime starpu ${RUNTIME_INPUTS}/scale.mcl ${RUNTIME_INPUTS}/scale_other_params.mcl
          -o ${CMAKE_CURRENT_BINARY_DIR}/runtime_refused)
mclc_test(runtime.written_scalar_refused 1
          "^[^\\n]*writes_scalar.mcl:5:39: error: kernel 'writes_scalar' writes its scalar parameter 'count'. the runtime passes scalars by value"
          gen --runtime starpu ${RUNTIME_INPUTS}/writes_scalar.mcl -o ${CMAKE_CURRENT_BINARY_DIR}/runtime_refused)
mclc_test(runtime.written_scalar_in_a_refined_version_refused 1
          "^[^\\n]*scale_writes_factor.mcl:6:34: error: kernel 'scale' writes its scalar parameter 'factor'. the runtime passes scalars by value"
          gen --runtime starpu ${RUNTIME_INPUTS}/scale.mcl ${RUNTIME_INPUTS}/scale_writes_factor.mcl
          -o ${CMAKE_CURRENT_BINARY_DIR}/runtime_refused)
# Records as parameters: the header defines them for submit (the
# particles example runs them); the versions' records must have one set of
# fields, and the header one record of a name, not named like its functions.
add_test(NAME cli.runtime.record_param_header
         COMMAND sh -c "rm -rf runtime_records && $<TARGET_FILE:mclc> gen --runtime starpu ${RUNTIME_INPUTS}/record_param.mcl -I ${CMAKE_SOURCE_DIR}/examples -o runtime_records > /dev/null && grep -q 'float imag;' runtime_records/record_param.h && grep -q 'mcl::rt::Vector<Complex>& c' runtime_records/record_param.h")
mclc_test(runtime.record_of_other_fields 1
          "record_other_fields.mcl:11:42: error: parameter 2 of 'conjugate' is 'Complex\\[\\] c' here but 'Complex\\[\\] c' in module 'record_param', a record of other fields"
          gen --runtime starpu ${RUNTIME_INPUTS}/record_param.mcl ${RUNTIME_INPUTS}/record_other_fields.mcl
          -I ${CMAKE_SOURCE_DIR}/examples -o ${CMAKE_CURRENT_BINARY_DIR}/runtime_refused)
mclc_test(runtime.record_named_like_generated_code 1
          "record_named_submit.mcl:6:6: error: record 'submit' is named like a function of the runtime's generated code for module 'record_named_submit'"
          gen --runtime starpu ${RUNTIME_INPUTS}/record_named_submit.mcl -o ${CMAKE_CURRENT_BINARY_DIR}/runtime_refused)
mclc_test(runtime.two_records_of_one_name 1
          "record_two_pairs.mcl:8:6: error: the runtime's header defines one record 'Pair', but the kernels' parameters use two of other fields \\(the other in module 'pairs'\\)"
          gen --runtime starpu ${RUNTIME_INPUTS}/record_two_pairs.mcl -I ${RUNTIME_INPUTS}
          -o ${CMAKE_CURRENT_BINARY_DIR}/runtime_refused)
mclc_test(runtime.name_not_an_identifier 1 "error: --name 'bad-name' is not an identifier"
          gen --runtime starpu --name bad-name ${RUNTIME_INPUTS}/scale.mcl -o ${CMAKE_CURRENT_BINARY_DIR}/runtime_refused)
mclc_test(runtime.unknown_runtime 1 "error: unknown runtime 'cuda' \\(there is: starpu\\)"
          gen --runtime cuda ${RUNTIME_INPUTS}/scale.mcl -o ${CMAKE_CURRENT_BINARY_DIR}/runtime_refused)
mclc_test(runtime.target_and_runtime_exclusive 2 "--target excludes --runtime"
          gen --runtime starpu --target hopper ${RUNTIME_INPUTS}/scale.mcl -o ${CMAKE_CURRENT_BINARY_DIR}/runtime_refused)
mclc_test(verify_reports_a_broken_target_configuration 1 "FAIL +[^\\n]*vectoradd.mcl: target configuration of x86_avx2: [^\\n]*x86_avx2.json:109:5: error: \"name\" is not a valid regular expression"
          verify ${CMAKE_SOURCE_DIR}/examples/vectoradd/vectoradd.mcl --targets x86_avx2 --hwd-path ${CMAKE_CURRENT_SOURCE_DIR}/inputs/hdl/bad_match)
mclc_test(runtime.bad_match_regex 1
          "bad_match/targets/x86_avx2.json:109:5: error: \"name\" is not a valid regular expression"
          list-targets --hwd-path ${CMAKE_CURRENT_SOURCE_DIR}/inputs/hdl/bad_match)

# mcl_run_app_tests(NAME TARGET MODE...): a test NAME.MODE per mode of
# tests/runtime/run_app.sh running TARGET.
function(mcl_run_app_tests name target)
  foreach(mode ${ARGN})
    add_test(NAME ${name}.${mode}
             COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/runtime/run_app.sh $<TARGET_FILE:${target}> ${mode})
    set_tests_properties(${name}.${mode} PROPERTIES TIMEOUT 300 LABELS runtime
                         ENVIRONMENT "OMP_NUM_THREADS=1" RESOURCE_LOCK cpu_cores)
  endforeach()
endfunction()

if(MCL_BUILD_RUNTIME_EXAMPLES)
  foreach(app ${MCL_RUNTIME_APPS})
    mcl_run_app_tests(runtime.${app} runtime_${app}
                      cpu opencl both static affinity mpi fail-opencl fail-cpu trace leaf generic)
  endforeach()
  # What the runtime writes for every application is written in one place.
  mcl_run_app_tests(runtime.matmul runtime_matmul trace-to-a-full-disk)
endif()

# The refined versions of the runtime examples equal their perfect ones on
# every runnable backend (nbody's sizes named: verify's defaults put the
# block outside the bodies; kmeans' d named: kmeans_gpu's local memory
# holds d below about 30 on gpu's 32 kB, and size 33 would give d = 37).
set(RUNTIME_EXAMPLES ${CMAKE_SOURCE_DIR}/examples/runtime)
mclc_test(verify.runtime.kmeans 0 "(?s)\\n[0-9]+ ok, 0 failed"
          verify ${RUNTIME_EXAMPLES}/kmeans/kmeans.mcl ${RUNTIME_EXAMPLES}/kmeans/kmeans_gpu.mcl --sizes 1,7,33
          --param d=8 -I ${CMAKE_SOURCE_DIR}/examples)
foreach(block "n=1000;nb=33;first=967" "n=300;nb=257;first=10" "n=7;nb=7;first=0")
  string(REPLACE ";" "_" label "${block}")
  string(REPLACE "=" "" label "${label}")
  set(params)
  foreach(p ${block} eps2=0.01)
    list(APPEND params --param ${p})
  endforeach()
  mclc_test(verify.runtime.nbody.${label} 0 "(?s)\\n[0-9]+ ok, 0 failed"
            verify ${RUNTIME_EXAMPLES}/nbody/nbody.mcl ${RUNTIME_EXAMPLES}/nbody/nbody_gpu.mcl --sizes 1 ${params}
            -I ${CMAKE_SOURCE_DIR}/examples)
endforeach()
