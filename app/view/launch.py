"""The launch page (/{lang}/launch): for the state on screen, a verl and an OpenRLHF command, each with its flags,
their documented sources and its notes, or the reason there is none.  Frozen view-models; the template translates
every key (``Text``) and escapes every value."""

from __future__ import annotations

from dataclasses import dataclass

from app.i18n import translator
from app.model import Result
from app.model.inputs import Notice
from app.model.launch import (
    LAUNCHERS,
    SOURCES,
    VERL_DOCS,
    VERL_VERSION,
    Command,
    Note,
    launch_commands,
    layout_from,
    layout_notes,
    layout_refusal,
)
from app.view.lab import other
from app.view.links import canonical_query

FRAMEWORKS = (("verl", "verl", "verl.main_ppo"), ("openrlhf", "OpenRLHF", "openrlhf.train_ppo_ray"))
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


@dataclass(frozen=True, slots=True)
class Panel:
    """One framework: its command (text, version, flags, notes) or the reason it has none."""

    framework: str                  # verl | openrlhf (ids in the page: launch-verl, launch-openrlhf)
    name: str                       # as the project writes it
    text: str | None                # the shell command; None when there is none
    version: str
    launcher: Source | None         # where the launcher tokens are documented
    flags: tuple[FlagRow, ...]
    notes: tuple[Text, ...]
    reason: Text | None
    sources: tuple[Source, ...]     # every source the command cites, in first-use order
    version_line: Text = Text("launch.version", (("version", ""),))  # "flag names as documented for …"


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


def _source(sid: str) -> Source:
    title, url = SOURCES[sid]
    return Source(sid, title, url)


def _text(note: Note, lang: str) -> Text:
    t = translator(lang)
    args = tuple((k, t(f"launch.role.{v}") if k in _ROLE_ARGS and t.has(f"launch.role.{v}") else v)
                 for k, v in note.args)
    return Text(note.key, args)


def _panel(framework: str, name: str, cmd: Command | None, reason: Note | None, lang: str) -> Panel:
    if cmd is None:
        why = reason if reason is not None else Note("launch.reason.invalid_layout", (("field", "?"), ("value", "?")))
        return Panel(framework, name, None, "", None, (), (), _text(why, lang), ())
    launcher_id = next(k for k, (tokens, _) in LAUNCHERS.items() if cmd.launcher[:len(tokens)] == tokens)
    launcher = _source(LAUNCHERS[launcher_id][1])
    flags = tuple(FlagRow(f.name, f.value, _source(f.source)) for f in cmd.flags)
    seen: dict[str, Source] = {launcher.id: launcher}
    for f in flags:
        seen.setdefault(f.source.id, f.source)
    return Panel(framework, name, cmd.text, cmd.version, launcher, flags, tuple(_text(n, lang) for n in cmd.notes),
                 None, tuple(seen.values()), version_line(cmd.version, lang))


def version_line(version: str, lang: str) -> Text:
    """The line naming the documentation the flags follow: a release as published, or verl's main branch in a
    given month (zh: 2026 年 9 月; en: 2026-09)."""
    if version == VERL_VERSION:
        repo, branch, year, month = VERL_DOCS
        shown = str(month) if lang == "zh" else f"{month:02d}"
        return Text("launch.version_branch", (("repo", repo), ("branch", branch), ("year", year), ("month", shown)))
    return Text("launch.version", (("version", version),))


def _for_commands(note: Note, launch) -> Note:  # noqa: ANN001 - app.model.launch.Launch
    """A mapping note as the page's commands need it: the prompt-length note names only the flags of the commands
    the page shows (verl's ``data.max_prompt_length``, OpenRLHF's ``--data.max_len``)."""
    if note.key != "launch.map.prompt_max" or (launch.verl is None) == (launch.openrlhf is None):
        return note
    return Note("launch.map.prompt_max_verl" if launch.openrlhf is None else "launch.map.prompt_max_openrlhf",
                note.args)


def launch_page(lang: str, result: Result, notices: tuple[Notice, ...]) -> LaunchPage:
    query = canonical_query(result.inputs)
    refusal = layout_refusal(result)
    if refusal is not None:
        panels = tuple(_panel(fw, name, None, refusal, lang) for fw, name, _ in FRAMEWORKS)
        notes: tuple[Text, ...] = ()
    else:
        launch = launch_commands(layout_from(result))
        panels = (_panel("verl", "verl", launch.verl, launch.verl_reason, lang),
                  _panel("openrlhf", "OpenRLHF", launch.openrlhf, launch.openrlhf_reason, lang))
        notes = tuple(_text(_for_commands(n, launch), lang) for n in layout_notes(result))
    return LaunchPage(
        lang=lang, other_lang=other(lang), result=result, notices=notices,
        lab_url=f"/{lang}/?{query}", switch_url=f"/{other(lang)}/launch?{query}", self_url=f"/{lang}/launch?{query}",
        panels=panels, map_notes=notes)


def launch_context(lang: str, result: Result, notices: tuple[Notice, ...]) -> dict:
    """Everything launch.html reads."""
    vm = launch_page(lang, result, notices)
    return {"lang": lang, "other_lang": vm.other_lang, "page": "launch", "vm": vm, "r": result,
            "inputs": result.inputs, "switch_url": vm.switch_url}
