//! Lease Playground: the Yew app. It mounts into `#app`, replacing the boot
//! message that `static/boot.js` shows until the app starts (or says why not).

// Talc instead of Rust's default dlmalloc (Cargo.toml says why).
#[cfg(target_arch = "wasm32")]
#[global_allocator]
static TALC: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

mod app;
mod background_run;
mod browser;
mod catalog;
mod charts;
mod command;
mod compare;
mod controls;
mod diagnosis;
mod host;
mod link;
mod memo;
mod panel_host;
mod panel_view;
mod playback;
mod rehearsal;
mod run_handle;
mod run_status;
mod scenario_info;
mod shortcuts;
mod state;
mod timeline;
mod timing;
mod totals;
mod url;

// Shared with the panels module and the worker, named at the root: the
// page's modules reach them as `crate::panel`, `crate::budget`.
use lease_jobs::{budget, import_job};
use lease_ui::{embed, panel};

fn main() {
    #[cfg(target_arch = "wasm32")]
    {
        lease_ui::crash::install();
        // A link to a shipped scenario the page does not carry waits for its
        // file (`catalog`); static/boot.js's message stays up meanwhile.
        let search = gloo::utils::window()
            .location()
            .search()
            .unwrap_or_default();
        wasm_bindgen_futures::spawn_local(async move {
            catalog::fetch_for_query(&search).await;
            start();
        });
    }
    // Natively there is no page to mount (the native build runs the tests),
    // but the app is the same code: naming `start` keeps it all in the lints.
    #[cfg(not(target_arch = "wasm32"))]
    let _ = start;
}

fn start() {
    let document = gloo::utils::document();
    if let Some(boot) = document.get_element_by_id("boot") {
        boot.remove();
    }
    if let Some(root) = document.get_element_by_id("app") {
        yew::Renderer::<app::App>::with_root(root).render();
    }
    // Tell static/boot.js that the app is up, so its start-up timeout stays quiet.
    let window = gloo::utils::window();
    if let Ok(f) = js_sys::Reflect::get(&window, &"__leasePlaygroundStarted".into()) {
        if let Some(f) = wasm_bindgen::JsCast::dyn_ref::<js_sys::Function>(&f) {
            let _ = f.call0(&window);
        }
    }
}
