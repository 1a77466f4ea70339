#!/usr/bin/env python3
"""Writes the ONNX models the onnxruntime side of the benchmark runs: one GridSample node per
workload, with inputs X and grid and output Y of the workload's fixed shapes and types.

The workloads are not restated here: they come from the JSON that the C++ table prints
(`gridsample_workloads --json`, built from tests/bench/workloads.h).

    build/bench/tests/bench/gridsample_workloads --json | python3 scripts/gen_bench_models.py -

A model is written for every channels-first workload (ONNX has no other layout), including
those onnxruntime may lack a kernel for (uint8 or float16 X, cubic on 5-D X): ONNX defines them
all, and scripts/bench_ort.mjs finds out
at run time which ones the installed onnxruntime can run, and reports the others as n/a with
its reason. Next to the models, manifest.json records what each was made from, so that
bench_ort.mjs refuses models that no longer match the table.

Needs the `onnx` Python package (pip install onnx). Output is deterministic: running it again
on the same table rewrites the same bytes.
"""

import argparse
import json
import os
import sys

import onnx
from onnx import TensorProto, helper

OPSET = 22
IR_VERSION = 10  # the lowest IR version with opset 22: readable by every onnxruntime since 1.20

ELEMENT_TYPES = {
    "float32": TensorProto.FLOAT,
    "float64": TensorProto.DOUBLE,
    "float16": TensorProto.FLOAT16,
    "bfloat16": TensorProto.BFLOAT16,
    "int8": TensorProto.INT8,
    "int16": TensorProto.INT16,
    "int32": TensorProto.INT32,
    "int64": TensorProto.INT64,
    "uint8": TensorProto.UINT8,
    "uint16": TensorProto.UINT16,
    "uint32": TensorProto.UINT32,
    "uint64": TensorProto.UINT64,
    "bool": TensorProto.BOOL,
}

# The fields of a workload that go into its model; bench_ort.mjs compares exactly these.
MODEL_FIELDS = ("x", "grid", "y", "mode", "padding_mode", "align_corners")


def model_spec(workload):
    """The part of a workload its model depends on (not the grid generator or the text)."""
    spec = {key: workload[key] for key in MODEL_FIELDS}
    spec["x"] = {"dtype": workload["x"]["dtype"], "shape": workload["x"]["shape"]}
    spec["grid"] = {"dtype": workload["grid"]["dtype"], "shape": workload["grid"]["shape"]}
    spec["y"] = {"dtype": workload["y"]["dtype"], "shape": workload["y"]["shape"]}
    return spec


def make_model(workload):
    spec = model_spec(workload)
    node = helper.make_node(
        "GridSample",
        inputs=["X", "grid"],
        outputs=["Y"],
        mode=spec["mode"],
        padding_mode=spec["padding_mode"],
        align_corners=int(spec["align_corners"]),
    )
    graph = helper.make_graph(
        [node],
        "gridsample_" + workload["id"],
        [
            helper.make_tensor_value_info(
                "X", ELEMENT_TYPES[spec["x"]["dtype"]], spec["x"]["shape"]),
            helper.make_tensor_value_info(
                "grid", ELEMENT_TYPES[spec["grid"]["dtype"]], spec["grid"]["shape"]),
        ],
        [helper.make_tensor_value_info(
            "Y", ELEMENT_TYPES[spec["y"]["dtype"]], spec["y"]["shape"])],
    )
    model = helper.make_model(
        graph,
        opset_imports=[helper.make_opsetid("", OPSET)],
        producer_name="gridsample scripts/gen_bench_models.py",
        doc_string=workload["id"] + ": " + workload["description"],
    )
    model.ir_version = IR_VERSION
    onnx.checker.check_model(model, full_check=True)
    return model


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "workloads", help="JSON printed by `gridsample_workloads --json` (- for stdin)")
    parser.add_argument(
        "--out", default=os.path.join(here, "..", "tests", "bench", "models"),
        help="folder for the models and manifest.json (default: tests/bench/models)")
    args = parser.parse_args()

    if args.workloads == "-":
        table = json.load(sys.stdin)
    else:
        with open(args.workloads, encoding="utf-8") as f:
            table = json.load(f)
    os.makedirs(args.out, exist_ok=True)
    models = {}
    for workload in table["workloads"]:
        if workload.get("layout") == "channels-last":
            continue  # ONNX's GridSample takes channels-first tensors only
        name = workload["id"] + ".onnx"
        model = make_model(workload)
        with open(os.path.join(args.out, name), "wb") as f:
            f.write(model.SerializeToString(deterministic=True))
        models[workload["id"]] = {"file": name, **model_spec(workload)}
        print(f"{name}: {workload['description']}")
    # One line per model, so that a change of the table shows as a one-line diff.
    entries = [f"  {json.dumps(key)}: {json.dumps(value)}" for key, value in models.items()]
    with open(os.path.join(args.out, "manifest.json"), "w", encoding="utf-8") as f:
        f.write(f'{{"opset": {OPSET}, "ir_version": {IR_VERSION}, "models": {{\n')
        f.write(",\n".join(entries) + "\n}}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
