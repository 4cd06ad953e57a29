// The background worker's loader, in place of Trunk's shim. If the worker's
// wasm fails to load (a blocked request, a broken deploy), the failure is
// thrown where the page hears it, as an "error" event on its Worker, rather
// than left as a rejected promise inside the worker, which the page never
// sees: a large run would show "Starting the background worker" for ever.
importScripts('../lease-worker.js');
wasm_bindgen({ module_or_path: '../lease-worker_bg.wasm' }).catch((e) => {
  setTimeout(() => {
    throw e;
  });
});
