// Times opencv.js (the npm devDependency @techstark/opencv-js, OpenCV built with Emscripten)
// in Node on the channels-last image workloads of the benchmark, cv.remap against the npm
// package's gridSample, for the comparison table of scripts/bench.sh. Usage:
//
//   node scripts/bench_opencvjs.mjs --data DIR [--out FILE] [--min-time 0.5] [--min-runs 5]
//       [--max-runs 10000] [--warmup 2] [--warmup-time 1] [--filter REGEX]
//
// DIR is what `gridsample_workloads --write DIR` made (see scripts/bench_ort.mjs). Each call
// covers what a user of opencv.js pays to warp an image given as our workloads give it (RGBA
// bytes in JS, a normalised grid): the image copied into a cv.Mat on the wasm heap, the remap,
// and the result copied out into a JS array. The variants:
//   opencv.js                  float maps: the grid copied in too and turned into pixel
//                              coordinates by cv.transform (CV_32FC2), then cv.remap
//   fixed-point maps           cv.remap with CV_16SC2 + CV_16UC1 maps made before timing
//                              (opencv.js 4.5 has no convertMaps: made here as cv::convertMaps
//                              makes them, 1/32 pixel); not exact
//   remap only, float / fixed  the cv.remap call alone on Mats made before timing
// Only the first counts as a peer in the tables; the others are shown apart. A workload that is
// not a 2-D channels-last image of 1, 3 or 4 channels, linear with border padding, is n/a.
// Timing and the report: scripts/bench_common.mjs (a JSON array of one report per variant, as
// scripts/bench_peers.py writes).
import { createRequire } from 'node:module';
import os from 'node:os';

import {
  logResult, maxAbsDiff, methodText, parseRunnerArgs, readTensorData, readWorkloads, timeRuns,
  writeReport,
} from './bench_common.mjs';

const args = parseRunnerArgs({}, 'node scripts/bench_opencvjs.mjs --data DIR [--out FILE]');
const tag = 'bench_opencvjs';
const require = createRequire(import.meta.url);
const packageName = '@techstark/opencv-js';
const { version } = require(`${packageName}/package.json`);

// The module resolves once its runtime is up; its `then` (Emscripten's) would make awaiting it
// loop, so it is dropped first. Node keeps no handle open meanwhile: a timer does.
const cv = await new Promise((resolve) => {
  const keepAlive = setInterval(() => {}, 1000);
  require(packageName).then((module) => {
    clearInterval(keepAlive);
    delete module.then;
    resolve(module);
  });
});
const build = /Version control:\s*(\S+)/.exec(cv.getBuildInformation())?.[1] ?? '?';

const VARIANTS = [
  { key: '', name: 'opencv.js', variant: '', apart: false },
  { key: 'fixed', name: 'opencv.js fixed-point', variant: 'fixed-point maps', apart: true },
  { key: 'float-only', name: 'opencv.js remap only', variant: 'remap only, float maps',
    apart: true },
  { key: 'fixed-only', name: 'opencv.js fixed-point remap only',
    variant: 'remap only, fixed-point maps', apart: true },
];
const CHANNEL_TYPES = { 1: cv.CV_8UC1, 3: cv.CV_8UC3, 4: cv.CV_8UC4 };

// Why a workload is not run, or undefined.
function unsupported(w) {
  if (w.layout !== 'channels-last') return 'set up for channels-last images only';
  if (w.x.shape.length !== 4 || w.x.dtype !== 'uint8' || !CHANNEL_TYPES[w.x.shape[3]]) {
    return 'set up for 2-D uint8 images of 1, 3 or 4 channels only';
  }
  if (w.mode !== 'linear' || w.padding_mode !== 'border' || w.align_corners) {
    return 'set up for linear, border, align_corners 0 only';
  }
  return undefined;
}

// cv::convertMaps from CV_32FC2 to CV_16SC2 + CV_16UC1: coordinates rounded (half to even) to
// 1/32 pixel, split into the whole pixel and a 5 + 5-bit table index.
function fixedMaps(map, map1, map2) {
  const xy = map.data32F;
  const whole = map1.data16S;
  const fraction = map2.data16U;
  const round = (v) => {
    const r = Math.round(v);
    return r - v === 0.5 && r % 2 !== 0 ? r - 1 : r;
  };
  for (let i = 0; i < fraction.length; ++i) {
    const ix = round(xy[2 * i] * 32);
    const iy = round(xy[2 * i + 1] * 32);
    whole[2 * i] = ix >> 5;
    whole[2 * i + 1] = iy >> 5;
    fraction[i] = (iy & 31) * 32 + (ix & 31);
  }
}

const table = readWorkloads(args.data, args.filter);
const loadAverage = os.loadavg();
const results = Object.fromEntries(VARIANTS.map((v) => [v.key, []]));
for (const w of table.workloads) {
  const base = { id: w.id, num_threads: 1 };
  const reason = unsupported(w);
  if (reason) {
    for (const v of VARIANTS) results[v.key].push({ ...base, status: 'n/a', reason });
    logResult(tag, w.id, 1, { status: 'n/a', reason });
    continue;
  }
  const [batch, height, width, channels] = w.x.shape;
  const [, outHeight, outWidth] = w.grid.shape;
  const x = readTensorData(args.data, w.files.x, 'uint8');
  const grid = readTensorData(args.data, w.files.grid, 'float32');
  const expected = readTensorData(args.data, w.files.y, 'uint8');
  const y = new Uint8ClampedArray(expected.length);
  const type = CHANNEL_TYPES[channels];
  const src = new cv.Mat(height, width, type);
  const dst = new cv.Mat(outHeight, outWidth, type);
  const gridMat = new cv.Mat(outHeight, outWidth, cv.CV_32FC2);
  const map = new cv.Mat(outHeight, outWidth, cv.CV_32FC2);
  const map1 = new cv.Mat(outHeight, outWidth, cv.CV_16SC2);
  const map2 = new cv.Mat(outHeight, outWidth, cv.CV_16UC1);
  const none = new cv.Mat();
  // The grid's unnormalisation (align_corners 0) as an affine map into pixel units.
  const toPixels = cv.matFromArray(
      2, 3, cv.CV_64F, [width / 2, 0, (width - 1) / 2, 0, height / 2, (height - 1) / 2]);
  const border = new cv.Scalar();
  const imageSize = height * width * channels;
  const outSize = outHeight * outWidth * channels;
  const gridSize = outHeight * outWidth * 2;
  const remap = (m1, m2) => cv.remap(src, dst, m1, m2, cv.INTER_LINEAR, cv.BORDER_REPLICATE,
                                     border);
  const runs = {
    '': () => {
      for (let n = 0; n < batch; ++n) {
        src.data.set(x.subarray(n * imageSize, (n + 1) * imageSize));
        gridMat.data32F.set(grid.subarray(n * gridSize, (n + 1) * gridSize));
        cv.transform(gridMat, map, toPixels);
        remap(map, none);
        y.set(dst.data, n * outSize);
      }
    },
    fixed: () => {
      for (let n = 0; n < batch; ++n) {
        src.data.set(x.subarray(n * imageSize, (n + 1) * imageSize));
        remap(map1, map2);
        y.set(dst.data, n * outSize);
      }
    },
    'float-only': () => remap(map, none),
    'fixed-only': () => remap(map1, map2),
  };
  for (const v of VARIANTS) {
    let result;
    try {
      runs['']();  // the maps of the (last) batch item, which every variant's output needs
      fixedMaps(map, map1, map2);
      runs[v.key]();
      if (v.key.endsWith('-only')) y.set(dst.data);
      const diff = batch === 1 ? maxAbsDiff(y, expected, 'uint8') : undefined;
      result = await timeRuns(runs[v.key], args.timing);
      result.max_abs_diff = diff;
    } catch (error) {
      result = { status: 'n/a', reason: String(error?.message ?? error).split('\n')[0] };
    }
    results[v.key].push({ ...base, ...result });
    logResult(`${tag} (${v.name})`, w.id, 1, result);
  }
  for (const mat of [src, dst, gridMat, map, map1, map2, none, toPixels]) mat.delete();
}

const setup = `${packageName} ${version} (OpenCV ${build}, single-threaded) in ` +
              `Node ${process.version}`;
writeReport(VARIANTS.map((v) => ({
  runner: 'opencv.js', version, name: v.name, family: 'opencv.js', variant: v.variant,
  apart: v.apart, platform: 'wasm',
  setup: v.key ? `${setup}: ${v.variant}` :
      `${setup}: the image copied into a cv.Mat, the grid copied in and turned into a CV_32FC2 ` +
      'map by cv.transform, cv.remap (float maps), Y copied out',
  thread_counts: [1], load_avg: loadAverage, method: methodText(args.timing),
  results: results[v.key],
})), args.out);
