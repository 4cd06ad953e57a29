//! The event queue.
//!
//! Same-instant order (MODEL.md "Time and order": never by hash-map order).
//! Scheduled events pop by `(time, kind priority, schedule sequence)`:
//!
//! 0. `Expiry`: a lease ending at `t` is over for everything else at `t`
//!    (an ack arriving at `expires_at` is too late, MODEL.md "Time and order").
//! 1. `Call`: a broker call arriving (receive, extend, ack, release), in the
//!    order they were sent. Before crashes, so a call sent exactly
//!    `rpc_latency` earlier arrives ("less than rpc_latency earlier never
//!    arrives").
//! 2. `Arrival` of a new message.
//! 3. `RateChange`: a slowdown starts or ends.
//! 4. `Finish`: the next handler's work completes.
//! 5. `Tick`: a heartbeat is due.
//! 6. `Reply`: a broker answer reaching a worker.
//! 7. `Crash`, 8. `Restart`, 9. `Pause`, 10. `Resume`: faults.
//!
//! Within one priority, events run in the order they were scheduled (a
//! global sequence number), which is itself deterministic.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use crate::run::DeliveryIx;

/// A broker call in transit from a worker.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Call {
    /// A receive asking for `want` messages.
    Receive {
        want: u32,
    },
    Extend {
        delivery: DeliveryIx,
    },
    Ack {
        delivery: DeliveryIx,
    },
    Release {
        delivery: DeliveryIx,
    },
}

/// A broker answer in transit to a worker.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reply {
    /// Deliveries `first .. first + count` (created together, so consecutive).
    Received {
        first: DeliveryIx,
        count: u32,
    },
    Extended {
        delivery: DeliveryIx,
        ok: bool,
    },
    Acked {
        delivery: DeliveryIx,
        ok: bool,
    },
    Released {
        delivery: DeliveryIx,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ev {
    Expiry {
        message: u32,
        receipt: u32,
    },
    /// `epoch`: the sending worker's life; a crash loses what is in transit.
    Call {
        worker: u32,
        epoch: u32,
        call: Call,
    },
    Arrival,
    RateChange,
    /// `generation` invalidates superseded finish events.
    Finish {
        generation: u64,
    },
    Tick {
        delivery: DeliveryIx,
    },
    Reply {
        worker: u32,
        epoch: u32,
        reply: Reply,
    },
    Crash {
        worker: u32,
        restart_after: Option<u64>,
    },
    Restart {
        worker: u32,
    },
    Pause {
        worker: u32,
        duration: u64,
    },
    Resume {
        worker: u32,
    },
}

impl Ev {
    fn priority(&self) -> u64 {
        match self {
            Ev::Expiry { .. } => 0,
            Ev::Call { .. } => 1,
            Ev::Arrival => 2,
            Ev::RateChange => 3,
            Ev::Finish { .. } => 4,
            Ev::Tick { .. } => 5,
            Ev::Reply { .. } => 6,
            Ev::Crash { .. } => 7,
            Ev::Restart { .. } => 8,
            Ev::Pause { .. } => 9,
            Ev::Resume { .. } => 10,
        }
    }
}

#[derive(Debug, Clone, Copy)]
struct Entry {
    t: u64,
    /// priority << 56 | sequence.
    order: u64,
    ev: Ev,
}

impl PartialEq for Entry {
    fn eq(&self, o: &Self) -> bool {
        self.t == o.t && self.order == o.order
    }
}
impl Eq for Entry {}
impl PartialOrd for Entry {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for Entry {
    fn cmp(&self, o: &Self) -> Ordering {
        // Reversed: BinaryHeap is a max-heap, we pop the earliest.
        (o.t, o.order).cmp(&(self.t, self.order))
    }
}

/// Kinds of event, one same-instant lane each (see `Ev::priority`).
const KINDS: usize = 11;

/// The heap holds future events. Events scheduled for the current instant
/// (every broker call and reply when `rpc_latency` is 0) go to a FIFO lane
/// per kind instead: they pop in exactly the order the heap would give them,
/// `(time, priority, sequence)`, without its O(log n) cost.
#[derive(Debug, Default)]
pub struct Clock {
    heap: BinaryHeap<Entry>,
    seq: u64,
    now: u64,
    lanes: [std::collections::VecDeque<Entry>; KINDS],
    /// Bit k set: lane k is not empty.
    mask: u16,
}

impl Clock {
    pub fn with_capacity(n: usize) -> Self {
        Clock {
            heap: BinaryHeap::with_capacity(n),
            ..Clock::default()
        }
    }

    pub fn schedule(&mut self, t: u64, ev: Ev) {
        self.seq += 1;
        let p = ev.priority();
        let e = Entry {
            t,
            order: (p << 56) | (self.seq & ((1 << 56) - 1)),
            ev,
        };
        if t == self.now {
            self.lanes[p as usize].push_back(e);
            self.mask |= 1 << p;
        } else {
            self.heap.push(e);
        }
    }

    pub fn peek_time(&self) -> Option<u64> {
        if self.mask != 0 {
            return Some(self.now);
        }
        self.heap.peek().map(|e| e.t)
    }

    pub fn pop(&mut self) -> Option<(u64, Ev)> {
        if self.mask != 0 {
            let p = self.mask.trailing_zeros() as usize;
            let lane_order = self.lanes[p].front().map_or(u64::MAX, |e| e.order);
            let heap_first = self
                .heap
                .peek()
                .is_some_and(|h| (h.t, h.order) < (self.now, lane_order));
            if !heap_first {
                let e = self.lanes[p].pop_front().expect("lane mask says non-empty");
                if self.lanes[p].is_empty() {
                    self.mask &= !(1 << p);
                }
                return Some((e.t, e.ev));
            }
        }
        let e = self.heap.pop()?;
        self.now = e.t;
        Some((e.t, e.ev))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_instant_events_run_by_kind_then_schedule_order() {
        let mut c = Clock::default();
        c.schedule(5, Ev::Resume { worker: 0 });
        c.schedule(5, Ev::Arrival);
        c.schedule(
            5,
            Ev::Expiry {
                message: 1,
                receipt: 1,
            },
        );
        c.schedule(3, Ev::Resume { worker: 1 });
        c.schedule(
            5,
            Ev::Expiry {
                message: 2,
                receipt: 1,
            },
        );
        let order: Vec<_> = std::iter::from_fn(|| c.pop()).collect();
        assert_eq!(order[0], (3, Ev::Resume { worker: 1 }));
        assert_eq!(
            order[1],
            (
                5,
                Ev::Expiry {
                    message: 1,
                    receipt: 1
                }
            )
        );
        assert_eq!(
            order[2],
            (
                5,
                Ev::Expiry {
                    message: 2,
                    receipt: 1
                }
            )
        );
        assert_eq!(order[3], (5, Ev::Arrival));
        assert_eq!(order[4], (5, Ev::Resume { worker: 0 }));
    }
}
