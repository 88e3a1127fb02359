// halve_first writes one element of the item it puts; the runtime's fresh
// item would hold garbage in the others.
import graph_steps;
|n 4|;
[float[n] graph];
[float[n] environment];
<int [1] f>;
(halve_first);
<f> :: (halve_first);
[graph : k] -> (halve_first : k) -> [environment : k];
env -> <f : {0 .. 1}>, [graph : {0 .. 1}];
env <- [environment : {0 .. 1}];
