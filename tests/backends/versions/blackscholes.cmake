# End-to-end tests of the refined blackscholes versions (included by tests/CMakeLists.txt).
