"""Every exported command runs the plan it was exported from.  Each command is read back with its framework's own
parser — Hydra over verl 0.9.1's config tree, OpenRLHF 0.11.2's argparse, TRL 1.16.0's dataclass fields
(``tests/launch/checks.py``) — into plan fields, and each field equals the plan's, or the command lists it under
``unmapped`` with its reason.  The start-up checks each framework (and vLLM) makes without a GPU hold too."""

from __future__ import annotations

import itertools

import pytest
from launch.checks import openrlhf_args, trl_args, verl_config

from app.launch import for_state
from app.launch.common import Command
from app.model import evaluate, normalise
from app.model.assumptions import ARCHS

pytestmark = pytest.mark.usefixtures("wheels")

FIELDS = ("engine_tp", "passes", "epochs", "optimizer_steps", "micro_batch_tokens", "cp", "max_num_seqs",
          "rollout_dtype", "gpu_memory_utilization", "logits", "oversample", "partial_rollouts", "rollouts", "gpus",
          "engine_release", "engine_api", "engine_dp")


def _state(**q: object):
    inputs, _ = normalise({k: [str(v)] for k, v in q.items()})
    return evaluate(inputs)


def expected(r) -> dict[str, object]:
    p = r.plan
    e, t = p.engine, p.training
    return {"engine_tp": e.tensor_parallel, "passes": p.batch.passes, "epochs": t.epochs,
            "optimizer_steps": t.optimizer_steps, "micro_batch_tokens": t.micro_batch_tokens, "cp": t.cp,
            "max_num_seqs": e.max_num_seqs, "rollout_dtype": e.dtype,
            "gpu_memory_utilization": e.gpu_memory_utilization, "logits": t.logits, "oversample": p.oversample,
            "partial_rollouts": p.partial_rollouts, "rollouts": p.batch.rollouts, "gpus": p.gpus,
            "engine_release": e.release, "engine_api": e.api, "engine_dp": e.data_parallel}


def read_verl(cmd: Command) -> dict[str, object]:
    c = verl_config(cmd)
    a = c.actor_rollout_ref
    megatron = cmd.config == "ppo_megatron_trainer"
    per_epoch = c.data.train_batch_size // a.actor.ppo_mini_batch_size
    gpus = c.trainer.nnodes * c.trainer.n_gpus_per_node
    if not a.hybrid_engine:  # separate: the rollout pool and a reward model's pool beside the trainer's
        gpus += a.rollout.nnodes * a.rollout.n_gpus_per_node
        if c.reward.reward_model.enable and c.reward.reward_model.enable_resource_pool:
            gpus += c.reward.reward_model.nnodes * c.reward.reward_model.n_gpus_per_node
    return {"engine_tp": a.rollout.tensor_model_parallel_size, "passes": c.trainer.total_epochs,
            "epochs": a.actor.ppo_epochs, "optimizer_steps": a.actor.ppo_epochs * per_epoch,
            "micro_batch_tokens": a.actor.ppo_max_token_len_per_gpu,
            "cp": a.actor.megatron.context_parallel_size if megatron else a.actor.ulysses_sequence_parallel_size,
            "max_num_seqs": a.rollout.max_num_seqs, "rollout_dtype": a.rollout.quantization or "bf16",
            "gpu_memory_utilization": a.rollout.gpu_memory_utilization,
            "logits": "chunked" if a.model.use_fused_kernels else "full", "oversample": 1.0,
            "partial_rollouts": False, "rollouts": c.data.train_batch_size * a.rollout.n, "gpus": gpus,
            "engine_release": "sglang" if a.rollout.name == "sglang" else "vllm_v1", "engine_api": "inprocess",
            "engine_dp": a.rollout.data_parallel_size}


def read_openrlhf(cmd: Command) -> dict[str, object]:
    o = openrlhf_args(cmd)
    samples = o["rollout.batch_size"] * o["rollout.n_samples_per_prompt"]
    roles = ("actor", "ref", "critic", "reward")
    placed = sum((o[f"{r}.num_nodes"] or 0) * (o[f"{r}.num_gpus_per_node"] or 0) for r in roles
                 if f"--{r}.num_nodes" in {f.name for f in cmd.flags})
    if o["train.colocate_all"]:
        gpus = o["actor.num_nodes"] * o["actor.num_gpus_per_node"]
    else:
        shared = o["train.colocate_actor_ref"] or o["train.colocate_critic_reward"]
        gpus = (placed if not shared else o["actor.num_nodes"] * o["actor.num_gpus_per_node"] + (
            o["critic.num_nodes"] * o["critic.num_gpus_per_node"] if "--critic.num_nodes" in
            {f.name for f in cmd.flags} else 0)) + o["vllm.num_engines"] * o["vllm.tensor_parallel_size"]
    return {"engine_tp": o["vllm.tensor_parallel_size"], "passes": o["train.num_episodes"],
            "epochs": o["train.max_epochs"], "optimizer_steps": o["train.max_epochs"] * samples // o["train.batch_size"],
            "micro_batch_tokens": o["train.max_tokens_per_gpu"] if o["train.dynamic_batch_enable"] else None,
            "cp": o["ds.ring_attn_size"], "max_num_seqs": None, "rollout_dtype": "bf16",
            "gpu_memory_utilization": o["vllm.gpu_memory_utilization"], "logits": "full", "oversample": 1.0,
            "partial_rollouts": bool(o["train.partial_rollout_enable"]), "rollouts": samples, "gpus": gpus,
            "engine_release": "vllm_v1", "engine_api": "inprocess", "engine_dp": 1}


def read_trl(cmd: Command) -> dict[str, object]:
    t = trl_args(cmd)
    colocate = t.get("vllm_mode") == "colocate"
    serve = next((dict(n.args) for n in cmd.notes if n.key == "launch.note.trl_server"), None)
    tp = t.get("vllm_tensor_parallel_size", 1)
    gpus = t["num_processes"]
    if serve is not None:
        words = str(serve["command"]).split()
        tp = int(words[words.index("--tensor_parallel_size") + 1])
        gpus += int(serve["gpus"])
    generation = t["per_device_train_batch_size"] * t["num_processes"] * t["steps_per_generation"]
    return {"engine_tp": tp, "passes": int(t.get("num_train_epochs", 3)), "epochs": t.get("num_iterations", 1),
            "optimizer_steps": t["num_iterations"] * t["steps_per_generation"] // t["gradient_accumulation_steps"],
            "micro_batch_tokens": None, "cp": 1, "max_num_seqs": None, "rollout_dtype": "bf16",
            "gpu_memory_utilization": t.get("vllm_gpu_memory_utilization") if colocate else None,
            "logits": "full", "oversample": 1.0, "partial_rollouts": False, "rollouts": generation, "gpus": gpus,
            "sleep": t.get("vllm_enable_sleep_mode", False), "engine_release": "vllm_v1",
            "engine_api": "http" if t.get("vllm_mode") == "server" else "inprocess", "engine_dp": 1}


READERS = {"verl": read_verl, "openrlhf": read_openrlhf, "trl": read_trl}


def excused(cmd: Command) -> set[str]:
    """The fields a command says it cannot set as planned: its unmapped list, and a rollout count it rounded."""
    out = {n.key.rsplit(".", 1)[1] for n in cmd.unmapped}
    if any(n.key.startswith("launch.note.rollouts_rounded") for n in cmd.notes):
        out |= {"rollouts"}
    if cmd.framework == "trl" and any(n.key == "launch.note.trl_server" for n in cmd.notes):
        out |= {"gpu_memory_utilization"}  # the server's engine is trl vllm-serve's, on its own GPUs
    return out


def mismatches(r, cmd: Command) -> dict[str, tuple[object, object]]:
    want, got = expected(r), READERS[cmd.framework](cmd)
    return {k: (want[k], got[k]) for k in FIELDS if got[k] != want[k] and k not in excused(cmd)}


GRID = {
    **{f"dense-{arch}-{gpus}-p{passes}-o{steps}": dict(method="grpo", reward="verifier", arch=arch, gpu="h100_80g",
                                                       gpus=gpus, rollouts=1024, passes=passes, optimizer_steps=steps,
                                                       kl=0.001)
       for arch, gpus, passes, steps in itertools.product(("qwen3_8b", "qwen25_7b", "llama3_8b"), (8, 16, 64),
                                                            (1, 2, 3), (1, 4))},
    "ppo-reward-model-16": dict(method="ppo", reward="model", arch="llama3_8b", gpu="h100_80g", gpus=16,
                                rollouts=512, passes=2, optimizer_steps=4),
    "ppo-reward-model-async-32": dict(method="ppo", reward="model", arch="llama3_8b", gpu="h100_80g", gpus=32,
                                      placement="separate", staleness=1, rollouts=1024, passes=3),
    "grpo-async-partial-32": dict(method="grpo", reward="verifier", arch="qwen3_8b", gpu="h100_80g", gpus=32,
                                  placement="separate", staleness=2, partial_rollouts="on", rollouts=2048),
    "grpo-lora": dict(method="grpo", reward="verifier", arch="qwen3_8b", gpu="h100_80g", gpus=8, tuning="lora"),
    "grpo-offload": dict(method="grpo", reward="verifier", arch="qwen3_32b", gpu="h100_80g", gpus=16,
                         offload="optimizer", rollouts=1024),
    "grpo-fp8-oversample": dict(method="grpo", reward="verifier", arch="qwen3_8b", gpu="h100_80g", gpus=16,
                                rollout_dtype="fp8", oversample=2, rollouts=1024),
    "grpo-cp-tokens": dict(method="grpo", reward="verifier", arch="qwen3_8b", gpu="h100_80g", gpus=16,
                           context_parallel=2, max_tokens_per_gpu=32768, response_tokens=8192,
                           response_max_tokens=16384, rollouts=512),
    "moe-30b-32": dict(method="grpo", reward="verifier", arch="qwen3_30b_a3b", gpu="h100_80g", gpus=32,
                       rollouts=1024, kl=0.001),
    "llama70b-64-nodes8": dict(method="grpo", reward="verifier", arch="llama3_70b", gpu="h100_80g", gpus=64,
                               rollouts=1024, passes=2),
    "grpo-server-http-8": dict(method="grpo", reward="verifier", arch="qwen25_1_5b", gpu="h100_80g", gpus=8,
                               placement="separate", generation_gpus=1, engine_api="http", rollouts=512),
    "grpo-sglang-16": dict(method="grpo", reward="verifier", arch="qwen3_8b", gpu="h100_80g", gpus=16,
                           engine_release="sglang", rollouts=1024),
    "grpo-async-sched-8": dict(method="grpo", reward="verifier", arch="qwen3_8b", gpu="h100_80g", gpus=8,
                               engine_release="vllm_v1_async", rollouts=512),
    "moe-30b-dp-attention-32": dict(method="grpo", reward="verifier", arch="qwen3_30b_a3b", gpu="h100_80g",
                                    gpus=32, rollouts=1024, kl=0.001, engine_layout="dp_attention"),
    "qwen25_1_5b-512": dict(method="grpo", reward="verifier", arch="qwen25_1_5b", gpu="h100_80g", gpus=512,
                            rollouts=8192),
}
CASES = []
for name, q in GRID.items():
    r = _state(**q)
    state = for_state(r)
    CASES += [(name, r, c) for fw in ("verl", "openrlhf", "trl") if (c := state.command(fw)) is not None]


def test_the_grid_exports_commands_of_every_framework():
    per = {fw: sum(c.framework == fw for _, _, c in CASES) for fw in ("verl", "openrlhf", "trl")}
    assert min(per.values()) >= 10, per


@pytest.mark.parametrize(("name", "r", "cmd"), CASES, ids=[f"{n}-{c.framework}" for n, _, c in CASES])
def test_each_command_read_back_by_its_framework_equals_the_plan(name, r, cmd):
    assert mismatches(r, cmd) == {}, f"{name} {cmd.framework}"


def test_the_round_trip_finds_a_dropped_plan_field():
    """A command whose passes or engine TP differ from the plan is caught (the test can fail)."""
    name, r, cmd = next(c for c in CASES if c[2].framework == "verl" and c[1].plan.batch.passes == 2)
    flags = tuple(f.__class__(f.name, "1" if f.name == "trainer.total_epochs" else f.value, f.source)
                  for f in cmd.flags)
    from app.launch.common import render
    tokens = [[f"{f.name}={f.value}"] for f in flags]
    dropped = cmd.__class__(cmd.framework, cmd.version, render(cmd.launcher, tokens), cmd.launcher, flags,
                            cmd.notes, cmd.files, cmd.config, cmd.unmapped)
    assert mismatches(r, dropped) == {"passes": (2, 1)}


def vllm_starts(arch_id: str, tp: int) -> bool:
    """vLLM's start-up rule, from the architecture's config fields: ``ModelConfig.verify_with_parallel_config``
    (attention heads divisible by TP) and ``QKVParallelLinear`` (KV heads divisible by TP, or TP by them)."""
    a = ARCHS[arch_id]
    heads, kv = int(a.heads), int(a.kv_heads)
    return heads % tp == 0 and (a.attention == "mla" or kv % tp == 0 or tp % kv == 0)


@pytest.mark.parametrize("gpus", [8, 16, 64])
@pytest.mark.parametrize("arch", sorted(a for a in ARCHS if a != "custom"))
def test_every_named_architectures_engine_tp_is_one_vllm_starts_and_every_command_runs_it(arch, gpus):
    q = dict(method="grpo", reward="verifier", arch=arch, gpu="h100_80g", rollouts=1024)
    r = _state(**q, gpus=gpus)
    if not r.plan.fits:  # its plan and commands are those of the fewest GPUs that fit (whole hosts)
        assert r.plan.min_gpus is not None and r.plan.min_gpus % 8 == 0, arch
        r = _state(**q, gpus=r.plan.min_gpus)
    p = r.plan
    assert vllm_starts(arch, p.engine.tensor_parallel), (arch, p.engine.tensor_parallel)
    assert p.gpus % (p.engine.tensor_parallel * p.engine.pipeline_parallel) == 0  # engines cover their GPUs
    state = for_state(r)
    for fw in ("verl", "openrlhf", "trl"):
        cmd = state.command(fw)
        if cmd is not None:
            assert READERS[fw](cmd)["engine_tp"] == p.engine.tensor_parallel, fw


def test_a_fewest_gpus_state_above_one_node_is_whole_nodes_and_has_commands():
    r = _state(method="grpo", reward="verifier", arch="llama3_70b", gpu="h100_80g", gpus=8, rollouts=1024)
    need = r.plan.min_gpus
    assert not r.plan.fits and need > 8 and need % 8 == 0  # 27 before whole hosts; now 32
    at = for_state(_state(method="grpo", reward="verifier", arch="llama3_70b", gpu="h100_80g", gpus=need,
                          rollouts=1024))
    assert all(at.command(fw) is not None for fw in ("verl", "openrlhf", "trl"))


@pytest.mark.parametrize(("name", "r", "cmd"), [c for c in CASES if c[2].framework == "trl"],
                         ids=[n for n, _, c in CASES if c.framework == "trl"])
def test_trls_own_start_up_arithmetic_holds(name, r, cmd):
    """GRPOConfig.__post_init__ (trl/trainer/grpo_config.py): the generation batch, per_device_train_batch_size ×
    num_processes × steps_per_generation, divides by num_generations; steps_per_generation is a multiple of the
    gradient accumulation; colocated vLLM sleeps while the trainer runs, as the estimate's memory assumes."""
    t = trl_args(cmd)
    generation = t["per_device_train_batch_size"] * t["num_processes"] * t["steps_per_generation"]
    assert generation % t["num_generations"] == 0
    assert t["steps_per_generation"] % t["gradient_accumulation_steps"] == 0
    if t.get("vllm_mode") == "colocate":
        assert t["vllm_enable_sleep_mode"] is True


@pytest.mark.parametrize(("name", "r", "cmd"), [c for c in CASES if c[2].framework == "verl"],
                         ids=[n for n, _, c in CASES if c.framework == "verl"])
def test_verls_own_batch_checks_hold(name, r, cmd):
    """verl's config checks (verl/workers/config/actor.py, utils/config.py validate_config): the train batch
    divides into mini-batches, a mini-batch's sequences divide over the data-parallel ranks (GPUs / Ulysses size),
    and one longest sequence fits the micro-batch token budget."""
    c = verl_config(cmd)
    a = c.actor_rollout_ref
    world = c.trainer.nnodes * c.trainer.n_gpus_per_node
    assert c.data.train_batch_size % a.actor.ppo_mini_batch_size == 0
    if cmd.config != "ppo_megatron_trainer":
        dp = world // a.actor.ulysses_sequence_parallel_size
        assert (a.actor.ppo_mini_batch_size * a.rollout.n) % dp == 0
    assert a.actor.ppo_max_token_len_per_gpu >= c.data.max_prompt_length + c.data.max_response_length


@pytest.mark.parametrize(("gpus", "pairs"), [(8, 64), (16, 64), (48, 96)])
def test_dpo_commands_take_the_plans_batch_of_pairs(gpus, pairs):
    """The model times a DPO step on 64 pairs (``dpo_batch_pairs``); OpenRLHF's ``--train.batch_size`` and TRL's
    accumulation × processes take that batch, or the least multiple of the GPUs above it, listed as unmapped."""
    r = _state(method="dpo", gpu="h100_80g", gpus=gpus)
    assert r.plan.kind == "dpo" and r.plan.training.mini_batch_sequences == 64
    state = for_state(r)
    o, t = openrlhf_args(state.command("openrlhf")), trl_args(state.command("trl"))
    assert o["train.batch_size"] == pairs
    assert t["gradient_accumulation_steps"] * t["num_processes"] * t["per_device_train_batch_size"] == pairs
    for fw in ("openrlhf", "trl"):
        unmapped = {n.key.rsplit(".", 1)[1] for n in state.command(fw).unmapped}
        assert ("dpo_batch" in unmapped) == (pairs != 64)
