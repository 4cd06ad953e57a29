//! Which deliveries fall in a time window, fast enough to repaint 100k runs
//! on every slider move: one vector per row, sorted by receive time, with a
//! running maximum of end times so that a binary search skips everything
//! that ended before the window. Each row also keeps the few numbers a
//! density strip needs per run, side by side, so that binning 100k runs on
//! a zoomed-out frame reads one compact array instead of every `Delivery`.

use lease_sim::run::{DeliveryIx, LeaseEnd, Run};

use crate::density::Strip;
use crate::lanes::{bar_of, extent_of, row_of, Row};
use crate::scale::TimeScale;

/// What a strip needs of one run, in the row's receive order.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
struct Binnable {
    bar_start: u64,
    bar_end: u64,
    /// When the lease expired; `u64::MAX` if it did not.
    expired_at: u64,
    /// When the message went past its delivery limit (dead-lettered,
    /// dropped or left in the stream), on its last delivery; else `u64::MAX`.
    dead_at: u64,
    message: u32,
    /// It ran while another run of the same message did (and did start).
    overlaps: bool,
}

/// One frame's view of a row for `RunIndex::bin_row`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BinWindow {
    pub scale: TimeScale,
    pub t0: u64,
    pub t1: u64,
    /// Nothing after this has been played yet.
    pub playhead: u64,
    /// This message's runs stay bars however narrow (it is highlighted).
    pub keep: Option<u32>,
}

#[derive(Debug, Clone, Default, PartialEq)]
struct RowIndex {
    items: Vec<DeliveryIx>,
    starts: Vec<u64>,
    ends: Vec<u64>,
    /// `max_end[i]` = the latest end among `items[..=i]`: non-decreasing, so
    /// the first item that can reach into a window is a binary search away.
    max_end: Vec<u64>,
    bins: Vec<Binnable>,
}

impl RowIndex {
    fn range(&self, t0: u64, t1: u64) -> std::ops::Range<usize> {
        let first = self.max_end.partition_point(|e| *e < t0);
        let last = self.starts.partition_point(|s| *s <= t1);
        first..last.max(first)
    }

    fn visible(&self, t0: u64, t1: u64) -> impl Iterator<Item = DeliveryIx> + '_ {
        self.range(t0, t1)
            .filter(move |i| self.ends[*i] >= t0)
            .map(move |i| self.items[i])
    }
}

/// Built once per run; the page keeps it next to the run.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RunIndex {
    pub workers: u32,
    pub slots: u32,
    rows: Vec<RowIndex>,
    /// Marks per delivery (indices into `Run::marks`, in time order), as
    /// offsets into one flat vector.
    mark_offsets: Vec<u32>,
    mark_ixs: Vec<u32>,
    /// The delivery after this one of the same message: redelivery arrows.
    next: Vec<Option<DeliveryIx>>,
    /// For a run that a later run of the same message overlapped, when the
    /// first such twin started: the run is as much half of the pair as its
    /// twin, which names it in `overlaps`.
    overlapped_from: Vec<Option<u64>>,
    pub end_ms: u64,
}

impl RunIndex {
    pub fn new(run: &Run) -> Self {
        let mut b = IndexBuilder::new(run);
        while !b.step(run, usize::MAX) {}
        b.finish(run)
    }

    /// Deliveries in `row` drawn anywhere in `[t0, t1]`, in receive order.
    pub fn visible(&self, row: Row, t0: u64, t1: u64) -> impl Iterator<Item = DeliveryIx> + '_ {
        self.rows
            .get(row_slot(row, self.slots))
            .into_iter()
            .flat_map(move |r| r.visible(t0, t1))
    }

    /// At most this many deliveries in `row` are drawn in `[t0, t1]`: a
    /// cheap bound, without looking at any of them.
    pub fn visible_bound(&self, row: Row, t0: u64, t1: u64) -> usize {
        self.rows
            .get(row_slot(row, self.slots))
            .map_or(0, |r| r.range(t0, t1).len())
    }

    /// The row's runs in the window, played by `w.playhead`: those narrower
    /// than a pixel go into `strip` (with their overlaps, expiries and dead
    /// letters), the others into `wide` to be drawn as bars, and, when
    /// `binned` is given, the binned ones there too. Returns how many runs
    /// were in view.
    pub fn bin_row(
        &self,
        row: Row,
        w: &BinWindow,
        strip: &mut Strip,
        wide: &mut Vec<DeliveryIx>,
        mut binned: Option<&mut Vec<DeliveryIx>>,
    ) -> u32 {
        let Some(r) = self.rows.get(row_slot(row, self.slots)) else {
            return 0;
        };
        let px = w.scale.ms_per_px();
        let mut seen = 0;
        for i in r.range(w.t0, w.t1) {
            if r.ends[i] < w.t0 || r.starts[i] > w.playhead {
                continue;
            }
            seen += 1;
            let b = &r.bins[i];
            let end = b.bar_end.min(w.playhead);
            if Some(b.message) == w.keep || end.saturating_sub(b.bar_start) as f64 >= px {
                wide.push(r.items[i]);
                continue;
            }
            strip.add_run(b.bar_start, end, b.overlaps && b.bar_start <= w.playhead);
            if b.expired_at <= w.playhead {
                strip.add_expiry(b.expired_at);
            }
            if b.dead_at <= w.playhead {
                strip.add_dead_letter(b.dead_at);
            }
            if let Some(v) = binned.as_deref_mut() {
                v.push(r.items[i]);
            }
        }
        seen
    }

    /// Indices into `Run::marks` of one delivery's marks, in time order.
    pub fn marks_of(&self, ix: DeliveryIx) -> &[u32] {
        let i = ix as usize;
        match (self.mark_offsets.get(i), self.mark_offsets.get(i + 1)) {
            (Some(a), Some(b)) => &self.mark_ixs[*a as usize..*b as usize],
            _ => &[],
        }
    }

    pub fn next_of(&self, ix: DeliveryIx) -> Option<DeliveryIx> {
        self.next.get(ix as usize).copied().flatten()
    }

    /// Whether run `ix` is half of an overlapping pair by `t`: it overlaps
    /// an earlier run, or a later run that had started by `t` overlaps it.
    pub fn overlapping_by(&self, run: &Run, ix: DeliveryIx, t: u64) -> bool {
        let Some(d) = run.deliveries.get(ix as usize) else {
            return false;
        };
        let own = d.overlaps.is_some() && d.started_at.is_some_and(|s| s <= t);
        own || self
            .overlapped_from
            .get(ix as usize)
            .copied()
            .flatten()
            .is_some_and(|s| s <= t)
    }

    /// The rows of one worker's lane, each its deliveries in receive order.
    pub(crate) fn lane_rows(&self, worker: u32) -> impl Iterator<Item = &[DeliveryIx]> + '_ {
        let per_lane = self.slots as usize + 1;
        let from = (worker as usize).saturating_mul(per_lane);
        self.rows
            .get(from..(from + per_lane).min(self.rows.len()))
            .unwrap_or_default()
            .iter()
            .map(|r| r.items.as_slice())
    }

    /// Every row of the Workers view, top to bottom.
    pub fn all_rows(&self) -> impl Iterator<Item = Row> + '_ {
        let slots = self.slots;
        (0..self.workers).flat_map(move |worker| {
            (0..slots)
                .map(move |slot| Row::Slot { worker, slot })
                .chain(std::iter::once(Row::Buffer { worker }))
        })
    }
}

fn row_slot(row: Row, slots: u32) -> usize {
    let per_lane = slots as usize + 1;
    match row {
        Row::Slot { worker, slot } => worker as usize * per_lane + slot as usize,
        Row::Buffer { worker } => worker as usize * per_lane + slots as usize,
    }
}

/// Building a `RunIndex` a stretch of deliveries at a time: the page builds
/// a large run's index in several short tasks rather than one long one.
pub struct IndexBuilder {
    workers: u32,
    slots: u32,
    rows: Vec<RowIndex>,
    order: Vec<DeliveryIx>,
    at: usize,
}

impl IndexBuilder {
    pub fn new(run: &Run) -> Self {
        // Trust the data over the header: a delivery on a worker or slot
        // beyond the stated counts still gets a lane.
        let workers = run
            .deliveries
            .iter()
            .map(|d| d.worker + 1)
            .chain(run.worker_marks.iter().map(|m| m.worker + 1))
            .chain(std::iter::once(run.worker_count))
            .max()
            .unwrap_or(0);
        let slots = run
            .deliveries
            .iter()
            .filter_map(|d| d.slot.map(|s| s + 1))
            .chain(std::iter::once(run.concurrency.max(1)))
            .max()
            .unwrap_or(1);
        let per_lane = slots as usize + 1;
        let rows = vec![RowIndex::default(); workers as usize * per_lane];
        let mut order: Vec<DeliveryIx> = (0..run.deliveries.len() as DeliveryIx).collect();
        by_receive_time(run, &mut order);
        IndexBuilder {
            workers,
            slots,
            rows,
            order,
            at: 0,
        }
    }

    /// Indexes up to `n` more deliveries; `true` once all are in.
    pub fn step(&mut self, run: &Run, n: usize) -> bool {
        let slots = self.slots;
        let end = self.at.saturating_add(n).min(self.order.len());
        for &ix in &self.order[self.at..end] {
            let rows = &mut self.rows;
            let d = &run.deliveries[ix as usize];
            let (start, end) = extent_of(d, run.end_ms);
            let r = &mut rows[row_slot(row_of(d, slots), slots)];
            let max = r.max_end.last().copied().unwrap_or(0).max(end);
            r.items.push(ix);
            r.starts.push(start);
            r.ends.push(end);
            r.max_end.push(max);
            let bar = bar_of(d, run.end_ms);
            let last = run
                .messages
                .get(d.message as usize)
                .and_then(|m| m.deliveries.last())
                == Some(&ix);
            r.bins.push(Binnable {
                bar_start: bar.start,
                bar_end: bar.end,
                expired_at: if d.lease_end == LeaseEnd::Expired {
                    d.lease_ended_at
                } else {
                    u64::MAX
                },
                dead_at: match run
                    .messages
                    .get(d.message as usize)
                    .and_then(|m| crate::limit::past_limit(m.fate))
                {
                    Some((_, at, _)) if last => at,
                    _ => u64::MAX,
                },
                message: d.message,
                overlaps: d.overlaps.is_some() && d.started_at.is_some(),
            });
        }
        self.at = end;
        self.at == self.order.len()
    }

    /// The marks and the redelivery links, once every delivery is in.
    pub fn finish(self, run: &Run) -> RunIndex {
        let IndexBuilder {
            workers,
            slots,
            rows,
            ..
        } = self;
        let mut counts = vec![0u32; run.deliveries.len() + 1];
        for m in &run.marks {
            if let Some(c) = counts.get_mut(m.delivery as usize + 1) {
                *c += 1;
            }
        }
        for i in 1..counts.len() {
            counts[i] += counts[i - 1];
        }
        let mut fill = counts.clone();
        let mut mark_ixs = vec![0u32; run.marks.len()];
        let mut placed = 0;
        for (mi, m) in run.marks.iter().enumerate() {
            if let Some(f) = fill.get_mut(m.delivery as usize) {
                if (m.delivery as usize) < run.deliveries.len() {
                    mark_ixs[*f as usize] = mi as u32;
                    *f += 1;
                    placed += 1;
                }
            }
        }
        mark_ixs.truncate(placed);

        let mut next = vec![None; run.deliveries.len()];
        for msg in &run.messages {
            for w in msg.deliveries.windows(2) {
                if let Some(n) = next.get_mut(w[0] as usize) {
                    *n = Some(w[1]);
                }
            }
        }
        let mut overlapped_from: Vec<Option<u64>> = vec![None; run.deliveries.len()];
        for d in &run.deliveries {
            if let (Some(twin), Some(started)) = (d.overlaps, d.started_at) {
                if let Some(o) = overlapped_from.get_mut(twin as usize) {
                    *o = Some(o.map_or(started, |was| was.min(started)));
                }
            }
        }
        RunIndex {
            workers,
            slots,
            rows,
            mark_offsets: counts,
            mark_ixs,
            next,
            overlapped_from,
            end_ms: run.end_ms,
        }
    }
}

/// Deliveries in the order they were received, ties by index. The index and
/// the SVG export share it, so that both order the runs alike.
pub(crate) fn by_receive_time(run: &Run, ixs: &mut [DeliveryIx]) {
    ixs.sort_unstable_by_key(|i| (run.deliveries[*i as usize].received_at, *i));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixture;

    #[test]
    fn a_window_finds_the_runs_it_touches_and_no_others() {
        let run = fixture::ninety_second_message();
        let ix = RunIndex::new(&run);
        let w0 = Row::Slot { worker: 0, slot: 0 };
        let w1 = Row::Slot { worker: 1, slot: 0 };
        assert_eq!(ix.visible(w0, 0, 10_000).collect::<Vec<_>>(), vec![0]);
        assert_eq!(ix.visible(w1, 0, 10_000).count(), 0);
        assert_eq!(ix.visible(w1, 59_999, 60_000).collect::<Vec<_>>(), vec![1]);
        assert_eq!(ix.visible(w0, 90_001, 200_000).count(), 0);
        assert_eq!(ix.next_of(0), Some(1));
        assert_eq!(ix.next_of(1), None);
    }

    #[test]
    fn both_runs_of_an_overlapping_pair_overlap_once_the_second_has_started() {
        let run = fixture::ninety_second_message();
        let ix = RunIndex::new(&run);
        let second_starts = run.deliveries[1].started_at.unwrap();
        assert!(!ix.overlapping_by(&run, 0, second_starts - 1));
        assert!(!ix.overlapping_by(&run, 1, second_starts - 1));
        assert!(ix.overlapping_by(&run, 0, second_starts));
        assert!(ix.overlapping_by(&run, 1, second_starts));
        assert!(!ix.overlapping_by(&run, 2, u64::MAX));
    }

    #[test]
    fn an_index_built_a_stretch_at_a_time_is_the_same_index() {
        for run in [
            fixture::ninety_second_message(),
            fixture::many_short_runs_and_one_hung(1000),
        ] {
            let mut b = IndexBuilder::new(&run);
            let mut steps = 1;
            while !b.step(&run, 7) {
                steps += 1;
            }
            assert!(steps > 1 || run.deliveries.len() <= 7);
            assert_eq!(b.finish(&run), RunIndex::new(&run));
        }
    }

    #[test]
    fn marks_are_grouped_by_delivery() {
        let run = fixture::ninety_second_message();
        let ix = RunIndex::new(&run);
        let kinds = |d| {
            ix.marks_of(d)
                .iter()
                .map(|m| run.marks[*m as usize].kind)
                .collect::<Vec<_>>()
        };
        use lease_sim::run::MarkKind::*;
        assert_eq!(kinds(0), vec![Commit, AckRejected]);
        assert_eq!(kinds(1), vec![Commit, AckOk]);
        assert!(ix.marks_of(7).is_empty());
    }

    #[test]
    fn a_long_run_is_found_from_a_window_far_after_its_start() {
        let run = fixture::many_short_runs_and_one_hung(1000);
        let ix = RunIndex::new(&run);
        let row = Row::Slot { worker: 0, slot: 0 };
        // Runs are 1 s long every 2 s; the hung one (the last) runs to the end.
        let seen: Vec<_> = ix.visible(row, 500_500, 501_500).collect();
        assert_eq!(seen, vec![250]);
        let hung = Row::Slot { worker: 1, slot: 0 };
        assert_eq!(ix.visible(hung, 1_900_000, 1_900_001).count(), 1);
    }

    fn window(start_ms: f64, end_ms: f64, width_px: f64, playhead: u64) -> BinWindow {
        BinWindow {
            scale: TimeScale {
                start_ms,
                end_ms,
                width_px,
                limit_ms: 2_000_000.0,
            },
            t0: start_ms as u64,
            t1: end_ms as u64,
            playhead,
            keep: None,
        }
    }

    #[test]
    fn zoomed_out_short_runs_are_binned_and_a_hung_one_stays_a_bar() {
        let run = fixture::many_short_runs_and_one_hung(1000);
        let ix = RunIndex::new(&run);
        // 2000 s over 200 px: 10 s a pixel, five runs a column.
        let w = window(0.0, 2_000_000.0, 200.0, 2_000_000);
        let mut strip = Strip::new(&w.scale);
        let mut wide = Vec::new();
        let short = Row::Slot { worker: 0, slot: 0 };
        assert_eq!(ix.bin_row(short, &w, &mut strip, &mut wide, None), 1000);
        assert!(wide.is_empty());
        let runs: u32 = strip.columns().iter().map(|c| c.runs).sum();
        assert_eq!(runs, 1000);
        assert_eq!(strip.columns()[0].runs, 5);
        assert!((strip.coverage(0) - 0.5).abs() < 1e-9, "busy half the time");
        strip.clear();
        let hung = Row::Slot { worker: 1, slot: 0 };
        assert_eq!(ix.bin_row(hung, &w, &mut strip, &mut wide, None), 1);
        assert_eq!(wide, vec![1000]);
        assert_eq!(strip.painted(), 0);
    }

    #[test]
    fn the_playhead_cuts_the_binned_runs_and_a_kept_message_stays_a_bar() {
        let run = fixture::many_short_runs_and_one_hung(1000);
        let ix = RunIndex::new(&run);
        let row = Row::Slot { worker: 0, slot: 0 };
        let mut w = window(0.0, 2_000_000.0, 200.0, 100_500);
        let mut strip = Strip::new(&w.scale);
        let (mut wide, mut binned) = (Vec::new(), Vec::new());
        // Runs received at 0, 2, ... 100 s: 51 of them.
        assert_eq!(
            ix.bin_row(row, &w, &mut strip, &mut wide, Some(&mut binned)),
            51
        );
        assert_eq!(binned.len(), 51);
        w.keep = Some(7);
        strip.clear();
        binned.clear();
        ix.bin_row(row, &w, &mut strip, &mut wide, Some(&mut binned));
        assert_eq!(wide, vec![7]);
        assert_eq!(binned.len(), 50);
    }

    #[test]
    fn a_binned_overlap_and_its_expiry_are_marked() {
        let run = fixture::ninety_second_message();
        let ix = RunIndex::new(&run);
        // 150 s over 1 px: every run is under a pixel.
        let w = window(0.0, 150_000.0, 1.0, 150_000);
        let mut strip = Strip::new(&w.scale);
        let mut wide = Vec::new();
        ix.bin_row(
            Row::Slot { worker: 0, slot: 0 },
            &w,
            &mut strip,
            &mut wide,
            None,
        );
        ix.bin_row(
            Row::Slot { worker: 1, slot: 0 },
            &w,
            &mut strip,
            &mut wide,
            None,
        );
        let c = strip.columns()[0];
        assert_eq!((c.runs, c.overlaps, c.expiries), (2, 1, 1));
        assert_eq!(
            ix.visible_bound(Row::Slot { worker: 1, slot: 0 }, 0, 150_000),
            1
        );
    }

    #[test]
    fn a_delivery_that_never_started_sits_in_the_buffer_row() {
        let run = fixture::buffered_and_expired();
        let ix = RunIndex::new(&run);
        assert_eq!(
            ix.visible(Row::Buffer { worker: 0 }, 0, 100_000)
                .collect::<Vec<_>>(),
            vec![1]
        );
        assert_eq!(ix.all_rows().count(), 2);
    }
}
