# End-to-end tests of the refined gesummv versions (included by tests/CMakeLists.txt).
