"""Each framework's own definition of its options, read from the pinned release's wheel (no torch, no GPU), and a
checker per framework that lists what in a command that release would reject or ignore.

- verl: the command's Hydra overrides composed over the config tree shipped in the wheel (``verl/trainer/config``,
  the config name the launcher selects, else the one ``main_ppo`` declares); a key Hydra rejects is named with its
  error.  An override under a top-level section of ``legacy_reward_impl.yaml`` is "legacy" when ``main_ppo.py`` no
  longer calls ``migrate_legacy_reward_impl`` (read by AST): such a key composes but nothing reads it.
- OpenRLHF: every flag is an ``add_argument`` option of the entry point's CLI file (``openrlhf/cli/*.py``, AST), and
  a bare switch is a ``store_true`` option while a flag with a value is not.
- TRL: every ``--flag`` is a field of a dataclass the script parses (``TrlParser((…))`` in ``trl/scripts/*.py``,
  resolved with their base classes through TRL's files and Transformers' ``TrainingArguments``); the ``accelerate
  launch`` options are ``add_argument`` options of Accelerate's ``commands/launch.py``; the ``trl vllm-serve`` line
  a note carries is checked against ``trl/scripts/vllm_serve.py``.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from functools import cache

from launch.wheels import wheel

from app.launch.common import Command, shell_words
from app.launch.releases import ACCELERATE, OPENRLHF, TRANSFORMERS, TRL, VERL


@dataclass
class Problems:
    """What a release would do with a command: rejected keys, legacy (ignored) keys, unknown flags."""

    rejected: list[str] = field(default_factory=list)
    legacy: list[str] = field(default_factory=list)
    unknown: list[str] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.rejected or self.legacy or self.unknown)

    def __str__(self) -> str:
        parts = [f"{k}: {', '.join(v)}" for k, v in (("rejected", self.rejected), ("legacy", self.legacy),
                                                        ("unknown", self.unknown)) if v]
        return "; ".join(parts) or "none"


def argparse_options(source: str) -> dict[str, str | None]:
    """Every option string of every ``*.add_argument(…)`` call in ``source`` → its ``action`` (None when absent).

    >>> argparse_options('p.add_argument("--a.b", type=int)\\ng.add_argument("-m", "--module", action="store_true")')
    {'--a.b': None, '-m': 'store_true', '--module': 'store_true'}
    """
    out: dict[str, str | None] = {}
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "add_argument":
            action = next((k.value.value for k in node.keywords if k.arg == "action"
                           and isinstance(k.value, ast.Constant)), None)
            for arg in node.args:
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str) and arg.value.startswith("-"):
                    out[arg.value] = action
    return out


def _calls(source: str, name: str) -> list[ast.Call]:
    return [n for n in ast.walk(ast.parse(source)) if isinstance(n, ast.Call) and (
        (isinstance(n.func, ast.Name) and n.func.id == name) or
        (isinstance(n.func, ast.Attribute) and n.func.attr == name))]


# --- verl --------------------------------------------------------------------------------------------------------


@cache
def verl_facts() -> tuple[str, str, frozenset[str], bool]:
    """(config folder, main_ppo's config name, the legacy top-level sections, whether main_ppo migrates them)."""
    w = wheel(VERL)
    folder = str(w.unpack("verl/trainer/config/"))
    main = w.text("verl/trainer/main_ppo.py")
    names = [k.value.value for c in _calls(main, "main") for k in c.keywords if k.arg == "config_name"]
    legacy = frozenset(line.split(":")[0] for line in w.text("verl/trainer/config/legacy_reward_impl.yaml").splitlines()
                       if line and not line.startswith((" ", "#")))
    migrates = bool(_calls(main, "migrate_legacy_reward_impl"))
    return folder, names[0], legacy, migrates


def verl_overrides(cmd: Command) -> tuple[str | None, list[str]]:
    """(the config name the launcher selects, or None; the overrides)."""
    words = shell_words(cmd.text)[len(cmd.launcher):]
    config = next((t.split("=", 1)[1] for t in cmd.launcher if t.startswith("--config-name=")), None)
    return config, words


@cache
def composed(config: str):
    """verl's config ``config`` composed by Hydra from the wheel's tree, with no overrides (once per name)."""
    from hydra import compose, initialize_config_dir

    with initialize_config_dir(config_dir=verl_facts()[0], version_base=None):
        return compose(config)


def compose_errors(config: str, overrides: list[str]) -> list[str]:
    """Each override Hydra rejects over ``config``: Hydra's own override parser, then the step of its ``compose``
    that applies value overrides (``ConfigLoaderImpl._apply_overrides_to_config``, struct mode: a key the tree does
    not have is refused) on a copy of the tree composed once.  The overrides here never select a config group (the
    launcher's ``--config-name`` does), so these are the steps a full ``compose(config, overrides)`` takes for
    them; ``test_the_fast_path_agrees_with_a_full_compose`` checks it."""
    import copy

    from hydra._internal.config_loader_impl import ConfigLoaderImpl
    from hydra.core.override_parser.overrides_parser import OverridesParser
    from hydra.errors import HydraException
    from omegaconf.errors import OmegaConfBaseException

    parser = OverridesParser.create()
    cfg = copy.deepcopy(composed(config))
    bad = []
    for o in overrides:
        try:
            ConfigLoaderImpl._apply_overrides_to_config(parser.parse_overrides([o]), cfg)
        except (HydraException, OmegaConfBaseException) as e:
            bad.append(f"{o.split('=')[0]} ({str(e).splitlines()[0]})")
    return bad


def full_compose_errors(config: str, overrides: list[str]) -> list[str]:
    """Hydra's ``compose(config, overrides)`` in one go (slow: the whole defaults tree each time)."""
    from hydra import compose, initialize_config_dir
    from hydra.errors import HydraException
    from omegaconf.errors import OmegaConfBaseException

    with initialize_config_dir(config_dir=verl_facts()[0], version_base=None):
        try:
            compose(config, overrides=overrides)
        except (HydraException, OmegaConfBaseException) as e:
            return [str(e).splitlines()[0]]
    return []


def check_verl(cmd: Command) -> Problems:
    _, default_config, legacy_sections, migrates = verl_facts()
    config, overrides = verl_overrides(cmd)
    p = Problems(rejected=compose_errors(config or default_config, overrides))
    if not migrates:
        p.legacy = [o.split("=")[0] for o in overrides if o.split("=")[0].lstrip("+~").split(".")[0] in legacy_sections]
    return p


# --- OpenRLHF -------------------------------------------------------------------------------------------------------


@cache
def openrlhf_options(module: str) -> dict[str, str | None]:
    return argparse_options(wheel(OPENRLHF).text(module.replace(".", "/") + ".py"))


def openrlhf_module(cmd: Command) -> str:
    launcher = list(cmd.launcher)
    return launcher[launcher.index("--module") + 1] if "--module" in launcher else launcher[-1]


def check_openrlhf(cmd: Command) -> Problems:
    options = openrlhf_options(openrlhf_module(cmd))
    p = Problems()
    for f in cmd.flags:
        if f.name not in options:
            p.unknown.append(f.name)
        elif (f.value is None) != (options[f.name] == "store_true"):
            p.rejected.append(f"{f.name} ({'a switch' if options[f.name] == 'store_true' else 'takes a value'})")
    return p


# --- TRL -------------------------------------------------------------------------------------------------------------

_CLASS_FILES = (  # where TRL's scripts' dataclasses and their bases are defined
    (TRL, "trl/scripts/utils.py"), (TRL, "trl/trainer/base_config.py"), (TRL, "trl/trainer/model_config.py"),
    (TRL, "trl/trainer/grpo_config.py"), (TRL, "trl/trainer/dpo_config.py"), (TRL, "trl/scripts/grpo.py"),
    (TRL, "trl/scripts/dpo.py"), (TRL, "trl/scripts/vllm_serve.py"),
    (TRANSFORMERS, "transformers/training_args.py"),
)


@cache
def trl_classes() -> dict[str, tuple[tuple[str, ...], frozenset[str], dict[str, str]]]:
    """Class name → (base names, annotated field names, field → annotation text), from the files above."""
    out = {}
    for release, path in _CLASS_FILES:
        for node in ast.parse(wheel(release).text(path)).body:
            if isinstance(node, ast.ClassDef):
                fields = {s.target.id: ast.unparse(s.annotation) for s in node.body
                          if isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name)}
                bases = tuple(ast.unparse(b) for b in node.bases)
                out.setdefault(node.name, (bases, frozenset(fields), fields))
    return out


def dataclass_fields(name: str) -> dict[str, str]:
    """A class's fields with its bases' (among the known files)."""
    bases, _, own = trl_classes()[name]
    fields: dict[str, str] = {}
    for base in bases:
        if base in trl_classes():
            fields.update(dataclass_fields(base))
    return {**fields, **own}


@cache
def trl_script_fields(module: str) -> dict[str, str]:
    """Every field the script parses (its ``dataclass_types = (A, B, …)`` handed to ``TrlParser``), with its
    annotation."""
    source = wheel(TRL).text(module.replace(".", "/") + ".py")
    names = [ast.unparse(e) for n in ast.walk(ast.parse(source)) if isinstance(n, ast.Assign)
             and any(isinstance(t, ast.Name) and t.id == "dataclass_types" for t in n.targets)
             and isinstance(n.value, ast.Tuple) for e in n.value.elts]
    if not names or not _calls(source, "TrlParser"):
        raise LookupError(f"{module}: no dataclass_types for TrlParser")
    out: dict[str, str] = {}
    for name in names:
        out.update(dataclass_fields(name))
    return out


@cache
def accelerate_options() -> dict[str, str | None]:
    return argparse_options(wheel(ACCELERATE).text("accelerate/commands/launch.py"))


def check_trl(cmd: Command) -> Problems:
    launcher = list(cmd.launcher)
    module = launcher[launcher.index("-m") + 1]
    fields = trl_script_fields(module)
    p = Problems()
    p.unknown += [t for t in launcher[2:launcher.index("-m") + 1] if t.startswith("-")
                  and t not in accelerate_options()]
    for f in cmd.flags:
        name = f.name.removeprefix("--")
        if name not in fields:
            p.unknown.append(f.name)
        elif f.value is None and "bool" not in fields[name]:
            p.rejected.append(f"{f.name} (a bare switch, but the field is {fields[name]})")
    serve = next((dict(n.args)["command"] for n in cmd.notes if n.key == "launch.note.trl_server"), None)
    if serve is not None:
        own = _vllm_serve_fields()
        p.unknown += [t for t in serve.split()[2:] if t.startswith("--") and t[2:] not in own]
    return p


@cache
def _vllm_serve_fields() -> dict[str, str]:
    source = wheel(TRL).text("trl/scripts/vllm_serve.py")
    for node in ast.parse(source).body:
        if isinstance(node, ast.ClassDef) and node.name == "ScriptArguments":
            return {s.target.id: ast.unparse(s.annotation) for s in node.body
                    if isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name)}
    raise LookupError("trl/scripts/vllm_serve.py: no ScriptArguments")


CHECKERS = {"verl": check_verl, "openrlhf": check_openrlhf, "trl": check_trl}


def check(cmd: Command) -> Problems:
    return CHECKERS[cmd.framework](cmd)


# --- reading a command back: the frameworks' own parsers ----------------------------------------------------------


def verl_config(cmd: Command):
    """The config verl 0.9.1 runs for ``cmd``: its overrides applied by Hydra's override parser to the config tree the
    launcher selects (the steps of ``compose`` that ``compose_errors`` takes), values resolved by OmegaConf."""
    import copy

    from hydra._internal.config_loader_impl import ConfigLoaderImpl
    from hydra.core.override_parser.overrides_parser import OverridesParser

    config, overrides = verl_overrides(cmd)
    cfg = copy.deepcopy(composed(config or verl_facts()[1]))
    ConfigLoaderImpl._apply_overrides_to_config(OverridesParser.create().parse_overrides(overrides), cfg)
    return cfg


@cache
def openrlhf_parser(module: str):
    """OpenRLHF 0.11.2's own argparse for an entry point: every ``add_argument`` call of the CLI file replayed on a
    fresh ``ArgumentParser`` (the file imports torch and Ray at the top, so it is read, not imported); a ``type=`` or
    ``choices=`` that is not a literal or a builtin becomes plain text."""
    import argparse

    parser = argparse.ArgumentParser(add_help=False)
    safe = {"int": int, "float": float, "str": str}
    for node in ast.walk(ast.parse(wheel(OPENRLHF).text(module.replace(".", "/") + ".py"))):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "add_argument"):
            continue
        args = [a.value for a in node.args if isinstance(a, ast.Constant)]
        kwargs = {}
        for k in node.keywords:
            if k.arg == "type":
                kwargs["type"] = safe.get(ast.unparse(k.value), str)
            elif k.arg in ("action", "nargs", "default", "dest", "choices"):
                try:
                    kwargs[k.arg] = ast.literal_eval(k.value)
                except ValueError:
                    continue
        try:
            parser.add_argument(*args, **kwargs)
        except (argparse.ArgumentError, TypeError, ValueError):
            continue
    return parser


def openrlhf_args(cmd: Command) -> dict[str, object]:
    """The command's flags as OpenRLHF's argparse reads them: option name (``train.batch_size``) → value."""
    words = shell_words(cmd.text)[len(cmd.launcher):]
    ns = openrlhf_parser(openrlhf_module(cmd)).parse_args(words)
    return vars(ns)


def trl_args(cmd: Command) -> dict[str, object]:
    """The command's flags as TRL's ``TrlParser`` would type them (each field's annotation: int, float, bool, str)."""
    launcher = list(cmd.launcher)
    fields = trl_script_fields(launcher[launcher.index("-m") + 1])
    out: dict[str, object] = {}
    for f in cmd.flags:
        name, kind = f.name.removeprefix("--"), fields[f.name.removeprefix("--")]
        value: object = f.value
        if f.value is None:
            value = True
        elif "bool" in kind:
            value = f.value in ("True", "true", "1")
        elif kind.startswith("int") or kind == "int | None":
            value = int(f.value)
        elif kind.startswith("float"):
            value = float(f.value)
        out[name] = value
    out["num_processes"] = int(launcher[launcher.index("--num_processes") + 1])
    return out
