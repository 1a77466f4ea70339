#!/usr/bin/env python3
"""Times the native peers of gridsample on the benchmark workloads, for the comparison table of
scripts/bench.sh: ncnn, OpenCV (cv2.remap), PyTorch (grid_sample) and OpenVINO, as installed
from scripts/bench_peers.requirements.txt (bench.sh keeps them in a venv of their own).

  python scripts/bench_peers.py --peer ncnn|opencv|torch|openvino --data DIR [--threads 1,2]
      [--out FILE] [--min-time 0.5] [--min-runs 5] [--max-runs 10000] [--warmup 2]
      [--filter REGEX]

DIR is what `gridsample_workloads --write DIR` made: workloads.json (the table, which nothing
here restates) and every workload's X, grid and gridsample's own Y as raw little-endian files.
Every peer reads those bytes, so all runners sample the same data, and each peer's output is
compared with gridsample's native Y (largest |difference|, at every thread count).

What one timed call covers, per peer (all from NCHW tensors to an NCHW Y, inputs made once;
channels-last workloads, images as they come, run on OpenCV only, HWC to HWC):
  ncnn      a net of one GridSample layer: per batch item, an extractor, two inputs and the
            extract (ncnn has no batch axis), its packing conversions included; float32 storage
            and arithmetic (the fp16 options off: the workloads are float32)
  opencv    cv2.remap on interleaved (HWC) images of at most 4 channels (more channels, or 2,
            make OpenCV fall back to 1/32-pixel fixed-point weights even with float maps),
            including the grid -> map conversion (cv2.transform to a CV_32FC2 map) and the
            NCHW -> HWC and HWC -> NCHW copies (cv2.merge, cv2.split into Y). Also reported
            apart: the remap calls alone on HWC images ("HWC only"), and the same two with
            fixed-point maps (cv2.convertMaps to CV_16SC2 timed in the NCHW figure), which
            round locations to 1/32 pixel and so are not exact. A channels-last workload
            (N, H, W, C of at most 4 channels) is remapped as it is into Y: no copies, the
            map conversions as above
  torch     torch.nn.functional.grid_sample under inference_mode (it allocates Y)
  openvino  a model of one opset-9 GridSample node compiled for the CPU with
            INFERENCE_PRECISION_HINT f32 (its default may be bf16), one stream, inputs shared
            with numpy, InferRequest.infer with the output shared, not copied
A workload a peer cannot run is reported as n/a with the peer's own message, or why not.

Threads: torch.set_num_threads, cv2.setNumThreads, ncnn's opt.num_threads and OpenVINO's
INFERENCE_NUM_THREADS, per thread count (default: 1 and all hardware threads).

Timing is scripts/bench_common.mjs's: --warmup runs, then samples, each the mean of a batch of
consecutive runs lasting about 1 ms, until both --min-runs and --min-time are reached (at most
--max-runs samples); the median sample is the figure, the fastest one is kept too. The garbage
collector is off while a workload is timed.

Writes a JSON array of reports in scripts/bench_common.mjs's format to --out (or stdout), one
per variant (all but OpenCV have one), for scripts/bench_table.mjs. Besides that format, a
report has `name` (its header in the table), `family` (the peer) and, for a variant the table
shows apart from the peers, `apart: true`. Progress goes to stderr.
"""

import argparse
import contextlib
import gc
import json
import os
import re
import statistics
import sys
import tempfile
import time

import numpy as np


class Unsupported(Exception):
    """A peer cannot run a workload; the message says why."""


def read_table(data_dir, pattern):
    with open(os.path.join(data_dir, "workloads.json"), encoding="utf-8") as f:
        table = json.load(f)
    if pattern:
        table["workloads"] = [w for w in table["workloads"] if re.search(pattern, w["id"])]
    return table


def read_tensor(data_dir, workload, name):
    spec = workload[name]
    data = np.fromfile(os.path.join(data_dir, workload["files"][name]), dtype=spec["dtype"])
    return data.reshape(spec["shape"])


def max_abs_diff(actual, expected):
    if actual.shape != expected.shape:
        raise ValueError(f"output shape {list(actual.shape)}, expected {list(expected.shape)}")
    if actual.size == 0:
        return 0.0
    actual, expected = actual.astype(np.float64), expected.astype(np.float64)
    # A NaN on one side only would vanish in nanmax: it counts as an infinite difference.
    if (np.isnan(actual) != np.isnan(expected)).any():
        return float("inf")
    return float(np.nanmax(np.abs(actual - expected)))


def time_runs(run, timing):
    """bench_common.mjs's timeRuns for a synchronous run: {status, ms, min_ms, runs}."""
    for _ in range(max(1, timing["warmup"])):
        run()
    clock = time.perf_counter

    def batch_mean_ms(batch):
        start = clock()
        for _ in range(batch):
            run()
        return (clock() - start) * 1e3 / batch

    # Doubled until a batch lasts about 1 ms, so that the timer's own cost is not measured.
    batch = 1
    while batch < 10000 and batch * batch_mean_ms(batch) < 1.0:
        batch *= 2
    samples = []
    start = clock()
    while len(samples) < timing["max_runs"] and (
            len(samples) < timing["min_runs"] or clock() - start < timing["min_time"]):
        samples.append(batch_mean_ms(batch))
    return {"status": "ok", "ms": statistics.median(samples), "min_ms": min(samples),
            "runs": len(samples) * batch}


def method_text(timing):
    return (f"{timing['warmup']} warm-up runs, then >= {timing['min_runs']} timed samples and "
            f">= {timing['min_time']:g} s, each sample the mean of a batch of runs lasting "
            "about 1 ms")


def reason_of(error, last=False):
    """The line of a peer's error message that says what failed, without source locations."""
    text = str(error).strip() or type(error).__name__
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    # OpenCV: "OpenCV(5.0.0) FILE:LINE: error: (-215:...) what"; OpenVINO: the check, the node,
    # then what failed on the last line.
    message = next((line for line in lines if " error: " in line), lines[-1 if last else 0])
    return re.sub(r"^.*? error: ", "", message)[:300]


@contextlib.contextmanager
def native_stderr(log):
    """Appends what native code writes to file descriptor 2 meanwhile to `log` (a list)."""
    sys.stderr.flush()
    saved = os.dup(2)
    with tempfile.TemporaryFile() as capture:
        os.dup2(capture.fileno(), 2)
        try:
            yield
        finally:
            os.dup2(saved, 2)
            os.close(saved)
            capture.seek(0)
            log.append(capture.read().decode(errors="replace").strip())


class Case:
    """One way of running a workload: run() does the timed work, output() is Y as NCHW."""

    def __init__(self, variant, run, output):
        self.variant, self.run, self.output = variant, run, output


# ---------------------------------------------------------------------------------------------
# The peers. Each has VARIANTS (key -> header in the table, variant label, shown apart),
# version, setup (one line: what a timed call covers), set_threads(threads) and
# cases(workload, x, grid, threads) -> [Case], which raises Unsupported for a workload it
# cannot run.

class Ncnn:
    VARIANTS = {"": ("ncnn", "", False)}
    SAMPLE_TYPE = {"linear": 1, "nearest": 2, "cubic": 3}
    PADDING = {"zeros": 1, "border": 2, "reflection": 3}

    def __init__(self):
        import ncnn
        self.ncnn = ncnn
        self.version = ncnn.__version__
        self.setup = ("a one-layer GridSample net (param 3=0: grid as given), opt.num_threads = T, "
                      "packing layout on, fp16 storage/packing/arithmetic off; per batch item an "
                      "extractor, 2 inputs and the extract, packing conversions included")

    def set_threads(self, threads):
        pass  # ncnn takes them per net (cases)

    def cases(self, w, x, grid, threads):
        if x.ndim not in (4, 5):
            raise Unsupported(f"ncnn's GridSample samples 2-D or 3-D images, not {x.ndim - 2}-D")
        if x.dtype != np.float32:
            raise Unsupported(f"ncnn nets take float32 Mats, not {x.dtype} (its fp16, bf16 and "
                              "int8 are storage formats inside a net)")
        net = self.ncnn.Net()
        net.opt.num_threads = threads
        # Default on: they would store the float32 data as float16 where the CPU has F16C.
        net.opt.use_fp16_storage = False
        net.opt.use_fp16_packed = False
        net.opt.use_fp16_arithmetic = False
        # Layer params: 0 sample type, 1 padding, 2 align_corners, 3 permute_fusion (0: the
        # grid stays (out_h, out_w, 2), i.e. a Mat of w 2, h out_w, c out_h).
        param = ("7767517\n3 3\n"
                 "Input x 0 1 x\n"
                 "Input grid 0 1 grid\n"
                 f"GridSample sample 2 1 x grid y 0={self.SAMPLE_TYPE[w['mode']]} "
                 f"1={self.PADDING[w['padding_mode']]} 2={int(w['align_corners'])} 3=0\n")
        if net.load_param_mem(param) != 0 or net.load_model(self.ncnn.DataReaderFromEmpty()) != 0:
            raise Unsupported("ncnn could not load the one-layer GridSample net")
        xs = [self.ncnn.Mat(np.ascontiguousarray(item)) for item in x]
        grids = [self.ncnn.Mat(np.ascontiguousarray(item)) for item in grid]
        ys = [None] * len(xs)

        def run():
            for n, (x_mat, grid_mat) in enumerate(zip(xs, grids)):
                extractor = net.create_extractor()
                extractor.input("x", x_mat)
                extractor.input("grid", grid_mat)
                status, ys[n] = extractor.extract("y")
                if status != 0:
                    raise RuntimeError(f"ncnn extract returned {status}")

        # ncnn says why it fails only in its log (e.g. "unsupported bicubic when dims == 4").
        log = []
        try:
            with native_stderr(log):
                run()
        except RuntimeError as error:
            raise Unsupported(f"{error}: {' '.join(log[0].split())}" if log[0] else str(error))

        def output():
            return np.stack([np.array(y) for y in ys])

        # The net and its input Mats live as long as the closures.
        return [Case("", run, output)]


class OpenCV:
    VARIANTS = {
        "": ("OpenCV", "", False),
        "hwc": ("OpenCV HWC only", "HWC only", True),
        "fixed": ("OpenCV fixed-point", "fixed-point maps", True),
        "fixed-hwc": ("OpenCV fixed-point HWC only", "fixed-point maps, HWC only", True),
    }
    GROUP = 4  # channels per interleaved image
    CHANNELS_LAST = True  # samples channels-last workloads (the others say n/a)

    def __init__(self):
        import cv2
        self.cv2 = cv2
        self.version = cv2.__version__
        self.setup = ("cv2.remap on HWC images of <= 4 channels into preallocated outputs, "
                      "cv2.setNumThreads(T); the grid -> CV_32FC2 map (cv2.transform) and the "
                      "NCHW <-> HWC copies (cv2.merge, cv2.split) timed in")
        self.variant_setup = {
            "hwc": "the cv2.remap calls alone, on HWC images made before timing, float maps",
            "fixed": ("as OpenCV, with cv2.convertMaps to CV_16SC2 fixed-point maps (1/32 "
                      "pixel) timed in: not exact"),
            "fixed-hwc": "the cv2.remap calls alone on HWC images, fixed-point maps: not exact",
        }

    def set_threads(self, threads):
        self.cv2.setNumThreads(threads)

    def pixel_maps(self, grid_item, to_pixels, out, fixed, nearest=False):
        """The grid's map into pixel units (cv2.transform into `out`, CV_32FC2), or, `fixed`,
        the fixed-point maps of it (cv2.convertMaps to CV_16SC2)."""
        self.cv2.transform(grid_item, to_pixels, dst=out)
        if not fixed:
            return out, None
        return self.cv2.convertMaps(out, None, self.cv2.CV_16SC2, nninterpolation=nearest)

    def cases(self, w, x, grid, threads):
        cv2 = self.cv2
        if x.ndim != 4:
            raise Unsupported(f"cv2.remap samples 2-D images only, not {x.ndim - 2}-D")
        if x.dtype == np.float16:
            raise Unsupported("cv2.remap has no float16 kernel")
        if w.get("layout") == "channels-last":
            return self.channels_last_cases(w, x, grid)
        n_items, channels, height, width = x.shape
        out_h, out_w = grid.shape[1:3]
        ac = bool(w["align_corners"])
        interpolation = {"linear": cv2.INTER_LINEAR, "nearest": cv2.INTER_NEAREST,
                         "cubic": cv2.INTER_CUBIC}[w["mode"]]
        # ONNX reflects about the edge pixels' centres with align_corners, about their outer
        # edges without: for the taps, OpenCV's gfedcb|abcdef and fedcba|abcdef. (Whether a
        # linear sample of a reflected coordinate always equals that is left to the check of
        # the output; no workload has linear and reflection.)
        border = {"zeros": cv2.BORDER_CONSTANT, "border": cv2.BORDER_REPLICATE,
                  "reflection": cv2.BORDER_REFLECT_101 if ac else cv2.BORDER_REFLECT}[
                      w["padding_mode"]]
        nearest = interpolation == cv2.INTER_NEAREST
        # A 2-channel image goes to the fixed-point kernel too: a remainder of 2 is split.
        groups, start = [], 0
        while start < channels:
            size = min(self.GROUP, channels - start)
            size = 1 if size == 2 else size
            groups.append(range(start, start + size))
            start += size
        # The grid's unnormalisation as an affine map of its (x, y) pairs into pixel units.
        sx, sy = ((width - 1) / 2, (height - 1) / 2) if ac else (width / 2, height / 2)
        to_pixels = np.array([[sx, 0, (width - 1) / 2], [0, sy, (height - 1) / 2]])

        y = np.empty((n_items, channels, out_h, out_w), x.dtype)
        maps = [np.empty((out_h, out_w, 2), np.float32) for _ in range(n_items)]
        # Per item and group: its HWC image and remap output (a plane of Y for one channel).
        hwc = [[None if len(g) == 1 else np.empty((height, width, len(g)), x.dtype)
                for g in groups] for _ in range(n_items)]
        dst = [[y[n, g[0]] if len(g) == 1 else np.empty((out_h, out_w, len(g)), x.dtype)
                for g in groups] for n in range(n_items)]

        def to_hwc(n):
            for k, g in enumerate(groups):
                if len(g) > 1:
                    cv2.merge([x[n, c] for c in g], dst=hwc[n][k])
            return [x[n, g[0]] if len(g) == 1 else hwc[n][k] for k, g in enumerate(groups)]

        def remap(n, images, map1, map2):
            for k, image in enumerate(images):
                cv2.remap(image, map1, map2, interpolation, dst=dst[n][k], borderMode=border,
                          borderValue=0)

        def to_nchw(n):
            for k, g in enumerate(groups):
                if len(g) > 1:
                    cv2.split(dst[n][k], [y[n, c] for c in g])

        def nchw(fixed):
            def run():
                for n in range(n_items):
                    map1, map2 = self.pixel_maps(grid[n], to_pixels, maps[n], fixed, nearest)
                    remap(n, to_hwc(n), map1, map2)
                    to_nchw(n)
            return run

        # The HWC-only runs take the images and maps as the NCHW runs made them.
        try:
            nchw(False)()
        except cv2.error as error:
            raise Unsupported(reason_of(error)) from error
        images = [to_hwc(n) for n in range(n_items)]
        fixed_maps = [cv2.convertMaps(m, None, cv2.CV_16SC2, nninterpolation=nearest)
                      for m in maps]

        def hwc_only(fixed):
            def run():
                for n in range(n_items):
                    map1, map2 = fixed_maps[n] if fixed else (maps[n], None)
                    remap(n, images[n], map1, map2)
            return run

        def output_nchw():
            return y.copy()

        def output_hwc():
            for n in range(n_items):
                to_nchw(n)
            return y.copy()

        return [Case("", nchw(False), output_nchw), Case("hwc", hwc_only(False), output_hwc),
                Case("fixed", nchw(True), output_nchw),
                Case("fixed-hwc", hwc_only(True), output_hwc)]

    def channels_last_cases(self, w, x, grid):
        """The variants on (N, H, W, C) images, remapped as they are into Y."""
        cv2 = self.cv2
        n_items, height, width, channels = x.shape
        if channels > 4 or channels == 2:
            raise Unsupported(f"cv2.remap weighs {channels} interleaved channels in 1/32-pixel "
                              "fixed point even with float maps")
        if w["mode"] != "linear" or w["padding_mode"] != "border" or w["align_corners"]:
            raise Unsupported("only linear, border, align_corners 0 is set up here")
        y = np.empty((n_items,) + grid.shape[1:3] + (channels,), x.dtype)
        to_pixels = np.array([[width / 2, 0, (width - 1) / 2], [0, height / 2, (height - 1) / 2]])
        maps = [np.empty(grid.shape[1:], np.float32) for _ in range(n_items)]

        def remap(n, map1, map2):
            cv2.remap(x[n], map1, map2, cv2.INTER_LINEAR, dst=y[n],
                      borderMode=cv2.BORDER_REPLICATE)

        def converted(fixed):
            def run():
                for n in range(n_items):
                    remap(n, *self.pixel_maps(grid[n], to_pixels, maps[n], fixed))
            return run

        converted(False)()
        fixed_maps = [cv2.convertMaps(m, None, cv2.CV_16SC2) for m in maps]

        def remap_only(fixed):
            def run():
                for n in range(n_items):
                    remap(n, *(fixed_maps[n] if fixed else (maps[n], None)))
            return run

        def output():
            return y.copy()

        return [Case("", converted(False), output), Case("hwc", remap_only(False), output),
                Case("fixed", converted(True), output), Case("fixed-hwc", remap_only(True), output)]


class Torch:
    VARIANTS = {"": ("PyTorch", "", False)}
    MODES = {"linear": "bilinear", "nearest": "nearest", "cubic": "bicubic"}

    def __init__(self):
        import torch
        self.torch = torch
        self.version = torch.__version__
        backend = torch.__config__.parallel_info().splitlines()
        backend = next((line.split(":", 1)[1].strip() for line in backend
                        if line.startswith("ATen parallel backend")), "?")
        self.setup = ("torch.nn.functional.grid_sample under torch.inference_mode() (allocates "
                      f"Y each call), torch.set_num_threads(T), CPU, {backend}")

    def set_threads(self, threads):
        self.torch.set_num_threads(threads)

    def cases(self, w, x, grid, threads):
        torch = self.torch
        functional = torch.nn.functional
        x_t, grid_t = torch.from_numpy(x), torch.from_numpy(grid)
        options = {"mode": self.MODES[w["mode"]], "padding_mode": w["padding_mode"],
                   "align_corners": bool(w["align_corners"])}
        result = {}

        def run():
            with torch.inference_mode():
                result["y"] = functional.grid_sample(x_t, grid_t, **options)

        try:
            run()
        except (RuntimeError, NotImplementedError, ValueError) as error:
            reason = reason_of(error)
            if x.dtype != grid.dtype:
                reason = f"X is {x.dtype} and the grid {grid.dtype}: {reason}"
            raise Unsupported(reason) from error
        return [Case("", run, lambda: result["y"].numpy())]


class OpenVINO:
    VARIANTS = {"": ("OpenVINO", "", False)}
    MODES = {"linear": "bilinear", "nearest": "nearest", "cubic": "bicubic"}

    def __init__(self):
        import openvino
        self.ov = openvino
        self.core = openvino.Core()
        self.version = openvino.get_version().split("-")[0]
        self.setup = ("one opset-9 GridSample node compiled for the CPU: INFERENCE_NUM_THREADS = "
                      "T, NUM_STREAMS 1, PERFORMANCE_HINT LATENCY, INFERENCE_PRECISION_HINT f32; "
                      "inputs set once as Tensors sharing numpy's memory, InferRequest.infer "
                      "with share_outputs")

    def set_threads(self, threads):
        pass  # OpenVINO takes them per compiled model (cases)

    def cases(self, w, x, grid, threads):
        ov = self.ov
        from openvino import opset1, opset9
        try:
            data = opset1.parameter(list(x.shape), ov.Type(x.dtype), name="X")
            coords = opset1.parameter(list(grid.shape), ov.Type(grid.dtype), name="grid")
            node = opset9.grid_sample(data, coords, {
                "align_corners": bool(w["align_corners"]), "mode": self.MODES[w["mode"]],
                "padding_mode": w["padding_mode"]})
            model = ov.Model([node], [data, coords], "gridsample")
            compiled = self.core.compile_model(model, "CPU", {
                "INFERENCE_NUM_THREADS": threads, "NUM_STREAMS": 1,
                "PERFORMANCE_HINT": "LATENCY", "INFERENCE_PRECISION_HINT": "f32"})
            request = compiled.create_infer_request()
            request.set_input_tensor(0, ov.Tensor(x, shared_memory=True))
            request.set_input_tensor(1, ov.Tensor(grid, shared_memory=True))
            request.infer(share_outputs=True)
        except RuntimeError as error:
            raise Unsupported(reason_of(error, last=True)) from error

        def run():
            request.infer(share_outputs=True)

        return [Case("", run, lambda: request.get_output_tensor(0).data.copy())]


PEERS = {"ncnn": Ncnn, "opencv": OpenCV, "torch": Torch, "openvino": OpenVINO}


def main():
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n", 1)[0],
        epilog="The rest of the story is at the top of scripts/bench_peers.py.")
    parser.add_argument("--peer", required=True, choices=sorted(PEERS))
    parser.add_argument("--data", required=True, help="gridsample_workloads --write DIR")
    parser.add_argument("--threads", help="comma-separated (default: 1 and all hardware threads)")
    parser.add_argument("--out", help="report file (default: stdout)")
    parser.add_argument("--min-time", type=float, default=0.5, help="seconds per workload")
    parser.add_argument("--min-runs", type=int, default=5)
    parser.add_argument("--max-runs", type=int, default=10000)
    parser.add_argument("--warmup", type=int, default=2)
    parser.add_argument("--filter", help="keep the workloads whose id matches this regex")
    args = parser.parse_args()
    timing = {"min_time": args.min_time, "min_runs": args.min_runs, "max_runs": args.max_runs,
              "warmup": args.warmup}

    table = read_table(args.data, args.filter)
    thread_counts = ([int(t) for t in args.threads.split(",")] if args.threads
                     else sorted({1, table["hardware_threads"]}))
    load_avg = list(os.getloadavg())
    peer = PEERS[args.peer]()
    tag = f"bench_peers ({args.peer} {peer.version})"
    results = {key: [] for key in peer.VARIANTS}

    for workload in table["workloads"]:
        x = read_tensor(args.data, workload, "x")
        grid = read_tensor(args.data, workload, "grid")
        expected = read_tensor(args.data, workload, "y")
        for threads in thread_counts:
            peer.set_threads(threads)
            base = {"id": workload["id"], "num_threads": threads}
            try:
                if (workload.get("layout") == "channels-last" and
                        not getattr(peer, "CHANNELS_LAST", False)):
                    raise Unsupported(f"{peer.VARIANTS[''][0]} is set up for NCHW tensors only")
                cases = peer.cases(workload, x, grid, threads)
            except Unsupported as error:
                for key in results:
                    results[key].append({**base, "status": "n/a", "reason": str(error)})
                print(f"{tag}: {workload['id']} {threads}T: n/a: {error}", file=sys.stderr)
                continue
            for case in cases:
                name = peer.VARIANTS[case.variant][0]
                try:
                    case.run()
                    diff = max_abs_diff(case.output(), expected)
                    gc.collect()
                    gc.disable()
                    try:
                        result = time_runs(case.run, timing)
                    finally:
                        gc.enable()
                except Exception as error:  # noqa: BLE001: any failure is this cell's n/a
                    result, diff = {"status": "n/a", "reason": reason_of(error)}, None
                result["max_abs_diff"] = diff
                results[case.variant].append({**base, **result})
                print(f"{tag}: {name}: {workload['id']} {threads}T: " +
                      (f"{result['ms']:.3f} ms (median of {result['runs']}), max |dY| {diff:.2g}"
                       if result["status"] == "ok" else f"n/a: {result['reason']}"),
                      file=sys.stderr)

    reports = []
    for key, (name, variant, apart) in peer.VARIANTS.items():
        setup = (f"{peer.setup}; Python {sys.version.split()[0]}, numpy {np.__version__}"
                 if not key else peer.variant_setup[key])
        reports.append({
            "runner": args.peer, "version": peer.version, "name": name, "family": args.peer,
            "variant": variant, "apart": apart, "platform": "native",
            "setup": setup,
            "thread_counts": thread_counts, "load_avg": load_avg, "method": method_text(timing),
            "results": results[key],
        })
    text = json.dumps(reports, indent=1) + "\n"
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
