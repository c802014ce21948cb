"""Number formats the catalogue text uses: durations, gigabytes, GPU counts, parameter counts.

Each is a plain function of a value (and the language where words differ); the catalogue's format specs
(``{x:dur}``, ``{x:gb}`` …, app/i18n/__init__.py) call them.
"""

from __future__ import annotations

import math

UNITS = {
    "en": {"ms": "ms", "s": "s", "min": "min", "h": "h", "d": "d"},
    "zh": {"ms": "毫秒", "s": "秒", "min": "分钟", "h": "小时", "d": "天"},
}


def sig(x: float, digits: int = 3) -> str:
    """``x`` to ``digits`` significant digits, with thousands separators and no exponent.

    >>> sig(0.012345), sig(3.0), sig(123456.7), sig(0)
    ('0.0123', '3', '123,457', '0')
    """
    if x == 0 or not math.isfinite(x):
        return "0" if x == 0 else "∞"
    decimals = digits - 1 - math.floor(math.log10(abs(x)))
    text = f"{x:,.{decimals}f}" if decimals > 0 else f"{x:,.0f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return text


def fmt_duration(seconds: float, lang: str) -> str:
    """A duration in the largest unit that keeps it readable.

    >>> fmt_duration(37.8, "en"), fmt_duration(885, "en"), fmt_duration(9 * 3600, "zh"), fmt_duration(0.0059, "en")
    ('38 s', '15 min', '9 小时', '5.9 ms')
    """
    u = UNITS[lang]
    if 0 < seconds < 1:
        return f"{sig(seconds * 1000, 2)} {u['ms']}"
    if seconds < 90:
        return f"{sig(seconds, 2) if seconds < 10 else f'{seconds:,.0f}'} {u['s']}"
    if seconds < 90 * 60:
        return f"{sig(seconds / 60, 2) if seconds < 600 else f'{seconds / 60:,.0f}'} {u['min']}"
    if seconds < 48 * 3600:
        return f"{sig(seconds / 3600, 2) if seconds < 36000 else f'{seconds / 3600:,.0f}'} {u['h']}"
    return f"{seconds / 86400:,.1f} {u['d']}" if seconds < 864000 else f"{seconds / 86400:,.0f} {u['d']}"


_SECONDS_IN = {"ms": 0.001, "s": 1.0, "min": 60.0, "h": 3600.0, "d": 86400.0}


def duration_unit(seconds: float) -> str:
    """The unit ``fmt_duration`` writes ``seconds`` in.

    >>> duration_unit(0.5), duration_unit(86), duration_unit(138), duration_unit(6 * 3600)
    ('ms', 's', 'min', 'h')
    """
    s = abs(seconds)
    return ("ms" if 0 < s < 1 else "s" if s < 90 else "min" if s < 90 * 60 else "h" if s < 48 * 3600 else "d")


def span_duration_unit(seconds: float, axis_unit: str) -> str:
    """The unit of a span drawn on an axis marked in ``axis_unit``: the axis's (「0 秒–161 秒（161 秒）」, not
    「（2.7 分钟）」), unless the span is shorter than one of it (a 420 ms refit on a seconds axis stays 「420 毫秒」).

    >>> span_duration_unit(161, "s"), span_duration_unit(0.42, "s"), span_duration_unit(43 * 60, "h")
    ('s', 'ms', 'min')
    """
    order = list(_SECONDS_IN)
    own = duration_unit(seconds)
    return own if order.index(own) < order.index(axis_unit) else axis_unit


def row_duration_unit(*seconds: float) -> str:
    """One unit for the durations of one row (issue 37: 「138 秒｜86 秒｜−51 秒」, not 「2.3 分钟｜86 秒｜−51 秒」): the
    unit of the shortest nonzero one, unless the longest would then need five digits.

    >>> row_duration_unit(138, 86, 51), row_duration_unit(6.6 * 3600, 16 * 60), row_duration_unit(400 * 3600, 2)
    ('s', 'min', 'h')
    """
    nonzero = [abs(s) for s in seconds if s]
    if not nonzero:
        return "s"
    order = list(_SECONDS_IN)
    k = order.index(duration_unit(min(nonzero)))
    while k < len(order) - 1 and max(nonzero) / _SECONDS_IN[order[k]] >= 10_000:
        k += 1
    return order[k]


def fmt_duration_in(seconds: float, lang: str, unit: str) -> str:
    """A duration in the given unit, with the digits ``fmt_duration`` would give it there.

    >>> fmt_duration_in(138, "zh", "s"), fmt_duration_in(51, "en", "s"), fmt_duration_in(960, "en", "min")
    ('138 秒', '51 s', '16 min')
    """
    v = seconds / _SECONDS_IN[unit]
    return f"{sig(v, 2) if abs(v) < 10 else f'{v:,.0f}'} {UNITS[lang][unit]}"


def fmt_round_duration(seconds: float, lang: str) -> str:
    """A log axis's round mark in the unit it is round in (issue 37: the top mark 60 s reads 「1 分钟」, a round value
    of its own unit, not 「60 秒」 among 「100 毫秒 · 1 秒 · 10 秒」).

    >>> [fmt_round_duration(s, "zh") for s in (0.1, 1, 10, 60, 600, 7200, 86_400)]
    ['100 毫秒', '1 秒', '10 秒', '1 分钟', '10 分钟', '2 小时', '1 天']
    """
    for unit in ("d", "h", "min", "s"):
        size = _SECONDS_IN[unit]
        if seconds >= size and abs(seconds / size - round(seconds / size)) < 1e-9:
            return fmt_duration_in(seconds, lang, unit)
    return fmt_duration(seconds, lang)


def axis_duration_unit(*seconds: float) -> str:
    """One unit for the marks of a linear axis of durations: seconds while they stay under 10,000, so 0, 50, 100
    read 「0 秒 · 50 秒 · 100 秒」 (not 「… 50 秒 · 1.7 分钟」); milliseconds below a second; else the longest's unit.

    >>> axis_duration_unit(0, 50, 100), axis_duration_unit(0, 0.2, 0.4), axis_duration_unit(0, 20_000, 40_000)
    ('s', 'ms', 'h')
    """
    top = max((abs(s) for s in seconds), default=0.0)
    return "ms" if 0 < top < 1 else "s" if top < 10_000 else duration_unit(top)


def fmt_gb(gb: float) -> str:
    """Gigabytes: whole above 100, one decimal above 1, two significant digits below.

    >>> fmt_gb(252), fmt_gb(15.75), fmt_gb(16.0), fmt_gb(0.1234)
    ('252 GB', '15.8 GB', '16 GB', '0.12 GB')
    """
    if gb >= 100:
        return f"{gb:,.0f} GB"
    if gb >= 1:
        return f"{gb:,.1f} GB".replace(".0 GB", " GB")
    return f"{sig(gb, 2)} GB"


def fmt_gpus(n: int, lang: str) -> str:
    """A GPU count with its noun, singular for one.

    >>> fmt_gpus(1, "en"), fmt_gpus(1024, "en"), fmt_gpus(8, "zh")
    ('1 GPU', '1,024 GPUs', '8 张 GPU')
    """
    if lang == "zh":
        return f"{n:,} 张 GPU"
    return f"{n:,} GPU" if n == 1 else f"{n:,} GPUs"


def fmt_params_b(b: float) -> str:
    """Billions of parameters.

    >>> fmt_params_b(7), fmt_params_b(0.35), fmt_params_b(671)
    ('7B', '0.35B', '671B')
    """
    return f"{sig(b, 3)}B"


# English counted nouns (singular, plural): ``{k:steps}`` writes "1 step" or "2 steps".  Chinese needs none: its
# texts put the measure word in the sentence ("{k} 步").
COUNTED_EN = {
    "epochs": ("epoch", "epochs"), "steps": ("step", "steps"), "replicas": ("replica", "replicas"),
    "waves": ("wave", "waves"), "passes": ("pass", "passes"), "engines": ("engine", "engines"),
    "rollout_engines": ("rollout engine", "rollout engines"), "evals": ("eval", "evals"),
}


def fmt_counted(n: int, noun: tuple[str, str]) -> str:
    """A count with its English noun, singular for one.

    >>> fmt_counted(1, COUNTED_EN["passes"]), fmt_counted(2, COUNTED_EN["passes"]), fmt_counted(1024, COUNTED_EN["steps"])
    ('1 pass', '2 passes', '1,024 steps')
    """
    return f"{n:,} {noun[0] if n == 1 else noun[1]}"


def spec_formatters(lang: str) -> dict[str, object]:
    """The format specs the catalogue text uses, one function each (value → str)."""
    counted = {} if lang == "zh" else {
        spec: (lambda v, noun=noun: fmt_counted(round(v), noun)) for spec, noun in COUNTED_EN.items()}
    return {
        **counted,
        "n": lambda v: f"{round(v):,}",
        "dur": lambda v: fmt_duration(float(v), lang),
        "hdur": lambda v: fmt_duration(3600 * float(v), lang),  # a duration given in hours
        **{f"dur_{u}": (lambda v, u=u: fmt_duration_in(float(v), lang, u)) for u in _SECONDS_IN},  # one row's unit
        "tick_dur": lambda v: fmt_round_duration(float(v), lang),  # a log axis's round mark
        "gb": lambda v: fmt_gb(float(v)),
        # a share of the usable memory: past 200% Chinese says how many times over (「是可用显存的 25 倍」), not 「2,544%」
        "share": (lambda v: f"{v:,.0f}%" if v <= 200 else f"{sig(v / 100, 2)} 倍") if lang == "zh" else (lambda v: f"{v:,.0f}%"),
        "pct": lambda v: f"{v:,.0f}%",  # 4218 % → "4,218%": the locale's separators, as {x:n} writes them
        "frac_pct": lambda v: f"{100 * v:,.0f}%",  # a fraction as a share: 0.85 → "85%" (a ratio below 1 in zh)
        "b": lambda v: fmt_params_b(float(v)),
        "g2": lambda v: sig(float(v), 2),  # a ratio in prose: 「0.63 倍」, two significant digits
        "g3": lambda v: sig(float(v), 3),
        "gpus": lambda v: fmt_gpus(round(v), lang),
        # dollars: a run's cost to the dollar (cents below $10, where a dollar is a large share), a price to the cent
        "usd": lambda v: f"${v:,.0f}" if abs(v) >= 10 else f"${v:,.2f}",
        "usd_cents": lambda v: f"${v:,.2f}",
    }
