// Tiled Cholesky factorization A = L L^T (the CnC seeds' CPU benchmark),
// right-looking over T x T tiles of b x b: A : k, i, j is tile (i, j) after
// k updates, L : i, j the factor's tile. Every kernel updates its tile in
// place, so each step gets a tile into a parameter and puts it as the next
// version (the runtime copies the one into the other: items are assigned
// once). The steps are the kernels of cholesky_steps.mcl;
// cholesky_steps_gpu.mcl refines syrk and gemm, the bulk of the work.
import filters;

|b 64|;
|T 6|;

[float[b, b] A];
[float[b, b] L];

<int [1] potrf_tags>;
<int [2] trsm_tags>;
<int [2] syrk_tags>;
<int [3] gemm_tags>;

(potrf);
(trsm);
(syrk);
(gemm);

<potrf_tags> :: (potrf);
<trsm_tags> :: (trsm);
<syrk_tags> :: (syrk @ CPU = 1, GPU = 1);
<gemm_tags> :: (gemm @ CPU = 1, GPU = 2);

[a = A : k, k, k] -> (potrf : k) -> [a = L : k, k];
[a = A : k, i, k], [l = L : k, k] -> (trsm : k, i) -> [a = L : i, k];
[c = A : k, j, j], [a = L : j, k] -> (syrk : k, j) -> [c = A : k + 1, j, j];
[c = A : k, i, j], [a = L : i, k], [bt = L : j, k] -> (gemm : k, i, j) -> [c = A : k + 1, i, j];

env -> <potrf_tags : {0 .. T - 1}>,
       <trsm_tags : k = {0 .. T - 1}, {k + 1 .. T - 1}>,
       <syrk_tags : k = {0 .. T - 1}, {k + 1 .. T - 1}>,
       <gemm_tags : k = {0 .. T - 1}, i = {k + 1 .. T - 1}, {k + 1 .. i - 1}>,
       [A : {0 .. 0}, i = {0 .. T - 1}, {0 .. i}];
env <- [L : i = {0 .. T - 1}, {0 .. i}];
