//! Figures the stories quote, measured from a run over a window of time.
//! Each is defined in docs/MODEL.md ("Figures measured over a window"), so a
//! test, the command line and a teacher mean the same thing by "the drain in
//! the surge" or "repeat work".

use std::ops::Range;

use crate::run::{Effect, LeaseEnd, Run};

/// Accepted acks per minute between `window.start` and `window.end`
/// (milliseconds): the drain rate.
pub fn drain_per_min(run: &Run, window: Range<u64>) -> f64 {
    let minutes = window.end.saturating_sub(window.start) as f64 / 60_000.0;
    if minutes <= 0.0 {
        return 0.0;
    }
    let acks = run
        .deliveries
        .iter()
        .filter(|d| {
            matches!(d.lease_end, LeaseEnd::Acked | LeaseEnd::AckedLate)
                && window.contains(&d.lease_ended_at)
        })
        .count();
    acks as f64 / minutes
}

/// The drain rate in `during` over the drain rate in `before`; `None` when
/// nothing drained before.
pub fn drain_ratio(run: &Run, before: Range<u64>, during: Range<u64>) -> Option<f64> {
    let b = drain_per_min(run, before);
    (b > 0.0).then(|| drain_per_min(run, during) / b)
}

/// Of the commits that landed in `window`, the share that were repeat work:
/// a duplicate effect (lost updates included) of a message that already had
/// one. `None` when nothing committed.
pub fn repeat_work_share(run: &Run, window: Range<u64>) -> Option<f64> {
    let (mut all, mut repeat) = (0u64, 0u64);
    for d in &run.deliveries {
        if !d.committed_at.is_some_and(|t| window.contains(&t)) {
            continue;
        }
        match d.effect {
            Effect::Applied => all += 1,
            Effect::Duplicate | Effect::LostUpdate => {
                all += 1;
                repeat += 1;
            }
            Effect::FenceRejected | Effect::NoCommit => {}
        }
    }
    (all > 0).then(|| repeat as f64 / all as f64)
}

/// How many times the messages arriving in `window` were delivered: index
/// `k` counts the messages delivered `k` times (index 0: never), the last
/// index everything delivered that often or more.
pub fn receive_counts_of_arrivals(run: &Run, window: Range<u64>, top: usize) -> Vec<u64> {
    let mut counts = vec![0u64; top + 1];
    for m in &run.messages {
        if window.contains(&m.arrived_at) {
            counts[(m.receive_count as usize).min(top)] += 1;
        }
    }
    counts
}

/// The largest number of messages in flight at the end of any bucket in
/// which the queue was empty and no ack was accepted: the invisible backlog,
/// `0` when there was none.
pub fn invisible_backlog(run: &Run) -> u64 {
    let s = &run.report.series;
    (0..s.in_flight.len())
        .filter(|&i| s.queue_depth[i] == 0 && s.acks[i] == 0)
        .map(|i| s.in_flight[i])
        .max()
        .unwrap_or(0)
}

/// The longest stretch inside `window` with no accepted ack (milliseconds):
/// how long the drain stopped. The window's own edges bound the stretch.
pub fn longest_drain_stop(run: &Run, window: Range<u64>) -> u64 {
    let mut acks: Vec<u64> = run
        .deliveries
        .iter()
        .filter(|d| matches!(d.lease_end, LeaseEnd::Acked | LeaseEnd::AckedLate))
        .map(|d| d.lease_ended_at)
        .filter(|t| window.contains(t))
        .collect();
    acks.sort_unstable();
    let mut last = window.start;
    let mut longest = 0;
    for t in acks.into_iter().chain(std::iter::once(window.end)) {
        longest = longest.max(t - last);
        last = t;
    }
    longest
}

/// The median time from start to end of the handler runs that started in
/// `window` and ended (ms, the upper median); `None` when none did.
pub fn median_run_ms(run: &Run, window: Range<u64>) -> Option<u64> {
    let mut runs: Vec<u64> = run
        .deliveries
        .iter()
        .filter_map(|d| match (d.started_at, d.ended_at) {
            (Some(s), Some(e)) if window.contains(&s) => Some(e - s),
            _ => None,
        })
        .collect();
    runs.sort_unstable();
    runs.get(runs.len() / 2).copied()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{parse_scenario, simulate, Options};

    fn run(json: &str) -> Run {
        simulate(
            &parse_scenario(json).expect("scenario"),
            &Options::default(),
        )
        .expect("run")
    }

    /// One worker, a message a second taking 100 ms: an ack every second.
    fn steady(faults: &str) -> Run {
        run(&format!(
            r#"{{"duration_ms": 120000, "workers": {{"count": 1}},
                "work": {{"dist": "constant", "ms": 100}},
                "arrivals": {{"rate_per_s": 1.0, "process": "fixed"}},
                "faults": [{faults}]}}"#
        ))
    }

    /// A 90 s message against a 60 s lease, two workers taking turns.
    fn ninety_seconds() -> Run {
        run(r#"{"duration_ms": 200000, "workers": {"count": 2},
                "broker": {"visibility_timeout_ms": 60000},
                "work": {"dist": "constant", "ms": 90000},
                "arrivals": {"backlog": 1, "rate_per_s": 0.0}}"#)
    }

    #[test]
    fn drain_per_min_counts_accepted_acks_per_minute_of_the_window() {
        let r = steady("");
        assert_eq!(drain_per_min(&r, 0..60_000), 59.0);
        assert_eq!(drain_per_min(&r, 60_000..120_000), 60.0);
        assert_eq!(drain_per_min(&r, 60_000..90_000), 60.0);
        let ratio = drain_ratio(&r, 60_000..90_000, 90_000..120_000);
        assert_eq!(ratio, Some(1.0));
        assert_eq!(drain_ratio(&r, 0..0, 0..60_000), None);
    }

    #[test]
    fn repeat_work_share_is_duplicate_commits_over_all_commits_in_the_window() {
        let r = ninety_seconds();
        // Commits at 90 s (the first effect) and 150 s (a duplicate).
        assert_eq!(repeat_work_share(&r, 0..100_000), Some(0.0));
        assert_eq!(repeat_work_share(&r, 0..160_000), Some(0.5));
        assert_eq!(repeat_work_share(&r, 100_000..160_000), Some(1.0));
        assert_eq!(repeat_work_share(&r, 0..60_000), None);
    }

    #[test]
    fn receive_counts_of_arrivals_count_messages_by_deliveries_capped_at_top() {
        let r = ninety_seconds();
        // Delivered at 0, 60, 120 and 180 s.
        assert_eq!(receive_counts_of_arrivals(&r, 0..1, 3), vec![0, 0, 0, 1]);
        assert_eq!(
            receive_counts_of_arrivals(&r, 0..1, 5),
            vec![0, 0, 0, 0, 1, 0]
        );
        assert_eq!(receive_counts_of_arrivals(&r, 1..2, 3), vec![0; 4]);
    }

    #[test]
    fn median_run_ms_is_the_median_duration_of_runs_started_in_the_window() {
        assert_eq!(median_run_ms(&steady(""), 0..120_000), Some(100));
        // Runs of 90 s start at 0, 60, 120 and 180 s; the last is cut off.
        let r = ninety_seconds();
        assert_eq!(median_run_ms(&r, 0..130_000), Some(90_000));
        assert_eq!(median_run_ms(&r, 170_000..200_000), None);
    }

    #[test]
    fn invisible_backlog_is_zero_while_acks_flow() {
        assert_eq!(invisible_backlog(&steady("")), 0);
    }

    #[test]
    fn longest_drain_stop_is_the_longest_gap_between_accepted_acks() {
        let r =
            steady(r#"{"kind": "crash", "worker": 0, "at_ms": 10500, "restart_after_ms": 20000}"#);
        let stop = longest_drain_stop(&r, 0..120_000);
        assert!((20_000..21_000).contains(&stop), "{stop}");
        // One ack at 60.1 s: 100 ms before it, 900 ms after it.
        assert_eq!(longest_drain_stop(&steady(""), 60_000..61_000), 900);
        assert_eq!(longest_drain_stop(&r, 12_000..20_000), 8_000);
    }
}
