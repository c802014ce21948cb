"""`rlhf-lab`: serve the lab with uvicorn (127.0.0.1:8000 by default), one worker per process; or answer one
question on the command line, as a CI job or a notebook would ask it:

* ``rlhf-lab estimate --arch qwen3_8b --gpus 16 …`` — one workload's step, memory and run (``GET /api/evaluate``);
* ``rlhf-lab plan --arch qwen3_8b --deadline-h 24 --budget-usd 5000 …`` — the run planner (``GET /api/plan``).

Both take the URL's parameters as options (``--response-max-tokens 8192`` for ``response_max_tokens``), print a
readable table, and with ``--json`` print exactly the API's answer.  A bad value is refused naming the field, as the
API's 422 does (exit status 2).

The app keeps no state, so a host runs one process per core, each on its own port, behind nginx
(deploy/nginx.conf): see docs/deploy.md.
"""

from __future__ import annotations

import argparse
import sys


def _serve(argv: list[str]) -> None:
    import uvicorn

    parser = argparse.ArgumentParser(prog="rlhf-lab", description="Serve the RLHF Pipeline Lab, or run "
                                     "`rlhf-lab estimate …` / `rlhf-lab plan …` (see --help of each).")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--proxy-headers", action="store_true", help="trust X-Forwarded-* from a reverse proxy")
    args = parser.parse_args(argv)
    uvicorn.run("app.main:app", host=args.host, port=args.port, proxy_headers=args.proxy_headers, forwarded_allow_ips="127.0.0.1" if args.proxy_headers else None,
                access_log=False)


def _parser(command: str, model) -> argparse.ArgumentParser:  # noqa: ANN001 - a pydantic model class
    """Every field of the query model as an option (``--response-max-tokens``), taken as the text a URL carries;
    a boolean as a switch."""
    parser = argparse.ArgumentParser(prog=f"rlhf-lab {command}", description=(model.__doc__ or "").strip())
    for name, field in model.model_fields.items():
        flag = "--" + name.replace("_", "-")
        if field.annotation is bool:
            parser.add_argument(flag, dest=name, action="store_const", const="true", help=field.description)
        else:
            parser.add_argument(flag, dest=name, metavar="VALUE", help=field.description)
    parser.add_argument("--json", action="store_true", help="print exactly the API's JSON answer")
    return parser


def _validated(model, args: argparse.Namespace):  # noqa: ANN001, ANN202
    """The options given, validated as the API validates its query; a refusal names the field (exit 2)."""
    from pydantic import ValidationError

    from app.model.inputs import refused

    given = {k: v for k, v in vars(args).items() if k != "json" and v is not None}
    try:
        params = model.model_validate(given)
    except ValidationError as e:
        for err in e.errors():
            print(f"rlhf-lab: --{'-'.join(str(x) for x in err['loc']).replace('_', '-')}: {err['msg']}",
                  file=sys.stderr)
        raise SystemExit(2) from None
    for err in refused(params):
        print(f"rlhf-lab: --{err['loc'][-1].replace('_', '-')}: {err['msg']}", file=sys.stderr)
        raise SystemExit(2)
    return params


def _table(rows: list[tuple[str, ...]]) -> str:
    widths = [max(len(r[k]) for r in rows) for k in range(len(rows[0]))]
    return "\n".join("  ".join(c.ljust(w) if k == 0 else c.rjust(w) for k, (c, w) in enumerate(zip(r, widths, strict=True)))
                     .rstrip() for r in rows)


def estimate(argv: list[str]) -> str:
    """``rlhf-lab estimate``: the workload's stage, step, memory and run (``/api/evaluate``'s answer)."""
    from app.model import WorkloadInputs, evaluate
    from app.view.api import evaluate_out

    args = _parser("estimate", WorkloadInputs).parse_args(argv)
    params = _validated(WorkloadInputs, args)
    result = evaluate(params)
    out = evaluate_out(result)
    if args.json:
        return out.model_dump_json(by_alias=True)
    i, e = result.inputs, out.estimates
    rows = [("what", "value"), ("stage", result.stage), ("GPUs", f"{i.gpus} × {i.gpu} ({i.placement})")]
    if e.step is not None:
        rows += [("step", f"{e.step.total_s:,.1f} s on {e.timed_gpus} GPUs"),
                 ("  generation / scoring / training", f"{e.step.generation_s:,.1f} / {e.step.scoring_s:,.1f} / "
                                                      f"{e.step.training_s:,.1f} s")]
    else:
        rows.append(("step", "does not fit on any GPU count"))
    rows += [("memory per GPU", f"{e.memory.peak_per_gpu_gb:,.1f} GB of {e.memory.usable_gb:,.1f} usable"),
             ("fits", "yes" if e.memory.fits else f"no (fewest that fit: {e.memory.min_gpus})")]
    if e.run is not None:
        rows += [("run", f"{e.run.steps:,} steps, {e.run.hours:,.2f} h, {e.run.gpu_hours:,.1f} GPU-hours")]
    return _table(rows)


def plan(argv: list[str]) -> str:
    """``rlhf-lab plan``: the planner's frontier as a table and its answer in one line (``/api/plan``'s answer)."""
    from app.view.plan import PlanParams, message, plan_json, planned, split_params

    args = _parser("plan", PlanParams).parse_args(argv)
    workload, q = split_params(_validated(PlanParams, args))
    if args.json:
        return plan_json(workload, q).decode()
    p = planned(workload, q)
    rows = [("option", "hours", "cost $", "GPU-hours", "")]
    for o in p.frontier:
        mark = " ".join(m for m, x in (("cheapest", p.cheapest), ("fastest", p.fastest)) if x is o)
        variant = "".join((f", staleness {o.staleness}" if o.staleness else "",
                           f", offload {o.offload}" if o.offload != "none" else "",
                           ", LoRA" if o.tuning == "lora" else ""))
        rows.append((f"{o.gpu} × {o.gpus} ({o.nodes}-node, {o.placement}{variant})", f"{o.hours:,.2f}",
                     f"{o.cost_usd:,.0f}", f"{o.gpu_hours:,.0f}", mark))
    s = p.searched
    lines = [_table(rows)] if p.frontier else []
    lines += [f"searched {s.options:,} options ({s.evaluations:,} evaluations, up to {s.max_gpus:,} GPUs"
              f"{', cut' if s.cut else ''}); frontier of {len(p.frontier)}", message(p)]
    return "\n".join(lines)


COMMANDS = {"estimate": estimate, "plan": plan}


def main(argv: list[str] | None = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] in COMMANDS:
        print(COMMANDS[argv[0]](argv[1:]))
        return
    _serve(argv)


if __name__ == "__main__":
    main()
