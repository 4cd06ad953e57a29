// Keeps the playground working without a network (docs/publishing.md,
// "Offline"): on install it stores every file of this build in a cache named
// for the build, then answers the copy's requests from that cache alone, so
// a page and the modules and workers it starts always come from one build.
// A new build (a changed file changes VERSION, and so this script) installs
// beside the old one and waits: an open page of the old build keeps getting
// the old build's files. It takes over once no page of the old build is
// open, and then deletes the old cache.
//
// VERSION and FILES are written by the build (scripts/build-tools/offline-stamp.mjs).
const VERSION = 'unstamped';
const FILES = [];

// Two copies on one origin (two folders of a docs site) share the cache
// storage: each keeps to the caches named for its own folder.
const SCOPE = self.registration.scope;
const OURS = `lease-playground ${SCOPE} `;
const CACHE = OURS + VERSION;
const HASHED = /-[0-9a-f]{12,16}(_bg)?\.(js|wasm|css)$/;

self.addEventListener('install', (event) => {
  // All or nothing: a file that fails (the network dropped during a first
  // visit) fails the install, and the next visit tries again; the page says
  // it works offline only once this worker is active (static/boot.js).
  event.waitUntil(
    caches.open(CACHE).then((cache) =>
      cache.addAll(
        FILES.map(
          (f) =>
            // A name with a hash in it is this build's file whatever the
            // HTTP cache holds, and the first load has just fetched it;
            // another name (lease-worker.js) may be held for another build.
            new Request(new URL(f, SCOPE), { cache: HASHED.test(f) ? 'default' : 'reload' }),
        ),
      ),
    ).catch((e) => caches.delete(CACHE).then(() => Promise.reject(e))),
  );
});

self.addEventListener('activate', (event) => {
  // Claimed, the first visit's page fetches what it loads later (the panels'
  // module, a scenario) from this cache too, so it keeps working if the
  // network drops before a reload; it is this build's page (a later build
  // waits while it is open).
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith(OURS) && k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

async function answer(event) {
  const request = event.request;
  const url = new URL(request.url);
  if (request.mode === 'navigate') {
    // The page is one file whatever its link says (?scenario=…).
    url.search = '';
  }
  if (url.pathname.endsWith('/')) url.pathname += 'index.html';
  const hit = await caches.open(CACHE).then((cache) => cache.match(url.href));
  return hit || fetch(request);
}

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET' || !request.url.startsWith(SCOPE)) return;
  event.respondWith(answer(event));
});
