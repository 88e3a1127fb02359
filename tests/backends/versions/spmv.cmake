# End-to-end tests of the refined spmv versions (included by tests/CMakeLists.txt).
