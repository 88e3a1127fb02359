# The language server (`mclc lsp`, lsp/): unit tests of its framing and
# positions, and a scripted editor session against mclc
# (tests/lsp/lsp_client.py: diagnostics, edits, hover, definitions, the
# feedbackAtLevel command, bad input, exit status).
add_executable(lsp_tests lsp/JsonRpcTest.cpp)
target_link_libraries(lsp_tests PRIVATE mcl_lsp GTest::gtest_main)
target_compile_options(lsp_tests PRIVATE ${MCL_WARNINGS})
gtest_discover_tests(lsp_tests TEST_PREFIX lsp.)

add_test(NAME lsp.scripted_session
         COMMAND python3 ${CMAKE_CURRENT_SOURCE_DIR}/lsp/lsp_client.py $<TARGET_FILE:mclc> ${CMAKE_SOURCE_DIR})
