//! A file of durations for the "Your latency data" panel: chosen or dropped,
//! read by the background worker (`lease_jobs::durations_job`) a slice at a
//! time with its progress shown, so that a file of ten million lines keeps
//! the page live and stops at the limit.

use std::cell::RefCell;
use std::ops::ControlFlow;
use std::rc::Rc;

use lease_format::display;
use lease_jobs::{DurationsJob, DurationsRead, Job, Reply, WorkerClient};
use lease_latency::Unit;
use yew::prelude::*;

/// A file read, kept with the file so that another column can be read.
#[derive(Debug)]
pub struct Done {
    pub file: web_sys::File,
    pub read: DurationsRead,
    pub samples_ms: Vec<f64>,
    pub count: usize,
    /// Where the values came from, in a sentence.
    pub described: String,
}

#[derive(Clone, Debug, Default)]
pub enum FileState {
    #[default]
    Idle,
    Reading {
        name: String,
        read_bytes: u64,
        total_bytes: u64,
        values: u64,
    },
    Done(Rc<Done>),
    Failed(String),
}

impl PartialEq for FileState {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (FileState::Idle, FileState::Idle) => true,
            (
                FileState::Reading {
                    read_bytes: a,
                    values: b,
                    name: n,
                    ..
                },
                FileState::Reading {
                    read_bytes: c,
                    values: d,
                    name: m,
                    ..
                },
            ) => a == c && b == d && n == m,
            (FileState::Done(a), FileState::Done(b)) => Rc::ptr_eq(a, b),
            (FileState::Failed(a), FileState::Failed(b)) => a == b,
            _ => false,
        }
    }
}

thread_local! {
    /// The worker reading a file; a new file or the panel closing ends it.
    static CLIENT: RefCell<Option<WorkerClient>> = const { RefCell::new(None) };
    static NEXT_ID: RefCell<u32> = const { RefCell::new(0) };
}

/// Ends the reading under way, if any.
pub fn stop() {
    CLIENT.with(|c| c.borrow_mut().take());
}

fn described(name: &str, r: &DurationsRead) -> String {
    let unit = match r.unit.as_str() {
        "s" => "seconds",
        "m" => "minutes",
        _ => "milliseconds",
    };
    let whence = if r.unit_from_header {
        "as its header says"
    } else {
        "as chosen"
    };
    format!(
        "From {name}: {} values of the column {:?}, in {unit} ({whence}).",
        display::count(r.count),
        r.column
    )
}

/// Reads `file` in the background worker into `state`.
pub fn start(
    file: web_sys::File,
    column: Option<String>,
    unit: Unit,
    state: UseStateHandle<FileState>,
) {
    stop();
    let id = NEXT_ID.with(|n| {
        let mut n = n.borrow_mut();
        *n += 1;
        *n
    });
    let name = file.name();
    let total_bytes = file.size() as u64;
    state.set(FileState::Reading {
        name: name.clone(),
        read_bytes: 0,
        total_bytes,
        values: 0,
    });
    let on_reply = {
        let (state, file, name) = (state.clone(), file.clone(), name.clone());
        move |reply: Reply, _| match reply {
            Reply::DurationsProgress {
                id: i,
                read_bytes,
                total_bytes,
                values,
            } if i == id => {
                state.set(FileState::Reading {
                    name: name.clone(),
                    read_bytes,
                    total_bytes,
                    values,
                });
                ControlFlow::Continue(())
            }
            Reply::DurationsDone { id: i, read } if i == id => {
                state.set(FileState::Done(Rc::new(Done {
                    file: file.clone(),
                    samples_ms: read.samples_ms.clone(),
                    count: read.count as usize,
                    described: described(&name, &read),
                    read,
                })));
                ControlFlow::Break(())
            }
            Reply::Failed { id: i, why } if i == id || i == 0 => {
                state.set(FileState::Failed(format!("{name}: {why}")));
                ControlFlow::Break(())
            }
            _ => ControlFlow::Continue(()),
        }
    };
    let on_error = {
        let state = state.clone();
        move || {
            state.set(FileState::Failed(
                "the background worker failed to load or stopped; choose the file again".into(),
            ))
        }
    };
    match WorkerClient::spawn(on_reply, on_error) {
        Ok(client) => {
            client.post_with(
                &Job::Durations(DurationsJob {
                    id,
                    column,
                    unit: unit.name().into(),
                    bytes: total_bytes,
                }),
                file.as_ref(),
            );
            CLIENT.with(|c| *c.borrow_mut() = Some(client));
        }
        Err(e) => state.set(FileState::Failed(e)),
    }
}

#[derive(Properties, PartialEq)]
pub struct DurationsFileProps {
    pub state: FileState,
    /// A file to read, and the column to read (`None`: the worker's pick).
    pub start: Callback<(web_sys::File, Option<String>)>,
}

#[function_component(DurationsFile)]
pub fn durations_file(p: &DurationsFileProps) -> Html {
    let on_choose = {
        let start = p.start.clone();
        Callback::from(move |e: Event| {
            let input = e.target_unchecked_into::<web_sys::HtmlInputElement>();
            if let Some(f) = input.files().and_then(|l| l.get(0)) {
                start.emit((f, None));
            }
            // Choosing the same file again reads it again.
            input.set_value("");
        })
    };
    let on_drop = {
        let start = p.start.clone();
        Callback::from(move |e: DragEvent| {
            // Not the panels' own drop, which imports a scenario file.
            e.stop_propagation();
            if let Some(f) = lease_ui::panel::dropped_file(&e) {
                start.emit((f, None));
            }
        })
    };
    let on_drag_over = Callback::from(|e: DragEvent| {
        e.prevent_default();
        e.stop_propagation();
    });
    let status = match &p.state {
        FileState::Idle => html! {},
        FileState::Reading {
            name,
            read_bytes,
            total_bytes,
            values,
        } => {
            let share = if *total_bytes > 0 {
                (*read_bytes as f64 / *total_bytes as f64 * 100.0).min(100.0)
            } else {
                0.0
            };
            html! {
                <div class="panel-row">
                    <progress id="latency-file-progress" max={total_bytes.max(&1).to_string()} value={read_bytes.to_string()}></progress>
                    <span id="latency-file-status" role="status">{format!(
                        "Reading {name} in the background: {} values so far, {share:.0}% of the file…",
                        display::count(*values),
                    )}</span>
                </div>
            }
        }
        FileState::Done(done) => {
            let on_column = {
                let (start, file) = (p.start.clone(), done.file.clone());
                Callback::from(move |e: Event| {
                    let v = e
                        .target_unchecked_into::<web_sys::HtmlSelectElement>()
                        .value();
                    start.emit((file.clone(), Some(v)));
                })
            };
            html! {
                <div class="panel-row">
                    <span id="latency-file-status" role="status">{done.described.clone()}</span>
                    if done.read.columns.len() > 1 {
                        <label for="latency-column">{"Column"}</label>
                        <select id="latency-column" onchange={on_column}>
                            { for done.read.columns.iter().map(|c| html! { <option value={c.clone()} selected={*c == done.read.column}>{c.clone()}</option> }) }
                        </select>
                    }
                </div>
            }
        }
        FileState::Failed(_) => html! {},
    };
    html! {
        <div class="dropzone" id="latency-drop" ondrop={on_drop} ondragover={on_drag_over}>
            <label for="latency-file">{"Or choose a CSV or text file of durations (or drop one here)"}</label>
            <input type="file" id="latency-file" accept=".csv,.tsv,.txt,text/csv,text/plain" onchange={on_choose} />
            {status}
        </div>
    }
}
