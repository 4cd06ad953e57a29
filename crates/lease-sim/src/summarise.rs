//! Cutting a large run down to what the page can hold (issue "Scale and
//! speed"): a 1,000,000-message run is computed in a Web Worker, and the page
//! receives its first stretch in full plus every message's outcome in two
//! compact columns. The cut is at one instant: the deliveries, marks, worker
//! marks and log entries kept are exactly the run's before `kept_until_ms`.
//! The report, `end_ms` and the scenario still describe the whole run.
//!
//! Messages are kept by another rule: the records of the messages with an id
//! at most the highest message id any kept delivery names (ids are in
//! arrival order, so this is a prefix), and none when no delivery is kept.
//! Those are the messages the kept timeline can show. Cutting messages at
//! the instant instead would keep every message of a backlog, since a
//! backlog arrives at t = 0: a million records the page never draws, and
//! about 85 ms of decoding on its main thread. Every message's outcome is
//! still in `Summarised::fates` and `receive_counts`. The kept log follows
//! the kept messages: it is the run's log before the cut without the
//! entries of messages past the kept ones (a million-message backlog logs a
//! million `Arrive`s at t = 0, which would be most of what the page keeps).

use serde::Serialize;

use crate::run::{DeadLetterCause, Fate, Run};

/// How much of a run `Run::summarise` keeps in full.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SummaryLimits {
    /// Deliveries (bars of the timeline) kept at most.
    pub deliveries: usize,
    /// Stored log entries kept at most.
    pub events: usize,
}

/// `fates` codes. One byte per message: a 1M-message run's outcomes in 1 MB.
pub const FATE_DELETED: u8 = 0;
pub const FATE_DEAD_LETTERED_EXPIRED: u8 = 1;
pub const FATE_DEAD_LETTERED_FAILED: u8 = 2;
pub const FATE_AVAILABLE: u8 = 3;
pub const FATE_IN_FLIGHT: u8 = 4;
pub const FATE_DROPPED_EXPIRED: u8 = 5;
pub const FATE_DROPPED_FAILED: u8 = 6;
pub const FATE_STAYED_EXPIRED: u8 = 7;
pub const FATE_STAYED_FAILED: u8 = 8;
/// How many `fates` codes there are: every code is below it.
pub const FATE_CODES: u8 = 9;

/// The `fates` code of a message's fate (the time is left out).
pub fn fate_code(f: &Fate) -> u8 {
    match f {
        Fate::Deleted { .. } => FATE_DELETED,
        Fate::DeadLettered {
            cause: DeadLetterCause::Expired,
            ..
        } => FATE_DEAD_LETTERED_EXPIRED,
        Fate::DeadLettered {
            cause: DeadLetterCause::Failed,
            ..
        } => FATE_DEAD_LETTERED_FAILED,
        Fate::Available => FATE_AVAILABLE,
        Fate::InFlight => FATE_IN_FLIGHT,
        Fate::Dropped {
            cause: DeadLetterCause::Expired,
            ..
        } => FATE_DROPPED_EXPIRED,
        Fate::Dropped {
            cause: DeadLetterCause::Failed,
            ..
        } => FATE_DROPPED_FAILED,
        Fate::Stayed {
            cause: DeadLetterCause::Expired,
            ..
        } => FATE_STAYED_EXPIRED,
        Fate::Stayed {
            cause: DeadLetterCause::Failed,
            ..
        } => FATE_STAYED_FAILED,
    }
}

/// What `Run::summarise` cut, and every message's outcome.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Summarised {
    /// The cut: the run keeps the deliveries received, and the marks, worker
    /// marks and events logged, strictly before it.
    pub kept_until_ms: u64,
    /// Counts before the cut (`events_total` counts entries the engine
    /// never stored too: `Options::keep_events`).
    pub events_total: u64,
    pub deliveries_total: u64,
    pub marks_total: u64,
    pub worker_marks_total: u64,
    pub messages_total: u64,
    /// Counts after the cut (the lengths of the run's vectors).
    pub events_kept: u64,
    pub deliveries_kept: u64,
    pub marks_kept: u64,
    pub worker_marks_kept: u64,
    /// Messages `0..messages_kept`: through the highest message id named by
    /// a kept delivery, none if no delivery is kept (see the module doc).
    /// Not the messages arrived before the cut: a backlog's million arrive
    /// at t = 0, and the page would decode a million records it never draws.
    pub messages_kept: u64,
    /// For every message of the run, by id: `FATE_DELETED` (0),
    /// `FATE_DEAD_LETTERED_EXPIRED` (1), `FATE_DEAD_LETTERED_FAILED` (2),
    /// `FATE_AVAILABLE` (3), `FATE_IN_FLIGHT` (4), `FATE_DROPPED_EXPIRED` (5),
    /// `FATE_DROPPED_FAILED` (6), `FATE_STAYED_EXPIRED` (7) or
    /// `FATE_STAYED_FAILED` (8).
    pub fates: Vec<u8>,
    /// For every message of the run, by id: how many times it was delivered.
    pub receive_counts: Vec<u32>,
}

/// How many messages ended each way (from `Summarised::fates`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FateCounts {
    pub deleted: u64,
    pub dead_lettered_expired: u64,
    pub dead_lettered_failed: u64,
    pub available: u64,
    pub in_flight: u64,
    /// Past the delivery limit and dropped, either cause.
    pub dropped: u64,
    /// Past the delivery limit and left in the stream, either cause.
    pub stayed: u64,
}

impl Summarised {
    pub fn dropped_events(&self) -> u64 {
        self.events_total - self.events_kept
    }

    pub fn dropped_deliveries(&self) -> u64 {
        self.deliveries_total - self.deliveries_kept
    }

    pub fn dropped_marks(&self) -> u64 {
        self.marks_total - self.marks_kept
    }

    pub fn dropped_messages(&self) -> u64 {
        self.messages_total - self.messages_kept
    }

    pub fn fate_counts(&self) -> FateCounts {
        let mut c = FateCounts::default();
        for &f in &self.fates {
            match f {
                FATE_DELETED => c.deleted += 1,
                FATE_DEAD_LETTERED_EXPIRED => c.dead_lettered_expired += 1,
                FATE_DEAD_LETTERED_FAILED => c.dead_lettered_failed += 1,
                FATE_AVAILABLE => c.available += 1,
                FATE_DROPPED_EXPIRED | FATE_DROPPED_FAILED => c.dropped += 1,
                FATE_STAYED_EXPIRED | FATE_STAYED_FAILED => c.stayed += 1,
                _ => c.in_flight += 1,
            }
        }
        c
    }
}

impl Run {
    /// Keep at most `limits.deliveries` deliveries and `limits.events` log
    /// entries, cutting every part at one instant (`Summarised::kept_until_ms`)
    /// so that what is kept is the run as it was before it, but for the
    /// messages: those through the highest one a kept delivery names are
    /// kept (see the module doc). Messages keep their whole record (fate,
    /// receive count) but list only kept deliveries; deliveries keep their
    /// whole record, except an `overlaps` naming a delivery that was cut. A
    /// run within the limits, with its whole log stored, is left as it is
    /// (`summarised` stays `None`). Summarising again only cuts further.
    pub fn summarise(&mut self, limits: SummaryLimits) {
        let mut cut: Option<u64> = None;
        let mut lower = |t: u64| cut = Some(cut.map_or(t, |c| c.min(t)));
        if let Some(d) = self.deliveries.get(limits.deliveries) {
            lower(d.received_at);
        }
        if let Some(t) = self.events.t(limits.events) {
            lower(t);
        }
        match &self.summarised {
            Some(s) => lower(s.kept_until_ms),
            // The engine stored a prefix (`keep_events`): every entry before
            // the last stored one's time is stored, so cut there.
            None if self.events.dropped() > 0 => lower(self.events.last().map_or(0, |e| e.t)),
            None => {}
        }
        let Some(until) = cut else {
            return;
        };
        debug_assert!(
            self.deliveries
                .windows(2)
                .all(|w| w[0].received_at <= w[1].received_at),
            "deliveries are recorded in receive order"
        );
        let totals = match self.summarised.take() {
            Some(s) => s,
            None => Summarised {
                kept_until_ms: until,
                events_total: self.events.total(),
                deliveries_total: self.deliveries.len() as u64,
                marks_total: self.marks.len() as u64,
                worker_marks_total: self.worker_marks.len() as u64,
                messages_total: self.messages.len() as u64,
                events_kept: 0,
                deliveries_kept: 0,
                marks_kept: 0,
                worker_marks_kept: 0,
                messages_kept: 0,
                fates: self.messages.iter().map(|m| fate_code(&m.fate)).collect(),
                receive_counts: self.messages.iter().map(|m| m.receive_count).collect(),
            },
        };

        let n = self.events.partition_point_t(|t| t < until);
        self.events.truncate(n);
        let kept = self.deliveries.partition_point(|d| d.received_at < until);
        self.deliveries.truncate(kept);
        // `overlaps` may name a later delivery: a twin received later but
        // started first (this one waited in a prefetch buffer). If the twin
        // was cut, this one started after the cut too; the link goes, so
        // that every index of the kept run points into it.
        for d in &mut self.deliveries {
            if d.overlaps.is_some_and(|o| o as usize >= kept) {
                d.overlaps = None;
            }
        }
        // A mark falls at or after its delivery's receive: every mark before
        // the cut belongs to a kept delivery.
        let n = self.marks.partition_point(|m| m.t < until);
        self.marks.truncate(n);
        let n = self.worker_marks.partition_point(|m| m.t < until);
        self.worker_marks.truncate(n);
        // The messages the kept deliveries name, and the ones between them:
        // ids are in arrival order, so a prefix. Every such message arrived
        // before the cut (before its delivery or a later-id message's).
        let n = self
            .deliveries
            .iter()
            .map(|d| d.message as usize + 1)
            .max()
            .unwrap_or(0)
            .min(self.messages.len());
        self.messages.truncate(n);
        let kept_messages = n as u32;
        self.events
            .retain(|e| e.message == crate::run::NONE || e.message < kept_messages);
        let kept = kept as u32;
        for m in &mut self.messages {
            // Indices grow along a message's list: the kept ones are a prefix.
            let n = m.deliveries.partition_point(|&d| d < kept);
            m.deliveries.truncate(n);
        }
        // Shrink, so that the run really holds less (the page keeps it).
        self.events.shrink_to_fit();
        self.deliveries.shrink_to_fit();
        self.marks.shrink_to_fit();
        self.worker_marks.shrink_to_fit();
        self.messages.shrink_to_fit();

        self.summarised = Some(Summarised {
            kept_until_ms: until,
            events_kept: self.events.len() as u64,
            deliveries_kept: self.deliveries.len() as u64,
            marks_kept: self.marks.len() as u64,
            worker_marks_kept: self.worker_marks.len() as u64,
            messages_kept: self.messages.len() as u64,
            ..totals
        });
    }
}
