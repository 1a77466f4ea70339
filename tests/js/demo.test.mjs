// The demo page (web/) in headless Chromium (Debian's, driven by playwright-core), served by the
// real server (`node scripts/serve.mjs`, what `npm start` runs) on a free port: the page loads
// with no console errors and fetches nothing beyond the server; an image given to the file
// picker (a BMP made here) goes through every mode × padding × align_corners, as the canvas's
// RGBA bytes (channels-last, the default: Y comes back as a Uint8ClampedArray that the page's
// ImageData takes), as float32 NCHW and as uint8 NCHW, and each time the page's tensors and
// canvas pixels equal what the Node package computes from the same input; the page is
// cross-origin isolated, and both engines run on gridsample's default threads; onnxruntime-web
// agrees on float32 and says it cannot run RGBA or uint8; each warp changes the output; the
// canvas examples of README.md and docs/javascript.md run in the page as written; a dropped
// image replaces the picked one. With WebGPU on SwiftShader, the GPU switch shows and runs
// gridsample/webgpu, whose Y the page draws and which equals the Node package's (integers bit
// for bit, float32 within the GPU suites' bound), both times shown; where the browser has no
// WebGPU the switch stays hidden. A screenshot goes to test-output/demo.png. Skipped (with the
// reason) where /usr/bin/chromium is missing.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';

import { affineGrid, gridSample, init } from 'gridsample';

import {
  DATA_TYPES, imageToTensor, layoutOf, maxAbsDifference, tensorToImage,
} from '../../web/tensors.mjs';
import { WARPS, affineTheta, makeGrid, warpParams } from '../../web/warps.mjs';
import { repo } from './helpers.mjs';
import { checkCase } from './webgpu_page.mjs';

const CHROMIUM = process.env.GRIDSAMPLE_CHROMIUM || '/usr/bin/chromium';
const skip = fs.existsSync(CHROMIUM) ? false : `no Chromium at ${CHROMIUM}`;
const SERVER = path.join(repo, 'scripts', 'serve.mjs');

// An uncompressed 24-bit BMP of width × height whose pixel (x, y) is rgb(x, y); returns the
// file's bytes and the canvas pixels (RGBA) it decodes to.
function bmp(width, height, rgb) {
  const rowBytes = Math.ceil((width * 3) / 4) * 4;
  const file = Buffer.alloc(54 + rowBytes * height);
  file.write('BM', 0, 'latin1');
  file.writeUInt32LE(file.length, 2);
  file.writeUInt32LE(54, 10);  // where the pixels start
  file.writeUInt32LE(40, 14);  // BITMAPINFOHEADER
  file.writeInt32LE(width, 18);
  file.writeInt32LE(height, 22);  // positive: rows bottom-up
  file.writeUInt16LE(1, 26);
  file.writeUInt16LE(24, 28);
  file.writeUInt32LE(rowBytes * height, 34);
  const rgba = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; ++y) {
    for (let x = 0; x < width; ++x) {
      const [r, g, b] = rgb(x, y);
      const at = 54 + (height - 1 - y) * rowBytes + x * 3;
      file[at] = b;
      file[at + 1] = g;
      file[at + 2] = r;
      rgba.set([r, g, b, 255], (y * width + x) * 4);
    }
  }
  return { bytes: file, rgba, width, height };
}

// Starts `node scripts/serve.mjs` with `env` and resolves to { child, address } once it prints
// its address, or rejects with what it printed when it exits first.
function startServer(env) {
  const child = spawn(process.execPath, [SERVER], { env: { ...process.env, ...env } });
  let output = '';
  return new Promise((resolve, reject) => {
    const collect = (chunk) => {
      output += chunk;
      const match = /http:\/\/localhost:\d+\//.exec(output);
      if (match) resolve({ child, address: match[0] });
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    child.on('exit', (code) => reject(Object.assign(new Error(output), { code })));
  });
}

// GET with the path sent exactly as written (fetch would resolve '..' before sending).
function rawGet(address, requestPath) {
  return new Promise((resolve, reject) => {
    const { hostname, port } = new URL(address);
    http.get({ hostname, port, path: requestPath }, (response) => {
      response.resume();
      response.on('end', () => resolve({ status: response.statusCode,
                                         type: response.headers['content-type'] }));
    }).on('error', reject);
  });
}

describe('demo page', { skip }, () => {
  let server;
  let browser;
  let page;
  const problems = [];  // console errors, page errors, requests beyond the server

  before(async () => {
    await init({ backend: 'wasm' });  // the page's backend: the same bits
    server = await startServer({ PORT: '0' });
    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({
      executablePath: CHROMIUM, headless: true,
      args: ['--no-sandbox', '--headless', '--enable-unsafe-webgpu',
             '--use-webgpu-adapter=swiftshader'],
    });
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console: ${message.text()}`);
    });
    const origin = new URL(server.address).origin;
    page.on('request', (request) => {
      const url = request.url();
      if (!url.startsWith(`${origin}/`) && !/^(data|blob):/.test(url)) {
        problems.push(`request beyond the server: ${url}`);
      }
    });
  });
  after(async () => {
    if (browser) await browser.close();
    server?.child.kill();
  });

  // Sets the controls through the page's hook and waits for the render.
  const set = (settings) => page.evaluate((s) => window.demo.set(s), settings);
  const output = () => page.evaluate(() => window.demo.output());

  test('the server: MIME types, isolation, nothing outside its folders, PORT checked',
       async () => {
    const types = {
      '/': 'text/html; charset=utf-8', '/main.mjs': 'text/javascript',
      '/style.css': 'text/css; charset=utf-8',
      '/gridsample/index.js': 'text/javascript', '/gridsample/gridsample.wasm': 'application/wasm',
      '/ort/ort.wasm.min.mjs': 'text/javascript',
      '/ort/ort-wasm-simd-threaded.wasm': 'application/wasm',
    };
    for (const [where, type] of Object.entries(types)) {
      assert.deepEqual(await rawGet(server.address, where), { status: 200, type }, where);
    }
    for (const where of ['/../package.json', '/%2e%2e/package.json', '/gridsample/../package.json',
                         '/gridsample/..%2f..%2fpackage.json',
                         '/ort/%2e%2e%2f%2e%2e%2f..%2fpackage.json', '/..%5c..%5cpackage.json',
                         '/nothing.js', '/%E0%A4%A']) {
      const { status } = await rawGet(server.address, where);
      assert.ok(status === 404 || status === 400, `${where}: ${status}`);
    }
    // Cross-origin isolation, for the threads of both engines: every response says it.
    for (const where of ['/', '/gridsample/gridsample_thread.mjs', '/ort/ort.wasm.min.mjs']) {
      const { headers } = await fetch(new URL(where, server.address));
      assert.equal(headers.get('cross-origin-opener-policy'), 'same-origin', where);
      assert.equal(headers.get('cross-origin-embedder-policy'), 'require-corp', where);
    }
    await assert.rejects(startServer({ PORT: 'eighty' }),
                         (error) => error.code === 1 && /PORT .*got eighty/.test(error.message));
  });

  test('loads the sample pattern with both engines, no console errors', async () => {
    await page.goto(server.address);
    await page.waitForFunction(() => window.demo);
    await page.evaluate(() => window.demo.ready);
    let summary = await page.evaluate(() => window.demo.summary());
    assert.equal(summary.source, 'Sample pattern');
    // By default the canvas's RGBA bytes, which onnxruntime-web's GridSample cannot take.
    assert.equal(summary.settings.type, 'rgba');
    assert.deepEqual(summary.xDims, [1, 1024, 1024, 4]);
    assert.deepEqual(summary.yDims, [1, 1024, 1024, 4]);
    assert.ok(summary.gridsample.ms > 0, JSON.stringify(summary));
    assert.match(summary.ort.error, /NCHW/);
    fs.mkdirSync(path.join(repo, 'test-output'), { recursive: true });
    await page.screenshot({ path: path.join(repo, 'test-output', 'demo.png') });
    summary = await set({ type: 'float32' });
    assert.deepEqual(summary.xDims, [1, 3, 1024, 1024]);
    assert.deepEqual(summary.yDims, [1, 3, 1024, 1024]);
    // The server isolates the page: both engines run on gridsample's default threads.
    const threads = Math.min(4, await page.evaluate(() => navigator.hardwareConcurrency));
    assert.deepEqual(summary.threads, { gridsample: threads, ort: threads });
    assert.equal(await page.textContent('#threads'),
                 `${threads} thread${threads === 1 ? '' : 's'}`);
    assert.ok(summary.ort.ms > 0 && summary.ort.maxDiff <= 1e-5, JSON.stringify(summary));
    // Where the page has threads, gridsample is timed on 1 thread too, and the gain shown.
    if (threads > 1) {
      assert.ok(summary.gridsample.oneThread.calls > 0 && summary.gridsample.oneThread.ms > 0,
                JSON.stringify(summary));
      assert.match(await page.textContent('#gridsample-threads'),
                   new RegExp(`^on 1 thread [0-9.]+ ms \\(median of \\d+ calls?\\): up to ` +
                              `${threads} threads are [0-9.]+× as fast$`));
    }
    const shown = await page.textContent('#summary');
    assert.match(shown, /as fast here; largest \|difference\|/);
    assert.deepEqual(problems, []);
  });

  const picked = bmp(40, 30, (x, y) => [(x * 37 + y * 11) & 255, (x * y * 7 + 90) & 255,
                                         ((x ^ y) * 29) & 255]);

  test('every mode × padding × align_corners, RGBA, float32 and uint8: the page equals Node',
       async () => {
    await page.setInputFiles('#file', { name: 'picked.bmp', mimeType: 'image/bmp',
                                        buffer: picked.bytes });
    await page.waitForFunction(() => window.demo.summary().source === 'picked.bmp');
    const params = { rotate: 30, zoom: 0.7, shear: 0.2, x: 0.1, y: -0.05 };
    assert.deepEqual(DATA_TYPES, ['rgba', 'float32', 'uint8']);
    for (const type of DATA_TYPES) {
      // As a canvas gives them: the RGBA bytes in a Uint8ClampedArray.
      const rgba = new Uint8ClampedArray(picked.rgba);
      const x = imageToTensor(rgba, picked.width, picked.height, type);
      const layout = layoutOf(type);
      for (const mode of ['linear', 'nearest', 'cubic']) {
        for (const padding of ['zeros', 'border', 'reflection']) {
          for (const alignCorners of [false, true]) {
            const what = `${type} ${mode} ${padding} align_corners=${alignCorners}`;
            const summary = await set({ warp: 'affine', params, mode, padding, alignCorners,
                                        outputSize: 48, type });
            assert.equal(summary.source, 'picked.bmp');
            const shown = await output();
            const last = layout === 'channels-last';
            assert.deepEqual(shown.x, { data: Array.from(x.data),
                                        dims: last ? [1, 30, 40, 4] : [1, 3, 30, 40],
                                        type: x.type }, what);
            // The page's grid is the package's AffineGrid, within float32 rounding of theta
            // of the page's float64 model.
            const theta = Float32Array.from(affineTheta(warpParams('affine', params), 48, 36));
            const grid = affineGrid({ data: theta, dims: [1, 2, 3] }, [1, 1, 36, 48],
                                    { alignCorners }).data;
            assert.deepEqual(shown.grid, { data: Array.from(grid), dims: [1, 36, 48, 2] }, what);
            const model = makeGrid('affine', params, 48, 36, alignCorners);
            assert.ok(model.every((v, i) => Math.abs(v - grid[i]) <= 1e-6 * (1 + Math.abs(v))),
                      what);
            const expected = gridSample(x, { data: grid, dims: [1, 36, 48, 2] },
                                        { mode, paddingMode: padding, alignCorners, layout });
            assert.deepEqual(shown.y, { data: Array.from(expected.data),
                                        dims: last ? [1, 36, 48, 4] : [1, 3, 36, 48],
                                        type: x.type, array: expected.data.constructor.name },
                             what);
            const pixels = tensorToImage(expected, layout);
            assert.equal(pixels.constructor, Uint8ClampedArray, what);
            // A canvas keeps its pixels premultiplied by alpha: only opaque ones read back
            // exactly (the test image is opaque; zeros padding makes transparent pixels).
            const opaque = (array) => Array.from(array).filter((_, i) => pixels[i | 3] === 255);
            assert.deepEqual(opaque(shown.pixels), opaque(pixels), what);
            assert.ok(opaque(pixels).length >= pixels.length / 4, what);
            if (type === 'float32') {
              assert.ok(summary.ort.maxDiff <= 1e-5, `${what}: ${JSON.stringify(summary.ort)}`);
            } else {
              assert.match(summary.ort.error, /GridSample/, what);
              assert.match(await page.textContent('#ort-unavailable'), /cannot run this case/);
            }
          }
        }
      }
    }
    assert.deepEqual(problems, []);
  });

  test('the GPU switch: the page draws gridsample/webgpu\'s Y, the package\'s (integers bit for ' +
       'bit, float32 within the bound), with both times', async () => {
    await page.setInputFiles('#file', { name: 'picked.bmp', mimeType: 'image/bmp',
                                        buffer: picked.bytes });
    await page.waitForFunction(() => window.demo.summary().source === 'picked.bmp');
    await page.evaluate(() => window.demo.gpuReady);
    assert.equal(await page.isVisible('#gpu-switch'), true);
    assert.match(await page.textContent('#gpu-adapter'), /^WebGPU adapter: .*swiftshader/i);
    const params = { rotate: 30, zoom: 0.7, shear: 0.2, x: 0.1, y: -0.05 };
    const cases = [['rgba', 'linear', 'border', false], ['rgba', 'cubic', 'zeros', true],
                   ['float32', 'cubic', 'reflection', true], ['float32', 'linear', 'zeros', false],
                   ['uint8', 'nearest', 'reflection', false], ['uint8', 'cubic', 'border', true]];
    for (const [type, mode, padding, alignCorners] of cases) {
      const what = `${type} ${mode} ${padding} align_corners=${alignCorners}`;
      const summary = await set({ warp: 'affine', params, mode, padding, alignCorners,
                                  outputSize: 48, type, gpu: true });
      assert.equal(summary.gpu.on, true, what);
      assert.ok(summary.gpu.calls > 0 && summary.gpu.ms > 0, `${what}: ${JSON.stringify(summary)}`);
      const shown = await output();
      const x = imageToTensor(new Uint8ClampedArray(picked.rgba), picked.width, picked.height,
                              type);
      assert.deepEqual(shown.x.data, Array.from(x.data), what);
      const grid = { data: Float32Array.from(shown.grid.data), dims: shown.grid.dims };
      const expected = gridSample(x, grid, shown.options);
      assert.equal(shown.y.array, expected.data.constructor.name, what);
      assert.deepEqual(shown.y.dims, expected.dims, what);
      if (type === 'float32') {
        checkCase(what, mode, x, Float32Array.from(shown.y.data), expected.data);
      } else {
        assert.deepEqual(shown.y.data, Array.from(expected.data), what);
        // The canvas shows the GPU's Y (opaque pixels: a canvas premultiplies alpha).
        const pixels = tensorToImage(expected, layoutOf(type));
        const opaque = (array) => Array.from(array).filter((_, i) => pixels[i | 3] === 255);
        assert.deepEqual(opaque(shown.pixels), opaque(pixels), what);
      }
      assert.equal(summary.gpu.wasmDiff, maxAbsDifference(shown.y.data, expected.data), what);
      assert.match(await page.textContent('#gridsample-gpu'), new RegExp(
          '^on the GPU \\(.+\\) [0-9.]+ ms to the end of its work \\(median of \\d+ calls?\\), ' +
          'drawn above; WebAssembly [0-9.]+ ms: the GPU is [0-9.]+× as fast; largest ' +
          '\\|difference\\| between their outputs: '), what);
      assert.match(await page.textContent('#gridsample-time'), /^[0-9.]+ ms$/, what);
    }
    const off = await set({ gpu: false });
    assert.equal(off.gpu.on, false);
    assert.equal(await page.isHidden('#gridsample-gpu'), true);
    assert.deepEqual(problems, []);
  });

  test('without WebGPU the GPU switch stays hidden and cannot be set', async () => {
    const plain = await browser.newPage();
    try {
      await plain.addInitScript(() => {
        Object.defineProperty(Navigator.prototype, 'gpu', { get: () => undefined });
      });
      // In front: a page behind another runs no animation frames, which waitForFunction polls on.
      await plain.bringToFront();
      await plain.goto(server.address);
      await plain.waitForFunction(() => window.demo);
      await plain.evaluate(() => Promise.all([window.demo.ready, window.demo.gpuReady]));
      assert.equal(await plain.isHidden('#gpu-switch'), true);
      assert.equal((await plain.evaluate(() => window.demo.summary())).gpu.adapter, null);
      await assert.rejects(plain.evaluate(() => window.demo.set({ gpu: true })),
                           /gpu: this browser has no WebGPU adapter/);
    } finally {
      await plain.close();
      await page.bringToFront();
    }
  });

  test('each warp, and each warp parameter, changes the output', async () => {
    const base = { mode: 'linear', padding: 'border', alignCorners: false, outputSize: 48,
                   type: 'float32' };
    const seen = new Map();
    for (const [warp, { params }] of Object.entries(WARPS)) {
      await set({ ...base, warp, params: {} });  // the defaults
      const y = JSON.stringify((await output()).y.data);
      for (const [other, otherY] of seen) assert.notEqual(y, otherY, `${warp} vs ${other}`);
      seen.set(warp, y);
      for (const { name, value, max } of params) {
        await set({ ...base, warp, params: { [name]: value === max ? value / 2 : max } });
        assert.notEqual(JSON.stringify((await output()).y.data), y, `${warp}: ${name}`);
        await set({ ...base, warp, params: { [name]: value } });
      }
    }
    assert.deepEqual(problems, []);
  });

  // Each runs in a block where canvas, context, width and height exist, as its prose says.
  const canvasExamples = [
    ['docs/javascript.md', /### Warping a canvas[\s\S]*?```js\n([\s\S]*?)```/],
    ['README.md', /A canvas's pixels go in as they are[\s\S]*?```js\n([\s\S]*?)```/],
  ];
  for (const [file, pattern] of canvasExamples) {
    test(`the canvas example of ${file} runs as written, in the page`, async () => {
      const [, code] = pattern.exec(fs.readFileSync(path.join(repo, file), 'utf8'));
      const shown = await page.evaluate(async (example) => {
        const { affineGrid: grids, gridSample: sample } = await import('gridsample');
        const canvas = document.createElement('canvas');
        [canvas.width, canvas.height] = [64, 48];
        const context = canvas.getContext('2d');
        const hues = context.createLinearGradient(0, 0, 64, 48);
        hues.addColorStop(0, 'rgb(250 20 90)');
        hues.addColorStop(1, 'rgb(10 200 60)');
        context.fillStyle = hues;
        context.fillRect(0, 0, 64, 48);
        context.fillStyle = 'white';
        context.fillRect(20, 10, 9, 30);
        const input = Array.from(context.getImageData(0, 0, 64, 48).data);
        const run = new Function('canvas', 'context', 'width', 'height', 'gridSample',
                                 'affineGrid', `{\n${example}\nreturn { y, grid };\n}`);
        const { y, grid } = run(canvas, context, 64, 48, sample, grids);
        return { input, grid: Array.from(grid.data), gridDims: grid.dims, dims: y.dims,
                 array: y.data.constructor.name, y: Array.from(y.data),
                 pixels: Array.from(context.getImageData(0, 0, 64, 48).data) };
      }, code);
      assert.deepEqual(shown.dims, [1, 48, 64, 4]);
      assert.deepEqual(shown.gridDims, [1, 48, 64, 2]);
      assert.equal(shown.array, 'Uint8ClampedArray');
      const expected = gridSample(
          { data: Uint8ClampedArray.from(shown.input), dims: [1, 48, 64, 4] },
          { data: Float32Array.from(shown.grid), dims: [1, 48, 64, 2] },
          { layout: 'channels-last', paddingMode: 'border' });
      assert.deepEqual(shown.y, Array.from(expected.data));
      assert.deepEqual(shown.pixels, shown.y);  // opaque: the canvas holds Y as it is
      assert.notDeepEqual(shown.y, shown.input);
      assert.deepEqual(problems, []);
    });
  }

  test('a dropped image replaces the picked one', async () => {
    const dropped = bmp(20, 24, (x, y) => [x * 12, 255 - y * 10, (x * y) & 255]);
    await page.evaluate(async ({ bytes, name }) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([new Uint8Array(bytes)], name, { type: 'image/bmp' }));
      document.body.dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true,
                                                          cancelable: true }));
    }, { bytes: Array.from(dropped.bytes), name: 'dropped.bmp' });
    await page.waitForFunction(() => window.demo.summary().source === 'dropped.bmp');
    await set({ warp: 'swirl', params: {}, outputSize: 24, type: 'uint8' });
    const shown = await output();
    const x = imageToTensor(dropped.rgba, 20, 24, 'uint8');
    assert.deepEqual(shown.x.data, Array.from(x.data));
    const grid = { data: Float32Array.from(shown.grid.data), dims: shown.grid.dims };
    const expected = gridSample(x, grid, shown.options);
    assert.deepEqual(shown.y.data, Array.from(expected.data));
    assert.deepEqual(problems, []);
  });
});
