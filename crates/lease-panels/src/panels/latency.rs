//! "Your latency data": a dashboard's percentiles, a list or file of
//! durations, or a histogram's buckets, read (`lease_latency`) into one of
//! the work shapes (`quantiles`, `empirical`, `histogram`), drawn against
//! the visibility timeout and the heartbeat's renewals, and put to use as
//! the scenario's work. The same chart shows the work the scenario has now,
//! with the axes the small chart under the controls leaves out.

use lease_format::display;
use lease_format::display::duration_about;
use lease_latency::{durations, histogram, percentiles, Unit};
use lease_sim::fit::{compact_samples, fit_errors, quantile_ms, COMPACT_QUANTILES};
use lease_sim::scenario::Dist;
use lease_sim::Scenario;
use lease_ui::panel::PanelCommand;
use std::rc::Rc;
use yew::prelude::*;

use super::panel_head;
use super::sweep::ticks_125;
use crate::durations_file::{DurationsFile, FileState};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Tab {
    Percentiles,
    Durations,
    Histogram,
}

impl Tab {
    const ALL: [Tab; 3] = [Tab::Percentiles, Tab::Durations, Tab::Histogram];

    fn id(self) -> &'static str {
        match self {
            Tab::Percentiles => "percentiles",
            Tab::Durations => "durations",
            Tab::Histogram => "histogram",
        }
    }

    fn label(self) -> &'static str {
        match self {
            Tab::Percentiles => "Percentiles",
            Tab::Durations => "Durations",
            Tab::Histogram => "Histogram",
        }
    }

    fn hint(self) -> &'static str {
        match self {
            Tab::Percentiles => "Paste what your dashboard shows: p50 2s, p90 7s, p99 20s (one per line, p50=2000ms, 50%: 2 s, or a table's header row with a row of numbers under it). Two to nine percentiles.",
            Tab::Durations => "Paste durations, one per line or separated by commas (250, 1.5s), or choose or drop a CSV or text file of them: up to 1,000,000 values.",
            Tab::Histogram => "Paste Prometheus buckets (job_seconds_bucket{le=\"0.5\"} 120, cumulative as Prometheus exports them; pick seconds below for its bounds), rows of upper,count, or the JSON of a Cloud Monitoring distribution such as Pub/Sub's subscription/ack_latencies (in ms).",
        }
    }
}

/// A paste read into a work shape, ready to use.
#[derive(Clone, PartialEq, Debug)]
pub struct Reading {
    pub dist: Dist,
    /// What the scenario keeps, in words.
    pub kept: String,
    pub note: Option<String>,
    /// Whether the text named a unit (else the picker's applied).
    pub unit_named: bool,
}

/// The tab's text read into a shape; `Ok(None)` while the text is empty.
pub fn read(tab: Tab, text: &str, unit: Unit) -> Result<Option<Reading>, String> {
    if text.trim().is_empty() {
        return Ok(None);
    }
    let reading = match tab {
        Tab::Percentiles => {
            let r = percentiles::read(text, unit).map_err(|e| e.to_string())?;
            Reading {
                kept: format!(
                    "kept as your {} percentiles, fitted by a monotone curve through them",
                    r.points.len()
                ),
                dist: Dist::Quantiles { points: r.points },
                note: None,
                unit_named: r.unit_named,
            }
        }
        Tab::Durations => {
            let r = durations::read(text, unit).map_err(|e| e.to_string())?;
            Reading {
                kept: kept_of(r.ms.len()),
                dist: empirical(&r.ms),
                note: None,
                unit_named: r.unit_named,
            }
        }
        Tab::Histogram => {
            let h = histogram::read(text, unit).map_err(|e| e.to_string())?;
            let unit_named = text.trim_start().starts_with(['{', '[']);
            Reading {
                kept: format!("kept as your {} buckets", h.buckets.len()),
                dist: Dist::Histogram { buckets: h.buckets },
                note: h.note,
                unit_named,
            }
        }
    };
    Ok(Some(reading))
}

/// The scenario's form of many durations: their 256 quantiles (the share
/// link stays short), or the durations themselves when there are fewer.
/// In whole ms, as the share link writes them: the link then names the
/// values (`samples=`) rather than carrying the whole scenario.
pub fn empirical(ms: &[f64]) -> Dist {
    let mut samples_ms = if ms.len() > COMPACT_QUANTILES {
        compact_samples(ms, COMPACT_QUANTILES)
    } else {
        let mut v = ms.to_vec();
        v.sort_by(f64::total_cmp);
        v
    };
    samples_ms.iter_mut().for_each(|v| *v = v.round());
    Dist::Empirical { samples_ms }
}

pub fn kept_of(count: usize) -> String {
    if count > COMPACT_QUANTILES {
        format!(
            "kept as {COMPACT_QUANTILES} quantiles of your {} values",
            display::count(count as u64)
        )
    } else {
        format!("kept as your {} values", display::count(count as u64))
    }
}

/// The share of work longer than `limit_ms` under a quantile function, by
/// bisection on the probability (every shape answers its quantiles).
fn share_longer(q: impl Fn(f64) -> f64, limit_ms: f64) -> f64 {
    let (mut lo, mut hi) = (0.0_f64, 1.0_f64);
    for _ in 0..30 {
        let mid = 0.5 * (lo + hi);
        if q(mid) <= limit_ms {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    1.0 - lo
}

fn share_words(share: f64) -> String {
    if share < 0.0005 {
        "almost no message needs".into()
    } else {
        format!("{:.1}% of messages need", share * 100.0)
    }
}

/// The work shape's quantile; the scenario's own shapes through
/// `lease_diagnose`, which knows them all.
fn quantile_of(d: &Dist, p: f64) -> f64 {
    match d {
        Dist::Quantiles { .. } | Dist::Empirical { .. } | Dist::Histogram { .. } => {
            quantile_ms(d, p)
        }
        _ => lease_diagnose::stats::work_quantile_ms(d, p),
    }
}

#[derive(Properties, PartialEq)]
pub struct LatencyProps {
    pub scenario: Rc<Scenario>,
    pub on_command: Callback<PanelCommand>,
}

#[function_component(LatencyPanel)]
pub fn latency_panel(p: &LatencyProps) -> Html {
    // Opened by a button beside a control, which on a narrow screen is far
    // below where the panels show: the panel comes to the reader.
    use_effect_with((), |_| {
        lease_ui::scroll::bring_selector_into_view("#latency-panel")
    });
    let tab = use_state(|| Tab::Percentiles);
    let texts = use_state(|| [String::new(), String::new(), String::new()]);
    let unit = use_state(|| Unit::Ms);
    let used = use_state(|| None::<String>);
    let file = use_state(FileState::default);
    // A file still being read stops with the panel.
    use_effect_with((), |_| crate::durations_file::stop);
    let t = *tab;
    let tab_index = Tab::ALL.iter().position(|x| *x == t).unwrap_or(0);
    let text = texts[tab_index].clone();
    // A file read for the durations tab stands in for its text until the
    // text is edited again.
    let from_file = t == Tab::Durations && text.trim().is_empty();
    let reading: Result<Option<Reading>, String> = match (&*file, from_file) {
        (FileState::Done(done), true) => Ok(Some(Reading {
            dist: empirical(&done.samples_ms),
            kept: kept_of(done.count),
            note: None,
            unit_named: done.read.unit_from_header,
        })),
        (FileState::Failed(why), true) => Err(why.clone()),
        _ => read(t, &text, *unit),
    };

    let on_tab = |x: Tab| {
        let (tab, used) = (tab.clone(), used.clone());
        Callback::from(move |_: MouseEvent| {
            tab.set(x);
            used.set(None);
        })
    };
    let on_text = {
        let (texts, used) = (texts.clone(), used.clone());
        Callback::from(move |e: InputEvent| {
            let v = e
                .target_unchecked_into::<web_sys::HtmlTextAreaElement>()
                .value();
            let mut next = (*texts).clone();
            next[tab_index] = v;
            texts.set(next);
            used.set(None);
        })
    };
    let on_unit = {
        let (unit, file) = (unit.clone(), file.clone());
        Callback::from(move |e: Event| {
            let v = e
                .target_unchecked_into::<web_sys::HtmlSelectElement>()
                .value();
            if let Some(u) = Unit::from_name(&v) {
                unit.set(u);
                // A file read in the unit it did not name is read again.
                if let (FileState::Done(done), true) = (&*file, from_file) {
                    let column = Some(done.read.column.clone());
                    crate::durations_file::start(done.file.clone(), column, u, file.clone());
                }
            }
        })
    };
    let on_use = {
        let (scenario, on_command, used) = (p.scenario.clone(), p.on_command.clone(), used.clone());
        let ready = reading.as_ref().ok().and_then(|r| r.clone());
        Callback::from(move |_: MouseEvent| {
            let Some(r) = &ready else { return };
            let mut next = (*scenario).clone();
            next.work.dist = r.dist.clone();
            match lease_sim::validate::validate(&next) {
                Ok(()) => {
                    on_command.emit(PanelCommand::UseWork(
                        serde_json::to_string(&next).unwrap_or_default(),
                    ));
                    used.set(Some(format!(
                        "In use: the scenario's work is your data, {}.",
                        r.kept
                    )));
                }
                Err(e) => used.set(Some(format!("Not used: {e}"))),
            }
        })
    };

    let config = lease_sim::resolve::resolve(&p.scenario);
    let timeout = config.visibility_timeout_ms as f64;
    let heartbeat = config
        .heartbeat
        .as_ref()
        .map(|h| (h.interval_ms as f64, h.max_extensions));
    let current = &p.scenario.work.dist;
    let candidate = reading.as_ref().ok().and_then(|r| r.as_ref());
    let now_share = share_longer(|q| quantile_of(current, q), timeout);
    let drop_file = file_input(&file, &texts, tab_index, *unit);

    html! {
        <section class="panel" id="latency-panel" aria-labelledby="latency-title">
            { panel_head("latency-title", "Your latency data", "Close Your latency data", p.on_command.reform(|_: MouseEvent| PanelCommand::Close)) }
            <div class="panel-row" role="group" aria-label="What you bring">
                { for Tab::ALL.iter().map(|x| html! {
                    <button type="button" id={format!(
                        "latency-tab-{}",
                        x.id(),
                    )} aria-pressed={(*x == t).to_string()} onclick={on_tab(*x)}>{x.label()}</button>
                }) }
            </div>
            <p class="muted" id="latency-hint">{t.hint()}</p>
            <label for="latency-text">{format!("Your {}", t.label().to_ascii_lowercase())}</label>
            <textarea id="latency-text" rows="5" spellcheck="false" value={text.clone()} oninput={on_text}
                placeholder={match t { Tab::Percentiles => "p50 2s, p90 7s, p99 20s", Tab::Durations => "1200\n1850\n2300", Tab::Histogram => "le=\"500\" 120\nle=\"1000\" 180\nle=\"+Inf\" 190" }} />
            if t == Tab::Durations { {drop_file} }
            if candidate.is_some_and(|r| !r.unit_named) {
                <div class="panel-row">
                    <label for="latency-unit">{"Numbers without a unit are in"}</label>
                    <select id="latency-unit" onchange={on_unit}>
                        { for Unit::ALL.iter().map(|u| html! {
                            <option value={u.name()} selected={*u == *unit}>{match u { Unit::Ms => "milliseconds (ms)", Unit::S => "seconds (s)", Unit::Min => "minutes (m)" }}</option>
                        }) }
                    </select>
                </div>
            }
            if let Err(why) = &reading {
                <p class="status bad" role="alert" id="latency-error">{format!("Not read: {why}. Nothing was changed.")}</p>
            }
            if let Some(r) = candidate {
                <p class="status ok" id="latency-read" role="status">{format!(
                    "Read: {}.",
                    r.kept,
                )}</p>
                if let Some(n) = &r.note { <p class="muted" id="latency-note">{n.clone()}</p> }
                if let Dist::Quantiles { points } = &r.dist { {fit_table(points, &r.dist)} }
                <p id="latency-candidate-share">{format!(
                    "With your data, {} longer than the {} timeout.",
                    share_words(share_longer(|q| quantile_of(&r.dist, q), timeout)),
                    duration_about(timeout),
                )}</p>
                <div class="panel-row">
                    <button type="button" id="latency-use" onclick={on_use}>{"Use"}</button>
                    if let Some(u) = &*used { <span id="latency-used" role="status">{u.clone()}</span> }
                </div>
            }
            { work_chart(current, candidate.map(|r| &r.dist), timeout, heartbeat) }
            <p id="latency-now-share">{format!(
                "The scenario's work now: {} longer than the {} timeout.",
                share_words(now_share),
                duration_about(timeout),
            )}</p>
        </section>
    }
}

/// The file chooser and drop zone of the durations tab, and the reading's
/// progress.
fn file_input(
    file: &UseStateHandle<FileState>,
    texts: &UseStateHandle<[String; 3]>,
    tab_index: usize,
    unit: Unit,
) -> Html {
    let clear_text = {
        let texts = texts.clone();
        move || {
            if !texts[tab_index].is_empty() {
                let mut next = (*texts).clone();
                next[tab_index].clear();
                texts.set(next);
            }
        }
    };
    let start = {
        let file = file.clone();
        Callback::from(move |(f, column): (web_sys::File, Option<String>)| {
            clear_text();
            crate::durations_file::start(f, column, unit, file.clone());
        })
    };
    html! { <DurationsFile state={(**file).clone()} {start} /> }
}

/// Each percentile, what the fit gives there, and how far apart they are.
fn fit_table(points: &[[f64; 2]], dist: &Dist) -> Html {
    let errors = fit_errors(points);
    html! {
        <table class="shortcuts" id="latency-fit">
            <caption class="muted">{"The fitted curve at your percentiles"}</caption>
            <thead><tr><th scope="col">{"Percentile"}</th><th scope="col">{"Yours"}</th><th scope="col">{"The fit"}</th><th scope="col">{"Off by"}</th></tr></thead>
            <tbody>
                { for points.iter().zip(errors).map(|([p, ms], e)| html! {
                    <tr>
                        <td>{format!("p{}", ((p * 1e6).round() / 1e4).to_string())}</td>
                        <td>{duration_about(*ms)}</td>
                        <td>{duration_about(quantile_ms(dist, *p))}</td>
                        <td class="fit-error">{format!("{:.1}%", e * 100.0)}</td>
                    </tr>
                }) }
            </tbody>
        </table>
    }
}

const W: f64 = 520.0;
const H: f64 = 190.0;
const LEFT: f64 = 34.0;
const RIGHT: f64 = 10.0;
const TOP: f64 = 10.0;
const BOTTOM: f64 = 24.0;

/// The share of work done by each duration (a cumulative curve, log time
/// axis): the scenario's work, the pasted data with its points, the
/// timeout, and the heartbeat's renewals.
fn work_chart(
    current: &Dist,
    candidate: Option<&Dist>,
    timeout: f64,
    heartbeat: Option<(f64, Option<u32>)>,
) -> Html {
    const N: usize = 80;
    let ps: Vec<f64> = (0..N)
        .map(|i| 0.005 + 0.99 * i as f64 / (N - 1) as f64)
        .collect();
    let curve = |d: &Dist| -> Vec<(f64, f64)> {
        ps.iter()
            .map(|p| (quantile_of(d, *p).max(1.0), *p))
            .collect()
    };
    let now = curve(current);
    let yours = candidate.map(curve);
    let all = now.iter().chain(yours.iter().flatten()).map(|(x, _)| *x);
    let lo = all.clone().fold(timeout, f64::min).max(1.0) / 1.5;
    let hi = all.fold(timeout, f64::max) * 1.3;
    let (llo, lhi) = (lo.ln(), hi.ln());
    let x = |v: f64| LEFT + (W - LEFT - RIGHT) * ((v.max(lo).ln() - llo) / (lhi - llo));
    let y = |p: f64| TOP + (H - TOP - BOTTOM) * (1.0 - p);
    let line = |pts: &[(f64, f64)]| {
        pts.iter()
            .map(|(a, b)| format!("{:.1},{:.1}", x(*a), y(*b)))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let renewals: Vec<f64> = heartbeat
        .map(|(every, cap)| {
            let cap = cap.map_or(usize::MAX, |c| c as usize);
            (1..)
                .map(|k| every * k as f64)
                .take_while(|t| *t <= hi)
                .take(cap.min(60))
                .collect()
        })
        .unwrap_or_default();
    let points: Vec<[f64; 2]> = match candidate {
        Some(Dist::Quantiles { points }) => points.clone(),
        _ => Vec::new(),
    };
    let mut ticks = ticks_125(lo, hi);
    if ticks.len() > 7 {
        ticks.retain(|t| {
            let m = t / 10f64.powf(t.log10().floor());
            (m - 1.0).abs() < 1e-6
        });
    }
    let description = format!(
        "Share of messages done by each duration, on a log time axis from {} to {}: the scenario's work{}, the {} visibility timeout{}.",
        duration_about(lo),
        duration_about(hi),
        if candidate.is_some() { " and your data" } else { "" },
        duration_about(timeout),
        if renewals.is_empty() { String::new() } else { format!(
            " and the heartbeat's {} renewals",
            renewals.len(),
        ) },
    );
    html! {
        <figure class="chart" id="latency-chart">
            <figcaption>{"The work against the visibility timeout"}</figcaption>
            <svg viewBox={format!("0 0 {} {}", W, H)} role="img" aria-label={description}>
                <line class="axis" x1={LEFT.to_string()} x2={(W - RIGHT).to_string()} y1={(H - BOTTOM).to_string()} y2={(H - BOTTOM).to_string()} />
                <line class="axis" x1={LEFT.to_string()} x2={LEFT.to_string()} y1={TOP.to_string()} y2={(H - BOTTOM).to_string()} />
                <text class="axis-label" x="2" y={(TOP + 8.0).to_string()}>{"100%"}</text>
                <text class="axis-label" x="2" y={(y(0.5) + 3.0).to_string()}>{"50%"}</text>
                <text class="axis-label" x="2" y={(H - BOTTOM).to_string()}>{"0"}</text>
                { for ticks.iter().map(|v| html! {
                    <text class="axis-label" text-anchor="middle" x={format!(
                        "{:.1}",
                        x(*v),
                    )} y={(H - 6.0).to_string()}>{duration_about(*v)}</text>
                }) }
                { for renewals.iter().map(|r| html! {
                    <line class="axis renewal" x1={format!(
                        "{:.1}",
                        x(*r),
                    )} x2={format!("{:.1}", x(*r))} y1={TOP.to_string()} y2={(H - BOTTOM).to_string()} stroke-dasharray="2 3" />
                }) }
                <line class="current-mark" id="latency-timeout" x1={format!(
                    "{:.1}",
                    x(timeout),
                )} x2={format!("{:.1}", x(timeout))} y1={TOP.to_string()} y2={(H - BOTTOM).to_string()} />
                // Left of the line when the line is near the right edge, and low, where
                // a distribution's curve has already climbed past.
                <text class="axis-label" text-anchor={if x(timeout) > W - 90.0 { "end" } else { "start" }}
                    x={format!(
                        "{:.1}",
                        if x(timeout) > W - 90.0 { x(timeout) - 3.0 } else { x(timeout) + 3.0 },
                    )}
                    y={(if x(timeout) > W - 90.0 { H - BOTTOM - 4.0 } else { TOP + 8.0 }).to_string()}>{format!(
                        "timeout {}",
                        duration_about(timeout),
                    )}</text>
                <polyline class="series s-flight" stroke-dasharray="5 3" points={line(&now)} />
                if let Some(v) = &yours {
                    <polyline class="series s-depth" id="latency-fit-curve" points={line(v)} />
                }
                { for points.iter().map(|[p, ms]| html! {
                    <circle class="dot latency-point" cx={format!(
                        "{:.1}",
                        x(*ms),
                    )} cy={format!("{:.1}", y(*p))} r="3.5" />
                }) }
            </svg>
            <p class="muted">
                <span class="s-flight">{"Dashed: the scenario's work now. "}</span>
                if yours.is_some() { <span class="s-depth">{"Solid: your data"}</span>{ if points.is_empty() { ". " } else { ", dots at your percentiles. " } } }
                {"The red line is the timeout"}
                { if renewals.is_empty() { ".".to_string() } else { format!(
                    "; the dotted lines, the heartbeat's renewals (every {}).",
                    duration_about(heartbeat.map_or(0.0, |h| h.0)),
                ) } }
            </p>
        </figure>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pasted_percentiles_become_a_quantiles_shape() {
        let r = read(Tab::Percentiles, "p50 2s, p90 7s, p99 20s", Unit::Ms)
            .unwrap()
            .unwrap();
        assert_eq!(
            r.dist,
            Dist::Quantiles {
                points: vec![[0.5, 2000.0], [0.9, 7000.0], [0.99, 20_000.0]]
            }
        );
        assert!(r.unit_named);
    }

    #[test]
    fn many_durations_are_kept_as_256_quantiles_and_the_panel_says_so() {
        let text: String = (1..=100_000).map(|i| format!("{i}\n")).collect();
        let r = read(Tab::Durations, &text, Unit::Ms).unwrap().unwrap();
        let Dist::Empirical { samples_ms } = &r.dist else {
            panic!("{:?}", r.dist)
        };
        assert_eq!(samples_ms.len(), COMPACT_QUANTILES);
        assert!(
            samples_ms.iter().all(|v| v.fract() == 0.0),
            "{samples_ms:?}"
        );
        assert_eq!(r.kept, "kept as 256 quantiles of your 100,000 values");
    }

    #[test]
    fn empty_text_reads_as_nothing_and_bad_text_as_a_reason() {
        assert_eq!(read(Tab::Histogram, "  \n", Unit::Ms), Ok(None));
        let e = read(Tab::Histogram, "100,5\n50,3", Unit::Ms).unwrap_err();
        assert!(e.contains("line 2"), "{e}");
    }

    #[test]
    fn the_share_past_the_timeout_follows_the_quantiles() {
        let d = Dist::Quantiles {
            points: vec![[0.5, 2000.0], [0.9, 7000.0], [0.99, 20_000.0]],
        };
        let share = share_longer(|q| quantile_of(&d, q), 20_000.0);
        assert!((share - 0.01).abs() < 1e-4, "{share}");
        assert_eq!(share_words(0.0321), "3.2% of messages need");
        assert_eq!(share_words(0.0), "almost no message needs");
    }
}
