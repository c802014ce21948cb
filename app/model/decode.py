"""How an engine spends a step's decode steps: continuous batching over a distribution of response lengths.

Pure arithmetic on lengths and counts, no hardware: the generation module prices each stretch of decode steps with
its decode-step time (``step_seconds``).

**The length distribution** (a teaching assumption, stated in ``assumptions.LENGTH_SHAPE``): with mean m and longest
L, a response's length is ℓ = L · u^k for u uniform on [0, 1], k = L / m − 1 (so E[ℓ] = L / (k + 1) = m).  k = 0 is
every response at L (equal lengths); k > 1 is a density falling from short to long with a thin tail reaching L —
the long-tail shape measured in RL rollouts (TLT, arXiv 2511.16665, Fig. 2; verl issue #7412: mean 1,267, longest
3,072 tokens, k = 1.42).  The fraction of responses longer than x is ``survival(x) = 1 − (x / L)^(1/k)``, and
everything below has a closed form.

**Continuous batching** (vLLM, SGLang): an engine replica holds at most B sequences (its KV cache) and refills a
finished sequence's slot from the queue.  S sequences on a replica run in w = ⌈S / B⌉ rounds of b = S / w slots
("lanes"); each lane decodes w responses back to back.  A lane's first w − 1 responses are taken at the mean (they
average out), its last at a length drawn from the distribution, so:

* the **bulk**: (w − 1) · m decode steps with b sequences active at the context p + m / 2;
* the **drain**: L more decode steps while the last responses finish, b · survival(x) still active after x of them,
  at the context p + x — and at least one sequence until the longest ends (a decode step costs its weight read
  however few sequences it carries: the tail).

Equal lengths (k = 0) give w · L steps at b: today's throughput formula, waves · (mean · step(b)).  One long response
among short ones (k ≫ 1) gives the bulk plus ≈ L steps at a batch of one: the longest response's floor.

**Streaming** (``drain=False``; async with partial rollouts: verl fully_async, AReaL, NeMo RL in-flight weight
updates): an unfinished response continues into the next step, so the engine never drains: every step's S · m tokens
are decoded at the full batch.
"""

from __future__ import annotations

import math
from typing import NamedTuple


class Lengths(NamedTuple):
    """Response lengths in tokens: the mean and the longest (the distribution's shape follows from them)."""

    mean: float
    longest: float

    @property
    def power(self) -> float:
        """k = L / m − 1 ≥ 0: 0 when every response is the longest, large when a few long ones make the tail.

        >>> Lengths(1_024, 4_096).power, Lengths(2_048, 2_048).power
        (3.0, 0.0)
        """
        if self.mean <= 0:
            return 0.0
        return max(self.longest / self.mean - 1.0, 0.0)


def survival(lengths: Lengths, x: float) -> float:
    """The fraction of responses longer than ``x`` tokens: 1 − (x / L)^(1/k) (equal lengths: 1 below L).

    >>> survival(Lengths(1_024, 2_048), 1_024), survival(Lengths(1_024, 4_096), 512)
    (0.5, 0.5)
    """
    longest = lengths.longest
    if x >= longest:
        return 0.0
    if x <= 0:
        return 1.0
    k = lengths.power
    if k <= 0:
        return 1.0
    return 1.0 - (x / longest) ** (1.0 / k)


def length_at(lengths: Lengths, fraction_longer: float) -> float:
    """The length ``fraction_longer`` of the responses exceed: L · (1 − s)^k (the inverse of ``survival``).

    >>> length_at(Lengths(1_024, 4_096), 0.5)
    512.0
    """
    if fraction_longer >= 1.0:
        return 0.0
    k = lengths.power
    if k <= 0:
        return float(lengths.longest)
    return lengths.longest * (1.0 - fraction_longer) ** k


def decoded_between(lengths: Lengths, start: float, end: float) -> float:
    """Tokens one lane decodes between its ``start``-th and ``end``-th drain steps: ∫ survival dx (closed form,
    (end − start) − L / (1/k + 1) · ((end / L)^(1/k + 1) − (start / L)^(1/k + 1))).  Over [0, L] it is the mean.

    >>> round(decoded_between(Lengths(1_024, 4_096), 0, 4_096), 6)
    1024.0
    """
    longest = lengths.longest
    start, end = max(start, 0.0), min(end, longest)
    if end <= start:
        return 0.0
    k = lengths.power
    if k <= 0:
        return end - start
    e = 1.0 / k + 1.0
    return (end - start) - longest / e * ((end / longest) ** e - (start / longest) ** e)


class Stretch(NamedTuple):
    """A run of decode steps priced alike: how many, how many sequences each carries, at what context."""

    steps: float
    active: float     # sequences decoded together (≥ 1 while any is left)
    context: float    # tokens of KV each sequence reads (prompt + its progress)


# survival levels the drain is cut at: halving, then the last sequence's own stretch (see ``decode_stretches``)
DRAIN_LEVELS = (1.0, 0.5, 0.25, 0.125, 1.0 / 32.0)


def rounds(sequences: float, batch_cap: float) -> int:
    """w = ⌈S / B⌉: how many responses each of a replica's lanes decodes one after another (≥ 1)."""
    if sequences <= 0 or batch_cap <= 0:
        return 1
    return max(1, math.ceil(sequences / batch_cap - 1e-9))


def decode_stretches(lengths: Lengths, sequences: float, batch_cap: float, prompt_tokens: float, *,
                     drain: bool = True, active_cap: float | None = None) -> tuple[Stretch, ...]:
    """The decode steps of ``sequences`` responses on one replica holding ``batch_cap`` at once (module docstring).

    drain = True (a synchronous step, or async without partial rollouts): the bulk — (w − 1) · m steps at
    b = S / w — then the drain cut at the survival levels 1, ½, ¼, ⅛, 1/32, 1/b, 0: between levels s and s' the
    lane count is b · (tokens decoded there) / (steps there), at the context p + the stretch's midpoint, at least 1.
    drain = False (streaming): S · m / a steps at a = min(B, ``active_cap``) sequences (the engine is kept full from
    the queue of the next steps), context p + m / 2.

    >>> [tuple(round(v, 3) for v in s) for s in decode_stretches(Lengths(100, 100), 8, 4, 10)]
    [(100.0, 4.0, 60.0), (100.0, 4.0, 60.0)]
    """
    mean, longest = lengths.mean, lengths.longest
    if sequences <= 0 or mean <= 0:
        return ()
    if not drain:
        active = min(batch_cap, active_cap if active_cap is not None else sequences)
        active = max(active, 1.0)
        return (Stretch(sequences * mean / active, active, prompt_tokens + mean / 2.0),)
    w = rounds(sequences, batch_cap)
    b = sequences / w
    out = []
    if w > 1:
        out.append(Stretch(float((w - 1) * mean), b, prompt_tokens + mean / 2.0))
    levels = [s for s in DRAIN_LEVELS if s * b > 1.0] + [1.0 / b if b > 1.0 else 1.0, 0.0]
    start = 0.0
    for level in dict.fromkeys(levels[1:]):
        end = length_at(lengths, level) if level > 0 else longest
        if end > start:
            lanes = decoded_between(lengths, start, end) / (end - start)
            out.append(Stretch(end - start, max(b * lanes, 1.0), prompt_tokens + (start + end) / 2.0))
            start = end
    return tuple(out)


def decode_seconds(stretches: tuple[Stretch, ...], step_seconds) -> float:  # noqa: ANN001 — (active, context) → s
    """Σ over stretches of steps · ``step_seconds(active, context)``: the sum over decode steps of one step's time
    at the number still active."""
    return sum(s.steps * step_seconds(s.active, s.context) for s in stretches)
