// Several environment targets of one collection (its array holds their
// items one after another), steps that get one collection at two tags
// (j and j + 1), ints and doubles in items, and gets of part of a range.
import graph_steps;
|n 5|;
[float[n] src];
[float[n] out];
[float[n] sum];
[int[n] hits];
[double[1] factor];
<int [1] t>;
<int [1] u>;
(twice);
(combine);
(count);
(scale);
<t> :: (twice);
<u> :: (combine);
<u> :: (count);
<t> :: (scale);
[src : k] -> (twice : k) -> [out : k];
[src : k] -> (scale : k) -> [factor : k];
[a = out : j], [b = out : j + 1] -> (combine : j) -> [sum : j];
[sum : j], [factor : j] -> (count : j) -> [hits : j];
env -> <t : {0 .. 3}>, <t : {4 .. 6}>, <u : {0 .. 4}>, [src : {0 .. 2}], [src : {3 .. 6}];
env <- [hits : {0 .. 2}], [hits : {3 .. 4}], [sum : {1 .. 2}];
