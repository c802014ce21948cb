"""The launch page (/{lang}/launch) and its JSON (/api/launch): for the state on screen, a verl, an OpenRLHF and a
TRL command, each with its pinned release, its flags and where each is defined, its notes and the template files it
expects; or the reason there is none (a state that does not fit links to the fewest GPUs that do).  Frozen
view-models; the template translates every key (``Text``) and escapes every value."""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlencode

from app.i18n import LANGS, translator
from app.launch import FILES, State, for_state
from app.launch.common import Command, Note
from app.launch.releases import FRAMEWORKS
from app.launch.sources import LAUNCHERS, SOURCES
from app.model import Result
from app.model.inputs import Notice
from app.view.lab import fitted_banner, other
from app.view.links import canonical_query

_ROLE_ARGS = ("role",)  # note arguments that name a framework role: translated (launch.role.*) before formatting


@dataclass(frozen=True, slots=True)
class Text:
    """A catalogue key and its arguments (rendered with ``t.markup``: string arguments are escaped)."""

    key: str
    args: tuple[tuple[str, object], ...] = ()

    @property
    def params(self) -> dict[str, object]:
        return dict(self.args)


@dataclass(frozen=True, slots=True)
class Source:
    id: str
    title: str
    url: str


@dataclass(frozen=True, slots=True)
class FlagRow:
    name: str
    value: str | None   # None: a bare switch
    source: Source

    @property
    def switch(self) -> bool:  # a bare switch: the row says so instead of a value
        return self.value is None


@dataclass(frozen=True, slots=True)
class FileLink:
    name: str
    url: str
    what: Text


@dataclass(frozen=True, slots=True)
class Panel:
    """One framework: its command (text, release, flags, notes, files) or the reason it has none."""

    framework: str                  # verl | openrlhf | trl (ids in the page: launch-verl, …)
    name: str                       # as the project writes it
    text: str | None                # the shell command; None when there is none
    version: str                    # "verl 0.9.1"
    pin: str                        # "verl==0.9.1"
    launcher: Source | None         # where the launcher tokens are documented
    flags: tuple[FlagRow, ...]
    notes: tuple[Text, ...]
    reason: Text | None
    sources: tuple[Source, ...]     # every source the command cites, in first-use order
    files: tuple[FileLink, ...] = ()
    script_url: str = ""            # the command as a .sh download
    unmapped: tuple[Text, ...] = ()  # plan fields this release cannot set, each with why (launch.unmapped.*)


_SUMMARY_CHOICES = ("gpu", "method", "arch", "engine", "offload", "tuning")  # the choices launch.html names


@dataclass(frozen=True, slots=True)
class LaunchPage:
    lang: str
    other_lang: str
    result: Result
    notices: tuple[Notice, ...]
    lab_url: str
    switch_url: str
    self_url: str
    panels: tuple[Panel, ...]
    map_notes: tuple[Text, ...]     # what the mapping from the lab's layout chose (launch.map.*)
    fit_url: str | None             # the state does not fit: the same state on the fewest GPUs that do
    versions: tuple[str, ...]       # "verl 0.9.1", … for the page's lead
    engine_shape: str = ""          # the model's engine: "8", or "8 × PP 5" with pipeline stages
    rl_loop: bool = False           # an online RL loop (``StageCost.online``): the summary shows its layout and rollouts
    custom_size: bool = False       # the custom architecture: the summary gives its size, not a model's name
    shows_group: bool = False       # GRPO: the summary gives the group size

    @property
    def stage_name_key(self) -> str:
        return f"stage.{self.result.stage}.name"

    @property
    def choice_keys(self) -> dict[str, str]:
        """The state summary's named choices, each as its catalogue key (``choice.gpu.h100`` …)."""
        i = self.result.inputs
        return {c: f"choice.{c}.{getattr(i, c)}" for c in _SUMMARY_CHOICES}


def _source(sid: str) -> Source:
    title, url = SOURCES[sid]
    return Source(sid, title, url)


def _text(note: Note, lang: str) -> Text:
    t = translator(lang)
    args = tuple((k, t(f"launch.role.{v}") if k in _ROLE_ARGS and t.has(f"launch.role.{v}") else v)
                 for k, v in note.args)
    return Text(note.key, args)


def _launcher_source(cmd: Command) -> Source:
    sid = next(src for tokens, src in LAUNCHERS.values() if cmd.launcher[:len(tokens)] == tokens)
    return _source(sid)


def _panel(framework: str, state: State, lang: str, query: str) -> Panel:
    release = next(r for r in FRAMEWORKS if r.framework == framework)
    cmd = state.command(framework)
    if cmd is None:
        why = state.reason(framework) or Note("launch.reason.invalid_layout", (("field", "?"), ("value", "?")))
        return Panel(framework, release.name, None, release.label, release.pin, None, (), (), _text(why, lang), ())
    launcher = _launcher_source(cmd)
    flags = tuple(FlagRow(f.name, f.value, _source(f.source)) for f in cmd.flags)
    seen: dict[str, Source] = {launcher.id: launcher}
    for f in flags:
        seen.setdefault(f.source.id, f.source)
    files = tuple(FileLink(name, f"/launch/files/{name}", Text(FILES[name])) for name in cmd.files)
    return Panel(framework, release.name, cmd.text, release.label, release.pin, launcher, flags,
                 tuple(_text(n, lang) for n in cmd.notes), None, tuple(seen.values()), files,
                 f"/api/launch/{framework}.sh?{query}", tuple(_text(n, lang) for n in cmd.unmapped))


def _for_commands(note: Note, state: State) -> Note:
    """The prompt-length note names only the flags of the commands the page shows."""
    if note.key != "launch.map.prompt_max":
        return note
    shown = tuple(fw for fw in ("verl", "openrlhf", "trl") if state.command(fw) is not None)
    if shown == ("verl",):
        return Note("launch.map.prompt_max_verl", note.args)
    if "verl" not in shown:
        return Note("launch.map.prompt_max_openrlhf", note.args)
    return note


def launch_page(lang: str, result: Result, notices: tuple[Notice, ...]) -> LaunchPage:
    query = canonical_query(result.inputs)
    state = for_state(result)
    notes = () if state.mapped.refusal else tuple(_text(_for_commands(n, state), lang) for n in state.mapped.notes)
    fit = state.mapped.fit_gpus
    return LaunchPage(
        lang=lang, other_lang=other(lang), result=result, notices=notices,
        lab_url=f"/{lang}/?{query}", switch_url=f"/{other(lang)}/launch?{query}", self_url=f"/{lang}/launch?{query}",
        panels=tuple(_panel(r.framework, state, lang, query) for r in FRAMEWORKS), map_notes=notes,
        fit_url=f"/{lang}/launch?{urlencode(result.inputs.query(gpus=fit))}" if fit else None,
        versions=tuple(r.label for r in FRAMEWORKS), engine_shape=_engine_shape(result),
        rl_loop=result.cost.online, custom_size=result.inputs.arch == "custom",
        shows_group=result.inputs.method == "grpo")


def _engine_shape(result: Result) -> str:
    """The model's engine as the state summary writes it after "TP": its TP, and its pipeline stages if any."""
    gen = result.step.gen
    return str(gen.tensor_parallel) if gen.pipeline <= 1 else f"{gen.tensor_parallel} × PP {gen.pipeline}"


def launch_context(lang: str, result: Result, notices: tuple[Notice, ...]) -> dict:
    """Everything launch.html reads."""
    vm = launch_page(lang, result, notices)
    return {"lang": lang, "other_lang": vm.other_lang, "page": "launch", "vm": vm, "r": result,
            "inputs": result.inputs, "switch_url": vm.switch_url, "fitted_banner": fitted_banner(lang, result.inputs)}


# --- the JSON answer ----------------------------------------------------------------------------------------------


def _note_json(note: Note) -> dict:
    texts = {lang: translator(lang)(note.key, **_text(note, lang).params) for lang in LANGS}
    return {"key": note.key, "args": dict(note.args), "text": texts}


def launch_json(result: Result) -> dict:
    """Per framework: ``command``, ``version``, ``pin``, ``config`` (verl's Hydra config), ``notes`` and ``files``,
    or ``command`` null and the ``reason``; the mapping's notes; the fewest GPUs that fit when the state does not."""
    state = for_state(result)
    out = {}
    for release in FRAMEWORKS:
        cmd = state.command(release.framework)
        why = None if cmd is not None else state.reason(release.framework)
        out[release.framework] = {
            "version": release.version, "pin": release.pin,
            "command": cmd.text if cmd else None,
            "config": (cmd.config or None) if cmd else None,
            "notes": [_note_json(n) for n in cmd.notes] if cmd else [],
            "unmapped": [{"field": n.key.rsplit(".", 1)[1], **_note_json(n)} for n in cmd.unmapped] if cmd else [],
            "files": [f"/launch/files/{name}" for name in cmd.files] if cmd else [],
            "reason": _note_json(why) if why else None,
        }
    return {"query": canonical_query(result.inputs), "plan": result.plan, "frameworks": out,
            "mapping": [_note_json(n) for n in state.mapped.notes] if not state.mapped.refusal else [],
            "fit_gpus": state.mapped.fit_gpus}


def launch_script(result: Result, framework: str) -> str | None:
    """The command as a shell script (None when the state has none for ``framework``)."""
    cmd = for_state(result).command(framework)
    if cmd is None:
        return None
    return f"#!/usr/bin/env bash\n# RLHF Pipeline Lab: /launch?{canonical_query(result.inputs)}\nset -euo pipefail\n\n{cmd.text}\n"
