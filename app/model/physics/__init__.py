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
"""
