//! Charts of the run's series, linked to the timeline's cursor and revealed
//! up to the playhead. Small SVGs: a few hundred points each.

use std::collections::BTreeMap;

use lease_format::decimal::{clamp, fixed, shortest};
use lease_ui::axis::{fmt_value, nice_max, tick_label, time_ticks};
use yew::prelude::*;

use crate::memo::memo;
use crate::run_handle::RunHandle;

const W: f64 = 320.0;
const H: f64 = 130.0;
const LEFT: f64 = 40.0;
const BOTTOM: f64 = 22.0;
const TOP: f64 = 8.0;

#[derive(Clone, PartialEq)]
pub struct Line {
    pub label: &'static str,
    pub class: &'static str,
    pub values: Vec<f64>,
    /// Sampled at each bucket's end (a gauge) rather than counted within it.
    pub gauge: bool,
}

#[derive(PartialEq)]
pub struct LineChartProps {
    pub id: &'static str,
    pub title: &'static str,
    pub unit: &'static str,
    pub lines: Vec<Line>,
    pub bucket_ms: u64,
    pub end_ms: u64,
    pub playhead_ms: u64,
    pub cursor_ms: Option<u64>,
    pub on_cursor: Callback<Option<u64>>,
}

pub fn line_chart(p: &LineChartProps) -> Html {
    let end = p.end_ms.max(1) as f64;
    let max = nice_max(
        p.lines
            .iter()
            .flat_map(|l| l.values.iter().copied())
            .fold(0.0, f64::max),
    );
    let x = |t: f64| LEFT + (W - LEFT - 6.0) * clamp(t / end, 0.0, 1.0);
    let y = |v: f64| TOP + (H - TOP - BOTTOM) * (1.0 - clamp(v / max, 0.0, 1.0));
    let shown = |i: usize| (i as u64) * p.bucket_ms <= p.playhead_ms;
    let paths = p.lines.iter().map(|l| {
        // Each value is drawn at its bucket's middle (counters) and reaches the playhead.
        let pts: Vec<String> = l
            .values
            .iter()
            .enumerate()
            .filter(|(i, _)| shown(*i))
            .map(|(i, v)| {
                let at = if l.gauge { 1.0 } else { 0.5 };
                let t = ((i as f64 + at) * p.bucket_ms as f64).min(end);
                format!("{},{}", fixed(x(t), 1), fixed(y(*v), 1))
            })
            .collect();
        html! { <polyline class={classes!("series", l.class)} points={pts.join(" ")} /> }
    });
    let onmousemove = {
        let cb = p.on_cursor.clone();
        Callback::from(move |e: MouseEvent| {
            let Some(svg) = e
                .current_target()
                .and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(t).ok())
            else {
                return;
            };
            let r = svg.get_bounding_client_rect();
            let fx = (f64::from(e.client_x()) - r.left()) / r.width().max(1.0) * W;
            let t = clamp((fx - LEFT) / (W - LEFT - 6.0), 0.0, 1.0) * end;
            cb.emit(Some(t as u64));
        })
    };
    let onmouseleave = p.on_cursor.reform(|_: MouseEvent| None);
    let cursor = p.cursor_ms.map(|t| {
        let cx = x(t as f64);
        html! { <line class="cursor" x1={shortest(cx)} x2={shortest(cx)} y1={shortest(TOP)} y2={shortest(H - BOTTOM)} /> }
    });
    let head = x(p.playhead_ms as f64);
    html! {
        <figure class="chart" id={p.id}>
            <figcaption>
                {p.title}
                <span class="legend">
                    { for p.lines.iter().map(|l| html! { <span class={classes!("key", l.class)}>{l.label}</span> }) }
                </span>
            </figcaption>
            <svg viewBox={format!("0 0 {} {}", shortest(W), shortest(H))} role="img" aria-label={format!("{} ({}) over time", p.title, p.unit)}
                {onmousemove} {onmouseleave}>
                <text class="axis-label" x="2" y={shortest(TOP + 8.0)}>{fmt_value(max)}</text>
                <text class="axis-label" x="2" y={shortest(H - BOTTOM)}>{"0"}</text>
                <text class="axis-unit" x="2" y={shortest((H - BOTTOM + TOP) / 2.0)}>{p.unit}</text>
                <line class="axis" x1={shortest(LEFT)} x2={shortest(W - 6.0)} y1={shortest(H - BOTTOM)} y2={shortest(H - BOTTOM)} />
                <line class="axis" x1={shortest(LEFT)} x2={shortest(LEFT)} y1={shortest(TOP)} y2={shortest(H - BOTTOM)} />
                { for time_ticks(p.end_ms).into_iter().map(|t| {
                    // The last label would spill past the right edge: anchor it at its end.
                    let tx = x(t as f64);
                    let anchor = if tx > W - 24.0 { "end" } else { "middle" };
                    html! {
                        <text class="axis-label" text-anchor={anchor} x={shortest(tx.min(W - 2.0))} y={shortest(H - 6.0)}>{tick_label(t)}</text>
                    }
                }) }
                { for paths }
                if p.playhead_ms < p.end_ms {
                    <line class="playhead" x1={shortest(head)} x2={shortest(head)} y1={shortest(TOP)} y2={shortest(H - BOTTOM)} />
                }
                {cursor}
            </svg>
        </figure>
    }
}

/// Receive count per message: a bar per count. A shoulder at 2 and 3 on a
/// healthy queue means the lease is mis-sized (the clip-moderation case).
fn histogram(counts: &[(u64, u64)]) -> Html {
    let max = nice_max(counts.iter().map(|c| c.1 as f64).fold(0.0, f64::max));
    let n = counts.len().max(1) as f64;
    let bw = (W - LEFT - 6.0) / n;
    html! {
        <figure class="chart" id="chart-receive-counts">
            <figcaption>{"Receive count per message (whole run)"}</figcaption>
            <svg viewBox={format!("0 0 {} {}", shortest(W), shortest(H))} role="img" aria-label="Histogram: messages by how many times each was delivered">
                <text class="axis-label" x="2" y={shortest(TOP + 8.0)}>{fmt_value(max)}</text>
                <text class="axis-unit" x="2" y={shortest((H - BOTTOM + TOP) / 2.0)}>{"msgs"}</text>
                <line class="axis" x1={shortest(LEFT)} x2={shortest(W - 6.0)} y1={shortest(H - BOTTOM)} y2={shortest(H - BOTTOM)} />
                { for counts.iter().enumerate().map(|(i, (k, v))| {
                    let h = (H - TOP - BOTTOM) * (*v as f64 / max);
                    let x0 = LEFT + i as f64 * bw;
                    html! {
                        <g>
                            <rect class={classes!("bar", (*k >= 2).then_some("bar-repeat"))} x={shortest(x0 + 1.0)} y={shortest(H - BOTTOM - h)}
                                width={shortest((bw - 2.0).max(1.0))} height={shortest(h)}>
                                <title>{format!("{v} messages delivered {k} times")}</title>
                            </rect>
                            <text class="axis-label" text-anchor="middle" x={shortest(x0 + bw / 2.0)} y={shortest(H - 6.0)}>{k.to_string()}</text>
                        </g>
                    }
                }) }
            </svg>
        </figure>
    }
}

#[derive(Properties, PartialEq)]
pub struct ChartsProps {
    pub run: RunHandle,
    pub playhead_ms: u64,
    pub cursor_ms: Option<u64>,
    pub on_cursor: Callback<Option<u64>>,
}

pub fn f(v: &[u64]) -> Vec<f64> {
    v.iter().map(|&x| x as f64).collect()
}

fn minutes(v: &[u64]) -> Vec<f64> {
    v.iter().map(|&x| x as f64 / 60_000.0).collect()
}

#[function_component(Charts)]
pub fn charts(p: &ChartsProps) -> Html {
    let run = crate::run_handle::use_deferred_run(&p.run);
    let s = &run.report.series;
    let bucket = s.bucket_ms;
    let per_bucket = if bucket == 60_000 {
        "per min"
    } else {
        "per bucket"
    };
    let chart = |id: &'static str, title: &'static str, unit: &'static str, lines: Vec<Line>| {
        html! {
            { memo(LineChartProps { id, title, unit, lines, bucket_ms: bucket, end_ms: run.end_ms,
                playhead_ms: p.playhead_ms, cursor_ms: p.cursor_ms, on_cursor: p.on_cursor.clone() }, line_chart) }
        }
    };
    // The report's keys are text ("10" before "2"); a map by number orders
    // them without a sort of their own in the wasm.
    let mut by_count: BTreeMap<u32, u64> = BTreeMap::new();
    for (k, v) in &run.report.receive_counts {
        if let Ok(k) = k.parse() {
            *by_count.entry(k).or_default() += v;
        }
    }
    let counts: Vec<(u64, u64)> = by_count
        .into_iter()
        .map(|(k, v)| (u64::from(k), v))
        .collect();
    html! {
        <section class="charts" id="charts" aria-label="Charts">
            {chart("chart-completions", "Completions per minute", "/min", vec![
                Line { label: "useful", class: "s-useful", values: s.useful_completions_per_min.clone(), gauge: false },
                Line { label: "duplicate", class: "s-bad", values: s.duplicate_completions_per_min.clone(), gauge: false },
            ])}
            {chart("chart-depth", "Queue depth and in flight", "msgs", vec![
                Line { label: "queue depth", class: "s-depth", values: f(&s.queue_depth), gauge: true },
                Line { label: "in flight", class: "s-flight", values: f(&s.in_flight), gauge: true },
            ])}
            {chart("chart-acks", "Ack rate (accepted acks)", "/min", vec![
                Line { label: "acks", class: "s-useful", values: s.completions_per_min.clone(), gauge: false },
            ])}
            { histogram(&counts) }
            {chart("chart-dlq", "Dead-letter arrivals by cause", per_bucket, vec![
                Line { label: "expired", class: "s-bad", values: f(&s.dead_letter_expired), gauge: false },
                Line { label: "failed", class: "s-failed", values: f(&s.dead_letter_failed), gauge: false },
            ])}
            {chart("chart-oldest", "Oldest in-flight age", "min", vec![
                Line { label: "oldest lease", class: "s-flight", values: minutes(&s.oldest_in_flight_age_ms), gauge: true },
            ])}
            {chart("chart-extensions", "Extensions accepted / rejected", per_bucket, vec![
                Line { label: "accepted", class: "s-useful", values: f(&s.extensions_ok), gauge: false },
                Line { label: "rejected", class: "s-bad", values: f(&s.extensions_rejected), gauge: false },
            ])}
            {chart("chart-running", "Running handlers", "handlers", vec![
                Line { label: "running", class: "s-depth", values: f(&s.running_handlers), gauge: true },
            ])}
        </section>
    }
}
