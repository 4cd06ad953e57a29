//! The available messages, oldest first: by the time each last became
//! available, then by id (docs/MODEL.md, "Oldest first"); or by arrival for SQS FIFO's
//! single message group; or, SQS standard's best effort, a seeded pick
//! among them, each as likely as any other.
//!
//! Messages only ever become available "now", and time never goes back, so
//! in time order the queue is a deque: a push lands at the back, behind at
//! most a few entries of the same instant with higher ids. That keeps a
//! backlog of a million messages at O(1) per receive instead of a heap's
//! O(log n). Entries for messages deleted or dead-lettered meanwhile stay
//! and are skipped when they reach the front.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};

use rand::RngExt;
use rand_pcg::Pcg64Mcg;

#[derive(Debug)]
pub(crate) enum Available {
    ByTime(VecDeque<(u64, u32)>),
    ByArrival(BinaryHeap<Reverse<u32>>),
    /// Any entry, picked by the run's own stream of draws.
    Random(Vec<u32>, Box<Pcg64Mcg>),
}

impl Available {
    pub fn new(fifo: bool) -> Self {
        if fifo {
            Available::ByArrival(BinaryHeap::new())
        } else {
            Available::ByTime(VecDeque::new())
        }
    }

    /// A pick among the entries, each as likely, drawn from `rng`.
    pub fn random(rng: Pcg64Mcg) -> Self {
        Available::Random(Vec::new(), Box::new(rng))
    }

    pub fn push(&mut self, now: u64, id: u32) {
        match self {
            Available::ByTime(q) => {
                let mut at = q.len();
                while at > 0 && q[at - 1].0 == now && q[at - 1].1 > id {
                    at -= 1;
                }
                q.insert(at, (now, id));
            }
            Available::ByArrival(h) => h.push(Reverse(id)),
            Available::Random(v, _) => v.push(id),
        }
    }

    /// Queue `ids` ahead of every entry, in this order: BullMQ's stalled
    /// checker `RPUSH`es a job onto the end of the wait list that
    /// `moveToActive` pops (`RPOPLPUSH`). An SQS FIFO group or a random
    /// pick keeps its own order.
    pub fn push_head(&mut self, now: u64, ids: &[u32]) {
        match self {
            // Time 0 ahead of everything; a later push at `now` > 0 never
            // sorts among them.
            Available::ByTime(q) => {
                for &id in ids.iter().rev() {
                    q.push_front((0, id));
                }
            }
            _ => {
                for &id in ids {
                    self.push(now, id);
                }
            }
        }
    }

    pub fn pop(&mut self) -> Option<u32> {
        match self {
            Available::ByTime(q) => q.pop_front().map(|e| e.1),
            Available::ByArrival(h) => h.pop().map(|e| e.0),
            // A stale entry picked is skipped by the caller, which picks
            // again: still each remaining entry as likely.
            Available::Random(v, rng) => {
                if v.is_empty() {
                    return None;
                }
                let i = rng.random_range(0..v.len());
                Some(v.swap_remove(i))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_instant_entries_go_by_id_and_earlier_times_first() {
        let mut q = Available::new(false);
        q.push(0, 3);
        q.push(5, 9);
        q.push(5, 4);
        q.push(5, 7);
        q.push(6, 1);
        let order: Vec<u32> = std::iter::from_fn(|| q.pop()).collect();
        assert_eq!(order, vec![3, 4, 7, 9, 1]);
    }

    #[test]
    fn entries_pushed_at_the_head_go_first_in_their_order() {
        let mut q = Available::new(false);
        q.push(0, 3);
        q.push(5, 9);
        q.push_head(7, &[8, 2]);
        q.push(7, 1);
        let order: Vec<u32> = std::iter::from_fn(|| q.pop()).collect();
        assert_eq!(order, vec![8, 2, 3, 9, 1]);
    }

    #[test]
    fn fifo_group_goes_by_arrival() {
        let mut q = Available::new(true);
        for id in [5, 2, 8] {
            q.push(100, id);
        }
        let order: Vec<u32> = std::iter::from_fn(|| q.pop()).collect();
        assert_eq!(order, vec![2, 5, 8]);
    }
}
