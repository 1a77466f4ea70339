// The package's JS API over the embind module (bindings/gridsample_embind.cc), the same for
// every entry: index.js (browsers) and index.cjs (Node.js) only add how the .wasm is found and
// the threads' workers are made, and call initWith with that. Its parts, one concern each:
//
//   loader.js        init(): the memory, the instance, the threads; the runtime calls use
//   arguments.js     reading and checking the calls' arguments, with their error messages
//   typed_arrays.js  the typed arrays of each dtype, read through the engine's own accessors
//   heap.js          the wasm heap: views, blocks, dims and spellings, the core's errors
//   limits.js        the sizes the module's link fixes
//   grid_sample.js   gridSample
//   affine_grid.js   affineGrid
//
// bindings/js/assemble.mjs bundles this file and its imports (esbuild) into dist/'s
// gridsample_core.js and gridsample_core.cjs, writing in the registries and the version.
export { affineGrid } from './affine_grid.js';
export { gridSample } from './grid_sample.js';
export { initWith, moduleForTesting, numThreads } from './loader.js';

// The package's version, package.json's: bindings/js/assemble.mjs writes it in. The .wasm's C++
// was built from the same file (CMakeLists.txt reads it for gridsample/version.h).
export const version = /* @version */ '';
