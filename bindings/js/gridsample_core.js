// The package's JS API over the embind module (bindings/gridsample_embind.cc), the same for
// every entry: index.js (browsers) and index.cjs (Node.js) only add how the .wasm is found and
// the threads' workers are made, and call initWith with that. Its parts, one concern each:
//
//   loader.js        init(): the memory, the instance, the threads; the runtime calls use
//   arguments.js     reading and checking each argument, with its error messages
//   call_arguments.js  each call's arguments in the order both backends check them
//   typed_arrays.js  the typed arrays of each dtype, read through the engine's own accessors
//   heap.js          the wasm heap: views, blocks, dims and spellings, the core's errors
//   limits.js        the sizes the module's link fixes
//   grid_sample.js   gridSample on WebAssembly
//   affine_grid.js   affineGrid on WebAssembly
//   native.js        both on the native backend (Node.js: the Node-API addon of bindings/node/)
//
// bindings/js/assemble.mjs bundles this file and its imports (esbuild) into dist/'s
// gridsample_core.js and gridsample_core.cjs, writing in the registries and the version.
import { affineGridWasm } from './affine_grid.js';
import { gridSampleWasm } from './grid_sample.js';
import { loadedRuntime } from './loader.js';
import { affineGridNative, gridSampleNative } from './native.js';

export { backend, initWith, moduleForTesting, numThreads } from './loader.js';

// Y = GridSample(X, grid): see index.d.ts.
export function gridSample(x, grid, options) {
  const runtime = loadedRuntime('gridSample');
  return runtime.backend === 'native' ? gridSampleNative(runtime, x, grid, options) :
      gridSampleWasm(runtime, x, grid, options);
}

// grid = AffineGrid(theta, size): see index.d.ts.
export function affineGrid(theta, size, options) {
  const runtime = loadedRuntime('affineGrid');
  return runtime.backend === 'native' ? affineGridNative(runtime, theta, size, options) :
      affineGridWasm(runtime, theta, size, options);
}

// The package's version, package.json's: bindings/js/assemble.mjs writes it in. The .wasm's C++
// was built from the same file (CMakeLists.txt reads it for gridsample/version.h).
export const version = /* @version */ '';
