// Assembles the npm package's dist/ from the Emscripten output and bindings/js/ (run by
// scripts/build_wasm.sh):
//
//   node bindings/js/assemble.mjs --glue gridsample.mjs --wasm gridsample.wasm \
//       --worker gridsample.worker.js --out dist
//
//   gridsample.wasm                        the module
//   gridsample_glue.mjs / .cjs             Emscripten's ES-module glue, and its CommonJS copy
//   gridsample_thread.mjs / .cjs           the script of a thread's worker (Emscripten's
//                                          gridsample.worker.js importing the glue): a module
//                                          Web Worker's, and a Node.js worker_threads one's
//   gridsample_core.js / .cjs              the API (bindings/js/gridsample_core.js, with
//                                          package.json's version written in), and its copy
//   index.js, index.node.js, index.cjs     the entries: browsers, Node import, Node require
//   index.d.ts, index.d.cts                the types (one file, for import and for require)
//
// The CommonJS copies are made by exact text rewrites that must each match as expected, so a
// change of Emscripten's output or of the core's shape fails here rather than at run time.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const here = path.dirname(fileURLToPath(import.meta.url));
const { values: args } = parseArgs({
  options: { glue: { type: 'string' }, wasm: { type: 'string' }, worker: { type: 'string' },
             out: { type: 'string' } },
});
if (!args.glue || !args.wasm || !args.worker || !args.out) {
  console.error('usage: node bindings/js/assemble.mjs --glue FILE --wasm FILE --worker FILE ' +
                '--out DIR');
  process.exit(2);
}

function fail(message) {
  console.error(`assemble.mjs: ${message}`);
  process.exit(1);
}

// Replaces every occurrence of `from`, which must occur exactly `count` times.
function replaceExactly(text, from, to, count, what) {
  const found = text.split(from).length - 1;
  if (found !== count) {
    fail(`${what}: expected ${count} × ${JSON.stringify(from)}, found ${found}`);
  }
  return text.split(from).join(to);
}

// Emscripten's glue makes each thread's worker itself, a classic Web Worker of its
// gridsample.worker.js (or, without locateFile, of a URL bundlers would follow to a file the
// package does not have). The entry makes it instead (Module.createThreadWorker, which the core
// passes): a module worker of gridsample_thread.mjs in browsers, a worker_threads one in Node.
function glueWithThreadWorkers(glue) {
  let text = replaceExactly(glue, 'new Worker(new URL("gridsample.worker.js",import.meta.url))',
                            'Module["createThreadWorker"]()', 1, 'glue');
  text = replaceExactly(text, 'new Worker(pthreadMainJs)', 'Module["createThreadWorker"]()', 1,
                        'glue');
  // The core waits for this mark before it starts the threads.
  return replaceExactly(text, 'worker.loaded=true', 'worker.loaded=true', 1, 'glue');
}

// Emscripten's worker script loads the glue by a URL the main thread posts (import(urlOrBlob));
// the thread scripts import it statically instead, so that bundlers see the dependency and
// Node.js can require it.
const WORKER_GLUE_IMPORT =
    '(e.data.urlOrBlob?import(e.data.urlOrBlob):import("./gridsample.mjs"))';
function threadScript(worker, header) {
  return header + replaceExactly(worker, WORKER_GLUE_IMPORT,
                                 'Promise.resolve({default:createGridSampleModule})', 1,
                                 'worker');
}
const THREAD_MODULE_HEADER =
    '// A thread of the gridsample package: the script of a module Web Worker.\n' +
    "import createGridSampleModule from './gridsample_glue.mjs';\n";
// A worker_threads worker gets the globals Emscripten's worker script uses (self, its
// onmessage, postMessage, location) over its parentPort.
const THREAD_NODE_HEADER = `'use strict';
// A thread of the gridsample package: the script of a Node.js worker_threads Worker.
const { parentPort } = require('node:worker_threads');
const { pathToFileURL } = require('node:url');
const createGridSampleModule = require('./gridsample_glue.cjs');
Object.assign(globalThis, {
  self: globalThis,
  location: { href: pathToFileURL(__filename).href },
  postMessage: (message) => parentPort.postMessage(message),
});
parentPort.on('message', (data) => globalThis.onmessage({ data }));
`;

// Emscripten's MODULARIZE + EXPORT_ES6 glue → CommonJS: import.meta.url (the glue's own
// location, which the wrapper never lets it use: it passes locateFile and instantiateWasm)
// becomes this file's URL, and the default export module.exports.
function glueToCommonJs(glue) {
  let text = replaceExactly(glue, 'import.meta.url',
                            'require("url").pathToFileURL(__filename).href', 2, 'glue');
  text = replaceExactly(text, 'export default createGridSampleModule;',
                        'module.exports = createGridSampleModule;', 1, 'glue');
  if (/\bimport\s*\(|\bimport\.meta\b|^\s*(import|export)\b/m.test(text)) {
    fail('glue: ES module syntax left after the rewrite');
  }
  return `'use strict';\n${text}`;
}

// The core (ES module of `export function` / `export const` declarations, no imports) →
// CommonJS: the declarations lose `export` and module.exports lists them.
function coreToCommonJs(core) {
  const names = [];
  const text = core.replace(/^export (function|const|let|class) ([A-Za-z_$][\w$]*)/gm,
                            (match, kind, name) => {
                              names.push(name);
                              return `${kind} ${name}`;
                            });
  if (names.length === 0) fail('core: no exports found');
  if (/^\s*(import|export)\b|\bimport\.meta\b|\bimport\s*\(/m.test(text)) {
    fail('core: ES module syntax other than `export function|const|let|class` declarations');
  }
  return `'use strict';\n${text}\nmodule.exports = { ${names.join(', ')} };\n`;
}

// The core's registries (src/gridsample/dtypes.inc, modes.inc, paddings.inc), which the types
// and the core's tables are written from: a type, mode or padding added there reaches the
// package with no edit here.
function readRegistries() {
  const entries = (file, pattern) => {
    const inc = fs.readFileSync(path.join(here, '..', '..', 'src', 'gridsample', file), 'utf8');
    const found = [...inc.matchAll(pattern)];
    if (found.length === 0) fail(`${file}: no entries found`);
    return found;
  };
  // GRIDSAMPLE_DTYPE(Enum, "name", ..., "JsArrays"): the name, and the arrays (a trailing `*`
  // marks those a `type`-less tensor of means this type).
  const dtypes = entries('dtypes.inc', /^GRIDSAMPLE_DTYPE\(\w+, "(\w+)",[^"]*"([\w* ]*)"\)/gm)
      .map(([, name, arrays]) => ({ name, arrays: arrays.split(' ').filter(Boolean) }));
  const arraysOfType = {}, typeOfArray = {};
  for (const { name, arrays } of dtypes) {
    arraysOfType[name] = arrays.map((array) => array.replace(/\*$/, ''));
    for (const array of arrays.filter((a) => a.endsWith('*'))) {
      const bare = array.slice(0, -1);
      if (typeOfArray[bare]) fail(`dtypes.inc: ${bare} means ${typeOfArray[bare]} and ${name}`);
      typeOfArray[bare] = name;
    }
  }
  const modes = entries('modes.inc', /^GRIDSAMPLE_MODE\(\w+, "(\w+)", "(\w*)",/gm)
      .flatMap((match) => match.slice(1).filter(Boolean));
  const paddings = entries('paddings.inc', /^GRIDSAMPLE_PADDING\(\w+, "(\w+)"\)/gm)
      .map(([, name]) => name);
  return { dtypes: dtypes.map(({ name }) => name), modes, paddings, arraysOfType, typeOfArray };
}

// Replaces the marks `/* @registry NAME */ PLACEHOLDER` of `text` with registries[NAME] as
// `render` writes it, each mark expected exactly once.
let registries;  // read once, on first use
function fillRegistries(text, what, marks, render) {
  registries ??= readRegistries();
  const seen = new Set();
  const result = text.replace(marks, (match, name) => {
    if (!(name in registries)) fail(`${what}: unknown registry ${name}`);
    if (seen.has(name)) fail(`${what}: registry ${name} marked twice`);
    seen.add(name);
    return render(registries[name]);
  });
  if (seen.size === 0) fail(`${what}: no registry marks`);
  return result;
}

// index.d.ts: each `/* @registry NAME */ ...;` becomes the union of NAME's names, one a line
// (a union that reads in any width).
const typesFromRegistries = (text) => fillRegistries(
    text, 'index.d.ts', /\s*\/\* @registry (\w+) \*\/[^;]*;/g,
    (names) => `\n    | ${names.map((n) => `'${n}'`).join('\n    | ')};`);

// The core: each `/* @registry NAME */ {}` becomes NAME's table as a JSON object.
const coreFromRegistries = (text) => fillRegistries(
    text, 'gridsample_core.js', /\/\* @registry (\w+) \*\/ \{\}/g,
    (table) => JSON.stringify(table));

// The core's `version`: its `/* @version */ ''` becomes package.json's version, the one place
// the version is written (CMakeLists.txt reads it too, for the C++ header's macros).
function coreWithVersion(text) {
  const { version } =
      JSON.parse(fs.readFileSync(path.join(here, '..', '..', 'package.json'), 'utf8'));
  // CMakeLists.txt's rule: MAJOR.MINOR.PATCH, then an optional pre-release suffix.
  const VERSION = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-[0-9A-Za-z.-]+)?$/;
  if (typeof version !== 'string' || !VERSION.test(version)) {
    fail(`package.json: version ${JSON.stringify(version)} is not MAJOR.MINOR.PATCH[-PRERELEASE]`);
  }
  return replaceExactly(text, "/* @version */ ''", JSON.stringify(version), 1,
                        'gridsample_core.js');
}

// A file is written only when its content changes, and files of earlier builds that are no
// longer made are removed: a rebuild that changes nothing touches nothing (tests may be reading
// dist/ while `npm pack` rebuilds it).
const out = path.resolve(args.out);
fs.mkdirSync(out, { recursive: true });
const made = new Set();
const write = (name, content) => {
  made.add(name);
  const file = path.join(out, name);
  const bytes = Buffer.from(content);
  if (fs.existsSync(file) && fs.readFileSync(file).equals(bytes)) return;
  fs.writeFileSync(`${file}.tmp`, bytes);
  fs.renameSync(`${file}.tmp`, file);
};
const source = (name) => fs.readFileSync(path.join(here, name), 'utf8');

write('gridsample.wasm', fs.readFileSync(args.wasm));
const glue = glueWithThreadWorkers(fs.readFileSync(args.glue, 'utf8'));
write('gridsample_glue.mjs', glue);
write('gridsample_glue.cjs', glueToCommonJs(glue));
const worker = fs.readFileSync(args.worker, 'utf8');
write('gridsample_thread.mjs', threadScript(worker, THREAD_MODULE_HEADER));
write('gridsample_thread.cjs', threadScript(worker, THREAD_NODE_HEADER));
const core = coreWithVersion(coreFromRegistries(source('gridsample_core.js')));
write('gridsample_core.js', core);
write('gridsample_core.cjs', coreToCommonJs(core));
for (const name of ['index.js', 'index.node.js', 'index.cjs']) write(name, source(name));
const types = typesFromRegistries(source('index.d.ts'));
write('index.d.ts', types);
write('index.d.cts', types);
for (const name of fs.readdirSync(out)) {
  if (!made.has(name)) fs.rmSync(path.join(out, name), { recursive: true, force: true });
}
console.log(`assemble.mjs: ${made.size} files in ${out}`);
