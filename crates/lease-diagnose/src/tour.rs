//! Guided tours: "Apply it" exercises and interview questions as
//! data. Each tour starts from a shipped scenario; each step says what to do
//! or look at, where, and a check the page evaluates after every run to tick
//! the step off. `demo` is the documented way to satisfy a step: the changes
//! of all steps so far, applied in order, make every step's check true
//! (the tests run exactly that).

use serde::Serialize;

use lease_sim::resolve::resolve;
use lease_sim::run::Run;
use lease_sim::scenario::{Fence, Scenario};
use lease_sim::validate::effective_visibility_timeout_ms;

use crate::diagnose::detect;
use crate::fix::Fix;
use crate::stats::work_p99_ms;

/// When a step counts as done, evaluated on the page's current scenario and
/// its run.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", content = "value", rename_all = "snake_case")]
pub enum Check {
    /// Reading is the step: done once shown.
    Read,
    /// The effective visibility timeout is below this.
    TimeoutBelowMs(u64),
    TimeoutAtLeastMs(u64),
    /// The effective timeout is at least the work's stated p99 (at full speed).
    TimeoutAtLeastP99,
    OverlapsAtLeast(u64),
    NoOverlaps,
    NoRedeliveries,
    DuplicateEffectsAtLeast(u64),
    DuplicateEffectsAtMost(u64),
    FenceRejectionsAtLeast(u64),
    AcksRejectedAtLeast(u64),
    DeadLetteredExpiredAtLeast(u64),
    FenceIs(Fence),
    /// A heartbeat runs (explicit, or a preset's client library).
    HeartbeatOn,
    /// A heartbeat runs with a cap on extensions.
    ExtensionCapSet,
    WorkersAtLeast(u32),
    DetectorFires(&'static str),
    DetectorSilent(&'static str),
    /// Every one of these.
    All(&'static [Check]),
}

impl Check {
    pub fn done(&self, scenario: &Scenario, run: &Run) -> bool {
        let t = &run.report.totals;
        match self {
            Check::Read => true,
            Check::TimeoutBelowMs(ms) => effective_visibility_timeout_ms(scenario) < *ms,
            Check::TimeoutAtLeastMs(ms) => effective_visibility_timeout_ms(scenario) >= *ms,
            Check::TimeoutAtLeastP99 => {
                effective_visibility_timeout_ms(scenario) as f64 >= work_p99_ms(&scenario.work.dist)
            }
            Check::OverlapsAtLeast(n) => t.overlapping_runs >= *n,
            Check::NoOverlaps => t.overlapping_runs == 0,
            Check::NoRedeliveries => t.redeliveries == 0,
            Check::DuplicateEffectsAtLeast(n) => t.duplicate_effects >= *n,
            Check::DuplicateEffectsAtMost(n) => t.duplicate_effects <= *n,
            Check::FenceRejectionsAtLeast(n) => t.fence_rejections >= *n,
            Check::AcksRejectedAtLeast(n) => t.acks_rejected >= *n,
            Check::DeadLetteredExpiredAtLeast(n) => t.dead_lettered_expired >= *n,
            Check::FenceIs(f) => scenario.store.fence == *f,
            Check::HeartbeatOn => resolve(scenario).heartbeat.is_some(),
            Check::ExtensionCapSet => resolve(scenario)
                .heartbeat
                .is_some_and(|h| h.max_extensions.is_some()),
            Check::WorkersAtLeast(n) => scenario.workers.count >= *n,
            Check::DetectorFires(id) => detect(id, scenario, run).is_some(),
            Check::DetectorSilent(id) => detect(id, scenario, run).is_none(),
            Check::All(cs) => cs.iter().all(|c| c.done(scenario, run)),
        }
    }
}

/// A step as the page's reducer and its checks read it: when it is done and
/// how to do it. Its words are in `StepText`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Step {
    pub check: Check,
    /// How to satisfy the step, applied after the earlier steps' demos.
    /// Empty: nothing to change (the step holds once the earlier ones do).
    pub demo: &'static [Fix],
}

/// A tour as the page's reducer reads it: where it starts and its steps.
/// Its words are in `TourText`: the page loads the tours panel, which shows
/// them, on demand, and holds only this.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Tour {
    pub id: &'static str,
    /// A shipped scenario's name.
    pub scenario: &'static str,
    pub steps: &'static [Step],
}

/// What a step says, and where it points.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StepText {
    pub text: &'static str,
    /// Where to look: "timeline", "totals", "charts", "diagnosis", "sweep",
    /// or a control id ("timeout", "heartbeat", "max_extensions", "fence",
    /// "workers").
    pub look_at: &'static str,
    /// The moment of the run the step talks about ("60 s: the timer runs
    /// out"), where a presenter's playhead goes with it.
    pub at_ms: Option<u64>,
}

/// A tour's words: its title, the question it answers, and each step's text.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TourText {
    pub id: &'static str,
    pub title: &'static str,
    /// The exercise or interview question, as asked.
    pub question: &'static str,
    pub steps: &'static [StepText],
}

const fn read() -> Step {
    Step {
        check: Check::Read,
        demo: &[],
    }
}

const fn see(check: Check) -> Step {
    Step { check, demo: &[] }
}

const fn act(check: Check, demo: &'static [Fix]) -> Step {
    Step { check, demo }
}

/// A step's moment, when it names one.
macro_rules! at {
    () => {
        None
    };
    ($ms:literal) => {
        Some($ms)
    };
}

/// The tours are written once, words and checks together, and become two
/// statics: `TOURS` (checks and demonstrations) and `TOUR_TEXTS` (words).
/// A step is `read(text, look_at)`, `see(text, look_at, check)` or
/// `act(text, look_at, check, demo)`; `look_at @ ms` names the moment of the
/// run the step talks about.
macro_rules! tours {
    ($({
        id: $id:literal,
        title: $title:literal,
        question: $question:literal,
        scenario: $scenario:literal,
        steps: [$($kind:ident($text:literal, $look:literal $(@ $at:literal)? $(, $rest:expr)* $(,)?)),* $(,)?] $(,)?
    }),* $(,)?) => {
        static TOURS: &[Tour] = {
            use Check::*;
            &[$(Tour {
                id: $id,
                scenario: $scenario,
                steps: &[$($kind($($rest),*)),*],
            }),*]
        };
        static TOUR_TEXTS: &[TourText] = &[$(TourText {
            id: $id,
            title: $title,
            question: $question,
            steps: &[$(StepText { text: $text, look_at: $look, at_ms: at!($($at)?) }),*],
        }),*];
    };
}

// The tours as data: a static list, read where a tour is shown.
tours! {
        {
            id: "ninety-second-timeline",
            title: "A 90 s message against a 60 s timeout",
            question: "A message takes 90 seconds and the visibility timeout is 60. Walk me through the timeline.",
            scenario: "ninety-second-message",
            steps: [
                read(
                    "0 s: worker 0 receives the message and the broker starts a 60 s timer. The worker cannot see that timer; it just works.",
                    "timeline" @ 0,
                ),
                see(
                    "60 s: the timer runs out. The broker asks nobody and hands the message to worker 1. Two bars of the same message now overlap.",
                    "timeline" @ 60_000,
                    OverlapsAtLeast(1),
                ),
                see(
                    "90 s: worker 0 finishes, commits its effect and acks with a receipt that is no longer current. The ack deletes nothing (Textbook rules reject it; SQS standard answers success anyway); the effect has already landed.",
                    "timeline" @ 90_000,
                    AcksRejectedAtLeast(1),
                ),
                see(
                    "With no redrive policy this repeats every minute: the receive count climbs, nothing is ever deleted, and the store collects one effect per run.",
                    "totals",
                    All(&[
                        DetectorFires("circulating-without-redrive"),
                        DetectorFires("duplicate-effects-without-fence"),
                    ]),
                ),
                act(
                    "Raise the timeout above the 90 s the work takes (try 135 s): one bar, one accepted ack.",
                    "timeout",
                    All(&[TimeoutAtLeastP99, NoOverlaps]),
                    &[Fix::Timeout { ms: 135_000 }],
                ),
                act(
                    "Or keep 60 s and heartbeat every 20 s, with a cap: the lease now follows the work instead of a guess.",
                    "heartbeat",
                    All(&[
                        TimeoutBelowMs(90_000),
                        HeartbeatOn,
                        ExtensionCapSet,
                        NoRedeliveries,
                    ]),
                    &[Fix::Heartbeat {
                        interval_ms: 20_000,
                        extend_by_ms: 60_000,
                        max_extensions: Some(12),
                        timeout_ms: Some(60_000),
                    }],
                ),
            ],
        },
        {
            id: "lower-the-timeout",
            title: "Lower the timeout until the feedback loop starts",
            question: "Instrument ack latency and receive count, then lower the timeout until the feedback loop starts. Note the throughput curve on the way down.",
            scenario: "clip-surge",
            steps: [
                act(
                    "Start safe: raise the timeout to 3 minutes, above what a review takes even in the surge. No shoulder, no loop.",
                    "timeout",
                    All(&[
                        TimeoutAtLeastMs(180_000),
                        DetectorSilent("receive-count-shoulder"),
                        DetectorSilent("redelivery-feedback-loop"),
                    ]),
                    &[Fix::Timeout { ms: 180_000 }],
                ),
                read(
                    "Note the two instruments: ack latency p99 over the timeout, and the receive-count distribution (almost every clip received once).",
                    "totals",
                ),
                act(
                    "Lower it to 92 s. Throughput has not moved yet, but ack latency p99 is now above 0.8 of the timeout: the first warning.",
                    "timeout",
                    All(&[
                        TimeoutBelowMs(180_000),
                        DetectorFires("lease-health-ratio"),
                        DetectorSilent("redelivery-feedback-loop"),
                    ]),
                    &[Fix::Timeout { ms: 92_000 }],
                ),
                act(
                    "Lower it to 55 s. Now the loop starts: during the surge completions per minute fall while redeliveries and running handlers climb, and the receive counts grow a shoulder at 2 and 3.",
                    "charts",
                    All(&[
                        DetectorFires("redelivery-feedback-loop"),
                        DetectorFires("receive-count-shoulder"),
                    ]),
                    &[Fix::Timeout { ms: 55_000 }],
                ),
                read(
                    "The sweep draws the whole curve at once: timeout from 120 s down to 10 s against completions per minute and overlapping runs.",
                    "sweep",
                ),
            ],
        },
        {
            id: "dependency-slows-3x",
            title: "A dependency slows 3x",
            question: "Throughput collapses and CPU rises after a downstream dependency slows by 3x. No code changed. Explain the mechanism and the two-line fix.",
            scenario: "dependency-slows-3x",
            steps: [
                read(
                    "At minute 5 the database gets three times slower: 8 s of work becomes 24 s, and the tail now outlives the 30 s lease.",
                    "charts",
                ),
                see(
                    "Each expiry starts a duplicate against the same slow database, which slows everyone more: completions fall while redeliveries rise, with zero handler errors.",
                    "diagnosis",
                    DetectorFires("redelivery-feedback-loop"),
                ),
                act(
                    "Try the obvious: double the pool to 16 workers. The database still serves 8 at full speed, so the loop gets worse, not better.",
                    "workers",
                    All(&[
                        WorkersAtLeast(16),
                        DetectorFires("redelivery-feedback-loop"),
                    ]),
                    &[Fix::Workers { count: 16 }],
                ),
                act(
                    "The two-line fix: back to 8 workers, and heartbeat every 10 s extending by 30 s, capped at 30 extensions.",
                    "heartbeat",
                    All(&[
                        HeartbeatOn,
                        ExtensionCapSet,
                        DetectorSilent("redelivery-feedback-loop"),
                        NoOverlaps,
                    ]),
                    &[
                        Fix::Workers { count: 8 },
                        Fix::Heartbeat {
                            interval_ms: 10_000,
                            extend_by_ms: 30_000,
                            max_extensions: Some(30),
                            timeout_ms: None,
                        },
                    ],
                ),
            ],
        },
        {
            id: "extension-cap",
            title: "Design the extension cap",
            question: "A hung handler holds a message forever because lease extension has no cap. Design the cap and decide what should happen at the limit.",
            scenario: "hung-handler",
            steps: [
                read(
                    "Two handlers hang on their first line while their heartbeat threads keep extending the lease: the bars never end.",
                    "timeline",
                ),
                see(
                    "The broker sees a live holder, so nothing expires and nothing reaches the dead-letter queue.",
                    "diagnosis",
                    DetectorFires("hung-handler-uncapped"),
                ),
                act(
                    "Cap the extensions at a few times the slowest legitimate run: 6 extensions of a 10 s heartbeat lets real work finish and bounds what a hang can hold.",
                    "max_extensions",
                    All(&[
                        ExtensionCapSet,
                        DetectorSilent("hung-handler-uncapped"),
                    ]),
                    &[Fix::ExtensionCap { max_extensions: 6 }],
                ),
                see(
                    "At the cap the heartbeat stops and the lease runs out; after max_receive_count (3) receives the message lands in the dead-letter queue, a triage queue with an owner.",
                    "totals",
                    DeadLetteredExpiredAtLeast(2),
                ),
                read(
                    "Also decide the rest of the limit: log and alert when a handler reaches the cap, and consider aborting it so it frees its slot.",
                    "heartbeat",
                ),
            ],
        },
        {
            id: "not-a-lock",
            title: "Why a visibility timeout is not a lock",
            question: "Why is a visibility timeout not a distributed lock?",
            scenario: "gc-pause-starves-heartbeat",
            steps: [
                read(
                    "Worker 0 holds the lease and heartbeats every 10 s. The broker only ever sees the heartbeats, never the worker.",
                    "timeline",
                ),
                see(
                    "A 55 s pause freezes worker 0: no heartbeat goes out, and the lease expires at 50 s while worker 0 is alive.",
                    "timeline" @ 50_000,
                    DetectorFires("heartbeat-starvation"),
                ),
                see(
                    "Worker 1 gets the message. Worker 0 wakes up, finds out nothing in time, and both commit: exclusivity ended on a clock, not on a fact.",
                    "totals",
                    All(&[OverlapsAtLeast(1), DuplicateEffectsAtLeast(1)]),
                ),
                act(
                    "Put the fence where the effect lands: a fencing token in the store. Worker 1 commits with receipt 2; worker 0's late commit with receipt 1 is refused.",
                    "fence",
                    All(&[
                        FenceIs(Fence::FencingToken),
                        FenceRejectionsAtLeast(1),
                        DuplicateEffectsAtMost(0),
                    ]),
                    &[Fix::Fence {
                        fence: Fence::FencingToken,
                    }],
                ),
                read(
                    "No timeout value is safe, because no pause has a bound. A lease gives liveness; the store's fence gives safety.",
                    "diagnosis",
                ),
            ],
        },
        {
            id: "bound-redeliveries",
            title: "Clips reviewed for ever: bound redeliveries",
            question: "During the clip surge a few clips are reviewed indefinitely. Why do they never finish, and what sets them aside?",
            scenario: "clip-surge",
            steps: [
                see(
                    "At the end of the run some clips are still circulating, received again and again and never acked: the longest clips outlive every 30 s lease.",
                    "diagnosis",
                    DetectorFires("circulating-without-redrive"),
                ),
                read(
                    "Select the flagged clip: a chain of bars, each ending in an expiry before the review was done, and the receive count one higher each time.",
                    "timeline",
                ),
                act(
                    "Bound redeliveries: move a clip to the dead-letter queue after 5 receives. The infinite loop becomes a triage queue with an owner.",
                    "max-receive",
                    All(&[
                        DetectorSilent("circulating-without-redrive"),
                        DeadLetteredExpiredAtLeast(1),
                    ]),
                    &[Fix::RedriveLimit {
                        max_receive_count: 5,
                    }],
                ),
                see(
                    "It does not cure the cause: every dead letter expired with no handler error. The DLQ now holds valid clips that were only slow.",
                    "diagnosis",
                    DetectorFires("dlq-of-valid-messages"),
                ),
                act(
                    "Pair it with a heartbeat every 10 s, capped at 30 extensions: clips keep their lease, and the DLQ is left for clips that really fail.",
                    "heartbeat",
                    All(&[
                        HeartbeatOn,
                        ExtensionCapSet,
                        DetectorSilent("dlq-of-valid-messages"),
                        DetectorSilent("circulating-without-redrive"),
                    ]),
                    &[Fix::Heartbeat {
                        interval_ms: 10_000,
                        extend_by_ms: 30_000,
                        max_extensions: Some(30),
                        timeout_ms: None,
                    }],
                ),
            ],
        },
        {
            id: "dlq-of-valid-messages",
            title: "A DLQ of messages that never failed",
            question: "Your DLQ is full of messages that never raised an error. What happened?",
            scenario: "dlq-of-valid-messages",
            steps: [
                read(
                    "Split the dead letters by cause: all of them expired, none failed, and the handlers raised no error at all.",
                    "totals",
                ),
                see(
                    "The receive count reached the limit through lease expiry alone: the messages were slow, not broken.",
                    "diagnosis",
                    DetectorFires("dlq-of-valid-messages"),
                ),
                read(
                    "Select a dead-lettered message: three bars, each ending in an expiry before the work was done.",
                    "timeline",
                ),
                act(
                    "Renew the lease while working, with a cap: slow messages keep their lease, and the DLQ is left for real failures.",
                    "heartbeat",
                    All(&[
                        HeartbeatOn,
                        ExtensionCapSet,
                        DetectorSilent("dlq-of-valid-messages"),
                    ]),
                    &[Fix::Heartbeat {
                        interval_ms: 10_000,
                        extend_by_ms: 30_000,
                        max_extensions: Some(20),
                        timeout_ms: None,
                    }],
                ),
            ],
        },
        {
            id: "two-workers-commit",
            title: "Two workers commit, then a unique constraint",
            question: "Force a lease expiry mid-handler and demonstrate two workers committing to the same row. Then add a unique constraint and show one of them losing.",
            scenario: "sub-second-work",
            steps: [
                act(
                    "Force the expiry: lower the timeout to the slider's floor, 1 s. Work takes 200 ms typically and 800 ms at p99, so only the slowest handlers outlive it, and each of those is run twice.",
                    "timeout",
                    All(&[TimeoutBelowMs(1_001), OverlapsAtLeast(1)]),
                    &[Fix::Timeout { ms: 1_000 }],
                ),
                see(
                    "Two workers committed the same message: duplicate effects, and lost updates where their read-modify-writes interleaved.",
                    "totals",
                    DuplicateEffectsAtLeast(1),
                ),
                act(
                    "Add a unique constraint on the message id, in the same transaction as the effect: the second commit loses.",
                    "fence",
                    All(&[
                        FenceIs(Fence::UniqueConstraint),
                        FenceRejectionsAtLeast(1),
                        DuplicateEffectsAtMost(0),
                    ]),
                    &[Fix::Fence {
                        fence: Fence::UniqueConstraint,
                    }],
                ),
                see(
                    "The broker still hands a slow message out twice (the overlapping bars); only the store decides which write counts.",
                    "timeline",
                    OverlapsAtLeast(1),
                ),
            ],
        },
}

/// Every tour, in the order the page lists them.
pub fn tours() -> &'static [Tour] {
    TOURS
}

/// The tour of that id.
pub fn tour(id: &str) -> Option<&'static Tour> {
    TOURS.iter().find(|t| t.id == id)
}

/// Every tour's words, in the order of `tours()`.
pub fn tour_texts() -> &'static [TourText] {
    TOUR_TEXTS
}

/// The words of the tour of that id.
pub fn tour_text(id: &str) -> Option<&'static TourText> {
    TOUR_TEXTS.iter().find(|t| t.id == id)
}
