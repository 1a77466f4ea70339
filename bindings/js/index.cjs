// gridsample for Node.js through require() (CommonJS). The same API, core and glue as the ES
// module entries, in their CommonJS copies; the .wasm is read from beside this file.
'use strict';

const { readFile } = require('node:fs/promises');
const path = require('node:path');
const { fileURLToPath } = require('node:url');

const createModule = require('./gridsample_glue.cjs');
const { affineGrid, gridSample, initWith } = require('./gridsample_core.cjs');

async function readWasm(where) {
  const text = String(where);
  if (/^https?:/i.test(text)) {
    const response = await fetch(text);
    if (!response.ok) throw new Error(`gridsample: cannot fetch ${text}: HTTP ${response.status}`);
    return new Uint8Array(await response.arrayBuffer());
  }
  return readFile(/^file:/i.test(text) ? fileURLToPath(text) : text);
}

const platform = {
  createModule,
  defaultLocation: () => path.join(__dirname, 'gridsample.wasm'),
  async instantiate(where, imports) {
    return WebAssembly.instantiate(await readWasm(where), imports);
  },
};

function init(options) {
  return initWith(platform, options);
}

module.exports = { init, gridSample, affineGrid };
