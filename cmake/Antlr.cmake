# mcl_antlr_parser(TARGET GRAMMAR NAMESPACE)
# Generates a C++ lexer, parser and visitor from grammar/<GRAMMAR>.g4 with the
# antlr4 tool at build time and wraps them in a static library TARGET.
# Generated code is compiled without the project's warning flags and its
# headers are exposed as system headers.
# clang rejects one header of the 4.9 runtime (misc/InterpreterDataReader.h
# default-constructs a class with a const member), which g++ accepts. We never
# use that header, so clang builds (the fuzzers) see an umbrella header
# without it, placed ahead of the system one.
set(MCL_ANTLR_SHIM_DIR "")
if(CMAKE_CXX_COMPILER_ID MATCHES "Clang")
  set(MCL_ANTLR_SHIM_DIR "${CMAKE_BINARY_DIR}/antlr4-clang-shim")
  file(READ /usr/include/antlr4-runtime/antlr4-runtime.h umbrella)
  string(REPLACE "#include \"misc/InterpreterDataReader.h\"" "" umbrella "${umbrella}")
  file(WRITE "${MCL_ANTLR_SHIM_DIR}/antlr4-runtime.h" "${umbrella}")
endif()

function(mcl_antlr_parser target grammar namespace)
  set(out_dir "${CMAKE_BINARY_DIR}/generated/${grammar}")
  set(g4 "${CMAKE_SOURCE_DIR}/grammar/${grammar}.g4")
  set(sources
    ${out_dir}/${grammar}Lexer.cpp
    ${out_dir}/${grammar}Parser.cpp
    ${out_dir}/${grammar}Visitor.cpp
    ${out_dir}/${grammar}BaseVisitor.cpp)
  add_custom_command(
    OUTPUT ${sources}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${out_dir}
    COMMAND ${ANTLR4_TOOL} -Dlanguage=Cpp -visitor -no-listener
            -package ${namespace} -o ${out_dir} -Xexact-output-dir ${g4}
    DEPENDS ${g4}
    COMMENT "Generating the ${grammar} parser with ANTLR"
    VERBATIM)
  add_library(${target} STATIC ${sources})
  target_include_directories(${target} SYSTEM BEFORE PUBLIC ${MCL_ANTLR_SHIM_DIR} ${out_dir}
                             /usr/include/antlr4-runtime)
  target_link_libraries(${target} PUBLIC antlr4_shared)
  # The 4.7.2 tool writes u8"" literals into std::string, which C++20 made char8_t.
  target_compile_options(${target} PRIVATE -w -fno-char8_t)
  set_target_properties(${target} PROPERTIES POSITION_INDEPENDENT_CODE ON)
endfunction()
