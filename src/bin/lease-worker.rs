//! The page's background worker (a second wasm binary that Trunk builds with
//! `data-type="worker"`): sweeps run here so that the page stays live. It
//! reads one JSON job per message and posts JSON replies (`sweep_job.rs`).
// Natively this binary does nothing; only its tests use the job module.
#![cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]

#[path = "../sweep_job.rs"]
mod sweep_job;

fn main() {
    #[cfg(target_arch = "wasm32")]
    in_worker::start();
}

#[cfg(target_arch = "wasm32")]
mod in_worker {
    use wasm_bindgen::prelude::*;
    use wasm_bindgen::JsCast;
    use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

    use super::sweep_job::{run, Reply};

    pub fn start() {
        console_error_panic_hook::set_once();
        let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
        let out = scope.clone();
        let on_message = Closure::<dyn Fn(MessageEvent)>::new(move |e: MessageEvent| {
            let text = e.data().as_string().unwrap_or_default();
            run(&text, &mut |reply| {
                let _ = out.post_message(&reply.to_json().into());
            });
        });
        scope.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        // The handler lives as long as the worker.
        on_message.forget();
        // Jobs posted before the wasm loaded were lost: the page waits for this.
        let _ = scope.post_message(&Reply::Ready.to_json().into());
    }
}
