//! Pixel -> delivery, with a tolerance so that a one-pixel run can be hovered.

use lease_sim::run::{DeliveryIx, Run};

use crate::index::RunIndex;
use crate::lanes::{bar_of, MessageRows, WorkerLanes};
use crate::scale::TimeScale;

/// The delivery drawn under `(x, y)` in the Workers view, ignoring anything
/// after `upto_ms` (not yet played). Within `tol_px` of a bar counts; a bar
/// under the pointer beats a lease band under it (a prefetched lease runs
/// under the previous run's tail), then the nearer, then the later one
/// (drawn on top).
#[allow(clippy::too_many_arguments)]
pub fn hit_worker_view(
    run: &Run,
    index: &RunIndex,
    lanes: &WorkerLanes,
    scale: &TimeScale,
    x: f64,
    y: f64,
    tol_px: f64,
    upto_ms: u64,
) -> Option<DeliveryIx> {
    let row = lanes.row_at(y)?;
    let t = scale.ms_of(x);
    let tol = tol_px * scale.ms_per_px();
    let t0 = (t - tol).max(0.0) as u64;
    let t1 = ((t + tol).max(0.0) as u64).min(upto_ms);
    let mut best: Option<((bool, f64), DeliveryIx)> = None;
    for ix in index.visible(row, t0, t1) {
        let d = &run.deliveries[ix as usize];
        if d.received_at > upto_ms {
            continue;
        }
        let bar = bar_of(d, run.end_ms);
        let bar_end = bar.end.min(upto_ms) as f64;
        let extent_end = bar.end.max(d.lease_ended_at).min(upto_ms) as f64;
        let off_bar = !(bar.start as f64 <= t && t <= bar_end);
        let dist = distance(t, d.received_at as f64, extent_end);
        let key = (off_bar, dist);
        if best.is_none_or(|(k, _)| key <= k) {
            best = Some((key, ix));
        }
    }
    best.and_then(|((_, dist), ix)| (dist <= tol).then_some(ix))
}

/// The message row under `(x, y)` in the Messages view, and the delivery
/// whose lease covers the pointer's time if any.
pub fn hit_message_view(
    run: &Run,
    rows: &MessageRows,
    scale: &TimeScale,
    x: f64,
    y: f64,
    upto_ms: u64,
) -> Option<(u32, Option<DeliveryIx>)> {
    let m = rows.row_at(y)?;
    let msg = run.messages.get(m as usize)?;
    if msg.arrived_at > upto_ms {
        return None;
    }
    let t = scale.ms_of(x);
    let d = msg.deliveries.iter().copied().find(|ix| {
        run.deliveries
            .get(*ix as usize)
            .is_some_and(|d| d.received_at as f64 <= t && t <= d.lease_ended_at.min(upto_ms) as f64)
    });
    Some((m, d))
}

fn distance(t: f64, a: f64, b: f64) -> f64 {
    if t < a {
        a - t
    } else if t > b {
        t - b
    } else {
        0.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixture;

    fn setup() -> (Run, RunIndex, WorkerLanes, TimeScale) {
        let run = fixture::ninety_second_message();
        let index = RunIndex::new(&run);
        // 2 lanes of one 22 px row: worker 0 rows 24..46, worker 1 60..82.
        let lanes = WorkerLanes::new(2, 1, 24.0, 300.0);
        let scale = TimeScale::fit(150_000.0, 1500.0);
        (run, index, lanes, scale)
    }

    #[test]
    fn a_pointer_on_the_second_run_finds_it() {
        let (run, index, lanes, scale) = setup();
        assert_eq!(
            lanes.row_span(crate::Row::Slot { worker: 1, slot: 0 }),
            (60.0, 22.0)
        );
        // x = 700 px is 70 s: worker 1's run (60 s..150 s).
        assert_eq!(
            hit_worker_view(&run, &index, &lanes, &scale, 700.0, 70.0, 4.0, u64::MAX),
            Some(1)
        );
        assert_eq!(
            hit_worker_view(&run, &index, &lanes, &scale, 700.0, 30.0, 4.0, u64::MAX),
            Some(0)
        );
    }

    #[test]
    fn the_tolerance_reaches_just_past_the_end_of_a_run() {
        let (run, index, lanes, scale) = setup();
        // Worker 0's run ends at 90 s = 900 px; 1 px = 100 ms.
        let at = |x| hit_worker_view(&run, &index, &lanes, &scale, x, 30.0, 4.0, u64::MAX);
        assert_eq!(at(903.9), Some(0));
        assert_eq!(at(904.1), None);
    }

    #[test]
    fn a_run_not_yet_played_cannot_be_hovered() {
        let (run, index, lanes, scale) = setup();
        // At playhead 50 s, worker 1 has not received the message yet.
        assert_eq!(
            hit_worker_view(&run, &index, &lanes, &scale, 700.0, 70.0, 4.0, 50_000),
            None
        );
        // Worker 0's run is drawn only up to the playhead.
        assert_eq!(
            hit_worker_view(&run, &index, &lanes, &scale, 600.0, 30.0, 4.0, 50_000),
            None
        );
        assert_eq!(
            hit_worker_view(&run, &index, &lanes, &scale, 499.0, 30.0, 4.0, 50_000),
            Some(0)
        );
    }

    #[test]
    fn the_gap_between_lanes_hits_nothing() {
        let (run, index, lanes, scale) = setup();
        assert_eq!(
            hit_worker_view(&run, &index, &lanes, &scale, 700.0, 55.0, 4.0, u64::MAX),
            None
        );
    }

    #[test]
    fn a_message_row_names_the_lease_under_the_pointer() {
        let run = fixture::ninety_second_message();
        let rows = MessageRows::new(1, 20.0, 200.0);
        let scale = TimeScale::fit(150_000.0, 1500.0);
        assert_eq!(
            hit_message_view(&run, &rows, &scale, 300.0, 25.0, u64::MAX),
            Some((0, Some(0)))
        );
        assert_eq!(
            hit_message_view(&run, &rows, &scale, 1000.0, 25.0, u64::MAX),
            Some((0, Some(1)))
        );
        assert_eq!(
            hit_message_view(&run, &rows, &scale, 1000.0, 60.0, u64::MAX),
            None
        );
    }
}
