// The browser side of the WebGPU suites (webgpu*.test.mjs): headless Chromium with WebGPU on
// SwiftShader, the page tests/js/webgpu/ on localhost over the package's dist/, and the
// tensors' way there and back. No adapter is a failure, not a skip.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

import { serve } from '../../scripts/serve.mjs';
import { ARRAY_OF, distDir, repo } from './helpers.mjs';

const CHROMIUM = process.env.GRIDSAMPLE_CHROMIUM || '/usr/bin/chromium';

// The page, once its harness has a device: { inPage(name, ...args), sampleOnGpu(cases),
// gpuErrors() (the device's uncaptured errors so far), close() }.
export async function openPage() {
  assert.ok(fs.existsSync(CHROMIUM), `no Chromium at ${CHROMIUM}`);
  const { server } = await serve({
    '/gridsample/': distDir,
    '/ort-common/': path.join(repo, 'node_modules', 'onnxruntime-common', 'dist', 'esm'),
    '/': path.join(repo, 'tests', 'js', 'webgpu'),
  }, {});
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({
    executablePath: CHROMIUM, headless: true,
    args: ['--no-sandbox', '--headless', '--enable-unsafe-webgpu',
           '--use-webgpu-adapter=swiftshader'],
  });
  const page = await browser.newPage();
  await page.goto(`http://localhost:${server.address().port}/index.html`);
  const started = await page.evaluate(async () => {
    const harness = await window.harness;
    return harness.error ?? 'ok';
  });
  assert.equal(started, 'ok', 'a WebGPU device in Chromium');

  // The page's harness method `name` with `args`.
  const inPage = (name, ...args) =>
    page.evaluate(async ([method, params]) => (await window.harness)[method](...params),
                  [name, args]);
  return {
    inPage,
    // Y of each case { x, grid (tensors { data, dims, type? } as the CPU API takes them),
    // options, out? } on the GPU: [{ dims, type, data (in the CPU API's array of the type) }],
    // and with `out` (a byte count), Y written into a buffer of that many bytes, all returned
    // as `bytes`.
    async sampleOnGpu(cases) {
      const results = await inPage('sample', cases.map(({ x, grid, options, out }) => ({
        x: pageTensor(x), grid: pageTensor(grid), options, out,
        elementBytes: ARRAY_OF[typeOf(x)].BYTES_PER_ELEMENT,
      })));
      return results.map(({ dims, type, bytes }) => {
        const raw = Uint8Array.from(bytes);
        const Array_ = ARRAY_OF[type];
        const whole = raw.length - (raw.length % Array_.BYTES_PER_ELEMENT);
        return { dims, type, bytes: raw, data: new Array_(raw.buffer.slice(0, whole)) };
      });
    },
    gpuErrors: () => page.evaluate(async () => (await window.harness).gpuErrors),
    async close() {
      await browser.close();
      server.close();
    },
  };
}

const typeOf = (tensor) => tensor.type ?? 'float32';

// A tensor as the page takes it: its elements' bytes as a plain array (typed arrays would
// cross as objects), and its type.
function pageTensor(tensor) {
  const data = ArrayBuffer.isView(tensor.data) ? tensor.data :
      ARRAY_OF[typeOf(tensor)].from(tensor.data);
  return { bytes: Array.from(new Uint8Array(data.buffer, data.byteOffset, data.byteLength)),
           dims: tensor.dims, type: typeOf(tensor) };
}
