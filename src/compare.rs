//! Compare: two configurations on the same arrivals and the same work (the
//! same seed draws the same messages and the same work, whatever else
//! differs), side B's timeline on A's time axis, the charts overlaid, and
//! the totals that differ highlighted.
use lease_sim::Run;
use yew::prelude::*;

use crate::charts::{f, line_chart, Line, LineChartProps};
use crate::command::Command;
use crate::memo::memo;
use crate::run_handle::RunHandle;
use crate::timeline::Timeline;

/// What the comparison shows. A plain function's arguments, not a
/// component's props: the comparison renders with the page.
pub struct CompareProps<'a> {
    pub a: &'a RunHandle,
    pub b: &'a RunHandle,
    /// B's newer setting is being computed in the background; `b` is its
    /// last run.
    pub b_pending: Option<&'a crate::state::PendingRun>,
    /// The visitor cancelled B's last background run: B shows an older run.
    pub b_cancelled: bool,
    /// The controls edit side B.
    pub edit_b: bool,
    pub range: Option<(f64, f64)>,
    pub playhead_ms: u64,
    pub cursor_ms: Option<u64>,
    pub on_command: &'a Callback<Command>,
    /// The charts' width in CSS pixels (`charts::use_chart_width`).
    pub chart_width: f64,
    /// A figure in someone else's page: B's canvas is this tall, and the
    /// totals and charts of A and B are behind one disclosure, so that the
    /// comparison is as tall as the host reserved for it
    /// (`lease_ui::embed::figure_compare_px`).
    pub fixed_px: Option<f64>,
}

/// A row of the totals table: its name, how to read it from a run, and
/// whether more is better (for the colour of a difference).
struct Row {
    id: &'static str,
    label: &'static str,
    value: fn(&Run) -> f64,
    more_is_better: bool,
}

const ROWS: [Row; 11] = [
    Row {
        id: "acked",
        label: "Acked",
        value: |r| r.report.totals.acks_ok as f64,
        more_is_better: true,
    },
    Row {
        id: "deliveries",
        label: "Deliveries",
        value: |r| r.report.totals.deliveries as f64,
        more_is_better: false,
    },
    Row {
        id: "redeliveries",
        label: "Redeliveries",
        value: |r| r.report.totals.redeliveries as f64,
        more_is_better: false,
    },
    Row {
        id: "overlapping",
        label: "Overlapping runs",
        value: |r| r.report.totals.overlapping_runs as f64,
        more_is_better: false,
    },
    Row {
        id: "duplicates",
        label: "Duplicate effects",
        value: |r| r.report.totals.duplicate_effects as f64,
        more_is_better: false,
    },
    Row {
        id: "acks-rejected",
        label: "Acks rejected",
        value: |r| r.report.totals.acks_rejected as f64,
        more_is_better: false,
    },
    Row {
        // An ack of a message another run's ack already deleted, answered as
        // a success that settles nothing (`deleted_ack: no_op`): the mark of
        // a duplicate run, as the totals and the report count it.
        id: "acks-no-op",
        label: "Acks with nothing to settle",
        value: |r| r.report.totals.acks_no_op as f64,
        more_is_better: false,
    },
    Row {
        id: "dlq-expired",
        label: "Dead-lettered (expired)",
        value: |r| r.report.totals.dead_lettered_expired as f64,
        more_is_better: false,
    },
    Row {
        id: "dlq-failed",
        label: "Dead-lettered (failed)",
        value: |r| r.report.totals.dead_lettered_failed as f64,
        more_is_better: false,
    },
    Row {
        id: "wasted",
        label: "Wasted work (s)",
        value: |r| (r.report.totals.wasted_work_ms as f64 / 1000.0).round(),
        more_is_better: false,
    },
    Row {
        id: "ack-p99",
        label: "Ack p99, % of its lease",
        value: |r| {
            r.report
                .ack_latency_ms
                .p99_of_lease
                .map_or(f64::NAN, |x| (x * 100.0).round())
        },
        more_is_better: false,
    },
];

fn show(v: f64) -> String {
    if v.is_nan() {
        "–".into()
    } else if v.fract() == 0.0 {
        format!("{v:.0}")
    } else {
        format!("{v:.2}")
    }
}

pub fn compare(p: &CompareProps) -> Html {
    let cb = p.on_command.clone();
    let rows = ROWS.iter().map(|r| {
        let (a, b) = ((r.value)(p.a), (r.value)(p.b));
        let differs = !(a.is_nan() && b.is_nan()) && (a - b).abs() > 1e-9;
        let better = if r.more_is_better { b > a } else { b < a };
        let class = classes!(
            differs.then_some("differs"),
            (differs && better).then_some("b-better"),
            (differs && !better).then_some("b-worse"),
        );
        let delta = if differs && !a.is_nan() && !b.is_nan() {
            let d = b - a;
            format!("{}{}", if d > 0.0 { "+" } else { "" }, show(d))
        } else {
            String::new()
        };
        html! {
            <tr {class} id={format!("compare-{}", r.id)}>
                <th scope="row">{r.label}</th><td>{show(a)}</td><td>{show(b)}</td><td>{delta}</td>
            </tr>
        }
    });
    let end = p.a.end_ms.max(p.b.end_ms);
    let sa = &p.a.report.series;
    let chart = |id: &'static str, title: &'static str, unit: &'static str, lines: Vec<Line>| {
        html! {
            { memo(LineChartProps { id, title, unit, lines, bucket_ms: sa.bucket_ms, end_ms: end,
                playhead_ms: p.playhead_ms, cursor_ms: p.cursor_ms, on_cursor: p.on_command.reform(Command::Cursor), width: p.chart_width, bare: false }, line_chart) }
        }
    };
    let head = html! {
        <div class="panel-head">
            <h2 id="compare-title">{"Compare A (above) with B (below): same seed, same arrivals, same work"}</h2>
            <button type="button" class="panel-close" onclick={cb.reform(|_: MouseEvent| Command::CompareStop)}>{"Stop comparing"}</button>
        </div>
    };
    let b_timeline = html! {
        <Timeline dom_id="timeline-b" axis_end_ms={end} run={p.b.clone()} playhead_ms={p.playhead_ms} cursor_ms={p.cursor_ms}
            on_cursor={p.on_command.reform(Command::Cursor)}
            range_ms={p.range} on_range={p.on_command.reform(Command::Range)} fixed_px={p.fixed_px} />
    };
    if p.fixed_px.is_some() {
        // In a figure: one disclosure, then B's timeline under A's.
        return html! {
            <section class="compare figure-compare" id="compare" aria-label="Compare A (above) with B (below)">
                <details class="figure-part" id="figure-compare">
                    <summary>{"B below: totals and charts of A and B"}</summary>
                    { head }
                    { body(p, rows.collect(), chart) }
                </details>
                { b_timeline }
            </section>
        };
    }
    html! {
        <section class="compare" id="compare" aria-labelledby="compare-title">
            { head }
            { body(p, rows.collect(), chart) }
            <h3 class="compare-b-title">{"B's timeline, on A's time axis"}</h3>
            { b_timeline }
        </section>
    }
}

/// Which side the controls edit, B's run under way, the totals of A and B
/// and their charts.
fn body(
    p: &CompareProps,
    rows: Vec<Html>,
    chart: impl Fn(&'static str, &'static str, &'static str, Vec<Line>) -> Html,
) -> Html {
    let cb = p.on_command.clone();
    let side = |b: bool, text: &'static str, id: &'static str| {
        let pressed = (p.edit_b == b).to_string();
        html! { <button type="button" {id} aria-pressed={pressed} onclick={cb.reform(move |_: MouseEvent| Command::CompareEdit(b))}>{text}</button> }
    };
    let (sa, sb) = (&p.a.report.series, &p.b.report.series);
    html! {
        <>
            <div class="panel-row" role="group" aria-label="Which side the controls edit">
                <span>{"The controls edit:"}</span>
                {side(false, "A", "compare-edit-a")}
                {side(true, "B", "compare-edit-b")}
                <button type="button" id="compare-copy" onclick={cb.reform(|_: MouseEvent| Command::CompareCopy)}>{"Copy A into B"}</button>
            </div>
            if let Some(pending) = &p.b_pending {
                { crate::run_status::pending_status(pending, p.on_command, true) }
            } else if p.b_cancelled {
                <p class="notices" role="status" id="compare-b-cancelled">
                    {"Side B's larger run was cancelled: B below is its last run, not the setting its controls show. Move a control of B to run it again."}
                </p>
            }
            <table class="compare-table">
                <thead><tr><th scope="col">{"Total"}</th><th scope="col">{"A"}</th><th scope="col">{"B"}</th><th scope="col">{"B − A"}</th></tr></thead>
                <tbody>{ for rows }</tbody>
            </table>
            <div class="charts">
                {chart("compare-completions", "Completions per minute, A and B", "/min", vec![
                    Line { label: "A", class: "s-depth", values: sa.completions_per_min.clone(), gauge: false },
                    Line { label: "B", class: "s-flight", values: sb.completions_per_min.clone(), gauge: false },
                ])}
                {chart("compare-depth", "Queue depth, A and B", "msgs", vec![
                    Line { label: "A", class: "s-depth", values: f(&sa.queue_depth), gauge: true },
                    Line { label: "B", class: "s-flight", values: f(&sb.queue_depth), gauge: true },
                ])}
                {chart("compare-redeliveries", "Redeliveries, A and B", "per bucket", vec![
                    Line { label: "A", class: "s-depth", values: f(&sa.redeliveries), gauge: false },
                    Line { label: "B", class: "s-flight", values: f(&sb.redeliveries), gauge: false },
                ])}
            </div>
        </>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two workers under JetStream: with `paused`, worker 0 pauses while it
    /// holds the first delivery, worker 1 runs the redelivery, worker 0's
    /// late ack deletes the message and worker 1's ack finds nothing to
    /// settle; without, the one delivery is acked in time.
    fn ack_with_nothing_to_settle(paused: bool) -> Run {
        let faults = if paused {
            serde_json::json!([{"kind": "pause", "worker": 0, "at_ms": 100, "duration_ms": 500}])
        } else {
            serde_json::json!([])
        };
        let text = serde_json::json!({
            "name": "ack-with-nothing-to-settle",
            "seed": 1,
            "duration_ms": 5000,
            "broker": {"preset": "nats_jetstream", "visibility_timeout_ms": 1000},
            "workers": {"count": 2, "concurrency": 1, "heartbeat": null},
            "work": {"dist": "constant", "ms": 800},
            "arrivals": {"process": "fixed", "rate_per_s": 0.0, "backlog": 1},
            "faults": faults
        })
        .to_string();
        let s = lease_sim::parse::parse_scenario_without_path(&text).unwrap();
        lease_sim::simulate(&s, &lease_sim::Options::default()).unwrap()
    }

    #[test]
    fn the_compare_table_has_a_row_for_acks_with_nothing_to_settle() {
        let row = ROWS
            .iter()
            .find(|r| r.id == "acks-no-op")
            .expect("a row for acks with nothing to settle");
        assert_eq!(row.label, "Acks with nothing to settle");
        let (a, b) = (
            ack_with_nothing_to_settle(true),
            ack_with_nothing_to_settle(false),
        );
        assert_eq!(a.report.totals.acks_no_op, 1);
        assert_eq!(b.report.totals.acks_no_op, 0);
        assert_eq!(((row.value)(&a), (row.value)(&b)), (1.0, 0.0));
        assert!(
            !row.more_is_better,
            "fewer acks that settle nothing is better"
        );
        let ids: Vec<_> = ROWS.iter().map(|r| r.id).collect();
        let mut unique = ids.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), ids.len(), "row ids are the rows' element ids");
    }
}
