#!/usr/bin/env python3
"""Writes tests/data/affine_grid.txt: AffineGrid golden vectors (format: tests/data/README.md).

Each case holds theta, size and align_corners, and two expected grids:
  * `grid`, what AffineGrid must return, bit for bit. The exact model is the exact affine map of
    the exact base coordinates (fractions), rounded once to the grid's dtype, half to even, with
    its exponent range (subnormals, overflow to inf). The generator also runs the documented
    float64 algorithm (docs/semantics.md, AffineGrid: each base coordinate from one division,
    then ((t0 * x + t1 * y) + t2) in 2-D, (((t0 * x + t1 * y) + t2 * z) + t3) in 3-D, rounded
    once to the dtype) in Python floats, which are IEEE float64. For float32, float16 and
    bfloat16 it requires the two to agree on every value, and writes them (a zero with the
    algorithm's sign); for float64 it requires the algorithm to lie within 8u * (the sum of the
    terms' magnitudes) of the exact value (u = 2^-53), and writes the algorithm's value, which
    pins the order of the operations.
  * `reference`, onnx.reference's AffineGrid before its last step: onnx.reference computes the
    grid in float64 (its base grid with numpy.arange, then a matrix product with theta) and
    casts it to float32 whatever theta's dtype; the line holds the float64 values, and the
    generator requires ReferenceEvaluator's own float32 output to be exactly them cast to
    float32, and them to be within 1e-15 * (1 + sum of |terms|) of the exact model.
onnx.reference cannot take a zero extent (numpy.arange fails) nor, with align_corners=1, an axis
of more than 20001 elements (its arange overshoots), so the file has neither; the C++ suite
tests both against its own exact model. The float32 values of onnx.reference differ from `grid`
where its arange drifts (e.g. -1.1102230246251565e-16 for the centre of an odd axis with
align_corners=0, where the exact value is 0); the header counts them.

Values are written as tests/data/README.md says per dtype: the shortest round-trip decimal for
float32 and float64, `0x` and four hex digits for float16 and bfloat16 bits.

Usage: python3 scripts/gen_affine_grid.py [--seed N] [--output PATH] (needs onnx and numpy;
the seed is fixed, so running it again with the same versions rewrites the same file).
"""

import argparse
import itertools
import math
import os
import sys
from fractions import Fraction

import numpy as np
import onnx
from onnx import TensorProto, helper
from onnx.reference import ReferenceEvaluator
from onnx.reference.ops.op_affine_grid import construct_original_grid

OPSET = 20

# (significant bits, smallest normal exponent, largest exponent) per dtype.
FORMATS = {
    "float32": (24, -126, 127),
    "float64": (53, -1022, 1023),
    "float16": (11, -14, 15),
    "bfloat16": (8, -126, 127),
}
DTYPES = tuple(FORMATS)

# size values (N, C, H, W) and (N, C, D, H, W): size-1 axes, several N, odd and even axes.
SIZES_2D = ((1, 1, 1, 1), (1, 3, 1, 5), (2, 1, 4, 1), (2, 2, 3, 4), (3, 1, 5, 7), (1, 1, 8, 6))
SIZES_3D = ((1, 1, 1, 1, 1), (2, 1, 2, 3, 4), (1, 2, 3, 1, 2), (1, 1, 4, 5, 3), (3, 1, 1, 2, 1))


# ----------------------------------------------------------------------------------------------
# Rounding and spelling per dtype.


def round_exact(q, dtype):
    """The rational q rounded to dtype, half to even, with subnormals and overflow (a float)."""
    bits, emin, emax = FORMATS[dtype]
    if q == 0:
        return 0.0
    a = abs(q)
    e = a.numerator.bit_length() - a.denominator.bit_length()
    if a < Fraction(2) ** e:
        e -= 1  # now 2**e <= a < 2**(e+1)
    quantum = Fraction(2) ** (max(e, emin) - bits + 1)
    rounded = round(a / quantum) * quantum  # round() of a Fraction is half to even
    largest = (2 - Fraction(2) ** (1 - bits)) * Fraction(2) ** emax
    value = math.inf if rounded > largest else float(rounded)
    return value if q > 0 else -value


def round_float(v, dtype):
    """A Python float (float64) rounded once to dtype, as a float."""
    if math.isnan(v) or math.isinf(v):
        return v
    if dtype == "float64":
        return v
    if dtype == "float32":
        return float(np.float32(v))
    if dtype == "float16":
        return float(np.float16(v))  # numpy converts float64 to half directly, half to even
    return round_exact(Fraction(v), dtype) if v != 0 else v


def bits16(v, dtype):
    """The 16 bits of a float16 or bfloat16 value (v must be representable)."""
    if dtype == "float16":
        return int(np.array(v, np.float16).view(np.uint16))
    word = int(np.array(v, np.float32).view(np.uint32))
    assert word & 0xFFFF == 0, (v, "is not a bfloat16")
    return word >> 16


def spell(v, dtype):
    if dtype == "float32":
        return str(np.float32(v))
    if dtype == "float64":
        return str(np.float64(v))
    return f"0x{bits16(v, dtype):04x}"


def same(a, b):
    """Equal as stored: NaN equals NaN, and a zero's sign counts."""
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return a == b and math.copysign(1, a) == math.copysign(1, b)


# ----------------------------------------------------------------------------------------------
# The exact model and the documented float64 algorithm.


def base_exact(i, n, align_corners):
    if align_corners:
        return Fraction(-1) if n == 1 else Fraction(2 * i - (n - 1), n - 1)
    return Fraction(2 * i + 1 - n, n)


def base_float(i, n, align_corners):
    # Python's int / int is correctly rounded: the float64 nearest the exact quotient.
    if align_corners:
        return -1.0 if n == 1 else (2 * i - (n - 1)) / (n - 1)
    return (2 * i + 1 - n) / n


def points(size):
    """The grid's points in order: ((x, y[, z]) index tuples, extents), x innermost."""
    spatial = size[2:]
    for index in itertools.product(*(range(n) for n in spatial)):
        yield tuple(reversed(index)), tuple(reversed(spatial))


def model(theta, size, align_corners, dtype):
    """Flat, row-major: (the exact values, them rounded to dtype, the algorithm's values, the
    sum of |terms| of each value)."""
    r = len(size) - 2
    unrounded, exact, algorithm, magnitude = [], [], [], []
    for b in range(size[0]):
        t = theta[b]
        for index, extents in points(size):
            q = [base_exact(i, n, align_corners) for i, n in zip(index, extents)]
            f = [base_float(i, n, align_corners) for i, n in zip(index, extents)]
            for k in range(r):
                row = [float(v) for v in t[k]]
                value = sum((Fraction(row[j]) * q[j] for j in range(r)), Fraction(row[r]))
                unrounded.append(value)
                exact.append(round_exact(value, dtype))
                # The documented order: ((t0*x + t1*y) + t2*z) + t_last, no fused multiply-add.
                acc = row[0] * f[0] + row[1] * f[1]
                if r == 3:
                    acc = acc + row[2] * f[2]
                algorithm.append(round_float(acc + row[r], dtype))
                magnitude.append(sum(abs(row[j] * f[j]) for j in range(r)) + abs(row[r]))
    return unrounded, exact, algorithm, magnitude


# ----------------------------------------------------------------------------------------------
# onnx.reference.

ONNX_TYPES = {"float32": TensorProto.FLOAT, "float64": TensorProto.DOUBLE,
              "float16": TensorProto.FLOAT16}
NUMPY_TYPES = {"float32": np.float32, "float64": np.float64, "float16": np.float16}


def reference(theta, size, align_corners, dtype):
    """(ReferenceEvaluator's output, the float64 values it casts to float32)."""
    # numpy has no bfloat16: its values are exact in float32, and onnx.reference's matrix
    # product promotes every theta to float64 anyway.
    onnx_dtype = dtype if dtype != "bfloat16" else "float32"
    node = helper.make_node("AffineGrid", ["theta", "size"], ["grid"],
                            align_corners=align_corners)
    graph = helper.make_graph(
        [node], "affine_grid",
        [helper.make_tensor_value_info("theta", ONNX_TYPES[onnx_dtype], None),
         helper.make_tensor_value_info("size", TensorProto.INT64, None)],
        [helper.make_tensor_value_info("grid", ONNX_TYPES[onnx_dtype], None)])
    model_proto = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)])
    theta_array = np.array(theta, dtype=NUMPY_TYPES[onnx_dtype])
    size_array = np.array(size, dtype=np.int64)
    with np.errstate(divide="ignore", invalid="ignore"):  # size-1 axes, align_corners=1
        official = ReferenceEvaluator(model_proto).run(
            None, {"theta": theta_array, "size": size_array})[0]
        # apply_affine_transform of onnx.reference without its final astype(np.float32).
        base = construct_original_grid(list(size_array[2:]), align_corners)
    r = len(size) - 2
    homogeneous = np.transpose(np.reshape(base, (-1, r + 1)))
    grid = np.matmul(theta_array.astype(np.float64), homogeneous)
    grid = np.reshape(np.transpose(grid, (0, 2, 1)), (size[0], *size[2:], r))
    return official, grid


# ----------------------------------------------------------------------------------------------
# Cases.


def round_theta(values, dtype):
    return [[[round_float(float(v), dtype) for v in row] for row in matrix] for matrix in values]


def thetas(rng, dtype, size):
    """(suffix, theta) pairs for one size: random, and for some sizes structured ones."""
    n, r = size[0], len(size) - 2
    scale = rng.choice([0.5, 1.0, 2.0])
    yield "random", round_theta(rng.normal(0, scale, (n, r, r + 1)), dtype)


def special_thetas(dtype):
    """Named 2-D and 3-D thetas: identity, a rotation with zoom and shift, and huge entries."""
    angle = math.radians(30)
    c, s = 0.9 * math.cos(angle), 0.9 * math.sin(angle)
    # Large enough that some results overflow the dtype (float64: none do).
    huge = {"float32": 3e38, "float64": 1e300, "float16": 4e4, "bfloat16": 3e38}[dtype]
    yield "identity", (1, 1, 3, 5), [[[1, 0, 0], [0, 1, 0]]]
    yield "identity", (1, 1, 2, 3, 4), [[[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0]]]
    yield "rotation", (2, 3, 4, 5), [[[c, -s, 0.1], [s, c, -0.2]], [[c, s, 0], [-s, c, 0]]]
    yield "rotation", (1, 1, 2, 3, 3), [[[c, -s, 0, 0.25], [s, c, 0, 0], [0, 0, 1, -0.5]]]
    yield "huge", (1, 1, 3, 3), [[[huge, huge, 0], [-huge, 0, -huge]]]
    yield "huge", (1, 1, 2, 2, 2), [[[huge, 0, huge, huge], [0, -huge, 0, 0], [1, 1, 1, 1]]]


def all_cases(rng):
    for dtype in DTYPES:
        for align_corners in (0, 1):
            for size in SIZES_2D + SIZES_3D:
                for suffix, theta in thetas(rng, dtype, size):
                    yield dtype, align_corners, size, suffix, theta
            for suffix, size, theta in special_thetas(dtype):
                yield dtype, align_corners, size, suffix, round_theta(theta, dtype)


def format_case(name, dtype, align_corners, size, theta, grid, reference64):
    r = len(size) - 2
    n = size[0]
    theta_values = " ".join(spell(v, dtype) for m in theta for row in m for v in row)
    grid_dims = (n, *size[2:], r)
    dims = " ".join(str(d) for d in grid_dims)
    return "\n".join([
        f"case {name}",
        f"attrs align_corners={align_corners}",
        f"theta {dtype} 3 {n} {r} {r + 1} : {theta_values}",
        f"size int64 1 {len(size)} : {' '.join(str(v) for v in size)}",
        f"grid {dtype} {len(grid_dims)} {dims} : {' '.join(spell(v, dtype) for v in grid)}",
        f"reference float64 {len(grid_dims)} {dims} : "
        + " ".join(str(np.float64(v)) for v in reference64),
        "end",
    ])


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seed", type=int, default=20240520)
    parser.add_argument("--output", default=os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "tests", "data", "affine_grid.txt"))
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)

    blocks, counts = [], {"cases": 0, "values": 0, "float32 drift": 0}
    names = set()
    # Overflow to inf is what the huge cases are for.
    np.seterr(over="ignore")
    for dtype, align_corners, size, suffix, theta in all_cases(rng):
        r = len(size) - 2
        name = f"r{r}_{dtype}_ac{align_corners}_{'x'.join(map(str, size))}_{suffix}"
        assert name not in names, name
        names.add(name)
        unrounded, exact, algorithm, magnitude = model(theta, size, align_corners, dtype)
        official, reference64 = reference(theta, size, align_corners, dtype)
        reference64 = reference64.reshape(-1)
        # The float64 values are what onnx.reference casts to float32.
        assert np.array_equal(official.reshape(-1), reference64.astype(np.float32),
                              equal_nan=True), name
        grid = []
        row_sums = [sum(abs(v) for v in theta[i // (len(exact) // size[0])][i % r])
                    for i in range(len(exact))]
        for i, (u, e, a, m) in enumerate(zip(unrounded, exact, algorithm, magnitude)):
            ref = float(reference64[i])
            # Its arange drifts by up to a few float64 ulps of 1 (|base| <= 1): bound by |theta|.
            bound = Fraction(1e-15) * (1 + Fraction(row_sums[i]))
            assert abs(Fraction(ref) - u) <= bound, (name, i, ref)
            if dtype == "float64":
                # The algorithm within its documented error of the exact value.
                assert abs(Fraction(a) - u) <= Fraction(8 * 2.0 ** -53) * Fraction(m), (name, i)
                grid.append(a)
            else:
                assert same(a, e) or (e == 0 and a == 0), (name, i, a, e)
                grid.append(a)
            if dtype == "float32" and not same(float(np.float32(ref)), grid[-1]):
                counts["float32 drift"] += 1
        counts["cases"] += 1
        counts["values"] += len(grid)
        blocks.append(format_case(name, dtype, align_corners, size, theta, grid, reference64))

    header = [
        "# AffineGrid golden vectors: generated, do not edit. Format: tests/data/README.md.",
        f"# python3 scripts/gen_affine_grid.py --seed {args.seed}  (onnx {onnx.__version__}, "
        f"numpy {np.__version__}, opset {OPSET})",
        f"# {counts['cases']} cases, {counts['values']} grid values; onnx.reference's own float32 "
        f"output differs from `grid`",
        f"# in {counts['float32 drift']} float32 values (its numpy.arange base grid drifts; see "
        "the generator's docstring).",
    ]
    with open(args.output, "w", encoding="ascii", newline="\n") as out:
        out.write("\n".join(header + blocks) + "\n")
    print(f"wrote {args.output}: {counts}", file=sys.stderr)


if __name__ == "__main__":
    main()
