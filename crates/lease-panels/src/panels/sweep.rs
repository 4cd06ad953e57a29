//! Sweep: one setting over a range, every point a whole run, computed in the
//! background worker so the page stays live; completions per minute,
//! overlapping runs, duplicate effects, dead letters and recovery time
//! plotted against the setting, with the current value marked. The points
//! are spread across a pool of workers (`lease_jobs::WorkerPool`), and every
//! point can run over several seeds: the chart then draws the mean with a
//! band from the lowest to the highest seed's value.

use std::cell::RefCell;
use std::ops::ControlFlow;
use std::rc::Rc;

use lease_diagnose::sweep::{band, Band, SweepMetric, SWEEP_METRICS};
use lease_diagnose::{sweep_band_csv, Param, SweepRow};
use lease_format::display::duration_about;
use lease_jobs::sweep_job::{SweepJob, MAX_POINTS, MAX_SEEDS};
use lease_jobs::{pool_size, Job, Reply, WorkerPool};
use lease_sim::Scenario;
use lease_ui::panel::PanelCommand;
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
    /// Each point's rows, one per seed (the scenario's seed first), in the
    /// sweep's order; `None` until its worker sends it.
    points: Vec<Option<Vec<SweepRow>>>,
    total: usize,
    /// Points sent so far.
    done: usize,
    seeds: u32,
    /// Workers in the pool, and how many have sent all their points.
    workers: usize,
    workers_done: usize,
    running: bool,
    error: Option<String>,
    started_ms: f64,
    took_ms: Option<f64>,
}

/// The longest a sweep's new rows wait to be drawn.
const DRAW_MS: u32 = 100;

fn now_ms() -> f64 {
    gloo::utils::window().performance().map_or(0.0, |p| p.now())
}

#[function_component(SweepPanel)]
pub fn sweep_panel(p: &SweepProps) -> Html {
    let param = use_state(|| "timeout".to_string());
    let from = use_state(|| info("timeout").from);
    let to = use_state(|| info("timeout").to);
    let steps = use_state(|| 40usize);
    let seeds = use_state(|| 1u32);
    let log = use_state(|| true);
    let progress = use_state(Progress::default);
    // The point under the pointer (or focus), by its value.
    let hovered = use_state(|| None::<f64>);
    // The sweep's workers, kept across renders; dropped to cancel.
    let slot = use_mut_ref(|| None::<WorkerPool>);
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
            duration_about(v)
        } else {
            v.round().to_string()
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
    let on_seeds = {
        let seeds = seeds.clone();
        Callback::from(move |e: Event| {
            let v: u32 = e
                .target_unchecked_into::<web_sys::HtmlInputElement>()
                .value()
                .trim()
                .parse()
                .unwrap_or(1);
            seeds.set(v.clamp(1, MAX_SEEDS));
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
            let (param, from, to, steps, log, seeds) = (pi.param, *from, *to, *steps, *log, *seeds);
            move |id| SweepJob {
                id,
                scenario: (*scenario).clone(),
                param,
                from,
                to,
                steps,
                log,
                seeds,
                share: None,
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
            let total = steps_of(&job);
            let workers = pool_size().min(total).max(1);
            let running = Progress {
                id,
                running: true,
                total,
                points: vec![None; total],
                seeds: job.seeds,
                workers,
                started_ms: started,
                ..Default::default()
            };
            progress.set(running.clone());
            let acc = Rc::new(RefCell::new(running));
            // The pool is ended from a task of its own: a worker's listener
            // cannot drop the worker it is running in.
            let end_pool = {
                let slot = slot.clone();
                move || {
                    let slot = slot.clone();
                    gloo::timers::callback::Timeout::new(0, move || drop(slot.borrow_mut().take()))
                        .forget()
                }
            };
            // Rows are drawn at most every `DRAW_MS`: a pool answers faster
            // than the page can redraw every chart for each row, and the
            // page's thread would hold the sweep up.
            let drawing = Rc::new(std::cell::Cell::new(false));
            let draw = {
                let (progress, acc, slot, next_id) =
                    (progress.clone(), acc.clone(), slot.clone(), next_id.clone());
                move || {
                    if drawing.replace(true) {
                        return;
                    }
                    let (progress, acc, drawing, slot, next_id) = (
                        progress.clone(),
                        acc.clone(),
                        drawing.clone(),
                        slot.clone(),
                        next_id.clone(),
                    );
                    gloo::timers::callback::Timeout::new(DRAW_MS, move || {
                        drawing.set(false);
                        let Ok(a) = acc.try_borrow() else { return };
                        // Not for a sweep cancelled, replaced or ended since.
                        let current = a.id == *next_id.borrow() && slot.borrow().is_some();
                        if a.running && current {
                            progress.set(a.clone());
                        }
                    })
                    .forget();
                }
            };
            let on_reply = {
                let (progress, acc, end_pool) = (progress.clone(), acc.clone(), end_pool.clone());
                move |_k: usize, reply, _| {
                    let mut a = acc.borrow_mut();
                    if !a.running {
                        return ControlFlow::Break(());
                    }
                    let flow = match reply {
                        Reply::Row {
                            id,
                            total,
                            row,
                            index,
                            more,
                            ..
                        } if id == a.id => {
                            if total != a.points.len() {
                                a.points.resize(total, None);
                                a.total = total;
                            }
                            if let Some(p) = a.points.get_mut(index) {
                                let mut rows = vec![row];
                                rows.extend(more);
                                *p = Some(rows);
                                a.done += 1;
                            }
                            ControlFlow::Continue(())
                        }
                        Reply::SweepDone { id } if id == a.id => {
                            a.workers_done += 1;
                            if a.workers_done == a.workers {
                                a.running = false;
                                a.took_ms = Some(now_ms() - a.started_ms);
                            }
                            // This worker's share is done: it ends now.
                            ControlFlow::Break(())
                        }
                        Reply::Failed { id, why } if id == a.id || id == 0 => {
                            a.running = false;
                            a.error = Some(why);
                            end_pool();
                            ControlFlow::Break(())
                        }
                        _ => return ControlFlow::Continue(()),
                    };
                    if a.running {
                        draw();
                    } else {
                        progress.set(a.clone());
                    }
                    flow
                }
            };
            let on_error = {
                let (progress, acc) = (progress.clone(), acc.clone());
                // A worker that failed to load, or threw, holds no sweep any
                // more: the sweep stops with the points it has, and says so
                // rather than waiting for that worker's share.
                move |k: usize| {
                    let mut a = acc.borrow_mut();
                    if !a.running {
                        return;
                    }
                    a.running = false;
                    a.error = Some(format!(
                        "Background worker {} of {} failed to load or stopped; the sweep stopped with {} of {} points. “Run the sweep” starts it again.",
                        k + 1,
                        a.workers,
                        a.done,
                        a.total
                    ));
                    progress.set(a.clone());
                    end_pool();
                }
            };
            match WorkerPool::spawn(workers, on_reply, on_error) {
                Ok(pool) => {
                    for k in 0..pool.len() {
                        let mut part = job.clone();
                        part.share = Some((k, pool.len()));
                        pool.post(k, &Job::Sweep(part));
                    }
                    *slot.borrow_mut() = Some(pool);
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
    let rows = point_rows(&progress.points);
    let csv = {
        let rows = rows.clone();
        let param = pi.param;
        let name = format!(
            "{}-sweep-{}.csv",
            file_stem(&p.scenario.name, p.scenario.seed),
            pi.id
        );
        Callback::from(move |_: MouseEvent| {
            let _ = save_text(&name, "text/csv", &sweep_band_csv(param, &rows));
        })
    };
    let done = progress.done;
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
        &rows,
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
            <p class="muted">{"Each point is a whole run of this scenario, same seed, with only the chosen setting changed (or one run per seed, with more seeds). It runs in background workers, one per core; the page stays live."}</p>
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
                <label for="sweep-seeds">{"Seeds"}</label>
                <input id="sweep-seeds" type="number" min="1" max={MAX_SEEDS.to_string()} value={seeds.to_string()} onchange={on_seeds}
                    title="Run every point over this many seeds (the scenario's and the next ones up) and draw the mean with a band" />
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
                <p class="muted" id="sweep-current">{format!(
                    "The current {} is {}: marked by the dashed line.",
                    pi.label.to_ascii_lowercase(),
                    show(v),
                )}</p>
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
pub(super) fn ticks_125(lo: f64, hi: f64) -> Vec<f64> {
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
    ((x * 1000.0).round() / 1000.0).to_string()
}

fn status_text(p: &Progress) -> String {
    let workers = match p.workers {
        0 | 1 => String::new(),
        n => format!(" on {n} workers"),
    };
    let seeds = match p.seeds {
        0 | 1 => String::new(),
        n => format!(", {n} seeds each"),
    };
    match (p.running, p.took_ms) {
        (true, _) => format!("{} of {} points{seeds}{workers}", p.done, p.total),
        (false, Some(ms)) => format!(
            "{} points{seeds} in {}{workers}",
            p.done,
            duration_about(ms)
        ),
        (false, None) if p.done == 0 => "Not run yet.".into(),
        (false, None) => format!("{} points{seeds}", p.done),
    }
}

/// The points sent so far, in the sweep's order, each with its rows over
/// every seed it ran over.
fn point_rows(points: &[Option<Vec<SweepRow>>]) -> Rc<Vec<Vec<SweepRow>>> {
    Rc::new(
        points
            .iter()
            .flatten()
            .filter(|r| !r.is_empty())
            .cloned()
            .collect(),
    )
}

struct Metric {
    id: &'static str,
    title: &'static str,
    unit: &'static str,
    /// Its column in the CSV and its value in a row.
    of: SweepMetric,
    /// What an empty chart says: why this metric has no points.
    empty: &'static str,
}

const METRICS: [Metric; 5] = [
    Metric {
        id: "completions",
        of: SWEEP_METRICS[0],
        title: "Completions per minute",
        unit: "/min",
        empty: "",
    },
    Metric {
        id: "overlapping",
        of: SWEEP_METRICS[1],
        title: "Overlapping runs",
        unit: "runs",
        empty: "",
    },
    Metric {
        id: "duplicates",
        of: SWEEP_METRICS[2],
        title: "Duplicate effects",
        unit: "effects",
        empty: "",
    },
    Metric {
        id: "dead-lettered",
        of: SWEEP_METRICS[3],
        title: "Dead-lettered",
        unit: "msgs",
        empty: "",
    },
    Metric {
        id: "recovery",
        of: SWEEP_METRICS[4],
        title: "Recovery after the first crash or deploy",
        unit: "s",
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
        .map_or("no crash or deploy".to_string(), |ms| {
            duration_about(ms as f64)
        });
    format!(
        "{label} {value}: {:.1} completions/min, {} overlapping runs, {} duplicate effects, {} dead-lettered, recovery {recovery}",
        r.completions_per_min,
        r.overlapping_runs,
        r.duplicate_effects,
        r.dead_lettered,
    )
}

/// One point over several seeds, in words: each metric's mean and range.
fn band_text(label: &str, value: &str, rows: &[SweepRow]) -> String {
    let parts: Vec<String> = METRICS
        .iter()
        .filter_map(|m| {
            band(rows, m.of.value).map(|b| {
                format!(
                    "{} {:.1} {} ({:.1} to {:.1})",
                    m.id, b.mean, m.unit, b.min, b.max
                )
            })
        })
        .collect();
    format!(
        "{label} {value}, mean over {} seeds: {}",
        rows.len(),
        parts.join("; ")
    )
}

fn sweep_charts(points: &[Vec<SweepRow>], c: &Chart) -> Html {
    let (current, log, ms) = (c.current, c.log, c.ms);
    // Points where at least one seed's run ran.
    let ran: Vec<&[SweepRow]> = points
        .iter()
        .filter(|rows| rows.iter().any(|r| r.skipped.is_none()))
        .map(Vec::as_slice)
        .collect();
    if ran.is_empty() {
        return html! {};
    }
    let seeds = ran.iter().map(|rows| rows.len()).max().unwrap_or(1);
    let value_of = |rows: &[SweepRow]| rows.first().map_or(0.0, |r| r.value);
    let (lo, hi) = ran
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), r| {
            (a.min(value_of(r)), b.max(value_of(r)))
        });
    let log = log && lo > 0.0;
    let t = |v: f64| if log { v.max(1e-9).ln() } else { v };
    let (tl, th) = (t(lo), t(hi).max(t(lo) + 1e-9));
    let x = move |v: f64| LEFT + (W - LEFT - 6.0) * ((t(v) - tl) / (th - tl)).clamp(0.0, 1.0);
    let label = |v: f64| {
        if ms {
            duration_about(v)
        } else {
            v.round().to_string()
        }
    };
    let ticks = if log { ticks_125(lo, hi) } else { Vec::new() };
    let readout = c.hovered.and_then(|v| {
        ran.iter()
            .find(|r| value_of(r) == v)
            .map(|rows| match rows {
                [one] => point_text(c.label, &label(one.value), one),
                _ => band_text(c.label, &label(v), rows),
            })
    });
    let legend = (seeds > 1).then(|| {
        html! {
            <p class="muted" id="sweep-band-legend">
                <span class="band-key" aria-hidden="true"></span>
                {format!("Line: the mean over {seeds} seeds; shaded band: the lowest to the highest seed's value (min..max).")}
            </p>
        }
    });
    html! {
        <>
        <p class="muted" id="sweep-readout" aria-live="polite">
            { readout.unwrap_or_else(|| "Point at a dot to read its values; click it to use that value.".into()) }
        </p>
        {legend}
        <div class="charts sweep-charts">
            { for METRICS.iter().map(|m| {
                let bands: Vec<(f64, Band)> = ran.iter().filter_map(|r| band(r, m.of.value).map(|b| (value_of(r), b))).collect();
                let pts: Vec<(f64, f64)> = bands.iter().map(|(v, b)| (*v, b.mean)).collect();
                if pts.is_empty() {
                    return html! {
                        <figure class="chart" id={format!("sweep-chart-{}", m.id)}>
                            <figcaption>{m.title}</figcaption>
                            <p class="muted chart-empty">{m.empty}</p>
                        </figure>
                    };
                }
                let max = bands.iter().map(|p| p.1.max).fold(0.0, f64::max);
                let max = lease_ui::axis::nice_max(max);
                let y = |v: f64| TOP + (H - TOP - BOTTOM) * (1.0 - (v / max).clamp(0.0, 1.0));
                let line: Vec<String> = pts.iter().map(|(a, b)| format!(
                    "{:.1},{:.1}",
                    x(*a),
                    y(*b),
                )).collect();
                // Over several seeds: the band from each point's lowest to
                // its highest, drawn under the mean's line.
                let shade = (seeds > 1).then(|| {
                    let upper = bands.iter().map(|(a, b)| format!("{:.1},{:.1}", x(*a), y(b.max)));
                    let lower = bands.iter().rev().map(|(a, b)| format!(
                        "{:.1},{:.1}",
                        x(*a),
                        y(b.min),
                    ));
                    let outline: Vec<String> = upper.chain(lower).collect();
                    html! { <polygon class="sweep-band" points={outline.join(" ")} /> }
                });
                let mark = current.filter(|c| *c >= lo && *c <= hi).map(|c| {
                    let cx = x(c);
                    html! { <line class="current-mark" x1={cx.to_string()} x2={cx.to_string()} y1={TOP.to_string()} y2={(H - BOTTOM).to_string()} /> }
                });
                let x_labels = if ticks.len() >= 2 {
                    html! { <>{ for ticks.iter().map(|v| {
                        let tx = x(*v);
                        html! {
                            <>
                            <line class="axis" x1={format!("{tx:.1}")} x2={format!("{tx:.1}")} y1={(H - BOTTOM).to_string()} y2={(H - BOTTOM + 3.0).to_string()} />
                            <text class="axis-label sweep-tick" text-anchor="middle" x={format!("{tx:.1}")} y={(H - 5.0).to_string()}>{label(*v)}</text>
                            </>
                        }
                    }) }</> }
                } else {
                    html! {
                        <>
                        <text class="axis-label" x={LEFT.to_string()} y={(H - 5.0).to_string()}>{label(lo)}</text>
                        <text class="axis-label" text-anchor="end" x={(W - 6.0).to_string()} y={(H - 5.0).to_string()}>{label(hi)}</text>
                        </>
                    }
                };
                html! {
                    <figure class="chart" id={format!("sweep-chart-{}", m.id)}>
                        <figcaption>{m.title}</figcaption>
                        <svg viewBox={format!(
                            "0 0 {} {}",
                            W,
                            H,
                        )} role="group" aria-label={format!("{} ({}) against the setting", m.title, m.unit)}>
                            <text class="axis-label" x="2" y={(TOP + 8.0).to_string()}>{lease_ui::axis::fmt_value(max)}</text>
                            <text class="axis-label" x="2" y={(H - BOTTOM).to_string()}>{"0"}</text>
                            <text class="axis-unit" x="2" y={((H - BOTTOM + TOP) / 2.0).to_string()}>{m.unit}</text>
                            <line class="axis" x1={LEFT.to_string()} x2={(W - 6.0).to_string()} y1={(H - BOTTOM).to_string()} y2={(H - BOTTOM).to_string()} />
                            {x_labels}
                            {shade}
                            <polyline class="series s-depth" points={line.join(" ")} />
                            {mark}
                            { for pts.iter().map(|(a, b)| {
                                let v = *a;
                                let mean = if seeds > 1 { "mean " } else { "" };
                                let text = format!(
                                    "{} {}: {mean}{} {}. Click to use this value.",
                                    c.label,
                                    label(v),
                                    lease_ui::axis::fmt_value(*b),
                                    m.unit,
                                );
                                let (enter, leave, click, key) = (c.hover.clone(), c.hover.clone(), c.pick.clone(), c.pick.clone());
                                html! {
                                    <circle class="dot" data-value={v.to_string()} cx={format!(
                                        "{:.1}",
                                        x(v),
                                    )} cy={format!("{:.1}", y(*b))} r="2" stroke="transparent" stroke-width="8"
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
    fn a_sweeps_time_reads_as_every_duration_on_the_page() {
        let done = |took_ms| Progress {
            done: 8,
            took_ms: Some(took_ms),
            ..Progress::default()
        };
        assert_eq!(status_text(&done(150_000.0)), "8 points in 2.5 min");
        assert_eq!(
            status_text(&done(3_456.0)),
            format!("8 points in {}", duration_about(3_456.0))
        );
        assert_eq!(status_text(&done(456.0)), "8 points in 456 ms");
    }

    #[test]
    fn a_chosen_point_is_written_as_a_link_writes_it() {
        assert_eq!(link_value(45_000.4, true), "45s");
        assert_eq!(link_value(7.6, false), "8");
    }
}
