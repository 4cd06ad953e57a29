// Serves the built dist/ as a real host serves a static site: each body
// gzipped (level 9, compressed once and kept, as a host that precompresses
// its files does) when the browser accepts it, `application/wasm` for .wasm
// so that the browser compiles the module while it streams in, and no
// caching. For the bench's slow phone (bench-phone.mjs); the browser tests
// use harness.mjs's plain server, which counts bodies itself.
//   node gzip-server.mjs [PORT]        serves dist/ until stopped
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { distDir, MIME } from './harness.mjs';

const TYPES = { ...MIME, '.webmanifest': 'application/manifest+json' };

/** Serves `root` gzipped on 127.0.0.1 at `port` (0: the OS picks). Returns { url, close }. */
export async function startGzipServer(root = distDir, port = 0) {
  await stat(join(root, 'index.html')).catch(() => {
    throw new Error(`${root}/index.html is missing: build first (trunk build --release --offline)`);
  });
  const gzipped = new Map();
  const server = createServer(async (req, res) => {
    try {
      const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
      let file = normalize(join(root, path));
      if (file !== root && !file.startsWith(root + sep)) return res.writeHead(403).end();
      if ((await stat(file).catch(() => null))?.isDirectory()) file = join(file, 'index.html');
      const body = await readFile(file);
      const headers = {
        'content-type': TYPES[extname(file)] || 'application/octet-stream',
        'cache-control': 'no-store',
        vary: 'accept-encoding',
      };
      if (!/\bgzip\b/.test(req.headers['accept-encoding'] || '')) return res.writeHead(200, headers).end(body);
      if (!gzipped.has(file)) gzipped.set(file, gzipSync(body, { level: 9 }));
      res.writeHead(200, { ...headers, 'content-encoding': 'gzip' }).end(gzipped.get(file));
    } catch {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    }
  });
  await new Promise((ok) => server.listen(port, '127.0.0.1', ok));
  return {
    url: `http://127.0.0.1:${server.address().port}/`,
    close: () => new Promise((ok) => { server.close(ok); server.closeAllConnections(); }),
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] || '').href) {
  const s = await startGzipServer(distDir, Number(process.argv[2] || 0));
  console.log(`serving ${distDir} gzipped at ${s.url}`);
}
