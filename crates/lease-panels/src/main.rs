//! The panels module as Trunk builds it (index.html): the library's
//! `show`, `hide` and `import_file` are its exports.

// As the page: talc rather than dlmalloc.
#[cfg(target_arch = "wasm32")]
#[global_allocator]
static TALC: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

fn main() {
    lease_panels::start();
}
