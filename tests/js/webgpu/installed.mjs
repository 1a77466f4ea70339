// Run by tests/js/pack.test.mjs from the empty project it installs the packed tarball into, so
// that 'gridsample' and 'gridsample/webgpu' are the installed package: issue 36's two workloads
// on a Dawn device (the npm package `webgpu`, from the repository), each also through the
// package's wasm path, whose Y the test holds the GPU's to. Usage:
//
//   node installed.mjs WEBGPU_INDEX_JS OUT_DIR THETA_JSON
//
// writes to OUT_DIR, as raw little-endian bytes, each workload's X (volume.x.bin, image.x.bin)
// and Y of both paths (NAME.gpu.bin, NAME.wasm.bin), and prints { adapter, gpuErrors, cases:
// { NAME: { xDims, dims (Y's), type, options } } } as JSON. Dawn needs LD_LIBRARY_PATH and
// VK_ICD_FILENAMES set before Node.js starts (tests/js/webgpu_page.mjs).
//   volume  LivePortrait's warp: X 1×32×16×64×64 float32, a smooth near-identity 5-D grid
//           1×16×64×64×3, linear, zeros, align_corners false
//   image   a 1024×1024 RGBA uint8 image, channels-last, sampled on affineGrid's grid of
//           THETA_JSON (a 2×3 theta: rotate 10°, zoom 0.9) with border padding; on the GPU,
//           affineGrid runs there too
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import { affineGrid, backend, gridSample, init } from 'gridsample';
import * as gpuPath from 'gridsample/webgpu';

const [dawnIndex, outDir, thetaJson] = process.argv.slice(2);
const USAGE = { MAP_READ: 0x1, COPY_DST: 0x8, STORAGE: 0x80 };

// Seeded values in [0, 1), the same on every run.
function random(seed) {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

// The grid of a smooth warp of a D×H×W volume: each location's own normalised (x, y, z), moved
// by a few percent along slow sines, as LivePortrait's deformation fields are.
function smoothGrid(depth, height, width) {
  const grid = new Float32Array(depth * height * width * 3);
  const centre = (i, n) => (2 * i + 1) / n - 1;
  let k = 0;
  for (let d = 0; d < depth; ++d) {
    for (let h = 0; h < height; ++h) {
      for (let w = 0; w < width; ++w) {
        const [x, y, z] = [centre(w, width), centre(h, height), centre(d, depth)];
        grid[k++] = x + 0.04 * Math.sin(Math.PI * (y + z));
        grid[k++] = y + 0.03 * Math.sin(Math.PI * (x - 0.5 * z));
        grid[k++] = z + 0.05 * Math.cos(Math.PI * (x + y));
      }
    }
  }
  return grid;
}

// The wasm path first: the package's threads start before any Dawn device.
await init({ backend: 'wasm' });
if (backend() !== 'wasm') throw new Error(`init({ backend: 'wasm' }) loaded ${backend()}`);

// Dawn's instance, held by the global object until the process ends: its devices do not keep
// it alive, and once it is collected the next GPU call aborts the process. (A local of this
// module is not enough: V8 may drop it once it is no longer read.)
const { create } = await import(pathToFileURL(dawnIndex).href);
globalThis.dawnInstance = create([]);
const adapter = await globalThis.dawnInstance.requestAdapter();
if (!adapter) throw new Error('no WebGPU adapter through Dawn');
const device = await adapter.requestDevice();
const gpuErrors = [];
device.addEventListener('uncapturederror', (event) => gpuErrors.push(event.error.message));

const upload = (view) => {
  const buffer = device.createBuffer({ size: Math.ceil(view.byteLength / 4) * 4,
                                       usage: USAGE.STORAGE | USAGE.COPY_DST });
  device.queue.writeBuffer(buffer, 0, view.buffer, view.byteOffset, view.byteLength);
  return buffer;
};
const download = async (buffer, byteLength) => {
  const read = device.createBuffer({ size: buffer.size, usage: USAGE.MAP_READ | USAGE.COPY_DST });
  const encoder = device.createCommandEncoder();
  encoder.copyBufferToBuffer(buffer, 0, read, 0, buffer.size);
  device.queue.submit([encoder.finish()]);
  await read.mapAsync(USAGE.MAP_READ);
  const bytes = new Uint8Array(read.getMappedRange().slice(0, byteLength));
  read.destroy();
  return bytes;
};
const bytesOf = (view) => new Uint8Array(view.buffer, view.byteOffset, view.byteLength);

const checkDims = (name, gpuY, wasmY) => {
  if (JSON.stringify([gpuY.dims, gpuY.type]) !== JSON.stringify([wasmY.dims, wasmY.type])) {
    throw new Error(`${name}: the GPU's Y is ${gpuY.type} [${gpuY.dims}], the wasm path's ` +
                    `${wasmY.type} [${wasmY.dims}]`);
  }
};
const cases = {};
const write = (name, x, { gpuY, wasmY }, options) => {
  fs.writeFileSync(path.join(outDir, `${name}.x.bin`), bytesOf(x.data));
  fs.writeFileSync(path.join(outDir, `${name}.gpu.bin`), gpuY);
  fs.writeFileSync(path.join(outDir, `${name}.wasm.bin`), bytesOf(wasmY.data));
  cases[name] = { xDims: x.dims, dims: wasmY.dims, type: wasmY.type, options };
};

{
  const next = random(36);
  const x = { data: Float32Array.from({ length: 32 * 16 * 64 * 64 }, () => 2 * next() - 1),
              dims: [1, 32, 16, 64, 64], type: 'float32' };
  const grid = { data: smoothGrid(16, 64, 64), dims: [1, 16, 64, 64, 3], type: 'float32' };
  const options = { mode: 'linear', paddingMode: 'zeros', alignCorners: false };
  const wasmY = gridSample(x, grid, options);
  const y = gpuPath.gridSample({ ...x, buffer: upload(x.data) },
                               { ...grid, buffer: upload(grid.data) }, { device, ...options });
  checkDims('volume', y, wasmY);
  write('volume', x, { gpuY: await download(y.buffer, wasmY.data.byteLength), wasmY }, options);
}

{
  const next = random(10);
  // Gradients with noise over them, so that neighbouring pixels differ and tiles repeat nowhere.
  const data = new Uint8Array(1024 * 1024 * 4);
  for (let i = 0; i < data.length; ++i) {
    const pixel = i >> 2;
    const [px, py] = [pixel % 1024, pixel >> 10];
    data[i] = ([px, py, px ^ py, 255 - px][i & 3] >> 2) + Math.floor(next() * 192);
  }
  const x = { data, dims: [1, 1024, 1024, 4], type: 'uint8' };
  const theta = { data: Float32Array.from(JSON.parse(thetaJson)), dims: [1, 2, 3],
                  type: 'float32' };
  const size = [1, 4, 1024, 1024];
  const options = { mode: 'linear', paddingMode: 'border', alignCorners: false,
                    layout: 'channels-last' };
  const { alignCorners } = options;
  const wasmY = gridSample(x, affineGrid(theta, size, { alignCorners }), options);
  const grid = gpuPath.affineGrid({ ...theta, buffer: upload(theta.data) }, size,
                                  { device, alignCorners });
  const y = gpuPath.gridSample({ ...x, buffer: upload(x.data) }, grid, { device, ...options });
  checkDims('image', y, wasmY);
  write('image', x, { gpuY: await download(y.buffer, wasmY.data.byteLength), wasmY }, options);
}

const { vendor, architecture, device: name, description } = adapter.info ?? {};
console.log(JSON.stringify({ adapter: { vendor, architecture, device: name, description },
                             gpuErrors, cases }));
