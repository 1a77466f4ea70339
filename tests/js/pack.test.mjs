// `npm pack` (its prepack step builds dist/) gives a tarball of only what users need, whose
// package.json names only files it holds and is publishable (no "private"; `npm publish
// --dry-run` of the tarball passes); installed into an empty project, `import` (ES module) and
// `require` (CommonJS) both compute the spec's first example and export package.json's
// `version`, `gridsample/webgpu` in Node.js through Dawn returns what the wasm path returns on
// a 5-D volume and an RGBA image (tests/js/webgpu/installed.mjs), and TypeScript (node16
// resolution, through the exports map) finds the declarations from an ES module and from a
// CommonJS module and holds users to the API.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { promisify } from 'node:util';

import { affineTheta } from '../../web/warps.mjs';
import { closeTo, repo, specExample } from './helpers.mjs';
import { checkCase } from './webgpu_page.mjs';

const run = promisify(execFile);
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
let scratch;
let tarball;
let packed;
let app;  // the empty project the tarball is installed into (by the install test)
// The repository's package.json, which `npm pack` packed.
const manifest = JSON.parse(fs.readFileSync(path.join(repo, 'package.json'), 'utf8'));
// The platforms the package has a prebuilt Node.js addon for (scripts/build_addon.sh): prepack
// builds this machine's and cross-builds linux-arm64's, on a Linux machine of either.
const platform = `${process.platform}-${process.arch}`;
const ADDON_PLATFORMS = ['linux-x64', 'linux-arm64'];
const addonPlatforms = ADDON_PLATFORMS.includes(platform) ?
    [...new Set([platform, 'linux-arm64'])] : [];
const addonFiles = addonPlatforms.flatMap(
    (p) => [`dist/native/${p}/gridsample.node`, `dist/native/${p}/libhwy.so.1`]);

before(async () => {
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'gridsample-pack-'));
  // scripts/test.sh has just run the bootstrap; prepack still rebuilds (incrementally).
  const { stdout } = await run(npm, ['pack', '--json', '--pack-destination', scratch],
                               { cwd: repo, env: { ...process.env, SKIP_BOOTSTRAP: '1' },
                                 maxBuffer: 1 << 24, timeout: 600000 });
  [packed] = JSON.parse(stdout);
  tarball = path.join(scratch, packed.filename);
});
after(() => fs.rmSync(scratch, { recursive: true, force: true }));

test('the tarball holds dist/, README.md, CHANGELOG.md, LICENSE and package.json only', () => {
  assert.equal(packed.filename, `gridsample-${packed.version}.tgz`);
  assert.equal(packed.version, manifest.version);
  assert.ok(fs.existsSync(tarball));
  const files = packed.files.map((f) => f.path).sort();
  assert.deepEqual(files, [
    'CHANGELOG.md', 'LICENSE', 'README.md', 'dist/gridsample.wasm', 'dist/gridsample_core.cjs',
    'dist/gridsample_core.js', 'dist/gridsample_glue.cjs', 'dist/gridsample_glue.mjs',
    'dist/gridsample_thread.cjs', 'dist/gridsample_thread.mjs', 'dist/index.cjs',
    'dist/index.d.cts', 'dist/index.d.ts', 'dist/index.js', 'dist/index.node.js',
    'dist/webgpu.cjs', 'dist/webgpu.d.cts', 'dist/webgpu.d.ts', 'dist/webgpu.js',
    ...addonFiles, 'package.json',
  ].sort());
});

test('package.json is publishable and every file it names is in the tarball', async () => {
  // npm's own refusal of "private" (EPRIVATE) happens only in a real publish, past --dry-run:
  // checked here, in the repository's package.json and in the one the tarball holds.
  const { stdout: packedJson } = await run('tar', ['-xzOf', tarball, 'package/package.json']);
  const published = JSON.parse(packedJson);
  for (const [which, json] of [['package.json', manifest], ['the tarball', published]]) {
    assert.ok(!('private' in json), `${which}: "private" keeps npm publish from publishing`);
  }
  assert.equal(published.version, manifest.version);
  for (const field of ['description', 'license', 'types']) {
    assert.equal(typeof published[field], 'string', field);
  }
  assert.ok(published.keywords.length > 0);
  assert.equal(typeof published.engines.node, 'string');
  // main, module, browser, types and every target of the exports map.
  const targets = (value) => (typeof value === 'string' ? [value] :
      Object.values(value).flatMap(targets));
  const named = [published.main, published.module, published.browser, published.types,
                 ...targets(published.exports)];
  const files = new Set(packed.files.map((f) => `./${f.path}`));
  for (const file of named) assert.ok(files.has(file), `package.json names ${file}`);

  // The dry run of publishing this very tarball: offline and to a registry that is not there,
  // so it needs no login and can publish nothing.
  const { stdout } = await run(npm, ['publish', '--dry-run', '--json', '--offline',
                                     '--registry=http://127.0.0.1:9/', tarball],
                               { cwd: scratch, timeout: 120000 });
  const report = JSON.parse(stdout);
  const dry = report[published.name] ?? report;  // npm 11 keys the report by name
  assert.equal(dry.id, `gridsample@${manifest.version}`);
  assert.equal(dry.integrity, packed.integrity);
  assert.deepEqual(dry.files.map((f) => f.path).sort(), packed.files.map((f) => f.path).sort());
});

test('installed in an empty project: import and require compute the spec example and ' +
     "export package.json's version", async () => {
  app = path.join(scratch, 'app');
  fs.mkdirSync(app);
  fs.writeFileSync(path.join(app, 'package.json'),
                   JSON.stringify({ name: 'app', version: '1.0.0', private: true }));
  await run(npm, ['install', '--offline', '--no-audit', '--no-fund', tarball],
            { cwd: app, timeout: 300000 });
  const installed = path.join(app, 'node_modules', 'gridsample');
  assert.ok(fs.existsSync(path.join(installed, 'dist', 'gridsample.wasm')));
  assert.ok(fs.existsSync(path.join(installed, 'dist', 'index.d.ts')));

  const compute = `
    const steps = [-1, -0.6, -0.2, 0.2, 0.6, 1];
    const g = []; for (const y of steps) for (const x of steps) g.push(x, y);
    const run = (gs) => gs.init({ backend: process.argv[2] }).then(() => {
      const x = Float32Array.from({ length: 16 }, (_, i) => i);
      const y = gs.gridSample({ data: x, dims: [1, 1, 4, 4] },
                              { data: new Float32Array(g), dims: [1, 6, 6, 2] });
      console.log(JSON.stringify({ version: gs.version, backend: gs.backend(), dims: y.dims,
                                   type: y.type, data: Array.from(y.data) }));
    });`;
  fs.writeFileSync(path.join(app, 'esm.mjs'),
                   `import * as gs from 'gridsample';\n${compute}\nawait run(gs);\n`);
  fs.writeFileSync(path.join(app, 'cjs.cjs'),
                   `const gs = require('gridsample');\n${compute}\nrun(gs);\n`);
  const { y, yDims } = specExample();
  // Each backend asked for, and the default (native where the package has an addon).
  const hasAddon = addonPlatforms.includes(platform);
  const backends = hasAddon ? ['wasm', 'native', undefined] : ['wasm', undefined];
  const runs = ['esm.mjs', 'cjs.cjs'].flatMap((script) => backends.map((b) => [script, b]));
  for (const [script, backend] of runs) {
    const { stdout } = await run(process.execPath, [script, ...(backend ? [backend] : [])],
                                 { cwd: app, timeout: 60000 });
    const result = JSON.parse(stdout);
    assert.equal(result.backend, backend ?? (hasAddon ? 'native' : 'wasm'), script);
    assert.equal(result.version, manifest.version, script);
    assert.deepEqual(result.dims, yDims, script);
    assert.equal(result.type, 'float32', script);
    assert.ok(closeTo(result.data, y), `${script}: ${result.data}`);
  }
});

test('installed: the vector and hostile-input suites pass on its default backend',
     async (t) => {
  if (!app) return t.skip('the install test did not run');
  // The suites, run from the project: `import 'gridsample'` there is the installed package.
  const suites = path.join(app, 'tests', 'js');
  fs.mkdirSync(suites, { recursive: true });
  const files = ['helpers.mjs', 'vectors.test.mjs', 'hostile.test.mjs'];
  for (const file of files) {
    fs.copyFileSync(path.join(repo, 'tests', 'js', file), path.join(suites, file));
  }
  fs.symlinkSync(path.join(repo, 'tests', 'data'), path.join(app, 'tests', 'data'));
  const backend = addonPlatforms.includes(platform) ? 'native' : 'wasm';
  const tests = files.slice(1).map((file) => path.join(suites, file));
  const { stdout } = await run(process.execPath, ['--test', '--test-reporter=tap', ...tests], {
    cwd: app, timeout: 600000, maxBuffer: 1 << 26,
    // Without the runner's own NODE_TEST_CONTEXT, which would make the suites' runner report
    // to this one's in its wire format.
    env: { ...process.env, NODE_TEST_CONTEXT: undefined, GRIDSAMPLE_TEST_BACKEND: backend },
  });
  const count = (what) => Number(new RegExp(`^# ${what} (\\d+)$`, 'm').exec(stdout)?.[1]);
  assert.equal(count('fail'), 0);
  assert.ok(count('pass') > 100, `${count('pass')} passed`);
});

test('installed, in Node.js through Dawn: gridsample/webgpu takes a LivePortrait volume and an ' +
     'RGBA image in GPUBuffers and returns what its wasm path returns', async (t) => {
  if (!app) return t.skip('the install test did not run');
  // The two workloads run in a process of the project's own (tests/js/webgpu/installed.mjs),
  // on Dawn from the repository's devDependency `webgpu` and SwiftShader from Debian's chromium,
  // which the loader takes only from the environment Node.js starts with.
  const script = path.join(app, 'webgpu_installed.mjs');
  fs.copyFileSync(path.join(repo, 'tests', 'js', 'webgpu', 'installed.mjs'), script);
  const outDir = fs.mkdtempSync(path.join(scratch, 'webgpu-'));
  const icd = process.env.VK_ICD_FILENAMES ?? '/usr/lib/chromium/vk_swiftshader_icd.json';
  assert.ok(fs.existsSync(icd), `no Vulkan driver for Dawn at ${icd} (the chromium package's)`);
  const theta = affineTheta({ rotate: 10, zoom: 0.9, shear: 0, x: 0, y: 0 }, 1024, 1024);
  const { stdout } = await run(process.execPath, [
    script, path.join(repo, 'node_modules', 'webgpu', 'index.js'), outDir, JSON.stringify(theta),
  ], {
    cwd: app, timeout: 600000, maxBuffer: 1 << 20,
    env: { ...process.env, VK_ICD_FILENAMES: icd,
           LD_LIBRARY_PATH: process.env.LD_LIBRARY_PATH ?? '/usr/lib/chromium' },
  });
  const { adapter, gpuErrors, cases } = JSON.parse(stdout);
  assert.deepEqual(gpuErrors, []);
  // A file's elements, in a buffer of their own (a Buffer's offset may not be aligned).
  const read = (name, Array_) => new Array_(
      Uint8Array.from(fs.readFileSync(path.join(outDir, name))).buffer);

  const volume = cases.volume;
  assert.deepEqual([volume.dims, volume.type], [[1, 32, 16, 64, 64], 'float32']);
  const x = { data: read('volume.x.bin', Float32Array), dims: volume.xDims, type: 'float32' };
  const wasmY = read('volume.wasm.bin', Float32Array);
  const gpuY = read('volume.gpu.bin', Float32Array);
  assert.equal(gpuY.length, 32 * 16 * 64 * 64);
  const worst = checkCase('volume', volume.options.mode, x, gpuY, wasmY);
  // Near the identity Y is X's values blended, not padding: a Y of zeros would fail here.
  assert.ok(wasmY.filter((v) => Math.abs(v) > 1e-3).length > 0.9 * wasmY.length);

  const image = cases.image;
  assert.deepEqual([image.dims, image.type, image.options.layout],
                   [[1, 1024, 1024, 4], 'uint8', 'channels-last']);
  const imageX = read('image.x.bin', Uint8Array);
  const imageY = read('image.wasm.bin', Uint8Array);
  assert.equal(imageY.length, 1024 * 1024 * 4);
  assert.ok(Buffer.compare(read('image.gpu.bin', Uint8Array), imageY) === 0,
            "the GPU's RGBA bytes are the wasm path's");
  // Rotated and zoomed: most bytes moved, so that an X copied through would fail.
  assert.ok(imageY.filter((v, i) => v !== imageX[i]).length > 0.9 * imageY.length);
  t.diagnostic(`${adapter.vendor} ${adapter.architecture} ${adapter.description}: the volume ` +
               `within ${worst.toPrecision(2)} of the float32 bound, the image bit for bit`);
});

test('TypeScript: the declarations resolve for import and require and type the API', async (t) => {
  if (!app) return t.skip('the install test did not run');
  const use = (load) => `${load}
    const steps: number[] = [-1, -0.6, -0.2, 0.2, 0.6, 1];
    async function main(): Promise<void> {
      await init({ locateFile: (file: string) => file });
      await init({ wasmBinary: new Uint8Array(0), numThreads: 2 });
      const threads: number = numThreads();
      await init({ backend: 'native' });
      const where: 'native' | 'wasm' | null = backend();
      const release: string = version;
      const x: TensorLike = { data: new Float32Array(16), dims: [1, 1, 4, 4] };
      const grid: TensorLike = { data: new Float32Array(72), dims: [1, 6, 6, 2], type: 'float32' };
      const options: GridSampleOptions =
          { mode: 'bicubic', paddingMode: 'border', alignCorners: 1 };
      const y = gridSample(x, grid, options);
      const dims: number[] = y.dims;
      const type: DataType = y.type;
      const data: ArrayBufferView | string[] = y.data;
      gridSample({ data: ['a'], dims: [1, 1, 1] }, grid, { mode: 'nearest' });
      const names: readonly string[] = ['a'];
      gridSample({ data: names, dims: [1, 1, 1] }, grid, { mode: 'nearest' });
      gridSample(x, grid, { out: new Float32Array(36), numThreads: 1 });
      // @ts-expect-error: numThreads is a number
      gridSample(x, grid, { numThreads: '2' });
      // @ts-expect-error: not an option (the ONNX attribute's spelling)
      gridSample(x, grid, { padding_mode: 'border' });
      // @ts-expect-error: not a mode
      gridSample(x, grid, { mode: 'area' });
      // @ts-expect-error: alignCorners is boolean | 0 | 1
      gridSample(x, grid, { alignCorners: 2 });
      // @ts-expect-error: not a DataType
      gridSample({ data: new Float32Array(1), dims: [1], type: 'float8' }, grid);
      // @ts-expect-error: a grid is a tensor
      gridSample(x, new Float32Array(72));
      const affine: AffineGridOptions = { alignCorners: true };
      const made = affineGrid({ data: new Float32Array(6), dims: [1, 2, 3] }, [1, 1, 6, 6], affine);
      const madeType: 'float32' | 'float64' | 'float16' | 'bfloat16' = made.type;
      gridSample(x, made);
      affineGrid({ data: new Float64Array(12), dims: [1, 3, 4] }, new BigInt64Array(5));
      affineGrid(made, { data: new BigInt64Array(4), dims: [4], type: 'int64' });
      affineGrid(made, [1n, 1, 2n, 2]);
      // @ts-expect-error: AffineGrid has no mode
      affineGrid(made, [1, 1, 2, 2], { mode: 'nearest' });
      // @ts-expect-error: size holds integers
      affineGrid(made, ['1', '1', '2', '2']);
      void [dims, type, data, steps, madeType, threads, release, where];
    }
    void main;
  `;
  fs.writeFileSync(path.join(app, 'types_esm.mts'), use(
      'import { init, gridSample, affineGrid, numThreads, backend, version, ' +
      'type AffineGridOptions, ' +
      "type DataType, type GridSampleOptions, type TensorLike } from 'gridsample';"));
  fs.writeFileSync(path.join(app, 'types_cjs.cts'), use(
      "import gs = require('gridsample');\n" +
      'const { init, gridSample, affineGrid, numThreads, backend, version } = gs;\n' +
      'type DataType = gs.DataType; type GridSampleOptions = gs.GridSampleOptions; ' +
      'type TensorLike = gs.TensorLike; type AffineGridOptions = gs.AffineGridOptions;'));
  fs.writeFileSync(path.join(app, 'tsconfig.json'), JSON.stringify({
    compilerOptions: { module: 'node16', moduleResolution: 'node16', target: 'es2022',
                       strict: true, noEmit: true, skipLibCheck: false, types: [] },
    files: ['types_esm.mts', 'types_cjs.cts'],
  }));
  const tsc = path.join(repo, 'node_modules', 'typescript', 'bin', 'tsc');
  let stdout;
  try {
    ({ stdout } = await run(process.execPath, [tsc, '-p', app, '--listFiles'],
                            { cwd: app, timeout: 120000 }));
  } catch (error) {
    assert.fail(`tsc: ${error.stdout}${error.stderr}`);
  }
  assert.match(stdout, /node_modules\/gridsample\/dist\/index\.d\.ts/);
  assert.match(stdout, /node_modules\/gridsample\/dist\/index\.d\.cts/);
});
