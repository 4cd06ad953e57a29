//! Moving the keyboard's focus from run to run: a reader who cannot see the
//! canvas walks it lane by lane. A lane is a worker (its slots and its
//! buffer together); along a lane runs go in receive order, and between
//! lanes the focus lands on the run received nearest in time. Only runs
//! received by the playhead count: the others are not drawn yet.

use lease_sim::run::{DeliveryIx, Run};

use crate::index::RunIndex;

/// One key's move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// The next run on the same lane.
    Next,
    /// The previous run on the same lane.
    Previous,
    /// The nearest run in time on the nearest lane above with a run.
    Up,
    /// The nearest run in time on the nearest lane below with a run.
    Down,
    /// The run's first run.
    First,
    /// The run's last run.
    Last,
}

/// Where the focus goes from run `from` by `step`, among the runs received
/// by `upto`; `None` when there is no run that way (the focus stays).
pub fn step(
    run: &Run,
    index: &RunIndex,
    from: DeliveryIx,
    step: Step,
    upto: u64,
) -> Option<DeliveryIx> {
    let d = run.deliveries.get(from as usize)?;
    pick(
        run,
        index,
        step,
        d.worker as i64,
        (d.received_at, from),
        upto,
    )
}

/// The run on the top-most lane with a run received by `upto`, nearest to
/// `t`: where the focus starts when a reader first presses an arrow.
pub fn start(run: &Run, index: &RunIndex, t: u64, upto: u64) -> Option<DeliveryIx> {
    // Down from a lane above the first.
    pick(run, index, Step::Down, -1, (t, 0), upto)
}

/// One pass over the lanes a step looks at, keeping the run with the least
/// score. A lane's rows are in receive order, so each stops at `upto`; a
/// key press reads at most the run's deliveries once.
fn pick(
    run: &Run,
    index: &RunIndex,
    step: Step,
    worker: i64,
    (t, from): (u64, DeliveryIx),
    upto: u64,
) -> Option<DeliveryIx> {
    let mut best: Option<([u64; 4], DeliveryIx)> = None;
    for lane in 0..index.workers {
        let apart = lane as i64 - worker;
        let gap = match step {
            Step::Next | Step::Previous if apart == 0 => 0,
            Step::Up if apart < 0 => -apart,
            Step::Down if apart > 0 => apart,
            Step::First | Step::Last => 0,
            _ => continue,
        } as u64;
        for items in index.lane_rows(lane) {
            for &ix in items {
                let Some(r) = run.deliveries.get(ix as usize).map(|d| d.received_at) else {
                    continue;
                };
                if r > upto {
                    break;
                }
                let (after, before) = ((r, ix) > (t, from), (r, ix) < (t, from));
                let (i, back) = (ix as u64, u64::MAX);
                let score = match step {
                    Step::Next if after => [0, r, i, 0],
                    Step::Previous if before => [0, back - r, back - i, 0],
                    Step::Up | Step::Down => [gap, r.abs_diff(t), r, i],
                    Step::First => [0, r, i, 0],
                    Step::Last => [0, back - r, back - i, 0],
                    _ => continue,
                };
                if best.is_none_or(|(b, _)| score < b) {
                    best = Some((score, ix));
                }
            }
        }
    }
    best.map(|(_, ix)| ix)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixture;
    use lease_sim::run::Fate;

    #[test]
    fn right_from_the_first_run_of_the_ninety_second_message_stays_on_its_lane() {
        let run = fixture::ninety_second_message();
        let ix = RunIndex::new(&run);
        let all = u64::MAX;
        // Delivery 0 on worker 0, delivery 1 on worker 1 at 60 s.
        assert_eq!(step(&run, &ix, 0, Step::Next, all), None);
        assert_eq!(step(&run, &ix, 0, Step::Down, all), Some(1));
        assert_eq!(step(&run, &ix, 1, Step::Up, all), Some(0));
        assert_eq!(step(&run, &ix, 1, Step::Down, all), None);
        assert_eq!(step(&run, &ix, 1, Step::First, all), Some(0));
    }

    #[test]
    fn left_and_right_walk_a_lane_in_receive_order() {
        let run = fixture::many_short_runs_and_one_hung(10);
        let ix = RunIndex::new(&run);
        let all = u64::MAX;
        assert_eq!(step(&run, &ix, 0, Step::Next, all), Some(1));
        assert_eq!(step(&run, &ix, 5, Step::Previous, all), Some(4));
        assert_eq!(step(&run, &ix, 0, Step::Previous, all), None);
        assert_eq!(step(&run, &ix, 9, Step::Next, all), None);
        // The hung run on worker 1 was received last.
        assert_eq!(step(&run, &ix, 3, Step::Last, all), Some(10));
        assert_eq!(step(&run, &ix, 10, Step::First, all), Some(0));
    }

    #[test]
    fn up_and_down_land_on_the_run_nearest_in_time_and_skip_empty_lanes() {
        let mut run = fixture::run(3, 1, 100_000);
        // Worker 0: runs at 0, 40 s and 90 s; worker 1 empty; worker 2 at 50 s.
        for (i, (w, t)) in [(0, 0), (0, 40_000), (0, 90_000), (2, 50_000)]
            .into_iter()
            .enumerate()
        {
            run.deliveries.push(fixture::delivery(i as u32, 1, w, t));
            run.messages
                .push(fixture::message(t, 1000, vec![i as u32], Fate::InFlight));
        }
        let ix = RunIndex::new(&run);
        assert_eq!(step(&run, &ix, 3, Step::Up, u64::MAX), Some(1));
        assert_eq!(step(&run, &ix, 2, Step::Down, u64::MAX), Some(3));
        assert_eq!(start(&run, &ix, 80_000, u64::MAX), Some(2));
    }

    #[test]
    fn runs_past_the_playhead_are_not_reached() {
        let run = fixture::many_short_runs_and_one_hung(10);
        let ix = RunIndex::new(&run);
        // Runs every 2 s: by 5 s, those received at 0, 2 and 4 s.
        assert_eq!(step(&run, &ix, 1, Step::Next, 5_000), Some(2));
        assert_eq!(step(&run, &ix, 2, Step::Next, 5_000), None);
        assert_eq!(step(&run, &ix, 0, Step::Last, 5_000), Some(2));
        assert_eq!(step(&run, &ix, 0, Step::Down, 5_000), None);
    }

    #[cfg(not(target_arch = "wasm32"))]
    mod properties {
        use super::*;
        use proptest::prelude::*;

        fn random_run(spots: &[(u32, u32, u64)]) -> Run {
            let mut run = fixture::run(4, 2, 1_000_000);
            for (i, &(w, slot, t)) in spots.iter().enumerate() {
                let mut d = fixture::delivery(i as u32, 1, w, t);
                // Slot 2 stands for the buffer: a run that never started.
                if slot == 2 {
                    d.started_at = None;
                    d.slot = None;
                } else {
                    d.slot = Some(slot);
                }
                run.deliveries.push(d);
                run.messages
                    .push(fixture::message(t, 1000, vec![i as u32], Fate::InFlight));
            }
            run
        }

        proptest! {
            #[test]
            fn right_then_left_returns_to_the_same_run(
                spots in prop::collection::vec((0u32..4, 0u32..3, 0u64..20_000), 1..40),
                pick in any::<prop::sample::Index>(),
            ) {
                let run = random_run(&spots);
                let ix = RunIndex::new(&run);
                let from = pick.index(spots.len()) as u32;
                if let Some(next) = step(&run, &ix, from, Step::Next, u64::MAX) {
                    prop_assert_eq!(run.deliveries[next as usize].worker, run.deliveries[from as usize].worker);
                    prop_assert_eq!(step(&run, &ix, next, Step::Previous, u64::MAX), Some(from));
                }
                if let Some(prev) = step(&run, &ix, from, Step::Previous, u64::MAX) {
                    prop_assert_eq!(step(&run, &ix, prev, Step::Next, u64::MAX), Some(from));
                }
            }

            #[test]
            fn right_from_the_first_run_of_a_lane_visits_every_run_of_it(
                spots in prop::collection::vec((0u32..4, 0u32..3, 0u64..20_000), 1..40),
            ) {
                let run = random_run(&spots);
                let ix = RunIndex::new(&run);
                for w in 0..4 {
                    let first = (0..spots.len() as u32)
                        .filter(|i| run.deliveries[*i as usize].worker == w)
                        .min_by_key(|i| (run.deliveries[*i as usize].received_at, *i));
                    let Some(mut at) = first else { continue };
                    let mut seen = 1;
                    while let Some(n) = step(&run, &ix, at, Step::Next, u64::MAX) {
                        at = n;
                        seen += 1;
                    }
                    let on_lane = run.deliveries.iter().filter(|d| d.worker == w).count();
                    prop_assert_eq!(seen, on_lane);
                }
            }
        }
    }
}
