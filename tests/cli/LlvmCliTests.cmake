# The llvm engine and backend through the mclc command line (included from
# tests/CMakeLists.txt when MCL_WITH_LLVM): run with either engine, its
# errors, --emit-llvm, gen --backend llvm, and verify of every example
# application with the llvm engine and backend.
set(LLVM_CLI ${CMAKE_CURRENT_SOURCE_DIR}/cli)
set(LLVM_EXAMPLES ${CMAKE_SOURCE_DIR}/examples)

# Both engines print the same checksums on the same seeded inputs: matmul
# at perfect, and versions at gpu (barriers, local memory, atomics) and at
# x86_avx2 (vectors).
foreach(file matmul/matmul.mcl matmul/matmul_gpu_v1.mcl histogram/histogram_gpu.mcl
             convolution/convolution_gpu.mcl gesummv/gesummv_x86.mcl)
  string(REPLACE "/" "." name ${file})
  add_test(NAME cli.llvm_engine.same_checksums.${name}
           COMMAND ${LLVM_CLI}/llvm_same_checksums.sh $<TARGET_FILE:mclc> ${LLVM_EXAMPLES}/${file} -I ${LLVM_EXAMPLES})
endforeach()

# Engines: an unknown one is bad usage; the llvm engine is the default.
mclc_test(llvm_engine.unknown_engine 2 "mclc: error: no engine 'nosuch' \\(available: llvm, interp\\)"
          run --engine nosuch ${LLVM_EXAMPLES}/vectoradd/vectoradd.mcl)
mclc_test(llvm_engine.verify_unknown_engine 2 "mclc: error: no engine 'nosuch'"
          verify --engine nosuch ${LLVM_EXAMPLES}/vectoradd/vectoradd.mcl)
mclc_test(llvm_engine.is_the_default 0 "^vectoradd \\(llvm engine, n=33, seed 1\\)\\n"
          run ${LLVM_EXAMPLES}/vectoradd/vectoradd.mcl)
mclc_test(llvm_engine.excludes_backend 2 "--engine and --backend exclude each other"
          run --engine llvm --backend cpp --target x86_avx2 ${LLVM_EXAMPLES}/vectoradd/vectoradd.mcl)

# A kernel the llvm engine refuses (a function with a barrier that returns
# before its last statement):
# run falls back to the interpreter with a note, unless --engine llvm was
# asked for; verify counts the engine as skipped, not failed.
mclc_test(llvm_engine.refusal_falls_back 0
          "(?s)the llvm engine does not run this kernel, the interpreter does: [^\\n]*barrier_in_call.mcl:18:13: error: .*\\(interpreter, , seed 1\\)"
          run ${LLVM_CLI}/llvm/barrier_in_call.mcl)
mclc_test(llvm_engine.refusal_asked_for 1 "barrier_in_call.mcl:18:13: error: backend 'llvm' does not support a call of a function with a barrier that returns before its last statement"
          run --engine llvm ${LLVM_CLI}/llvm/barrier_in_call.mcl)
mclc_test(llvm_engine.refusal_skipped_in_verify 0 "(?s)skip  [^\\n]*llvm engine at gpu: refused: .*[0-9]+ ok, 0 failed, [1-9][0-9]* skipped"
          verify ${LLVM_CLI}/llvm/barrier_in_call.mcl --backends cpp)
# The engine's refusal is its own: the backends of the leaf, which share the
# version it refused, still generate their code.
mclc_test(llvm_engine.refusal_is_the_engines_alone 0 "(?s)skip  [^\\n]*llvm engine at hopper: refused: .*\\ndefer [^\\n]*cuda at hopper: written to .*\\ndefer [^\\n]*llvm at hopper: written to .*\\nok    [^\\n]*opencl at hopper\\n4 ok, 0 failed, 2 skipped, 2 deferred"
          verify --targets hopper --defer llvm_engine_refusal ${LLVM_CLI}/llvm/barrier_in_call.mcl)

# A division by zero is an error at the division, from either engine.
mclc_test(llvm_engine.division_by_zero 1
          "^[^\\n]*div_zero.mcl:9:22: error: integer division by zero \\(llvm engine\\)\\n"
          run ${LLVM_CLI}/llvm/div_zero.mcl)
mclc_test(llvm_engine.division_by_zero_interp 1 "div_zero.mcl:9:22: error: division by zero: 100 / 0"
          run --engine interp ${LLVM_CLI}/llvm/div_zero.mcl)
# After a fault the engine goes on with a harmless value; where that value
# decides a loop's progress the kernel must still end with the fault (it
# hung before b9397d4); `timeout` keeps a regression from hanging ctest.
add_test(NAME cli.llvm_engine.fault_in_loop_ends
         COMMAND timeout 20 ${EXPECT} 1 "fault_in_loop.mcl:10:41: error: index outside the array's extent \\(llvm engine\\)"
                 $<TARGET_FILE:mclc> run ${LLVM_CLI}/llvm/fault_in_loop.mcl)

# --emit-llvm writes the optimized IR, which defines the kernel's symbol.
add_test(NAME cli.llvm_engine.emit_llvm
         COMMAND ${LLVM_CLI}/llvm_emit_ir.sh $<TARGET_FILE:mclc> ${LLVM_EXAMPLES}/matmul/matmul.mcl mcl_llvm_6matmul_matmul)
mclc_test(llvm_engine.emit_llvm_unwritable 1 "cannot write '/nonexistent/dir/k.ll'"
          run --emit-llvm /nonexistent/dir/k.ll ${LLVM_EXAMPLES}/vectoradd/vectoradd.mcl)

# verify --engine interp runs no llvm engine (the llvm backend still runs).
mclc_test(llvm_engine.verify_interp_only 0
          "^(?![\\s\\S]*llvm engine)[\\s\\S]*ok    [^\\n]*vectoradd.mcl: llvm at x86_avx2\\n"
          verify --engine interp --targets x86_avx2 --backends llvm ${LLVM_EXAMPLES}/vectoradd/vectoradd.mcl)

# gen --backend llvm writes the object, the glue and the two headers.
add_test(NAME cli.llvm_backend.gen_files.matmul
         COMMAND ${LLVM_CLI}/llvm_gen_files.sh $<TARGET_FILE:mclc> ${LLVM_EXAMPLES}/matmul/matmul.mcl matmul matmul)
add_test(NAME cli.llvm_backend.gen_files.complexmul
         COMMAND ${LLVM_CLI}/llvm_gen_files.sh $<TARGET_FILE:mclc> ${LLVM_EXAMPLES}/complexmul/complexmul.mcl
                 complexmul complexmul)

# Floating-point freedoms: --fp-contract fuses multiplies and adds into FMAs
# (none by default); --fp-contract and --fast-math belong to the llvm engine
# and backend, other backends' compilers decide for themselves.
add_test(NAME cli.llvm_backend.fp_contract
         COMMAND ${LLVM_CLI}/llvm_fp_contract.sh $<TARGET_FILE:mclc> ${LLVM_EXAMPLES}/matmul/matmul.mcl)
mclc_test(llvm_backend.fp_contract_other_backend 1
          "error: --fp-contract and --fast-math apply to the llvm backend only. the cpp backend.s compiler decides"
          gen --backend cpp --target x86_avx2 --fp-contract ${LLVM_EXAMPLES}/matmul/matmul.mcl -o ${CMAKE_CURRENT_BINARY_DIR}/fp_contract_cpp)
# --cpu: the object is for another CPU than the leaf's (wider vectors for
# one with AVX-512), or for this machine's (native); only for the llvm
# backend and CPU leaves, and only CPUs LLVM knows.
add_test(NAME cli.llvm_backend.cpu
         COMMAND ${LLVM_CLI}/llvm_cpu.sh $<TARGET_FILE:mclc> ${LLVM_EXAMPLES}/spmv/spmv.mcl)
mclc_test(llvm_backend.cpu_unknown 1 "error: --cpu 'nosuch': LLVM does not know the CPU 'nosuch'"
          gen --backend llvm --target x86_avx2 --cpu nosuch ${LLVM_EXAMPLES}/matmul/matmul.mcl
          -o ${CMAKE_CURRENT_BINARY_DIR}/cpu_unknown)
mclc_test(llvm_backend.cpu_other_backend 1 "error: --cpu applies to the llvm backend only"
          gen --backend cpp --target x86_avx2 --cpu native ${LLVM_EXAMPLES}/matmul/matmul.mcl
          -o ${CMAKE_CURRENT_BINARY_DIR}/cpu_cpp)
mclc_test(llvm_backend.cpu_gpu_leaf 1 "hopper.json:[0-9]+:[0-9]+: error: --cpu 'native' names a processor, but 'hopper' is a GPU leaf"
          gen --backend llvm --target hopper --cpu native ${LLVM_EXAMPLES}/matmul/matmul_gpu_v1.mcl
          -o ${CMAKE_CURRENT_BINARY_DIR}/cpu_gpu)
mclc_test(llvm_engine.fast_math_interp 2
          "--fp-contract and --fast-math apply to the llvm engine and the llvm backend only"
          run --engine interp --fast-math ${LLVM_EXAMPLES}/vectoradd/vectoradd.mcl)
mclc_test(llvm_engine.fp_contract_runs 0 "^matmul \\(llvm engine, "
          run --fp-contract ${LLVM_EXAMPLES}/matmul/matmul.mcl)

# The PTX for hopper: read-only parameters through the read-only data
# cache, shared memory in 32-bit addresses, matmul_hopper_v5 in 128
# registers (LICM hoists no guarded address arithmetic), and pointers that
# step through perfect convolution's filter loops.
add_test(NAME cli.llvm_backend.ptx_memory
         COMMAND ${LLVM_CLI}/llvm_ptx_memory.sh $<TARGET_FILE:mclc> ${LLVM_EXAMPLES})

# The threads of a block wait between its phases in the PTX too.
add_test(NAME cli.llvm_backend.ptx_group_phases
         COMMAND ${LLVM_CLI}/llvm_ptx_barriers.sh $<TARGET_FILE:mclc> ${LLVM_CLI}/llvm/group_phases.mcl 3)

# A function with barriers that the threads call is called in the PTX too.
add_test(NAME cli.llvm_backend.ptx_barrier_function
         COMMAND ${LLVM_CLI}/llvm_ptx_barriers.sh $<TARGET_FILE:mclc>
                 ${LLVM_CLI}/llvm/barrier_function_hopper.mcl 2+)

# The copies the cuda backend makes asynchronously are cp.async in the PTX too.
add_test(NAME cli.llvm_backend.ptx_async_copies
         COMMAND ${LLVM_CLI}/llvm_ptx_async_copies.sh $<TARGET_FILE:mclc>
                 ${CMAKE_SOURCE_DIR}/tests/inputs/mcpl/verify/async_copies.mcl)

# Atomics that device functions apply to parameters a call may pass a
# thread's own variable, where an atomic is undefined: plain updates in
# registers once inlined, atomics on device and shared memory.
add_test(NAME cli.llvm_backend.ptx_private_atomics
         COMMAND ${LLVM_CLI}/llvm_ptx_private_atomics.sh $<TARGET_FILE:mclc>
                 ${CMAKE_SOURCE_DIR}/tests/inputs/mcpl/verify/atomics_through_device_functions.mcl
                 ${CMAKE_SOURCE_DIR}/examples)

# A kernel that calls another kernel with a bool parameter (invalid IR for
# the backend before b9397d4: the bool passed as i1 to a kernel that takes
# it as i8).
add_test(NAME cli.llvm_backend.kernel_calls_kernel
         COMMAND ${LLVM_CLI}/llvm_gen_files.sh $<TARGET_FILE:mclc> ${LLVM_CLI}/llvm/kernel_calls_kernel.mcl
                 kernel_calls_kernel h)

# Objects of several modules define distinct symbols, so that one
# application links them, also module a_b's kernel c and module a's kernel
# b_c (the symbol holds the module name's length).
add_test(NAME cli.llvm_backend.distinct_symbols
         COMMAND ${LLVM_CLI}/llvm_distinct_symbols.sh $<TARGET_FILE:mclc> ${LLVM_EXAMPLES}/vectoradd/vectoradd.mcl
                 ${LLVM_EXAMPLES}/matmul/matmul.mcl ${LLVM_EXAMPLES}/complexmul/complexmul.mcl)
add_test(NAME cli.llvm_backend.distinct_symbols_of_similar_names
         COMMAND ${LLVM_CLI}/llvm_distinct_symbols.sh $<TARGET_FILE:mclc> ${LLVM_CLI}/llvm/clash/a_b.mcl
                 ${LLVM_CLI}/llvm/clash/a.mcl)

# Every example application, its reference and every refined version,
# verified with the llvm engine at each level and the llvm backend at
# x86_avx2. Sizes 1, 7, 33 and 100; matmul without 100 (a 100 x 102 x 104
# product through the interpreter at every leaf takes a minute), and
# convolution at 1 and 7 only (its filter grows with the image: at 33 the
# interpreter needs a minute and a half, at 100 much more).
foreach(app matmul gesummv convolution spmv histogram blackscholes reduction vectoradd complexmul)
  file(GLOB versions RELATIVE ${LLVM_EXAMPLES} ${LLVM_EXAMPLES}/${app}/${app}_*.mcl)
  if(app STREQUAL "matmul")
    set(sizes 1,7,33)
  elseif(app STREQUAL "convolution")
    set(sizes 1,7)
  else()
    set(sizes 1,7,33,100)
  endif()
  add_test(NAME cli.llvm_verify.${app}
           COMMAND ${LLVM_CLI}/llvm_verify_app.sh $<TARGET_FILE:mclc> ${LLVM_EXAMPLES} ${sizes} ${app}/${app}.mcl ${versions})
  set_tests_properties(cli.llvm_verify.${app} PROPERTIES TIMEOUT 300 LABELS llvm_verify)
endforeach()

# --min-blocks-per-processor: both GPU backends ask the GPU compiler for that
# many resident blocks (launch bounds), which keeps matmul_hopper_v5 within
# the 128 registers of two blocks of 256 threads; a minimum the leaf's
# multiprocessor cannot hold (at the launch that cannot, one error each), a
# CPU leaf and a CPU backend are refused.
add_test(NAME cli.gen.min_blocks_per_processor
         COMMAND ${LLVM_CLI}/gpu_min_blocks.sh $<TARGET_FILE:mclc> ${LLVM_EXAMPLES}/matmul/matmul_hopper_v5.mcl 256)
mclc_test(gen.min_blocks_too_many 1
          "matmul_hopper_v5.mcl:33:5: error: --min-blocks-per-processor 9: the blocks that kernel 'matmul' launches here cannot have that many resident at once: 9 blocks of up to 256 threads are more than the 2048 threads one 'sm' of 'hopper' holds"
          gen --backend llvm --target hopper --min-blocks-per-processor 9 ${LLVM_EXAMPLES}/matmul/matmul_hopper_v5.mcl
          -o ${CMAKE_CURRENT_BINARY_DIR}/min_blocks_too_many)
foreach(backend cuda llvm)
  mclc_test(gen.min_blocks_at_the_launch_${backend} 1
            "^[^\\n]*two_launch_block_sizes.mcl:16:5: error: --min-blocks-per-processor 3: the blocks that kernel 'scale_twice' launches here cannot have that many resident at once: 3 blocks of up to 1024 threads are more than the 2048 threads one 'sm' of 'hopper' holds\\n[^\\n]*\\n[^\\n]*\\n1 error generated"
            gen --backend ${backend} --target hopper --min-blocks-per-processor 3
            ${CMAKE_SOURCE_DIR}/tests/inputs/mcpl/backends/two_launch_block_sizes.mcl
            -o ${CMAKE_CURRENT_BINARY_DIR}/min_blocks_at_the_launch_${backend})
endforeach()
# More blocks than a multiprocessor has block slots (hopper's sm: 32): both
# launches are refused by the leaf, not by a limit of the command line.
mclc_test(gen.min_blocks_more_than_block_slots 1
          "^[^\\n]*two_launch_block_sizes.mcl:9:5: error: --min-blocks-per-processor 100: the blocks that kernel 'scale_twice' launches here cannot have that many resident at once: one 'sm' of 'hopper' holds at most 32 blocks\\n(.*\\n)*[^\\n]*two_launch_block_sizes.mcl:16:5: error: [^\\n]*holds at most 32 blocks\\n(.*\\n)*2 errors generated"
          gen --backend cuda --target hopper --min-blocks-per-processor 100
          ${CMAKE_SOURCE_DIR}/tests/inputs/mcpl/backends/two_launch_block_sizes.mcl
          -o ${CMAKE_CURRENT_BINARY_DIR}/min_blocks_more_than_block_slots)
mclc_test(gen.min_blocks_cpu_leaf 1 "x86_avx2.json:[0-9]+:[0-9]+: error: --min-blocks-per-processor applies to GPU leaves. 'x86_avx2' is a CPU leaf"
          gen --backend llvm --target x86_avx2 --min-blocks-per-processor 2 ${LLVM_EXAMPLES}/matmul/matmul.mcl
          -o ${CMAKE_CURRENT_BINARY_DIR}/min_blocks_cpu_leaf)
mclc_test(gen.min_blocks_cpu_backend 1 "error: --min-blocks-per-processor applies to the cuda and llvm backends only"
          gen --backend cpp --target x86_avx2 --min-blocks-per-processor 2 ${LLVM_EXAMPLES}/matmul/matmul.mcl
          -o ${CMAKE_CURRENT_BINARY_DIR}/min_blocks_cpu_backend)
