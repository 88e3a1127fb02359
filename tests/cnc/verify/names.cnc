// Items named like C++ keywords and like the generated code's own names
// (class, graph, runtime, environment), bytes and bools in items, negative
// tags and tag functions that subtract and divide, a triangular range, and
// an environment that gets some of the items it puts.
import graph_steps;
|n 3|;
|w -1.5|;
[float[n] graph];
[byte[n] class];
[bool[n] runtime];
[float[n] environment];
<int [2] t>;
(mark);
(flip);
(half);
<t> :: (mark);
<t> :: (flip);
<t> :: (half);
[graph : k - 1, j / 2] -> (mark : k, j) -> [class : k, j];
[class : k, j] -> (flip : k, j) -> [runtime : -k, j];
[graph : k - 1, j / 2] -> (half : k, j) -> [environment : k, j];
env -> <t : k = {-2 .. 1}, {k .. 2}>, [graph : {-3 .. 0}, {-1 .. 1}];
env <- [runtime : k = {-1 .. 2}, {-k .. 2}], [class : {0 .. 0}, {0 .. 2}], [environment : {1 .. 1}, {1 .. 2}],
       [graph : {0 .. 0}, {0 .. 1}];
