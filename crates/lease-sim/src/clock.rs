//! The event queue.
//!
//! Same-instant order (docs/MODEL.md "Time and order": never by hash-map order).
//! Scheduled events pop by `(time, kind priority, schedule sequence)`:
//!
//! 0. `Expiry`: a lease ending at `t` is over for everything else at `t`
//!    (an ack arriving at `expires_at` is too late, docs/MODEL.md "Time and order");
//!    `StallCheck`, BullMQ's stalled checker, in the same lane.
//! 1. `Call`: a broker call arriving (receive, extend, ack, release), in the
//!    order they were sent. Before crashes, so a call sent exactly
//!    `rpc_latency` earlier arrives ("less than rpc_latency earlier never
//!    arrives").
//! 2. `Arrival` of a new message, or `Ready`: a message's delay before
//!    redelivery is over (in the order they were scheduled).
//! 3. `RateChange`: a slowdown starts or ends.
//! 4. `Finish`: the next handler's work completes.
//! 5. `Tick`: a heartbeat, or a held message's ETA, is due.
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
    /// Extend to `by_ms` from the instant the broker reads the call.
    Extend {
        delivery: DeliveryIx,
        by_ms: u64,
    },
    Ack {
        delivery: DeliveryIx,
    },
    Release {
        delivery: DeliveryIx,
    },
}

/// The broker's answer to an ack.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AckAnswer {
    /// It settled the message.
    Accepted,
    Rejected,
    /// The message was already deleted and the broker answers a success
    /// that does nothing (`deleted_ack: no_op`).
    NoOp,
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
        answer: AckAnswer,
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
    /// BullMQ's stalled checker runs in a worker (`Sim::stall`);
    /// `generation` invalidates superseded plans.
    StallCheck {
        generation: u64,
    },
    /// `epoch`: the sending worker's life; a crash loses what is in transit.
    Call {
        worker: u32,
        epoch: u32,
        call: Call,
    },
    Arrival,
    /// A message's delay before redelivery is over: it joins the queue.
    Ready {
        message: u32,
    },
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
            Ev::Expiry { .. } | Ev::StallCheck { .. } => 0,
            Ev::Call { .. } => 1,
            Ev::Arrival | Ev::Ready { .. } => 2,
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

/// At most this many constant-delay streams; further delays use the heap.
const STREAMS: usize = 8;

/// Events of one kind scheduled the same delay ahead of the clock.
#[derive(Debug)]
struct Stream {
    priority: u64,
    delay: u64,
    q: std::collections::VecDeque<Entry>,
}

/// The heap holds future events. Two shortcuts keep most events out of it,
/// both popping in exactly the order the heap alone would give,
/// `(time, priority, sequence)`, without its O(log n) cost:
///
/// - events for the current instant (every broker call and reply when
///   `rpc_latency` is 0) go to a FIFO lane per kind;
/// - events of one kind scheduled the same delay ahead (every lease's expiry
///   at `now + visibility_timeout`, every extension's at `now + extend_by`,
///   calls and replies at `now + rpc_latency`, ticks at `now + interval`)
///   go to a FIFO stream per (kind, delay). The clock never goes back, so
///   such a stream is already sorted by time, and by sequence within a time.
///
/// And only one `Finish` is ever pending: the next handler to complete. It
/// has a slot of its own, replaced whenever the plan changes, instead of
/// leaving every superseded finish in the heap to pop as a no-op.
#[derive(Debug, Default)]
pub struct Clock {
    heap: BinaryHeap<Entry>,
    seq: u64,
    now: u64,
    lanes: [std::collections::VecDeque<Entry>; KINDS],
    /// Bit k set: lane k is not empty.
    mask: u16,
    streams: Vec<Stream>,
    finish: Option<Entry>,
}

/// Where the next event is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Source {
    Lane(usize),
    Heap,
    Stream(usize),
    Finish,
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
            return;
        }
        // Finish events fall at arbitrary times; a stream would not help.
        if !matches!(ev, Ev::Finish { .. }) && t > self.now {
            let delay = t - self.now;
            if let Some(st) = self
                .streams
                .iter_mut()
                .find(|st| st.priority == p && st.delay == delay)
            {
                // Sorted as long as time only moves forward; anything else
                // (never expected) goes to the heap, which is always right.
                if st.q.back().is_none_or(|b| b.t <= t) {
                    st.q.push_back(e);
                    return;
                }
            } else if self.streams.len() < STREAMS {
                let mut q = std::collections::VecDeque::new();
                q.push_back(e);
                self.streams.push(Stream {
                    priority: p,
                    delay,
                    q,
                });
                return;
            }
        }
        self.heap.push(e);
    }

    /// Plan the next `Finish` at `t`, replacing the one pending, or none.
    /// It takes its place in the same-instant order as if scheduled now.
    pub fn reschedule_finish(&mut self, t: Option<u64>, ev: Ev) {
        self.finish = t.map(|t| {
            self.seq += 1;
            Entry {
                t,
                order: (ev.priority() << 56) | (self.seq & ((1 << 56) - 1)),
                ev,
            }
        });
    }

    /// The source of the earliest event by `(time, order)`.
    fn next(&self) -> Option<(u64, Source)> {
        let mut best: Option<(u64, u64, Source)> = None;
        let mut consider = |t: u64, order: u64, src: Source| {
            if best.is_none_or(|(bt, bo, _)| (t, order) < (bt, bo)) {
                best = Some((t, order, src));
            }
        };
        if self.mask != 0 {
            let p = self.mask.trailing_zeros() as usize;
            if let Some(e) = self.lanes[p].front() {
                consider(e.t, e.order, Source::Lane(p));
            }
        }
        if let Some(e) = self.heap.peek() {
            consider(e.t, e.order, Source::Heap);
        }
        for (i, st) in self.streams.iter().enumerate() {
            if let Some(e) = st.q.front() {
                consider(e.t, e.order, Source::Stream(i));
            }
        }
        if let Some(e) = &self.finish {
            consider(e.t, e.order, Source::Finish);
        }
        best.map(|(t, _, src)| (t, src))
    }

    pub fn peek_time(&self) -> Option<u64> {
        self.next().map(|(t, _)| t)
    }

    pub fn pop(&mut self) -> Option<(u64, Ev)> {
        self.pop_before(u64::MAX)
    }

    /// The earliest event if it falls before `end`; otherwise it stays.
    pub fn pop_before(&mut self, end: u64) -> Option<(u64, Ev)> {
        let (t, src) = self.next()?;
        if t >= end {
            return None;
        }
        let e = match src {
            Source::Lane(p) => {
                let e = self.lanes[p].pop_front()?;
                if self.lanes[p].is_empty() {
                    self.mask &= !(1 << p);
                }
                e
            }
            Source::Heap => self.heap.pop()?,
            Source::Stream(i) => self.streams[i].q.pop_front()?,
            Source::Finish => self.finish.take()?,
        };
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

    #[test]
    fn a_rescheduled_finish_replaces_the_pending_one() {
        let mut c = Clock::default();
        c.reschedule_finish(Some(50), Ev::Finish { generation: 1 });
        c.schedule(40, Ev::Tick { delivery: 0 });
        c.reschedule_finish(Some(40), Ev::Finish { generation: 2 });
        c.schedule(40, Ev::Finish { generation: 9 });
        // Same instant: Finish before Tick (by kind), then by schedule order.
        let order: Vec<_> = std::iter::from_fn(|| c.pop()).collect();
        assert_eq!(
            order,
            vec![
                (40, Ev::Finish { generation: 2 }),
                (40, Ev::Finish { generation: 9 }),
                (40, Ev::Tick { delivery: 0 }),
            ]
        );
        c.reschedule_finish(Some(60), Ev::Finish { generation: 3 });
        c.reschedule_finish(None, Ev::Finish { generation: 4 });
        assert_eq!(c.pop(), None);
    }

    /// The lanes and streams are shortcuts: over a random schedule (events
    /// scheduled while popping, at the current instant, at a few constant
    /// delays and at random times) the clock pops exactly what a plain heap
    /// ordered by `(time, priority, sequence)` pops.
    #[test]
    fn pops_in_the_same_order_as_a_plain_heap() {
        use rand::{RngExt, SeedableRng};
        let kinds = |k: u32, x: u32| match k % 5 {
            0 => Ev::Expiry {
                message: x,
                receipt: 1,
            },
            1 => Ev::Call {
                worker: x,
                epoch: 0,
                call: Call::Receive { want: 1 },
            },
            2 => Ev::Finish {
                generation: u64::from(x),
            },
            3 => Ev::Tick { delivery: x },
            _ => Ev::Reply {
                worker: x,
                epoch: 0,
                reply: Reply::Released { delivery: x },
            },
        };
        for seed in 0..50u64 {
            let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(seed);
            let mut c = Clock::default();
            let mut reference: BinaryHeap<Entry> = BinaryHeap::new();
            let (mut seq, mut now) = (0u64, 0u64);
            let mut schedule = |c: &mut Clock, r: &mut BinaryHeap<Entry>, t: u64, ev: Ev| {
                seq += 1;
                c.schedule(t, ev);
                r.push(Entry {
                    t,
                    order: (ev.priority() << 56) | seq,
                    ev,
                });
            };
            for step in 0..3_000u32 {
                let n = rng.random_range(0..3u32);
                for _ in 0..n {
                    let k: u32 = rng.random_range(0..5);
                    let dt = match rng.random_range(0..4u32) {
                        0 => 0,
                        1 => [100, 2_000, 30_000][rng.random_range(0..3usize)],
                        2 => [7, 13][rng.random_range(0..2usize)],
                        _ => rng.random_range(0..40_000u64),
                    };
                    schedule(&mut c, &mut reference, now + dt, kinds(k, step));
                }
                match (c.pop(), reference.pop()) {
                    (Some(a), Some(b)) => {
                        assert_eq!(a, (b.t, b.ev), "seed {seed} step {step}");
                        now = a.0;
                    }
                    (None, None) => {}
                    other => panic!("seed {seed} step {step}: {other:?}"),
                }
            }
        }
    }
}
