# End-to-end tests of the refined matmul versions (included by tests/CMakeLists.txt).
