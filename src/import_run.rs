//! The page's side of naming a bad file's field (`import_job.rs`): the page
//! has already read the file and found it wrong, without the field's path; a
//! worker of its own (`one_job.rs`) reads it again with the path.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use gloo::timers::callback::Timeout;
use yew::Callback;

use crate::import::Imported;
use crate::import_job::{ImportJob, ImportReply, ImportRequest};
use crate::one_job::OneJob;

/// How long the page waits for the worker before it shows its own message.
/// A worker that fails to load says so (`static/lease-worker-loader.js`);
/// this is for one that loads and never answers.
const PATIENCE_MS: u32 = 8_000;

/// A file's explanation under way; dropping it (a newer file) ends the
/// worker, and so does running out of patience.
pub struct Explaining {
    _job: Rc<RefCell<Option<OneJob>>>,
    _patience: Timeout,
}

/// Asks a worker why `text` cannot be read; `done` hears once, with the
/// worker's message or, if the worker cannot say (it failed to load, took
/// longer than `PATIENCE_MS`, or read the file after all), with the page's
/// own `fallback`.
pub fn explain(
    file_name: &str,
    text: String,
    fallback: String,
    done: Callback<Imported>,
) -> Option<Explaining> {
    let request = ImportRequest {
        import: ImportJob {
            file_name: file_name.to_string(),
            text,
        },
    }
    .to_json();
    let answered = Rc::new(Cell::new(false));
    // Emits at most once, whichever answer comes first; `None`: the page's
    // own `fallback`.
    let answer = move |why: Option<String>| {
        if !answered.replace(true) {
            done.emit(Err(why.unwrap_or_else(|| fallback.clone())));
        }
    };
    let (on_reply, on_error, on_timeout) = (answer.clone(), answer.clone(), answer.clone());
    let job = crate::one_job::start(
        request,
        move |worker, data| {
            let text = data.as_string().unwrap_or_default();
            if let Ok(reply) = serde_json::from_str::<ImportReply>(&text) {
                worker.terminate();
                on_reply(reply.explained);
            }
        },
        move || on_error(None),
    );
    match job {
        Ok(job) => {
            let job = Rc::new(RefCell::new(Some(job)));
            let held = job.clone();
            Some(Explaining {
                _job: job,
                _patience: Timeout::new(PATIENCE_MS, move || {
                    // Ends the worker: its answer would come too late.
                    held.borrow_mut().take();
                    on_timeout(None);
                }),
            })
        }
        Err(_) => {
            answer(None);
            None
        }
    }
}
