//! What the page asks of the browser in JavaScript, because the bindings
//! cannot name it (a dynamic `import()` is syntax) or because one promise
//! chain reads more plainly here than its steps in Rust.

use js_sys::Promise;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(
    inline_js = "export function import_module(url) { return import(url); }
export function beside_page(name) { return new URL('../../' + name, import.meta.url).href; }
export function fetch_text(url) {
  return fetch(url).then((r) => r.ok ? r.text() : Promise.reject(new Error(url + ' answered ' + r.status)));
}"
)]
extern "C" {
    #[wasm_bindgen(catch)]
    pub fn import_module(url: &str) -> Result<Promise, JsValue>;
    /// The address of `name` in the folder of the page's own files, from
    /// this snippet's place in it (`snippets/CRATE/inline0.js`), not the
    /// document's address: a copy published with `--public-url` and opened
    /// at another address (the folder without its final slash) still finds them.
    pub fn beside_page(name: &str) -> String;
    /// The text at `url`, or an `Error` naming the status it answered.
    pub fn fetch_text(url: &str) -> Promise;
}
