//! The Diagnosis: every failure signature the run shows,
//! with its evidence in numbers, a button that moves the timeline to where it
//! shows, and its fix as a button that changes the controls.
//!
//! The detectors run in the background worker (`lease_jobs::diagnose_job`),
//! so that a long run's diagnosis never holds up the page. The page asks for a run's findings once the section shows in the viewport (or a tour
//! wants its checks), so a first view whose diagnosis is below the fold
//! loads no worker; a large run's findings come with the run itself
//! (`background_run.rs`).

use std::cell::RefCell;
use std::ops::ControlFlow;
use std::rc::Rc;

use lease_diagnose::Finding;
use lease_jobs::diagnose_job::DiagnoseJob;
use lease_jobs::{Job, Reply, WorkerClient};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use yew::prelude::*;

use crate::command::{Command, Diagnosed};
use crate::run_handle::RunHandle;

/// The worker and the request it holds. A worker is ended once it has
/// answered: the page keeps no worker it is not using, and the next run's
/// request starts a fresh one (whose wasm the browser holds by then).
#[derive(Default)]
struct Slot {
    worker: Option<WorkerClient>,
    /// The worker has answered and is ended; dropped at the next request
    /// rather than inside its own listener.
    spent: bool,
    /// The request posted (or waiting for the worker to load), its run and
    /// its tour: asked once per run, whatever re-renders the page.
    asked: Option<(u32, RunHandle, Option<String>)>,
    next_id: u32,
}

/// Keeps the findings of `run` coming from the worker while `wanted`: each
/// newer run (or tour) asks afresh, and a late answer to an older one is
/// dropped. `answered`: the page holds the findings of `run` already.
#[hook]
pub fn use_diagnosis(
    run: Option<RunHandle>,
    tour: Option<String>,
    wanted: bool,
    answered: bool,
    dispatch: Callback<Command>,
) {
    let slot = use_mut_ref(Slot::default);
    use_effect_with(
        (run, tour, wanted, answered),
        move |(run, tour, wanted, answered)| {
            let Some(run) = run.as_ref().filter(|_| *wanted && !*answered) else {
                return;
            };
            let mut s = slot.borrow_mut();
            if std::mem::take(&mut s.spent) {
                s.worker = None;
            }
            if s.asked
                .as_ref()
                .is_some_and(|(_, r, t)| r == run && t == tour)
            {
                return;
            }
            if s.worker.is_none() {
                match start(&slot, &dispatch) {
                    Ok(w) => s.worker = Some(w),
                    Err(why) => {
                        s.asked = Some((0, run.clone(), tour.clone()));
                        drop(s);
                        dispatch.emit(Command::DiagnosisFailed(why));
                        return;
                    }
                }
            }
            s.next_id = s.next_id.wrapping_add(1);
            let id = s.next_id;
            s.asked = Some((id, run.clone(), tour.clone()));
            if let Some(w) = &s.worker {
                w.post(&Job::Diagnose(DiagnoseJob {
                    id,
                    scenario: run.scenario.clone(),
                    tour: tour.clone(),
                }));
            }
        },
    );
}

fn start(slot: &Rc<RefCell<Slot>>, dispatch: &Callback<Command>) -> Result<WorkerClient, String> {
    let on_reply = {
        let (slot, dispatch) = (slot.clone(), dispatch.clone());
        move |reply, _| {
            let Ok(mut s) = slot.try_borrow_mut() else {
                return ControlFlow::Continue(());
            };
            let Some((asked, run, tour)) = s.asked.clone() else {
                return ControlFlow::Continue(());
            };
            // An answer to an older request: the newer one is queued behind it.
            let answers = matches!(&reply, Reply::Findings { id, .. } | Reply::Failed { id, .. } if *id == asked || *id == 0);
            if !answers {
                return ControlFlow::Continue(());
            }
            s.spent = true;
            drop(s);
            match reply {
                Reply::Findings {
                    id: _,
                    findings,
                    tour_done,
                } => dispatch.emit(Command::Diagnosed(Rc::new(Diagnosed {
                    run,
                    tour,
                    findings,
                    tour_done,
                }))),
                Reply::Failed { why, .. } => dispatch.emit(Command::DiagnosisFailed(why)),
                _ => {}
            }
            ControlFlow::Break(())
        }
    };
    let on_error = {
        let (slot, dispatch) = (slot.clone(), dispatch.clone());
        move || {
            // The next run asks a fresh worker; this one is ended.
            if let Ok(mut s) = slot.try_borrow_mut() {
                s.spent = true;
            }
            dispatch.emit(Command::DiagnosisFailed(
                "the background worker failed to load or stopped; reload the page to try again"
                    .into(),
            ));
        }
    };
    WorkerClient::spawn(on_reply, on_error)
}

#[derive(Properties, PartialEq)]
pub struct DiagnosisProps {
    pub run: RunHandle,
    /// What the worker found, for this run or an older one.
    pub diagnosed: Option<Rc<Diagnosed>>,
    /// Why the worker could not say, if it could not.
    pub failed: Option<String>,
    pub on_command: Callback<Command>,
    /// Told once the section shows in the viewport.
    pub on_near: Callback<()>,
}

/// A window around `at` wide enough to see a lease or two either side.
fn window_around(f: &Finding, end_ms: u64, timeout_ms: u64) -> (u64, u64) {
    let pad = timeout_ms.max(10_000);
    let from = f.at_ms.saturating_sub(pad);
    let to = f
        .until_ms
        .unwrap_or(f.at_ms)
        .saturating_add(pad)
        .min(end_ms.max(1));
    if from < to {
        (from, to)
    } else {
        (0, end_ms.max(1))
    }
}

/// Tells `near` once `node` shows in the viewport. No margin: at 1280x720
/// the section starts about 65 px below the first view, and a margin would
/// load the worker with the first view.
#[hook]
fn use_near(node: NodeRef, near: Callback<()>) {
    use_effect_with((), move |_| {
        let observer = node.cast::<web_sys::Element>().and_then(|el| {
            let seen = Closure::<dyn Fn(js_sys::Array)>::new(move |entries: js_sys::Array| {
                let any = entries.iter().any(|e| {
                    e.unchecked_into::<web_sys::IntersectionObserverEntry>()
                        .is_intersecting()
                });
                if any {
                    near.emit(());
                }
            });
            let observer =
                web_sys::IntersectionObserver::new(seen.as_ref().unchecked_ref()).ok()?;
            observer.observe(&el);
            Some((observer, seen))
        });
        move || {
            if let Some((observer, _seen)) = observer {
                observer.disconnect();
            }
        }
    });
}

#[function_component(Diagnosis)]
pub fn diagnosis(p: &DiagnosisProps) -> Html {
    let node = use_node_ref();
    use_near(node.clone(), p.on_near.clone());
    let run = &p.run;
    let Some(d) = p.diagnosed.as_ref().filter(|d| d.run == *run) else {
        let (title, why) = match &p.failed {
            Some(why) => ("Diagnosis: not available", Some(why.clone())),
            None => ("Diagnosis: reading the run…", None),
        };
        return html! {
            <section class="diagnosis" id="diagnosis" aria-labelledby="diagnosis-title"
                aria-busy={p.failed.is_none().to_string()} ref={node}>
                <h2 id="diagnosis-title">{title}</h2>
                if let Some(why) = why {
                    <p class="error" role="alert" id="diagnosis-failed">{format!("The detectors could not read this run: {why}.")}</p>
                }
            </section>
        };
    };
    let findings = &d.findings;
    let end = run.end_ms;
    let timeout = run.visibility_timeout_ms;
    let items = findings.iter().map(|f| {
        let show = {
            let cb = p.on_command.clone();
            let (from, to) = window_around(f, end, timeout);
            let message = f.message;
            let said = format!(
                "{} shown on the timeline, {} to {}{}; the timeline has the focus.",
                f.title,
                lease_format::display::duration(from),
                lease_format::display::duration(to),
                message.map_or(String::new(), |m| format!(", message {m} selected")),
            );
            Callback::from(move |_: MouseEvent| {
                cb.emit(Command::Range(Some((from as f64, to as f64))));
                cb.emit(Command::Seek(u64::MAX));
                if message.is_some() {
                    cb.emit(Command::Select(message));
                }
                // After the render that draws the message's lanes: the
                // canvas that holds them, clear of the sticky totals.
                let said = said.clone();
                gloo::timers::callback::Timeout::new(0, move || {
                    lease_ui::scroll::bring_selector_into_view("#timeline .timeline-canvas");
                    // The reader goes with it, and hears where they are.
                    let doc = gloo::utils::document();
                    if let Some(canvas) = doc
                        .query_selector("#timeline .timeline-canvas")
                        .ok()
                        .flatten()
                        .and_then(|c| c.dyn_into::<web_sys::HtmlElement>().ok())
                    {
                        let _ = canvas.focus();
                    }
                    if let Some(live) = doc.get_element_by_id("finding-shown") {
                        live.set_text_content(Some(&said));
                    }
                })
                .forget();
            })
        };
        let fix = f
            .fix
            .as_ref()
            .map(|fix| {
                let label = fix.label();
                let cb = p.on_command.clone();
                let fix = fix.clone();
                let apply = Callback::from(move |_: MouseEvent| {
                    cb.emit(Command::Fix(vec![fix.clone()]));
                });
                html! {
                    <button type="button" class="apply-fix" onclick={apply}>{format!("Apply fix: {label}")}</button>
                }
            });
        html! {
            <li class="finding" id={format!("finding-{}", f.id)} data-detector={f.id.to_string()}>
                <h3>{f.title.to_string()}</h3>
                <ul class="evidence">{ for f.evidence.iter().map(|e| html! { <li>{e.clone()}</li> }) }</ul>
                <p class="fix-text"><strong>{"Fix: "}</strong>{f.fix_text.clone()}</p>
                <div class="finding-actions">
                    <button type="button" class="show-finding" onclick={show}>{"Show on the timeline"}</button>
                    {fix}
                </div>
            </li>
        }
    });
    html! {
        <section class="diagnosis" id="diagnosis" aria-labelledby="diagnosis-title" aria-busy="false" ref={node}>
            <h2 id="diagnosis-title">{ format!("Diagnosis: {}", match findings.len() {
                0 => "no failure signature".to_string(),
                1 => "1 failure signature".to_string(),
                n => format!("{n} failure signatures"),
            }) }</h2>
            // Filled by "Show on the timeline", which moves the focus away.
            <p class="sr-only" id="finding-shown" aria-live="polite"></p>
            if findings.is_empty() {
                <p class="muted" id="diagnosis-healthy">{"No overlapping runs, no redelivery loop, no dead letters from expiry, no stuck lease: this configuration is in the good quadrant for this load."}</p>
            } else {
                <ul class="findings">{ for items }</ul>
            }
        </section>
    }
}
