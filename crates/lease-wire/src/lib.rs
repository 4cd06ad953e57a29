//! Moving a run from the page's Web Worker to the page: `encode` and `decode`.
//!
//! The page decodes on its main thread, which must never block for more than
//! 50 ms, so decoding a summarised 1M-message run (100k deliveries, 1.5M log
//! entries, 100k message records, 1M per-message outcomes) must take a few
//! milliseconds (`examples/wire.rs` measures it). The large parts are
//! therefore columns of little-endian numbers, one per field: a column is
//! bounds-checked once, read whole with `as_chunks` + `from_le_bytes` (which
//! the compiler turns into a copy), and its enum codes or indices are
//! validated in one pass (a maximum, which vectorises) before the records are
//! built without a per-value `Result`. The event log's u32 columns and the
//! summary's receive counts are written at the narrowest width that holds
//! their values (`Writer::narrow32`) and widened back in one vectorised loop:
//! decoding is bound by memory traffic, and a summarised 1M run's log is
//! mostly small numbers.
//!
//! The scenario is JSON (serde_json, with the workspace's `float_roundtrip`
//! feature so that every f64 reads back to the same bits), read back with the
//! deserialiser the page already reads share links and files with
//! (`parse::parse_scenario_without_path`). The rest is binary, the report's
//! head too.
//!
//! Layout: `MAGIC`, `VERSION` (u32), the scenario's JSON (a u64 length + UTF-8
//! bytes), the head (`Head`'s fields in order: the totals as
//! `TOTALS_COUNTERS` u64 in `Totals::counters` order, an f64 as its bits, an
//! `Option` as a 0/1 flag before its value, text as a u64 length + UTF-8,
//! the receive counts as a count of (text, u64) rows), then events, deliveries,
//! marks, worker marks, messages, the series and the summary, each a u64 row
//! count followed by its columns (a narrow column starts with its width in
//! bytes). `None` is `u64::MAX` / `u32::MAX`, values no run produces (times
//! end within a day, slots and delivery indices are far below 2^32 - 1).
//!
//! `decode` never panics: short, long or garbage input, unknown enum codes
//! and indices out of range all give a `WireError`, so what it returns is as
//! safe to index as a run `simulate` made. One exception, as in any
//! summarised run: a log entry may name a message past `Run::messages` (see
//! `summarise`), so check before indexing messages by an entry's id.

use lease_sim::log::EventLog;
use lease_sim::report::{AckLatency, ReceiveCounts, Report, Series, Totals, TOTALS_COUNTERS};
use lease_sim::run::{
    DeadLetterCause, Delivery, Effect, EventKind, Fate, LeaseEnd, Mark, MarkKind, MessageRecord,
    Outcome, Run, WorkerMark, WorkerMarkKind,
};
use lease_sim::scenario::Scenario;
use lease_sim::summarise::{
    fate_code, Summarised, FATE_AVAILABLE, FATE_CODES, FATE_DEAD_LETTERED_EXPIRED,
    FATE_DEAD_LETTERED_FAILED, FATE_DELETED, FATE_DROPPED_EXPIRED, FATE_DROPPED_FAILED,
    FATE_STAYED_EXPIRED, FATE_STAYED_FAILED,
};

pub const MAGIC: &[u8; 8] = b"LEASERUN";
/// Bumped whenever the layout changes: a page and a worker of different
/// builds then refuse each other's bytes instead of misreading them.
/// 2: the head is JSON (was CBOR); narrow event and receive-count columns.
/// 3: the totals are u64 counters after the head, no longer in its JSON.
/// 4: the head is binary; JSON is left for the scenario alone.
/// 6: the series count messages dropped and left in the stream.
/// 7: deliveries carry the deadline an expired lease passed.
pub const VERSION: u32 = 7;

const NONE64: u64 = u64::MAX;
const NONE32: u32 = u32::MAX;

/// Why `decode` could not read a run.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WireError {
    #[error("not an encoded run: the bytes do not start with \"LEASERUN\"")]
    NotARun,
    #[error("encoded run version {found}, this build reads version {expected}")]
    Version { found: u32, expected: u32 },
    #[error("the encoded run ends early: {what} needs {need} bytes, {left} are left")]
    Truncated {
        what: &'static str,
        need: u64,
        left: usize,
    },
    #[error("the encoded run's scenario and report could not be read: {0}")]
    Head(String),
    #[error("the encoded run is inconsistent: {0}")]
    Invalid(String),
    #[error("the encoded run has {0} bytes after its end")]
    Trailing(usize),
}

/// The run's and the report's small parts, but the scenario (JSON of its
/// own, so that the page reads it with the scenario's own reader). Binary,
/// in this order (`VERSION` 7).
struct Head {
    visibility_timeout_ms: u64,
    worker_count: u32,
    concurrency: u32,
    end_ms: u64,
    name: String,
    seed: u64,
    totals: Totals,
    ack_latency_ms: AckLatency,
    receive_counts: ReceiveCounts,
    stopped: Option<String>,
    bucket_ms: u64,
}

pub fn encode(run: &Run) -> Vec<u8> {
    let mut w = Writer(Vec::with_capacity(encoded_size_hint(run)));
    w.0.extend_from_slice(MAGIC);
    w.u32(VERSION);

    let r = &run.report;
    // Plain data with string keys: serialising into memory cannot fail.
    let scenario = serde_json::to_string(&run.scenario).expect("a scenario serialises to JSON");
    w.text(&scenario);
    w.u64(run.visibility_timeout_ms);
    w.u32(run.worker_count);
    w.u32(run.concurrency);
    w.u64(run.end_ms);
    w.text(&r.name);
    w.u64(r.seed);
    for counter in r.totals.counters() {
        w.u64(counter);
    }
    let ack = &r.ack_latency_ms;
    w.u64(opt64(ack.p50));
    w.u64(opt64(ack.p99));
    w.u64(u64::from(ack.p99_over_timeout.is_some()));
    w.u64(ack.p99_over_timeout.unwrap_or(0.0).to_bits());
    w.u64(u64::from(ack.p99_of_lease.is_some()));
    w.u64(ack.p99_of_lease.unwrap_or(0.0).to_bits());
    w.u64(r.receive_counts.len() as u64);
    for (count, messages) in &r.receive_counts {
        w.text(count);
        w.u64(*messages);
    }
    w.u64(u64::from(r.stopped.is_some()));
    w.text(r.stopped.as_deref().unwrap_or(""));
    w.u64(r.series.bucket_ms);

    let e = &run.events;
    w.u64(e.len() as u64);
    w.u64(e.dropped());
    w.narrow32(e.ts());
    w.0.extend(e.kinds().iter().map(|&k| k as u8));
    w.narrow32(e.messages());
    w.narrow32(e.workers());
    w.narrow32(e.receipts());

    let d = &run.deliveries;
    w.u64(d.len() as u64);
    w.u32s(d.iter().map(|d| d.message));
    w.u32s(d.iter().map(|d| d.receipt));
    w.u32s(d.iter().map(|d| d.worker));
    w.u32s(d.iter().map(|d| opt32(d.slot)));
    w.u64s(d.iter().map(|d| d.received_at));
    w.u64s(d.iter().map(|d| opt64(d.started_at)));
    w.u64s(d.iter().map(|d| opt64(d.ended_at)));
    w.u64s(d.iter().map(|d| d.lease_ended_at));
    w.u64s(d.iter().map(|d| opt64(d.deadline)));
    w.0.extend(d.iter().map(|d| d.lease_end as u8));
    w.0.extend(d.iter().map(|d| d.outcome as u8));
    w.0.extend(d.iter().map(|d| d.effect as u8));
    w.u64s(d.iter().map(|d| opt64(d.committed_at)));
    w.u64s(d.iter().map(|d| d.work_done_ms));
    w.u64s(d.iter().map(|d| d.work_needed_ms));
    w.u32s(d.iter().map(|d| opt32(d.overlaps)));
    w.u32s(d.iter().map(|d| d.extensions_ok));
    w.u32s(d.iter().map(|d| d.extensions_rejected));

    let m = &run.marks;
    w.u64(m.len() as u64);
    w.u64s(m.iter().map(|m| m.t));
    w.u32s(m.iter().map(|m| m.delivery));
    w.0.extend(m.iter().map(|m| m.kind as u8));

    let m = &run.worker_marks;
    w.u64(m.len() as u64);
    w.u64s(m.iter().map(|m| m.t));
    w.u32s(m.iter().map(|m| m.worker));
    w.0.extend(m.iter().map(|m| m.kind as u8));

    let m = &run.messages;
    w.u64(m.len() as u64);
    w.u64s(m.iter().map(|m| m.arrived_at));
    w.u64s(m.iter().map(|m| m.work_ms));
    w.u32s(m.iter().map(|m| m.receive_count));
    w.u32s(m.iter().map(|m| m.effects));
    w.0.extend(m.iter().map(|m| fate_code(&m.fate)));
    w.u64s(m.iter().map(|m| match m.fate {
        Fate::Deleted { at }
        | Fate::DeadLettered { at, .. }
        | Fate::Dropped { at, .. }
        | Fate::Stayed { at, .. } => at,
        Fate::Available | Fate::InFlight => 0,
    }));
    w.u32s(m.iter().map(|m| m.deliveries.len() as u32));
    let listed: usize = m.iter().map(|m| m.deliveries.len()).sum();
    w.u64(listed as u64);
    w.put32(listed, m.iter().flat_map(|m| m.deliveries.iter().copied()));

    let s = &r.series;
    for v in Series::u64_columns(s) {
        w.u64(v.len() as u64);
        w.u64s(v.iter().copied());
    }
    for v in Series::f64_columns(s) {
        w.u64(v.len() as u64);
        w.u64s(v.iter().map(|x| x.to_bits()));
    }

    match &run.summarised {
        None => w.0.push(0),
        Some(s) => {
            w.0.push(1);
            for x in [
                s.kept_until_ms,
                s.events_total,
                s.deliveries_total,
                s.marks_total,
                s.worker_marks_total,
                s.messages_total,
                s.events_kept,
                s.deliveries_kept,
                s.marks_kept,
                s.worker_marks_kept,
                s.messages_kept,
            ] {
                w.u64(x);
            }
            w.u64(s.fates.len() as u64);
            w.0.extend_from_slice(&s.fates);
            w.u64(s.receive_counts.len() as u64);
            w.narrow32(&s.receive_counts);
        }
    }
    w.0
}

/// Reads a run that `encode` wrote, in one go.
pub fn decode(bytes: &[u8]) -> Result<Run, WireError> {
    let mut d = Decoding::new(bytes.to_vec());
    loop {
        if let Some(run) = d.step()? {
            return Ok(run);
        }
    }
}

/// Reading a run a part at a time (a small section whole, the event log a
/// column at a time, the deliveries and the messages a stretch of rows at a
/// time): the page takes a large run from its worker in many short tasks
/// rather than a few long ones (a browser counts a task over 50 ms as a
/// stall, and a wasm function run once, as a decoder is, runs in the
/// browser's quick first-tier code).
pub struct Decoding {
    bytes: Vec<u8>,
    pos: usize,
    head: Option<(Scenario, Head)>,
    /// The event log's columns, one a step, until the log is whole.
    event_columns: Option<EventColumns>,
    events: Option<EventLog>,
    /// The deliveries built so far: the section is built a stretch a step.
    delivery_rows: Vec<Delivery>,
    deliveries: Option<Vec<Delivery>>,
    marks: Option<(Vec<Mark>, Vec<WorkerMark>)>,
    /// The messages built so far, a stretch a step, and where the next
    /// one's delivery list starts in the flat list.
    message_rows: Vec<MessageRecord>,
    message_list_at: usize,
    messages: Option<Vec<MessageRecord>>,
}

/// Deliveries built in one step. A whole section was one step before: on
/// the 1,000,000-message run the page takes in (100,000 deliveries, 1,000,000
/// messages, 600,000 events) its steps took up to 27 ms on a quiet machine,
/// half of a 50 ms task; a busy one doubles that.
pub const DELIVERY_STRETCH: usize = 25_000;
/// Messages built in one step.
pub const MESSAGE_STRETCH: usize = 250_000;

/// The event log read so far: its count, its dropped total, the columns in
/// the order they are written.
struct EventColumns {
    n: usize,
    dropped: u64,
    t: Vec<u32>,
    kind: Option<Vec<EventKind>>,
    message: Option<Vec<u32>>,
    worker: Option<Vec<u32>>,
}

impl Decoding {
    pub fn new(bytes: Vec<u8>) -> Self {
        Decoding {
            bytes,
            pos: 0,
            head: None,
            event_columns: None,
            events: None,
            delivery_rows: Vec::new(),
            deliveries: None,
            marks: None,
            message_rows: Vec::new(),
            message_list_at: 0,
            messages: None,
        }
    }

    /// Reads the next part: a section, or a column or a stretch of rows of a
    /// large one. `Ok(Some(run))` after the last.
    pub fn step(&mut self) -> Result<Option<Run>, WireError> {
        let mut r = Reader {
            b: &self.bytes,
            pos: self.pos,
            err: None,
        };
        let done = if self.head.is_none() {
            self.head = Some(read_head(&mut r)?);
            None
        } else if self.events.is_none() {
            self.events = read_event_column(&mut r, &mut self.event_columns)?;
            None
        } else if self.deliveries.is_none() {
            if !read_deliveries(&mut r, &mut self.delivery_rows)? {
                // Not the section's end yet: the next step starts it again.
                return Ok(None);
            }
            self.deliveries = Some(std::mem::take(&mut self.delivery_rows));
            None
        } else if self.marks.is_none() {
            let n = self.deliveries.as_ref().map_or(0, Vec::len);
            self.marks = Some(read_marks(&mut r, n)?);
            None
        } else if self.messages.is_none() {
            let deliveries = self.deliveries.as_deref().unwrap_or_default();
            if !read_messages(
                &mut r,
                deliveries,
                &mut self.message_rows,
                &mut self.message_list_at,
            )? {
                return Ok(None);
            }
            self.messages = Some(std::mem::take(&mut self.message_rows));
            None
        } else {
            let Some((_, head)) = &self.head else {
                return Err(used_up());
            };
            let (series, summarised) = read_rest(&mut r, head.bucket_ms)?;
            if r.pos != self.bytes.len() {
                return Err(WireError::Trailing(self.bytes.len() - r.pos));
            }
            // One match of every part (set in order, so all there): one
            // drop of what was taken if not, where a `?` a part was one each.
            match (
                self.head.take(),
                self.events.take(),
                self.deliveries.take(),
                self.marks.take(),
                self.messages.take(),
            ) {
                (
                    Some((scenario, head)),
                    Some(events),
                    Some(deliveries),
                    Some((marks, worker_marks)),
                    Some(messages),
                ) => Some(assemble(
                    scenario,
                    head,
                    events,
                    deliveries,
                    marks,
                    worker_marks,
                    messages,
                    series,
                    summarised,
                )),
                _ => return Err(used_up()),
            }
        };
        self.pos = r.pos;
        Ok(done)
    }
}

fn used_up() -> WireError {
    WireError::Invalid("the run was already read".into())
}

fn read_head(r: &mut Reader) -> Result<(Scenario, Head), WireError> {
    if r.take(MAGIC.len(), "the header") != MAGIC.as_slice() {
        return Err(WireError::NotARun);
    }
    let version = r.u32("the version");
    r.check()?;
    if version != VERSION {
        return Err(WireError::Version {
            found: version,
            expected: VERSION,
        });
    }
    let json = r.text("the scenario");
    r.check()?;
    // Not validated: the run happened, whatever a later build's limits say.
    let scenario: Scenario =
        serde_json::from_str(json).map_err(|e| WireError::Head(format!("the scenario: {e}")))?;
    let visibility_timeout_ms = r.u64("the visibility timeout");
    let worker_count = r.u32("the worker count");
    let concurrency = r.u32("the concurrency");
    let end_ms = r.u64("the run's end");
    let name = r.text("the report's name").to_string();
    let seed = r.u64("the seed");
    let mut counters = [0; TOTALS_COUNTERS];
    for counter in &mut counters {
        *counter = r.u64("the report's totals");
    }
    let p50 = some64(r.u64("the ack latency"));
    let p99 = some64(r.u64("the ack latency"));
    let has_ratio = r.flag("the lease health ratio");
    let ratio = f64::from_bits(r.u64("the lease health ratio"));
    let has_share = r.flag("the ack p99 of its lease");
    let share = f64::from_bits(r.u64("the ack p99 of its lease"));
    // A count, then (text, u64) rows of at least 16 bytes each.
    let n = r.count(16, "the receive counts");
    let mut receive_counts = ReceiveCounts::new();
    for _ in 0..n {
        let count = r.text("a receive count").to_string();
        receive_counts.insert(count, r.u64("a receive count"));
    }
    let has_stopped = r.flag("why the run stopped");
    let stopped = r.text("why the run stopped");
    let bucket_ms = r.u64("the series' bucket");
    r.check()?;
    let head = Head {
        visibility_timeout_ms,
        worker_count,
        concurrency,
        end_ms,
        name,
        seed,
        totals: Totals::from_counters(counters),
        ack_latency_ms: AckLatency {
            p50,
            p99,
            p99_over_timeout: has_ratio.then_some(ratio),
            p99_of_lease: has_share.then_some(share),
        },
        receive_counts,
        stopped: has_stopped.then(|| stopped.to_string()),
        bucket_ms,
    };
    Ok((scenario, head))
}

/// The event log's next column; the log, once its last column is read.
fn read_event_column(
    r: &mut Reader,
    cols: &mut Option<EventColumns>,
) -> Result<Option<EventLog>, WireError> {
    let Some(c) = cols else {
        let n = r.count(5, "the event log");
        let dropped = r.u64("the event log");
        let t = r.narrow32(n, "event times");
        r.check()?;
        *cols = Some(EventColumns {
            n,
            dropped,
            t,
            kind: None,
            message: None,
            worker: None,
        });
        return Ok(None);
    };
    let n = c.n;
    if c.kind.is_none() {
        let kind = r.code_bytes(n, "event kinds", EVENT_KINDS.len());
        r.check()?;
        c.kind = Some(kind.iter().map(|&b| event_kind(b)).collect());
    } else if c.message.is_none() {
        let message = r.narrow32(n, "event messages");
        r.check()?;
        c.message = Some(message);
    } else if c.worker.is_none() {
        let worker = r.narrow32(n, "event workers");
        r.check()?;
        c.worker = Some(worker);
    } else {
        let receipt = r.narrow32(n, "event receipts");
        r.check()?;
        let c = cols.take().ok_or_else(used_up)?;
        let events = EventLog::from_columns(
            c.t,
            c.kind.unwrap_or_default(),
            c.message.unwrap_or_default(),
            c.worker.unwrap_or_default(),
            receipt,
            c.dropped,
        )
        .ok_or_else(|| WireError::Invalid("event columns differ in length".into()))?;
        return Ok(Some(events));
    }
    Ok(None)
}

/// Reads the deliveries' columns and builds the next stretch of rows into
/// `out`; true once `out` holds them all (and `r` is past the section).
fn read_deliveries(r: &mut Reader, out: &mut Vec<Delivery>) -> Result<bool, WireError> {
    let n = r.count(95, "the deliveries");
    let message = r.col32(n, "delivery messages");
    let receipt = r.col32(n, "delivery receipts");
    let worker = r.col32(n, "delivery workers");
    let slot = r.col32(n, "delivery slots");
    let received_at = r.col64(n, "delivery receive times");
    let started_at = r.col64(n, "delivery start times");
    let ended_at = r.col64(n, "delivery end times");
    let lease_ended_at = r.col64(n, "delivery lease ends");
    let deadline = r.col64(n, "delivery deadlines");
    let lease_ends = r.code_bytes(n, "delivery lease ends", LEASE_ENDS.len());
    let outcomes = r.code_bytes(n, "delivery outcomes", OUTCOMES.len());
    let effects = r.code_bytes(n, "delivery effects", EFFECTS.len());
    let committed_at = r.col64(n, "delivery commit times");
    let work_done_ms = r.col64(n, "delivery work done");
    let work_needed_ms = r.col64(n, "delivery work needed");
    let overlaps = r.col32(n, "delivery overlaps");
    let extensions_ok = r.col32(n, "delivery extensions");
    let extensions_rejected = r.col32(n, "delivery extensions rejected");
    // Past this check every column holds exactly n values.
    r.check()?;
    let from = out.len();
    if from == 0 {
        if let Some((i, o)) = overlaps
            .iter()
            .map(|&o| u32::from_le_bytes(o))
            .enumerate()
            .find(|&(i, o)| o != NONE32 && (o as usize >= n || o as usize == i))
        {
            return Err(WireError::Invalid(format!(
                "delivery {i} overlaps delivery {o} of {n}"
            )));
        }
        out.reserve_exact(n);
    }
    // The codes are checked; no index below is out of range (each column
    // holds n values and `to` is at most n).
    let to = n.min(from.saturating_add(DELIVERY_STRETCH));
    for i in from..to {
        out.push(Delivery {
            message: at32(message, i),
            receipt: at32(receipt, i),
            worker: at32(worker, i),
            slot: some32(at32(slot, i)),
            received_at: at64(received_at, i),
            started_at: some64(at64(started_at, i)),
            ended_at: some64(at64(ended_at, i)),
            lease_ended_at: at64(lease_ended_at, i),
            deadline: some64(at64(deadline, i)),
            lease_end: lease_end(at8(lease_ends, i)),
            outcome: outcome(at8(outcomes, i)),
            effect: effect(at8(effects, i)),
            committed_at: some64(at64(committed_at, i)),
            work_done_ms: at64(work_done_ms, i),
            work_needed_ms: at64(work_needed_ms, i),
            overlaps: some32(at32(overlaps, i)),
            extensions_ok: at32(extensions_ok, i),
            extensions_rejected: at32(extensions_rejected, i),
        });
    }
    Ok(to == n)
}

fn read_marks(
    r: &mut Reader,
    deliveries: usize,
) -> Result<(Vec<Mark>, Vec<WorkerMark>), WireError> {
    let n = r.count(13, "the marks");
    let t = r.col64(n, "mark times");
    let delivery = r.col32(n, "mark deliveries");
    let kind = r.code_bytes(n, "mark kinds", MARK_KINDS.len());
    r.check()?;
    if let Some(i) = max32(delivery).filter(|&d| d as usize >= deliveries) {
        return Err(WireError::Invalid(format!(
            "a mark names delivery {i} of {}",
            deliveries
        )));
    }
    let marks: Vec<Mark> = (0..n)
        .map(|i| Mark {
            t: at64(t, i),
            delivery: at32(delivery, i),
            kind: mark_kind(at8(kind, i)),
        })
        .collect();

    let n = r.count(13, "the worker marks");
    let t = r.col64(n, "worker mark times");
    let worker = r.col32(n, "worker mark workers");
    let kind = r.code_bytes(n, "worker mark kinds", WORKER_MARK_KINDS.len());
    r.check()?;
    let worker_marks: Vec<WorkerMark> = (0..n)
        .map(|i| WorkerMark {
            t: at64(t, i),
            worker: at32(worker, i),
            kind: worker_mark_kind(at8(kind, i)),
        })
        .collect();

    Ok((marks, worker_marks))
}

/// Reads the messages' columns and builds the next stretch of rows into
/// `out` (`at`: where the next message's list starts in the flat list);
/// true once `out` holds them all (and `r` is past the section).
fn read_messages(
    r: &mut Reader,
    deliveries: &[Delivery],
    out: &mut Vec<MessageRecord>,
    at: &mut usize,
) -> Result<bool, WireError> {
    let n = r.count(37, "the messages");
    let arrived_at = r.col64(n, "message arrival times");
    let work_ms = r.col64(n, "message work");
    let receive_count = r.col32(n, "message receive counts");
    let effects = r.col32(n, "message effects");
    // The fate codes are 0..FATE_CODES.
    let fate = r.code_bytes(n, "message fates", usize::from(FATE_CODES));
    let fate_at = r.col64(n, "message fate times");
    let lists = r.col32(n, "message delivery counts");
    let total = r.count(4, "message delivery lists");
    // Read in place: a stretch decodes only the lists it builds.
    let flat = r.col32(total, "message delivery lists");
    r.check()?;
    let from = out.len();
    if from == 0 {
        let listed: u64 = lists
            .iter()
            .map(|&l| u64::from(u32::from_le_bytes(l)))
            .sum();
        if listed != total as u64 {
            return Err(WireError::Invalid(format!(
                "message delivery lists hold {total} indices but their lengths add up to {listed}"
            )));
        }
        if let Some(d) = max32(flat).filter(|&d| d as usize >= deliveries.len()) {
            return Err(WireError::Invalid(format!(
                "a message lists delivery {d} of {}",
                deliveries.len()
            )));
        }
        if let Some(m) = deliveries
            .iter()
            .map(|d| d.message)
            .max()
            .filter(|&m| m as usize >= n)
        {
            return Err(WireError::Invalid(format!(
                "a delivery is of message {m} of {n}"
            )));
        }
        out.reserve_exact(n);
    }
    let to = n.min(from.saturating_add(MESSAGE_STRETCH));
    out.extend((from..to).map(|i| {
        let len = at32(lists, i) as usize;
        // The lengths add up to `flat.len()` (checked above), so `get`
        // always finds the list; each is allocated at its size, and the
        // usual single delivery without a call to copy it.
        let list = match flat.get(*at..*at + len) {
            Some(&[d]) => vec![u32::from_le_bytes(d)],
            Some(l) => u32s(l),
            None => Vec::new(),
        };
        *at += len;
        let at_ms = at64(fate_at, i);
        MessageRecord {
            arrived_at: at64(arrived_at, i),
            work_ms: at64(work_ms, i),
            receive_count: at32(receive_count, i),
            deliveries: list,
            effects: at32(effects, i),
            fate: match at8(fate, i) {
                FATE_DELETED => Fate::Deleted { at: at_ms },
                FATE_DEAD_LETTERED_EXPIRED => Fate::DeadLettered {
                    at: at_ms,
                    cause: DeadLetterCause::Expired,
                },
                FATE_DEAD_LETTERED_FAILED => Fate::DeadLettered {
                    at: at_ms,
                    cause: DeadLetterCause::Failed,
                },
                FATE_AVAILABLE => Fate::Available,
                FATE_DROPPED_EXPIRED => Fate::Dropped {
                    at: at_ms,
                    cause: DeadLetterCause::Expired,
                },
                FATE_DROPPED_FAILED => Fate::Dropped {
                    at: at_ms,
                    cause: DeadLetterCause::Failed,
                },
                FATE_STAYED_EXPIRED => Fate::Stayed {
                    at: at_ms,
                    cause: DeadLetterCause::Expired,
                },
                FATE_STAYED_FAILED => Fate::Stayed {
                    at: at_ms,
                    cause: DeadLetterCause::Failed,
                },
                // FATE_IN_FLIGHT, the one code left that `code_bytes` let through.
                _ => Fate::InFlight,
            },
        }
    }));
    Ok(to == n)
}

fn read_rest(r: &mut Reader, bucket_ms: u64) -> Result<(Series, Option<Summarised>), WireError> {
    let mut series = Series {
        bucket_ms,
        ..Series::default()
    };
    for v in Series::u64_columns_mut(&mut series) {
        let n = r.count(8, "a series");
        *v = u64s(r.col64(n, "a series"));
    }
    for v in Series::f64_columns_mut(&mut series) {
        let n = r.count(8, "a series");
        *v = r
            .col64(n, "a series")
            .iter()
            .map(|&b| f64::from_le_bytes(b))
            .collect();
    }

    let summarised = match r.take(1, "the summary") {
        [1] => {
            let mut x = [0u64; 11];
            for v in &mut x {
                *v = r.u64("the summary");
            }
            let n = r.count(1, "the summary's fates");
            let fates = r.take(n, "the summary's fates").to_vec();
            let n = r.count(1, "the summary's receive counts");
            let receive_counts = r.narrow32(n, "the summary's receive counts");
            Some(Summarised {
                kept_until_ms: x[0],
                events_total: x[1],
                deliveries_total: x[2],
                marks_total: x[3],
                worker_marks_total: x[4],
                messages_total: x[5],
                events_kept: x[6],
                deliveries_kept: x[7],
                marks_kept: x[8],
                worker_marks_kept: x[9],
                messages_kept: x[10],
                fates,
                receive_counts,
            })
        }
        &[b] if b != 0 => {
            r.fail(WireError::Invalid(format!("summary flag {b}")));
            None
        }
        // 0, or nothing left to read (the reader holds why).
        _ => None,
    };
    r.check()?;
    Ok((series, summarised))
}

#[allow(clippy::too_many_arguments)]
fn assemble(
    scenario: Scenario,
    head: Head,
    events: EventLog,
    deliveries: Vec<Delivery>,
    marks: Vec<Mark>,
    worker_marks: Vec<WorkerMark>,
    messages: Vec<MessageRecord>,
    series: Series,
    summarised: Option<Summarised>,
) -> Run {
    Run {
        scenario,
        visibility_timeout_ms: head.visibility_timeout_ms,
        worker_count: head.worker_count,
        concurrency: head.concurrency,
        end_ms: head.end_ms,
        events,
        deliveries,
        marks,
        worker_marks,
        messages,
        report: Report {
            name: head.name,
            seed: head.seed,
            totals: head.totals,
            ack_latency_ms: head.ack_latency_ms,
            receive_counts: head.receive_counts,
            series,
            stopped: head.stopped,
        },
        summarised,
    }
}

fn encoded_size_hint(run: &Run) -> usize {
    let f = run.footprint();
    // Columns are about as large as the stored run; a little over for the head.
    f.total() + 4096
}

fn opt64(x: Option<u64>) -> u64 {
    debug_assert_ne!(x, Some(NONE64), "u64::MAX stands for None on the wire");
    x.unwrap_or(NONE64)
}

fn opt32(x: Option<u32>) -> u32 {
    debug_assert_ne!(x, Some(NONE32), "u32::MAX stands for None on the wire");
    x.unwrap_or(NONE32)
}

fn some64(x: u64) -> Option<u64> {
    (x != NONE64).then_some(x)
}

fn some32(x: u32) -> Option<u32> {
    (x != NONE32).then_some(x)
}

/// A whole column at once: a pre-sized vector filled by one loop that the
/// compiler vectorises (a plain copy on little-endian machines).
fn u32s(c: &[[u8; 4]]) -> Vec<u32> {
    c.iter().map(|&b| u32::from_le_bytes(b)).collect()
}

fn u64s(c: &[[u8; 8]]) -> Vec<u64> {
    c.iter().map(|&b| u64::from_le_bytes(b)).collect()
}

/// Value `i` of a column past its section's `check`, where `i` is always in
/// range: `get` rather than an index, so that a decoder's mistake reads a 0
/// rather than ending the page.
fn at32(c: &[[u8; 4]], i: usize) -> u32 {
    c.get(i).map_or(0, |&b| u32::from_le_bytes(b))
}

fn at64(c: &[[u8; 8]], i: usize) -> u64 {
    c.get(i).map_or(0, |&b| u64::from_le_bytes(b))
}

fn at8(c: &[u8], i: usize) -> u8 {
    c.get(i).copied().unwrap_or(0)
}

/// The largest value of a column, in one vectorised pass: one comparison
/// then checks every index in it.
fn max32(c: &[[u8; 4]]) -> Option<u32> {
    c.iter().map(|&b| u32::from_le_bytes(b)).max()
}

/// Enum values by wire code (their declaration order, `as u8`), as a table
/// and as a function back from a code that `Reader::code_bytes` checked. The
/// function is a `match` on the codes, not a lookup in the table: the codes
/// are the values, so the compiler turns the match into a `min` and a column
/// of 1.5M event kinds into a vectorised loop, where a lookup costs a load
/// per value. The last variant takes every code above it (none, once
/// checked), so that the function needs no `Result`.
macro_rules! wire_codes {
    ($table:ident, $from:ident, $ty:ident: $($v:ident),+ ; $last:ident) => {
        const $table: [$ty; [$($ty::$v,)+ $ty::$last].len()] = [$($ty::$v,)+ $ty::$last];

        #[inline]
        fn $from(code: u8) -> $ty {
            #[allow(non_upper_case_globals)]
            mod codes {
                $(pub const $v: u8 = super::$ty::$v as u8;)+
            }
            match code {
                $(codes::$v => $ty::$v,)+
                _ => $ty::$last,
            }
        }
    };
}

wire_codes!(EVENT_KINDS, event_kind, EventKind:
    Arrive, Receive, Start, ExtendOk, ExtendRejected, Expire, Finish, Error, Hang, Abort, Skip,
    CommitApplied, CommitDuplicate, CommitLostUpdate, CommitFenceRejected, AckOk, AckRejected,
    Release, ReleaseRejected, DeadLetterExpired, DeadLetterFailed, Crash, Restart, Pause, Resume,
    AckNoOp, Dropped, MaxDeliveries; AckUnsent);
wire_codes!(LEASE_ENDS, lease_end, LeaseEnd: Acked, AckedLate, Released, Expired; Open);
wire_codes!(OUTCOMES, outcome, Outcome:
    Acked, AckRejected, Error, Hung, Aborted, Skipped, Crashed, NeverStarted, Unfinished; AckNoOp);
wire_codes!(EFFECTS, effect, Effect: NoCommit, Applied, Duplicate, LostUpdate; FenceRejected);
wire_codes!(MARK_KINDS, mark_kind, MarkKind:
    ExtendOk, ExtendRejected, AckOk, AckRejected, Release, ReleaseRejected, Commit; AckNoOp);
wire_codes!(WORKER_MARK_KINDS, worker_mark_kind, WorkerMarkKind: Crash, Restart, Pause; Resume);

struct Writer(Vec<u8>);

impl Writer {
    fn u32(&mut self, x: u32) {
        self.0.extend_from_slice(&x.to_le_bytes());
    }

    fn u64(&mut self, x: u64) {
        self.0.extend_from_slice(&x.to_le_bytes());
    }

    /// A u64 length, then the UTF-8 bytes (`Reader::text`).
    fn text(&mut self, s: &str) {
        self.u64(s.len() as u64);
        self.0.extend_from_slice(s.as_bytes());
    }

    fn u32s(&mut self, xs: impl ExactSizeIterator<Item = u32>) {
        self.put32(xs.len(), xs);
    }

    /// `n` values: the vector grows once, then one loop fills it (rather
    /// than a capacity check per value).
    fn put32(&mut self, n: usize, xs: impl Iterator<Item = u32>) {
        let start = self.0.len();
        self.0.resize(start + 4 * n, 0);
        let mut filled = 0;
        for (dst, x) in self.0[start..].chunks_exact_mut(4).zip(xs) {
            dst.copy_from_slice(&x.to_le_bytes());
            filled += 1;
        }
        debug_assert_eq!(filled, n, "a column's length was given wrong");
    }

    /// A column of u32s at the narrowest width that holds them: a width
    /// byte (1, 2 or 4), then the values, `u32::MAX` (`None`) as the narrow
    /// type's `MAX`, which no other value then takes. A summarised 1M run's
    /// event log is mostly small numbers (times within the first minute,
    /// 100 workers, receipts 1 to 5): 9 bytes an entry instead of 17, and
    /// the page reads 12 MB less.
    fn narrow32(&mut self, xs: &[u32]) {
        let max = xs.iter().copied().filter(|&x| x != u32::MAX).max();
        let width = match max.unwrap_or(0) {
            m if m < u32::from(u8::MAX) => 1,
            m if m < u32::from(u16::MAX) => 2,
            _ => 4,
        };
        self.0.push(width as u8);
        let start = self.0.len();
        self.0.resize(start + width * xs.len(), 0);
        let dst = &mut self.0[start..];
        // The low bytes of a little-endian u32: u32::MAX becomes all ones.
        match width {
            1 => narrow_into::<1>(dst, xs),
            2 => narrow_into::<2>(dst, xs),
            _ => narrow_into::<4>(dst, xs),
        }
    }

    fn u64s(&mut self, xs: impl ExactSizeIterator<Item = u64>) {
        let start = self.0.len();
        self.0.resize(start + 8 * xs.len(), 0);
        for (dst, x) in self.0[start..].chunks_exact_mut(8).zip(xs) {
            dst.copy_from_slice(&x.to_le_bytes());
        }
    }
}

fn narrow_into<const W: usize>(dst: &mut [u8], xs: &[u32]) {
    for (d, x) in dst.chunks_exact_mut(W).zip(xs) {
        d.copy_from_slice(&x.to_le_bytes()[..W]);
    }
}

/// The bytes and where the next read starts. A read that fails keeps its
/// error (the first one only) and gives nothing (0, an empty column or
/// text), as does every read after it: a section reads all its parts
/// without a branch each, then `check` says whether they were all there.
/// A column is never indexed before its check.
struct Reader<'a> {
    b: &'a [u8],
    pos: usize,
    err: Option<WireError>,
}

impl<'a> Reader<'a> {
    fn left(&self) -> usize {
        self.b.len() - self.pos
    }

    /// Keeps `e` unless a read failed before.
    fn fail(&mut self, e: WireError) {
        if self.err.is_none() {
            self.err = Some(e);
        }
    }

    /// The first failure since the last check, if any.
    fn check(&mut self) -> Result<(), WireError> {
        match self.err.take() {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    fn take(&mut self, n: usize, what: &'static str) -> &'a [u8] {
        if self.err.is_some() {
            return &[];
        }
        if n > self.left() {
            self.fail(WireError::Truncated {
                what,
                need: n as u64,
                left: self.left(),
            });
            return &[];
        }
        let s = &self.b[self.pos..self.pos + n];
        self.pos += n;
        s
    }

    fn u32(&mut self, what: &'static str) -> u32 {
        self.col32(1, what)
            .first()
            .map_or(0, |&b| u32::from_le_bytes(b))
    }

    fn u64(&mut self, what: &'static str) -> u64 {
        self.col64(1, what)
            .first()
            .map_or(0, |&b| u64::from_le_bytes(b))
    }

    /// A row count, checked against the bytes left at `row_bytes` a row, so
    /// that garbage never makes us allocate more than the input could hold.
    fn count(&mut self, row_bytes: u64, what: &'static str) -> usize {
        let n = self.u64(what);
        let need = n.saturating_mul(row_bytes);
        if need > self.left() as u64 {
            self.fail(WireError::Truncated {
                what,
                need,
                left: self.left(),
            });
            return 0;
        }
        // need <= left, so n fits in usize.
        n as usize
    }

    /// A u64 that must be 0 or 1.
    fn flag(&mut self, what: &'static str) -> bool {
        match self.u64(what) {
            0 => false,
            1 => true,
            x => {
                self.fail(WireError::Invalid(format!("{what}: flag {x}")));
                false
            }
        }
    }

    /// A u64 length, then that many bytes of UTF-8.
    fn text(&mut self, what: &'static str) -> &'a str {
        let n = self.count(1, what);
        match std::str::from_utf8(self.take(n, what)) {
            Ok(s) => s,
            Err(e) => {
                self.fail(WireError::Head(format!("{what}: {e}")));
                ""
            }
        }
    }

    /// `n` little-endian u32s (none if the read failed).
    fn col32(&mut self, n: usize, what: &'static str) -> &'a [[u8; 4]] {
        self.col::<4>(n, what)
    }

    fn col64(&mut self, n: usize, what: &'static str) -> &'a [[u8; 8]] {
        self.col::<8>(n, what)
    }

    fn col<const W: usize>(&mut self, n: usize, what: &'static str) -> &'a [[u8; W]] {
        let Some(bytes) = n.checked_mul(W) else {
            self.fail(WireError::Truncated {
                what,
                need: u64::MAX,
                left: self.left(),
            });
            return &[];
        };
        self.take(bytes, what).as_chunks().0
    }

    /// `n` u32s as `Writer::narrow32` wrote them, widened in one
    /// vectorised loop per width.
    fn narrow32(&mut self, n: usize, what: &'static str) -> Vec<u32> {
        match self.take(1, what) {
            [1] => self
                .take(n, what)
                .iter()
                .map(|&x| if x == u8::MAX { u32::MAX } else { u32::from(x) })
                .collect(),
            [2] => {
                let bytes = n.saturating_mul(2);
                let (c, _) = self.take(bytes, what).as_chunks::<2>();
                c.iter()
                    .map(|&x| match u16::from_le_bytes(x) {
                        u16::MAX => u32::MAX,
                        x => u32::from(x),
                    })
                    .collect()
            }
            [4] => u32s(self.col32(n, what)),
            &[w] => {
                self.fail(WireError::Invalid(format!("{what}: column width {w}")));
                Vec::new()
            }
            // Nothing left to read: the reader holds why.
            _ => Vec::new(),
        }
    }

    /// `n` enum codes, each below `known`, checked in one pass over the
    /// column (its maximum, which vectorises; the first bad one only for
    /// the message).
    fn code_bytes(&mut self, n: usize, what: &'static str, known: usize) -> &'a [u8] {
        let c = self.take(n, what);
        if c.iter()
            .copied()
            .max()
            .is_some_and(|m| usize::from(m) >= known)
        {
            let (i, b) = c
                .iter()
                .enumerate()
                .find(|&(_, &b)| usize::from(b) >= known)
                .unwrap_or((0, &0));
            self.fail(WireError::Invalid(format!(
                "{what}: unknown code {b} at {i}"
            )));
            return &[];
        }
        c
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_that_are_not_a_run_are_told_what_a_run_starts_with() {
        let said = decode(b"not a run at all").unwrap_err().to_string();
        assert_eq!(
            said,
            "not an encoded run: the bytes do not start with \"LEASERUN\""
        );
        assert!(said.contains(std::str::from_utf8(MAGIC).unwrap()));
    }

    #[test]
    fn totals_counters_are_the_fields_in_declaration_order() {
        let mut counters = [0; TOTALS_COUNTERS];
        for (i, c) in counters.iter_mut().enumerate() {
            *c = i as u64 + 1;
        }
        let totals = Totals::from_counters(counters);
        assert_eq!(totals.counters(), counters);
        // serde writes fields in declaration order: the values come out 1, 2,
        // 3, ... only if the counters' list follows it.
        let json = serde_json::to_string(&totals).unwrap();
        let written: Vec<u64> = json
            .trim_matches(|c| c == '{' || c == '}')
            .split(',')
            .map(|pair| pair.split(':').nth(1).unwrap().parse().unwrap())
            .collect();
        assert_eq!(written, counters);
    }

    #[test]
    fn narrow_columns_keep_every_value_and_none() {
        let columns: [&[u32]; 6] = [
            &[],
            &[0, 1, 254, u32::MAX],
            &[255, 0, u32::MAX],
            &[65_534, u32::MAX, 7],
            &[65_535, 0],
            &[u32::MAX - 1, u32::MAX, 0],
        ];
        for (c, width) in columns.iter().zip([1, 1, 2, 2, 4, 4]) {
            let mut w = Writer(Vec::new());
            w.narrow32(c);
            assert_eq!(w.0[0], width, "{c:?}");
            assert_eq!(w.0.len(), 1 + usize::from(width) * c.len());
            let mut r = Reader {
                b: &w.0,
                pos: 0,
                err: None,
            };
            assert_eq!(r.narrow32(c.len(), "a column"), *c);
            assert_eq!(r.check(), Ok(()));
            assert_eq!(r.pos, w.0.len());
        }
    }

    #[test]
    fn codes_read_back_as_their_variants() {
        for (i, k) in EVENT_KINDS.iter().enumerate() {
            assert_eq!(event_kind(i as u8), *k);
        }
        for (i, k) in LEASE_ENDS.iter().enumerate() {
            assert_eq!(lease_end(i as u8), *k);
        }
        for (i, k) in OUTCOMES.iter().enumerate() {
            assert_eq!(outcome(i as u8), *k);
        }
        for (i, k) in EFFECTS.iter().enumerate() {
            assert_eq!(effect(i as u8), *k);
        }
        for (i, k) in MARK_KINDS.iter().enumerate() {
            assert_eq!(mark_kind(i as u8), *k);
        }
        for (i, k) in WORKER_MARK_KINDS.iter().enumerate() {
            assert_eq!(worker_mark_kind(i as u8), *k);
        }
    }

    #[test]
    fn the_deadline_an_expired_lease_passed_crosses_the_wire() {
        // RabbitMQ's channel tick notices a consumer timeout after its
        // deadline: the page draws the time between them.
        let s = lease_sim::shipped::find("one-slow-consumer-requeues-its-whole-channel")
            .expect("shipped")
            .scenario;
        let run = lease_sim::simulate(&s, &lease_sim::Options::default()).unwrap();
        assert!(run
            .deliveries
            .iter()
            .any(|d| d.deadline.is_some_and(|t| t < d.lease_ended_at)));
        let back = decode(&encode(&run)).unwrap();
        assert_eq!(back.deliveries, run.deliveries);
    }

    #[test]
    fn an_ack_with_nothing_to_settle_crosses_the_wire_as_itself() {
        use lease_sim::run::{MarkKind, Outcome};
        let s = lease_sim::shipped::find("the-late-ack-that-settled-someone-else-s-run")
            .expect("shipped")
            .scenario;
        let run = lease_sim::simulate(&s, &lease_sim::Options::default()).unwrap();
        let back = decode(&encode(&run)).unwrap();
        let no_op_events = |r: &Run| {
            r.events
                .iter()
                .filter(|e| e.kind == EventKind::AckNoOp)
                .count()
        };
        assert!(no_op_events(&run) > 0);
        assert_eq!(no_op_events(&back), no_op_events(&run));
        let marks = |r: &Run| {
            r.marks
                .iter()
                .filter(|m| m.kind == MarkKind::AckNoOp)
                .count()
        };
        assert_eq!(marks(&back), marks(&run));
        let outcomes = |r: &Run| {
            r.deliveries
                .iter()
                .filter(|d| d.outcome == Outcome::AckNoOp)
                .count()
        };
        assert_eq!(outcomes(&back), outcomes(&run));
        assert_eq!(back.report.totals.acks_no_op, run.report.totals.acks_no_op);
        assert_eq!(back.deliveries, run.deliveries);
    }

    #[test]
    fn a_message_dropped_or_left_in_the_stream_crosses_with_its_fate_and_cause() {
        use lease_sim::scenario::PastLimit;
        for past in PastLimit::ALL {
            let mut s = lease_sim::Scenario::default();
            s.broker.visibility_timeout_ms = Some(2_000);
            s.broker.max_receive_count = Some(Some(2));
            s.broker.past_limit = Some(past);
            s.work.dist = lease_sim::scenario::Dist::Constant { ms: 10_000 };
            s.arrivals.backlog = 3;
            s.arrivals.rate_per_s = 0.0;
            s.duration_ms = 30_000;
            let run = lease_sim::simulate(&s, &lease_sim::Options::default()).unwrap();
            let ended = |r: &Run| -> Vec<Fate> { r.messages.iter().map(|m| m.fate).collect() };
            let past_limit = ended(&run)
                .iter()
                .filter(|f| !matches!(f, Fate::Deleted { .. } | Fate::Available | Fate::InFlight))
                .count();
            assert!(past_limit > 0, "{past:?}: {:?}", ended(&run));
            let back = decode(&encode(&run)).unwrap();
            assert_eq!(ended(&back), ended(&run), "{past:?}");
            assert_eq!(back.report.totals, run.report.totals, "{past:?}");
        }
    }

    #[test]
    fn wire_codes_are_the_declaration_order() {
        for (i, k) in EVENT_KINDS.iter().enumerate() {
            assert_eq!(*k as usize, i);
        }
        assert_eq!(EVENT_KINDS.len(), EventKind::AckUnsent as usize + 1);
        for (i, k) in LEASE_ENDS.iter().enumerate() {
            assert_eq!(*k as usize, i);
        }
        for (i, k) in OUTCOMES.iter().enumerate() {
            assert_eq!(*k as usize, i);
        }
        for (i, k) in EFFECTS.iter().enumerate() {
            assert_eq!(*k as usize, i);
        }
        for (i, k) in MARK_KINDS.iter().enumerate() {
            assert_eq!(*k as usize, i);
        }
        for (i, k) in WORKER_MARK_KINDS.iter().enumerate() {
            assert_eq!(*k as usize, i);
        }
    }
}
