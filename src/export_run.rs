//! The page's side of an export (`export_job.rs`): a worker of its own
//! writes the file and sends it as a `Blob`, the page saves the `Blob`, and
//! the worker ends. Dropping the handle (a newer export, or the panel
//! closing) ends a worker still at work.

use gloo::events::EventListener;
use wasm_bindgen::JsCast;
use web_sys::{Blob, MessageEvent, Worker};
use yew::Callback;

use crate::export_job::{ExportJob, ExportReply, ExportRequest};
use crate::sweep_job::Reply;

/// An export under way.
pub struct ExportRun {
    worker: Worker,
    _listeners: [EventListener; 2],
}

impl Drop for ExportRun {
    fn drop(&mut self) {
        self.worker.terminate();
    }
}

/// Starts `job`; `done` hears once: the file was offered as `name`, or why not.
pub fn start(
    job: ExportJob,
    name: String,
    done: Callback<Result<(), String>>,
) -> Result<ExportRun, String> {
    let worker = crate::background_run::spawn_worker()?;
    let request = ExportRequest { export: job }.to_json();
    let on_message = {
        let (worker2, done) = (worker.clone(), done.clone());
        EventListener::new(&worker, "message", move |e| {
            let Some(e) = e.dyn_ref::<MessageEvent>() else {
                return;
            };
            let data = e.data();
            if let Some(pair) = data.dyn_ref::<js_sys::Array>() {
                let blob = pair.get(1).dyn_into::<Blob>();
                done.emit(match blob {
                    Ok(blob) => crate::download::save_blob(&name, &blob),
                    Err(_) => Err("the worker sent something that is not a file".into()),
                });
                // The worker's memory grew to hold the run: let it go now
                // rather than when the panel closes. The page's Blob keeps
                // the file.
                worker2.terminate();
                return;
            }
            let text = data.as_string().unwrap_or_default();
            // Jobs posted before the worker's wasm loaded would be lost.
            if matches!(serde_json::from_str(&text), Ok(Reply::Ready)) {
                let _ = worker2.post_message(&request.as_str().into());
            } else if let Ok(ExportReply::Failed { why, .. }) = serde_json::from_str(&text) {
                worker2.terminate();
                done.emit(Err(why));
            }
        })
    };
    let on_error = EventListener::new(&worker, "error", move |_| {
        done.emit(Err("the background worker failed to load or stopped".into()));
    });
    Ok(ExportRun {
        worker,
        _listeners: [on_message, on_error],
    })
}
