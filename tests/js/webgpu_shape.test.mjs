// The WebGPU path's shape rules (bindings/webgpu/shape.js, a JS copy of the core's: that path has
// no core to ask) against the core's own OutputShape, through the Node.js addon: on a seeded
// corpus of X and grid dims, valid and not (empty, negative, overflowing, mismatched ranks,
// batches and last extents), in both layouts, both accept with the same Y dims or refuse with
// the same message, but for the limits of the GPU path alone (its spatial rank and axis length);
// and affineGrid's grid shape against the core's AffineGridShape likewise.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';

import { distDir, repo } from './helpers.mjs';
import { seededIntegers } from './webgpu_page.mjs';

const { affineShape, outputShape } =
    await import(pathToFileURL(path.join(repo, 'bindings/webgpu/shape.js')).href);

const platform = `${process.platform}-${process.arch}`;
const addonFile = path.join(distDir, 'native', platform, 'gridsample.node');
const skip = fs.existsSync(addonFile) ? false : `no addon for ${platform} in dist/native`;

const random = seededIntegers;

const EXTENTS = [0, 1, 1, 2, 3, 3, 4, 7, -1, 2 ** 20, 2 ** 31, 2 ** 40];
const GPU_LIMITS = /spatial axes .*; WebGPU takes|elements; WebGPU takes fewer than/;

test('the GPU path refuses and accepts dims as the core does, with its messages', { skip }, () => {
  const addon = createRequire(import.meta.url)(addonFile);
  const layouts = ['channels-first', 'channels-last'].map((name) => addon.parseLayout(name));
  const next = random(20261127);
  const pick = () => EXTENTS[next(EXTENTS.length)];
  const counts = { accepted: 0, refused: 0, gpuLimits: 0, channelsLast: 0 };
  for (let k = 0; k < 6000; ++k) {
    const channelsLast = k % 2 === 1;
    const rank = 1 + next(8);
    const xDims = Array.from({ length: rank }, pick);
    // Mostly grids that fit X, each rule broken now and then.
    const gridRank = next(10) === 0 ? 1 + next(8) : rank;
    const gridDims = Array.from({ length: gridRank }, pick);
    if (next(4) > 0) gridDims[0] = xDims[0];
    if (next(4) > 0) gridDims[gridRank - 1] = rank - 2;
    const core = addon.outputShape(xDims, gridDims, layouts[Number(channelsLast)]);
    const coreMessage = typeof core === 'number' ? `gridsample: ${addon.lastMessage()}` : null;
    let gpu;
    try {
      gpu = outputShape(xDims, gridDims, channelsLast).yDims;
    } catch (error) {
      assert.equal(error.constructor, RangeError);
      gpu = error.message;
    }
    const shapes = `x ${JSON.stringify(xDims)}, grid ${JSON.stringify(gridDims)}` +
                   (channelsLast ? ' (channels-last)' : '');
    if (typeof gpu === 'string' && GPU_LIMITS.test(gpu)) {
      assert.equal(coreMessage, null, `${shapes}: the core refuses (${coreMessage})`);
      ++counts.gpuLimits;
    } else if (coreMessage !== null) {
      assert.equal(gpu, coreMessage, shapes);
      ++counts.refused;
    } else {
      assert.deepEqual(gpu, core, shapes);
      ++counts.accepted;
      if (channelsLast) ++counts.channelsLast;
    }
  }
  // Each kind of outcome, often: the corpus cannot pass on one alone.
  for (const [kind, n] of Object.entries(counts)) assert.ok(n >= 30, `${kind}: ${n}`);
});

test("affineGrid's shapes as the core's, with its messages", { skip }, () => {
  const addon = createRequire(import.meta.url)(addonFile);
  const next = random(20);
  const pick = () => EXTENTS[next(EXTENTS.length)];
  const counts = { accepted: 0, refused: 0 };
  for (let k = 0; k < 3000; ++k) {
    const size = Array.from({ length: 4 + next(2) }, pick);
    const r = size.length - 2;
    // Mostly a theta that fits, each rule broken now and then.
    const thetaDims = next(4) > 0 ? [size[0], r, r + 1] :
        Array.from({ length: 1 + next(4) }, () => (next(2) ? pick() : 1 + next(4)));
    const core = addon.affineGridShape(thetaDims, size);
    let gpu;
    try {
      gpu = affineShape(thetaDims, size).gridDims;
    } catch (error) {
      assert.equal(error.constructor, RangeError);
      gpu = error.message;
    }
    const shapes = `theta ${JSON.stringify(thetaDims)}, size ${JSON.stringify(size)}`;
    if (typeof core === 'number') {
      assert.equal(gpu, `gridsample: ${addon.lastMessage()}`, shapes);
      ++counts.refused;
    } else {
      assert.deepEqual(gpu, core, shapes);
      ++counts.accepted;
    }
  }
  for (const [kind, n] of Object.entries(counts)) assert.ok(n >= 300, `${kind}: ${n}`);
});
