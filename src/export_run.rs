//! The page's side of an export (`export_job.rs`): a worker of its own
//! (`one_job.rs`) writes the file and sends it as a `Blob`, the page saves
//! the `Blob`, and the worker ends.

use wasm_bindgen::JsCast;
use web_sys::Blob;
use yew::Callback;

use crate::export_job::{ExportJob, ExportReply, ExportRequest};
use crate::one_job::OneJob;

/// An export under way; dropping it ends the worker.
pub type ExportRun = OneJob;

/// Starts `job`; `done` hears once: the file was offered as `name`, or why not.
pub fn start(
    job: ExportJob,
    name: String,
    done: Callback<Result<(), String>>,
) -> Result<ExportRun, String> {
    let request = ExportRequest { export: job }.to_json();
    let failed = done.clone();
    crate::one_job::start(
        request,
        move |worker, data| {
            if let Some(pair) = data.dyn_ref::<js_sys::Array>() {
                let blob = pair.get(1).dyn_into::<Blob>();
                done.emit(match blob {
                    Ok(blob) => crate::download::save_blob(&name, &blob),
                    Err(_) => Err("the worker sent something that is not a file".into()),
                });
                // The worker's memory grew to hold the run: let it go now
                // rather than when the panel closes. The page's Blob keeps
                // the file.
                worker.terminate();
                return;
            }
            let text = data.as_string().unwrap_or_default();
            if let Ok(ExportReply::Failed { why, .. }) = serde_json::from_str(&text) {
                worker.terminate();
                done.emit(Err(why));
            }
        },
        move || failed.emit(Err("the background worker failed to load or stopped".into())),
    )
}
