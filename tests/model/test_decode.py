"""Continuous batching over a length distribution (app/model/decode.py), with the arithmetic written out."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.model.decode import Lengths, decode_seconds, decode_stretches, decoded_between, length_at, survival


def affine(a: float, c: float):
    """A memory-bound decode step: a (weights + overhead) + c per sequence-token of context."""
    return lambda active, context: a + c * active * context


def test_the_shape_has_the_given_mean_and_longest():
    # ℓ = L · u^k, k = L / m − 1: mean L / (k + 1) = m; nothing beyond L
    lengths = Lengths(1_267, 3_072)  # verl #7412's run
    assert lengths.power == pytest.approx(3_072 / 1_267 - 1)
    assert decoded_between(lengths, 0, 3_072) == pytest.approx(1_267)   # ∫ survival = the mean
    assert survival(lengths, 3_072) == 0.0 and survival(lengths, 0) == 1.0
    assert survival(lengths, length_at(lengths, 0.1)) == pytest.approx(0.1)


def test_equal_lengths_give_the_throughput_formula():
    # S = 10 sequences, B = 4 slots: w = ⌈10 / 4⌉ = 3 rounds of b = 10 / 3; every response 2,000 tokens, prompt 500.
    # Today's formula: waves · mean · step(b) = 3 · 2,000 · (a + c · b · (500 + 1,000)).
    a, c = 0.010, 1e-7
    step = affine(a, c)
    got = decode_seconds(decode_stretches(Lengths(2_000, 2_000), 10, 4, 500), step)
    assert got == pytest.approx(3 * 2_000 * (a + c * (10 / 3) * 1_500), rel=1e-12)


def test_one_long_response_is_the_bulk_plus_the_tail_at_a_small_batch():
    # 256 sequences on one replica of B = 64: w = 4 rounds of b = 64.  Mean 200 tokens, longest 16,000 (k = 79).
    # Bulk: (w − 1) · m = 600 steps at 64 sequences; then the drain: ≈ 16,000 steps, nearly all at one sequence.
    a, c = 0.010, 0.0
    lengths = Lengths(200, 16_000)
    stretches = decode_stretches(lengths, 256, 64, 0)
    assert stretches[0].steps == 3 * 200 and stretches[0].active == 64
    drain = stretches[1:]
    assert sum(s.steps for s in drain) == pytest.approx(16_000)
    got = decode_seconds(stretches, affine(a, c))
    assert got == pytest.approx(a * (600 + 16_000))          # a step costs a whatever it carries
    # the drain's tokens are the last round's 64 · 200; at one sequence per step the tail is the longest response
    assert drain[-1].active == 1.0
    assert sum(s.steps for s in drain if s.active <= 2.0) > 0.9 * 16_000


def test_streaming_never_drains():
    # partial rollouts: 256 · 200 tokens at a full batch of 64 → 800 steps, whatever the longest
    stretches = decode_stretches(Lengths(200, 16_000), 256, 64, 0, drain=False)
    assert [(s.steps, s.active) for s in stretches] == [(800.0, 64)]


@settings(max_examples=60, deadline=None)
@given(mean=st.integers(16, 4_000), extra=st.integers(0, 20_000), more=st.integers(1, 8_000),
       seqs=st.integers(1, 2_000), cap=st.integers(1, 512))
def test_a_longer_longest_response_never_shortens_decoding(mean, extra, more, seqs, cap):
    step = affine(0.008, 2e-8)
    short = decode_seconds(decode_stretches(Lengths(mean, mean + extra), seqs, cap, 256), step)
    long = decode_seconds(decode_stretches(Lengths(mean, mean + extra + more), seqs, cap, 256), step)
    assert long >= short * (1 - 1e-9)


@settings(max_examples=60, deadline=None)
@given(mean=st.integers(16, 4_000), extra=st.integers(0, 20_000), seqs=st.integers(1, 2_000),
       cap=st.integers(1, 512))
def test_streaming_is_never_slower_than_draining(mean, extra, seqs, cap):
    step = affine(0.008, 2e-8)
    lengths = Lengths(mean, mean + extra)
    drained = decode_seconds(decode_stretches(lengths, seqs, cap, 256), step)
    streamed = decode_seconds(decode_stretches(lengths, seqs, cap, 256, drain=False), step)
    assert streamed <= drained * (1 + 1e-9)
