//! The page's side of large runs: it hands the pending run to the background
//! worker (`lease_jobs::run_job`), passes the worker's progress on, and takes the
//! finished run, with what the detectors found in it (`diagnosis.rs`). A newer pending run, or none (cancel), stops the worker
//! mid-run: the engine's loop never yields, so the only way to stop it is to
//! terminate the worker and start a fresh one.

use std::cell::RefCell;
use std::ops::ControlFlow;
use std::rc::Rc;

use gloo::timers::callback::Timeout;
use lease_jobs::run_job::RunJob;
use lease_jobs::{Job, Reply, WorkerClient};
use lease_sim::{Run, Scenario};
use lease_view::IndexBuilder;
use lease_wire::Decoding;
use yew::prelude::*;

use crate::command::{Command, RunProgress};
use crate::run_handle::RunHandle;

/// The worker and the job it holds.
#[derive(Default)]
struct Slot {
    worker: Option<WorkerClient>,
    /// The job posted to it (or waiting for it to load), if not yet answered.
    busy: Option<u32>,
    /// What the detectors found in the run of this id, which came just
    /// before the run: given to the page with the run.
    findings: Option<(u32, Vec<lease_diagnose::Finding>)>,
    /// Bumped when the worker is stopped: a handover under way for an older
    /// worker checks it and gives up.
    generation: u32,
}

impl Slot {
    fn stop(&mut self) {
        // Dropping the client ends the worker.
        self.worker = None;
        self.busy = None;
        self.findings = None;
        self.generation = self.generation.wrapping_add(1);
    }
}

/// Runs `f` in a task of its own, unless the worker was stopped meanwhile.
/// Each step of taking a finished run (copy, decode, index, show) is short;
/// run back to back in one task they would hold the page for over 50 ms.
fn then(slot: &Rc<RefCell<Slot>>, generation: u32, f: impl FnOnce() + 'static) {
    let slot = slot.clone();
    Timeout::new(0, move || {
        if slot.try_borrow().is_ok_and(|s| s.generation == generation) {
            f();
        }
    })
    .forget();
}

/// Keeps the background worker doing `job` (id and scenario), or nothing.
#[hook]
pub fn use_background_run(job: Option<(u32, Rc<Scenario>)>, dispatch: Callback<Command>) {
    let slot = use_mut_ref(Slot::default);
    {
        let slot = slot.clone();
        use_effect_with((), move |_| move || slot.borrow_mut().stop());
    }
    let id = job.as_ref().map(|(id, _)| *id);
    use_effect_with(id, move |_| {
        let mut s = slot.borrow_mut();
        let Some((id, scenario)) = job else {
            // Cancelled, or replaced by a run on the page: stop what runs.
            if s.busy.is_some() {
                s.stop();
            }
            return;
        };
        // A worker in the middle of an older run cannot take a new one.
        if s.busy.is_some() {
            s.stop();
        }
        if s.worker.is_none() {
            match start(&slot, &dispatch) {
                Ok(worker) => s.worker = Some(worker),
                Err(why) => {
                    drop(s);
                    dispatch.emit(Command::RunFailed(id, why));
                    return;
                }
            }
        }
        s.busy = Some(id);
        if let Some(w) = &s.worker {
            w.post(&Job::Run(RunJob {
                id,
                scenario: (*scenario).clone(),
            }));
        }
    });
}

fn start(slot: &Rc<RefCell<Slot>>, dispatch: &Callback<Command>) -> Result<WorkerClient, String> {
    let on_reply = {
        let (slot, dispatch) = (slot.clone(), dispatch.clone());
        move |reply, beside| {
            receive(&slot, &dispatch, reply, beside);
            ControlFlow::Continue(())
        }
    };
    let on_error = {
        let (slot, dispatch) = (slot.clone(), dispatch.clone());
        move || {
            let Ok(mut s) = slot.try_borrow_mut() else {
                return;
            };
            if let Some(id) = s.busy {
                s.stop();
                drop(s);
                dispatch.emit(Command::RunFailed(
                    id,
                    "the background worker failed to load or stopped; reload the page to try again"
                        .into(),
                ));
            }
        }
    };
    WorkerClient::spawn(on_reply, on_error)
}

/// Bytes of the worker's run copied into the page's memory per task. Copied
/// whole (22.75 MB for the 1M-message run), the first large run of a page
/// sometimes held it 55 to 206 ms in one task, though 15 to 20 ms in most.
const COPY_STRETCH: usize = 4 << 20;

/// The worker's run copied a stretch per task, then decoded.
fn copy_step(
    slot: Rc<RefCell<Slot>>,
    generation: u32,
    dispatch: Callback<Command>,
    id: u32,
    buffer: js_sys::Uint8Array,
    mut bytes: Vec<u8>,
) {
    let slot2 = slot.clone();
    then(&slot, generation, move || {
        let len = buffer.length() as usize;
        let done = crate::timing::measure("lease:copy-run", || {
            bytes.reserve_exact(len - bytes.len());
            let from = bytes.len();
            let to = (from + COPY_STRETCH).min(len);
            bytes.resize(to, 0);
            buffer
                .subarray(from as u32, to as u32)
                .copy_to(&mut bytes[from..]);
            to == len
        });
        if done {
            decode_step(slot2, generation, dispatch, id, Decoding::new(bytes));
        } else {
            copy_step(slot2, generation, dispatch, id, buffer, bytes);
        }
    });
}

/// One section of the run per task, then its index, then the page shows it.
fn decode_step(
    slot: Rc<RefCell<Slot>>,
    generation: u32,
    dispatch: Callback<Command>,
    id: u32,
    mut decoding: Decoding,
) {
    let slot2 = slot.clone();
    then(&slot, generation, move || {
        match crate::timing::measure("lease:decode-run", || decoding.step()) {
            Ok(None) => decode_step(slot2, generation, dispatch, id, decoding),
            Ok(Some(run)) => {
                let builder = IndexBuilder::new(&run);
                index_step(slot2, generation, dispatch, id, run, builder);
            }
            Err(e) => dispatch.emit(Command::RunFailed(
                id,
                format!("the run came back from the background worker unreadable: {e}"),
            )),
        }
    });
}

/// Deliveries indexed per task: a large run's index in several short steps.
const INDEX_STEP: usize = 25_000;

/// The timeline's index of the run, a stretch per task, then the page shows it.
fn index_step(
    slot: Rc<RefCell<Slot>>,
    generation: u32,
    dispatch: Callback<Command>,
    id: u32,
    run: Run,
    mut builder: IndexBuilder,
) {
    let slot2 = slot.clone();
    then(&slot, generation, move || {
        let done = crate::timing::measure("lease:index-run", || builder.step(&run, INDEX_STEP));
        if !done {
            index_step(slot2, generation, dispatch, id, run, builder);
            return;
        }
        let index = crate::timing::measure("lease:index-run", || builder.finish(&run));
        let run = RunHandle::new(run).with_index(index);
        let findings = slot2
            .try_borrow_mut()
            .ok()
            .and_then(|mut s| s.findings.take())
            .filter(|(of, _)| *of == id);
        then(&slot2, generation, move || {
            crate::timing::measure("lease:show-run", || {
                // The findings first: the page then never asks the worker
                // to run a large scenario again to diagnose it.
                if let Some((_, findings)) = findings {
                    dispatch.emit(Command::RunDiagnosed(
                        id,
                        Rc::new(crate::command::Diagnosed {
                            run: run.clone(),
                            tour: None,
                            findings,
                            tour_done: None,
                        }),
                    ));
                }
                dispatch.emit(Command::RunArrived(id, run))
            })
        });
    });
}

fn receive(
    slot: &Rc<RefCell<Slot>>,
    dispatch: &Callback<Command>,
    reply: Reply,
    beside: wasm_bindgen::JsValue,
) {
    match reply {
        // A finished run, its bytes beside it.
        Reply::RunDone { id, .. } => {
            let Ok(mut s) = slot.try_borrow_mut() else {
                return;
            };
            if s.busy != Some(id) {
                return;
            }
            s.busy = None;
            let generation = s.generation;
            drop(s);
            let buffer = js_sys::Uint8Array::new(&beside);
            copy_step(
                slot.clone(),
                generation,
                dispatch.clone(),
                id,
                buffer,
                Vec::new(),
            );
        }
        Reply::Findings { id, findings, .. } => {
            if let Ok(mut s) = slot.try_borrow_mut() {
                if s.busy == Some(id) {
                    s.findings = Some((id, findings));
                }
            }
        }
        Reply::Progress {
            id,
            now_ms,
            end_ms,
            events,
            settled,
            elapsed_ms,
        } => dispatch.emit(Command::RunProgress(
            id,
            RunProgress {
                now_ms,
                end_ms,
                events,
                settled,
                elapsed_ms,
            },
        )),
        Reply::Failed { id, why } => {
            if let Ok(mut s) = slot.try_borrow_mut() {
                if s.busy == Some(id) || id == 0 {
                    s.busy = None;
                }
            }
            dispatch.emit(Command::RunFailed(id, why));
        }
        _ => {}
    }
}
