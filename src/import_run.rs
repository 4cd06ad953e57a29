//! The page's side of naming a bad file's field (`import_job.rs`): the page
//! has already read the file and found it wrong, without the field's path; a
//! worker of its own (`one_job.rs`) reads it again with the path.

use yew::Callback;

use crate::import::Imported;
use crate::import_job::{ImportJob, ImportReply, ImportRequest};
use crate::one_job::OneJob;

/// Asks a worker why `text` cannot be read; `done` hears once, with the
/// worker's message or, if the worker cannot say (it failed to load, or it
/// read the file after all), with the page's own `fallback`.
pub fn explain(
    file_name: &str,
    text: String,
    fallback: String,
    done: Callback<Imported>,
) -> Option<OneJob> {
    let request = ImportRequest {
        import: ImportJob {
            file_name: file_name.to_string(),
            text,
        },
    }
    .to_json();
    let (on_reply, on_error) = (done.clone(), done.clone());
    let (fallback2, fallback3) = (fallback.clone(), fallback.clone());
    let job = crate::one_job::start(
        request,
        move |worker, data| {
            let text = data.as_string().unwrap_or_default();
            if let Ok(reply) = serde_json::from_str::<ImportReply>(&text) {
                worker.terminate();
                on_reply.emit(Err(reply.explained.unwrap_or_else(|| fallback2.clone())));
            }
        },
        move || on_error.emit(Err(fallback3.clone())),
    );
    match job {
        Ok(job) => Some(job),
        Err(_) => {
            done.emit(Err(fallback));
            None
        }
    }
}
