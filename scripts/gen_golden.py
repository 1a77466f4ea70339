#!/usr/bin/env python3
"""Writes tests/data/golden.txt: GridSample golden vectors (format: tests/data/README.md).

Every case is evaluated twice:
  * by onnx.reference (the ONNX Python reference, ReferenceEvaluator on one GridSample node), and
  * by the NOTES model below: an independent implementation of ../shared/NOTES.md that unnormalises
    in the grid's float type step by step, then works on the EXACT value of the coordinate with
    fractions.Fraction (reflection, rounding, tap indices and weights).

The expected Y written to the file is onnx.reference's answer for the float32-X/float32-grid cases
where onnx.reference follows NOTES.md, and the NOTES model's answer everywhere else; the two are
required to agree wherever NOTES does not depart from onnx.reference, so each checks the other.
NOTES.md departs from onnx.reference in these places (the NOTES model is used for them):
  * cubic + border: NOTES clamps each of the 4 integer taps; onnx.reference clamps the coordinate.
  * a size-1 axis with align_corners=1 maps every finite coordinate to pixel 0; onnx.reference
    divides by the zero reflection range (ZeroDivision/overflow error) in reflection mode.
  * float64 grids/X: onnx.reference stores unnormalised coordinates in a float32 array and computes
    interpolation weights in float32 arithmetic (numpy's NEP 50 promotion keeps a float32 scalar
    float32), so its float64 answers are only float32-accurate; NOTES computes float64 grids in
    float64. Those cases are still compared with onnx.reference at float32 accuracy.
  * huge coordinates (onnx.reference reflects with a float division, inexact) and non-finite grid
    values (onnx.reference casts NaN to int32); these cases come from the NOTES model only.
Nearest mode is no departure: onnx.reference (1.23) rounds half to even (np.rint) before padding,
as NOTES does, and the special_* cases check it on exact ties inside and outside the image.

Usage: python3 scripts/gen_golden.py [--seed N] [--output PATH]
"""

import argparse
import dataclasses
import itertools
import math
import os
import sys
from fractions import Fraction

import numpy as np
import onnx
from onnx import helper
from onnx.reference import ReferenceEvaluator

from exact_arith import round_to_bits

MODES = ("linear", "nearest", "cubic")
PADDINGS = ("zeros", "border", "reflection")
DTYPES = {"float32": np.float32, "float64": np.float64}
OPSET = 22

# Per rank: the input spatial extents and the output spatial extents cases draw from. Small enough
# that onnx.reference (pure Python loops) stays fast and the file stays well under 1.5 MB.
INPUT_EXTENTS = {1: (1, 2, 3, 5, 7), 2: (1, 2, 3, 4, 5), 3: (1, 2, 3, 4), 4: (1, 2, 3)}
OUTPUT_EXTENTS = {1: (1, 2, 3, 5, 6), 2: (1, 2, 3, 4), 3: (1, 2, 3), 4: (1, 2)}

# Grid values of the "huge coordinate" cases, per grid dtype.
HUGE_FLOAT32 = (1e6, -1e6, 1e30, -1e30, 3e38, -3e38)
HUGE_FLOAT64 = (1e300, -1e300, 1.7e308, -1.7e308)

# Agreement required between onnx.reference and the NOTES model: tight for float32 cases (both
# are float32-accurate), float32-level for float64 cases (onnx.reference is only float32-accurate).
CROSS_CHECK_TOL = {"float32": 2e-6, "float64": 2e-5}


# ----------------------------------------------------------------------------------------------
# The NOTES model.


def unnormalize_steps(g, size, align_corners, op):
    """NOTES' unnormalisation formula with every operation rounded by `op`."""
    if align_corners:
        return op(op(op(g + 1) / 2) * (size - 1))
    return op(op(op(op(g + 1) * size) - 1) / 2)


def unnormalize(g, size, align_corners, grid_dtype):
    """Exact value of the unnormalised coordinate, or None for a non-finite g.

    Returns (p, wider); wider names the type the computation was redone in when it overflowed in
    the grid's type (NOTES' rule: float32 grids redo it in float64, float64 grids in long double).
    """
    if not math.isfinite(g):
        return None, None
    if align_corners and size == 1:
        return Fraction(0), None
    exact_g = Fraction(float(g))
    if grid_dtype == "float32":
        p = unnormalize_numpy(np.float32(g), size, align_corners)
        if np.isfinite(p):
            # The emulated rounding must reproduce numpy's float32 arithmetic.
            assert Fraction(float(p)) == unnormalize_steps(
                exact_g, size, align_corners, lambda q: round_to_bits(q, 24))
            return Fraction(float(p)), None
        p = unnormalize_numpy(float(g), size, align_corners)
        assert math.isfinite(p)
        return Fraction(p), "float64"
    p = unnormalize_numpy(float(g), size, align_corners)  # a Python float is a float64
    if math.isfinite(p):
        return Fraction(p), None
    # x87 extended (64-bit significand) and IEEE quad (113 bits) must agree, so that the case
    # holds on every platform whose long double is wider than double.
    extended, quad = (unnormalize_steps(exact_g, size, align_corners,
                                        lambda q, b=bits: round_to_bits(q, b))
                      for bits in (64, 113))
    assert extended == quad, (g, size, align_corners)
    return extended, "long double"


def unnormalize_numpy(g, size, align_corners):
    """The same formula in the precision of g's own type (np.float32 or Python float)."""
    t = type(g)
    one, two = t(1), t(2)
    with np.errstate(over="ignore"):
        if align_corners:
            return (g + one) / two * t(size - 1)
        return ((g + one) * t(size) - one) / two


def reflect(p, size, align_corners):
    """Reflects the exact coordinate p into the image (O(1), exact), then clamps to [0, size-1]."""
    lo, hi = (Fraction(0), Fraction(size - 1)) if align_corners else \
        (Fraction(-1, 2), Fraction(size) - Fraction(1, 2))
    span = hi - lo
    if span == 0:
        return Fraction(0)
    d = (p - lo) % (2 * span)
    r = lo + d if d <= span else lo + 2 * span - d
    return min(max(r, Fraction(0)), Fraction(size - 1))


def pad_index(k, size, padding, align_corners):
    """The pixel an integer tap k reads, or None (zeros padding outside the image)."""
    if 0 <= k < size:
        return k
    if padding == "zeros":
        return None
    if padding == "border":
        return min(max(k, 0), size - 1)
    r = reflect(Fraction(k), size, align_corners)
    assert r.denominator == 1
    return int(r)


def cubic_weight(t):
    """NOTES' cubic convolution kernel with A = -0.75, exact for a rational t."""
    a = Fraction(-3, 4)
    t = abs(t)
    if t <= 1:
        return (a + 2) * t ** 3 - (a + 3) * t ** 2 + 1
    if t < 2:
        return a * t ** 3 - 5 * a * t ** 2 + 8 * a * t - 4 * a
    return Fraction(0)


def axis_taps(p, size, mode, padding, align_corners):
    """[(pixel index, exact weight)] along one axis for the exact coordinate p."""
    if mode == "nearest":
        k = pad_index(round(p), size, padding, align_corners)  # half to even, then padding
        return [] if k is None else [(k, Fraction(1))]
    if mode == "linear":
        if padding == "border":
            p = min(max(p, Fraction(0)), Fraction(size - 1))
        elif padding == "reflection":
            p = reflect(p, size, align_corners)
        f = math.floor(p)
        t = p - f
        taps = [(f, 1 - t), (f + 1, t)]
        assert padding == "zeros" or all(0 <= k < size or w == 0 for k, w in taps)
        return [(k, w) for k, w in taps if 0 <= k < size and w != 0]
    f = math.floor(p)
    taps = []
    for k in range(f - 1, f + 3):
        w = cubic_weight(p - k)
        index = pad_index(k, size, padding, align_corners)
        if index is not None and w != 0:
            taps.append((index, w))
    return taps


def notes_grid_sample(x, grid, mode, padding, align_corners, overflows=None):
    """Y per NOTES.md, accumulated in float64 from exact weights.

    `overflows` collects a line for each grid value whose unnormalisation overflowed.
    """
    n_batch, channels = x.shape[:2]
    sizes = x.shape[2:]
    rank = len(sizes)
    grid_dtype = grid.dtype.name
    y = np.empty((n_batch, channels) + grid.shape[1:-1], dtype=np.float64)
    for n in range(n_batch):
        for out in itertools.product(*(range(e) for e in grid.shape[1:-1])):
            per_axis = []
            for axis, size in enumerate(sizes):
                # grid[..., 0] is the innermost axis.
                g = grid[(n,) + out + (rank - 1 - axis,)]
                p, wider = unnormalize(g, size, align_corners, grid_dtype)
                if wider is not None and overflows is not None:
                    overflows.add(f"{grid_dtype} grid {g!s} on an axis of size {size} with "
                                  f"align_corners={align_corners}: recomputed in {wider}")
                per_axis.append(None if p is None else
                                axis_taps(p, size, mode, padding, align_corners))
            if any(taps is None for taps in per_axis):
                y[(n, slice(None)) + out] = np.nan
                continue
            acc = [[] for _ in range(channels)]
            for combo in itertools.product(*per_axis):
                weight = float(math.prod(w for _, w in combo))
                values = x[(n, slice(None)) + tuple(k for k, _ in combo)]
                for c in range(channels):
                    acc[c].append(weight * float(values[c]))
            y[(n, slice(None)) + out] = [math.fsum(a) for a in acc]
    return y.astype(x.dtype)


# ----------------------------------------------------------------------------------------------
# onnx.reference.


def onnx_grid_sample(x, grid, mode, padding, align_corners):
    """onnx.reference's Y, or None when it raises (e.g. reflection over a size-1 axis)."""
    node = helper.make_node("GridSample", ["X", "grid"], ["Y"], mode=mode, padding_mode=padding,
                            align_corners=int(align_corners))
    tensor_type = helper.np_dtype_to_tensor_dtype
    graph = helper.make_graph(
        [node], "gridsample",
        [helper.make_tensor_value_info("X", tensor_type(x.dtype), x.shape),
         helper.make_tensor_value_info("grid", tensor_type(grid.dtype), grid.shape)],
        [helper.make_tensor_value_info("Y", tensor_type(x.dtype), [None] * x.ndim)])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)])
    onnx.checker.check_model(model)
    try:
        with np.errstate(all="ignore"):
            return ReferenceEvaluator(model).run(None, {"X": x, "grid": grid})[0]
    except (ArithmeticError, IndexError, ValueError):
        return None


def close(a, b, tol):
    return a is not None and a.shape == b.shape and \
        bool(np.all(np.isclose(a, b, rtol=tol, atol=tol, equal_nan=True)))


# ----------------------------------------------------------------------------------------------
# Cases.


@dataclasses.dataclass
class Case:
    name: str
    mode: str
    padding: str
    align_corners: int
    x: np.ndarray
    grid: np.ndarray
    y: np.ndarray
    source: str  # where y comes from, written as a comment above the case


def special_coordinates(size, align_corners):
    """Normalised grid values that land exactly on pixel centres, pixel edges (nearest-mode ties)
    and the image corners, including a few just outside the image."""
    values = [-1.0, 0.0, 1.0]
    for k in range(-2, size + 2):
        if align_corners:
            if size > 1:
                values.append(2 * k / (size - 1) - 1)        # centre of pixel k
                values.append((2 * k + 1) / (size - 1) - 1)  # midway between k and k + 1
        else:
            values.append((2 * k + 1) / size - 1)  # centre of pixel k
            values.append(2 * k / size - 1)        # left edge of pixel k
    return values


def random_grid(rng, n_batch, out_extents, sizes, align_corners, dtype):
    rank = len(sizes)
    grid = rng.uniform(-1.3, 1.3, (n_batch,) + tuple(out_extents) + (rank,))
    # About one value in five is replaced by a special coordinate of its axis.
    for index in np.ndindex(grid.shape):
        if rng.random() < 0.2:
            size = sizes[rank - 1 - index[-1]]
            grid[index] = rng.choice(special_coordinates(size, align_corners))
    return grid.astype(dtype)


def random_x(rng, shape, dtype):
    return rng.uniform(-2.0, 2.0, shape).astype(dtype)


def departures(mode, padding, align_corners, sizes, grid_dtype):
    """The NOTES departures from onnx.reference that apply to a case, by construction."""
    found = []
    if mode == "nearest" and grid_dtype == "float64":
        # Rounding the coordinate to float32 moves it across (or onto) a rounding tie.
        found.append("float64 grid coordinates are not rounded to float32")
    if mode == "cubic" and padding == "border":
        found.append("cubic+border clamps taps, not the coordinate")
    if align_corners and padding == "reflection" and 1 in sizes:
        # Zeros and border agree: (g + 1) / 2 * 0 is already 0 for a finite g.
        found.append("size-1 axis with align_corners=1 reflects to pixel 0")
    return found


def expected_output(x, grid, mode, padding, align_corners, stats):
    """The expected Y of a case and where it comes from, after cross-checking both sources."""
    ours = notes_grid_sample(x, grid, mode, padding, align_corners)
    theirs = onnx_grid_sample(x, grid, mode, padding, align_corners)
    departed = departures(mode, padding, align_corners, x.shape[2:], grid.dtype.name)
    float32_only = x.dtype == np.float32 and grid.dtype == np.float32
    agree = close(theirs, ours, CROSS_CHECK_TOL["float32" if float32_only else "float64"])
    if departed:
        key = "; ".join(departed)
        stats.setdefault(key, [0, 0, 0])
        stats[key][0 if agree else (1 if theirs is not None else 2)] += 1
        return ours, "NOTES model (" + key + ")"
    if not agree:
        sys.exit(f"onnx.reference and the NOTES model disagree on {mode} {padding} "
                 f"align_corners={align_corners} X {x.dtype} {x.shape} grid {grid.dtype}:\n"
                 f"grid {grid}\nonnx.reference {theirs}\nNOTES model {ours}")
    if float32_only:
        return theirs, "onnx.reference"
    return ours, "NOTES model in float64 (agrees with onnx.reference to 2e-5)"


def random_cases(rng, stats):
    cases = []
    combos = itertools.product((1, 2, 3, 4), MODES, PADDINGS, (0, 1), DTYPES, DTYPES,
                               ("any", "unit"))
    for rank, mode, padding, align_corners, x_dtype, grid_dtype, variant in combos:
        # The "unit" variant forces a size-1 input axis, so that every combination meets one.
        sizes = [int(rng.choice(INPUT_EXTENTS[rank])) for _ in range(rank)]
        if variant == "unit":
            sizes[int(rng.integers(rank))] = 1
        out_extents = [int(rng.choice(OUTPUT_EXTENTS[rank])) for _ in range(rank)]
        n_batch, channels = int(rng.integers(1, 3)), int(rng.integers(1, 4))
        x = random_x(rng, (n_batch, channels) + tuple(sizes), DTYPES[x_dtype])
        grid = random_grid(rng, n_batch, out_extents, sizes, align_corners, DTYPES[grid_dtype])
        y, source = expected_output(x, grid, mode, padding, align_corners, stats)
        name = (f"r{rank}_{mode}_{padding}_ac{align_corners}_x{x_dtype[5:]}_g{grid_dtype[5:]}"
                f"_{variant}")
        cases.append(Case(name, mode, padding, align_corners, x, grid, y, source))
    return cases


def special_cases(rng, stats):
    """1-D rows of every special coordinate of an axis (centres, edges, corners, inside and
    out), so that each mode x padding meets the nearest-mode ties of NOTES deterministically."""
    cases = []
    for size, mode, padding, align_corners in itertools.product(
            (1, 2, 4, 5), MODES, PADDINGS, (0, 1)):
        x = random_x(rng, (1, 2, size), np.float32)
        values = special_coordinates(size, align_corners)
        grid = np.array(values, dtype=np.float32).reshape(1, len(values), 1)
        y, source = expected_output(x, grid, mode, padding, align_corners, stats)
        name = f"special_w{size}_{mode}_{padding}_ac{align_corners}"
        cases.append(Case(name, mode, padding, align_corners, x, grid, y, source))
    return cases


def huge_cases(overflows):
    """Huge finite grid values for every mode x padding x align_corners; the expected value is
    computed exactly (onnx.reference's float reflection is not exact that far out)."""
    cases = []
    moderate = 0.3
    for dtype_name, huge in (("float32", HUGE_FLOAT32), ("float64", HUGE_FLOAT64)):
        dtype = DTYPES[dtype_name]
        # Grid points (x, y): each huge value on the width axis, on the height axis, and on both.
        points = [(h, moderate) for h in huge] + [(moderate, h) for h in huge] + \
            [(h, -h) for h in huge]
        for sizes in ((3, 5), (1, 4)):
            x = np.arange(1, 1 + 2 * sizes[0] * sizes[1], dtype=dtype).reshape((1, 2) + sizes)
            grid = np.array(points, dtype=dtype).reshape(1, 1, len(points), 2)
            for mode, padding, align_corners in itertools.product(MODES, PADDINGS, (0, 1)):
                y = notes_grid_sample(x, grid, mode, padding, align_corners, overflows)
                name = (f"huge_{dtype_name}_{sizes[0]}x{sizes[1]}_{mode}_{padding}"
                        f"_ac{align_corners}")
                cases.append(Case(name, mode, padding, align_corners, x, grid, y,
                                  "NOTES model, exact"))
    return cases


def nonfinite_cases(rng):
    """NaN and +-Inf grid coordinates: NaN output in every mode and padding."""
    cases = []
    for dtype_name, mode, padding, align_corners in itertools.product(
            DTYPES, MODES, PADDINGS, (0, 1)):
        dtype = DTYPES[dtype_name]
        x = random_x(rng, (1, 2, 3, 4), dtype)
        values = (np.nan, np.inf, -np.inf)
        points = [(v, 0.25) for v in values] + [(-0.5, v) for v in values] + [(0.1, -0.7)]
        grid = np.array(points, dtype=dtype).reshape(1, 1, len(points), 2)
        y = notes_grid_sample(x, grid, mode, padding, align_corners)
        name = f"nonfinite_{dtype_name}_{mode}_{padding}_ac{align_corners}"
        cases.append(Case(name, mode, padding, align_corners, x, grid, y, "NOTES model"))
    return cases


# ----------------------------------------------------------------------------------------------
# Output.


def format_tensor(tag, array):
    # str() of a numpy float32/float64 scalar is the shortest decimal that round-trips.
    values = " ".join(str(v) for v in array.reshape(-1))
    dims = " ".join(str(d) for d in array.shape)
    return f"{tag} {array.dtype.name} {array.ndim} {dims} : {values}"


def format_case(case):
    return "\n".join([
        f"# expected: {case.source}",
        f"case {case.name}",
        f"attrs mode={case.mode} padding={case.padding} align_corners={case.align_corners}",
        format_tensor("x", case.x),
        format_tensor("grid", case.grid),
        format_tensor("y", case.y.astype(case.x.dtype)),
        "end",
    ])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=20240516)
    parser.add_argument("--output", default=os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "tests", "data", "golden.txt"))
    args = parser.parse_args()

    rng = np.random.default_rng(args.seed)
    stats, overflows = {}, set()
    cases = (random_cases(rng, stats) + special_cases(rng, stats) + huge_cases(overflows) +
             nonfinite_cases(rng))
    names = [case.name for case in cases]
    assert len(names) == len(set(names)), "case names must be unique"

    header = [
        "# GridSample golden vectors: generated, do not edit. Format: tests/data/README.md.",
        f"# python3 scripts/gen_golden.py --seed {args.seed}"
        f"  (onnx {onnx.__version__}, numpy {np.__version__}, opset {OPSET})",
        "# Semantics: NOTES.md of the project; see the generator's docstring for where the",
        "# expected values come from onnx.reference and where from the generator's NOTES model.",
    ]
    text = "\n".join(header + [format_case(case) for case in cases]) + "\n"
    os.makedirs(os.path.dirname(os.path.abspath(args.output)), exist_ok=True)
    with open(args.output, "w", encoding="ascii") as f:
        f.write(text)

    by_source = {}
    for case in cases:
        by_source[case.source] = by_source.get(case.source, 0) + 1
    print(f"wrote {len(cases)} cases, {len(text)} bytes to {os.path.normpath(args.output)}")
    for source, count in sorted(by_source.items()):
        print(f"  {count:4d}  {source}")
    print("NOTES departures (onnx.reference agrees / differs / raises):")
    for key, (agree, differ, raised) in sorted(stats.items()):
        print(f"  {key}: {agree} / {differ} / {raised}")
    print("unnormalisations that overflowed in the grid type:")
    for line in sorted(overflows):
        print("  " + line)


if __name__ == "__main__":
    main()
