// How a call runs (bindings/js/thread_choice.js), on a clock the test sets: the chooser times
// the ways a call may run (1 thread and all threads, ...) in turns, then keeps the fastest,
// times them again after enough calls (the first choice also after enough time), keeps each
// signature's choice apart, and forgets the oldest signature first; and the ways of both
// backends' calls (sampleOnChosenThreads): 1 thread against all threads or the call's own
// count, and the hand-over to the call thread where the backend may make a fresh output beside
// it.
import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, test } from 'node:test';
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

// A chooser between `ways` (1 or 4 threads unless given) whose calls take `cost(way, signature)`
// ms each.
function chooser(cost, ways = [1, 4]) {
  let now = 0;
  const threadChooser = new ThreadChooser(() => now);
  const call = (signature) => {
    const trial = threadChooser.start(signature, ways);
    now += cost(trial.way, signature);
    threadChooser.finish(trial);
    return trial.way;
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

test('chooses the fastest of three ways, the later one on a tie', () => {
  const ways = ['a', 'b', 'c'];
  const middle = chooser((way) => (way === 'b' ? 1 : 2), ways);
  assert.deepEqual(runs(middle, 3 * TRIALS), Array(TRIALS).fill(ways).flat());
  assert.deepEqual(runs(middle, 5), Array(5).fill('b'));
  const firstTwo = chooser((way) => (way === 'c' ? 2 : 1), ways);
  for (let i = 0; i < 3 * TRIALS; ++i) firstTwo('a');
  assert.equal(firstTwo('a'), 'b');
});

describe('a call\'s ways (sampleOnChosenThreads)', () => {
  const tensor = (dims) => ({ info: { name: 'float32' }, dims });
  const call = (yDims, threads, out) => ({
    xt: tensor([1, 1, 64, 64]), gt: tensor([1, ...yDims.slice(2), 2]), yDims, modeValue: 0,
    paddingValue: 0, alignCorners: false, layoutValue: 0, out, threads,
  });
  // A runner of calls on a chooser of all 4 threads, where a call takes cost(way) ms and is
  // handed over where handsOver(threads) allows it; returns the way of each call.
  const runner = (cost, handsOver) => {
    let now = 0;
    const threadChooser = new ThreadChooser(() => now);
    return (c) => sampleOnChosenThreads(threadChooser, c, 4, (way) => {
      now += cost(way);
      return way;
    }, handsOver);
  };
  const ofWays = (ways) => ways.map(({ threads, handOver }) => `${threads}${handOver ? 'h' : ''}`);

  test('1 thread against all threads or its own numThreads, chosen per signature; small calls ' +
       'and calls on 1 thread untimed', () => {
    // 1 thread takes 1 ms and more threads 3 ms.
    const run = runner(({ threads }) => (threads === 1 ? 1 : 3));
    assert.deepEqual(run(call([1, 1, 64, 64], 1)), { threads: 1, handOver: false });
    assert.deepEqual(run(call([1, 1, 8, 8], 0)), { threads: 0, handOver: false });
    assert.deepEqual(run(call([1, 1, 8, 8], 2)), { threads: 2, handOver: false });
    const large = call([1, 1, 64, 64], 0);
    assert.deepEqual(ofWays(runs(() => run(large), 2 * TRIALS + 1)),
                     alternating.map(String).concat('1'));
    // A named count is the most the call may take: 1 thread is timed against it, under a
    // signature of its own, and kept where faster.
    const named = call([1, 1, 64, 64], 2);
    assert.deepEqual(ofWays(runs(() => run(named), 2 * TRIALS + 1)),
                     Array(TRIALS).fill(['1', '2']).flat().concat('1'));
    const slower = runner(({ threads }) => (threads === 1 ? 3 : 1));
    assert.deepEqual(ofWays(runs(() => slower(named), 2 * TRIALS + 1)),
                     Array(TRIALS).fill(['1', '2']).flat().concat('2'));
    // Into `out`: a signature of its own, timed afresh.
    assert.deepEqual(ofWays([run(call([1, 1, 64, 64], 0, {})), run(call([1, 1, 64, 64], 0, {}))]),
                     ['1', '4']);
    assert.deepEqual(sampleOnChosenThreads(null, large, 4, (way) => way),
                     { threads: 0, handOver: false });
  });

  test('handed over to the call thread or not, timed, where the backend may hand it over', () => {
    // The hand-over allowed on fewer than 4 threads; it costs 2 ms, the call here 1 ms on 1
    // thread, 3 on 4.
    const run = runner(({ threads, handOver }) => (handOver ? 2 : threads === 1 ? 1 : 3),
                       (threads) => threads < 4);
    const large = call([1, 1, 64, 64], 0);
    // All 4 threads leave no core for the hand-over: 3 threads handed over are timed too.
    assert.deepEqual(ofWays(runs(() => run(large), 4 * TRIALS + 2)),
                     Array(TRIALS).fill(['1h', '1', '3h', '4']).flat().concat('1', '1'));
    // A call that names its threads: the two ways of 1 thread and of its count, timed under a
    // signature of its own; the hand-over kept where it is faster.
    const named = call([1, 1, 64, 64], 2);
    const faster = runner(({ threads, handOver }) => (handOver ? 1 : 2) + (threads === 1),
                          (threads) => threads < 4);
    assert.deepEqual(ofWays(runs(() => faster(named), 4 * TRIALS + 1)),
                     Array(TRIALS).fill(['1h', '1', '2h', '2']).flat().concat('2h'));
    // A named count of every core: one thread fewer handed over, timed against it.
    const whole = call([1, 1, 64, 64], 4);
    assert.deepEqual(ofWays(runs(() => faster(whole), 4 * TRIALS + 1)),
                     Array(TRIALS).fill(['1h', '1', '3h', '4']).flat().concat('3h'));
    // Where the backend may not hand it over, a named 1 thread runs untimed.
    const never = runner(() => 1, () => false);
    assert.deepEqual(never(call([1, 1, 64, 64], 1)), { threads: 1, handOver: false });
  });
});
