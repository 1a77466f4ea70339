// The default thread count of a call (bindings/js/thread_choice.js), on a clock the test sets:
// the chooser times 1 thread and all threads alternately, then keeps the faster, times them
// again after enough calls (the first choice also after enough time), keeps each signature's
// choice apart, and forgets the oldest signature first; and how both backends' calls use it
// (sampleOnChosenThreads).
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';

import { repo } from './helpers.mjs';

const {
  FIRST_RECHECK_CALLS, FIRST_RECHECK_MS, RECHECK_CALLS, sampleOnChosenThreads, ThreadChooser,
  TRIALS,
} = await import(pathToFileURL(path.join(repo, 'bindings/js/thread_choice.js')).href);

// The threads of the trials of a choice between 1 and 4 threads, in their order.
const alternating = [...Array(2 * TRIALS)].map((_, i) => (i % 2 === 0 ? 1 : 4));

// The threads of `count` calls of signature 'a' through `call` (chooser's).
const runs = (call, count) => [...Array(count)].map(() => call('a'));

// A chooser of 1 or 4 threads whose calls take `cost(threads, signature)` ms each.
function chooser(cost) {
  let now = 0;
  const threadChooser = new ThreadChooser(4, () => now);
  const call = (signature) => {
    const trial = threadChooser.start(signature);
    now += cost(trial.threads, signature);
    threadChooser.finish(trial);
    return trial.threads;
  };
  return call;
}

test('alternates 1 and all threads, then keeps the faster', () => {
  const oneIsFaster = chooser((threads) => (threads === 1 ? 1 : 2));
  assert.deepEqual(runs(oneIsFaster, 2 * TRIALS), alternating);
  assert.deepEqual(runs(oneIsFaster, 10), Array(10).fill(1));

  const allAreFaster = chooser((threads) => (threads === 1 ? 2 : 1));
  for (let i = 0; i < 2 * TRIALS; ++i) allAreFaster('a');
  assert.deepEqual(runs(allAreFaster, 10), Array(10).fill(4));
});

test('decides by the fastest call of each side, all threads on a tie', () => {
  // Slow calls on the faster side (a first call's set-up, a collection) do not decide.
  let calls = 0;
  const outlier = chooser((threads) => (threads === 1 ? (calls++ % 2 === 0 ? 50 : 1) : 2));
  for (let i = 0; i < 2 * TRIALS; ++i) outlier('a');
  assert.equal(outlier('a'), 1);
  const tie = chooser(() => 1);
  for (let i = 0; i < 2 * TRIALS; ++i) tie('a');
  assert.equal(tie('a'), 4);
});

test('times the first choice again after FIRST_RECHECK_CALLS calls, then every RECHECK_CALLS',
     () => {
  let oneIsFaster = true;
  const call = chooser((threads) => ((threads === 1) === oneIsFaster ? 1 : 2));
  for (let i = 0; i < 2 * TRIALS; ++i) call('a');
  assert.ok(runs(call, FIRST_RECHECK_CALLS - 1).every((t) => t === 1));
  oneIsFaster = false;  // the machine changed (or V8 finished optimising)
  assert.deepEqual(runs(call, 2 * TRIALS + 1), alternating.concat(4));
  assert.ok(runs(call, RECHECK_CALLS - 2).every((t) => t === 4));
  oneIsFaster = true;
  assert.deepEqual(runs(call, 2 * TRIALS + 1), alternating.concat(1));
});

test('times a first choice of long calls again after FIRST_RECHECK_MS, later ones by calls',
     () => {
  let oneIsFaster = true;
  const cost = 100;  // ms a call takes on the faster side, twice that on the other
  const call = chooser((threads) => ((threads === 1) === oneIsFaster ? cost : 2 * cost));
  for (let i = 0; i < 2 * TRIALS; ++i) call('a');
  oneIsFaster = false;  // the first trials were not the machine's steady state
  const held = FIRST_RECHECK_MS / (2 * cost);  // calls on 1 thread until the time is up
  assert.ok(held < FIRST_RECHECK_CALLS);
  assert.ok(runs(call, held).every((t) => t === 1));
  assert.deepEqual(runs(call, 2 * TRIALS + 1), alternating.concat(4));
  oneIsFaster = true;
  assert.ok(runs(call, FIRST_RECHECK_CALLS).every((t) => t === 4), 'the second choice held');
});

test('each signature has its own choice; the oldest of 64 is forgotten', () => {
  const call = chooser((threads, signature) => ((threads === 1) === (signature === 'small') ?
                                                1 : 2));
  for (let i = 0; i < 2 * TRIALS; ++i) {
    call('small');
    call('large');
  }
  assert.equal(call('small'), 1);
  assert.equal(call('large'), 4);
  for (let i = 0; i < 63; ++i) call(`other ${i}`);  // 'small' is now the oldest of 65
  assert.equal(call('small'), 1, 'timed again from the start: 1 thread first');
  assert.equal(call('small'), 4);
});

test('a call: its own numThreads, all threads when small, else chosen per signature', () => {
  let now = 0;
  const threadChooser = new ThreadChooser(4, () => now);
  const tensor = (dims) => ({ info: { name: 'float32' }, dims });
  const call = (yDims, threads, out) => ({
    xt: tensor([1, 1, 64, 64]), gt: tensor([1, ...yDims.slice(2), 2]), yDims, modeValue: 0,
    paddingValue: 0, alignCorners: false, layoutValue: 0, out, threads,
  });
  // The threads each call ran on, where 1 thread takes 1 ms and 4 threads 3 ms.
  const run = (c) => sampleOnChosenThreads(threadChooser, c, (threads) => {
    now += threads === 1 ? 1 : 3;
    return threads;
  });
  assert.equal(run(call([1, 1, 64, 64], 2)), 2);
  assert.equal(run(call([1, 1, 8, 8], 0)), 0);  // 0: all of them, untimed
  const large = call([1, 1, 64, 64], 0);
  for (let i = 0; i < 2 * TRIALS; ++i) run(large);
  assert.equal(run(large), 1);
  // Into `out`: a signature of its own, timed afresh.
  assert.deepEqual([run(call([1, 1, 64, 64], 0, {})), run(call([1, 1, 64, 64], 0, {}))], [1, 4]);
  assert.equal(sampleOnChosenThreads(null, large, (threads) => threads), 0);
});
