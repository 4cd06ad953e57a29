//! What a run records: the event log, one record per delivery (a "run" of a
//! handler, the bars of the timeline), marks on those deliveries, per-message
//! fates, and the report. The page only reads these; it never re-implements a
//! rule.

use serde::Serialize;

use crate::log::EventLog;
use crate::report::Report;
use crate::scenario::Scenario;
use crate::summarise::Summarised;

/// Index into `Run::deliveries`.
pub type DeliveryIx = u32;
/// Message id: 0, 1, 2, ... in arrival order (the backlog first, in id order).
pub type MessageId = u32;
/// Worker index, `0..workers.count`. A restarted worker keeps its index.
pub type WorkerId = u32;

/// Stands for "no message / no worker / no receipt" in an `Event`.
pub const NONE: u32 = u32::MAX;

/// One entry of the event log; fields that do not apply hold `NONE`. The
/// run stores these by column (`EventLog`, 17 bytes an entry).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Event {
    pub t: u64,
    pub kind: EventKind,
    pub message: MessageId,
    pub worker: WorkerId,
    pub receipt: u32,
}

/// One byte (`repr(u8)`): the log stores it as is, `log_hash` and the wire
/// format write `kind as u8`, so the order of the variants is fixed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
#[repr(u8)]
pub enum EventKind {
    Arrive,
    /// The broker hands the message out: a new lease and receipt.
    Receive,
    /// A handler starts (after a buffer wait, if prefetched).
    Start,
    ExtendOk,
    ExtendRejected,
    /// The lease ran out without an accepted ack.
    Expire,
    /// The handler's work completed.
    Finish,
    /// The handler failed (error_rate).
    Error,
    /// The handler hangs for ever (hang_rate), still heartbeating.
    Hang,
    /// `on_reject: abort` stopped the handler.
    Abort,
    /// `check_then_write` found the id at start: no work, ack at once.
    Skip,
    CommitApplied,
    /// Applied, but the message already had an effect.
    CommitDuplicate,
    /// Applied over a commit made after this run's read: also a duplicate.
    CommitLostUpdate,
    CommitFenceRejected,
    AckOk,
    AckRejected,
    Release,
    ReleaseRejected,
    DeadLetterExpired,
    DeadLetterFailed,
    Crash,
    Restart,
    Pause,
    Resume,
    /// An ack of a message already deleted, answered as a success that
    /// does nothing (`deleted_ack: no_op`): nothing is left to settle.
    AckNoOp,
    /// Past the delivery limit with `past_limit: drop`: the message is gone.
    Dropped,
    /// Past the delivery limit with `past_limit: stay`: delivered no more,
    /// left in the stream; the broker publishes an advisory (JetStream's
    /// `MAX_DELIVERIES`).
    MaxDeliveries,
    /// An ack the client cannot send: the broker closed the channel its
    /// delivery came on (`expiry_takes: channel`). A rejected ack that
    /// never reached the broker.
    AckUnsent,
}

/// How a delivery's lease ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LeaseEnd {
    Acked,
    /// Accepted late under `late_ack: accepted_if_not_redelivered`.
    AckedLate,
    Released,
    Expired,
    /// Still held when the run stopped.
    Open,
}

/// What the handler of a delivery did, as the worker saw it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// Committed (whatever the fence said) and the ack was accepted.
    Acked,
    /// Committed, then the ack did not take: rejected, or lost on its way
    /// (a run's `lose_ack` override). The effect already landed.
    AckRejected,
    /// The handler errored and released (or let the lease run out).
    Error,
    Hung,
    Aborted,
    /// `check_then_write` found the id at start.
    Skipped,
    /// The worker crashed while holding it (running or buffered).
    Crashed,
    /// Leased but never started: the lease expired in the local buffer and
    /// the run ended, or it is still buffered.
    NeverStarted,
    /// Still running, settling or buffered when the run stopped.
    Unfinished,
    /// Committed, then acked after the message was already deleted; the
    /// broker answered it as a success that does nothing
    /// (`deleted_ack: no_op`). The effect already landed.
    AckNoOp,
}

/// What the run's commit did to the store.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Effect {
    /// No commit was made.
    NoCommit,
    /// The message's first effect.
    Applied,
    /// A second (or later) effect of the same message.
    Duplicate,
    /// Applied over a concurrent commit made after this run's read.
    LostUpdate,
    /// Rejected by the fence (unique constraint or fencing token).
    FenceRejected,
}

/// One delivery of one message: a lease and, usually, a handler run.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Delivery {
    pub message: MessageId,
    /// 1, 2, 3, ... per message; also the fencing token.
    pub receipt: u32,
    pub worker: WorkerId,
    /// Handler slot within the worker, `0..concurrency`; `None` if never started.
    pub slot: Option<u32>,
    /// The broker hands it out: the lease starts.
    pub received_at: u64,
    /// The handler starts (later than `received_at + rpc` when it waited in the buffer).
    pub started_at: Option<u64>,
    /// The handler stops working: finish, error, abort, crash. `None`: it
    /// never started, hangs, or was still working when the run stopped.
    pub ended_at: Option<u64>,
    /// When the lease ended (`end_ms` of the run if still open). For an
    /// expired lease, when the broker noticed: on a periodic check this is
    /// later than `deadline`.
    pub lease_ended_at: u64,
    /// For a lease the broker took back past its deadline: that deadline
    /// (the receive plus the timeout, or the last extension's reset), at or
    /// before `lease_ended_at`; kept if a late ack is accepted since
    /// (`AckedLate`). `None` for a lease that ended otherwise, or
    /// that was taken back inside its deadline (with its channel, as an
    /// orphan).
    pub deadline: Option<u64>,
    pub lease_end: LeaseEnd,
    pub outcome: Outcome,
    pub effect: Effect,
    /// When the commit reached the store, if it did.
    pub committed_at: Option<u64>,
    /// Work done at full speed, in ms (progress accumulated).
    pub work_done_ms: u64,
    /// The work this attempt needed: intrinsic work times the attempt's jitter.
    pub work_needed_ms: u64,
    /// Another run of the same message that was executing when this one started.
    pub overlaps: Option<DeliveryIx>,
    pub extensions_ok: u32,
    pub extensions_rejected: u32,
}

/// A point on a delivery: a heartbeat, an ack or a release, accepted or not.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Mark {
    pub t: u64,
    pub delivery: DeliveryIx,
    pub kind: MarkKind,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MarkKind {
    ExtendOk,
    ExtendRejected,
    AckOk,
    AckRejected,
    Release,
    ReleaseRejected,
    Commit,
    /// An ack of a message already deleted, accepted with nothing to settle.
    AckNoOp,
}

/// A fault on a worker's lane.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct WorkerMark {
    pub t: u64,
    pub worker: WorkerId,
    pub kind: WorkerMarkKind,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum WorkerMarkKind {
    Crash,
    Restart,
    Pause,
    Resume,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DeadLetterCause {
    /// Receive count exhausted by lease expiry alone.
    Expired,
    /// Released after a handler error with the count exhausted.
    Failed,
}

/// Where a message ended up when the run stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum Fate {
    Deleted {
        at: u64,
    },
    DeadLettered {
        at: u64,
        cause: DeadLetterCause,
    },
    /// Past the delivery limit and gone (`past_limit: drop`).
    Dropped {
        at: u64,
        cause: DeadLetterCause,
    },
    /// Past the delivery limit, left in the stream and delivered no more
    /// (`past_limit: stay`); `at` is when the advisory was published.
    Stayed {
        at: u64,
        cause: DeadLetterCause,
    },
    Available,
    InFlight,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MessageRecord {
    pub arrived_at: u64,
    /// Intrinsic work at full speed, drawn once at arrival.
    pub work_ms: u64,
    pub receive_count: u32,
    /// Indices into `Run::deliveries`, in delivery order.
    pub deliveries: Vec<DeliveryIx>,
    pub effects: u32,
    pub fate: Fate,
}

/// A whole recorded run. Same scenario and seed: the same run, byte for byte.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Run {
    /// The scenario as given (before presets were applied).
    pub scenario: Scenario,
    /// Effective values the page labels its picture with.
    pub visibility_timeout_ms: u64,
    pub worker_count: u32,
    pub concurrency: u32,
    /// When the run stopped: `duration_ms`, the time limit, or when all was settled.
    pub end_ms: u64,
    /// Every event the run logged, or a prefix of them (`Options::keep_events`,
    /// `summarise`): `EventLog::total` is the whole count.
    pub events: EventLog,
    /// In receive-time order (a delivery is recorded when it is handed out).
    pub deliveries: Vec<Delivery>,
    /// Sorted by time.
    pub marks: Vec<Mark>,
    /// Sorted by time.
    pub worker_marks: Vec<WorkerMark>,
    pub messages: Vec<MessageRecord>,
    pub report: Report,
    /// Set by `summarise` when it cut the stored run to a prefix: what was
    /// cut, and every message's outcome. Absent from the JSON when `None`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub summarised: Option<Summarised>,
}

impl Run {
    /// Why the engine stopped this run before its end, if it did (the
    /// sentence of `Report::stopped`): the run outgrew its work budget.
    pub fn stopped(&self) -> Option<&str> {
        self.report.stopped.as_deref()
    }

    /// SHA-256 of the event log in a fixed little-endian layout (t, kind,
    /// message, worker, receipt): the determinism fingerprint that native and
    /// wasm32 runs must share.
    pub fn log_hash(&self) -> String {
        use sha2::{Digest, Sha256};
        let mut h = Sha256::new();
        // The layout of the `Vec<Event>` days (t as u64), so hashes pinned
        // then still hold.
        let mut buf = Vec::with_capacity(21 * 4096);
        let log = &self.events;
        let mut start = 0;
        while start < log.len() {
            let end = (start + 4096).min(log.len());
            buf.clear();
            for i in start..end {
                buf.extend_from_slice(&u64::from(log.ts()[i]).to_le_bytes());
                buf.push(log.kinds()[i] as u8);
                buf.extend_from_slice(&log.messages()[i].to_le_bytes());
                buf.extend_from_slice(&log.workers()[i].to_le_bytes());
                buf.extend_from_slice(&log.receipts()[i].to_le_bytes());
            }
            h.update(&buf);
            start = end;
        }
        h.finalize().iter().map(|b| format!("{b:02x}")).collect()
    }
}
