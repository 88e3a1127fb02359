// An image pipeline in the spirit of the CnC medical-imaging seeds: a stream
// of frames, each denoised, then its gradient magnitude, then a threshold.
// Stages of different frames run at once; the gradient (the heaviest stage)
// prefers GPUs, the threshold CPUs. The steps are the kernels of
// pipeline_steps.mcl (pipeline_steps_gpu.mcl refines them for GPUs); their
// parameters `out` and `src` are bound to the items of each stage.
import cnc.pipeline.pipeline_steps;

|h 240|;
|w 320|;
|t 0.3|;
|frames 8|;

[float[h, w] image];
[float[h, w] smooth];
[float[h, w] edges];
[float[h, w] mask];

<int [1] frame>;

(denoise);
(gradient);
(threshold);

<frame> :: (denoise @ CPU = 1, GPU = 1);
<frame> :: (gradient @ CPU = 1, GPU = 3);
<frame> :: (threshold @ CPU = 3, GPU = 1);

[src = image : f] -> (denoise : f) -> [out = smooth : f];
[src = smooth : f] -> (gradient : f) -> [out = edges : f];
[src = edges : f] -> (threshold : f) -> [out = mask : f];

env -> <frame : {0 .. frames - 1}>, [image : {0 .. frames - 1}];
env <- [mask : {0 .. frames - 1}];
