// A small static file server without dependencies, on 127.0.0.1 only. Run as a script (what
// `npm start` ends with, through scripts/start.sh) it serves the demo:
//
//   PORT=8080 node scripts/serve.mjs      (PORT defaults to 8080; 0 picks a free port)
//
//   /              web/                              the demo page
//   /gridsample/   dist/                             the built npm package
//   /ort/          node_modules/onnxruntime-web/dist onnxruntime-web's ES module and .wasm files
//
// and prints the address. Pages are cross-origin isolated (COOP same-origin, COEP require-corp
// on every response), so the package and onnxruntime-web run on threads. The browser tests
// (tests/js/) import serve() to do the same with their own folders.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const TYPES = {
  '.html': 'text/html; charset=utf-8', '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript', '.mjs': 'text/javascript', '.cjs': 'text/javascript',
  '.wasm': 'application/wasm', '.json': 'application/json', '.map': 'application/json',
  '.png': 'image/png', '.svg': 'image/svg+xml', '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8', '.md': 'text/plain; charset=utf-8',
  '.ts': 'text/plain; charset=utf-8', '.cts': 'text/plain; charset=utf-8',
};

// The file a URL path names under the mounts, or null. The longest matching prefix wins;
// '..' cannot climb above its folder (the rest of the path is normalised as an absolute one).
function resolve(roots, pathname) {
  const prefix = Object.keys(roots).filter((p) => pathname.startsWith(p))
      .sort((a, b) => b.length - a.length)[0];
  if (prefix === undefined) return null;
  let rest = path.posix.normalize(`/${pathname.slice(prefix.length)}`);
  if (rest.endsWith('/')) rest += 'index.html';
  const root = roots[prefix];
  const file = path.join(root, ...rest.split('/'));
  const relative = path.relative(root, file);
  return relative.startsWith('..') || path.isAbsolute(relative) ? null : file;
}

// What makes a page cross-origin isolated (crossOriginIsolated, and so SharedArrayBuffers that
// can be posted to workers): sent with every file, as workers need them too.
const ISOLATION = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

/**
 * Starts a static server on 127.0.0.1 and resolves to { server, url } once it listens.
 * `mounts` maps URL prefixes ending in '/' to folders; `port` 0 picks a free one. Responses
 * carry the COOP/COEP headers of cross-origin isolation unless `isolated` is false.
 * `rewrite(file, text)` may change a JavaScript file on its way out (the browser tests point
 * bare imports somewhere, as an import map would); `log`, an array, receives
 * { url (the decoded path), status, type } per request. GET and HEAD only; files are sent
 * uncached, so a rebuilt package shows on reload. Rejects when the port cannot be had (e.g.
 * EADDRINUSE).
 */
export async function serve(mounts, { port = 0, rewrite, log, isolated = true } = {}) {
  const roots = Object.fromEntries(
      Object.entries(mounts).map(([prefix, folder]) => [prefix, path.resolve(folder)]));
  const server = http.createServer(async (request, response) => {
    let pathname;
    const finish = (status, type, body) => {
      log?.push({ url: pathname ?? request.url, status, ...(type ? { type } : {}) });
      response.writeHead(status, {
        ...(type ? { 'Content-Type': type } : {}), 'Cache-Control': 'no-store',
        ...(isolated ? ISOLATION : {}),
        ...(status === 405 ? { Allow: 'GET, HEAD' } : {}),
      });
      response.end(request.method === 'HEAD' ? undefined : body);
    };
    if (request.method !== 'GET' && request.method !== 'HEAD') return finish(405);
    try {
      pathname = decodeURIComponent(new URL(request.url, 'http://localhost').pathname);
    } catch {
      return finish(400);
    }
    if (pathname.includes('\0')) return finish(400);
    const file = resolve(roots, pathname);
    let body;
    try {
      body = file && (await fs.promises.readFile(file));
    } catch {
      body = null;  // missing, or a folder
    }
    if (!body) return finish(404);
    const type = TYPES[path.extname(file)] || 'application/octet-stream';
    if (rewrite && type === 'text/javascript') body = rewrite(file, body.toString('utf8'));
    return finish(200, type, body);
  });
  await new Promise((done, fail) => {
    server.once('error', fail);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', fail);
      done();
    });
  });
  return { server, url: `http://127.0.0.1:${server.address().port}` };
}

// The demo's port: PORT, a whole number 0-65535, or 8080.
function portFromEnvironment() {
  const text = process.env.PORT;
  if (text === undefined || text === '') return 8080;
  const port = Number(text);
  if (!/^\d+$/.test(text) || port > 65535) {
    throw new RangeError(`serve.mjs: PORT must be a whole number from 0 to 65535, got ${text}`);
  }
  return port;
}

async function main() {
  const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const mounts = {
    '/': path.join(repo, 'web'),
    '/gridsample/': path.join(repo, 'dist'),
    '/ort/': path.join(repo, 'node_modules', 'onnxruntime-web', 'dist'),
  };
  const needed = [
    [path.join(mounts['/'], 'index.html'), 'the demo page'],
    [path.join(mounts['/gridsample/'], 'index.js'), 'the package; build it: npm run build'],
    [path.join(mounts['/ort/'], 'ort.wasm.min.mjs'), 'onnxruntime-web; install it: npm install'],
  ];
  for (const [file, what] of needed) {
    if (!fs.existsSync(file)) throw new Error(`serve.mjs: no ${file} (${what})`);
  }
  const port = portFromEnvironment();
  let url;
  try {
    ({ url } = await serve(mounts, { port }));
  } catch (error) {
    if (error.code !== 'EADDRINUSE') throw error;
    throw new Error(`serve.mjs: port ${port} is in use; choose another with PORT=...`);
  }
  const address = `http://localhost:${new URL(url).port}/`;
  console.log(`gridsample demo: ${address}  (serving web/, dist/ and onnxruntime-web; ` +
              'Ctrl+C stops)');
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  main().catch((error) => {
    console.error(error.message);
    process.exit(1);
  });
}
