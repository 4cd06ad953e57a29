// A server for a published copy under a folder of a site: it serves the copy
// at MOUNT only, answers everything else 404 and records what was asked for
// outside MOUNT. Used by publish.test.mjs.
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';

export const MOUNT = '/docs/queues/lease/';

const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.webmanifest': 'application/manifest+json',
};

/**
 * Serves the folder `copy.root` (read at each request, so a test can put
 * another build in its place) at MOUNT. The folder's name without its slash
 * is answered as servers do: a copy built with relative addresses is
 * redirected to the folder (nginx's and caddy's default); with `absolute`
 * (a copy built with --public-url MOUNT) it gets the page itself, as a host
 * that rewrites addresses would answer. Returns { origin, outside, close }.
 */
export async function serveUnder(copy, { absolute = false } = {}) {
  const outside = [];
  const server = createServer(async (req, res) => {
    const url = new URL(req.url, 'http://x');
    const path = decodeURIComponent(url.pathname);
    if (path === MOUNT.slice(0, -1)) {
      if (!absolute) {
        res.writeHead(301, { location: MOUNT + url.search }).end();
        return;
      }
    } else if (!path.startsWith(MOUNT)) {
      outside.push(path);
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    try {
      const root = copy.root;
      let file = normalize(join(root, path.slice(MOUNT.length)));
      if (file !== root && !file.startsWith(root + sep)) throw new Error('outside the copy');
      if ((await stat(file).catch(() => null))?.isDirectory()) file = join(file, 'index.html');
      const body = await readFile(file);
      res.writeHead(200, { 'content-type': MIME[extname(file)] || 'application/octet-stream', 'cache-control': 'no-store' });
      res.end(body);
    } catch {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    }
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  return {
    origin: `http://127.0.0.1:${server.address().port}`,
    outside,
    close: () => new Promise((ok) => server.close(ok)),
  };
}
