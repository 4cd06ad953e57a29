//! Lease Playground: the Yew app. It mounts into `#app`, replacing the boot
//! message that `static/boot.js` shows until the app starts (or says why not).
// Natively only the unit tests reach the app's modules; the page is wasm32.
#![cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]

// Talc instead of Rust's default dlmalloc: smaller (Cargo.toml says by how much).
#[cfg(target_arch = "wasm32")]
#[global_allocator]
static TALC: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

mod app;
mod background_run;
mod browser;
mod budget;
mod catalog;
mod charts;
mod command;
mod compare;
mod controls;
#[cfg(target_arch = "wasm32")]
mod crash;
mod diagnosis;
// Only the panels loaded on demand save files (crates/lease-panels); its
// tests run here.
#[cfg(test)]
mod download;
mod embed;
mod export_job;
// Reading a scenario file is loaded on demand (crates/lease-panels); its
// tests run here.
#[cfg(test)]
mod import;
// The page itself uses only `shorten`.
#[cfg_attr(not(test), allow(dead_code))]
mod import_job;
#[cfg(test)]
mod import_run;
mod link;
mod memo;
#[cfg(test)]
mod one_job;
mod panel;
mod panel_host;
mod playback;
mod run_handle;
mod run_job;
mod run_status;
mod scenario_info;
mod shortcuts;
mod sweep_job;
mod timeline;
mod timing;
mod totals;
// The tours panel is loaded on demand (crates/lease-panels); its tests run here.
#[cfg(test)]
mod tour_look;
mod url;
mod worker;

fn main() {
    #[cfg(target_arch = "wasm32")]
    {
        crash::install();
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
}

#[cfg(target_arch = "wasm32")]
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
