//! The page's background worker (a second wasm binary that Trunk builds with
//! `data-type="worker"`): sweeps, large runs and exports go here so that the page
//! stays live, and the explanation of a scenario file the page cannot read
//! (`import_job.rs`). It reads one JSON job per message; replies are JSON text,
//! except a finished run, which is posted as `[json, ArrayBuffer]` with the
//! buffer transferred, and a finished export, posted as `[json, Blob]`
//! (`run_job.rs`, `sweep_job.rs`, `export_job.rs`).
// Natively this binary does nothing; only its tests use the job modules.
#![cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]

#[path = "../../../src/export_job.rs"]
mod export_job;
#[path = "../../../src/import_job.rs"]
mod import_job;
#[path = "../../../src/run_job.rs"]
mod run_job;
#[path = "../../../src/sweep_job.rs"]
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

    use super::export_job::{self, ExportReply, ExportRequest};
    use super::import_job::{self, ImportRequest};
    use super::run_job::{self, RunReply, RunRequest};
    use super::sweep_job::{run, Reply};

    fn clock() -> f64 {
        js_sys::Date::now()
    }

    /// Posts a finished run: its reply and its bytes, the buffer moved to the
    /// page rather than copied.
    fn post_run(scope: &DedicatedWorkerGlobalScope, id: u32, reply: &RunReply, bytes: &[u8]) {
        let array = js_sys::Uint8Array::new_with_length(bytes.len() as u32);
        array.copy_from(bytes);
        let buffer = array.buffer();
        let message = js_sys::Array::of2(&reply.to_json().into(), &buffer);
        let transfer = js_sys::Array::of1(&buffer);
        if scope
            .post_message_with_transfer(&message, &transfer)
            .is_err()
        {
            let failed = RunReply::Failed {
                id,
                why: "the worker could not hand the run to the page".into(),
            };
            let _ = scope.post_message(&failed.to_json().into());
        }
    }

    /// Writes an export and posts it as a `Blob`, which the page saves
    /// without reading: `[reply, blob]`.
    fn post_export(scope: &DedicatedWorkerGlobalScope, request: &ExportRequest) {
        let job = &request.export;
        let blob = export_job::export(job).and_then(|text| {
            let opts = web_sys::BlobPropertyBag::new();
            opts.set_type(job.kind.mime());
            let parts = js_sys::Array::of1(&text.as_str().into());
            web_sys::Blob::new_with_str_sequence_and_options(&parts, &opts)
                .map(|b| (b, text.len()))
                .map_err(|_| "the worker could not make the file".to_string())
        });
        let message: JsValue = match blob {
            Ok((blob, bytes)) => {
                let done = ExportReply::Done { id: job.id, bytes };
                js_sys::Array::of2(&done.to_json().into(), &blob).into()
            }
            Err(why) => ExportReply::Failed { id: job.id, why }.to_json().into(),
        };
        let _ = scope.post_message(&message);
    }

    pub fn start() {
        console_error_panic_hook::set_once();
        let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
        let out = scope.clone();
        let on_message = Closure::<dyn Fn(MessageEvent)>::new(move |e: MessageEvent| {
            let text = e.data().as_string().unwrap_or_default();
            if let Ok(RunRequest { run: job }) = serde_json::from_str::<RunRequest>(&text) {
                let (reply, bytes) = run_job::run(&job, &clock, &mut |r| {
                    let _ = out.post_message(&r.to_json().into());
                });
                match bytes {
                    Some(b) => post_run(&out, job.id, &reply, &b),
                    None => {
                        let _ = out.post_message(&reply.to_json().into());
                    }
                }
                return;
            }
            if let Ok(request) = serde_json::from_str::<ExportRequest>(&text) {
                post_export(&out, &request);
                return;
            }
            if let Ok(ImportRequest { import }) = serde_json::from_str::<ImportRequest>(&text) {
                let _ = out.post_message(&import_job::explain(&import).to_json().into());
                return;
            }
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
