// A tag put twice prescribes its step once: a tag collection is a set.
import graph_steps;
|n 4|;
[float[n] graph];
[float[n] environment];
<int [1] f>;
(half);
<f> :: (half);
[graph : k] -> (half : k) -> [environment : k];
env -> <f : {0 .. 3}>, <f : {2 .. 5}>, [graph : {0 .. 5}];
env <- [environment : {0 .. 5}];
