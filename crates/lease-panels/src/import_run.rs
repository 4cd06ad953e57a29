//! Reading a dropped or picked scenario file, and naming a bad file's field
//! (`lease_jobs::import_job`): the panels module has already read the file
//! and found it wrong, without the field's path; a worker of its own reads
//! it again with the path.

use std::cell::{Cell, RefCell};
use std::ops::ControlFlow;
use std::rc::Rc;

use gloo::file::callbacks::FileReader;
use gloo::timers::callback::Timeout;
use yew::Callback;

use lease_jobs::import_job::ImportJob;
use lease_jobs::{Job, Reply, WorkerClient};

use crate::import::{import_text, shorten, Imported, Refused, MAX_IMPORT_BYTES};

/// How long the page waits for the worker before it shows its own message.
/// A worker that fails to load says so (`static/lease-worker-loader.js`);
/// this is for one that loads and never answers.
const PATIENCE_MS: u32 = 8_000;

/// A file's explanation under way; dropping it (a newer file) ends the
/// worker, and so does running out of patience.
pub struct Explaining {
    _job: Rc<RefCell<Option<WorkerClient>>>,
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
    let job = Job::Import(ImportJob {
        file_name: file_name.to_string(),
        text,
    });
    let answered = Rc::new(Cell::new(false));
    // Emits at most once, whichever answer comes first; `None`: the page's
    // own `fallback`.
    let answer = move |why: Option<String>| {
        if !answered.replace(true) {
            done.emit(Err(why.unwrap_or_else(|| fallback.clone())));
        }
    };
    let (on_reply, on_error, on_timeout) = (answer.clone(), answer.clone(), answer.clone());
    let client = WorkerClient::spawn(
        move |reply, _| match reply {
            Reply::Explained { why } => {
                on_reply(why);
                ControlFlow::Break(())
            }
            _ => ControlFlow::Continue(()),
        },
        move || on_error(None),
    );
    match client {
        Ok(client) => {
            client.post(&job);
            let job = Rc::new(RefCell::new(Some(client)));
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

/// Keeps a file read alive until it finishes (dropping it cancels the read),
/// and the worker naming a bad file's field.
#[derive(Default)]
pub struct FileSlot {
    reader: Option<FileReader>,
    explaining: Option<Explaining>,
}

pub type ReaderSlot = Rc<RefCell<FileSlot>>;

/// Reads `file` as text and hands the parsed scenario, or why not, to `done`.
pub fn read_scenario_file(file: web_sys::File, slot: &ReaderSlot, done: Callback<Imported>) {
    let name = file.name();
    if file.size() > MAX_IMPORT_BYTES {
        done.emit(Err(format!(
            "{}: {:.0} KB is too large for a scenario file (at most 1 MB)",
            shorten(&name),
            file.size() / 1024.0
        )));
        return;
    }
    let file = gloo::file::File::from(file);
    // A newer file: the older one's explanation is no longer wanted.
    slot.borrow_mut().explaining = None;
    let slot2 = slot.clone();
    let reader = gloo::file::callbacks::read_as_text(&file, move |text| match text {
        Ok(text) => match import_text(&name, &text) {
            Ok(read) => done.emit(Ok(read)),
            Err(Refused::Because(why)) => done.emit(Err(why)),
            Err(Refused::NameTheField { fallback }) => {
                let job = explain(&name, text, fallback, done.clone());
                slot2.borrow_mut().explaining = job;
            }
        },
        Err(e) => done.emit(Err(format!(
            "{}: the browser could not read it ({e})",
            shorten(&name)
        ))),
    });
    slot.borrow_mut().reader = Some(reader);
}
