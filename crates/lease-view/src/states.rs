//! A message's state over time for the Messages view, derived from its
//! deliveries and fate (the broker's view: available, in flight, deleted,
//! dead-lettered), never re-simulated.

use lease_sim::run::{DeadLetterCause, Fate, Run};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum State {
    Available,
    /// Leased to a worker: running or waiting in its buffer.
    InFlight {
        delivery: u32,
    },
    Deleted,
    DeadLettered(DeadLetterCause),
    /// Past the delivery limit and gone.
    Dropped(DeadLetterCause),
    /// Past the delivery limit, left in the stream and delivered no more.
    Stayed(DeadLetterCause),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Segment {
    pub from: u64,
    pub to: u64,
    pub state: State,
}

/// Segments of message `m` from its arrival, cut at `upto_ms`. Deleted and
/// dead-lettered run to the end of the run so the row says where it went.
pub fn message_states(run: &Run, m: u32, upto_ms: u64) -> Vec<Segment> {
    let mut out = Vec::new();
    let Some(msg) = run.messages.get(m as usize) else {
        return out;
    };
    let end = run.end_ms.min(upto_ms);
    let mut push = |from: u64, to: u64, state: State| {
        let to = to.min(end);
        if from < to {
            out.push(Segment { from, to, state });
        }
    };
    let mut cursor = msg.arrived_at;
    for &ix in &msg.deliveries {
        let Some(d) = run.deliveries.get(ix as usize) else {
            continue;
        };
        if d.received_at > end {
            break;
        }
        if d.received_at > cursor {
            push(cursor, d.received_at, State::Available);
        }
        push(
            d.received_at,
            d.lease_ended_at,
            State::InFlight { delivery: ix },
        );
        cursor = cursor.max(d.lease_ended_at);
    }
    let (settled_at, settled) = match msg.fate {
        Fate::Deleted { at } => (at, Some(State::Deleted)),
        Fate::DeadLettered { at, cause } => (at, Some(State::DeadLettered(cause))),
        Fate::Dropped { at, cause } => (at, Some(State::Dropped(cause))),
        Fate::Stayed { at, cause } => (at, Some(State::Stayed(cause))),
        Fate::Available | Fate::InFlight => (run.end_ms, None),
    };
    if settled_at > cursor {
        push(cursor, settled_at, State::Available);
    }
    if let Some(state) = settled {
        if settled_at <= end {
            push(settled_at, run.end_ms.max(settled_at + 1), state);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixture;

    #[test]
    fn the_ninety_second_message_is_in_flight_twice_then_deleted() {
        let run = fixture::ninety_second_message();
        let s = message_states(&run, 0, u64::MAX);
        assert_eq!(
            s,
            vec![
                Segment {
                    from: 0,
                    to: 60_000,
                    state: State::InFlight { delivery: 0 }
                },
                Segment {
                    from: 60_000,
                    to: 150_000,
                    state: State::InFlight { delivery: 1 }
                },
            ]
        );
    }

    #[test]
    fn a_dead_lettered_message_waits_then_sits_in_the_dead_letter_queue() {
        let run = fixture::buffered_and_expired();
        let s = message_states(&run, 1, u64::MAX);
        assert_eq!(
            s,
            vec![
                Segment {
                    from: 0,
                    to: 30_000,
                    state: State::InFlight { delivery: 1 }
                },
                Segment {
                    from: 30_000,
                    to: 50_000,
                    state: State::Available
                },
                Segment {
                    from: 50_000,
                    to: 60_000,
                    state: State::InFlight { delivery: 2 }
                },
                Segment {
                    from: 60_000,
                    to: 100_000,
                    state: State::DeadLettered(DeadLetterCause::Failed)
                },
            ]
        );
    }

    #[test]
    fn the_playhead_cuts_the_story_short() {
        let run = fixture::buffered_and_expired();
        let s = message_states(&run, 1, 40_000);
        assert_eq!(
            s,
            vec![
                Segment {
                    from: 0,
                    to: 30_000,
                    state: State::InFlight { delivery: 1 }
                },
                Segment {
                    from: 30_000,
                    to: 40_000,
                    state: State::Available
                },
            ]
        );
    }
}
