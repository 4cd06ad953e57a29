//! The panels' side of an export (`lease_jobs::export_job`): a worker of its
//! own writes the file and sends it as a `Blob`, the page saves the `Blob`,
//! and the worker ends.

use std::ops::ControlFlow;

use lease_jobs::export_job::ExportJob;
use lease_jobs::{Job, Reply, WorkerClient};
use wasm_bindgen::JsCast;
use web_sys::Blob;
use yew::Callback;

/// An export under way; dropping it ends the worker.
pub type ExportRun = WorkerClient;

/// Starts `job`; `done` hears once: the file was offered as `name`, or why not.
pub fn start(
    job: ExportJob,
    name: String,
    done: Callback<Result<(), String>>,
) -> Result<ExportRun, String> {
    let failed = done.clone();
    let client = WorkerClient::spawn(
        move |reply, beside| {
            match reply {
                Reply::ExportDone { .. } => done.emit(match beside.dyn_into::<Blob>() {
                    Ok(blob) => crate::download::save_blob(&name, &blob),
                    Err(_) => Err("the worker sent something that is not a file".into()),
                }),
                Reply::Failed { why, .. } => done.emit(Err(why)),
                _ => return ControlFlow::Continue(()),
            }
            // The worker's memory grew to hold the run: let it go now rather
            // than when the panel closes. The page's Blob keeps the file.
            ControlFlow::Break(())
        },
        move || failed.emit(Err("the background worker failed to load or stopped".into())),
    )?;
    client.post(&Job::Export(job));
    Ok(client)
}
