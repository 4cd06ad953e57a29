//! Charts of the run's series, linked to the timeline's cursor and revealed
//! up to the playhead. Small SVGs: a few hundred points each.
use lease_ui::axis::{fit_labels, fmt_value, nice_max, time_ticks};
use yew::prelude::*;

use crate::memo::memo;
use crate::run_handle::RunHandle;

/// The width a chart is drawn at until the page has measured one.
pub const W: f64 = 320.0;
/// A chart's SVG has one unit a CSS pixel (its `viewBox` is its measured
/// width by `H`), so its text is `FONT_PX` on screen at any width: the
/// legend's size (`.axis-label` in the stylesheet).
const H: f64 = 136.0;
const FONT_PX: f64 = 12.0;
/// Room between two labels of an axis.
const GAP_PX: f64 = 6.0;
const RIGHT: f64 = 6.0;
/// The unit sits above the plot, the values left of it, the times below.
const TOP: f64 = 24.0;
const BOTTOM: f64 = 22.0;

/// The width of each text at the charts' font, in CSS pixels: measured on a
/// canvas in the page's font (the stylesheet's `body`), estimated where
/// the page has no canvas. The canvas and the widths are kept: every slider
/// move redraws the charts with mostly the same labels, and a new canvas
/// and its measuring cost more than the rest of a chart's drawing.
fn text_widths(texts: &[String]) -> Vec<f64> {
    use std::cell::RefCell;
    use wasm_bindgen::JsCast;
    /// Enough for every label of every chart at once; past it the list starts again.
    const KEEP: usize = 256;
    thread_local! {
        static PEN: Option<web_sys::CanvasRenderingContext2d> = gloo::utils::document()
            .create_element("canvas")
            .ok()
            .and_then(|c| c.dyn_into::<web_sys::HtmlCanvasElement>().ok())
            .and_then(|c| c.get_context("2d").ok().flatten())
            .and_then(|c| c.dyn_into::<web_sys::CanvasRenderingContext2d>().ok())
            .inspect(|pen| pen.set_font("12px system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif"));
        static MEASURED: RefCell<Vec<(String, f64)>> = const { RefCell::new(Vec::new()) };
    }
    texts
        .iter()
        .map(|t| {
            MEASURED.with_borrow_mut(|known| {
                if let Some((_, w)) = known.iter().find(|(k, _)| k == t) {
                    return *w;
                }
                let w = PEN.with(|pen| match pen {
                    Some(pen) => pen.measure_text(t).map_or(0.0, |m| m.width()),
                    None => t.len() as f64 * FONT_PX * 0.65,
                });
                if known.len() == KEEP {
                    known.clear();
                }
                known.push((t.clone(), w));
                w
            })
        })
        .collect()
}

/// One line of a chart's SVG: an axis, the playhead or the cursor.
fn svg_line(class: &'static str, x1: f64, x2: f64, y1: f64, y2: f64) -> Html {
    html! { <line class={class} x1={x1.to_string()} x2={x2.to_string()} y1={y1.to_string()} y2={y2.to_string()} /> }
}

/// Labels along the x axis, `(x, text)` in order, thinned by their measured
/// widths so that none overlaps the next, within `[left, right]`.
/// A time axis's ticks for a run of `end_ms`, each with its label in the
/// unit of the step between them, written as the timeline writes its own
/// (`lease_view::ticks::label`): one axis reads as one scale, and the same
/// place reads the same on the timeline and on a chart.
pub fn time_labels(end_ms: u64) -> Vec<(u64, String)> {
    let at = time_ticks(end_ms);
    let step = at.get(1).map_or(end_ms.max(1), |t| *t);
    let unit = lease_view::ticks::unit_of(step as f64);
    at.into_iter()
        .map(|t| (t, lease_view::ticks::label(t as f64, unit)))
        .collect()
}

fn x_labels(at: Vec<(f64, String)>, left: f64, right: f64) -> Html {
    let texts: Vec<String> = at.iter().map(|(_, t)| t.clone()).collect();
    let wanted: Vec<(f64, f64)> = at
        .iter()
        .zip(text_widths(&texts))
        .map(|((x, _), w)| (*x, w))
        .collect();
    html! {
        { for fit_labels(&wanted, left, right, GAP_PX).into_iter().map(|(i, x0)| html! {
            <text class="axis-label" x={format!("{x0:.1}")} y={(H - 5.0).to_string()}>{texts[i].clone()}</text>
        }) }
    }
}

/// The value axis: the unit above the plot, the maximum and 0 right of a
/// gutter as wide as they need. Returns the labels and the plot's left edge.
fn y_axis(max: f64, unit: &str) -> (Html, f64) {
    let top = fmt_value(max);
    let widths = text_widths(&[top.clone(), "0".into()]);
    let left = (widths.iter().fold(0.0, |a: f64, b| a.max(*b)) + 8.0).max(24.0);
    let at = (left - 4.0).to_string();
    let html = html! {
        <>
            <text class="axis-unit" x="2" y="13">{unit.to_string()}</text>
            <text class="axis-label" text-anchor="end" x={at.clone()} y={(TOP + 4.0).to_string()}>{top}</text>
            <text class="axis-label" text-anchor="end" x={at} y={(H - BOTTOM + 4.0).to_string()}>{"0"}</text>
        </>
    };
    (html, left)
}

/// The width the charts draw at: the measured width of a chart's SVG in the
/// page (all the charts of the page are one width, their grid's column),
/// again whenever `.main`, the column they are in, changes size.
#[hook]
pub fn use_chart_width(main: NodeRef) -> f64 {
    let width = use_state_eq(|| W);
    {
        let width = width.clone();
        use_effect_with(main, move |main| {
            use wasm_bindgen::JsCast;
            let keep = main.cast::<web_sys::Element>().and_then(|el| {
                let measure = wasm_bindgen::closure::Closure::<dyn Fn()>::new(move || {
                    let w = gloo::utils::document()
                        .query_selector(".main .chart svg")
                        .ok()
                        .flatten()
                        .map_or(0.0, |svg| svg.get_bounding_client_rect().width().floor());
                    if w > 0.0 {
                        width.set(w);
                    }
                });
                let observer =
                    web_sys::ResizeObserver::new(measure.as_ref().unchecked_ref()).ok()?;
                observer.observe(&el);
                Some((observer, measure))
            });
            move || {
                if let Some((observer, _measure)) = keep {
                    observer.disconnect();
                }
            }
        });
    }
    *width
}

#[derive(Clone, PartialEq)]
pub struct Line {
    pub label: &'static str,
    pub class: &'static str,
    pub values: Vec<f64>,
    /// Sampled at each bucket's end (a gauge) rather than counted within it.
    pub gauge: bool,
}

/// A value with its chart's unit, in words: `12/min`, `4 handlers`.
fn with_unit(v: f64, unit: &str) -> String {
    let one = v == 1.0;
    let v = lease_ui::axis::fmt_value(v);
    let unit = if unit == "msgs" { "messages" } else { unit };
    match unit {
        u if u.starts_with('/') => format!("{v}{u}"),
        u if one && u.ends_with('s') => format!("{v} {}", &u[..u.len() - 1]),
        u => format!("{v} {u}"),
    }
}

/// What a line chart shows, in words, for a screen reader: each line's
/// peak and when, and where it ends (whole run), rather than the axis's
/// ticks.
pub fn line_summary(
    title: &str,
    unit: &str,
    lines: &[Line],
    bucket_ms: u64,
    end_ms: u64,
) -> String {
    let each: Vec<String> = lines
        .iter()
        .map(|l| {
            let peak =
                l.values
                    .iter()
                    .enumerate()
                    .fold(None, |best: Option<(usize, f64)>, (i, &v)| match best {
                        Some((_, b)) if b >= v => best,
                        _ => Some((i, v)),
                    });
            match peak {
                Some((i, max)) if max > 0.0 => {
                    let at = if l.gauge { 1.0 } else { 0.5 };
                    let t = (((i as f64 + at) * bucket_ms as f64) as u64).min(end_ms);
                    let last = l.values.last().copied().unwrap_or(0.0);
                    format!(
                        "{} peaks at {} at {}, {} at the end",
                        l.label,
                        with_unit(max, unit),
                        lease_format::display::duration(t),
                        with_unit(last, unit)
                    )
                }
                _ => format!("{} none", l.label),
            }
        })
        .collect();
    format!(
        "{title} over {}: {}.",
        lease_format::display::duration(end_ms),
        each.join("; ")
    )
}

/// What the receive-count histogram shows, in words.
pub fn histogram_summary(counts: &[(u64, u64)]) -> String {
    let times = |k: u64| match k {
        1 => "once".to_string(),
        2 => "twice".to_string(),
        k => format!("{k} times"),
    };
    let each: Vec<String> = counts
        .iter()
        .filter(|(_, n)| *n > 0)
        .map(|(k, n)| {
            let who = if *n == 1 { "message" } else { "messages" };
            format!(
                "{} {who} delivered {}",
                lease_format::display::count(*n),
                times(*k)
            )
        })
        .collect();
    if each.is_empty() {
        return "Receive count per message: no message was delivered.".into();
    }
    format!("Receive count per message: {}.", each.join(", "))
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
    /// Its width in CSS pixels (`use_chart_width`).
    pub width: f64,
    /// Its frame alone: the caption and an empty plot of the same size.
    pub bare: bool,
}

pub fn line_chart(p: &LineChartProps) -> Html {
    let caption = html! {
        <figcaption>
            {p.title}
            <span class="legend">
                { for p.lines.iter().map(|l| html! { <span class={classes!("key", l.class)}>{l.label}</span> }) }
            </span>
        </figcaption>
    };
    if p.bare {
        return bare_chart(
            p.id,
            caption,
            p.width,
            line_summary(p.title, p.unit, &p.lines, p.bucket_ms, p.end_ms),
        );
    }
    let end = p.end_ms.max(1) as f64;
    let max = nice_max(
        p.lines
            .iter()
            .flat_map(|l| l.values.iter().copied())
            .fold(0.0, f64::max),
    );
    let w = p.width;
    let (y_labels, left) = y_axis(max, p.unit);
    let x = |t: f64| left + (w - left - RIGHT) * (t / end).clamp(0.0, 1.0);
    let y = |v: f64| TOP + (H - TOP - BOTTOM) * (1.0 - (v / max).clamp(0.0, 1.0));
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
                format!("{:.1},{:.1}", x(t), y(*v))
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
            let fx = (f64::from(e.client_x()) - r.left()) / r.width().max(1.0) * w;
            let t = ((fx - left) / (w - left - RIGHT)).clamp(0.0, 1.0) * end;
            cb.emit(Some(t as u64));
        })
    };
    let onmouseleave = p.on_cursor.reform(|_: MouseEvent| None);
    let cursor = p.cursor_ms.map(|t| {
        let cx = x(t as f64);
        svg_line("cursor", cx, cx, TOP, H - BOTTOM)
    });
    let head = x(p.playhead_ms as f64);
    html! {
        <figure class="chart" id={p.id}>
            { caption }
            <svg viewBox={format!(
                "0 0 {} {}",
                w,
                H,
            )} role="img" aria-label={line_summary(p.title, p.unit, &p.lines, p.bucket_ms, p.end_ms)}
                {onmousemove} {onmouseleave}>
                {y_labels}
                {svg_line("axis", left, w - RIGHT, H - BOTTOM, H - BOTTOM)}
                {svg_line("axis", left, left, TOP, H - BOTTOM)}
                { x_labels(time_labels(p.end_ms).into_iter().map(|(t, label)| (x(t as f64), label)).collect(), left, w - 2.0) }
                { for paths }
                if p.playhead_ms < p.end_ms {
                    {svg_line("playhead", head, head, TOP, H - BOTTOM)}
                }
                {cursor}
            </svg>
        </figure>
    }
}

/// Receive count per message: a bar per count. A shoulder at 2 and 3 on a
/// healthy queue means the lease is mis-sized (the clip-moderation case).
/// A chart's figure with its caption and its plot's box, the plot empty.
fn bare_chart(id: &'static str, caption: Html, w: f64, label: String) -> Html {
    html! {
        <figure class="chart" id={id}>
            { caption }
            <svg viewBox={format!("0 0 {w} {H}")} role="img" aria-label={label}></svg>
        </figure>
    }
}

fn histogram(counts: &[(u64, u64)], w: f64, bare: bool) -> Html {
    if bare {
        return bare_chart(
            "chart-receive-counts",
            html! { <figcaption>{"Receive count per message (whole run)"}</figcaption> },
            w,
            histogram_summary(counts),
        );
    }
    let max = nice_max(counts.iter().map(|c| c.1 as f64).fold(0.0, f64::max));
    let n = counts.len().max(1) as f64;
    let (y_labels, left) = y_axis(max, "msgs");
    let bw = (w - left - RIGHT) / n;
    let labels = counts
        .iter()
        .enumerate()
        .map(|(i, (k, _))| (left + (i as f64 + 0.5) * bw, k.to_string()))
        .collect();
    html! {
        <figure class="chart" id="chart-receive-counts">
            <figcaption>{"Receive count per message (whole run)"}</figcaption>
            <svg viewBox={format!(
                "0 0 {} {}",
                w,
                H,
            )} role="img" aria-label={histogram_summary(counts)}>
                {y_labels}
                {svg_line("axis", left, w - RIGHT, H - BOTTOM, H - BOTTOM)}
                { for counts.iter().enumerate().map(|(i, (k, v))| {
                    let h = (H - TOP - BOTTOM) * (*v as f64 / max);
                    let x0 = left + i as f64 * bw;
                    html! {
                        <rect class={classes!("bar", (*k >= 2).then_some("bar-repeat"))} x={(x0 + 1.0).to_string()} y={(H - BOTTOM - h).to_string()}
                            width={((bw - 2.0).max(1.0)).to_string()} height={h.to_string()}>
                            <title>{format!("{v} messages delivered {k} times")}</title>
                        </rect>
                    }
                }) }
                { x_labels(labels, left, w - 2.0) }
            </svg>
        </figure>
    }
}

/// False until the page is first idle after the charts mount, then true.
/// The charts sit below the first view (below the timeline, at 1280x720
/// as on a phone): the page's first frame carries their frames, captions
/// and names, at their size, and their plots follow once the timeline and
/// the totals are up.
#[hook]
fn use_filled_in() -> bool {
    let filled = use_state_eq(|| false);
    {
        let filled = filled.clone();
        use_effect_with((), move |_| {
            use wasm_bindgen::JsCast;
            let fill = wasm_bindgen::closure::Closure::once_into_js(move || filled.set(true));
            let f: &js_sys::Function = fill.unchecked_ref();
            let window = gloo::utils::window();
            if window.request_idle_callback(f).is_err() {
                let _ = window.set_timeout_with_callback(f);
            }
        });
    }
    *filled
}

#[derive(Properties, PartialEq)]
pub struct ChartsProps {
    pub run: RunHandle,
    pub playhead_ms: u64,
    pub cursor_ms: Option<u64>,
    pub on_cursor: Callback<Option<u64>>,
    /// The charts' width in CSS pixels (`use_chart_width`).
    pub width: f64,
}

pub fn f(v: &[u64]) -> Vec<f64> {
    v.iter().map(|&x| x as f64).collect()
}

fn minutes(v: &[u64]) -> Vec<f64> {
    v.iter().map(|&x| x as f64 / 60_000.0).collect()
}

/// The chart of messages past the delivery limit, titled and keyed by the
/// fate the broker gives them: a dead-letter queue's arrivals by cause, or
/// the messages dropped (no queue holds them), or those left in the stream
/// with an advisory (JetStream past `MaxDeliver`).
pub fn past_limit_lines(
    s: &lease_sim::report::Series,
    past: lease_sim::scenario::PastLimit,
) -> (&'static str, Vec<Line>) {
    use lease_sim::scenario::PastLimit;
    match past {
        PastLimit::DeadLetter => (
            "Dead-letter arrivals by cause",
            vec![
                Line {
                    label: "expired",
                    class: "s-bad",
                    values: f(&s.dead_letter_expired),
                    gauge: false,
                },
                Line {
                    label: "failed",
                    class: "s-failed",
                    values: f(&s.dead_letter_failed),
                    gauge: false,
                },
            ],
        ),
        PastLimit::Drop => (
            "Dropped past the delivery limit",
            vec![Line {
                label: "dropped",
                class: "s-bad",
                values: f(&s.dropped),
                gauge: false,
            }],
        ),
        PastLimit::Stay => (
            "Left in the stream past the delivery limit",
            vec![Line {
                label: "left in the stream",
                class: "s-bad",
                values: f(&s.stayed),
                gauge: false,
            }],
        ),
    }
}

#[function_component(Charts)]
pub fn charts(p: &ChartsProps) -> Html {
    let run = crate::run_handle::use_deferred_run(&p.run);
    let bare = !use_filled_in();
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
                playhead_ms: p.playhead_ms, cursor_ms: p.cursor_ms, on_cursor: p.on_cursor.clone(), width: p.width, bare }, line_chart) }
        }
    };
    // The report's keys are text ("10" before "2"): ordered by number.
    let mut keys: Vec<u64> = run
        .report
        .receive_counts
        .keys()
        .filter_map(|k| k.parse().ok())
        .collect();
    keys.sort_unstable();
    keys.dedup();
    let counts: Vec<(u64, u64)> = keys
        .into_iter()
        .map(|k| {
            (
                k,
                run.report
                    .receive_counts
                    .get(&k.to_string())
                    .copied()
                    .unwrap_or(0),
            )
        })
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
            { histogram(&counts, p.width, bare) }
            {{
                let (title, lines) = past_limit_lines(s, lease_sim::resolve::resolve(&run.scenario).past_limit);
                chart("chart-dlq", title, per_bucket, lines)
            }}
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

#[cfg(test)]
mod tests {
    use super::*;

    fn line(label: &'static str, values: &[f64], gauge: bool) -> Line {
        Line {
            label,
            class: "",
            values: values.to_vec(),
            gauge,
        }
    }

    #[test]
    fn a_charts_name_says_what_it_shows_not_its_ticks() {
        let lines = [
            line("useful", &[2.0, 12.0, 4.0], false),
            line("duplicate", &[0.0, 0.0, 0.0], false),
        ];
        assert_eq!(
            line_summary("Completions per minute", "/min", &lines, 60_000, 180_000),
            "Completions per minute over 3 min: useful peaks at 12/min at 90 s, 4/min at the end; duplicate none."
        );
        let depth = [line("queue depth", &[3.0, 1.0], true)];
        assert_eq!(
            line_summary("Queue depth", "msgs", &depth, 10_000, 20_000),
            "Queue depth over 20 s: queue depth peaks at 3 messages at 10 s, 1 message at the end."
        );
    }

    #[test]
    fn the_past_limit_chart_keys_dropped_and_left_in_the_stream_messages_in_their_own_words() {
        use lease_sim::report::Series;
        use lease_sim::scenario::PastLimit;
        let s = Series {
            bucket_ms: 60_000,
            dead_letter_expired: vec![0, 2],
            dead_letter_failed: vec![1, 0],
            dropped: vec![3, 0],
            stayed: vec![0, 5],
            ..Series::default()
        };
        let (title, lines) = past_limit_lines(&s, PastLimit::Drop);
        assert_eq!(title, "Dropped past the delivery limit");
        assert_eq!(lines.len(), 1);
        assert_eq!(
            (lines[0].label, lines[0].values.clone()),
            ("dropped", vec![3.0, 0.0])
        );
        let (title, lines) = past_limit_lines(&s, PastLimit::Stay);
        assert_eq!(title, "Left in the stream past the delivery limit");
        assert_eq!(
            (lines[0].label, lines[0].values.clone()),
            ("left in the stream", vec![0.0, 5.0])
        );
        assert_eq!(
            line_summary(title, "per min", &lines, 60_000, 120_000),
            "Left in the stream past the delivery limit over 2 min: left in the stream peaks at 5 per min at 90 s, 5 per min at the end."
        );
        let (title, lines) = past_limit_lines(&s, PastLimit::DeadLetter);
        assert_eq!(title, "Dead-letter arrivals by cause");
        let keys: Vec<&str> = lines.iter().map(|l| l.label).collect();
        assert_eq!(keys, ["expired", "failed"]);
    }

    #[test]
    fn the_histograms_name_counts_the_messages_by_deliveries() {
        assert_eq!(
            histogram_summary(&[(1, 1_200), (2, 3), (3, 1)]),
            "Receive count per message: 1,200 messages delivered once, 3 messages delivered twice, 1 message delivered 3 times."
        );
        assert_eq!(
            histogram_summary(&[]),
            "Receive count per message: no message was delivered."
        );
    }
}
