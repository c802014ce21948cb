"""Log lines in the frameworks' own formats, for the tests: written by the frameworks' formatting code where it runs
without a GPU, else by a copy of it that cites the line it copies (and, where the pinned wheel is in the cache, a test
that the copy is still the release's code: tests/calibrate/test_logs.py).

* verl 0.9.1: ``concat_dict_to_str`` (verl/utils/logger/aggregate_logger.py:26-32).  Its module imports torch at the
  top, so the function's own source is taken out of the wheel and run (``verl_formatter``); without the wheel, the
  copy below.
* OpenRLHF 0.11.2: the message of openrlhf/trainer/ppo_trainer.py:551 through the package's own log formatter
  (openrlhf/utils/logging_utils.py, which imports only the standard library: loaded from the wheel when cached).
* NeMo RL v0.7.0: the ``print`` calls of nemo_rl/algorithms/grpo.py:2244, 3058, 3062, 3075, 3081 (the package needs
  Ray and torch to import; NeMo RL has no wheel in the cache: copied, cited).
"""

from __future__ import annotations

import ast
import io
import logging
import numbers
import pprint
import sys
import types
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from launch.wheels import wheel, wheel_file  # noqa: E402

from app.launch.releases import OPENRLHF, VERL  # noqa: E402


def concat_dict_to_str(dict: dict, step):  # noqa: A002 - verl's own signature, copied from aggregate_logger.py:26-32
    output = [f"step:{step}"]
    for k, v in dict.items():
        if isinstance(v, numbers.Number):
            output.append(f"{k}:{pprint.pformat(v)}")
    output_str = " - ".join(output)
    return output_str


def verl_source_function() -> ast.FunctionDef | None:
    """``concat_dict_to_str`` as the pinned wheel has it (None without the wheel in the cache)."""
    if wheel_file(VERL) is None:
        return None
    tree = ast.parse(wheel(VERL).text("verl/utils/logger/aggregate_logger.py"))
    return next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "concat_dict_to_str")


def verl_formatter():  # noqa: ANN201
    """verl's own ``concat_dict_to_str`` run from the wheel's source (its module's torch import left out), or the
    copy above."""
    fn = verl_source_function()
    if fn is None:
        return concat_dict_to_str
    namespace: dict = {"numbers": numbers, "pprint": pprint}
    exec(compile(ast.Module(body=[fn], type_ignores=[]), "aggregate_logger.py", "exec"), namespace)  # noqa: S102
    return namespace["concat_dict_to_str"]


def verl_lines(steps: list[tuple[int, dict]]) -> str:
    fmt = verl_formatter()
    return "\n".join(fmt(metrics, step=step) for step, metrics in steps)


_OPENRLHF_FORMAT = "%(levelname)s %(asctime)s %(filename)s:%(lineno)d] %(message)s"  # logging_utils.py:10


def _openrlhf_formatter() -> logging.Formatter:
    if wheel_file(OPENRLHF) is None:
        return logging.Formatter(_OPENRLHF_FORMAT, datefmt="%m-%d %H:%M:%S")
    module = types.ModuleType("openrlhf_logging_utils")
    exec(wheel(OPENRLHF).text("openrlhf/utils/logging_utils.py"), module.__dict__)  # noqa: S102 - the release's file
    return module.NewLineFormatter(module._FORMAT, datefmt=module._DATE_FORMAT)


def openrlhf_lines(steps: list[tuple[int, dict]]) -> str:
    """``logger.info(f"✨ Global step {global_step}: {log_status}")`` (ppo_trainer.py:551) through OpenRLHF's
    formatter."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(_openrlhf_formatter())
    logger = logging.getLogger("openrlhf.trainer.ppo_trainer.test")
    logger.handlers, logger.propagate = [handler], False
    logger.setLevel(logging.INFO)
    for global_step, log_status in steps:
        logger.info(f"✨ Global step {global_step}: {log_status}")
    return stream.getvalue()


def nemo_rl_lines(steps: list[tuple[int, dict, float]], max_num_steps: int = 100) -> str:
    """NeMo RL v0.7.0's console for each (step, timing_metrics, mean generation length), as grpo.py prints it."""
    out = io.StringIO()
    for step, timing_metrics, mean_gen in steps:
        print(f"\n{'=' * 25} Step {step}/{max_num_steps} {'=' * 25}", file=out)           # grpo.py:2244
        print("\n📊 Training Results:", file=out)
        print(f"  • Mean Generation Length: {mean_gen:.4f}", file=out)                      # grpo.py:3058
        print("\n⏱️  Timing:", file=out)                                                    # grpo.py:3062
        total_time = timing_metrics.get("total_step_time", 0)
        print(f"  • Total step time: {total_time:.2f}s", file=out)                         # grpo.py:3075
        for k, v in sorted(timing_metrics.items(), key=lambda item: item[1], reverse=True):
            if k != "total_step_time":
                percent = (v / total_time * 100) if total_time > 0 else 0
                print(f"  • {k}: {v:.2f}s ({percent:.1f}%)", file=out)                     # grpo.py:3081
    return out.getvalue()


def wandb_csv(steps: list[tuple[int, dict]], run: str = "grpo-qwen-7b") -> str:
    """wandb's chart export: ``Step`` and, per metric, ``<run> - <key>``, ``__MIN`` and ``__MAX`` columns."""
    keys = sorted({k for _, m in steps for k in m})
    header = ["Step"] + [c for k in keys for c in (f"{run} - {k}", f"{run} - {k}__MIN", f"{run} - {k}__MAX")]
    rows = [",".join(header)]
    for step, metrics in steps:
        cells = [str(step)]
        for k in keys:
            v = "" if k not in metrics else repr(float(metrics[k]))
            cells += [v, v, v]
        rows.append(",".join(cells))
    return "\n".join(rows) + "\n"


def tensorboard_csv(steps: list[tuple[int, dict]], run: str = "version_0") -> str:
    """TensorBoard's scalars as ``tensorboard.data`` gives them, one per row: run, tag, step, value."""
    rows = ["run,tag,step,value"]
    rows += [f"{run},{k},{step},{float(v)!r}" for step, m in steps for k, v in m.items()]
    return "\n".join(rows) + "\n"
