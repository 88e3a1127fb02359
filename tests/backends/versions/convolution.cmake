# End-to-end tests of the refined convolution versions (included by tests/CMakeLists.txt).
