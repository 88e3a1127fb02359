// Instance (half: 0) gets [graph: -1], which nothing puts.
import graph_steps;
|n 4|;
[float[n] graph];
[float[n] environment];
<int [1] f>;
(half);
<f> :: (half);
[graph : k - 1] -> (half : k) -> [environment : k];
env -> <f : {0 .. 3}>, [graph : {0 .. 3}];
env <- [environment : {1 .. 3}];
