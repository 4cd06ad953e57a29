//! The event log, stored by column: one vector per field of `Event`, 17
//! bytes an entry instead of the 24 of a `Vec<Event>` (a u64 time and the
//! padding after the kind). A million-message run logs millions of events,
//! so this is most of what a run holds; columns are also what the page and
//! the run's transport (`lease-wire`) want to read.

use serde::ser::{Serialize, SerializeSeq, Serializer};

use crate::run::{Event, EventKind};
use crate::validate::MAX_DURATION_MS;

// Times are stored as u32 ms: every event falls within the run, and a run
// lasts at most `MAX_DURATION_MS` (one day, about 2^26 ms), far below 2^32.
const _: () = assert!(MAX_DURATION_MS <= u32::MAX as u64);

/// The event log of a run, in time order. `get` and `iter` give `Event`
/// values; the column accessors (`ts`, `kinds`, ...) give the raw columns.
///
/// A log may hold fewer entries than the run logged: `Options::keep_events`
/// or `Run::summarise` stop storing after a prefix. `dropped` counts the
/// entries logged but not stored, so `total()` is always the run's count.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EventLog {
    t: Vec<u32>,
    kind: Vec<EventKind>,
    message: Vec<u32>,
    worker: Vec<u32>,
    receipt: Vec<u32>,
    dropped: u64,
}

impl EventLog {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn with_capacity(n: usize) -> Self {
        EventLog {
            t: Vec::with_capacity(n),
            kind: Vec::with_capacity(n),
            message: Vec::with_capacity(n),
            worker: Vec::with_capacity(n),
            receipt: Vec::with_capacity(n),
            dropped: 0,
        }
    }

    /// Build a log from its columns; `None` unless they have one length.
    pub fn from_columns(
        t: Vec<u32>,
        kind: Vec<EventKind>,
        message: Vec<u32>,
        worker: Vec<u32>,
        receipt: Vec<u32>,
        dropped: u64,
    ) -> Option<Self> {
        let n = t.len();
        (kind.len() == n && message.len() == n && worker.len() == n && receipt.len() == n)
            .then_some(EventLog {
                t,
                kind,
                message,
                worker,
                receipt,
                dropped,
            })
    }

    /// Stored entries.
    pub fn len(&self) -> usize {
        self.t.len()
    }

    pub fn is_empty(&self) -> bool {
        self.t.is_empty()
    }

    /// Entries logged but not stored (`Options::keep_events`, `Run::summarise`).
    pub fn dropped(&self) -> u64 {
        self.dropped
    }

    /// Every entry the run logged, stored or not: `Totals::events`.
    pub fn total(&self) -> u64 {
        self.len() as u64 + self.dropped
    }

    /// Append an entry. Panics if `e.t` does not fit in 32 bits, which no
    /// run can produce (see `MAX_DURATION_MS`).
    #[inline]
    pub fn push(&mut self, e: Event) {
        let t = u32::try_from(e.t).expect("event times fit in u32: runs last at most one day");
        self.t.push(t);
        self.kind.push(e.kind);
        self.message.push(e.message);
        self.worker.push(e.worker);
        self.receipt.push(e.receipt);
    }

    /// Count an entry without storing it.
    #[inline]
    pub fn count_dropped(&mut self) {
        self.dropped += 1;
    }

    /// Keep the first `n` stored entries; the rest count as dropped.
    pub fn truncate(&mut self, n: usize) {
        let cut = self.len().saturating_sub(n) as u64;
        self.t.truncate(n);
        self.kind.truncate(n);
        self.message.truncate(n);
        self.worker.truncate(n);
        self.receipt.truncate(n);
        self.dropped += cut;
    }

    /// Keep the stored entries `keep` accepts, in order; the rest count as dropped.
    pub fn retain(&mut self, keep: impl Fn(Event) -> bool) {
        let mut w = 0;
        for r in 0..self.len() {
            let e = self.get(r).expect("r < len");
            if keep(e) {
                self.t[w] = self.t[r];
                self.kind[w] = self.kind[r];
                self.message[w] = self.message[r];
                self.worker[w] = self.worker[r];
                self.receipt[w] = self.receipt[r];
                w += 1;
            }
        }
        self.truncate(w);
    }

    /// Give back spare capacity (after `truncate`).
    pub fn shrink_to_fit(&mut self) {
        self.t.shrink_to_fit();
        self.kind.shrink_to_fit();
        self.message.shrink_to_fit();
        self.worker.shrink_to_fit();
        self.receipt.shrink_to_fit();
    }

    #[inline]
    pub fn get(&self, i: usize) -> Option<Event> {
        Some(Event {
            t: u64::from(*self.t.get(i)?),
            kind: self.kind[i],
            message: self.message[i],
            worker: self.worker[i],
            receipt: self.receipt[i],
        })
    }

    /// The time of entry `i`, if stored.
    #[inline]
    pub fn t(&self, i: usize) -> Option<u64> {
        self.t.get(i).map(|&t| u64::from(t))
    }

    pub fn first(&self) -> Option<Event> {
        self.get(0)
    }

    /// The last stored entry.
    pub fn last(&self) -> Option<Event> {
        self.len().checked_sub(1).and_then(|i| self.get(i))
    }

    pub fn iter(&self) -> Iter<'_> {
        Iter {
            log: self,
            front: 0,
            back: self.len(),
        }
    }

    /// The first index whose entry is not `pred` (the log must be
    /// partitioned by it, as any test of time is): see `slice::partition_point`.
    pub fn partition_point(&self, mut pred: impl FnMut(Event) -> bool) -> usize {
        let (mut lo, mut hi) = (0, self.len());
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if pred(self.get(mid).expect("mid < len")) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        lo
    }

    /// `partition_point` over the time column alone (the common case: "the
    /// entries up to t").
    pub fn partition_point_t(&self, mut pred: impl FnMut(u64) -> bool) -> usize {
        self.t.partition_point(|&t| pred(u64::from(t)))
    }

    /// Time column, in ms.
    pub fn ts(&self) -> &[u32] {
        &self.t
    }

    pub fn kinds(&self) -> &[EventKind] {
        &self.kind
    }

    pub fn messages(&self) -> &[u32] {
        &self.message
    }

    pub fn workers(&self) -> &[u32] {
        &self.worker
    }

    pub fn receipts(&self) -> &[u32] {
        &self.receipt
    }

    /// Heap bytes the stored columns use (lengths, not capacities).
    pub fn heap_bytes(&self) -> usize {
        self.len() * BYTES_PER_EVENT
    }
}

/// Stored bytes per entry: t u32, kind u8, message, worker and receipt u32.
pub const BYTES_PER_EVENT: usize = 4 + 1 + 4 + 4 + 4;

/// `EventLog::iter`: entries by value, from either end.
#[derive(Debug, Clone)]
pub struct Iter<'a> {
    log: &'a EventLog,
    front: usize,
    back: usize,
}

impl Iterator for Iter<'_> {
    type Item = Event;

    #[inline]
    fn next(&mut self) -> Option<Event> {
        if self.front == self.back {
            return None;
        }
        let e = self.log.get(self.front);
        self.front += 1;
        e
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.back - self.front;
        (n, Some(n))
    }
}

impl DoubleEndedIterator for Iter<'_> {
    fn next_back(&mut self) -> Option<Event> {
        if self.front == self.back {
            return None;
        }
        self.back -= 1;
        self.log.get(self.back)
    }
}

impl ExactSizeIterator for Iter<'_> {}

impl<'a> IntoIterator for &'a EventLog {
    type Item = Event;
    type IntoIter = Iter<'a>;

    fn into_iter(self) -> Iter<'a> {
        self.iter()
    }
}

impl FromIterator<Event> for EventLog {
    fn from_iter<I: IntoIterator<Item = Event>>(it: I) -> Self {
        let mut log = EventLog::new();
        for e in it {
            log.push(e);
        }
        log
    }
}

/// As a JSON array of event objects, exactly as the `Vec<Event>` it replaced.
impl Serialize for EventLog {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(self.len()))?;
        for e in self.iter() {
            seq.serialize_element(&e)?;
        }
        seq.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::run::NONE;

    fn ev(t: u64, kind: EventKind, message: u32) -> Event {
        Event {
            t,
            kind,
            message,
            worker: NONE,
            receipt: 1,
        }
    }

    #[test]
    fn the_log_gives_back_what_was_pushed() {
        let events = vec![
            ev(0, EventKind::Arrive, 0),
            ev(5, EventKind::Receive, 0),
            ev(5, EventKind::Start, 0),
            ev(86_400_000, EventKind::AckOk, 0),
        ];
        let log: EventLog = events.iter().copied().collect();
        assert_eq!(log.len(), 4);
        assert_eq!(log.iter().collect::<Vec<_>>(), events);
        assert_eq!(log.iter().rev().collect::<Vec<_>>().len(), 4);
        assert_eq!(log.iter().next_back(), Some(events[3]));
        assert_eq!(log.last(), Some(events[3]));
        assert_eq!(log.get(4), None);
        assert_eq!(log.t(1), Some(5));
        assert_eq!(log.partition_point_t(|t| t <= 5), 3);
        assert_eq!(log.partition_point(|e| e.t < 5), 1);
        assert_eq!(
            serde_json::to_string(&log).unwrap(),
            serde_json::to_string(&events).unwrap()
        );
    }

    #[test]
    fn truncating_counts_the_cut_entries_as_dropped() {
        let mut log: EventLog = (0..10)
            .map(|i| ev(i, EventKind::Arrive, i as u32))
            .collect();
        log.count_dropped();
        log.truncate(4);
        assert_eq!((log.len(), log.dropped(), log.total()), (4, 7, 11));
    }

    #[test]
    fn an_entry_takes_seventeen_bytes() {
        assert_eq!(size_of::<EventKind>(), 1);
        assert_eq!(BYTES_PER_EVENT, 17);
    }
}
