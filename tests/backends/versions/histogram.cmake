# End-to-end tests of the refined histogram versions (included by tests/CMakeLists.txt).
