"""``{% inline "name.html" %}``: another template's source pasted in where the tag stands, when the template is
compiled — an ``{% include %}`` with no cost per render.

An include runs on every render: it looks the template up, copies the context into a new one and resolves each
name the included template uses again (≈ 5 µs; a slider's partial made three to four of them).  The live regions
stay in their own files, and ``_live.html`` compiles into one function with them in it.

What differs from an include, and why these templates do not mind:

* the pasted text shares the scope it lands in.  A template meant for ``inline`` sets no variable at its top level
  (a ``{% set %}`` inside a ``{% call %}`` or ``{% with %}`` block is local to that block), so nothing leaks out;
  tests/web/test_fragments.py renders every page and partial both ways and compares them byte for byte;
* the name must be a string literal (the file is read at compile time), and a missing file fails the compile.

Whitespace is as ``trim_blocks`` and ``lstrip_blocks`` would leave it around a block tag: the tag's own line
indentation and the line break after it go with it, and the pasted source loses the one line break at its end
that Jinja drops from every template (``keep_trailing_newline`` is off).
"""

from __future__ import annotations

import re

from jinja2.ext import Extension

_TAG = r'\{%\s*inline\s+"([^"]+)"\s*%\}'


class InlineTemplates(Extension):
    """Pastes each ``{% inline "…" %}`` tag's template in, recursively (the pasted source may inline others)."""

    def preprocess(self, source: str, name: str | None, filename: str | None = None) -> str:
        return self._paste(source, (name,))

    def _paste(self, source: str, seen: tuple) -> str:
        env = self.environment
        # the tag, with the indentation before it on its line (lstrip_blocks) and the line break after it (trim_blocks)
        tag = ("(?m)(?:^[ \t]*)?" if env.lstrip_blocks else "") + _TAG + ("\n?" if env.trim_blocks else "")
        return re.sub(tag, lambda m: self._source(m[1], seen), source)

    def _source(self, name: str, seen: tuple) -> str:
        if name in seen:
            raise RuntimeError(f"{{% inline %}} loop: {' → '.join(map(str, (*seen, name)))}")
        text, _, _ = self.environment.loader.get_source(self.environment, name)
        return self._paste(text.removesuffix("\n"), (*seen, name))
