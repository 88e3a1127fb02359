// A two-stage pipeline over 16 frames, with a range that divides by zero (tests/cnc/CncTests.cmake).
import filters;
|n 64|;
|threshold 0.25|;
[float[n, n] frame];
[float[n, n] smooth];
[float[n, n] edges];
<int [1] f>;
(blur);
(sobel);
<f> :: (blur);
<f> :: (sobel @ CPU = 10, GPU = 20);
[frame : k] -> (blur : k) -> [smooth : k];
[smooth : k] -> (sobel : k) -> [edges : k];
env -> <f : {0 .. 15 / (n - 64)}>, [frame : {0 .. 15}];
env <- [edges : {0 .. 15}];
