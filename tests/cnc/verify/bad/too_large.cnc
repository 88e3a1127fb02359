// 2^26 tags: more values than verify's reference interpreter holds.
import graph_steps;
|n 1|;
[float[n] graph];
[float[n] environment];
<int [1] f>;
(half);
<f> :: (half);
[graph : k] -> (half : k) -> [environment : k];
env -> <f : {0 .. 67108863}>, [graph : {0 .. 67108863}];
env <- [environment : {0 .. 1}];
