//! Detectors: each names a failure signature when a run shows
//! it, with the evidence in numbers, where to look on the timeline, and the
//! fix. They read only the recorded run (and the scenario's settings);
//! they never re-implement an engine rule.
//!
//! Every threshold is a `pub const` below, with the reason for its value.

use std::borrow::Cow;

use lease_format::display;
use lease_sim::run::{
    DeliveryIx, Effect, EventKind, Fate, LeaseEnd, MessageRecord, Outcome, Run, WorkerMarkKind,
};
use lease_sim::scenario::{Fence, Scenario};
use serde::{Deserialize, Serialize};

use crate::extend::{no_timer, running_work_never_expires};
use crate::fix::{
    interval_for, lease_fix, stated_tail_ms, suggested_cap, timeout_above_longest,
    timeout_above_p99, Fix, REDRIVE_RECEIVES, SPLIT_PARTS,
};
use crate::stats::{
    expiry_kind, max_slowdown, work_median_ms, work_p99_ms, ExpiryKind, LeaseFacts,
};

// --- Thresholds ----------------------------------------------------------

/// Width of the windows the feedback-loop detector compares: long enough to
/// smooth Poisson noise at a few messages a second, short enough to see a
/// surge of ten minutes.
pub const FEEDBACK_WINDOW_MS: u64 = 180_000;
/// The later window's completions per minute are at most this share of the
/// earlier one's: "throughput collapses", not a wobble.
pub const FEEDBACK_THROUGHPUT_DROP: f64 = 0.5;
/// Leases that ran out under a live handler in the later window: at least
/// this many, and more than twice the earlier window's ("rising").
pub const FEEDBACK_MIN_MID_RUN_EXPIRIES: u64 = 3;
/// Of the later window's expiries, at least this share ran out under a live
/// handler: the loop is handlers outliving their leases, not buffered
/// messages expiring (that is the invisible backlog) or crashes.
pub const FEEDBACK_MID_RUN_SHARE: f64 = 0.5;

/// A bucket counts as "drain rate ~0" at or below this share of the
/// pre-fault mean completions per minute.
pub const STALL_LOW_SHARE: f64 = 0.1;
/// A stall must last at least this share of the visibility timeout: the
/// square wave is "zero for exactly the visibility-timeout duration".
pub const STALL_MIN_TIMEOUT_SHARE: f64 = 0.5;

/// In flight at least this many: "thousands" in the invisible backlog, a hundred is
/// already more than any pool here runs at once.
pub const INVISIBLE_MIN_IN_FLIGHT: u64 = 100;
/// In flight at least this many times the pool's handler slots: the surplus
/// can only be leased messages waiting in buffers.
pub const INVISIBLE_SLOT_MULTIPLE: f64 = 2.0;
/// Queue depth at most this share of in flight: "the queue appears empty".
pub const INVISIBLE_MAX_QUEUE_SHARE: f64 = 0.01;
/// Acks in the bucket at most this share of in flight: "ack rate is 0".
pub const INVISIBLE_MAX_ACK_SHARE: f64 = 0.01;
/// Consecutive buckets the picture must hold: a window, not an instant.
pub const INVISIBLE_MIN_BUCKETS: usize = 2;

/// A message still circulating at the end of a run with no redrive policy
/// counts once it has been received at least this many times: beyond seed
/// 000's shoulder "at 2 and 3" (a tight timeout), it has lost its lease
/// three times in a row, which is a loop, not bad luck. Below
/// `REDRIVE_RECEIVES`, so the loop is named before the suggested policy
/// would have set the message aside.
pub const CIRCULATING_MIN_RECEIVES: u32 = 4;

/// Ack p99 over the timeout at or above this is unhealthy: "it should not be
/// near 1".
pub const HEALTH_RATIO_LIMIT: f64 = 0.8;

/// Share of delivered messages received 2 or more times that makes a
/// shoulder: a healthy queue with the timeout above p99 redelivers about 1%.
pub const SHOULDER_MIN_SHARE: f64 = 0.10;
/// Fewest messages received twice or more: one slow message is a story, not
/// a distribution.
pub const SHOULDER_MIN_MESSAGES: u64 = 5;

/// The pool counts as saturated when its handlers were this busy, on
/// average, over the second half of the run: every slot taken, bar the
/// moments between a finish and the next receive.
pub const SATURATION_BUSY_SHARE: f64 = 0.9;
/// ... and at least this many messages were still waiting in the queue at
/// the end: a backlog, not the last few arrivals.
pub const SATURATION_MIN_WAITING: u64 = 100;
/// ... and the waiting were at least this share of the arrivals: the queue
/// grew with the run, it was not a backlog the pool was draining.
pub const SATURATION_WAITING_SHARE: f64 = 0.1;

/// ... and at most this share of the deliveries were redeliveries: the
/// handlers' time went to first deliveries. With more, the pool is busy
/// with repeats (a redelivery feedback loop), where capacity adds load to
/// the same downstream instead of finishing the queue.
pub const SATURATION_MAX_REDELIVERY_SHARE: f64 = 0.1;

/// The work's tail (p99 at full speed times the worst slowdown) reaches this
/// share of the lease: the unit of work is too big for it.
pub const SMALL_UNIT_TAIL_SHARE: f64 = 0.8;

// --- Findings ------------------------------------------------------------

/// One failure signature found in a run. The worker finds them and sends
/// them to the page as they are: the id and title are the detectors' own
/// statics where found, and owned text where read from a reply.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Finding {
    /// Kebab-case id, part of the interface (`concurrent-duplicates`, ...).
    pub id: Cow<'static, str>,
    /// The signature's name.
    pub title: Cow<'static, str>,
    /// Plain sentences with the numbers.
    pub evidence: Vec<String>,
    /// The number the detector held against its threshold (a count, a
    /// ratio, a duration in ms: see each detector). Lets a fix be judged by
    /// how much it reduced the evidence.
    pub measure: f64,
    /// Where the signature shows on the timeline.
    pub at_ms: u64,
    pub until_ms: Option<u64>,
    /// The message to select, when one tells the story.
    pub message: Option<u32>,
    /// The fix, in words, sized from this run.
    pub fix_text: String,
    /// The fix as a change the page can apply.
    pub fix: Option<Fix>,
}

/// A detector: its id, the signature's name, and the check.
pub struct Detector {
    pub id: &'static str,
    pub title: &'static str,
    pub detect: fn(&Ctx) -> Option<Finding>,
}

/// Every detector, in the order findings are listed.
pub const DETECTORS: &[Detector] = &[
    Detector {
        id: "concurrent-duplicates",
        title: "Concurrent duplicate execution",
        detect: concurrent_duplicates,
    },
    Detector {
        id: "pool-saturated",
        title: "Arrivals outpace the pool",
        detect: pool_saturated,
    },
    Detector {
        id: "redelivery-feedback-loop",
        title: "Redelivery feedback loop",
        detect: redelivery_feedback_loop,
    },
    Detector {
        id: "dlq-of-valid-messages",
        title: VALID_DEAD_LETTERED,
        detect: dlq_of_valid_messages,
    },
    Detector {
        id: "post-deploy-drain-stall",
        title: "Post-deploy drain stall",
        detect: post_deploy_drain_stall,
    },
    Detector {
        id: "invisible-backlog",
        title: "Invisible backlog",
        detect: invisible_backlog,
    },
    Detector {
        id: "hung-handler-uncapped",
        title: "Hung handler under uncapped extension",
        detect: hung_handler_uncapped,
    },
    Detector {
        id: "circulating-without-redrive",
        title: "Messages circulating for ever: no redrive limit",
        detect: circulating_without_redrive,
    },
    Detector {
        id: "heartbeat-starvation",
        title: "Heartbeat starved: lease lost by a live worker",
        detect: heartbeat_starvation,
    },
    Detector {
        id: "lease-health-ratio",
        title: "Ack latency p99 near the timeout",
        detect: lease_health_ratio,
    },
    Detector {
        id: "receive-count-shoulder",
        title: "Receive-count shoulder at 2 and 3",
        detect: receive_count_shoulder,
    },
    Detector {
        id: "duplicate-effects-without-fence",
        title: "Duplicate effects with no fence in the store",
        detect: duplicate_effects_without_fence,
    },
    Detector {
        id: "small-unit-of-work",
        title: "Unit of work too big for the lease",
        detect: small_unit_of_work,
    },
    Detector {
        id: "channel-wide-requeue",
        title: "One slow delivery requeued its whole channel",
        detect: channel_wide_requeue,
    },
    Detector {
        id: "stall-failure",
        title: "Stalled more than allowable limit: jobs failed outright",
        detect: stall_failure,
    },
    Detector {
        id: "buffer-expiry",
        title: "Expired while waiting in a worker's buffer, then run twice",
        detect: buffer_expiry,
    },
    Detector {
        id: "ack-settled-another-run",
        title: "A late ack settled the copy another worker was running",
        detect: ack_settled_another_run,
    },
];

/// The ids of every detector, in order.
pub fn detector_ids() -> impl Iterator<Item = &'static str> {
    DETECTORS.iter().map(|d| d.id)
}

/// What a detector reads: the scenario, the run, and facts computed once.
pub struct Ctx<'a> {
    pub scenario: &'a Scenario,
    pub run: &'a Run,
    pub facts: LeaseFacts,
}

impl<'a> Ctx<'a> {
    pub fn new(scenario: &'a Scenario, run: &'a Run) -> Self {
        Ctx {
            scenario,
            run,
            facts: LeaseFacts::new(scenario, run),
        }
    }

    fn bucket_ms(&self) -> u64 {
        self.run.report.series.bucket_ms.max(1)
    }

    /// Per-bucket counts of some delivery times (e.g. mid-run expiries).
    fn per_bucket(&self, times: impl Iterator<Item = u64>) -> Vec<u64> {
        let n = self.run.report.series.completions_per_min.len();
        let mut v = vec![0u64; n];
        for t in times {
            if let Some(x) = v.get_mut((t / self.bucket_ms()) as usize) {
                *x += 1;
            }
        }
        v
    }
}

/// Every signature the run shows. A healthy run gives an empty list.
pub fn diagnose(scenario: &Scenario, run: &Run) -> Vec<Finding> {
    let ctx = Ctx::new(scenario, run);
    DETECTORS.iter().filter_map(|d| (d.detect)(&ctx)).collect()
}

/// One detector by id; `None` if it is silent (or no such id).
pub fn detect(id: &str, scenario: &Scenario, run: &Run) -> Option<Finding> {
    let d = DETECTORS.iter().find(|d| d.id == id)?;
    (d.detect)(&Ctx::new(scenario, run))
}

fn title_of(id: &str) -> &'static str {
    DETECTORS
        .iter()
        .find(|d| d.id == id)
        .map_or("", |d| d.title)
}

/// `t=1:30` for a time on the run's clock.
fn clock(ms: u64) -> String {
    let s = ms / 1_000;
    let frac = ms % 1_000;
    if frac == 0 {
        format!("t={}:{:02}", s / 60, s % 60)
    } else {
        format!("t={}:{:02}.{:03}", s / 60, s % 60, frac)
            .trim_end_matches('0')
            .to_string()
    }
}

/// `1 lease`, `4 leases`, with thousands separators.
fn n_of(n: u64, one: &str, many: &str) -> String {
    format!("{} {}", display::count(n), if n == 1 { one } else { many })
}

fn fence_name(f: Fence) -> &'static str {
    match f {
        Fence::None => "none",
        Fence::CheckThenWrite => "check_then_write",
        Fence::UniqueConstraint => "unique_constraint",
        Fence::FencingToken => "fencing_token",
    }
}

/// Only the first letter of a sentence, which is ASCII in all our text.
fn lowercase_first(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => std::iter::once(f.to_ascii_lowercase()).chain(c).collect(),
        None => String::new(),
    }
}

fn pct(x: f64) -> String {
    format!("{:.0}%", x * 100.0)
}

fn finding(
    id: &'static str,
    evidence: Vec<String>,
    measure: f64,
    at_ms: u64,
    until_ms: Option<u64>,
    message: Option<u32>,
    fix: Option<(Fix, String)>,
) -> Finding {
    let (fix, fix_text) = match fix {
        Some((f, t)) => (Some(f), t),
        None => (None, String::new()),
    };
    Finding {
        id: Cow::Borrowed(id),
        title: Cow::Borrowed(title_of(id)),
        evidence,
        measure,
        at_ms,
        until_ms,
        message,
        fix_text,
        fix,
    }
}

// --- Detectors -----------------------------------------------------------

/// Overlapping runs of the same message: the lease ran out under a live
/// handler and the broker handed the message to a second worker.
/// Measure: overlapping runs.
fn concurrent_duplicates(c: &Ctx) -> Option<Finding> {
    let t = &c.run.report.totals;
    if t.overlapping_runs == 0 {
        return None;
    }
    let first = c
        .run
        .deliveries
        .iter()
        .filter(|d| d.overlaps.is_some())
        .min_by_key(|d| (d.started_at.unwrap_or(u64::MAX), d.message))?;
    let other = first
        .overlaps
        .and_then(|o: DeliveryIx| c.run.deliveries.get(o as usize))?;
    let at = first.started_at.unwrap_or(first.received_at);
    let end_of = |d: &lease_sim::run::Delivery| d.ended_at.unwrap_or(c.run.end_ms);
    let until = end_of(first).min(end_of(other)).max(at);
    let messages = {
        let mut m: Vec<u64> = c
            .run
            .deliveries
            .iter()
            .filter(|d| d.overlaps.is_some())
            .map(|d| u64::from(d.message))
            .collect();
        m.sort_unstable();
        m.dedup();
        m.len()
    };
    let evidence = vec![
        format!(
            "{} overlapped a run of the same message that was still executing, across {} ({} further repeats were sequential).",
            n_of(t.overlapping_runs, "handler start", "handler starts"),
            n_of(messages as u64, "message", "messages"),
            display::count(t.sequential_duplicate_runs)
        ),
        format!(
            "The first: message {} started on worker {} (receipt {}) at {} while worker {} (receipt {}) had been running it since {}; both ran until {}.",
            first.message,
            first.worker,
            first.receipt,
            clock(at),
            other.worker,
            other.receipt,
            clock(other.started_at.unwrap_or(other.received_at)),
            clock(until)
        ),
        format!(
            "{} ran out while the handler was still working; the broker does not ask the holder before handing the message out again.",
            n_of(c.facts.mid_run_expiries, "lease", "leases")
        ),
    ];
    let (fix, why) = lease_fix(c.scenario, &c.facts);
    Some(finding(
        "concurrent-duplicates",
        evidence,
        t.overlapping_runs as f64,
        at,
        Some(until),
        Some(first.message),
        Some((
            fix,
            format!("{why} A unique constraint in the store makes the overlap harmless; only this makes it rare."),
        )),
    ))
}

/// One window of the run, for the feedback-loop comparison.
#[derive(Debug, Clone, Copy)]
struct Window {
    from: usize,
    completions: f64,
    mid_run: u64,
    expiries: u64,
    redeliveries: u64,
    running: f64,
    waiting: u64,
}

/// Redeliveries and running handlers rise while completions fall: compare
/// the best earlier window with each later one. Measure: the fall in
/// completions per minute as a share (0.8 = fell by 80%).
fn redelivery_feedback_loop(c: &Ctx) -> Option<Finding> {
    let s = &c.run.report.series;
    let n = s.completions_per_min.len();
    let bucket = c.bucket_ms();
    let w = ((FEEDBACK_WINDOW_MS as f64 / bucket as f64).round() as usize).max(1);
    if n < 2 * w {
        return None;
    }
    let mid = c.per_bucket(
        c.run
            .deliveries
            .iter()
            .filter(|d| expiry_kind(d) == Some(ExpiryKind::MidRun))
            .map(|d| d.lease_ended_at),
    );
    let sum = |v: &[u64], i: usize| v[i..i + w].iter().sum::<u64>();
    let windows: Vec<Window> = (0..=n - w)
        .map(|i| Window {
            from: i,
            completions: s.completions_per_min[i..i + w].iter().sum::<f64>() / w as f64,
            mid_run: sum(&mid, i),
            expiries: sum(&s.expiries, i),
            redeliveries: sum(&s.redeliveries, i),
            running: s.running_handlers[i..i + w].iter().sum::<u64>() as f64 / w as f64,
            waiting: s.queue_depth[i + w - 1] + s.in_flight[i + w - 1],
        })
        .collect();
    let mut best: Option<(f64, Window, Window)> = None;
    for b in &windows {
        let Some(a) = windows[..b.from.saturating_sub(w - 1)]
            .iter()
            .filter(|a| a.from + w <= b.from)
            .max_by(|x, y| x.completions.total_cmp(&y.completions))
        else {
            continue;
        };
        let fires = a.completions > 0.0
            && b.completions <= FEEDBACK_THROUGHPUT_DROP * a.completions
            && b.mid_run >= FEEDBACK_MIN_MID_RUN_EXPIRIES
            && b.mid_run > 2 * a.mid_run
            && b.mid_run as f64 >= FEEDBACK_MID_RUN_SHARE * b.expiries as f64
            // Its words say running handlers rose: a pool that was full in
            // the earlier window cannot feed a loop with more duplicates.
            && b.running > a.running
            && b.waiting > 0
            // The words say redeliveries rose: with none in the later
            // window, the expired leases wait in a queue the pool cannot
            // reach, which is saturation, not a loop.
            && b.redeliveries > a.redeliveries;
        if !fires {
            continue;
        }
        let ratio = b.completions / a.completions;
        if best.as_ref().is_none_or(|(r, _, _)| ratio < *r) {
            best = Some((ratio, *a, *b));
        }
    }
    let (ratio, a, b) = best?;
    let span = |x: &Window| {
        format!(
            "{}-{}",
            clock(x.from as u64 * bucket),
            clock((x.from + w) as u64 * bucket)
        )
    };
    let per_min = |k: u64| format!("{:.1}", k as f64 * 60_000.0 / (w as u64 * bucket) as f64);
    let evidence = vec![
        format!(
            "Completions fell from {:.1}/min ({}) to {:.1}/min ({}), down {}.",
            a.completions,
            span(&a),
            b.completions,
            span(&b),
            pct(1.0 - ratio),
        ),
        format!(
            "Over the same windows, leases running out under a live handler rose from {}/min to {}/min, redeliveries from {}/min to {}/min, and running handlers from {:.1} to {:.1} on average.",
            per_min(a.mid_run),
            per_min(b.mid_run),
            per_min(a.redeliveries),
            per_min(b.redeliveries),
            a.running,
            b.running,
        ),
        format!(
            "Handler errors: {}. Each expiry starts a duplicate that takes a share of the same downstream, which slows every run and causes more expiries; {} rejected as late.",
            display::count(c.run.report.totals.errors),
            n_of(c.run.report.totals.acks_rejected, "ack was", "acks were")
        ),
    ];
    let (fix, why) = lease_fix(c.scenario, &c.facts);
    Some(finding(
        "redelivery-feedback-loop",
        evidence,
        1.0 - ratio,
        b.from as u64 * bucket,
        Some(((b.from + w) as u64 * bucket).min(c.run.end_ms)),
        None,
        Some((
            fix,
            format!("{why} Both stop the loop faster than adding capacity, which adds load to the same downstream."),
        )),
    ))
}

/// Every handler slot busy while the queue grows: messages arrive faster
/// than the pool can finish them, whatever the lease does. Measure: the
/// messages waiting in the queue at the end.
fn pool_saturated(c: &Ctx) -> Option<Finding> {
    let run = c.run;
    let t = &run.report.totals;
    let s = &run.report.series;
    let slots = u64::from(c.scenario.workers.count) * u64::from(c.scenario.workers.concurrency);
    let n = s.running_handlers.len();
    if slots == 0 || n < 2 || t.arrived == 0 {
        return None;
    }
    let half = &s.running_handlers[n / 2..];
    let busy = half.iter().sum::<u64>() as f64 / half.len() as f64 / slots as f64;
    let waiting = t.still_available;
    // The queue grew over the second half: a backlog the pool is draining
    // shrinks, however busy the pool.
    let grew = s.queue_depth[n - 1] > s.queue_depth[n / 2];
    let repeats = t.redeliveries as f64 > SATURATION_MAX_REDELIVERY_SHARE * t.deliveries as f64;
    if !grew
        || repeats
        || busy < SATURATION_BUSY_SHARE
        || waiting < SATURATION_MIN_WAITING
        || (waiting as f64) < SATURATION_WAITING_SHARE * t.arrived as f64
        // A pool busy with the duplicates of a feedback loop is that loop:
        // its fix is the lease, and capacity would feed it.
        || redelivery_feedback_loop(c).is_some()
    {
        return None;
    }
    let minutes = run.end_ms.max(1) as f64 / 60_000.0;
    let arriving = t.arrived as f64 / minutes;
    let acks = &s.completions_per_min[n / 2..];
    let finishing = acks.iter().sum::<f64>() / acks.len() as f64;
    // Workers for the arrivals at the pace the pool finished messages in
    // the second half: capacity, sized from this run.
    let workers = c.scenario.workers.count;
    let needed = if finishing > 0.0 {
        ((f64::from(workers) * arriving / finishing).ceil() as u32).max(workers + 1)
    } else {
        workers * 2
    };
    let at = s
        .queue_depth
        .iter()
        .position(|&d| d >= SATURATION_MIN_WAITING)
        .map_or(0, |i| i as u64 * c.bucket_ms());
    let evidence = vec![
        format!(
            "{} arrived ({:.1}/min); {} were handed out, {} of them redeliveries, and {} were still waiting in the queue at the end.",
            n_of(t.arrived, "message", "messages"),
            arriving,
            n_of(t.deliveries, "delivery", "deliveries"),
            display::count(t.redeliveries),
            display::count(waiting),
        ),
        format!(
            "The pool's {} handlers ({} workers x {}) were {} busy over the second half of the run, finishing {:.1} messages/min against {:.1}/min arriving.",
            display::count(slots),
            workers,
            c.scenario.workers.concurrency,
            pct(busy.min(1.0)),
            finishing,
            arriving,
        ),
        match no_timer(c.scenario) {
            Some(_) => "The queue grows because the handlers are all taken: nothing is taken back, so every message waits for a free handler.".to_string(),
            None => "The queue grows because the handlers are all taken, not because leases run out: a longer lease or a heartbeat finishes no message sooner.".to_string(),
        },
    ];
    Some(finding(
        "pool-saturated",
        evidence,
        waiting as f64,
        at,
        Some(run.end_ms),
        None,
        Some((
            Fix::Workers { count: needed },
            format!(
                "Add capacity: about {needed} workers finish {arriving:.1} messages/min at the pace this pool finished them, or make each message cheaper."
            ),
        )),
    ))
}

/// Past the delivery limit by receive-count exhaustion with no handler
/// error (dead-lettered, dropped or left in the stream): the message was
/// slow, not broken. Measure: such messages.
fn dlq_of_valid_messages(c: &Ctx) -> Option<Finding> {
    let run = c.run;
    let mut valid: Vec<(u64, u32)> = Vec::new();
    // Dead-lettered, dropped, left in the stream.
    let mut ended = [0u64; 3];
    for (id, m) in run.messages.iter().enumerate() {
        let (at, cause, kind) = match m.fate {
            Fate::DeadLettered { at, cause } => (at, cause, 0),
            Fate::Dropped { at, cause } => (at, cause, 1),
            Fate::Stayed { at, cause } => (at, cause, 2),
            _ => continue,
        };
        if cause != lease_sim::run::DeadLetterCause::Expired {
            continue;
        }
        let failed = m.deliveries.iter().any(|&d| {
            run.deliveries
                .get(d as usize)
                .is_some_and(|d| matches!(d.outcome, Outcome::Error | Outcome::Hung))
        });
        if !failed {
            valid.push((at, id as u32));
            ended[kind] += 1;
        }
    }
    let &(at, first) = valid.iter().min()?;
    let t = &run.report.totals;
    let m = run.messages.get(first as usize)?;
    let first_went = match m.fate {
        Fate::Dropped { .. } => "dropped past the delivery limit",
        Fate::Stayed { .. } => "left in the stream past the delivery limit",
        _ => "dead-lettered",
    };
    let mut evidence = vec![
        if ended[1] + ended[2] == 0 {
            format!(
                "{} reached the dead-letter queue by receive-count exhaustion while no handler raised an error on them (DLQ by cause: expired {}, failed {}; handler errors in the run: {}).",
                n_of(valid.len() as u64, "message", "messages"),
                display::count(t.dead_lettered_expired),
                display::count(t.dead_lettered_failed),
                display::count(t.errors)
            )
        } else {
            format!(
                "{} went past the delivery limit by expiry alone while no handler raised an error on them: {} dead-lettered, {} dropped, {} left in the stream (handler errors in the run: {}).",
                n_of(valid.len() as u64, "message", "messages"),
                display::count(ended[0]),
                display::count(ended[1]),
                display::count(ended[2]),
                display::count(t.errors)
            )
        },
        format!(
            "The first: message {} was {first_went} at {} after {} receives; its work needs {} at full speed against a {} lease, so every lease ran out before it finished.",
            first,
            clock(at),
            m.receive_count,
            display::duration(m.work_ms),
            display::duration(c.facts.timeout_ms)
        ),
    ];
    if ended[0] > 0 {
        evidence.push("Operators who find a DLQ of messages that never failed learn to ignore it: split DLQ arrivals by cause.".to_string());
    }
    if ended[1] > 0 {
        evidence.push("A dropped message is gone: no dead-letter queue holds it, so work that was only slow is lost without a trace.".to_string());
    }
    if ended[2] > 0 {
        evidence.push("A message left in the stream is delivered no more: only the advisory says it was never processed, so watch the advisories or raise the limit.".to_string());
    }
    let mut f = finding(
        "dlq-of-valid-messages",
        evidence,
        valid.len() as f64,
        at,
        None,
        Some(first),
        Some(lease_fix(c.scenario, &c.facts)),
    );
    f.title = Cow::Borrowed(past_limit_title(ended));
    Some(f)
}

/// The title of valid messages past the delivery limit, by where they went
/// (dead-lettered, dropped, left in the stream): a dropped message is in no
/// queue and one left in a JetStream stream is in no DLQ, so "DLQ" would
/// send the reader to look where nothing is.
pub fn past_limit_title(ended: [u64; 3]) -> &'static str {
    match ended {
        [_, 0, 0] => VALID_DEAD_LETTERED,
        [0, _, 0] => VALID_DROPPED,
        [0, 0, _] => VALID_STAYED,
        _ => VALID_PAST_LIMIT,
    }
}

/// The detector's own title: valid messages, all dead-lettered.
pub const VALID_DEAD_LETTERED: &str = "DLQ full of valid messages";
/// Valid messages, all dropped past the limit (RabbitMQ's quorum queue
/// with no dead-letter exchange, Cloud Tasks).
pub const VALID_DROPPED: &str = "Valid messages dropped past the delivery limit";
/// Valid messages, all left in the stream (JetStream past `MaxDeliver`).
pub const VALID_STAYED: &str = "Valid messages left in the stream past the delivery limit";
/// Some of each.
pub const VALID_PAST_LIMIT: &str =
    "Valid messages past the delivery limit: dead-lettered, dropped or left in the stream";

/// After crashes or a rolling deploy, completions per bucket drop to about
/// zero for about the visibility timeout while messages wait. Measure: the
/// longest stall, in ms.
fn post_deploy_drain_stall(c: &Ctx) -> Option<Finding> {
    // The stall this names waits out a lease; where no timer takes work
    // back, no lease or heartbeat setting shortens it.
    if no_timer(c.scenario).is_some() {
        return None;
    }
    let run = c.run;
    let s = &run.report.series;
    let bucket = c.bucket_ms();
    let crashes: Vec<(u64, u32)> = run
        .worker_marks
        .iter()
        .filter(|m| m.kind == WorkerMarkKind::Crash)
        .map(|m| (m.t, m.worker))
        .collect();
    let first = crashes.first()?.0;
    let before = (first / bucket) as usize;
    if before == 0 {
        return None;
    }
    let baseline = s.completions_per_min.get(..before)?.iter().sum::<f64>() / before as f64;
    if baseline <= 0.0 {
        return None;
    }
    let low = |i: usize| {
        s.completions_per_min
            .get(i)
            .is_some_and(|&x| x <= STALL_LOW_SHARE * baseline)
            && s.queue_depth[i] + s.in_flight[i] > 0
    };
    // (start bucket, buckets, crash time, worker)
    let mut stalls: Vec<(usize, usize, u64, u32)> = Vec::new();
    let mut next_free = 0usize;
    for &(t, worker) in &crashes {
        let k = (t / bucket) as usize;
        let Some(start) = (k.max(next_free)..=k + 1).find(|&i| low(i)) else {
            continue;
        };
        let mut len = 0;
        while low(start + len) {
            len += 1;
        }
        next_free = start + len;
        stalls.push((start, len, t, worker));
    }
    let min_ms = STALL_MIN_TIMEOUT_SHARE * c.facts.timeout_ms as f64;
    stalls.retain(|&(_, len, _, _)| (len as u64 * bucket) as f64 >= min_ms);
    let &(start, len, t, worker) = stalls
        .iter()
        .max_by_key(|x| (x.1, std::cmp::Reverse(x.0)))?;
    let stall_ms = len as u64 * bucket;
    let stall_max = s.completions_per_min[start..start + len]
        .iter()
        .copied()
        .fold(0.0_f64, f64::max);
    let end = ((start + len) as u64 * bucket).min(run.end_ms);
    let waiting = s.queue_depth[start + len - 1];
    let leased = s.in_flight[start + len - 1];
    let deploys = c
        .scenario
        .faults
        .iter()
        .filter(|f| matches!(f, lease_sim::scenario::Fault::RollingDeploy { .. }))
        .count();
    let cause = if deploys > 0 {
        "a rolling deploy"
    } else {
        "a crash"
    };
    let evidence = vec![
        format!(
            "After worker {worker} stopped at {} ({cause}), completions fell from a mean of {baseline:.1}/min before the first fault to {stall_max:.1}/min for {} ({:.1}x the {} visibility timeout).",
            clock(t),
            display::duration(stall_ms),
            stall_ms as f64 / c.facts.timeout_ms as f64,
            display::duration(c.facts.timeout_ms),
        ),
        format!(
            "At the end of the stall {} waited in the queue and {} leased: the stopped worker's lease had to run out before its work could move.",
            n_of(waiting, "message", "messages"),
            display::count(leased)
        ),
        format!(
            "{} in the run, one per fault that caught a message in flight: the square wave nobody connects to the setting.",
            n_of(stalls.len() as u64, "such stall", "such stalls")
        ),
    ];
    let short = crate::fix::SHORT_TIMEOUT_MS
        .min(c.facts.timeout_ms / 2)
        .max(1);
    // Under Temporal a short StartToClose would time out the work itself:
    // the heartbeat timeout is what finds the crash.
    let fixed = if c.facts.config.attempt_cap {
        crate::fix::temporal_lease_fix(c.scenario, &c.facts)
    } else {
        (
            crate::fix::capped_heartbeat(c.scenario, &c.facts, Some(short)),
            format!(
                "Keep the lease short ({}) and renew it while working: the timeout then says how long you will wait after a crash, not how long the work takes, and the stall after a deploy shrinks to it.",
                display::duration(short)
            ),
        )
    };
    Some(finding(
        "post-deploy-drain-stall",
        evidence,
        stall_ms as f64,
        t,
        Some(end),
        None,
        Some(fixed),
    ))
}

/// Queue depth ~0, many in flight, ack rate ~0 over a window: leases held
/// in prefetch buffers by workers that make no progress. Measure: the peak
/// in flight in the window.
fn invisible_backlog(c: &Ctx) -> Option<Finding> {
    let s = &c.run.report.series;
    let slots = u64::from(c.facts.config.workers) * u64::from(c.facts.config.concurrency);
    let hidden = |i: usize| {
        let inf = s.in_flight[i];
        inf >= INVISIBLE_MIN_IN_FLIGHT
            && inf as f64 >= INVISIBLE_SLOT_MULTIPLE * slots as f64
            && s.queue_depth[i] as f64 <= INVISIBLE_MAX_QUEUE_SHARE * inf as f64
            && s.acks[i] as f64 <= INVISIBLE_MAX_ACK_SHARE * inf as f64
    };
    let n = s.in_flight.len();
    let mut best: Option<(usize, usize)> = None;
    let mut i = 0;
    while i < n {
        if !hidden(i) {
            i += 1;
            continue;
        }
        let start = i;
        while i < n && hidden(i) {
            i += 1;
        }
        if best.is_none_or(|(_, l)| i - start > l) {
            best = Some((start, i - start));
        }
    }
    let (start, len) = best?;
    if len < INVISIBLE_MIN_BUCKETS {
        return None;
    }
    let bucket = c.bucket_ms();
    let peak = s.in_flight[start..start + len].iter().copied().max()?;
    let acks: u64 = s.acks[start..start + len].iter().sum();
    let from = start as u64 * bucket;
    let to = ((start + len) as u64 * bucket).min(c.run.end_ms);
    let prefetch = c.facts.config.prefetch;
    let evidence = vec![
        format!(
            "From {} to {} the queue depth stayed at {} while in flight rose to {}, {:.0}x the pool's {} handler slots, and {} accepted in all.",
            clock(from),
            clock(to),
            match s.queue_depth[start..start + len].iter().max().copied().unwrap_or(0) {
                0 => "0".to_string(),
                d => format!("{d} or less"),
            },
            display::count(peak),
            peak as f64 / slots.max(1) as f64,
            slots,
            n_of(acks, "ack was", "acks were")
        ),
        format!(
            "Each worker may hold {} leased messages (prefetch) for {} handlers: the surplus waits in local buffers{}, invisible to the rest of the pool.",
            display::count(u64::from(prefetch)),
            c.facts.config.concurrency,
            if no_timer(c.scenario).is_some() { "" } else { " with its lease timer running" }
        ),
        "The queue looks empty and the pool looks idle; in-flight count against ack rate is the metric that shows it.".to_string(),
    ];
    let fix = Fix::Prefetch {
        prefetch: c.facts.config.concurrency,
    };
    Some(finding(
        "invisible-backlog",
        evidence,
        peak as f64,
        from,
        Some(to),
        None,
        Some((
            fix,
            format!(
                "Prefetch no more than the handlers can run ({} per worker): a stalled worker then hides {} messages, not {}; alert on in flight against ack rate.",
                c.facts.config.concurrency,
                c.facts.config.concurrency,
                display::count(u64::from(prefetch))
            ),
        )),
    ))
}

/// A hung handler still holds its message at the end because its heartbeat
/// has no cap. Measure: messages so held.
fn hung_handler_uncapped(c: &Ctx) -> Option<Finding> {
    // Where no timer takes a message back, a cap on the extensions would
    // let nothing run out.
    if no_timer(c.scenario).is_some() {
        return None;
    }
    let hb = c.facts.config.heartbeat.as_ref()?;
    if hb.max_extensions.is_some() {
        return None;
    }
    let held: Vec<&lease_sim::run::Delivery> = c
        .run
        .deliveries
        .iter()
        .filter(|d| {
            d.outcome == Outcome::Hung
                && d.lease_end == lease_sim::run::LeaseEnd::Open
                && d.extensions_ok > 0
        })
        .collect();
    let first = held.iter().min_by_key(|d| (d.received_at, d.message))?;
    let hang_at = c
        .run
        .events
        .iter()
        .find(|e| e.kind == EventKind::Hang && e.message == first.message)
        .map_or(first.started_at.unwrap_or(first.received_at), |e| e.t);
    let dlq = match c.facts.config.max_receive_count {
        Some(n) => format!("although max_receive_count is {n}"),
        None => "and there is no redrive policy either".to_string(),
    };
    let evidence = vec![
        format!(
            "{} held by a hung handler at the end of the run, still heartbeating with no cap on extensions.",
            n_of(held.len() as u64, "message is", "messages are")
        ),
        format!(
            "Message {} hung on worker {} at {}; its lease was extended {} times and it has been in flight for {}, receive count {}, never reaching the dead-letter queue {dlq}.",
            first.message,
            first.worker,
            clock(hang_at),
            first.extensions_ok,
            display::duration(c.run.end_ms.saturating_sub(first.received_at)),
            first.receipt,
        ),
        "The broker sees a live holder; nothing expires, nothing alerts.".to_string(),
    ];
    let tail = stated_tail_ms(c.scenario).max(c.facts.run_p99_ms().unwrap_or(0) as f64);
    let cap = suggested_cap(tail, hb.interval_ms);
    Some(finding(
        "hung-handler-uncapped",
        evidence,
        held.len() as f64,
        hang_at,
        Some(c.run.end_ms),
        Some(first.message),
        Some((
            Fix::ExtensionCap {
                max_extensions: cap,
            },
            format!(
                "Cap the extensions ({cap} every {} covers {}x the work's tail): at the cap the heartbeat stops, the lease runs out, and after max_receive_count such receives the message goes to the DLQ, where someone owns it.",
                display::duration(hb.interval_ms),
                (crate::fix::HEARTBEAT_CAP_COVER)
            ),
        )),
    ))
}

/// No redrive policy, and at the end of the run messages are still in the
/// queue or in flight after `CIRCULATING_MIN_RECEIVES` or more receives, none
/// of them ever acked: they outlive every lease and nothing sets them aside
/// (the clip-moderation case: "an item that always exceeds the lease loops forever").
/// Measure: such messages.
fn circulating_without_redrive(c: &Ctx) -> Option<Finding> {
    if c.facts.config.max_receive_count.is_some() {
        return None;
    }
    let run = c.run;
    let runs_of = |m: &MessageRecord| {
        m.deliveries
            .iter()
            .filter_map(|&d| run.deliveries.get(d as usize))
            .collect::<Vec<_>>()
    };
    let circulating: Vec<(u32, &MessageRecord)> = run
        .messages
        .iter()
        .enumerate()
        .filter(|(_, m)| {
            matches!(m.fate, Fate::Available | Fate::InFlight)
                && m.receive_count >= CIRCULATING_MIN_RECEIVES
                && !runs_of(m)
                    .iter()
                    .any(|d| matches!(d.lease_end, LeaseEnd::Acked | LeaseEnd::AckedLate))
        })
        .map(|(id, m)| (id as u32, m))
        .collect();
    let &(id, m) = circulating
        .iter()
        .max_by_key(|(id, m)| (m.receive_count, std::cmp::Reverse(*id)))?;
    let runs = runs_of(m);
    // Handler time: worker capacity spent on the message, wall clock.
    let handler_ms = |runs: &[&lease_sim::run::Delivery]| -> u64 {
        runs.iter()
            .filter_map(|d| {
                let start = d.started_at?;
                Some(d.ended_at.unwrap_or(run.end_ms).saturating_sub(start))
            })
            .sum()
    };
    let spent = handler_ms(&runs);
    let spent_all: u64 = circulating
        .iter()
        .map(|(_, m)| handler_ms(&runs_of(m)))
        .sum();
    let effects_all: u64 = circulating.iter().map(|(_, m)| u64::from(m.effects)).sum();
    let at = m
        .deliveries
        .get((CIRCULATING_MIN_RECEIVES - 1) as usize)
        .and_then(|&d| run.deliveries.get(d as usize))
        .map_or(m.arrived_at, |d| d.received_at);
    let lost = runs
        .iter()
        .filter(|d| d.lease_end == LeaseEnd::Expired)
        .count() as u64;
    let n = circulating.len() as u64;
    let mut evidence = vec![
        format!(
            "{} still circulating at the end of the run ({}) with {CIRCULATING_MIN_RECEIVES} or more receives and no accepted ack, and there is no redrive policy to set {} aside.",
            n_of(n, "message is", "messages are"),
            clock(run.end_ms),
            if n == 1 { "it" } else { "them" }
        ),
        format!(
            "{} message {id}, received {} times, {}. It arrived at {} and has been circulating for {}; its receive count reached {CIRCULATING_MIN_RECEIVES} at {}.",
            if n == 1 { "It is" } else { "The highest receive count is" },
            m.receive_count,
            if m.fate == Fate::InFlight {
                "in flight again"
            } else {
                "back in the queue"
            },
            clock(m.arrived_at),
            display::duration(run.end_ms.saturating_sub(m.arrived_at)),
            clock(at)
        ),
        format!(
            "Its work needs {} at full speed{} against a {} lease; its runs took {} of handler time and {} ran out before an ack: all of it wasted.",
            display::duration(m.work_ms),
            match max_slowdown(c.scenario) {
                x if x > 1.0 => format!(" (the downstream slows it up to {x:.1}x)"),
                _ => String::new(),
            },
            display::duration(c.facts.timeout_ms),
            display::duration(spent),
            n_of(lost, "lease", "leases")
        ),
    ];
    if n > 1 {
        evidence.push(format!(
            "In all, the {n} took {} of handler time and left {} in the store, and none was ever deleted.",
            display::duration(spent_all),
            n_of(effects_all, "effect", "effects")
        ));
    }
    evidence.push(
        "Each lease ran out and the broker handed the message out again: with no limit on redeliveries the loop has no exit, and nothing alerts.".to_string(),
    );
    let (cause, _) = lease_fix(c.scenario, &c.facts);
    Some(finding(
        "circulating-without-redrive",
        evidence,
        circulating.len() as f64,
        at,
        Some(run.end_ms),
        Some(id),
        Some((
            Fix::RedriveLimit {
                max_receive_count: REDRIVE_RECEIVES,
            },
            format!(
                "Bound redeliveries: a redrive policy that moves a message to the dead-letter queue after a small number of receives ({REDRIVE_RECEIVES}) turns this infinite loop into a triage queue with an owner. It does not cure the cause: the message still outlives its lease and lands in the DLQ without ever failing, so pair it with a heartbeat or a bigger timeout (here: {}), and split DLQ arrivals by cause.",
                lowercase_first(&cause.label())
            ),
        )),
    ))
}

/// With a heartbeat on, a lease still ran out under a live handler (below
/// the cap) or extensions were rejected while the worker ran: the heartbeat
/// was starved, e.g. by a stop-the-world pause. Measure: such deliveries.
fn heartbeat_starvation(c: &Ctx) -> Option<Finding> {
    // An extension refused because the message was acked on receipt is
    // not a lease lost by a live worker.
    if running_work_never_expires(c.scenario).is_some() {
        return None;
    }
    let hb = c.facts.config.heartbeat.as_ref()?;
    let starved: Vec<&lease_sim::run::Delivery> = c
        .run
        .deliveries
        .iter()
        .filter(|d| {
            let sent = d.extensions_ok + d.extensions_rejected;
            let below_cap = hb.max_extensions.is_none_or(|m| sent < m);
            (expiry_kind(d) == Some(ExpiryKind::MidRun) && below_cap)
                || (d.extensions_rejected > 0 && d.outcome != Outcome::Crashed)
        })
        .collect();
    let first = starved
        .iter()
        .min_by_key(|d| (d.lease_ended_at, d.message))?;
    let rejected: u64 = starved
        .iter()
        .map(|d| u64::from(d.extensions_rejected))
        .sum();
    // A pause on the holder's lane that covers the lease's end.
    let marks = &c.run.worker_marks;
    let pause = marks.iter().enumerate().find_map(|(i, m)| {
        if m.kind != WorkerMarkKind::Pause || m.worker != first.worker {
            return None;
        }
        let resume = marks[i + 1..]
            .iter()
            .find(|r| r.worker == m.worker && r.kind == WorkerMarkKind::Resume)
            .map_or(c.run.end_ms, |r| r.t);
        (m.t <= first.lease_ended_at && first.lease_ended_at <= resume).then_some((m.t, resume))
    });
    let mut evidence = vec![format!(
        "{} lost by a worker that was alive, with a heartbeat every {} extending by {}.",
        n_of(starved.len() as u64, "lease was", "leases were"),
        display::duration(hb.interval_ms),
        display::duration(hb.extend_by_ms)
    )];
    match pause {
        Some((p, r)) => evidence.push(format!(
            "Message {} (worker {}, receipt {}): the worker was paused from {} to {} ({}), so no heartbeat went out and the lease expired at {} while it was alive.",
            first.message,
            first.worker,
            first.receipt,
            clock(p),
            clock(r),
            display::duration(r - p),
            clock(first.lease_ended_at)
        )),
        None => evidence.push(format!(
            "Message {} (worker {}, receipt {}): the lease expired at {} while the handler was still working.",
            first.message,
            first.worker,
            first.receipt,
            clock(first.lease_ended_at)
        )),
    }
    evidence.push(format!(
        "{} rejected afterwards; {}.",
        n_of(rejected, "extension was", "extensions were"),
        match hb.on_reject {
            lease_sim::scenario::OnReject::Continue =>
                "with on_reject: continue the worker went on believing it held the lease",
            lease_sim::scenario::OnReject::Abort =>
                "with on_reject: abort the worker stopped its handler",
        }
    ));
    let longest_pause = c
        .scenario
        .faults
        .iter()
        .filter_map(|f| match f {
            lease_sim::scenario::Fault::Pause { duration_ms, .. } => Some(*duration_ms),
            _ => None,
        })
        .max();
    let fix = match longest_pause {
        Some(p) if pause.is_some() => {
            let t = (p + 2 * hb.interval_ms).div_ceil(1_000) * 1_000;
            (
                Fix::Timeout { ms: t },
                format!(
                    "A lease is not a lock: no timeout bounds a pause, so put the fence in the store (a fencing token or unique constraint makes the stale holder's write lose). To stop this pause from losing the lease, make the lease outlast it plus two heartbeats ({}), or shorten the pause.",
                    display::duration(t)
                ),
            )
        }
        _ if hb.interval_ms >= hb.extend_by_ms => {
            let interval = interval_for(hb.extend_by_ms);
            (
                Fix::Heartbeat {
                    interval_ms: interval,
                    extend_by_ms: hb.extend_by_ms,
                    max_extensions: hb.max_extensions,
                    timeout_ms: None,
                },
                format!(
                    "The heartbeat comes no sooner than the lease it extends runs out: send it every third of the lease ({}). The fence in the store is still what makes a lost lease safe.",
                    display::duration(interval)
                ),
            )
        }
        _ => (
            Fix::Timeout {
                ms: timeout_above_p99(c.scenario, &c.facts),
            },
            "Give the lease room for a missed heartbeat (a timeout above p99), and put a fencing token or unique constraint in the store so a stale holder's write loses.".to_string(),
        ),
    };
    Some(finding(
        "heartbeat-starvation",
        evidence,
        starved.len() as f64,
        first.lease_ended_at,
        pause.map(|(_, r)| r),
        Some(first.message),
        Some(fix),
    ))
}

/// Ack latency p99 over the timeout at or above the limit (leases lost
/// under live handlers, not covered by a heartbeat), or no ack at all while
/// leases expire. Measure: the ratio (with no acks: the longest run over the
/// timeout).
fn lease_health_ratio(c: &Ctx) -> Option<Finding> {
    // Ack latency against a timeout no timer enforces says nothing.
    if no_timer(c.scenario).is_some() {
        return None;
    }
    let f = &c.facts;
    let lost = f.mid_run_expiries + f.buffer_expiries;
    let a = &c.run.report.ack_latency_ms;
    let (ratio, evidence) = match (a.p99, a.p99_over_timeout) {
        (Some(p99), Some(r)) => {
            let covered = f.config.heartbeat.is_some() && lost == 0;
            if r < HEALTH_RATIO_LIMIT || covered {
                return None;
            }
            (
                r,
                vec![
                    format!(
                        "Ack latency p99 is {} against a {} visibility timeout: a ratio of {r:.2}, at or above {}.",
                        display::duration(p99),
                        display::duration(f.timeout_ms),
                        HEALTH_RATIO_LIMIT.to_string(),
                    ),
                    format!(
                        "Acks that would have come later were rejected ({}) and their leases expired: the accepted ones are only the runs that beat the timer. {} ran out before the work was done.",
                        display::count(c.run.report.totals.acks_rejected),
                        n_of(lost, "lease", "leases")
                    ),
                ],
            )
        }
        _ => {
            if lost == 0 {
                return None;
            }
            let longest = f.longest_run_ms().unwrap_or(0);
            (
                longest as f64 / f.timeout_ms as f64,
                vec![
                    format!(
                        "No ack was accepted while {} ran out before the work was done.",
                        n_of(lost, "lease", "leases")
                    ),
                    format!(
                        "Runs took up to {} against a {} visibility timeout ({:.2}x): no run can beat the timer.",
                        display::duration(longest),
                        display::duration(f.timeout_ms),
                        longest as f64 / f.timeout_ms as f64,
                    ),
                ],
            )
        }
    };
    let first_expiry = c
        .run
        .deliveries
        .iter()
        .filter(|d| {
            matches!(
                expiry_kind(d),
                Some(ExpiryKind::MidRun | ExpiryKind::InBuffer)
            )
        })
        .min_by_key(|d| d.lease_ended_at);
    let (fix, why) = lease_fix(c.scenario, f);
    Some(finding(
        "lease-health-ratio",
        evidence,
        ratio,
        first_expiry.map_or(0, |d| d.lease_ended_at),
        None,
        first_expiry.map(|d| d.message),
        Some((
            fix,
            format!("Size the timeout against p99, not the mean, and measure again. {why}"),
        )),
    ))
}

/// A shoulder of messages received 2 and 3 times: the timeout is too tight
/// before it becomes a DLQ problem. Measure: the share of delivered messages
/// received 2 or more times.
fn receive_count_shoulder(c: &Ctx) -> Option<Finding> {
    let rc = &c.run.report.receive_counts;
    let mut delivered = 0u64;
    let mut repeat = 0u64;
    let mut by = [0u64; 3]; // 2, 3, 4+
    let mut highest = 0u64;
    for (k, &n) in rc {
        let Ok(k) = k.parse::<u64>() else { continue };
        if k == 0 || n == 0 {
            continue;
        }
        delivered += n;
        highest = highest.max(k);
        if k >= 2 {
            repeat += n;
            by[(k.min(4) - 2) as usize] += n;
        }
    }
    if delivered == 0 || repeat < SHOULDER_MIN_MESSAGES {
        return None;
    }
    let share = repeat as f64 / delivered as f64;
    if share < SHOULDER_MIN_SHARE {
        return None;
    }
    let first = c
        .run
        .events
        .iter()
        .find(|e| e.kind == EventKind::Receive && e.receipt >= 2 && e.receipt != u32::MAX);
    let evidence = vec![
        format!(
            "{} of {} delivered messages ({}) were received 2 or more times: 2 times {}, 3 times {}, 4 or more {} (highest {}).",
            display::count(repeat),
            display::count(delivered),
            pct(share),
            display::count(by[0]),
            display::count(by[1]),
            display::count(by[2]),
            highest
        ),
        format!(
            "Redeliveries {} with {} handler errors: the receive count is climbing through lease expiry, not failure.",
            display::count(c.run.report.totals.redeliveries),
            display::count(c.run.report.totals.errors)
        ),
    ];
    let (fix, why) = lease_fix(c.scenario, &c.facts);
    Some(finding(
        "receive-count-shoulder",
        evidence,
        share,
        first.map_or(0, |e| e.t),
        None,
        first.map(|e| e.message),
        Some((fix, why)),
    ))
}

/// Duplicate effects in a store with no fence (or a check separate from the
/// write). Measure: duplicate effects.
fn duplicate_effects_without_fence(c: &Ctx) -> Option<Finding> {
    let t = &c.run.report.totals;
    let fence = c.facts.config.fence;
    if t.duplicate_effects == 0 || !matches!(fence, Fence::None | Fence::CheckThenWrite) {
        return None;
    }
    let first = c
        .run
        .deliveries
        .iter()
        .filter(|d| matches!(d.effect, Effect::Duplicate | Effect::LostUpdate))
        .min_by_key(|d| (d.committed_at.unwrap_or(u64::MAX), d.message))?;
    let at = first.committed_at.unwrap_or(first.received_at);
    let how = match fence {
        Fence::CheckThenWrite => "The processed-ids check at start and the write at commit are separate steps, so overlapping runs both pass the check.",
        _ => "Nothing in the store makes the second writer lose.",
    };
    let evidence = vec![
        format!(
            "{} ({} of them lost updates: a read-modify-write overwritten by a concurrent run) for {} effects in all.",
            n_of(t.duplicate_effects, "duplicate effect", "duplicate effects"),
            display::count(t.lost_updates),
            display::count(t.effects)
        ),
        format!(
            "The first: message {} committed again by worker {} (receipt {}) at {}.",
            first.message,
            first.worker,
            first.receipt,
            clock(at)
        ),
        format!("Fence: {}. {how}", fence_name(fence)),
    ];
    Some(finding(
        "duplicate-effects-without-fence",
        evidence,
        t.duplicate_effects as f64,
        at,
        None,
        Some(first.message),
        Some((
            Fix::Fence {
                fence: Fence::UniqueConstraint,
            },
            "Build the fence in the destination store: insert the message id under a unique constraint in the same transaction as the effect, so the second writer loses deterministically, whatever the broker does.".to_string(),
        )),
    ))
}

/// The work's tail (stated p99 times the worst slowdown) is too big for the
/// lease, no heartbeat renews it, leases run out under live handlers, and a
/// split into `SPLIT_PARTS` steps would fit: make the unit of work smaller.
/// Measure: the tail over the timeout.
fn small_unit_of_work(c: &Ctx) -> Option<Finding> {
    let f = &c.facts;
    if f.config.heartbeat.is_some() || f.mid_run_expiries == 0 {
        return None;
    }
    let timeout = f.timeout_ms as f64;
    let tail = stated_tail_ms(c.scenario);
    let parts = f64::from(SPLIT_PARTS);
    // Beyond the sizing limit the dependency is down: no split helps.
    if max_slowdown(c.scenario) > crate::fix::SIZING_SLOWDOWN_LIMIT
        || tail < SMALL_UNIT_TAIL_SHARE * timeout
        || tail / parts >= timeout
    {
        return None;
    }
    let d = &c.scenario.work.dist;
    let (p99, median) = (work_p99_ms(d), work_median_ms(d));
    let slow = max_slowdown(c.scenario);
    let slowed = if slow > 1.0 {
        format!(", slowed up to {slow:.1}x by the downstream")
    } else {
        String::new()
    };
    let evidence = vec![
        format!(
            "The work's p99 is {} at full speed{slowed}: a tail of {} against a {} lease ({:.2}x).",
            display::duration(p99 as u64),
            display::duration(tail as u64),
            display::duration(f.timeout_ms),
            tail / timeout,
        ),
        format!(
            "{} ran out under a live handler with no heartbeat to renew them.",
            n_of(f.mid_run_expiries, "lease", "leases")
        ),
        format!(
            "Split into {SPLIT_PARTS} steps, each with median {} and p99 {} (tail {}), every step fits well inside the lease.",
            display::duration((median / parts) as u64),
            display::duration((p99 / parts) as u64),
            display::duration((tail / parts) as u64)
        ),
    ];
    let first = c
        .run
        .deliveries
        .iter()
        .filter(|d| expiry_kind(d) == Some(ExpiryKind::MidRun))
        .min_by_key(|d| (d.lease_ended_at, d.message));
    Some(finding(
        "small-unit-of-work",
        evidence,
        tail / timeout,
        first.map_or(0, |d| d.lease_ended_at),
        None,
        first.map(|d| d.message),
        Some((
            Fix::SplitWork { parts: SPLIT_PARTS },
            format!(
                "Make the unit of work smaller than the lease: split each message into {SPLIT_PARTS} short steps chained by a state machine (fetch, scan, decide), each its own message. That removes the race instead of managing it, and the steps show where time goes. Here: median {} -> {}, p99 {} -> {}, {SPLIT_PARTS}x the messages.",
                display::duration(median as u64),
                display::duration((median / parts) as u64),
                display::duration(p99 as u64),
                display::duration((p99 / parts) as u64)
            ),
        )),
    ))
}

/// The lease each delivery started with: the timeout, or its `BackOff` step.
fn own_lease_ms(c: &Ctx, d: &lease_sim::run::Delivery) -> u64 {
    c.facts.config.lease_ms(d.receipt)
}

/// Expired deliveries taken back before their own lease ran out: another
/// delivery on the same worker's channel timed out (RabbitMQ to 4.2
/// closes the channel) or a late ack killed it (`unknown delivery tag`),
/// and everything unacked on it went back. Measure: deliveries so taken.
fn channel_wide_requeue(c: &Ctx) -> Option<Finding> {
    use lease_sim::scenario::{ExpiryTakes, LateAck};
    let cfg = &c.facts.config;
    if cfg.expiry_takes != ExpiryTakes::Channel && cfg.late_ack != LateAck::ChannelError {
        return None;
    }
    let taken: Vec<&lease_sim::run::Delivery> = c
        .run
        .deliveries
        .iter()
        .filter(|d| {
            d.lease_end == LeaseEnd::Expired
                && d.extensions_ok == 0
                && d.lease_ended_at.saturating_sub(d.received_at) < own_lease_ms(c, d)
        })
        .collect();
    let first = taken
        .iter()
        .min_by_key(|d| (d.lease_ended_at, d.worker, d.message))?;
    let at = first.lease_ended_at;
    let closes = {
        let mut v: Vec<(u64, u32)> = taken.iter().map(|d| (d.lease_ended_at, d.worker)).collect();
        v.sort_unstable();
        v.dedup();
        v.len() as u64
    };
    let along = taken
        .iter()
        .filter(|d| d.lease_ended_at == at && d.worker == first.worker)
        .count() as u64;
    let never_started = taken
        .iter()
        .filter(|d| d.started_at.is_none_or(|s| s >= d.lease_ended_at))
        .count() as u64;
    let evidence = vec![
        format!(
            "{} went back to the queue before their own {} lease ran out, in {}: another delivery on the same channel timed out, and the channel was closed with everything unacked on it.",
            n_of(taken.len() as u64, "delivery", "deliveries"),
            display::duration(c.facts.timeout_ms),
            n_of(closes, "channel close", "channel closes")
        ),
        format!(
            "The first close, at {} on worker {}, took back {} with it; {} of all those taken back had not even started (prefetched).",
            clock(at),
            first.worker,
            n_of(along, "delivery", "deliveries"),
            display::count(never_started)
        ),
        "Each of them runs again elsewhere while the first worker's handler goes on: one slow message costs its whole channel.".to_string(),
    ];
    let t = timeout_above_longest(c.scenario, &c.facts);
    Some(finding(
        "channel-wide-requeue",
        evidence,
        taken.len() as f64,
        at,
        None,
        Some(first.message),
        Some((
            Fix::Timeout { ms: t },
            format!(
                "Raise the consumer timeout above the longest run measured ({} x {}): RabbitMQ has no call that extends it, so the timeout itself is the lever. A prefetch of 1 narrows what a close takes back, and RabbitMQ 4.3's quorum queues return only the timed-out message.",
                crate::fix::TIMEOUT_HEADROOM,
                display::duration(c.facts.longest_run_ms().unwrap_or(0))
            ),
        )),
    ))
}

/// Messages failed outright by the stall limit (BullMQ's
/// `maxStalledCount`): dead-lettered by expiries counted apart from the
/// attempts, skipping the retry policy. Measure: messages so failed.
fn stall_failure(c: &Ctx) -> Option<Finding> {
    use lease_sim::scenario::Renewal;
    let cfg = &c.facts.config;
    let limit = cfg.max_expiries?;
    let failed: Vec<(u64, u32)> = c
        .run
        .messages
        .iter()
        .enumerate()
        .filter_map(|(id, m)| match m.fate {
            Fate::DeadLettered {
                at,
                cause: lease_sim::run::DeadLetterCause::Expired,
            } => Some((at, id as u32)),
            _ => None,
        })
        .collect();
    let &(at, first) = failed.iter().min()?;
    let m = c.run.messages.get(first as usize)?;
    let ran = m
        .deliveries
        .iter()
        .filter(|&&d| {
            c.run
                .deliveries
                .get(d as usize)
                .is_some_and(|d| d.started_at.is_some())
        })
        .count() as u64;
    let blocked = cfg.renewal == Renewal::EventLoop && cfg.cpu_bound;
    let evidence = vec![
        format!(
            "{} failed outright after stalling more than {} ({}), its retries skipped.",
            n_of(failed.len() as u64, "message", "messages"),
            n_of(u64::from(limit), "time", "times"),
            "job stalled more than allowable limit"
        ),
        format!(
            "The first: message {} failed at {} after {}, its work {} against a {} lock.",
            first,
            clock(at),
            n_of(ran, "run", "runs"),
            display::duration(m.work_ms),
            display::duration(c.facts.timeout_ms)
        ),
        if blocked {
            "The work is CPU-bound and the lock is renewed on the worker's event loop, which the work blocks: no renewal runs until the job is over.".to_string()
        } else {
            format!(
                "{} ran out under a live handler: the lock was not renewed in time.",
                n_of(c.facts.mid_run_expiries, "lock", "locks")
            )
        },
    ];
    let fix = if blocked {
        (
            Fix::Renewal {
                renewal: Renewal::Background,
            },
            "Run the processor where the lock renewal can still run (a sandboxed processor, in a child process or worker thread): the event loop stays free and renews each lock however long the job takes.".to_string(),
        )
    } else {
        let t = timeout_above_p99(c.scenario, &c.facts);
        (
            Fix::Timeout { ms: t },
            format!(
                "Raise lockDuration above the measured p99 ({} x {}), so a job that blocks the renewal for a while still keeps its lock.",
                crate::fix::TIMEOUT_HEADROOM,
                display::duration(c.facts.run_p99_ms().unwrap_or(0))
            ),
        )
    };
    Some(finding(
        "stall-failure",
        evidence,
        failed.len() as f64,
        at,
        None,
        Some(first),
        Some(fix),
    ))
}

/// Leases that ran out whole while their message waited in a worker's
/// prefetch or ETA buffer, after which the message ran more than once.
/// Measure: messages so run twice or more.
fn buffer_expiry(c: &Ctx) -> Option<Finding> {
    // A channel close takes the buffer back with the slow delivery: that
    // is the channel-wide requeue, which counts the prefetched ones.
    if c.facts.config.expiry_takes == lease_sim::scenario::ExpiryTakes::Channel {
        return None;
    }
    let run = c.run;
    let mut hit: Vec<(u64, u32)> = Vec::new();
    for d in &run.deliveries {
        if expiry_kind(d) != Some(ExpiryKind::InBuffer)
            || d.lease_ended_at.saturating_sub(d.received_at) < own_lease_ms(c, d)
        {
            continue;
        }
        let Some(m) = run.messages.get(d.message as usize) else {
            continue;
        };
        let runs = m
            .deliveries
            .iter()
            .filter(|&&x| {
                run.deliveries
                    .get(x as usize)
                    .is_some_and(|x| x.started_at.is_some())
            })
            .count();
        if runs >= 2 {
            hit.push((d.lease_ended_at, d.message));
        }
    }
    hit.sort_unstable();
    let &(at, first) = hit.first()?;
    let messages = {
        let mut v: Vec<u32> = hit.iter().map(|h| h.1).collect();
        v.sort_unstable();
        v.dedup();
        v.len() as u64
    };
    let cfg = &c.facts.config;
    let m = run.messages.get(first as usize)?;
    let starts: Vec<String> = m
        .deliveries
        .iter()
        .filter_map(|&x| run.deliveries.get(x as usize))
        .filter_map(|x| {
            x.started_at
                .map(|t| format!("worker {} at {}", x.worker, clock(t)))
        })
        .collect();
    let wait = if cfg.eta_ms > 0 {
        format!("its ETA ({} after arrival)", display::duration(cfg.eta_ms))
    } else {
        format!(
            "a handler (prefetch {} for {} handlers)",
            cfg.prefetch, cfg.concurrency
        )
    };
    let evidence = vec![
        format!(
            "{} lost a whole {} lease while waiting in a worker's buffer for {wait}, and ran more than once: the broker handed it out again while the first worker still held it.",
            n_of(messages, "message", "messages"),
            display::duration(c.facts.timeout_ms)
        ),
        format!(
            "The first: message {}'s lease ran out at {} before any handler started it; it then started on {}.",
            first,
            clock(at),
            starts.join(", ")
        ),
    ];
    Some(finding(
        "buffer-expiry",
        evidence,
        messages as f64,
        at,
        None,
        Some(first),
        Some(lease_fix(c.scenario, &c.facts)),
    ))
}

/// An ack from a worker whose lease had run out, accepted and counted for
/// the message (JetStream, Redis `XACK`, Celery on Redis), while a later
/// delivery of it was still running: that run was settled from under it.
/// Measure: runs so settled.
fn ack_settled_another_run(c: &Ctx) -> Option<Finding> {
    let run = c.run;
    let mut settled: Vec<(u64, u32, u32, u32, u32)> = Vec::new();
    for mk in &run.marks {
        if mk.kind != lease_sim::run::MarkKind::AckOk {
            continue;
        }
        let Some(a) = run.deliveries.get(mk.delivery as usize) else {
            continue;
        };
        // A late ack after the work: one sent as the handler starts
        // (Celery's default) settles copies too, but that is the buffer's
        // story, told by the buffer expiry.
        if a.lease_end != LeaseEnd::AckedLate || a.ended_at.is_none_or(|e| e > mk.t) {
            continue;
        }
        let Some(m) = run.messages.get(a.message as usize) else {
            continue;
        };
        for &bx in &m.deliveries {
            let Some(b) = run.deliveries.get(bx as usize) else {
                continue;
            };
            let running = b.receipt > a.receipt
                && b.started_at.is_some_and(|s| s <= mk.t)
                && b.ended_at.is_none_or(|e| e > mk.t);
            if running {
                settled.push((mk.t, a.message, a.worker, b.worker, bx));
            }
        }
    }
    settled.sort_unstable();
    let &(at, first, acker, runner, copy) = settled.first()?;
    // Where the broker answers an ack of a deleted message as a success
    // (JetStream, Redis, Celery), the copy's ack is no error to be seen.
    let own_ack = match run.deliveries.get(copy as usize).map(|d| d.outcome) {
        Some(lease_sim::run::Outcome::AckNoOp) => {
            "that run's own ack then settles nothing, answered as a success"
        }
        _ => "that run's own ack then finds nothing",
    };
    let evidence = vec![
        format!(
            "{} settled by a late ack from a worker whose lease had already run out: the broker counts any copy's ack for the message.",
            n_of(settled.len() as u64, "run was", "runs were")
        ),
        format!(
            "The first: at {} worker {}'s late ack settled message {} while worker {} was still running its redelivery; {own_ack}, and had it failed, the message would be gone.",
            clock(at),
            acker,
            first,
            runner
        ),
    ];
    Some(finding(
        "ack-settled-another-run",
        evidence,
        settled.len() as f64,
        at,
        None,
        Some(first),
        Some(lease_fix(c.scenario, &c.facts)),
    ))
}

#[cfg(test)]
mod tests;
