//! What the page says about the run itself, above the picture: a large run
//! under way in the background (progress, time left, cancel; side B's in the
//! compare panel), a cancelled one, and a finished run that the page keeps
//! summarised (what was dropped, what still covers the whole run).
use lease_format::display;
use lease_view::clock;
use yew::prelude::*;

use crate::command::{Command, RunProgress};
use crate::run_handle::RunHandle;
use crate::state::PendingRun;

/// How much of the run is done, 0 to 1: the further of simulated time and
/// settled messages. A run ends at its length or once every message is
/// settled, whichever comes first (a backlog run often ends early), so
/// either can be the one that tells.
pub fn fraction_done(p: &RunProgress, messages: u64) -> f64 {
    let time = if p.end_ms == 0 {
        0.0
    } else {
        p.now_ms as f64 / p.end_ms as f64
    };
    let settled = if messages == 0 {
        0.0
    } else {
        p.settled as f64 / messages as f64
    };
    time.max(settled).clamp(0.0, 1.0)
}

/// Seconds left, from the share done in the elapsed wall time. `None` until
/// there is enough to go on.
pub fn seconds_left(done: f64, elapsed_ms: f64) -> Option<f64> {
    if done <= 0.0 || elapsed_ms <= 0.0 {
        return None;
    }
    Some(elapsed_ms * (1.0 - done.min(1.0)) / done / 1000.0)
}

/// The time left, as every duration on the page reads: to the second, then
/// in the unit `display::duration_about` picks (`about 45 s left`, `about
/// 2.5 min left`).
pub fn time_left(seconds: Option<f64>) -> String {
    match seconds {
        Some(s) if s < 1.0 => "under a second left".to_string(),
        Some(s) => format!(
            "about {} left",
            display::duration_about((s.round() * 1000.0).max(1000.0))
        ),
        None => "estimating the time left".to_string(),
    }
}

/// A plain function rather than a component: these notices are cheap to
/// render with the page. `side_b`: side B of a comparison, shown in the
/// compare panel.
pub fn pending_status(pending: &PendingRun, on_command: &Callback<Command>, side_b: bool) -> Html {
    let cancel = on_command.reform(move |_: MouseEvent| {
        if side_b {
            Command::CancelRunB
        } else {
            Command::CancelRun
        }
    });
    let messages = display::count(pending.messages);
    let (id, detail_id, cancel_id, head, note) = if side_b {
        (
            "compare-b-pending",
            "compare-b-progress-detail",
            "compare-b-cancel",
            format!("Side B's new setting is a larger run (up to {messages} messages), computed in the background. "),
            "B below is its last run until then. ",
        )
    } else {
        (
            "run-progress",
            "run-progress-detail",
            "run-cancel",
            format!("Computing a large run in the background (up to {messages} messages). "),
            "The controls stay live: moving one starts over with the new setting. ",
        )
    };
    let (fraction, detail) = match &pending.progress {
        Some(g) => {
            let fraction = fraction_done(g, pending.messages);
            let left = time_left(seconds_left(fraction, g.elapsed_ms));
            (
                fraction,
                format!(
                    "{} of {} simulated, {} messages settled, {} events so far, {left}.",
                    clock(g.now_ms),
                    clock(g.end_ms),
                    display::count(g.settled),
                    display::count(g.events)
                ),
            )
        }
        None => (0.0, "Starting the background worker.".to_string()),
    };
    html! {
        <div class="run-status" role="status" id={id} aria-live="polite">
            <strong>{ head }</strong>
            <span>{ note }</span>
            <progress max="1" value={format!("{fraction:.3}")} aria-label={if side_b { "Side B's run progress" } else { "Run progress" }} />
            <span class="run-status-detail" id={detail_id}>{ detail }</span>
            <button type="button" id={cancel_id} onclick={cancel}>{"Cancel"}</button>
        </div>
    }
}

/// The notice of a summarised run, or nothing.
pub fn summarised_notice(run: &RunHandle) -> Html {
    let Some(s) = &run.summarised else {
        return html! {};
    };
    let f = run.footprint();
    let kept_deliveries = run.deliveries.len() as u64;
    let kept_events = run.events.len() as u64;
    html! {
        <div class="notices run-summarised" role="status" id="run-summarised">
            <strong>{ "This run is summarised. " }</strong>
            { format!(
                "It has {} messages, {} deliveries and {} events. The timeline and the event log keep the first {} deliveries and {} events, up to {} of {}; ",
                display::count(s.messages_total),
                display::count(s.deliveries_total),
                display::count(s.events_total),
                display::count(kept_deliveries),
                display::count(kept_events),
                clock(s.kept_until_ms),
                clock(run.end_ms),
            ) }
            { "the totals, the charts and every message's outcome cover the whole run. " }
            <span class="run-footprint" id="run-footprint">{ format!(
                "Kept in the page: {} ({:.1} bytes per event, {:.0} per message of the whole run).",
                mebibytes(f.total() as u64),
                f.bytes_per_event(),
                f.bytes_per_message(),
            ) }</span>
        </div>
    }
}

fn mebibytes(bytes: u64) -> String {
    format!("{:.1} MB", bytes as f64 / 1_048_576.0)
}

/// `showing`: whether an earlier run is still shown.
pub fn cancelled_notice(showing: bool) -> Html {
    html! {
        <div class="notices" role="status" id="run-cancelled">
            <strong>{ "Run cancelled. " }</strong>
            { if showing {
                "The picture below is the last run that finished; move a control to run again."
            } else {
                "Move a control to run again, or make the run smaller first."
            } }
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(now_ms: u64, settled: u64) -> RunProgress {
        RunProgress {
            now_ms,
            end_ms: 100,
            events: 0,
            settled,
            elapsed_ms: 1000.0,
        }
    }

    #[test]
    fn progress_is_the_further_of_time_and_settled_messages() {
        // A backlog draining fast: a tenth of the time, half the messages.
        assert_eq!(fraction_done(&at(10, 500), 1000), 0.5);
        // Arrivals over time: the clock leads.
        assert_eq!(fraction_done(&at(40, 100), 1000), 0.4);
        assert_eq!(fraction_done(&at(0, 0), 0), 0.0);
        assert_eq!(fraction_done(&at(100, 2000), 1000), 1.0);
    }

    #[test]
    fn time_left_scales_the_elapsed_time_by_what_remains() {
        assert_eq!(seconds_left(0.0, 50.0), None);
        assert_eq!(seconds_left(0.25, 1000.0), Some(3.0));
        assert_eq!(seconds_left(1.0, 1000.0), Some(0.0));
    }
}
