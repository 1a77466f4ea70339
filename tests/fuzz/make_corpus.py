#!/usr/bin/env python3
"""Writes the fuzzer's seed corpus, tests/fuzz/corpus/: a few dozen small inputs in the layout
that the header comment of tests/fuzz/gridsample_fuzz.cc describes, one per kind of call the
fuzzer should start from: every X dtype (with every grid dtype, rank, mode and padding in turn),
each way the views can stop fitting, hostile extents, refused names and raw enum values, and
grids full of edge values or raw bytes. libFuzzer mutates them from there.

Usage: python3 tests/fuzz/make_corpus.py   (rewrites the folder)
"""

import os
import re
import shutil
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))

# The registry's order is the fuzzer's byte 0.
with open(os.path.join(REPO, "src", "gridsample", "dtypes.inc")) as f:
    DTYPES = re.findall(r'^GRIDSAMPLE_DTYPE\(\w+, "(\w+)"', f.read(), re.M)
GRID_DTYPES = ["float32", "float64", "float16", "bfloat16"]  # byte 1, values 0-3
MODES = ["linear", "bilinear", "nearest", "cubic", "bicubic"]  # byte 2, values 0-4
PADDINGS = ["zeros", "border", "reflection"]  # byte 3, values 0-2
THREADS = [0, 1, 2, 3, 4, 8, 64, -1]  # byte 4, bits 1-3
HOSTILE = {  # byte values >= 0xF0 of the extents: kHostile in the fuzzer
    -1: 0xF0, -7: 0xF1, "int64_min": 0xF2, "int64_max": 0xF3, 2**31: 0xF5, 2**32: 0xF6,
    2**40: 0xF7, 2**62: 0xF9, 3 * 2**61: 0xFA,
}
MUTATIONS = {  # the mutation kind byte
    "none": 0, "grid_last_extent": 7, "grid_batch": 8, "y_extent": 9, "y_rank": 10,
    "y_dtype": 11, "null_data": 12, "null_shape": 13, "grid_rank": 14, "x_rank": 15,
}
# Selector bytes of the grid palette (GridValue in the fuzzer).
NAN, INF, NEG_INF, HUGE, NEG_HUGE, DENORMAL, EXACT_HALF, RAW = 6, 7, 8, 9, 10, 11, 5, 15


def extent(e):
    return HOSTILE[e] if e in HOSTILE or isinstance(e, str) else e


def attribute(value):
    """The mode or padding byte: a byte value (an index above, or raw), or a name that follows
    it for ParseMode/ParsePadding."""
    if isinstance(value, str):
        return bytes([0xE0 | len(value)]) + value.encode()
    return bytes([value])


def seed(x="float32", grid=0, mode=0, padding=0, align=False, threads=1, target=0,
         n=1, c=1, spatial=(4, 4), out=(3, 3), mutation="none", param=0, values=b""):
    """One input; `grid` is a byte value, `mode` and `padding` see attribute()."""
    x_byte = DTYPES.index(x) if isinstance(x, str) else x
    flags = int(align) | (THREADS.index(threads) << 1)
    data = bytes([x_byte, grid]) + attribute(mode) + attribute(padding)
    data += bytes([flags, target, len(spatial) - 1])
    data += bytes(extent(e) for e in [n, c, *spatial, *out])
    data += bytes([MUTATIONS[mutation], param])
    data += struct.pack("<Q", 0x5EED0000 + len(values) * 31 + x_byte)
    return data + values


def main():
    cases = {}
    # Every X dtype, cycling through grid dtypes, ranks, modes, paddings, alignments and threads.
    for i, dtype in enumerate(DTYPES):
        rank = 1 + i % 5
        mode = 2 if dtype == "string" else i % 5
        spatial = [(5, 4, 3, 2, 2)[a] for a in range(rank)]
        out = [(3, 4, 2, 2, 1)[a] for a in range(rank)]
        cases[f"dtype_{dtype}_r{rank}_{MODES[mode]}"] = seed(
            x=dtype, grid=i % 4, mode=mode, padding=i % 3, align=i % 2 == 1,
            threads=THREADS[i % 5], target=i, n=1 + i % 2, c=1 + i % 3, spatial=spatial,
            out=out)
    # Every way the views stop fitting.
    for mutation in MUTATIONS:
        if mutation != "none":
            cases[f"mutation_{mutation}"] = seed(mutation=mutation, param=1)
    # Hostile extents: overflowing counts and bytes, negative extents, huge empty tensors.
    cases["hostile_x_plane_2e80"] = seed(spatial=(2**40, 2**40))
    cases["hostile_empty_batch_2e40_plane"] = seed(n=0, spatial=(2**40, 1))
    cases["hostile_empty_axis_then_2e40"] = seed(spatial=(0, 2**40, 2**40), out=(0, 1, 1))
    cases["hostile_negative_extent"] = seed(spatial=(4, -7))
    cases["hostile_int64_max_channels"] = seed(c="int64_max")
    cases["hostile_float32_bytes_2e62"] = seed(spatial=(2**31, 2**31))
    cases["hostile_y_3x2e61"] = seed(out=(3 * 2**61, 1))
    # Refused names and raw enum values.
    cases["name_mode_trilinear"] = seed(mode="trilinear")
    cases["name_padding_mirror"] = seed(padding="mirror")
    cases["name_mode_bicubic"] = seed(mode="bicubic", padding="border")
    cases["name_mode_Linear"] = seed(mode=5)
    cases["name_padding_reflect"] = seed(padding=3)
    cases["raw_mode_3"] = seed(mode=6 | (3 << 3))
    cases["raw_padding_4"] = seed(padding=4 | (4 << 3))
    cases["dtype_outside_enum"] = seed(x=len(DTYPES))
    cases["grid_dtype_int32"] = seed(x="int32", grid=4)
    cases["grid_dtype_outside_enum"] = seed(grid=5)
    cases["threads_negative"] = seed(threads=-1)
    cases["string_linear"] = seed(x="string", mode=0)
    # Grids of edge values: non-finite, huge, denormal, exact halves, raw bytes.
    cases["grid_nonfinite"] = seed(values=bytes(16) + bytes([NAN, INF, NEG_INF, NAN] * 5))
    cases["grid_huge_reflection"] = seed(
        padding=2, mode=3, values=bytes(16) + bytes([HUGE, NEG_HUGE, DENORMAL] * 6))
    cases["grid_exact_halves_nearest"] = seed(
        mode=2, padding=2, values=bytes(16) + bytes([EXACT_HALF] * 18))
    cases["grid_raw_float16"] = seed(
        grid=2, values=bytes(16) + bytes([RAW, 0x00, 0x7C, RAW, 0x01, 0x00, RAW, 0xFF, 0x7B] * 3))
    cases["grid_raw_bfloat16_cubic_border"] = seed(
        grid=3, mode=4, padding=1, values=bytes(16) + bytes([RAW, 0x80, 0x7F, RAW, 0x01, 0x80] * 4))
    # Enough taps (8 * 8 * 64 outputs * 16) for the fast path to use its thread pool.
    cases["threads_pool_cubic"] = seed(mode=3, threads=0, n=8, c=8, spatial=(8, 8), out=(8, 8))

    folder = os.path.join(HERE, "corpus")
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    for name, data in cases.items():
        with open(os.path.join(folder, name), "wb") as f:
            f.write(data)
    print(f"{len(cases)} seeds in {os.path.relpath(folder, REPO)}")


if __name__ == "__main__":
    main()
