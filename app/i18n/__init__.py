"""Catalogues (one per language, flat dotted keys) and the translator (the templates' ``t`` and ``tm``
filters, app/templating.py).

Catalogue files: ``app/i18n/<lang>/*.json`` — every file of a language is merged into one flat dict, and
both languages must have exactly the same keys (tests/web/test_i18n.py).  They ship inside the package; a missing
catalogue stops the app at import, not at the first request.

Values are ``str.format`` templates with named fields.  Besides the standard format specs, these are known
(app/i18n/formats.py): ``{x:n}`` integer with thousands separators · ``{x:dur}`` a duration in seconds as
s / min / h / d (``{x:hdur}``: the same, given in hours) · ``{x:gb}`` gigabytes · ``{x:pct}`` a percentage · ``{x:b}`` billions of parameters ·
``{x:g3}`` 3 significant digits · ``{x:gpus}`` a GPU count with its noun ("1 GPU", "8 GPUs"; "8 张 GPU").

A term is written ``[[glossary id|the words shown]]`` (app/i18n/terms.py): a markup text (``tm``) renders it as a link
to the glossary entry on ``/{lang}/reference`` with the entry's short definition as its title, a plain text (``t``)
as the words alone.  Both languages of a key link the same entries (tests/web/test_terms_defined.py).
"""

from __future__ import annotations

import json
import re
import string
from pathlib import Path

from markupsafe import Markup, escape

from app.i18n.formats import spec_formatters
from app.i18n.terms import link_terms, strip_terms
from app.model.physics.memory import MAX_GPUS

# The model's constants a text may quote by field, filled in when the catalogue loads (one home for each figure):
# ``{max_gpus:n}``, the largest GPU count the fit search tries
CONSTANT_ARGS = {"max_gpus": MAX_GPUS}
_CONSTANT_FIELD = re.compile(r"\{(" + "|".join(CONSTANT_ARGS) + r")(?::([a-z0-9]+))?\}")

LANGS = ("zh", "en")
DEFAULT_LANG = "zh"
CATALOGUES = Path(__file__).parent


def load_catalogue(lang: str) -> dict[str, str]:
    """The merged catalogue of one language.  Raises if the language has no catalogue or a key is defined twice."""
    paths = sorted((CATALOGUES / lang).glob("*.json"))
    if not paths:
        raise FileNotFoundError(f"no catalogue for {lang!r} in {CATALOGUES / lang}")
    merged: dict[str, str] = {}
    for path in paths:
        data = json.loads(path.read_text(encoding="utf-8"))
        overlap = merged.keys() & data.keys()
        if overlap:
            raise ValueError(f"{path.name}: keys defined twice: {sorted(overlap)[:5]}")
        merged.update(data)
    return merged


class _Formatter(string.Formatter):
    """``str.format`` with the catalogue's own specs."""

    def __init__(self, lang: str) -> None:
        self.specs = spec_formatters(lang)

    def format_field(self, value, format_spec):  # noqa: ANN001 - string.Formatter's signature
        fn = self.specs.get(format_spec)
        return fn(value) if fn is not None else super().format_field(value, format_spec)

    def field_formatter(self, format_spec: str):  # noqa: ANN201
        """The function that formats one value with ``format_spec`` (what ``format_field`` would call)."""
        fn = self.specs.get(format_spec)
        return fn if fn is not None else (lambda value: format(value, format_spec))


class Translator:
    """``t(key, **args)`` for one language.  A missing key raises: a test renders every page in both languages.

    >>> t = Translator("en")
    >>> t("est.vs.dpo_step", seconds=4000)
    '67 min for 64 pairs'
    >>> t.markup("notice.invalid", field="kl", label="KL β", given="<b>", used="0.02").count("&lt;b&gt;")
    1
    """

    def __init__(self, lang: str) -> None:
        self.lang = lang
        self._formatter = _Formatter(lang)
        # as written (a term is ``[[glossary id|words]]``, app/i18n/terms.py), the model's constants filled in
        self.messages = {key: _CONSTANT_FIELD.sub(self._constant, text) for key, text in load_catalogue(lang).items()}
        # a plain text reads each term as its words; a markup text makes it a link to its glossary entry
        self._plain = {key: strip_terms(text) for key, text in self.messages.items()}
        self._linked = {key: linked for key, text in self.messages.items()
                        if (linked := link_terms(text, lang)) != text}
        # each text parsed once (string.Formatter.parse) into (literal, field, the field's formatter); a text with
        # a field that has an index, an attribute, a conversion or a nested spec goes through vformat instead
        self._parsed = {key: self._parse(text) for key, text in self._plain.items()}
        self._parsed_linked = {key: self._parse(text) for key, text in self._linked.items()}

    def _constant(self, m: re.Match[str]) -> str:
        return self._formatter.format_field(CONSTANT_ARGS[m.group(1)], m.group(2) or "")

    def _parse(self, text: str) -> tuple[tuple[str, str | None, object], ...] | None:
        parts = tuple(string.Formatter().parse(text))
        if any(name is not None and (conv or not name.isidentifier() or "{" in (spec or ""))
               for _, name, spec, conv in parts):
            return None
        return tuple((literal, name, None if name is None else self._formatter.field_formatter(spec or ""))
                     for literal, name, spec, _ in parts)

    def __call__(self, key: str, **args) -> str:
        return self._format(self._plain[key], self._parsed[key], args)

    def _format(self, text: str, parts, args: dict) -> str:  # noqa: ANN001
        if not args:
            return text.replace("{{", "{").replace("}}", "}") if "{{" in text or "}}" in text else text
        if parts is None:
            return self._formatter.vformat(text, (), args)
        return "".join([lit if name is None else lit + fn(args[name]) for lit, name, fn in parts])

    def markup(self, key: str, **args) -> Markup:
        """Catalogue text may carry simple markup (<b>, <code>, <em>) and terms (``[[id|words]]``, each a link to
        its glossary entry); string arguments are escaped."""
        for k, v in args.items():
            if isinstance(v, str):
                args[k] = escape(v)
        if key in self._linked:
            return Markup(self._format(self._linked[key], self._parsed_linked[key], args))
        return Markup(self(key, **args))

    def has(self, key: str) -> bool:
        return key in self.messages

    def fmt(self, spec: str, value) -> str:  # noqa: ANN001
        """One value in one of the catalogue's format specs (``t.fmt('gb', 15.75)``)."""
        return self._formatter.format_field(value, spec)


TRANSLATORS = {lang: Translator(lang) for lang in LANGS}


def translator(lang: str) -> Translator:
    return TRANSLATORS[lang]


def catalogue(lang: str) -> dict[str, str]:
    """The loaded catalogue of one language (key → text)."""
    return TRANSLATORS[lang].messages
