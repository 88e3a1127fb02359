# MclKernels.cmake: build MCPL kernels into a CMake target with `mclc gen`.
#
#   include(path/to/mcl/cmake/MclKernels.cmake)
#   add_executable(app main.cpp)
#   mcl_add_kernels(TARGET app SOURCE kernels/matmul.mcl LEAF x86_avx2 BACKEND opencl
#                   [INCLUDE_DIRS dir...] [GEN_OPTIONS option...] [MCLC path/to/mclc]
#                   [OUTPUT_DIR dir])
#
# At build time (not configure time) runs
#   mclc gen --target LEAF --backend BACKEND SOURCE [-I dir]... [option]... -o OUTPUT_DIR
# again whenever SOURCE or mclc changes, and then
#   - adds the generated host glue and kernel sources to TARGET (they are
#     compiled as part of it),
#   - adds OUTPUT_DIR to TARGET's include directories (PUBLIC), so that the
#     application includes "<module>.h",
#   - links what the backend's glue needs:
#       opencl  find_package(OpenCL) -> OpenCL::OpenCL (the glue also needs
#               the Khronos C++ bindings CL/opencl.hpp, e.g. the package
#               opencl-clhpp-headers); the kernel source <module>.cl is
#               embedded in the glue, nothing to install beside the program
#       cpp     find_package(OpenMP) -> OpenMP::OpenMP_CXX
#       hls     the same (C simulation of the FPGA kernel)
#       llvm    find_package(Threads) -> Threads::Threads; the kernels come
#               compiled, in the object file <module>_kernels.o, which is
#               linked into TARGET (CPU leaves only, e.g. x86_avx2; the
#               glue defines the kernels' thread pool, whose size the
#               environment variable MCL_NUM_THREADS sets when the program
#               runs)
#       cuda    the project must have enabled the CUDA language
#               (project(... LANGUAGES CXX CUDA) or enable_language(CUDA)).
#
# Arguments:
#   TARGET        an existing target, created in the directory that calls
#                 mcl_add_kernels (generated sources belong to the directory
#                 of their custom command).
#   SOURCE        the .mcl file (relative paths: to CMAKE_CURRENT_SOURCE_DIR).
#                 Its `module NAME;` line, read at configure time, names the
#                 generated files; the C++ interface is namespace NAME.
#   LEAF          a leaf of the hardware hierarchy with a code-generation
#                 configuration (`mclc list-targets`), e.g. x86_avx2, hopper.
#   BACKEND       cpp, opencl, hls, cuda or llvm (as `mclc list-targets`
#                 allows).
#   INCLUDE_DIRS  directories to search for imported MCPL modules (-I);
#                 relative paths: to CMAKE_CURRENT_SOURCE_DIR. Imported .mcl
#                 files are not tracked as dependencies: touch SOURCE or
#                 list them with set_property(SOURCE <stamp> ...) if needed.
#   GEN_OPTIONS   further options of `mclc gen`, e.g. --fp-contract (llvm:
#                 fuse multiplies and adds into FMAs, as g++ does by default).
#   MCLC          the mclc executable. Default: the variable MCLC_EXECUTABLE
#                 when set, else the target `mclc` when this is the MCL build
#                 itself, else `mclc` found on PATH (find_program).
#   OUTPUT_DIR    where the files go; default
#                 ${CMAKE_CURRENT_BINARY_DIR}/mcl_gen/<TARGET>/<module>.
#
# The custom command's OUTPUT is a stamp file, OUTPUT_DIR/<module>.mclc-stamp,
# and the generated files are its BYPRODUCTS: <module>.h, the glue
# <module>.cpp (<module>.cu for cuda), the kernels (<module>.cl for opencl,
# <module>_kernels.cpp for cpp and hls, the object <module>_kernels.o for
# llvm) and the runtime headers. The stamp is
# a source of TARGET, so generation runs before anything of TARGET compiles.
# Several calls for one target are fine as long as the modules differ.

include_guard(GLOBAL)

# The files `mclc gen` writes for MODULE with BACKEND: compiled sources into
# OUT_SOURCES, object files to link into OUT_OBJECTS, everything else into
# OUT_OTHERS (names relative to the output directory).
function(_mcl_generated_files backend module out_sources out_objects out_others)
  set(objects)
  if(backend STREQUAL "opencl")
    set(sources ${module}.cpp)
    set(others ${module}.h ${module}.cl mcl_runtime.h mcl_opencl.h)
  elseif(backend STREQUAL "cpp" OR backend STREQUAL "hls")
    set(sources ${module}.cpp ${module}_kernels.cpp)
    set(others ${module}.h mcl_runtime.h)
  elseif(backend STREQUAL "cuda")
    set(sources ${module}.cu)
    set(others ${module}.h ${module}_kernels.cuh mcl_runtime.h mcl_cuda.h)
  elseif(backend STREQUAL "llvm")
    set(sources ${module}.cpp)
    set(objects ${module}_kernels.o)
    set(others ${module}.h mcl_runtime.h mcl_llvm.h)
  else()
    message(FATAL_ERROR "mcl_add_kernels: unknown BACKEND '${backend}' (cpp, opencl, hls, cuda or llvm)")
  endif()
  set(${out_sources} ${sources} PARENT_SCOPE)
  set(${out_objects} ${objects} PARENT_SCOPE)
  set(${out_others} ${others} PARENT_SCOPE)
endfunction()

# Stops with an error naming FUNCTION when the caller's parsed arguments
# (MCL_*) have unknown ones, lack a required one or name no existing TARGET.
function(_mcl_check_arguments function)
  if(MCL_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "${function}: unexpected arguments: ${MCL_UNPARSED_ARGUMENTS}")
  endif()
  foreach(required ${ARGN})
    if(NOT MCL_${required})
      message(FATAL_ERROR "${function}: ${required} is required")
    endif()
  endforeach()
  if(NOT TARGET ${MCL_TARGET})
    message(FATAL_ERROR "${function}: '${MCL_TARGET}' is not a target (create it before calling)")
  endif()
endfunction()

# The mclc to run and what the generation depends on: the MCLC argument,
# MCLC_EXECUTABLE, the target of this very build, else mclc on PATH.
function(_mcl_find_mclc given out_mclc out_depends)
  if(given)
    get_filename_component(mclc "${given}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    set(depends "${mclc}")
  elseif(MCLC_EXECUTABLE)
    set(mclc "${MCLC_EXECUTABLE}")
    set(depends "${mclc}")
  elseif(TARGET mclc)
    set(mclc "$<TARGET_FILE:mclc>")
    set(depends mclc)
  else()
    find_program(MCL_MCLC_PROGRAM mclc)
    if(NOT MCL_MCLC_PROGRAM)
      message(FATAL_ERROR "mcl_add_kernels: mclc not found: pass MCLC, set MCLC_EXECUTABLE or put mclc on PATH")
    endif()
    set(mclc "${MCL_MCLC_PROGRAM}")
    set(depends "${mclc}")
  endif()
  set(${out_mclc} "${mclc}" PARENT_SCOPE)
  set(${out_depends} "${depends}" PARENT_SCOPE)
endfunction()

# -I arguments for mclc from INCLUDE_DIRS (relative to the current source dir).
function(_mcl_include_args dirs out_args)
  set(args)
  foreach(dir ${dirs})
    get_filename_component(dir "${dir}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    list(APPEND args -I "${dir}")
  endforeach()
  set(${out_args} ${args} PARENT_SCOPE)
endfunction()

# The folder the generated files of NAME go to: the caller's OUTPUT_DIR
# (relative to the current binary dir), else mcl_gen/<TARGET>/<NAME> there.
function(_mcl_output_dir name out_dir)
  if(MCL_OUTPUT_DIR)
    get_filename_component(out "${MCL_OUTPUT_DIR}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_BINARY_DIR}")
  else()
    set(out "${CMAKE_CURRENT_BINARY_DIR}/mcl_gen/${MCL_TARGET}/${name}")
  endif()
  set(${out_dir} "${out}" PARENT_SCOPE)
endfunction()

# FILES as absolute paths (relative to the current source dir), each of
# which must exist (FUNCTION names the caller in the error).
function(_mcl_absolute_files function files out_files)
  set(absolute)
  foreach(file ${files})
    get_filename_component(file "${file}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    if(NOT EXISTS "${file}")
      message(FATAL_ERROR "${function}: '${file}' does not exist")
    endif()
    list(APPEND absolute "${file}")
  endforeach()
  set(${out_files} ${absolute} PARENT_SCOPE)
endfunction()

function(mcl_add_kernels)
  cmake_parse_arguments(PARSE_ARGV 0 MCL "" "TARGET;SOURCE;LEAF;BACKEND;MCLC;OUTPUT_DIR" "INCLUDE_DIRS;GEN_OPTIONS")
  _mcl_check_arguments(mcl_add_kernels TARGET SOURCE LEAF BACKEND)

  # The .mcl file and its module name.
  get_filename_component(source "${MCL_SOURCE}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
  if(NOT EXISTS "${source}")
    message(FATAL_ERROR "mcl_add_kernels: SOURCE '${MCL_SOURCE}' does not exist (${source})")
  endif()
  file(STRINGS "${source}" module_lines REGEX "^[ \t]*module[ \t]+[A-Za-z_][A-Za-z0-9_]*[ \t]*;")
  list(LENGTH module_lines module_count)
  if(NOT module_count EQUAL 1)
    message(FATAL_ERROR "mcl_add_kernels: ${source} needs exactly one `module NAME;` line (found ${module_count})")
  endif()
  string(REGEX REPLACE "^[ \t]*module[ \t]+([A-Za-z_][A-Za-z0-9_]*).*$" "\\1" module "${module_lines}")
  # Re-run the configuration when the .mcl file changes (its module name may).
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${source}")

  _mcl_find_mclc("${MCL_MCLC}" mclc mclc_depends)

  _mcl_output_dir(${module} out)

  _mcl_include_args("${MCL_INCLUDE_DIRS}" include_args)

  _mcl_generated_files(${MCL_BACKEND} ${module} sources objects others)
  list(TRANSFORM sources PREPEND "${out}/")
  list(TRANSFORM objects PREPEND "${out}/")
  list(TRANSFORM others PREPEND "${out}/")
  set(stamp "${out}/${module}.mclc-stamp")

  add_custom_command(
    OUTPUT "${stamp}"
    BYPRODUCTS ${sources} ${objects} ${others}
    COMMAND "${mclc}" gen --target ${MCL_LEAF} --backend ${MCL_BACKEND} "${source}" ${include_args} ${MCL_GEN_OPTIONS} -o "${out}"
    COMMAND "${CMAKE_COMMAND}" -E touch "${stamp}"
    DEPENDS "${source}" ${mclc_depends}
    COMMENT "mclc gen --target ${MCL_LEAF} --backend ${MCL_BACKEND} ${MCL_GEN_OPTIONS} ${MCL_SOURCE} (module ${module})"
    VERBATIM)

  set_source_files_properties(${sources} ${objects} ${others} PROPERTIES GENERATED TRUE)
  # Objects (llvm) are linked as they are: the byproduct of the generation
  # above, so that the link waits for it.
  set_source_files_properties(${objects} PROPERTIES EXTERNAL_OBJECT TRUE)
  target_sources(${MCL_TARGET} PRIVATE "${stamp}" ${sources} ${objects})
  target_include_directories(${MCL_TARGET} PUBLIC "${out}")

  if(MCL_BACKEND STREQUAL "opencl")
    find_package(OpenCL REQUIRED)
    target_link_libraries(${MCL_TARGET} PUBLIC OpenCL::OpenCL)
  elseif(MCL_BACKEND STREQUAL "cpp" OR MCL_BACKEND STREQUAL "hls")
    find_package(OpenMP REQUIRED COMPONENTS CXX)
    target_link_libraries(${MCL_TARGET} PUBLIC OpenMP::OpenMP_CXX)
  elseif(MCL_BACKEND STREQUAL "llvm")
    find_package(Threads REQUIRED)
    target_link_libraries(${MCL_TARGET} PUBLIC Threads::Threads)
  elseif(MCL_BACKEND STREQUAL "cuda")
    get_property(languages GLOBAL PROPERTY ENABLED_LANGUAGES)
    if(NOT "CUDA" IN_LIST languages)
      message(FATAL_ERROR "mcl_add_kernels: BACKEND cuda needs the CUDA language: "
                          "project(... LANGUAGES CXX CUDA) or enable_language(CUDA)")
    endif()
  endif()
  # The generated glue is C++17.
  target_compile_features(${MCL_TARGET} PRIVATE cxx_std_17)
endfunction()

# mcl_add_runtime_kernels: every version of some kernels as tasks of the MCL
# runtime on StarPU (runtime/mcl_starpu.h), built into a target.
#
#   mcl_add_runtime_kernels(TARGET app NAME matmul SOURCES matmul.mcl matmul_gpu.mcl ...
#                           [INCLUDE_DIRS dir...] [MPI] [MCLC path/to/mclc] [OUTPUT_DIR dir])
#
# At build time runs `mclc gen --runtime starpu --name NAME SOURCES... -o OUTPUT_DIR`
# (again when a source or mclc changes): the most specific version per leaf,
# generated with the cpp and opencl backends, and the codelets and
# `NAME::submit` functions in OUTPUT_DIR/NAME.h and NAME.cpp, which compiles
# the versions' glue with it. Adds NAME.cpp to TARGET, OUTPUT_DIR to its
# include directories, and links StarPU (pkg-config libstarpu, or
# libstarpumpi with MPI), OpenCL and OpenMP; MPI also links MPI and defines
# MCL_RT_WITH_MPI=1. StarPU's calibration goes to ${CMAKE_BINARY_DIR}/starpu
# unless STARPU_HOME is set when the program runs. OUTPUT_DIR defaults to
# ${CMAKE_CURRENT_BINARY_DIR}/mcl_gen/<TARGET>/<NAME>.
function(mcl_add_runtime_kernels)
  cmake_parse_arguments(PARSE_ARGV 0 MCL "MPI" "TARGET;NAME;MCLC;OUTPUT_DIR" "SOURCES;INCLUDE_DIRS")
  _mcl_check_arguments(mcl_add_runtime_kernels TARGET NAME SOURCES)
  _mcl_absolute_files(mcl_add_runtime_kernels "${MCL_SOURCES}" sources)
  _mcl_find_mclc("${MCL_MCLC}" mclc mclc_depends)
  _mcl_include_args("${MCL_INCLUDE_DIRS}" include_args)
  _mcl_output_dir(${MCL_NAME} out)
  set(stamp "${out}/${MCL_NAME}.mclc-stamp")
  add_custom_command(
    OUTPUT "${stamp}"
    BYPRODUCTS "${out}/${MCL_NAME}.h" "${out}/${MCL_NAME}.cpp" "${out}/versions.txt"
    COMMAND "${mclc}" gen --runtime starpu --name ${MCL_NAME} ${sources} ${include_args} -o "${out}"
    COMMAND "${CMAKE_COMMAND}" -E touch "${stamp}"
    DEPENDS ${sources} ${mclc_depends}
    COMMENT "mclc gen --runtime starpu --name ${MCL_NAME} (${MCL_SOURCES})"
    VERBATIM)
  set_source_files_properties("${out}/${MCL_NAME}.h" "${out}/${MCL_NAME}.cpp" PROPERTIES GENERATED TRUE)
  target_sources(${MCL_TARGET} PRIVATE "${stamp}" "${out}/${MCL_NAME}.cpp")
  target_include_directories(${MCL_TARGET} PUBLIC "${out}")

  _mcl_link_runtime(${MCL_TARGET} "${MCL_MPI}")
endfunction()

# What a program of runtime tasks links: StarPU (or StarPU-MPI with MPI),
# OpenCL and OpenMP; the calibration folder of the build tree.
function(_mcl_link_runtime target mpi)
  set(MCL_TARGET ${target})
  set(MCL_MPI ${mpi})
  find_package(PkgConfig REQUIRED)
  find_package(OpenCL REQUIRED)
  find_package(OpenMP REQUIRED COMPONENTS CXX)
  if(MCL_MPI)
    if(NOT TARGET PkgConfig::MCL_STARPUMPI)
      pkg_check_modules(MCL_STARPUMPI REQUIRED IMPORTED_TARGET GLOBAL libstarpumpi)
      # Its cflags turn on StarPU's deprecated names, which warn.
      set_property(TARGET PkgConfig::MCL_STARPUMPI PROPERTY INTERFACE_COMPILE_OPTIONS "")
    endif()
    find_package(MPI REQUIRED COMPONENTS CXX)
    target_link_libraries(${MCL_TARGET} PUBLIC PkgConfig::MCL_STARPUMPI MPI::MPI_CXX)
    target_compile_definitions(${MCL_TARGET} PUBLIC MCL_RT_WITH_MPI=1)
  else()
    if(NOT TARGET PkgConfig::MCL_STARPU)
      pkg_check_modules(MCL_STARPU REQUIRED IMPORTED_TARGET GLOBAL libstarpu)
      set_property(TARGET PkgConfig::MCL_STARPU PROPERTY INTERFACE_COMPILE_OPTIONS "")
    endif()
    target_link_libraries(${MCL_TARGET} PUBLIC PkgConfig::MCL_STARPU)
  endif()
  target_link_libraries(${MCL_TARGET} PUBLIC OpenCL::OpenCL OpenMP::OpenMP_CXX)
  target_compile_definitions(${MCL_TARGET} PRIVATE MCL_RT_STARPU_HOME="${CMAKE_BINARY_DIR}/starpu")
  target_compile_features(${MCL_TARGET} PRIVATE cxx_std_17)
endfunction()

# mcl_add_graph: a Concurrent Collections graph (.cnc) on the runtime.
#
#   mcl_add_graph(TARGET app GRAPH pipeline.cnc [VERSIONS filters_gpu.mcl ...]
#                 [INCLUDE_DIRS dir...] [MPI] [MCLC path/to/mclc] [OUTPUT_DIR dir])
#
# At build time runs `mclc gen --graph GRAPH VERSIONS... -o OUTPUT_DIR`: the
# graph's coordination code (namespace <G>, G the graph file's name, with
# `<G>::run(runtime, environment)` in <G>.h) and its steps' kernels, the
# imported modules and the further VERSIONS, as runtime tasks (namespace
# <G>_steps). Adds both to TARGET and links the runtime as
# mcl_add_runtime_kernels does. The imported modules are not tracked as
# dependencies: list them in VERSIONS or touch the graph when they change.
function(mcl_add_graph)
  cmake_parse_arguments(PARSE_ARGV 0 MCL "MPI" "TARGET;GRAPH;MCLC;OUTPUT_DIR" "VERSIONS;INCLUDE_DIRS")
  _mcl_check_arguments(mcl_add_graph TARGET GRAPH)
  _mcl_absolute_files(mcl_add_graph "${MCL_GRAPH}" graph)
  get_filename_component(name "${graph}" NAME_WE)
  _mcl_absolute_files(mcl_add_graph "${MCL_VERSIONS}" versions)
  _mcl_find_mclc("${MCL_MCLC}" mclc mclc_depends)
  _mcl_include_args("${MCL_INCLUDE_DIRS}" include_args)
  _mcl_output_dir(${name} out)
  set(stamp "${out}/${name}.mclc-stamp")
  set(generated "${out}/${name}.cpp" "${out}/${name}_steps.cpp")
  add_custom_command(
    OUTPUT "${stamp}"
    BYPRODUCTS ${generated} "${out}/${name}.h" "${out}/${name}_steps.h"
    COMMAND "${mclc}" gen --graph "${graph}" ${versions} ${include_args} -o "${out}"
    COMMAND "${CMAKE_COMMAND}" -E touch "${stamp}"
    DEPENDS "${graph}" ${versions} ${mclc_depends}
    COMMENT "mclc gen --graph ${MCL_GRAPH}"
    VERBATIM)
  set_source_files_properties(${generated} PROPERTIES GENERATED TRUE)
  target_sources(${MCL_TARGET} PRIVATE "${stamp}" ${generated})
  target_include_directories(${MCL_TARGET} PUBLIC "${out}")
  _mcl_link_runtime(${MCL_TARGET} "${MCL_MPI}")
endfunction()
