"""Catalogues (one per language, flat dotted keys) and the number formats the text uses.

Catalogue files: ``app/i18n/<lang>/*.json`` — every file of a language is merged into one flat dict, and
both languages must have exactly the same keys (tests/test_i18n.py).

Values are ``str.format`` templates with named fields.  Besides the standard format specs, these are known:
``{x:n}`` integer with thousands separators · ``{x:dur}`` a duration in seconds as s / min / h / d ·
``{x:gb}`` gigabytes · ``{x:pct}`` a percentage · ``{x:b}`` billions of parameters · ``{x:g3}`` 3 significant digits ·
``{x:gpus}`` a GPU count with its noun ("1 GPU", "8 GPUs"; "8 张 GPU").
"""

from __future__ import annotations

import json
import math
import string
from functools import cache
from pathlib import Path

from markupsafe import Markup, escape

try:  # markupsafe's own C escaping of a str, as a plain str: escape() puts the same text in a new Markup, ≈ 10× the
    # cost of the escaping itself, and every caller here joins the text into a larger string at once
    from markupsafe._speedups import _escape_inner as escape_str
except ImportError:  # markupsafe without its compiled part (or a version that names it otherwise)
    def escape_str(text: str) -> str:
        """``str(escape(text))``.

        >>> escape_str('<a href="x">')
        '&lt;a href=&#34;x&#34;&gt;'
        """
        return str(escape(text))

LANGS = ("zh", "en")
DEFAULT_LANG = "zh"
_DIR = Path(__file__).parent / "i18n"

_UNITS = {
    "en": {"s": "s", "min": "min", "h": "h", "d": "d"},
    "zh": {"s": "秒", "min": "分钟", "h": "小时", "d": "天"},
}


_FIXED = tuple(f",.{d}f" for d in range(400))  # format specs by decimals, built once (a float's log10 ≥ −324)


def _sig(x: float, digits: int = 3) -> str:
    """``x`` to ``digits`` significant digits, without exponent for everyday magnitudes."""
    if x == 0 or not math.isfinite(x):
        return "0" if x == 0 else "∞"
    magnitude = math.floor(math.log10(abs(x)))
    decimals = digits - 1 - magnitude
    text = format(x, _FIXED[decimals] if decimals > 0 else ",.0f")
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


def fmt_gpus(n: int, lang: str) -> str:
    """A GPU count with its noun, singular for one.

    >>> fmt_gpus(1, "en"), fmt_gpus(1024, "en"), fmt_gpus(8, "zh")
    ('1 GPU', '1,024 GPUs', '8 张 GPU')
    """
    if lang == "zh":
        return f"{n:,} 张 GPU"
    return f"{n:,} GPU" if n == 1 else f"{n:,} GPUs"


def fmt_params_b(b: float) -> str:
    return f"{_sig(b, 3)}B"


def _spec_formatters(lang: str) -> dict[str, object]:
    """The format specs the catalogue text uses, one function each (value → str)."""
    return {
        "": lambda v: format(v, ""),
        "n": lambda v: f"{round(v):,}",
        "dur": lambda v: fmt_duration(float(v), lang),
        "gb": lambda v: fmt_gb(float(v)),
        "pct": lambda v: f"{v:.0f}%",
        "b": lambda v: fmt_params_b(float(v)),
        "g3": lambda v: _sig(float(v), 3),
        "gpus": lambda v: fmt_gpus(round(v), lang),
    }


class _Formatter(string.Formatter):
    """``str.format`` with the catalogue's own specs, for text the compiled form cannot take (see _compile)."""

    def __init__(self, lang: str) -> None:
        self.specs = _spec_formatters(lang)

    def format_field(self, value, format_spec):  # noqa: ANN001 - string.Formatter's signature
        fn = self.specs.get(format_spec)
        return fn(value) if fn is not None else super().format_field(value, format_spec)


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


def _compile(text: str, specs: dict[str, object]) -> tuple[tuple[str, str | None, object], ...] | None:
    """A catalogue template parsed once, as ``str.format`` parses it: (literal, field name, formatter) triples, the
    formatter a function of the value.  None when a field uses a conversion, an index or attribute, or a nested
    spec (left to ``string.Formatter``)."""
    out = []
    for literal, name, spec, conversion in string.Formatter().parse(text):
        if name is not None and (conversion or not name.isidentifier() or "{" in (spec or "")):
            return None
        fn = specs.get(spec or "")
        if name is not None and fn is None:
            fn = (lambda s: lambda v: format(v, s))(spec)
        out.append((literal, name, fn))
    return tuple(out)


class Translator:
    """``t(key, **args)`` for one language. Missing keys raise: a test renders every page in both languages.

    >>> t = Translator("en")
    >>> t("est.vs.dpo_step", seconds=4000) == t._formatter.vformat(t.messages["est.vs.dpo_step"], (), {"seconds": 4000})
    True
    """

    def __init__(self, lang: str) -> None:
        self.lang = lang
        self.messages = catalogue(lang)
        self._formatter = _Formatter(lang)
        self._parts = {key: _compile(text, self._formatter.specs) for key, text in self.messages.items()}

    def __call__(self, key: str, **args) -> str:
        if not args:
            return self.messages[key]
        parts = self._parts[key]
        if parts is None:
            return self._formatter.vformat(self.messages[key], (), args)
        return "".join([lit if name is None else lit + fn(args[name]) for lit, name, fn in parts])

    def markup(self, key: str, **args) -> Markup:
        """Catalogue text may carry simple markup (<b>, <code>, <em>); arguments are escaped.

        >>> Translator("en").markup("notice.invalid", field="kl", given="<b>", used="0.02").count("&lt;b&gt;")
        1
        """
        parts = self._parts[key]
        if parts is None or not args:
            return Markup(self(key, **{k: _escaped(v) for k, v in args.items()}))
        # the compiled text filled in one pass; each argument escaped first, as above (inlined: ≈ 13 texts a partial)
        return Markup("".join([lit if name is None else lit + fn(
            v if type(v := args[name]) in _NUMBERS else _escaped(v)) for lit, name, fn in parts]))

    def has(self, key: str) -> bool:
        return key in self.messages

    def fmt(self, spec: str, value) -> str:  # noqa: ANN001
        return self._formatter.format_field(value, spec)


_NUMBERS = frozenset({int, float})  # most arguments: formatted by their spec, nothing to escape


def _escaped(value: object) -> object:
    """A catalogue text's argument as markup() fills it in: a str escaped, Markup as it is, anything else (a number
    for a format spec) untouched."""
    if type(value) is str:
        return escape_str(value)
    return escape(value) if isinstance(value, str) else value


TRANSLATORS = {lang: Translator(lang) for lang in LANGS} if _DIR.exists() and all(
    (_DIR / lang).exists() for lang in LANGS) else {}


def translator(lang: str) -> Translator:
    if lang not in TRANSLATORS:
        TRANSLATORS[lang] = Translator(lang)
    return TRANSLATORS[lang]
