// Assembles the npm package's dist/ from the Emscripten output and bindings/js/ (run by
// scripts/build_wasm.sh):
//
//   node bindings/js/assemble.mjs --glue gridsample.mjs --wasm gridsample.wasm \
//       --worker gridsample.worker.js --out dist
//
//   gridsample.wasm                        the module
//   gridsample_glue.mjs / .cjs             Emscripten's ES-module glue, asking the entry for
//                                          each thread's worker, and its CommonJS copy
//   gridsample_thread.mjs / .cjs           the script of a thread's worker (Emscripten's
//                                          gridsample.worker.js importing the glue): a module
//                                          Web Worker's, and a Node.js worker_threads one's
//   gridsample_core.js / .cjs              the API (bindings/js/gridsample_core.js and its
//                                          modules, with the registries and package.json's
//                                          version written in) bundled by esbuild: an ES
//                                          module, and a CommonJS one
//   index.js, index.node.js, index.cjs     the entries: browsers, Node import, Node require
//   index.d.ts, index.d.cts                the types (one file, for import and for require)
//   webgpu.js / .cjs, webgpu.d.ts / .d.cts the entry gridsample/webgpu (bindings/webgpu/ and
//                                          the argument code it shares, bundled by esbuild
//                                          likewise) and its types
//
// The CommonJS copies are esbuild's: the core bundled, the glue converted. Emscripten's output
// is rewritten only where it has no hook, in one place (patch_emscripten.mjs), whose exact texts
// fail the build here when another Emscripten writes them differently.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import * as esbuild from 'esbuild';

import { patchEmscripten } from './patch_emscripten.mjs';

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

// The thread scripts: a header that gives Emscripten's worker script (rewritten by
// patchEmscripten) the glue as createGridSampleModule, and the globals it uses.
const THREAD_MODULE_HEADER =
    '// A thread of the gridsample package: the script of a module Web Worker.\n' +
    "import createGridSampleModule from './gridsample_glue.mjs';\n";
// A worker_threads worker gets the globals Emscripten's worker script uses (self, its
// onmessage, postMessage, location) over its parentPort.
const THREAD_NODE_HEADER = `'use strict';
// A thread of the gridsample package: the script of a Node.js worker_threads Worker.
const { parentPort } = require('node:worker_threads');
const { pathToFileURL } = require('node:url');
const { default: createGridSampleModule } = require('./gridsample_glue.cjs');
Object.assign(globalThis, {
  self: globalThis,
  location: { href: pathToFileURL(__filename).href },
  postMessage: (message) => parentPort.postMessage(message),
});
parentPort.on('message', (data) => globalThis.onmessage({ data }));
`;

// Emscripten's MODULARIZE + EXPORT_ES6 glue → CommonJS, by esbuild: import.meta.url (the
// glue's own location, which the wrapper never lets it use: it passes locateFile and
// instantiateWasm) becomes this file's URL, and the default export module.exports.default.
// Whitespace is minified as Emscripten's was, so that the copy stays the glue's size.
async function glueToCommonJs(glue) {
  let result;
  try {
    result = await esbuild.transform(glue, {
      format: 'cjs',
      define: { 'import.meta.url': '__gridsampleGlueUrl' },
      banner: "'use strict';\n" +
              "const __gridsampleGlueUrl = require('node:url').pathToFileURL(__filename).href;",
      minifyWhitespace: true,
      charset: 'utf8',
      logLevel: 'silent',
    });
  } catch (error) {
    fail(`glue: ${error.message}`);
  }
  // Such as an import.meta other than its url, which would be empty in CommonJS.
  for (const warning of result.warnings) fail(`glue: ${warning.text}`);
  return result.code;
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
  const modeEntries = entries('modes.inc', /^GRIDSAMPLE_MODE\(\w+, "(\w+)", "(\w*)",/gm);
  const modes = modeEntries.flatMap((match) => match.slice(1).filter(Boolean));
  // Each spelling → the mode it names, the modes' own names first and then opset 16's, in the
  // order of the core's parser's message (src/api.cc).
  const modeOfSpelling = Object.fromEntries([
    ...modeEntries.map(([, name]) => [name, name]),
    ...modeEntries.filter(([, , alias]) => alias).map(([, name, alias]) => [alias, name]),
  ]);
  const paddings = entries('paddings.inc', /^GRIDSAMPLE_PADDING\(\w+, "(\w+)"\)/gm)
      .map(([, name]) => name);
  return { dtypes: dtypes.map(({ name }) => name), modes, paddings, modeOfSpelling,
           paddingOfSpelling: Object.fromEntries(paddings.map((name) => [name, name])),
           arraysOfType, typeOfArray };
}

// Replaces the marks `/* @registry NAME */ PLACEHOLDER` of `text` with registries[NAME] as
// `render` writes it, each mark expected once among the texts that share `seen` (the names
// marked so far).
let registries;  // read once, on first use
function fillRegistries(text, what, marks, render, seen) {
  registries ??= readRegistries();
  return text.replace(marks, (match, name) => {
    if (!(name in registries)) fail(`${what}: unknown registry ${name}`);
    if (seen.has(name)) fail(`${what}: registry ${name} marked twice`);
    seen.add(name);
    return render(registries[name]);
  });
}

// index.d.ts: each `/* @registry NAME */ ...;` becomes the union of NAME's names, one a line
// (a union that reads in any width).
function typesFromRegistries(text) {
  const seen = new Set();
  const types = fillRegistries(
      text, 'index.d.ts', /\s*\/\* @registry (\w+) \*\/[^;]*;/g,
      (names) => `\n    | ${names.map((n) => `'${n}'`).join('\n    | ')};`, seen);
  if (seen.size === 0) fail('index.d.ts: no registry marks');
  return types;
}

// package.json's version, the one place the version is written (CMakeLists.txt reads it too,
// for the C++ header's macros).
function packageVersion() {
  const { version } =
      JSON.parse(fs.readFileSync(path.join(here, '..', '..', 'package.json'), 'utf8'));
  // CMakeLists.txt's rule: MAJOR.MINOR.PATCH, then an optional pre-release suffix.
  const VERSION = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-[0-9A-Za-z.-]+)?$/;
  if (typeof version !== 'string' || !VERSION.test(version)) {
    fail(`package.json: version ${JSON.stringify(version)} is not MAJOR.MINOR.PATCH[-PRERELEASE]`);
  }
  return version;
}

// An esbuild plugin that loads the core's modules with their marks filled in: each
// `/* @registry NAME */ {}` becomes NAME's table as a JSON object, and `/* @version */ ''`
// package.json's version. `marks` counts what it filled, for bundle's checks.
const VERSION_MARK = "/* @version */ ''";
function fillMarks(marks) {
  const version = JSON.stringify(packageVersion());
  return {
    name: 'gridsample-marks',
    setup(build) {
      build.onLoad({ filter: /\.js$/ }, async (args) => {
        const what = path.relative(path.join(here, '..', '..'), args.path);
        const text = fillRegistries(await fs.promises.readFile(args.path, 'utf8'), what,
                                    /\/\* @registry (\w+) \*\/ \{\}/g,
                                    (table) => JSON.stringify(table), marks.registries);
        const parts = text.split(VERSION_MARK);
        marks.version += parts.length - 1;
        return { contents: parts.join(version), loader: 'js' };
      });
    },
  };
}

// `entry` (a path from bindings/) and what it imports, bundled by esbuild into one module of
// `format` ('esm' or 'cjs'): one file for each, which the entries import as before, and no
// module graph for browsers to fetch file by file. Not minified: it is small either way, and
// readable code is what users step through in a debugger. `versions`: the version marks the
// bundle must hold (the core's one; the WebGPU entry has none).
async function bundle(entry, format, versions) {
  const marks = { registries: new Set(), version: 0 };
  let result;
  try {
    result = await esbuild.build({
      entryPoints: [path.join(here, '..', entry)],
      bundle: true,
      format,
      platform: 'neutral',  // the core imports nothing but its own modules
      charset: 'utf8',      // the messages as written ('…', '×'), not as \u escapes
      // An ES module's code is strict; its CommonJS copy must say so.
      banner: { js: format === 'cjs' ? "'use strict';" : '' },
      plugins: [fillMarks(marks)],
      write: false,
      logLevel: 'silent',
    });
  } catch (error) {
    fail(`${entry} (${format}): ${error.message}`);
  }
  for (const warning of result.warnings) fail(`${entry} (${format}): ${warning.text}`);
  if (marks.registries.size === 0) fail(`${entry}: no registry marks`);
  if (marks.version !== versions) {
    fail(`${entry}: expected ${versions} × ${JSON.stringify(VERSION_MARK)}, found ` +
         `${marks.version}`);
  }
  return result.outputFiles[0].text;
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
let emscripten;
try {
  emscripten = patchEmscripten({ glue: fs.readFileSync(args.glue, 'utf8'),
                                 worker: fs.readFileSync(args.worker, 'utf8') });
} catch (error) {
  fail(error.message);
}
write('gridsample_glue.mjs', emscripten.glue);
write('gridsample_glue.cjs', await glueToCommonJs(emscripten.glue));
write('gridsample_thread.mjs', THREAD_MODULE_HEADER + emscripten.worker);
write('gridsample_thread.cjs', THREAD_NODE_HEADER + emscripten.worker);
write('gridsample_core.js', await bundle('js/gridsample_core.js', 'esm', 1));
write('gridsample_core.cjs', await bundle('js/gridsample_core.js', 'cjs', 1));
for (const name of ['index.js', 'index.node.js', 'index.cjs']) write(name, source(name));
const types = typesFromRegistries(source('index.d.ts'));
write('index.d.ts', types);
write('index.d.cts', types);
write('webgpu.js', await bundle('webgpu/index.js', 'esm', 0));
write('webgpu.cjs', await bundle('webgpu/index.js', 'cjs', 0));
const webgpuTypes = fs.readFileSync(path.join(here, '..', 'webgpu', 'webgpu.d.ts'), 'utf8');
write('webgpu.d.ts', webgpuTypes);
write('webgpu.d.cts', webgpuTypes);
// dist/native/ holds the Node.js addons, which scripts/build_addon.sh builds and this leaves.
for (const name of fs.readdirSync(out)) {
  if (!made.has(name) && name !== 'native') {
    fs.rmSync(path.join(out, name), { recursive: true, force: true });
  }
}
console.log(`assemble.mjs: ${made.size} files in ${out}`);
