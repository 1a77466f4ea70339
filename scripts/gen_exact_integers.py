#!/usr/bin/env python3
"""Writes tests/data/exact_integers.txt: integer and bool GridSample cases whose expected Y comes
from an exact rational model of the rule for integer outputs (docs/semantics.md, Types): Y is the
truncation toward zero (then saturation) of the EXACT sum of the taps times the planned
fixed-point weights.

The model is independent of the C++ code and needs nothing but Python: every float operation of
the plan (unnormalising in the grid's type, the fraction t, the linear weights t and 1 - t, the
cubic weights in their factored form, part * weight) is computed exactly with fractions and
rounded to float32 or float64 as IEEE arithmetic rounds it; the sum is an exact integer.

Two kinds of grid:
  * quarter: coordinates that are multiples of 1/4 on axes whose size (align_corners=0) or size
    minus one (align_corners=1) is a power of two, so that every coordinate and weight is an
    exact dyadic number: the results are what exact arithmetic with the true weights gives,
    integers included (a float32 sum of them lands below such integers);
  * random: float32 or float64 grid values uniform in +-1.3 (not for linear with reflection,
    whose float reflection the model does not emulate).
Every integer dtype and bool, linear and cubic, every padding, align_corners 0 and 1, ranks 1-4.
Format: tests/data/README.md (the golden format). Usage:
  python3 scripts/gen_exact_integers.py [--seed N] [--output PATH]
"""

import argparse
import itertools
import math
import os
import random
import struct
from fractions import Fraction

from exact_arith import round_to_bits

# (name, bits, signed); bool is special.
INT_DTYPES = [("int8", 8, True), ("uint8", 8, False), ("int16", 16, True), ("uint16", 16, False),
              ("int32", 32, True), ("uint32", 32, False), ("int64", 64, True),
              ("uint64", 64, False), ("bool", 1, False)]
# The fixed-point fraction bits (convert.h's kFixedBits: 16 for 8-bit types and bool, 24 for
# 16-bit ones, 52 for 32- and 64-bit ones) and the weights' float precision in significand bits
# (float32 weights for 8- and 16-bit types and bool, float64 for the others: dtypes.inc).
def weight_format(bits):
    if bits <= 8:
        return 16, 24
    return (24, 24) if bits <= 16 else (52, 53)


def unnormalize(g, size, align_corners, grid_bits):
    """coords.h's Unnormalize in the grid's type, every operation rounded."""
    fl = lambda q: round_to_bits(q, grid_bits)
    if align_corners:
        return fl(fl(fl(g + 1) / 2) * (size - 1))
    return fl(fl(fl(fl(g + 1) * size) - 1) / 2)


def reflect_index(k, size, align_corners):
    """The pixel an integer tap k reflects to (NOTES: mirrors at 0 and size-1, or -1/2 and
    size-1/2, repeated), exactly."""
    lo, hi = (Fraction(0), Fraction(size - 1)) if align_corners else \
        (Fraction(-1, 2), Fraction(size) - Fraction(1, 2))
    span = hi - lo
    if span == 0:
        return 0
    d = (Fraction(k) - lo) % (2 * span)
    r = lo + d if d <= span else lo + 2 * span - d
    r = min(max(r, Fraction(0)), Fraction(size - 1))
    assert r.denominator == 1
    return int(r)


def cubic_weight(t, fl):
    """coords.h's CubicWeight (A = -0.75, factored form), every operation rounded by fl."""
    t = abs(t)
    if t <= 1:
        return fl(fl(t - 1) * fl(fl(fl(fl(Fraction(5, 4) * t) * t) - t) - 1))
    if t < 2:
        return fl(fl(fl(Fraction(-3, 4) * fl(t - 1)) * fl(t - 2)) * fl(t - 2))
    return Fraction(0)


def axis_taps(p, size, mode, padding, align_corners, weight_bits):
    """coords.h's AxisTaps: [(index or None, weight)], weights rounded as the plan rounds them."""
    fl = lambda q: round_to_bits(q, weight_bits)
    last = size - 1
    if mode == "linear":
        if padding == "border":
            p = min(max(p, Fraction(0)), Fraction(last))
        elif padding == "reflection":
            assert p.denominator <= 4, "the model reflects exact coordinates only"
            lo, hi = (0, last) if align_corners else (Fraction(-1, 2), size - Fraction(1, 2))
            span = hi - lo
            if span == 0:
                p = Fraction(0)
            else:
                d = (p - lo) % (2 * span)
                p = min(max(lo + d if d <= span else lo + 2 * span - d, Fraction(0)),
                        Fraction(last))
        p = min(max(p, Fraction(-8)), Fraction(last + 8))
        x0 = math.floor(p)
        t = fl(p - x0)
        taps = [(x0, fl(1 - t)), (x0 + 1, t)]
        return [(k if 0 <= k <= last else None, w) for k, w in taps]
    x0 = math.floor(p)
    t = fl(p - x0)
    if padding == "zeros":
        x0 = min(max(x0, -8), last + 8)
    weights = [cubic_weight(fl(t + 1), fl), cubic_weight(t, fl), cubic_weight(fl(1 - t), fl),
               cubic_weight(fl(2 - t), fl)]
    taps = []
    for j in range(4):
        k = x0 + j - 1
        if padding == "border":
            k = min(max(k, 0), last)
        elif padding == "reflection":
            k = reflect_index(k, size, align_corners)
        taps.append((k if 0 <= k <= last else None, weights[j]))
    return taps


def fixed_weights(per_axis, fraction_bits, weight_bits):
    """docs/semantics.md's split of 2^fraction_bits over the taps, axis by axis: each tap gets
    round(part * w) (part * w in the weights' float type, half to even), except that on an axis
    whose taps are all inside (or weigh 0 where not) tap x0 (linear: the first, cubic: the
    second) takes the rest. Returns the leaves in odometer order."""
    fl = lambda q: round_to_bits(q, weight_bits)
    parts = [1 << fraction_bits]
    for taps in per_axis:
        complete = all(k is not None or w == 0 for k, w in taps)
        x0 = 1 if len(taps) == 4 else 0
        children = []
        for part in parts:
            shares = [round(fl(fl(Fraction(part)) * w)) for _, w in taps]
            if complete:
                shares[x0] = part - sum(s for j, s in enumerate(shares) if j != x0)
            children.extend(shares)
        parts = children
    return parts


def sample(x, x_shape, grid_values, out_extents, mode, padding, align_corners, dtype,
           grid_bits):
    name, bits, signed = dtype
    fraction_bits, weight_bits = weight_format(bits)
    sizes = x_shape[2:]
    rank = len(sizes)
    n_batch, channels = x_shape[:2]
    strides = [math.prod(sizes[a + 1:]) for a in range(rank)]
    plane = math.prod(sizes)
    lo, hi = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else (0, (1 << bits) - 1)
    y = []
    for n in range(n_batch):
        outs = list(itertools.product(*(range(e) for e in out_extents)))
        ys = [[0] * len(outs) for _ in range(channels)]
        for l, _ in enumerate(outs):
            g = grid_values[(n * len(outs) + l) * rank:(n * len(outs) + l + 1) * rank]
            per_axis = []
            for a in range(rank):
                p = unnormalize(g[rank - 1 - a], sizes[a], align_corners, grid_bits)
                if align_corners and sizes[a] == 1:
                    p = Fraction(0)
                per_axis.append(axis_taps(p, sizes[a], mode, padding, align_corners,
                                          weight_bits))
            leaves = fixed_weights(per_axis, fraction_bits, weight_bits)
            for c in range(channels):
                total = 0
                for leaf, combo in zip(leaves, itertools.product(*per_axis)):
                    if any(k is None for k, _ in combo):
                        continue
                    offset = sum(k * s for (k, _), s in zip(combo, strides))
                    v = x[(n * channels + c) * plane + offset]
                    total += leaf * (1 if name == "bool" and v != 0 else v)
                if name == "bool":
                    ys[c][l] = 1 if total != 0 else 0
                else:
                    q = abs(total) >> fraction_bits  # truncation toward zero
                    q = q if total >= 0 else -q
                    ys[c][l] = min(max(q, lo), hi)
        for c in range(channels):
            y.extend(ys[c])
    return y


def as_float32(v):
    return struct.unpack("f", struct.pack("f", v))[0]


def quarter_grid(rng, count, sizes, align_corners):
    """Grid values whose coordinates are multiples of 1/4 from 2.5 before the first pixel to
    1.5 past the last, on the innermost axis first (grid order)."""
    rank = len(sizes)
    values = []
    for _ in range(count):
        for c in range(rank):
            size = sizes[rank - 1 - c]
            p = Fraction(rng.randrange(-10, 4 * size + 6), 4)
            if align_corners:
                g = 2 * p / (size - 1) - 1 if size > 1 else Fraction(rng.randrange(-8, 9), 4)
            else:
                g = (2 * p + 1) / size - 1
            assert as_float32(float(g)) == g
            values.append(g)
    return values


def x_values(rng, count, dtype):
    name, bits, signed = dtype
    if name == "bool":
        return [rng.choice((0, 0, 1, 2)) for _ in range(count)]
    lo, hi = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else (0, (1 << bits) - 1)
    return [rng.choice((lo, hi)) if rng.random() < 0.2 else rng.randint(lo, hi)
            for _ in range(count)]


SIZES = {False: (1, 2, 4, 8), True: (1, 2, 3, 5, 9)}
RANK_SIZES = {1: 1, 2: 1, 3: 2, 4: 3}  # how many of the smallest sizes a rank may draw from
OUT_EXTENTS = {1: (12,), 2: (3, 4), 3: (2, 3, 2), 4: (2, 2, 2, 2)}


def cases(seed):
    rng = random.Random(seed)
    for dtype in INT_DTYPES:
        for rank in (1, 2, 3, 4):
            for mode in ("linear", "cubic"):
                for padding in ("zeros", "border", "reflection"):
                    for align_corners in (0, 1):
                        kinds = ["quarter"]
                        if rank <= 2 and not (mode == "linear" and padding == "reflection"):
                            kinds.append("random")
                        for kind in kinds:
                            choices = SIZES[bool(align_corners)]
                            if rank >= 3:
                                choices = choices[1:1 + RANK_SIZES[rank]] + choices[:1]
                            sizes = [rng.choice(choices) for _ in range(rank)]
                            if rank <= 2:
                                sizes[-1] = choices[-1] if kind == "quarter" else sizes[-1]
                            x_shape = [1, 2 if rank <= 2 else 1] + sizes
                            out = OUT_EXTENTS[rank]
                            count = math.prod(out)
                            grid_bits = 24
                            if kind == "quarter":
                                grid = quarter_grid(rng, count, sizes, align_corners)
                            else:
                                grid_bits = rng.choice((24, 53))
                                grid = []
                                for _ in range(count * rank):
                                    v = rng.uniform(-1.3, 1.3)
                                    grid.append(Fraction(as_float32(v) if grid_bits == 24 else v))
                            x = x_values(rng, math.prod(x_shape), dtype)
                            y = sample(x, x_shape, grid, out, mode, padding, align_corners,
                                       dtype, grid_bits)
                            name = (f"{dtype[0]}_r{rank}_{mode}_{padding}_ac{align_corners}_"
                                    f"{kind}{'64' if grid_bits == 53 else ''}")
                            yield name, mode, padding, align_corners, dtype[0], x_shape, x, \
                                ("float32" if grid_bits == 24 else "float64"), \
                                [1] + list(out) + [rank], grid, [1, x_shape[1]] + list(out), y


def tensor_line(label, dtype, shape, values, real=False):
    text = " ".join(repr(float(v)) if real else str(int(v)) for v in values)
    return f"{label} {dtype} {len(shape)} {' '.join(map(str, shape))} : {text}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=16)
    parser.add_argument("--output", default=os.path.join(os.path.dirname(__file__), "..",
                                                         "tests", "data", "exact_integers.txt"))
    args = parser.parse_args()
    lines = ["# Written by scripts/gen_exact_integers.py: integer and bool X, Y from an exact",
             "# rational model of the rule of docs/semantics.md (the truncated exact sum of the",
             "# taps times the fixed-point weights). Do not edit by hand.", ""]
    total = 0
    for (name, mode, padding, align_corners, dtype, x_shape, x, grid_dtype, grid_shape, grid,
         y_shape, y) in cases(args.seed):
        lines += [f"case {name}",
                  f"attrs mode={mode} padding={padding} align_corners={align_corners}",
                  tensor_line("x", dtype, x_shape, x),
                  tensor_line("grid", grid_dtype, grid_shape, grid, real=True),
                  tensor_line("y", dtype, y_shape, y), "end", ""]
        total += 1
    with open(args.output, "w") as out:
        out.write("\n".join(lines))
    print(f"wrote {args.output}: {total} cases")


if __name__ == "__main__":
    main()
