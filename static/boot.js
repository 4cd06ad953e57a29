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
})();
