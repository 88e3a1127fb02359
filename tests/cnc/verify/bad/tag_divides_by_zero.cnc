// Instance (half: 2) gets [graph: 4 / (k - 2)]: the tag function divides by zero there.
import graph_steps;
|n 4|;
[float[n] graph];
[float[n] environment];
<int [1] f>;
(half);
<f> :: (half);
[graph : 4 / (k - 2)] -> (half : k) -> [environment : k];
env -> <f : {0 .. 3}>, [graph : {-4 .. 4}];
env <- [environment : {0 .. 1}];
