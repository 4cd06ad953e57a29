// Writes into a built copy's service-worker.js the files it stores for
// offline use and the build's version, a hash of every file's name and
// bytes: a changed file makes a new version, and so a new service worker
// and a new cache (offline/service-worker.js). Run on the finished folder
// (the post-build step scripts/offline.sh, last), and again by hand after
// changing a file of a copy:
//   node scripts/build-tools/offline-stamp.mjs DIR
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';

const WORKER = 'service-worker.js';

/** The files a docs page on another site loads, never the playground
 * itself: storing them would only lengthen the all-or-nothing first save. */
const FOR_HOST_PAGES = (f) => f === 'embed.js' || f.startsWith('previews/');

/** Every file under `dir` but the service worker and what host pages load,
 * as paths with `/`, sorted. */
function files(dir) {
  const out = [];
  const walk = (d) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) out.push(relative(dir, p).split(sep).join('/'));
    }
  };
  walk(dir);
  return out.filter((f) => f !== WORKER && !FOR_HOST_PAGES(f)).sort();
}

/** Stamps `dir`'s service worker; returns { version, files }. */
export function stamp(dir) {
  const path = join(dir, WORKER);
  const source = readFileSync(path, 'utf8');
  const list = files(dir);
  const hash = createHash('sha256');
  for (const f of list) hash.update(`${f}\0`).update(readFileSync(join(dir, f))).update('\0');
  const version = hash.digest('hex').slice(0, 16);
  let replaced = 0;
  const out = source
    .replace(/^const VERSION = .*;$/m, () => (replaced++, `const VERSION = '${version}';`))
    .replace(/^const FILES = .*;$/m, () => (replaced++, `const FILES = ${JSON.stringify(list)};`));
  if (replaced !== 2) throw new Error(`${path}: no "const VERSION = …;" and "const FILES = …;" lines to stamp`);
  writeFileSync(path, out);
  return { version, files: list };
}

if (import.meta.url === pathToFileURL(process.argv[1] || '').href) {
  const dir = process.argv[2];
  if (!dir || process.argv.length > 3) {
    console.error('usage: node offline-stamp.mjs DIR');
    process.exit(2);
  }
  const { version, files: list } = stamp(dir);
  console.log(`offline: ${list.length} files stored for offline use, version ${version}`);
}
