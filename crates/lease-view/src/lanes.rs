//! Vertical layout: one lane per worker with a row per concurrency slot and
//! a thin buffer row (prefetched messages whose lease runs while they wait,
//! the invisible backlog), or one row per message.
use lease_sim::run::Delivery;

/// Height of the time axis along the top, on the canvas and in the SVG export.
pub const AXIS_PX: f64 = 22.0;
/// Width of the lane labels on the left, on the canvas and in the SVG export.
pub const GUTTER_PX: f64 = 72.0;

/// Where a delivery sits in the Workers view.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Row {
    Slot {
        worker: u32,
        slot: u32,
    },
    /// Leased but never started: it waited in the worker's local buffer.
    Buffer {
        worker: u32,
    },
}

impl Row {
    pub fn worker(self) -> u32 {
        match self {
            Row::Slot { worker, .. } | Row::Buffer { worker } => worker,
        }
    }
}

/// The row a delivery is drawn in. A slot out of range (a bad run) goes to
/// the last slot rather than off the canvas.
pub fn row_of(d: &Delivery, slots: u32) -> Row {
    match (d.started_at, d.slot) {
        (Some(_), slot) => Row::Slot {
            worker: d.worker,
            slot: slot.unwrap_or(0).min(slots.max(1) - 1),
        },
        (None, _) => Row::Buffer { worker: d.worker },
    }
}

/// What a run bar covers, in ms: the handler's run, or the buffer wait of a
/// delivery that never started.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bar {
    pub start: u64,
    pub end: u64,
    pub buffered: bool,
}

/// A run that never ended (hung, or still going when the run stopped) is
/// drawn to the end of the run.
pub fn bar_of(d: &Delivery, end_ms: u64) -> Bar {
    match d.started_at {
        Some(s) => Bar {
            start: s,
            end: d.ended_at.unwrap_or(end_ms).max(s),
            buffered: false,
        },
        None => Bar {
            start: d.received_at,
            end: d.lease_ended_at.max(d.received_at),
            buffered: true,
        },
    }
}

/// The stretch an expired lease was still held past its deadline, until the
/// broker's periodic check noticed (RabbitMQ's channel tick, BullMQ's
/// stalled checker, a Redis claimer's sweep): `(deadline, end)`, the end
/// cut at `upto` (the playhead). `None` where the broker took the lease back
/// at its deadline, before `upto` reaches the deadline, or for a lease that
/// passed no deadline.
pub fn lag_of(d: &Delivery, upto: u64) -> Option<(u64, u64)> {
    let deadline = d.deadline?;
    (deadline < d.lease_ended_at && deadline <= upto)
        .then(|| (deadline, d.lease_ended_at.min(upto)))
}

/// Everything drawn for a delivery, lease band included: from the receive to
/// whichever ends last, the run or the lease.
pub fn extent_of(d: &Delivery, end_ms: u64) -> (u64, u64) {
    let bar = bar_of(d, end_ms);
    (d.received_at, bar.end.max(d.lease_ended_at))
}

/// Pixel layout of the Workers view. `top_px` already includes the vertical
/// scroll, so a lane above the visible area has a negative top.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct WorkerLanes {
    pub top_px: f64,
    pub row_px: f64,
    pub buffer_px: f64,
    pub gap_px: f64,
    pub workers: u32,
    pub slots: u32,
}

pub const BUFFER_PX: f64 = 6.0;
pub const LANE_GAP_PX: f64 = 8.0;
pub const ROW_MIN_PX: f64 = 8.0;
pub const ROW_MAX_PX: f64 = 22.0;

impl WorkerLanes {
    /// Rows share `avail_px` between them, between 8 and 22 px each; when
    /// even 8 px rows do not fit, the view scrolls.
    pub fn new(workers: u32, slots: u32, top_px: f64, avail_px: f64) -> Self {
        Self::with_row_max(workers, slots, top_px, avail_px, ROW_MAX_PX)
    }

    /// As `new`, with rows up to `row_max_px` (at least `ROW_MAX_PX`): a
    /// projector's rows, read from the back of a room.
    pub fn with_row_max(
        workers: u32,
        slots: u32,
        top_px: f64,
        avail_px: f64,
        row_max_px: f64,
    ) -> Self {
        let slots = slots.max(1);
        let fixed = workers as f64 * (BUFFER_PX + LANE_GAP_PX);
        let rows = (workers * slots).max(1) as f64;
        let row_px = ((avail_px - fixed) / rows).clamp(ROW_MIN_PX, row_max_px.max(ROW_MAX_PX));
        WorkerLanes {
            top_px,
            row_px: row_px.floor(),
            buffer_px: BUFFER_PX,
            gap_px: LANE_GAP_PX,
            workers,
            slots,
        }
    }
    pub fn lane_px(&self) -> f64 {
        self.slots as f64 * self.row_px + self.buffer_px + self.gap_px
    }
    pub fn content_px(&self) -> f64 {
        self.workers as f64 * self.lane_px()
    }
    pub fn lane_top(&self, worker: u32) -> f64 {
        self.top_px + worker as f64 * self.lane_px()
    }
    /// Top and height of a row.
    pub fn row_span(&self, row: Row) -> (f64, f64) {
        match row {
            Row::Slot { worker, slot } => (
                self.lane_top(worker) + slot as f64 * self.row_px,
                self.row_px,
            ),
            Row::Buffer { worker } => (
                self.lane_top(worker) + self.slots as f64 * self.row_px,
                self.buffer_px,
            ),
        }
    }
    /// The row under `y`; `None` in the gap between lanes or outside them.
    pub fn row_at(&self, y: f64) -> Option<Row> {
        let rel = y - self.top_px;
        if rel < 0.0 {
            return None;
        }
        let worker = (rel / self.lane_px()).floor() as u32;
        if worker >= self.workers {
            return None;
        }
        let within = rel - worker as f64 * self.lane_px();
        let slots_px = self.slots as f64 * self.row_px;
        if within < slots_px {
            Some(Row::Slot {
                worker,
                slot: ((within / self.row_px).floor() as u32).min(self.slots - 1),
            })
        } else if within < slots_px + self.buffer_px {
            Some(Row::Buffer { worker })
        } else {
            None
        }
    }
}

/// Pixel layout of the Messages view: one row per message, in id order.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MessageRows {
    pub top_px: f64,
    pub row_px: f64,
    pub count: u32,
}

pub const MESSAGE_ROW_MIN_PX: f64 = 4.0;
pub const MESSAGE_ROW_MAX_PX: f64 = 16.0;

impl MessageRows {
    pub fn new(count: u32, top_px: f64, avail_px: f64) -> Self {
        let row_px = (avail_px / count.max(1) as f64)
            .clamp(MESSAGE_ROW_MIN_PX, MESSAGE_ROW_MAX_PX)
            .floor();
        MessageRows {
            top_px,
            row_px,
            count,
        }
    }
    pub fn content_px(&self) -> f64 {
        self.count as f64 * self.row_px
    }
    pub fn row_top(&self, message: u32) -> f64 {
        self.top_px + message as f64 * self.row_px
    }
    pub fn row_at(&self, y: f64) -> Option<u32> {
        let rel = y - self.top_px;
        if rel < 0.0 {
            return None;
        }
        let m = (rel / self.row_px).floor() as u32;
        (m < self.count).then_some(m)
    }
    /// Messages whose rows intersect `[y0, y1)`: only those are drawn.
    pub fn visible(&self, y0: f64, y1: f64) -> std::ops::Range<u32> {
        let first = ((y0 - self.top_px) / self.row_px).floor().max(0.0) as u32;
        let last = ((y1 - self.top_px) / self.row_px).ceil().max(0.0) as u32;
        first.min(self.count)..last.min(self.count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_workers_with_two_slots_share_the_height() {
        // 200 px: 2 * (6 + 8) = 28 fixed, 172 / 4 rows = 43 -> capped at 22.
        let l = WorkerLanes::new(2, 2, 24.0, 200.0);
        assert_eq!(l.row_px, 22.0);
        assert_eq!(l.lane_px(), 58.0);
        assert_eq!(l.row_span(Row::Slot { worker: 1, slot: 1 }), (104.0, 22.0));
        assert_eq!(l.row_span(Row::Buffer { worker: 1 }), (126.0, 6.0));
        assert_eq!(l.content_px(), 116.0);
    }

    #[test]
    fn a_projectors_rows_grow_to_their_own_limit() {
        let big = WorkerLanes::with_row_max(2, 1, 0.0, 400.0, 60.0);
        assert_eq!(big.row_px, 60.0);
        let small = WorkerLanes::with_row_max(2, 1, 0.0, 400.0, 1.0);
        assert_eq!(small.row_px, ROW_MAX_PX, "never below the page's own rows");
    }

    #[test]
    fn many_workers_get_narrow_rows_and_scroll() {
        let l = WorkerLanes::new(100, 1, 0.0, 400.0);
        assert_eq!(l.row_px, ROW_MIN_PX);
        assert_eq!(l.content_px(), 2200.0);
    }

    #[test]
    fn the_row_under_the_pointer() {
        let l = WorkerLanes::new(2, 2, 24.0, 200.0);
        assert_eq!(l.row_at(10.0), None);
        assert_eq!(l.row_at(24.0), Some(Row::Slot { worker: 0, slot: 0 }));
        assert_eq!(l.row_at(46.5), Some(Row::Slot { worker: 0, slot: 1 }));
        assert_eq!(l.row_at(70.0), Some(Row::Buffer { worker: 0 }));
        assert_eq!(l.row_at(75.0), None, "the gap between lanes");
        assert_eq!(l.row_at(82.0), Some(Row::Slot { worker: 1, slot: 0 }));
        assert_eq!(l.row_at(140.0), None, "below the last lane");
    }

    #[test]
    fn a_thousand_messages_scroll_at_four_pixels_a_row() {
        let m = MessageRows::new(1000, 20.0, 400.0);
        assert_eq!(m.row_px, 4.0);
        assert_eq!(m.row_at(20.0), Some(0));
        assert_eq!(m.row_at(27.9), Some(1));
        assert_eq!(m.row_at(4020.0), None);
        assert_eq!(m.visible(20.0, 420.0), 0..100);
        assert_eq!(m.visible(0.0, 30.0), 0..3);
    }

    #[test]
    fn few_messages_get_tall_rows() {
        let m = MessageRows::new(3, 0.0, 400.0);
        assert_eq!(m.row_px, 16.0);
        assert_eq!(m.visible(0.0, 1000.0), 0..3);
    }
}
