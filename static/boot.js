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

  // Offline use (docs/publishing.md, "Offline"), from the folder this script
  // is in, which is the copy's. Not in a frame: a docs page's reader did not
  // ask to keep a copy of what the page embeds.
  var here = document.currentScript && document.currentScript.src;
  var embed = new URLSearchParams(location.search).get('embed');
  if (!here || !('serviceWorker' in navigator) || window.top !== window ||
      (embed !== null && !/^\s*(0|false|no|off)\s*$/i.test(embed))) return;
  var manifest = document.createElement('link');
  manifest.rel = 'manifest';
  manifest.href = new URL('manifest.webmanifest', here).href;
  document.head.appendChild(manifest);
  // After the page's own first load, which it does not slow.
  window.addEventListener('load', function () {
    navigator.serviceWorker.register(new URL('service-worker.js', here).href).catch(function () {});
  });
})();
