// Shows a message instead of a blank page when the app cannot start: a browser
// without WebAssembly, a failed download, or a panic while mounting.
(function () {
  var started = false;
  window.__leasePlaygroundStarted = function () { started = true; };
  function fail(text) {
    if (started) return;
    var box = document.getElementById('boot');
    var msg = document.getElementById('boot-message');
    if (!box || !msg) return;
    box.classList.add('boot-failed');
    msg.textContent = 'The playground could not start: ' + text +
      '. Reload the page; if it keeps failing, your browser may lack WebAssembly support.';
  }
  if (typeof WebAssembly !== 'object') { fail('this browser has no WebAssembly'); return; }
  window.addEventListener('error', function (e) { fail(e.message || 'a script failed to load'); });
  window.addEventListener('unhandledrejection', function (e) {
    fail((e.reason && e.reason.message) || String(e.reason));
  });
  setTimeout(function () { fail('it did not finish loading within 20 seconds'); }, 20000);

  // The browser keeps every User Timing measure until the page clears it,
  // and the timeline measures each frame it paints (src/timing.rs): an
  // hour of playing would keep over 200,000. A thousand cover what the
  // benchmark and the browser tests read. Cheaper here than in the wasm.
  try {
    var measured = 0;
    new PerformanceObserver(function (l) {
      if ((measured += l.getEntries().length) > 1000) { performance.clearMeasures(); measured = 0; }
    }).observe({ type: 'measure' });
  } catch (e) { /* no observer: nothing to clear with */ }

  // Offline use (docs/publishing.md, "Offline"), from the folder this script
  // is in, which is the copy's. Not in a frame: a docs page's reader did not
  // ask to keep a copy of what the page embeds.
  var here = document.currentScript && document.currentScript.src;
  var embed = new URLSearchParams(location.search).get('embed');
  if (!here || !('serviceWorker' in navigator) || window.top !== window ||
      (embed !== null && !/^\s*(0|false|no|off)\s*$/i.test(embed))) return;
  var sw = navigator.serviceWorker;
  // Said only once a page opened now would be answered from the stored copy:
  // the worker that controls this page is active (its files all stored).
  // The manifest comes then too: installing a copy that cannot open
  // offline would promise what it cannot keep, and the first view does
  // without it.
  function ready() {
    var c = sw.controller;
    if (!c || document.getElementById('offline-status')) return;
    if (c.state !== 'activated') return c.addEventListener('statechange', ready);
    var manifest = document.createElement('link');
    manifest.rel = 'manifest';
    manifest.href = new URL('manifest.webmanifest', here).href;
    document.head.appendChild(manifest);
    var p = document.createElement('p');
    p.id = 'offline-status';
    p.className = 'muted offline-status';
    p.setAttribute('role', 'status');
    p.textContent = 'Stored offline: the playground opens without a network.';
    document.body.appendChild(p);
  }
  sw.addEventListener('controllerchange', ready);
  ready();
  // After the page's own first load, which it does not slow.
  addEventListener('load', function () {
    sw.register(new URL('service-worker.js', here).href).catch(function () {});
  });
})();

// The host API (docs/embedding.md), here rather than in the page's wasm,
// where the same work costs several times the download. Messages are taken
// only from the framing page, and only from the origin host_origin= names
// when the link has one; their shape is checked and the page gets the type
// and one argument (src/host.rs), through window.__leaseMsg and a
// `lease-host` event. Events go to that page, to that origin.
(function () {
  var host = window.parent, P = 'lease-playground:', ready = false;
  if (host === window) return;
  var only = (new URLSearchParams(location.search).get('host_origin') || '').trim().replace(/\/+$/, '').toLowerCase();
  function post(m) {
    try { host.postMessage(m, only || '*'); } catch (e) { /* host_origin is no origin: the link's notice says so */ }
  }
  // The page hands over each run's totals as JSON text, and its height.
  window.__leaseRun = function (text) {
    var m = JSON.parse(text);
    if (!ready) { ready = true; post({ type: P + 'ready' }); }
    m.type = P + 'run';
    post(m);
  };
  window.__leaseHeight = function (h) {
    post({ type: P + 'height', height: +h });
    post({ context: 'iframe.resize', height: +h });
  };
  // Escape that nothing in the playground took (no panel, menu or run's
  // details to close: those call preventDefault) leaves the figure: the
  // framing page (embed.js) puts the focus back on the figure's stop in
  // its own page, where its next Escape is its own.
  addEventListener('keydown', function (e) {
    if (e.key === 'Escape' && !e.defaultPrevented && !e.ctrlKey && !e.metaKey && !e.altKey) post({ type: P + 'leave' });
  });
  addEventListener('message', function (e) {
    var d = e.data, k = d && typeof d.type === 'string' && d.type.indexOf(P) === 0 && d.type.slice(P.length), a = '', f;
    if (e.source !== host || (only && e.origin !== only) || !k) return;
    if (k === 'set-theme') a = typeof d.theme === 'string' ? d.theme.slice(0, 40) : null;
    else if (k === 'seek') a = typeof d.t_ms === 'number' && d.t_ms >= 0 && d.t_ms < 1e15 ? String(Math.floor(d.t_ms)) : null;
    else if (k === 'set') {
      f = d.fields;
      if (typeof f === 'string') a = f;
      else a = f && typeof f === 'object' ? String(new URLSearchParams(f)) : null;
    }
    if (a !== null) { window.__leaseMsg = [k, a]; dispatchEvent(new Event('lease-host')); }
  });
})();

// Another shipped scenario's still picture, for a link that names it and
// nothing more (index.html's head decided, from the link): drawn at build
// time into previews/, in the scheme's colours. A name that is not a shipped
// scenario has no file, and so no picture.
(function (d) {
  var name = d.documentElement.getAttribute('data-still');
  var box = d.getElementById('boot-picture');
  if (!box || !name || name === 'inline') return;
  var img = new Image();
  img.alt = name + ': a still picture of the timeline while the playground loads';
  img.onerror = function () { img.remove(); };
  img.src = 'previews/' + name + (d.documentElement.getAttribute('data-theme') === 'dark' ? '.dark' : '') + '.svg';
  box.appendChild(img);
})(document);
