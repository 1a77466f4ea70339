// A one-node ONNX model, GridSample(X, grid) → Y, written as protobuf bytes in the page, so the
// demo needs no model files and no protobuf library: onnxruntime-web loads the bytes as they are.
// Only the few fields of onnx.proto such a model needs are written (field numbers from
// onnx/onnx.proto3). The dims are named (dim_param), so one session runs every image size.

// Protobuf wire types.
const VARINT = 0;
const LENGTH_DELIMITED = 2;

// onnx.TensorProto.DataType and onnx.AttributeProto.AttributeType values.
const ELEMENT_TYPES = { float32: 1, uint8: 2 };
const ATTRIBUTE_INT = 2;
const ATTRIBUTE_STRING = 3;

const IR_VERSION = 10;  // the lowest IR version with opset 22

const encoder = new TextEncoder();

function varint(value) {
  const bytes = [];
  let v = BigInt(value);
  do {
    let byte = Number(v & 0x7fn);
    v >>= 7n;
    if (v !== 0n) byte |= 0x80;
    bytes.push(byte);
  } while (v !== 0n);
  return bytes;
}

// A message is an array of byte arrays; these helpers append one field each.
function intField(field, value) {
  return [...varint((field << 3) | VARINT), ...varint(value)];
}
function bytesField(field, bytes) {
  return [...varint((field << 3) | LENGTH_DELIMITED), ...varint(bytes.length), ...bytes];
}
function stringField(field, text) {
  return bytesField(field, [...encoder.encode(text)]);
}

// ValueInfoProto { name, type: TypeProto { tensor_type {
//   elem_type, shape: TensorShapeProto { dim { dim_param } } } } }
function tensorInfo(name, elementType, dimNames) {
  const shape = dimNames.flatMap((dim) => bytesField(1, stringField(2, dim)));
  const tensorType = [...intField(1, elementType), ...bytesField(2, shape)];
  return [...stringField(1, name), ...bytesField(2, bytesField(1, tensorType))];
}

/**
 * The model's bytes: one GridSample node of the default domain at `opset` (20 or 22, whose
 * modes are linear, nearest and cubic; or 16 to 19, whose modes are opset 16's bilinear, nearest
 * and bicubic, as scripts/bench_webgpu.mjs takes it), X of `type` ('float32' or 'uint8', whether
 * or not a runtime has a kernel for it), a float32 grid, 4-D tensors of any size.
 * `mode`, `paddingMode` and `alignCorners` are the node's attributes.
 */
export function gridSampleModel({ type = 'float32', mode = 'linear', paddingMode = 'zeros',
                                  alignCorners = false, opset = 22 } = {}) {
  const elementType = ELEMENT_TYPES[type];
  if (elementType === undefined) {
    throw new RangeError(`gridSampleModel: type must be one of ${Object.keys(ELEMENT_TYPES)}, ` +
                         `got ${JSON.stringify(type)}`);
  }
  const attribute = (name, fields) => bytesField(5, [...stringField(1, name), ...fields]);
  const node = [
    ...stringField(1, 'X'), ...stringField(1, 'grid'), ...stringField(2, 'Y'),
    ...stringField(3, 'gridsample'), ...stringField(4, 'GridSample'),
    ...attribute('mode', [...bytesField(4, [...encoder.encode(mode)]),
                          ...intField(20, ATTRIBUTE_STRING)]),
    ...attribute('padding_mode', [...bytesField(4, [...encoder.encode(paddingMode)]),
                                  ...intField(20, ATTRIBUTE_STRING)]),
    ...attribute('align_corners', [...intField(3, alignCorners ? 1 : 0),
                                   ...intField(20, ATTRIBUTE_INT)]),
  ];
  const graph = [
    ...bytesField(1, node),
    ...stringField(2, 'gridsample_demo'),
    ...bytesField(11, tensorInfo('X', elementType, ['N', 'C', 'H_in', 'W_in'])),
    ...bytesField(11, tensorInfo('grid', ELEMENT_TYPES.float32, ['N', 'H_out', 'W_out', 'two'])),
    ...bytesField(12, tensorInfo('Y', elementType, ['N', 'C', 'H_out', 'W_out'])),
  ];
  const model = [
    ...intField(1, IR_VERSION),
    ...stringField(2, 'gridsample web demo'),
    ...bytesField(7, graph),
    ...bytesField(8, intField(2, opset)),  // OperatorSetIdProto { version }, default domain
  ];
  return Uint8Array.from(model);
}
