// Threads in Node.js (issue 21): init() starts a thread per CPU (worker_threads Workers running
// the core's pool), every path's results are the same bit for bit at 1 thread and at all of
// them (and the pool's threads did take work), the per-call numThreads, init({ numThreads }),
// a large fresh output allocated while the call thread samples or after the call (each where
// it was timed faster) and Y copied into it as the call finishes its parts, a call of several
// batch items into `out` sampled there in pieces, no thread or memory leak over 10,000 calls,
// and a call that grows the memory on every thread.
// The hostile-input and memory suites (hostile.test.mjs, api.test.mjs) run threaded too: init()
// there starts the same threads.
import assert from 'node:assert/strict';
import os from 'node:os';
import path from 'node:path';
import { before, describe, test } from 'node:test';

import { gridSample, init, numThreads } from 'gridsample';

import {
  closeTo, dataDir, embindModule, heapInUse, instance, memoryBytes, readVectors, repo, sameBits,
  scenario, specExample,
} from './helpers.mjs';

before(() => init({ backend: 'wasm' }));

const cpus = os.availableParallelism ? os.availableParallelism() : os.cpus().length;
const threaded = cpus > 1 ? false : 'one CPU: init() starts no threads by default';

const bytes = (array) => new Uint8Array(array.buffer, array.byteOffset, array.byteLength);

// Deterministic values in [-scale, scale) (a sine hash), with NaN at every `nanEvery`-th.
function values(Array_, count, scale, nanEvery = 0) {
  const array = new Array_(count);
  for (let i = 0; i < count; ++i) {
    const v = (Math.sin(i * 12.9898 + count) * 43758.5453) % 1;
    array[i] = nanEvery && i % nanEvery === nanEvery - 1 ? NaN : v * scale;
  }
  return array;
}
const bits = (count, mask) => Uint16Array.from({ length: count }, (_, i) => (i * 7919) % mask);

// Calls large enough for the core to spread over threads (at least 2^16 weighted taps), one
// for each of its paths and kinds of sums.
const CASES = [
  ['linear pairs, float32, zeros', [1, 3, 150, 160], [1, 140, 170, 2], {}],
  ['channels-last, float32, 20 channels', [1, 20, 60, 70], [1, 64, 72, 2],
   { paddingMode: 'border' }],
  ['channels-last, bfloat16', [1, 16, 40, 50], [1, 48, 48, 2], {}, 'bfloat16'],
  ['cubic quads, float32, reflection', [2, 4, 64, 70], [2, 60, 66, 2],
   { mode: 'cubic', paddingMode: 'reflection', alignCorners: true }],
  ['nearest, float32, border', [1, 3, 128, 128], [1, 300, 256, 2],
   { mode: 'nearest', paddingMode: 'border' }],
  ['linear pairs, uint8 (exact integers)', [1, 3, 128, 140], [1, 130, 128, 2],
   { paddingMode: 'border' }, 'uint8'],
  ['linear pairs, float16', [1, 4, 100, 90], [1, 96, 100, 2], {}, 'float16'],
  ['generic, float64, 3-D', [1, 2, 20, 22, 24], [1, 24, 24, 24, 3], {}, 'float64'],
  ['generic, int32 cubic (exact integers)', [1, 2, 40, 44], [1, 64, 64, 2],
   { mode: 'cubic' }, 'int32'],
  ['pixel pairs, RGBA uint8, channels-last', [1, 150, 160, 4], [1, 140, 170, 2],
   { layout: 'channels-last', paddingMode: 'border' }, 'uint8'],
  ['pixel pairs, RGB float32, channels-last', [1, 150, 160, 3], [1, 140, 170, 2],
   { layout: 'channels-last' }],
  ['channels-last X as it is, float32, 8 channels', [1, 60, 70, 8], [1, 64, 72, 2],
   { layout: 'channels-last', mode: 'cubic' }],
  ['nearest, uint8, 5 channels, channels-last', [1, 90, 100, 5], [1, 128, 128, 2],
   { layout: 'channels-last', mode: 'nearest' }, 'uint8'],
];

function tensors([, xDims, gridDims, , type = 'float32']) {
  const count = xDims.reduce((a, b) => a * b, 1);
  const gridCount = gridDims.reduce((a, b) => a * b, 1);
  const data = {
    float32: () => values(Float32Array, count, 8),
    float64: () => values(Float64Array, count, 8),
    uint8: () => Uint8Array.from(values(Float32Array, count, 255), Math.abs),
    int32: () => Int32Array.from(values(Float32Array, count, 2 ** 30), Math.trunc),
    float16: () => bits(count, 0x7c00),
    bfloat16: () => bits(count, 0x7f80),
  }[type]();
  return [{ data, dims: xDims, type },
          { data: values(Float32Array, gridCount, 1.2, 97), dims: gridDims }];
}

// Y of 256 KiB or more (HAND_OVER_OUTPUT_BYTES), on the paths' kinds of parts: a run per
// channel of each tile (planar), one run of whole pixels (channels-last), a channel group's
// planes (many channels), batches.
const HANDED_SPECS = [
  ['linear pairs, planar', [1, 3, 60, 70], [1, 220, 240, 2], {}],
  ['pixel pairs, RGBA uint8, channels-last', [1, 150, 160, 4], [1, 450, 400, 2],
   { layout: 'channels-last', paddingMode: 'border' }, 'uint8'],
  ['3-D, 2 items', [2, 4, 20, 22, 24], [2, 32, 64, 64, 3], {}],
  ['channel groups, 64 channels', [1, 64, 20, 20], [1, 64, 64, 2], {}],
  ['cubic, float64', [1, 2, 40, 50], [1, 200, 180, 2], { mode: 'cubic' }, 'float64'],
  ['nearest, 6 channels-last channels', [1, 40, 50, 6], [1, 160, 170, 2],
   { layout: 'channels-last', mode: 'nearest' }],
];

// The core's calls that body() makes: `starts` on the call thread (startGridSample: one per
// piece; startGridSampleReporting: one for a fresh output made meanwhile), `here` on the
// calling thread (gridSample; gridSampleCopying on several threads, of which `copying` counts
// those).
function coreCalls(body) {
  const module = embindModule();
  const { startGridSample, startGridSampleReporting, gridSample: sampleHere, gridSampleCopying } =
      module;
  const calls = { starts: 0, here: 0, copying: 0 };
  module.startGridSample = (...args) => {
    ++calls.starts;
    return startGridSample(...args);
  };
  module.startGridSampleReporting = (...args) => {
    ++calls.starts;
    return startGridSampleReporting(...args);
  };
  module.gridSample = (...args) => {
    ++calls.here;
    return sampleHere(...args);
  };
  module.gridSampleCopying = (...args) => {
    ++calls.here;
    ++calls.copying;
    return gridSampleCopying(...args);
  };
  try {
    body();
  } finally {
    Object.assign(module, { startGridSample, startGridSampleReporting, gridSample: sampleHere,
                            gridSampleCopying });
  }
  return calls;
}

describe('threads in Node.js', () => {
  test('init() starts a thread per CPU, each past the first a worker of its own, and the ' +
       'call thread', () => {
    assert.equal(numThreads(), Math.min(cpus, 64));
    const threads = numThreads() > 1;
    assert.equal(instance().workers.length, threads ? numThreads() : 0);
    assert.equal(instance().callThread, threads);
  });

  test('a large fresh output: allocated while the call thread samples (on one thread fewer ' +
       'where no core is left), or after the call, timed both ways, with the bits of `out`',
       { skip: threaded }, () => {
    // 3 x 141 x 170 float32: 287,640 bytes of Y, past HAND_OVER_OUTPUT_BYTES, in a shape of its
    // own, so that no call before has made the choice for it.
    const [x, grid] = tensors(['', [1, 3, 150, 160], [1, 141, 170, 2], {}]);
    const out = new Float32Array(3 * 141 * 170);
    for (const threads of [1, numThreads()]) {
      const total = { starts: 0, here: 0 };
      for (let i = 0; i < 20; ++i) {
        let fresh;
        const calls = coreCalls(() => {
          fresh = gridSample(x, grid, { numThreads: threads });
        });
        assert.equal(calls.starts + calls.here, 1, 'sampled whole');
        total.starts += calls.starts;
        total.here += calls.here;
        assert.ok(fresh.data instanceof Float32Array);
        assert.equal(fresh.data.buffer.byteLength, out.byteLength, 'an array of its own');
        out.fill(NaN);
        gridSample(x, grid, { numThreads: threads, out });
        assert.deepEqual(bytes(fresh.data), bytes(out), `${threads} threads, call ${i}`);
      }
      // The first calls are the trials of both ways: on as many threads where a core is left
      // for the calling thread, else (all of them) on one fewer.
      assert.ok(total.starts > 0, `${threads} threads: handed over`);
      assert.ok(total.here > 0, `${threads} threads: sampled where called`);
    }
  });

  // body(lastHeader) with the module's record of finished parts watched: lastHeader() gives
  // FinishedParts' header (gridsample_embind.cc: written, read, lost, done) of the last call
  // that reported parts since it was last asked, else null. `slots`, if given, replaces the
  // header's slot count as each call starts.
  function withFinishedParts(body, slots) {
    const module = embindModule();
    const { resetFinishedParts } = module;
    let parts = 0;
    module.resetFinishedParts = () => {
      parts = resetFinishedParts();
      if (slots !== undefined) new Uint32Array(instance().memory.buffer, parts, 5)[4] = slots;
      return parts;
    };
    const lastHeader = () => {
      const at = parts;
      parts = 0;
      return at === 0 ? null : [...new Uint32Array(instance().memory.buffer, at, 4)];
    };
    try {
      body(lastHeader);
    } finally {
      module.resetFinishedParts = resetFinishedParts;
    }
  }

  // A call's header whose parts were all copied as they came: every part read, none lost, and
  // more than one (some copied while the call sampled the rest).
  function assertCopiedAsTheyCame([written, read, lost, done]) {
    assert.deepEqual({ read, lost, done }, { read: written, lost: 0, done: 1 });
    assert.ok(written > 1, `${written} part(s)`);
  }

  // Calls of `spec` at numThreads 1 until some are handed over to the call thread (the
  // chooser's trials take turns between the ways), each with the bits of the call on all
  // threads; check(header) for each handed-over call (withFinishedParts, `slots` as there).
  function checkHandedOver(spec, check, slots) {
    const [x, grid] = tensors(spec);
    const whole = gridSample(x, grid, { ...spec[3], numThreads: numThreads() });
    let handed = 0;
    withFinishedParts((lastHeader) => {
      for (let i = 0; i < 12; ++i) {
        const fresh = gridSample(x, grid, { ...spec[3], numThreads: 1 });
        assert.ok(sameBits(fresh.data, whole.data), `call ${i}`);
        const header = lastHeader();
        if (header === null) continue;
        ++handed;
        check(header);
      }
    }, slots);
    assert.ok(handed > 0, 'handed over');
  }

  describe('a large fresh output handed over: Y copied into it part by part as the call ' +
           'finishes it, the bits of the call on all threads', { skip: threaded }, () => {
    for (const spec of HANDED_SPECS) {
      test(spec[0], () => checkHandedOver(spec, assertCopiedAsTheyCame));
    }
  });

  describe('a call on all threads: Y copied out part by part by the calling thread between its ' +
           'own parts, fresh and into `out`, the bits of 1 thread', { skip: threaded }, () => {
    for (const spec of HANDED_SPECS) {
      test(spec[0], () => {
        const [x, grid] = tensors(spec);
        const one = gridSample(x, grid, { ...spec[3], numThreads: 1 });
        const out = new one.data.constructor(one.data.length);
        let copying = 0;
        withFinishedParts((lastHeader) => {
          // The chooser's trials take turns between all threads and one fewer handed over.
          for (let i = 0; i < 12; ++i) {
            for (const target of [undefined, out]) {
              out.fill(0);
              let y;
              const calls = coreCalls(() => {
                y = gridSample(x, grid, { ...spec[3], numThreads: numThreads(), out: target });
              });
              assert.ok(sameBits(y.data, one.data), `call ${i}, ${target ? 'out' : 'fresh'}`);
              const header = lastHeader();
              if (calls.copying === 0) continue;
              ++copying;
              assertCopiedAsTheyCame(header);
            }
          }
        });
        assert.ok(copying > 0, 'sampled on all threads');
      });
    }
  });

  test('a handed-over call whose parts find no free slot: Y copied whole after it, the same ' +
       'bits', { skip: threaded }, () => {
    // No slot: the first part is lost, as the last would be on a call that outran the wrapper;
    // it took a number (written), the parts after it none.
    checkHandedOver(['', [1, 3, 60, 70], [1, 220, 240, 2], {}], ([written, , lost, done]) => {
      assert.deepEqual({ written, lost, done }, { written: 1, lost: 1, done: 1 });
    }, 0);
  });

  describe('a call of several batch items into `out` on the call thread, in pieces: the bits ' +
           'of the call sampled whole', { skip: threaded }, () => {
    // Y of 2 MiB or more (two pieces of PIECE_BYTES) in each layout and rank, batches that
    // the pieces divide and do not, and a path that rearranges X (many channels).
    const LARGE = [
      ['planar, 4 items', [4, 3, 60, 70], [4, 220, 240, 2], {}],
      ['channels-last RGBA uint8, 3 items', [3, 150, 160, 4], [3, 450, 400, 2],
       { layout: 'channels-last', paddingMode: 'border' }, 'uint8'],
      ['3-D, 2 items', [2, 4, 20, 22, 24], [2, 32, 64, 64, 3], {}],
      ['32 channels, 11 items', [11, 32, 20, 20], [11, 40, 40, 2],
       { paddingMode: 'reflection' }],
    ];
    for (const spec of LARGE) {
      test(spec[0], () => {
        const [x, grid] = tensors(spec);
        // All of the CPUs' threads: no core left for the call thread, so sampled whole.
        const whole = gridSample(x, grid, { ...spec[3], numThreads: numThreads() });
        const out = new whole.data.constructor(whole.data.length);
        // Another grid, sampled whole just before each call in pieces, leaves other values on
        // the heap where the call's tensors go: a piece that read a grid item not copied for it
        // would not find the right one there by chance.
        const other = { data: grid.data.map((v) => -v), dims: grid.dims };
        for (let i = 0; i < 3; ++i) {
          gridSample(x, other, { ...spec[3], numThreads: numThreads(), out });
          out.fill(0);
          const pieces =
              coreCalls(() => gridSample(x, grid, { ...spec[3], numThreads: 1, out })).starts;
          assert.ok(pieces > 1, `${pieces} piece(s)`);
          // sameBits, not deepEqual: a diff of millions of elements exhausts the test's memory.
          assert.ok(sameBits(out, whole.data), `call ${i}`);
          let fresh;
          const calls = coreCalls(() => {
            fresh = gridSample(x, grid, { ...spec[3], numThreads: 1 });
          });
          assert.equal(calls.starts + calls.here, 1, 'a fresh output: sampled whole');
          assert.ok(sameBits(fresh.data, whole.data), `fresh, call ${i}`);
        }
      });
    }

    test('an `out` over the grid\'s memory: the grid as it was before the call', () => {
      // 8 pieces of one item each, each item's Y twice its grid: a piece's Y copied out as the
      // pieces after it sample would overwrite grid items that are not on the heap yet.
      const [x, grid] = tensors(['', [8, 4, 30, 30], [8, 256, 256, 2]]);
      const whole = gridSample(x, grid, { numThreads: numThreads() });
      // The grid and Y in one buffer, Y's first elements over the grid's.
      const shared = new Float32Array(Math.max(grid.data.length, whole.data.length));
      const aliased = { data: shared.subarray(0, grid.data.length), dims: grid.dims };
      const out = shared.subarray(0, whole.data.length);
      aliased.data.set(grid.data);
      assert.ok(coreCalls(() => gridSample(x, aliased, { numThreads: 1, out })).starts > 1);
      assert.ok(sameBits(out, whole.data));
    });
  });

  describe('every path: the same bits at 1 thread and at all of them', { skip: threaded }, () => {
    for (const spec of CASES) {
      test(spec[0], () => {
        const [x, grid] = tensors(spec);
        const one = gridSample(x, grid, { ...spec[3], numThreads: 1 });
        // The pool's threads must have taken part: a call may end before they wake up, on a
        // busy machine, so it is repeated until they have. Where one thread is as fast, the
        // thread choice runs such a call on all threads only in its trials: four kinds of call
        // (fresh or into `out`, numThreads named or not), each timed of its own, give it more.
        const taken = embindModule().itemsTakenByPool();
        const out = new one.data.constructor(one.data.length);
        let all;
        for (let i = 0; i < 60 && embindModule().itemsTakenByPool() === taken; ++i) {
          const threads = i % 2 === 0 ? { numThreads: numThreads() } : {};
          all = gridSample(x, grid, { ...spec[3], ...threads, out: i % 4 < 2 ? undefined : out });
          assert.deepEqual(bytes(all.data), bytes(one.data), `call ${i}`);
        }
        assert.ok(embindModule().itemsTakenByPool() > taken, 'the pool took no work');
        assert.deepEqual(all.dims, one.dims);
      });
    }
  });

  test('the reference vectors at 1 thread and at all of them', () => {
    for (const file of ['reference_vectors.txt', 'golden.txt']) {
      for (const { x, grid, attrs } of readVectors(path.join(dataDir, file))) {
        const options = { mode: attrs.mode, paddingMode: attrs.padding,
                          alignCorners: attrs.alignCorners };
        const one = gridSample(x, grid, { ...options, numThreads: 1 });
        const all = gridSample(x, grid, { ...options, numThreads: numThreads() });
        if (x.type === 'string') assert.deepEqual(all.data, one.data);
        else assert.deepEqual(bytes(all.data), bytes(one.data));
      }
    }
  });

  test('no thread or memory leak over 10,000 calls at 1 thread and at all', () => {
    const [x, grid] = tensors(['', [1, 2, 48, 48], [1, 128, 128, 2], {}]);
    const [, largeGrid] = tensors(['', [1, 2, 48, 48], [1, 192, 192, 2], {}]);  // 288 KiB of Y
    const out = new Float32Array(2 * 128 * 128);
    const { y } = specExample();
    const workers = instance().workers.slice();
    const calls = (count) => {
      for (let i = 0; i < count; ++i) {
        switch (i % 5) {
          case 0: gridSample(x, grid); break;  // the threads thread_choice.js chooses
          case 1: gridSample(x, grid, { out, numThreads: 1 }); break;
          case 2:
            gridSample(x, grid, { out, mode: 'cubic', paddingMode: 'reflection',
                                  numThreads: numThreads() });
            break;
          case 3: gridSample(x, largeGrid, { numThreads: 1 }); break;  // on the call thread
          default: assert.throws(() => gridSample(x, grid, { mode: 'area' }), RangeError);
        }
      }
    };
    // Warm-up: the pool's queue of jobs settles on the blocks it keeps.
    calls(2000);
    const heapBefore = heapInUse();
    const memoryBefore = memoryBytes();
    const taken = embindModule().itemsTakenByPool();
    calls(10000);
    assert.equal(heapInUse(), heapBefore);
    assert.equal(memoryBytes(), memoryBefore);
    assert.deepEqual(instance().workers, workers, 'no worker made or lost');
    if (!threaded) assert.ok(embindModule().itemsTakenByPool() > taken, 'the pool took work');
    assert.ok(closeTo(gridSample(specExample().x, specExample().grid).data, y));
  });

  test('a call that grows the memory, on every thread, gives the bits of 1 thread', () => {
    // X of 56 MiB: the memory grows before the threads sample it, and they sample it all.
    const side = 3840;
    const data = values(Float32Array, side * side, 1000);
    const x = { data, dims: [1, 1, side, side] };
    const grid = { data: values(Float32Array, 256 * 256 * 2, 1.1), dims: [1, 256, 256, 2] };
    const before = memoryBytes();
    const all = gridSample(x, grid, { mode: 'cubic' });
    assert.ok(memoryBytes() > before, 'the memory grew');
    const one = gridSample(x, grid, { mode: 'cubic', numThreads: 1 });
    assert.deepEqual(bytes(all.data), bytes(one.data));
  });
});

describe('init({ numThreads }) (each in a process of its own)', () => {
  const NODE_ESM = `import * as gs from 'gridsample';
    import { instance } from ${JSON.stringify(path.join(repo, 'tests', 'js', 'helpers.mjs'))};`;
  for (const wanted of [1, 4]) {
    const workers = wanted > 1 ? wanted : 0;  // the pool's, and the call thread's
    test(`numThreads ${wanted}: ${workers} workers running when init() resolves`, async () => {
      // What a thread does as it starts is over by then: the heap stays as init() left it.
      const result = await scenario(NODE_ESM, `
        const before = gs.numThreads();
        await gs.init({ backend: 'wasm', numThreads: ${wanted} });
        const heap = instance().module.heapInUse();
        await new Promise((resolve) => setTimeout(resolve, 300));
        console.log(JSON.stringify({ before, threads: gs.numThreads(),
                                     workers: instance().workers.length,
                                     heapGrew: instance().module.heapInUse() - heap,
                                     row: example() }));
      `);
      assert.deepEqual(result, { before: 0, threads: wanted, workers, heapGrew: 0,
                                 row: [0, 0.15, 0.55, 0.95, 1.35, 0.75] });
    });
  }

  test('import and require share the threads; the process ends while they idle', async () => {
    const result = await scenario(`const gs = require('gridsample');`, `
      await gs.init({ backend: 'wasm', numThreads: 2 });
      const esm = await import('gridsample');
      console.log(JSON.stringify({ threads: esm.numThreads(), row: example() }));
    `, { cjs: true });
    assert.deepEqual(result, { threads: 2, row: [0, 0.15, 0.55, 0.95, 1.35, 0.75] });
  });
});
