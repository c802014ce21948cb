"""Catalogues (one per language, flat dotted keys) and the number formats the text uses.

Catalogue files: ``app/i18n/<lang>/*.json`` — every file of a language is merged into one flat dict, and
both languages must have exactly the same keys (tests/test_i18n.py).

Values are ``str.format`` templates with named fields.  Besides the standard format specs, these are known:
``{x:n}`` integer with thousands separators · ``{x:dur}`` a duration in seconds as s / min / h / d ·
``{x:gb}`` gigabytes · ``{x:pct}`` a percentage · ``{x:b}`` billions of parameters · ``{x:g3}`` 3 significant digits.
"""

from __future__ import annotations

import json
import math
import string
from functools import cache
from pathlib import Path

from markupsafe import Markup, escape

LANGS = ("zh", "en")
DEFAULT_LANG = "zh"
_DIR = Path(__file__).parent / "i18n"

_UNITS = {
    "en": {"s": "s", "min": "min", "h": "h", "d": "d"},
    "zh": {"s": "秒", "min": "分钟", "h": "小时", "d": "天"},
}


def _sig(x: float, digits: int = 3) -> str:
    """``x`` to ``digits`` significant digits, without exponent for everyday magnitudes."""
    if x == 0 or not math.isfinite(x):
        return "0" if x == 0 else "∞"
    magnitude = math.floor(math.log10(abs(x)))
    decimals = max(0, digits - 1 - magnitude)
    text = f"{x:,.{decimals}f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return text


def fmt_duration(seconds: float, lang: str) -> str:
    u = _UNITS[lang]
    sep = " " if lang == "en" else " "
    if seconds < 90:
        return f"{_sig(seconds, 2) if seconds < 10 else f'{seconds:,.0f}'}{sep}{u['s']}"
    if seconds < 90 * 60:
        return f"{_sig(seconds / 60, 2) if seconds < 600 else f'{seconds / 60:,.0f}'}{sep}{u['min']}"
    if seconds < 48 * 3600:
        return f"{_sig(seconds / 3600, 2) if seconds < 36000 else f'{seconds / 3600:,.0f}'}{sep}{u['h']}"
    return f"{seconds / 86400:,.1f}{sep}{u['d']}" if seconds < 864000 else f"{seconds / 86400:,.0f}{sep}{u['d']}"


def fmt_gb(gb: float) -> str:
    if gb >= 100:
        return f"{gb:,.0f} GB"
    if gb >= 1:
        return f"{gb:,.1f} GB".replace(".0 GB", " GB")
    return f"{_sig(gb, 2)} GB"


def fmt_params_b(b: float) -> str:
    return f"{_sig(b, 3)}B"


class _Formatter(string.Formatter):
    def __init__(self, lang: str) -> None:
        self.lang = lang

    def format_field(self, value, format_spec):  # noqa: ANN001 - string.Formatter's signature
        if format_spec == "n":
            return f"{round(value):,}"
        if format_spec == "dur":
            return fmt_duration(float(value), self.lang)
        if format_spec == "gb":
            return fmt_gb(float(value))
        if format_spec == "pct":
            return f"{value:.0f}%"
        if format_spec == "b":
            return fmt_params_b(float(value))
        if format_spec == "g3":
            return _sig(float(value), 3)
        return super().format_field(value, format_spec)


_FORMATTERS = {lang: _Formatter(lang) for lang in LANGS}


@cache
def catalogue(lang: str) -> dict[str, str]:
    """The merged catalogue of one language (loaded once)."""
    merged: dict[str, str] = {}
    for path in sorted((_DIR / lang).glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        overlap = merged.keys() & data.keys()
        if overlap:
            raise ValueError(f"{path.name}: keys defined twice: {sorted(overlap)[:5]}")
        merged.update(data)
    return merged


@cache
def _fields(text: str) -> tuple[tuple[str, str | None, str], ...] | None:
    """A catalogue template parsed once: (literal, field name, format spec) triples, as ``str.format`` parses them.
    None when a field uses a conversion, an index/attribute or a nested spec (left to ``string.Formatter``)."""
    out = []
    for literal, name, spec, conversion in string.Formatter().parse(text):
        if name is not None and (conversion or not name.isidentifier() or "{" in (spec or "")):
            return None
        out.append((literal, name, spec or ""))
    return tuple(out)


class Translator:
    """``t(key, **args)`` for one language. Missing keys raise: a test renders every page in both languages."""

    def __init__(self, lang: str) -> None:
        self.lang = lang
        self.messages = catalogue(lang)
        self._formatter = _FORMATTERS[lang]

    def __call__(self, key: str, **args) -> str:
        text = self.messages[key]
        if args:
            parts = _fields(text)
            if parts is None:
                return self._formatter.vformat(text, (), args)
            field = self._formatter.format_field
            text = "".join([lit if name is None else lit + field(args[name], spec) for lit, name, spec in parts])
        return text

    def markup(self, key: str, **args) -> Markup:
        """Catalogue text may carry simple markup (<b>, <code>, <em>); arguments are escaped."""
        safe = {k: escape(v) if isinstance(v, str) else v for k, v in args.items()}
        return Markup(self(key, **safe))

    def has(self, key: str) -> bool:
        return key in self.messages

    def fmt(self, spec: str, value) -> str:  # noqa: ANN001
        return self._formatter.format_field(value, spec)


TRANSLATORS = {lang: Translator(lang) for lang in LANGS} if _DIR.exists() and all(
    (_DIR / lang).exists() for lang in LANGS) else {}


def translator(lang: str) -> Translator:
    if lang not in TRANSLATORS:
        TRANSLATORS[lang] = Translator(lang)
    return TRANSLATORS[lang]
