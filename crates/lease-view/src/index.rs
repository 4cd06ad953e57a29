//! Which deliveries fall in a time window, fast enough to repaint 100k runs
//! on every slider move: one vector per row, sorted by receive time, with a
//! running maximum of end times so that a binary search skips everything
//! that ended before the window.

use lease_sim::run::{DeliveryIx, Run};

use crate::lanes::{extent_of, row_of, Row};

#[derive(Debug, Clone, Default, PartialEq)]
struct RowIndex {
    items: Vec<DeliveryIx>,
    starts: Vec<u64>,
    ends: Vec<u64>,
    /// `max_end[i]` = the latest end among `items[..=i]`: non-decreasing, so
    /// the first item that can reach into a window is a binary search away.
    max_end: Vec<u64>,
}

impl RowIndex {
    fn visible(&self, t0: u64, t1: u64) -> impl Iterator<Item = DeliveryIx> + '_ {
        let first = self.max_end.partition_point(|e| *e < t0);
        let last = self.starts.partition_point(|s| *s <= t1);
        (first..last.max(first))
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
    pub end_ms: u64,
}

impl RunIndex {
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
        let mut rows = vec![RowIndex::default(); workers as usize * per_lane];
        let mut order: Vec<DeliveryIx> = (0..run.deliveries.len() as DeliveryIx).collect();
        order.sort_by_key(|i| (run.deliveries[*i as usize].received_at, *i));
        for ix in order {
            let d = &run.deliveries[ix as usize];
            let (start, end) = extent_of(d, run.end_ms);
            let r = &mut rows[row_slot(row_of(d, slots), slots)];
            let max = r.max_end.last().copied().unwrap_or(0).max(end);
            r.items.push(ix);
            r.starts.push(start);
            r.ends.push(end);
            r.max_end.push(max);
        }

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
        RunIndex {
            workers,
            slots,
            rows,
            mark_offsets: counts,
            mark_ixs,
            next,
            end_ms: run.end_ms,
        }
    }

    /// Deliveries in `row` drawn anywhere in `[t0, t1]`, in receive order.
    pub fn visible(&self, row: Row, t0: u64, t1: u64) -> impl Iterator<Item = DeliveryIx> + '_ {
        self.rows
            .get(row_slot(row, self.slots))
            .into_iter()
            .flat_map(move |r| r.visible(t0, t1))
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
