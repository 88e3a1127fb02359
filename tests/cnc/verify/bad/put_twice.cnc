// Instances (half: 0) and (half: 1) both put [environment: 0].
import graph_steps;
|n 4|;
[float[n] graph];
[float[n] environment];
<int [1] f>;
(half);
<f> :: (half);
[graph : k] -> (half : k) -> [environment : k / 2];
env -> <f : {0 .. 3}>, [graph : {0 .. 3}];
env <- [environment : {0 .. 1}];
