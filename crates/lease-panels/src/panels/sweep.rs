//! Sweep: one setting over a range, every point a whole run, computed in the
//! background worker so the page stays live; completions per minute,
//! overlapping runs, duplicate effects, dead letters and recovery time
//! plotted against the setting, with the current value marked.

use std::cell::RefCell;
use std::ops::ControlFlow;
use std::rc::Rc;

use lease_diagnose::{sweep_csv, Param, SweepRow};
use lease_format::decimal::{clamp, fixed, shortest};
use lease_jobs::sweep_job::{SweepJob, MAX_POINTS};
use lease_jobs::{Job, Reply, WorkerClient};
use lease_sim::Scenario;
use lease_ui::panel::PanelCommand;
use lease_ui::scale::fmt_ms;
use yew::prelude::*;

use super::panel_head;
use crate::download::{file_stem, save_text};

/// A setting's label, unit, and the range a sweep starts with.
struct ParamInfo {
    param: Param,
    id: &'static str,
    label: &'static str,
    /// The field's name in a share link (`lease_fields`), which a chosen
    /// point sets.
    field: &'static str,
    ms: bool,
    from: f64,
    to: f64,
    log: bool,
}

const PARAMS: [ParamInfo; 6] = [
    ParamInfo {
        param: Param::Timeout,
        id: "timeout",
        field: "timeout",
        label: "Visibility timeout",
        ms: true,
        from: 5_000.0,
        to: 300_000.0,
        log: true,
    },
    ParamInfo {
        param: Param::HeartbeatInterval,
        id: "heartbeat",
        field: "hb",
        label: "Heartbeat interval",
        ms: true,
        from: 1_000.0,
        to: 60_000.0,
        log: true,
    },
    ParamInfo {
        param: Param::ExtensionCap,
        id: "cap",
        field: "cap",
        label: "Extension cap",
        ms: false,
        from: 1.0,
        to: 60.0,
        log: false,
    },
    ParamInfo {
        param: Param::Workers,
        id: "workers",
        field: "workers",
        label: "Workers",
        ms: false,
        from: 1.0,
        to: 64.0,
        log: false,
    },
    ParamInfo {
        param: Param::ProcessingP99,
        id: "p99",
        field: "p99",
        label: "Processing time (p99)",
        ms: true,
        from: 1_000.0,
        to: 300_000.0,
        log: true,
    },
    ParamInfo {
        param: Param::DownstreamCapacity,
        id: "capacity",
        field: "capacity",
        label: "Downstream capacity",
        ms: false,
        from: 1.0,
        to: 100.0,
        log: true,
    },
];

fn info(id: &str) -> &'static ParamInfo {
    PARAMS.iter().find(|p| p.id == id).unwrap_or(&PARAMS[0])
}

#[derive(Properties, PartialEq)]
pub struct SweepProps {
    pub scenario: Rc<Scenario>,
    pub on_command: Callback<PanelCommand>,
}

#[derive(Clone, PartialEq, Default)]
struct Progress {
    id: u32,
    rows: Vec<SweepRow>,
    total: usize,
    running: bool,
    error: Option<String>,
    started_ms: f64,
    took_ms: Option<f64>,
}

fn now_ms() -> f64 {
    gloo::utils::window().performance().map_or(0.0, |p| p.now())
}

#[function_component(SweepPanel)]
pub fn sweep_panel(p: &SweepProps) -> Html {
    let param = use_state(|| "timeout".to_string());
    let from = use_state(|| info("timeout").from);
    let to = use_state(|| info("timeout").to);
    let steps = use_state(|| 40usize);
    let log = use_state(|| true);
    let progress = use_state(Progress::default);
    // The point under the pointer (or focus), by its value.
    let hovered = use_state(|| None::<f64>);
    // The sweep's worker, kept across renders; dropped to cancel.
    let slot = use_mut_ref(|| None::<WorkerClient>);
    let next_id = use_mut_ref(|| 0u32);
    // The worker goes when the panel closes.
    {
        let slot = slot.clone();
        use_effect_with((), move |_| move || drop(slot.borrow_mut().take()));
    }

    let pi = info(&param);
    let current = pi.param.current(&p.scenario);
    let show = move |v: f64| {
        if pi.ms {
            fmt_ms(v)
        } else {
            shortest(v.round())
        }
    };

    let on_param = {
        let (param, from, to, log) = (param.clone(), from.clone(), to.clone(), log.clone());
        Callback::from(move |e: Event| {
            let v = e
                .target_unchecked_into::<web_sys::HtmlSelectElement>()
                .value();
            let i = info(&v);
            from.set(i.from);
            to.set(i.to);
            log.set(i.log);
            param.set(i.id.to_string());
        })
    };
    let number = |state: UseStateHandle<f64>, scale: f64| {
        Callback::from(move |e: Event| {
            let text = e
                .target_unchecked_into::<web_sys::HtmlInputElement>()
                .value();
            if let Some(v) = lease_format::units::parse_number_input(&text) {
                state.set(v * scale);
            }
        })
    };
    let unit_scale = if pi.ms { 1000.0 } else { 1.0 };
    let on_steps = {
        let steps = steps.clone();
        Callback::from(move |e: Event| {
            let v: usize = e
                .target_unchecked_into::<web_sys::HtmlInputElement>()
                .value()
                .trim()
                .parse()
                .unwrap_or(40);
            steps.set(v.clamp(2, MAX_POINTS));
        })
    };
    let on_log = {
        let log = log.clone();
        Callback::from(move |e: Event| {
            log.set(
                e.target_unchecked_into::<web_sys::HtmlInputElement>()
                    .checked(),
            )
        })
    };

    let start = {
        let (progress, slot, next_id) = (progress.clone(), slot.clone(), next_id.clone());
        let job_of = {
            let scenario = p.scenario.clone();
            let (param, from, to, steps, log) = (pi.param, *from, *to, *steps, *log);
            move |id| SweepJob {
                id,
                scenario: (*scenario).clone(),
                param,
                from,
                to,
                steps,
                log,
            }
        };
        Callback::from(move |_: MouseEvent| {
            let id = {
                let mut n = next_id.borrow_mut();
                *n += 1;
                *n
            };
            let job = job_of(id);
            // A new sweep replaces the one under way.
            slot.borrow_mut().take();
            let started = now_ms();
            let running = Progress {
                id,
                running: true,
                total: steps_of(&job),
                started_ms: started,
                ..Default::default()
            };
            progress.set(running.clone());
            let acc = Rc::new(RefCell::new(running));
            let on_reply = {
                let progress = progress.clone();
                move |reply, _| {
                    let mut a = acc.borrow_mut();
                    match reply {
                        Reply::Row { id, total, row, .. } if id == a.id => {
                            a.total = total;
                            a.rows.push(row);
                        }
                        Reply::SweepDone { id } if id == a.id => {
                            a.running = false;
                            a.took_ms = Some(now_ms() - a.started_ms);
                        }
                        Reply::Failed { id, why } if id == a.id || id == 0 => {
                            a.running = false;
                            a.error = Some(why);
                        }
                        _ => return ControlFlow::Continue(()),
                    }
                    progress.set(a.clone());
                    ControlFlow::Continue(())
                }
            };
            let on_error = {
                let progress = progress.clone();
                // A worker that failed to load, or threw, holds no sweep any
                // more: ended, not left until the next sweep.
                move || {
                    progress.set(Progress {
                        error: Some(
                            "The background worker failed to load or stopped; “Run the sweep” starts a new one."
                                .into(),
                        ),
                        ..Default::default()
                    })
                }
            };
            match WorkerClient::spawn(Reply::from_json, on_reply, on_error) {
                Ok(client) => {
                    client.post(&Job::Sweep(job));
                    *slot.borrow_mut() = Some(client);
                }
                Err(e) => progress.set(Progress {
                    error: Some(e),
                    ..Default::default()
                }),
            }
        })
    };
    let cancel = {
        let (progress, slot) = (progress.clone(), slot.clone());
        Callback::from(move |_: MouseEvent| {
            slot.borrow_mut().take();
            let mut p = (*progress).clone();
            p.running = false;
            p.error = Some("Cancelled.".into());
            progress.set(p);
        })
    };
    let csv = {
        let rows = progress.rows.clone();
        let param = pi.param;
        let name = format!(
            "{}-sweep-{}.csv",
            file_stem(&p.scenario.name, p.scenario.seed),
            pi.id
        );
        Callback::from(move |_: MouseEvent| {
            let _ = save_text(&name, "text/csv", &sweep_csv(param, &rows));
        })
    };
    let done = progress.rows.len();
    let pick = {
        let on_command = p.on_command.clone();
        let field = pi.field;
        let ms = pi.ms;
        Callback::from(move |v: f64| {
            on_command.emit(PanelCommand::Set {
                field: field.to_string(),
                value: link_value(v, ms),
            })
        })
    };
    let hover = {
        let hovered = hovered.clone();
        Callback::from(move |v: Option<f64>| hovered.set(v))
    };
    let charts = sweep_charts(
        &progress.rows,
        &Chart {
            current,
            log: *log,
            ms: pi.ms,
            label: pi.label,
            hovered: *hovered,
            hover,
            pick,
        },
    );
    html! {
        <section class="panel" id="sweep-panel" aria-labelledby="sweep-title">
            { panel_head("sweep-title", "Sweep a setting", "Close Sweep", p.on_command.reform(|_: MouseEvent| PanelCommand::Close)) }
            <p class="muted">{"Each point is a whole run of this scenario, same seed, with only the chosen setting changed. It runs in the background; the page stays live."}</p>
            <div class="panel-row">
                <label for="sweep-param">{"Setting"}</label>
                <select id="sweep-param" onchange={on_param}>
                    { for PARAMS.iter().map(|q| html! { <option value={q.id} selected={q.id == pi.id}>{q.label}</option> }) }
                </select>
                <label for="sweep-from">{ if pi.ms { "From (s)" } else { "From" } }</label>
                <input id="sweep-from" type="number" min="0" step="any" value={fmt_num(*from / unit_scale)} onchange={number(from.clone(), unit_scale)} />
                <label for="sweep-to">{ if pi.ms { "To (s)" } else { "To" } }</label>
                <input id="sweep-to" type="number" min="0" step="any" value={fmt_num(*to / unit_scale)} onchange={number(to.clone(), unit_scale)} />
                <label for="sweep-steps">{"Points"}</label>
                <input id="sweep-steps" type="number" min="2" max={MAX_POINTS.to_string()} value={steps.to_string()} onchange={on_steps} />
                <label class="toggle"><input type="checkbox" id="sweep-log" checked={*log} onchange={on_log} />{"Log scale"}</label>
            </div>
            <div class="panel-row">
                <button type="button" id="sweep-run" onclick={start} disabled={progress.running}>{"Run the sweep"}</button>
                if progress.running {
                    <button type="button" id="sweep-cancel" onclick={cancel}>{"Cancel"}</button>
                }
                <progress id="sweep-progress" max={progress.total.max(1).to_string()} value={done.to_string()}></progress>
                <span id="sweep-status" role="status">{ status_text(&progress) }</span>
                if !progress.running && done > 0 {
                    <button type="button" id="sweep-csv" onclick={csv}>{"Download CSV"}</button>
                }
            </div>
            if let Some(v) = current {
                <p class="muted" id="sweep-current">{format!("The current {} is {}: marked by the dashed line.", pi.label.to_ascii_lowercase(), show(v))}</p>
            }
            if let Some(e) = &progress.error {
                <p class="status bad" role="alert" id="sweep-error">{e.clone()}</p>
            }
            {charts}
        </section>
    }
}

/// A swept value as a share link writes it: durations in whole ms with
/// their unit, counts as whole numbers.
fn link_value(v: f64, ms: bool) -> String {
    let n = v.round().max(0.0) as u64;
    if ms {
        lease_format::units::format_ms(n)
    } else {
        n.to_string()
    }
}

/// Ticks at 1, 2 and 5 times each power of ten within `lo..=hi` (both above
/// zero), so that a log axis reads like a ruler.
fn ticks_125(lo: f64, hi: f64) -> Vec<f64> {
    let mut out = Vec::new();
    if !(lo > 0.0 && hi >= lo && hi.is_finite()) {
        return out;
    }
    let mut decade = 1.0;
    while decade > lo {
        decade /= 10.0;
    }
    while decade * 10.0 <= lo {
        decade *= 10.0;
    }
    while decade <= hi && out.len() < 40 {
        for m in [1.0, 2.0, 5.0] {
            let v = m * decade;
            if v >= lo * (1.0 - 1e-9) && v <= hi * (1.0 + 1e-9) {
                out.push(v);
            }
        }
        decade *= 10.0;
    }
    out
}

fn steps_of(job: &SweepJob) -> usize {
    job.steps
}

fn fmt_num(x: f64) -> String {
    shortest((x * 1000.0).round() / 1000.0)
}

fn status_text(p: &Progress) -> String {
    match (p.running, p.took_ms) {
        (true, _) => format!("{} of {} points", p.rows.len(), p.total),
        (false, Some(ms)) => format!("{} points in {} s", p.rows.len(), fixed(ms / 1000.0, 2)),
        (false, None) if p.rows.is_empty() => "Not run yet.".into(),
        (false, None) => format!("{} points", p.rows.len()),
    }
}

struct Metric {
    id: &'static str,
    title: &'static str,
    unit: &'static str,
    value: fn(&SweepRow) -> Option<f64>,
    /// What an empty chart says: why this metric has no points.
    empty: &'static str,
}

const METRICS: [Metric; 5] = [
    Metric {
        id: "completions",
        title: "Completions per minute",
        unit: "/min",
        value: |r| Some(r.completions_per_min),
        empty: "",
    },
    Metric {
        id: "overlapping",
        title: "Overlapping runs",
        unit: "runs",
        value: |r| Some(r.overlapping_runs as f64),
        empty: "",
    },
    Metric {
        id: "duplicates",
        title: "Duplicate effects",
        unit: "effects",
        value: |r| Some(r.duplicate_effects as f64),
        empty: "",
    },
    Metric {
        id: "dead-lettered",
        title: "Dead-lettered",
        unit: "msgs",
        value: |r| Some(r.dead_lettered as f64),
        empty: "",
    },
    Metric {
        id: "recovery",
        title: "Recovery after the first crash or deploy",
        unit: "s",
        value: |r| r.recovery_ms.map(|ms| ms as f64 / 1000.0),
        empty: "No points: this scenario has no worker crash or deploy, so there is nothing to recover from. Scenarios with a crash or deploy fill this chart.",
    },
];

const W: f64 = 300.0;
const H: f64 = 130.0;
const LEFT: f64 = 38.0;
const BOTTOM: f64 = 20.0;
const TOP: f64 = 8.0;

/// How the charts draw and what a point does.
struct Chart<'a> {
    current: Option<f64>,
    log: bool,
    ms: bool,
    label: &'a str,
    hovered: Option<f64>,
    hover: Callback<Option<f64>>,
    pick: Callback<f64>,
}

/// One point's numbers, in words: what hovering over it shows.
fn point_text(label: &str, value: &str, r: &SweepRow) -> String {
    let recovery = r
        .recovery_ms
        .map_or("no crash or deploy".to_string(), |ms| fmt_ms(ms as f64));
    format!(
        "{label} {value}: {} completions/min, {} overlapping runs, {} duplicate effects, {} dead-lettered, recovery {recovery}",
        fixed(r.completions_per_min, 1),
        r.overlapping_runs,
        r.duplicate_effects,
        r.dead_lettered
    )
}

fn sweep_charts(rows: &[SweepRow], c: &Chart) -> Html {
    let (current, log, ms) = (c.current, c.log, c.ms);
    let ran: Vec<&SweepRow> = rows.iter().filter(|r| r.skipped.is_none()).collect();
    if ran.is_empty() {
        return html! {};
    }
    let (lo, hi) = ran
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), r| {
            (a.min(r.value), b.max(r.value))
        });
    let log = log && lo > 0.0;
    let t = |v: f64| if log { v.max(1e-9).ln() } else { v };
    let (tl, th) = (t(lo), t(hi).max(t(lo) + 1e-9));
    let x = move |v: f64| LEFT + (W - LEFT - 6.0) * clamp((t(v) - tl) / (th - tl), 0.0, 1.0);
    let label = |v: f64| {
        if ms {
            fmt_ms(v)
        } else {
            shortest(v.round())
        }
    };
    let ticks = if log { ticks_125(lo, hi) } else { Vec::new() };
    let readout = c.hovered.and_then(|v| {
        ran.iter()
            .find(|r| r.value == v)
            .map(|r| point_text(c.label, &label(r.value), r))
    });
    html! {
        <>
        <p class="muted" id="sweep-readout" aria-live="polite">
            { readout.unwrap_or_else(|| "Point at a dot to read its values; click it to use that value.".into()) }
        </p>
        <div class="charts sweep-charts">
            { for METRICS.iter().map(|m| {
                let pts: Vec<(f64, f64)> = ran.iter().filter_map(|r| (m.value)(r).map(|y| (r.value, y))).collect();
                if pts.is_empty() {
                    return html! {
                        <figure class="chart" id={format!("sweep-chart-{}", m.id)}>
                            <figcaption>{m.title}</figcaption>
                            <p class="muted chart-empty">{m.empty}</p>
                        </figure>
                    };
                }
                let max = pts.iter().map(|p| p.1).fold(0.0, f64::max);
                let max = lease_ui::axis::nice_max(max);
                let y = |v: f64| TOP + (H - TOP - BOTTOM) * (1.0 - clamp(v / max, 0.0, 1.0));
                let line: Vec<String> = pts.iter().map(|(a, b)| format!("{},{}", fixed(x(*a), 1), fixed(y(*b), 1))).collect();
                let mark = current.filter(|c| *c >= lo && *c <= hi).map(|c| {
                    let cx = x(c);
                    html! { <line class="current-mark" x1={shortest(cx)} x2={shortest(cx)} y1={shortest(TOP)} y2={shortest(H - BOTTOM)} /> }
                });
                let x_labels = if ticks.len() >= 2 {
                    html! { <>{ for ticks.iter().map(|v| {
                        let tx = x(*v);
                        html! {
                            <>
                            <line class="axis" x1={fixed(tx, 1)} x2={fixed(tx, 1)} y1={shortest(H - BOTTOM)} y2={shortest(H - BOTTOM + 3.0)} />
                            <text class="axis-label sweep-tick" text-anchor="middle" x={fixed(tx, 1)} y={shortest(H - 5.0)}>{label(*v)}</text>
                            </>
                        }
                    }) }</> }
                } else {
                    html! {
                        <>
                        <text class="axis-label" x={shortest(LEFT)} y={shortest(H - 5.0)}>{label(lo)}</text>
                        <text class="axis-label" text-anchor="end" x={shortest(W - 6.0)} y={shortest(H - 5.0)}>{label(hi)}</text>
                        </>
                    }
                };
                html! {
                    <figure class="chart" id={format!("sweep-chart-{}", m.id)}>
                        <figcaption>{m.title}</figcaption>
                        <svg viewBox={format!("0 0 {} {}", shortest(W), shortest(H))} role="img" aria-label={format!("{} ({}) against the setting", m.title, m.unit)}>
                            <text class="axis-label" x="2" y={shortest(TOP + 8.0)}>{lease_ui::axis::fmt_value(max)}</text>
                            <text class="axis-label" x="2" y={shortest(H - BOTTOM)}>{"0"}</text>
                            <text class="axis-unit" x="2" y={shortest((H - BOTTOM + TOP) / 2.0)}>{m.unit}</text>
                            <line class="axis" x1={shortest(LEFT)} x2={shortest(W - 6.0)} y1={shortest(H - BOTTOM)} y2={shortest(H - BOTTOM)} />
                            {x_labels}
                            <polyline class="series s-depth" points={line.join(" ")} />
                            {mark}
                            { for pts.iter().map(|(a, b)| {
                                let v = *a;
                                let text = format!("{} {}: {} {}. Click to use this value.", c.label, label(v), lease_ui::axis::fmt_value(*b), m.unit);
                                let (enter, leave, click, key) = (c.hover.clone(), c.hover.clone(), c.pick.clone(), c.pick.clone());
                                html! {
                                    <circle class="dot" data-value={shortest(v)} cx={fixed(x(v), 1)} cy={fixed(y(*b), 1)} r="2" stroke="transparent" stroke-width="8"
                                        tabindex="0" role="button" aria-label={text.clone()}
                                        onmouseenter={Callback::from(move |_: MouseEvent| enter.emit(Some(v)))}
                                        onmouseleave={Callback::from(move |_: MouseEvent| leave.emit(None))}
                                        onclick={Callback::from(move |_: MouseEvent| click.emit(v))}
                                        onkeydown={Callback::from(move |e: KeyboardEvent| if e.key() == "Enter" || e.key() == " " { e.prevent_default(); key.emit(v) })}>
                                        <title>{text}</title>
                                    </circle>
                                }
                            }) }
                        </svg>
                    </figure>
                }
            }) }
        </div>
        </>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn log_ticks_step_one_two_five() {
        assert_eq!(
            ticks_125(5_000.0, 300_000.0),
            vec![5_000.0, 10_000.0, 20_000.0, 50_000.0, 100_000.0, 200_000.0]
        );
        assert_eq!(
            ticks_125(1.0, 100.0),
            vec![1.0, 2.0, 5.0, 10.0, 20.0, 50.0, 100.0]
        );
        assert!(ticks_125(0.0, 10.0).is_empty());
    }

    #[test]
    fn a_chosen_point_is_written_as_a_link_writes_it() {
        assert_eq!(link_value(45_000.4, true), "45s");
        assert_eq!(link_value(7.6, false), "8");
    }
}
