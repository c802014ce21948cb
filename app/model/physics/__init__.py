"""First-principles estimates, one topic per module (each imports only the ones above it):

- ``architecture``: the custom shape rule, KV-cache bytes and FLOPs per token, decode weight bytes;
- ``memory``: bytes per parameter of each model, activations, logits, lanes, each role's fewest GPUs;
- ``network``: collective bandwidth, all-gather, tensor-parallel all-reduce, the ZeRO-3 floor, the sync link;
- ``workload``: the inputs prepared once per evaluation;
- ``generation``: engine plans and the decode roofline;
- ``training``: scoring and training seconds;
- ``step``: GPU groups, phases, the layout search, one RL step;
- ``step_memory``: an RL step's memory lanes, fit and fewest GPUs; every stage's lanes;
- ``offline``: DPO, SFT and reward-model training, a whole run.

Conventions: sizes ``*_b`` are billions of parameters, so ``bytes_per_param × params_b`` is GB (10^9 B).
Every constant comes from ``app.model.assumptions``; each docstring gives the formula, its units and the source.

References
[1] ZeRO, Rajbhandari et al. 2019, §3, §5 and Fig. 1.     [2] Kaplan et al. 2020, §2.1 and Table 1.
[3] vLLM blog 2023-06-20 (KV cache per token, 14–24× over HF generate).
[4] OpenRLHF benchmark (A800, 1,024 rollouts per step).    [5] DeepSeekMath (GRPO), arXiv 2402.03300.
[6] ZeRO-Offload, arXiv 2101.06840.                        [7] LoRA, arXiv 2106.09685.
[8] verl: performance tuning guide and config defaults.    [9] nccl-tests PERFORMANCE.md (bus bandwidth).
"""
