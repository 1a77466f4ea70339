// The package's one rewrite of Emscripten's output (assemble.mjs applies it), for what
// Emscripten 3.1.6 gives no hook for. Its glue makes each thread's worker itself: a classic Web
// Worker of gridsample.worker.js, or without locateFile one of a URL that bundlers would follow
// to a file the package does not have. The entry makes them instead (Module.createThreadWorker,
// which the core passes): a module worker of gridsample_thread.mjs in browsers, a worker_threads
// one in Node.js. And its worker script loads the glue by a URL the main thread posts, which the
// thread scripts replace by a static import, so that bundlers see the dependency and Node.js can
// require it.
//
// Each rewrite names the exact text it expects once, and what must not be left after them is
// looked for too: an Emscripten whose output differs fails the build and
// tests/js/patch_emscripten.test.mjs, rather than a page at run time.

const REWRITES = [
  { part: 'glue', from: 'new Worker(new URL("gridsample.worker.js",import.meta.url))',
    to: 'Module["createThreadWorker"]()' },
  { part: 'glue', from: 'new Worker(pthreadMainJs)', to: 'Module["createThreadWorker"]()' },
  // Not a rewrite: the core waits for this mark before it starts the threads (loader.js).
  { part: 'glue', from: 'worker.loaded=true', to: 'worker.loaded=true' },
  // createGridSampleModule is the glue as the thread script's header imports it.
  { part: 'worker', from: '(e.data.urlOrBlob?import(e.data.urlOrBlob):import("./gridsample.mjs"))',
    to: 'Promise.resolve({default:createGridSampleModule})' },
];
// A worker the glue would still make itself; a glue the worker script would still load by URL.
const LEFT_OVER = [{ part: 'glue', text: 'new Worker(' }, { part: 'worker', text: 'import(' }];

// { glue, worker }: Emscripten's glue (gridsample.mjs) and worker script (gridsample.worker.js)
// → the same, rewritten; an Error naming the part and the text when they are not as expected.
export function patchEmscripten({ glue, worker }) {
  const patched = { glue, worker };
  for (const { part, from, to } of REWRITES) {
    const pieces = patched[part].split(from);
    if (pieces.length !== 2) {
      throw new Error(`Emscripten's ${part}: expected 1 × ${JSON.stringify(from)}, found ` +
                      `${pieces.length - 1}`);
    }
    patched[part] = pieces.join(to);
  }
  for (const { part, text } of LEFT_OVER) {
    if (patched[part].includes(text)) {
      throw new Error(`Emscripten's ${part}: ${JSON.stringify(text)} is left after the rewrites`);
    }
  }
  return patched;
}
