// gridsample for browsers, workers and bundlers (ES module). The .wasm is fetched from beside
// this file (new URL(..., import.meta.url), which bundlers follow) and compiled while it
// streams in; init()'s options override that.
import createModule from './gridsample_glue.mjs';
import { affineGrid, gridSample, initWith } from './gridsample_core.js';

const platform = {
  createModule,
  defaultLocation: () => new URL('./gridsample.wasm', import.meta.url).href,
  async instantiate(where, imports) {
    const url = String(where);
    const response = await fetch(url, { credentials: 'same-origin' });
    if (!response.ok) {
      throw new Error(`gridsample: cannot fetch ${url}: HTTP ${response.status}`);
    }
    const contentType = (response.headers.get('Content-Type') || '').split(';')[0].trim();
    // Streaming compilation needs the right MIME type; a server without it still works.
    if (typeof WebAssembly.instantiateStreaming === 'function' &&
        contentType === 'application/wasm') {
      return WebAssembly.instantiateStreaming(response, imports);
    }
    return WebAssembly.instantiate(await response.arrayBuffer(), imports);
  },
};

export function init(options) {
  return initWith(platform, options);
}

export { affineGrid, gridSample };
