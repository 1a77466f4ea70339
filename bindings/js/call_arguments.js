// The reading of each call's arguments, shared by both backends (grid_sample.js and
// affine_grid.js on WebAssembly, native.js on Node-API): the same checks in the same order, so
// that a bad call fails alike on both. The checks of single arguments are arguments.js's.
import {
  checkStillUsable, readAffineOptions, readOptions, readSize, readTensor, shapeText,
} from './arguments.js';

// Reads and checks gridSample's arguments, in the order both backends share: { xt, gt, mode,
// paddingMode, alignCorners, layout, out, threads } (readTensor's and readOptions' values).
// `runtime`: the loaded backend's { types, threads }.
export function readSampleCall(runtime, x, grid, options) {
  const xt = readTensor('x', x, runtime.types);
  const gt = readTensor('grid', grid, runtime.types);
  const read = readOptions(options, runtime.threads);
  // From here on, no code of the caller's runs; what ran while the arguments were read may
  // have detached or shrunk a buffer read before.
  checkStillUsable('x.data', xt);
  checkStillUsable('grid.data', gt);
  checkStillUsable('options.out', read.out);
  checkGridType(gt);
  return { xt, gt, ...read };
}

// Reads and checks affineGrid's arguments: { tt, sizeValues, alignCorners }.
export function readAffineCall(runtime, theta, size, options) {
  const tt = readTensor('theta', theta, runtime.types);
  const sizeValues = readSize(size);
  const { alignCorners } = readAffineOptions(options);
  checkStillUsable('theta.data', tt);  // (as in readSampleCall)
  checkThetaType(tt);
  return { tt, sizeValues, alignCorners };
}

// gridSample's grid type, which the core would refuse with a less direct message.
export function checkGridType(gt) {
  if (gt.info.name === 'string') {
    throw new TypeError('gridsample: grid.type: a grid holds coordinates, not strings (expected ' +
                        'a floating-point type)');
  }
}

// Strings come back in new arrays only.
export function checkStringOutput(out) {
  if (out !== undefined) {
    throw new TypeError('gridsample: options.out cannot hold strings (string outputs are new ' +
                        'arrays)');
  }
}

// options.out (readOptions' view of it) against Y: yCount numbers of X's type.
export function checkOut(out, xt, yCount, yDims) {
  if (!xt.info.arrays.includes(out.array)) {
    throw new TypeError(
        `gridsample: options.out: a ${out.array} cannot hold ${xt.info.name} (expected ` +
        `${xt.info.arrays.join(' or ')})`);
  }
  if (out.length !== yCount) {
    throw new RangeError(`gridsample: options.out has ${out.length} elements, but the output ` +
                         `${shapeText(yDims)} of ${xt.info.name} needs ${yCount}`);
  }
}

// affineGrid's theta type, which the core would refuse with a less direct message.
export function checkThetaType(tt) {
  if (tt.info.name === 'string') {
    throw new TypeError('gridsample: theta.type: theta holds affine matrices, not strings ' +
                        '(expected a floating-point type)');
  }
}
