//! The Diagnosis: every failure signature the run shows,
//! with its evidence in numbers, a button that moves the timeline to where it
//! shows, and its fix as a button that changes the controls.

use std::rc::Rc;

use lease_diagnose::{diagnose, Finding};
use lease_sim::Scenario;
use yew::prelude::*;

use crate::command::Command;
use crate::run_handle::RunHandle;

#[derive(Properties, PartialEq)]
pub struct DiagnosisProps {
    pub run: RunHandle,
    /// The scenario the run came from (detectors read its settings too).
    pub scenario: Rc<Scenario>,
    pub on_command: Callback<Command>,
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

#[function_component(Diagnosis)]
pub fn diagnosis(p: &DiagnosisProps) -> Html {
    let run = crate::run_handle::use_deferred_run(&p.run);
    let findings = {
        let run = run.clone();
        // Detectors read the whole run: once per run, not per render.
        use_memo(run.clone(), move |_| {
            crate::timing::measure("lease:diagnose", || diagnose(&run.scenario, &run))
        })
    };
    let end = run.end_ms;
    let timeout = run.visibility_timeout_ms;
    let items = findings.iter().map(|f| {
        let show = {
            let cb = p.on_command.clone();
            let (from, to) = window_around(f, end, timeout);
            let message = f.message;
            Callback::from(move |_: MouseEvent| {
                cb.emit(Command::Range(Some((from as f64, to as f64))));
                cb.emit(Command::Seek(u64::MAX));
                if message.is_some() {
                    cb.emit(Command::Select(message));
                }
                // After the render that draws the message's lanes: the
                // canvas that holds them, clear of the sticky totals.
                gloo::timers::callback::Timeout::new(0, || {
                    lease_ui::scroll::bring_selector_into_view("#timeline .timeline-canvas");
                })
                .forget();
            })
        };
        let fix = f.fix.clone().map(|fix| {
            let cb = p.on_command.clone();
            let label = fix.label();
            let apply = Callback::from(move |_: MouseEvent| {
                let fix = fix.clone();
                cb.emit(Command::Fix(vec![fix.clone()]));
            });
            html! {
                <button type="button" class="apply-fix" onclick={apply}>{format!("Apply fix: {label}")}</button>
            }
        });
        html! {
            <li class="finding" id={format!("finding-{}", f.id)} data-detector={f.id}>
                <h3>{f.title}</h3>
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
        <section class="diagnosis" id="diagnosis" aria-labelledby="diagnosis-title">
            <h2 id="diagnosis-title">{ format!("Diagnosis: {}", match findings.len() {
                0 => "no failure signature".to_string(),
                1 => "1 failure signature".to_string(),
                n => format!("{n} failure signatures"),
            }) }</h2>
            if findings.is_empty() {
                <p class="muted" id="diagnosis-healthy">{"No overlapping runs, no redelivery loop, no dead letters from expiry, no stuck lease: this configuration is in the good quadrant for this load."}</p>
            } else {
                <ul class="findings">{ for items }</ul>
            }
        </section>
    }
}
