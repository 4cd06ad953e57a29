//! Recommend a visibility timeout for targets (docs/MODEL.md "The
//! recommendation"): each candidate runs over the same seeds, counters only,
//! and is judged by a one-sided 95% upper bound of its rates. The search
//! brackets geometrically from the work's median, bisects on the bound to
//! the lowest timeout that meets the rate targets, and falls back to a
//! heartbeat when that timeout would keep a crashed worker's message
//! invisible for longer than the recovery target.
//!
//! The search is a state machine a caller drives step by step
//! (`next_candidate`, `seeds_of`, `feed`), so the page can spread a step's
//! seeds over its workers; `recommend` is the loop natively.

use lease_sim::resolve::{client_policy, ClientPolicy, PUBSUB_MIN_EXTENSION_MS};
use lease_sim::scenario::{Heartbeat, OnReject, Scenario, LAMBDA_TIMEOUT_FACTOR};
use lease_sim::validate::MAX_VISIBILITY_TIMEOUT_MS;
use serde::{Deserialize, Serialize};

use crate::fix::{interval_for, stated_tail_ms, suggested_cap, MAX_SUGGESTED_CAP};
use crate::stats::work_median_ms;

/// Most seeds a candidate may run over: each is a whole simulation.
pub const MAX_SEEDS: u32 = 1_000;
/// Fewest seeds: an upper bound needs a spread, and one seed has none.
pub const MIN_SEEDS: u32 = 2;
/// Each bracketing step multiplies the timeout by this.
pub const BRACKET_FACTOR: u64 = 2;
/// The bisection stops once the bracket is this share of its top ...
pub const BISECT_SHARE: f64 = 0.02;
/// ... or this many ms, whichever is wider (for timeouts under 10 s, a
/// tenth of the top instead).
pub const BISECT_MS: u64 = 1_000;
/// The rule of thumb: a timeout from 1.5 to 2 times the work's p99.
pub const THUMB_LOW: f64 = 1.5;
pub const THUMB_HIGH: f64 = 2.0;

/// What the recommendation must meet. Rates are per arrived message.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Targets {
    /// Redeliveries per arrived message, from 0 to 1.
    pub max_redelivery_rate: f64,
    /// Longest a crashed worker's message may stay invisible, in ms.
    pub max_recovery_ms: Option<u64>,
    /// Duplicate effects per arrived message, from 0 to 1.
    pub max_duplicate_rate: Option<f64>,
}

/// One setting the search tries: a static timeout, or a timeout with a
/// heartbeat. `heartbeat: None` runs with renewal off.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Candidate {
    pub timeout_ms: u64,
    pub heartbeat: Option<Heartbeat>,
    /// JetStream's `BackOff`: delivery n's lease, the last repeating, in
    /// place of `timeout_ms`. `None` runs without a list.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lease_steps_ms: Option<Vec<u64>>,
}

impl Candidate {
    /// How long a crashed worker's message stays invisible at most: the
    /// lease it last got, the timeout or the heartbeat's extension.
    pub fn recovery_ms(&self) -> u64 {
        let extend = self
            .heartbeat
            .as_ref()
            .map_or(0, |h| h.extend_by_ms.unwrap_or(self.timeout_ms));
        // Under a BackOff list a crash may come on any delivery: its
        // longest step.
        let step = self
            .lease_steps_ms
            .as_ref()
            .and_then(|v| v.iter().copied().max())
            .unwrap_or(0);
        self.timeout_ms.max(extend).max(step)
    }

    /// The scenario with this candidate's lease settings and `seed`.
    pub fn apply(&self, scenario: &Scenario, seed: u64) -> Scenario {
        let mut s = scenario.clone();
        s.seed = seed;
        s.broker.visibility_timeout_ms = Some(self.timeout_ms);
        // A file's own BackOff would replace the timeout tried.
        s.broker.lease_steps_ms = self.lease_steps_ms.clone();
        // `Some(None)`: renewal off even where a preset's client would renew.
        s.workers.heartbeat = Some(self.heartbeat.clone());
        s
    }
}

/// One seed of one candidate: the counts its bound is built from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SeedResult {
    pub seed: u64,
    pub arrived: u64,
    pub redeliveries: u64,
    pub duplicate_effects: u64,
    /// `Candidate::recovery_ms`.
    pub recovery_ms: u64,
}

/// A judged candidate: means and one-sided 95% upper bounds over its seeds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Point {
    pub candidate: Candidate,
    pub redelivery_rate_mean: f64,
    pub redelivery_rate_upper: f64,
    pub duplicate_rate_mean: f64,
    pub duplicate_rate_upper: f64,
    pub recovery_ms: u64,
    /// Every target met (rates by their upper bound).
    pub meets: bool,
}

/// The rule of thumb beside the result: a timeout 1.5 to 2 times the work's
/// p99, the p99 against the recommended timeout, and Lambda's six times.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RuleOfThumb {
    /// The work's p99 as stated, slowed by its worst slowdown, in ms.
    pub p99_ms: u64,
    /// `[1.5, 2] x p99_ms`.
    pub window_ms: [u64; 2],
    /// `p99_ms` over the recommended timeout; `None` without one.
    pub p99_over_timeout: Option<f64>,
    /// The least timeout Lambda's rule allows (six times the function
    /// timeout), when the scenario uses that client.
    pub lambda_minimum_ms: Option<u64>,
    /// Whether the recommendation and the rule say the same.
    pub agrees: bool,
    pub words: String,
}

/// What to set, with its evidence.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Recommendation {
    /// The timeout to set (with `heartbeat` when one is needed); `None`
    /// when nothing tried meets the targets.
    pub visibility_timeout_ms: Option<u64>,
    /// Static timeouts that meet every target: `[lowest, highest]`.
    pub window_ms: Option<[u64; 2]>,
    pub seeds: u32,
    /// Static candidates by timeout, then heartbeat candidates as tried.
    pub points: Vec<Point>,
    pub heartbeat: Option<Heartbeat>,
    /// JetStream's other levers, each run over the same seeds: a `BackOff`
    /// list, then a short AckWait with in-progress acks.
    #[serde(default)]
    pub alternatives: Vec<Point>,
    pub rule_of_thumb: RuleOfThumb,
    pub verdict: String,
}

/// A target (or the seed count, or the scenario) that cannot be searched for.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TargetError {
    /// `max_redelivery_rate`, `max_recovery_ms`, `max_duplicate_rate`,
    /// `seeds` or `scenario`.
    pub target: String,
    pub value: String,
    pub allowed: String,
}

impl TargetError {
    fn new(target: &str, value: String, allowed: &str) -> Self {
        TargetError {
            target: target.to_string(),
            value,
            allowed: allowed.to_string(),
        }
    }

    /// The command line's flag for the target.
    pub fn flag(&self) -> String {
        match self.target.as_str() {
            "max_redelivery_rate" => "--max-redelivery-rate".into(),
            "max_recovery_ms" => "--max-recovery".into(),
            "max_duplicate_rate" => "--max-duplicate-rate".into(),
            "seeds" => "--seeds".into(),
            other => other.to_string(),
        }
    }
}

impl std::fmt::Display for TargetError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} = {}: {}", self.target, self.value, self.allowed)
    }
}

impl std::error::Error for TargetError {}

/// Where the search is.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "phase", rename_all = "snake_case")]
enum Phase {
    /// Doubling from the median until the rates meet their targets.
    Up {
        next: u64,
    },
    /// The median already meets them: halving until they do not.
    Down {
        next: u64,
    },
    /// `lo` fails (0: nothing below was tried), `hi` meets.
    Bisect {
        lo: u64,
        hi: u64,
    },
    /// The window's top, tried for evidence.
    Top {
        ms: u64,
    },
    /// The i-th heartbeat of the fallback.
    Heartbeat {
        i: usize,
    },
    /// The i-th of JetStream's other levers (`jetstream_candidates`).
    JetStream {
        i: usize,
    },
    Done,
}

/// The search, one candidate at a time. Serializable: the page keeps it
/// between steps.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Search {
    targets: Targets,
    seeds: u32,
    first_seed: u64,
    /// The scenario's duration: a longer timeout cannot expire in the run.
    max_ms: u64,
    /// The work's tail (stated p99, slowed), for the rule of thumb and caps.
    tail_ms: u64,
    /// Lambda's least timeout (six times the function timeout) when the
    /// scenario's client is SQS with Lambda.
    #[serde(default)]
    lambda_minimum_ms: Option<u64>,
    /// What the scenario's client library does to the lease, said after
    /// the verdict: with a library that extends every lease, a timeout far
    /// below the work's time meets the targets, which reads as a mistake
    /// without it.
    #[serde(default)]
    client_note: Option<String>,
    /// Messages that arrived over its random seeds (the same for every candidate:
    /// arrivals have their own random stream).
    #[serde(default)]
    arrived: u64,
    /// A client library manages the lease, so the file may not carry a
    /// heartbeat: the fallback has nothing to try.
    #[serde(default)]
    client_library: bool,
    /// Why the worker cannot extend its lease (the preset or the client),
    /// so the fallback has no heartbeat to try.
    #[serde(default)]
    cannot_extend: Option<String>,
    /// The least timeout the preset accepts (Cloud Tasks: 15 s).
    #[serde(default = "one_ms")]
    min_ms: u64,
    /// What the preset calls the lease and what its answer adds (BullMQ's
    /// renewal, Celery's ETA, JetStream's in-progress calls).
    #[serde(default)]
    words: PresetWords,
    /// JetStream: after the search, a `BackOff` list and in-progress acks
    /// are run too, so their figures come from runs.
    #[serde(default)]
    jetstream: bool,
    /// `MaxDeliver` (`max_receive_count`): a `BackOff` list is no longer.
    #[serde(default)]
    max_deliver: Option<u32>,
    /// The JetStream levers judged, in `jetstream_candidates` order.
    #[serde(default)]
    alternatives: Vec<Point>,
    phase: Phase,
    points: Vec<Point>,
}

/// Why no heartbeat is tried when the person says their client cannot
/// extend the lease.
pub const OWN_CLIENT_CANNOT_EXTEND: &str = "your client has no call that extends the lease";

/// A `BackOff` list tried: the AckWait found, then twice and four times it.
pub const BACKOFF_FACTORS: [u64; 3] = [1, 2, 4];

fn one_ms() -> u64 {
    1
}

/// What the preset calls the timeout, and what its answer says beside it.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct PresetWords {
    /// `the visibility timeout`, `lockDuration`, `AckWait`, ...
    pub lease: String,
    /// Said after the verdict, with the timeout found (`{t}`), when any.
    pub note: String,
    /// The preset keeps no lease: nothing to search, this is the answer.
    pub no_lease: Option<String>,
}

/// What each preset calls its lease, and what a recommendation under it
/// must say beside the number (docs/MODEL.md "The recommendation").
pub fn preset_words(s: &Scenario) -> PresetWords {
    use lease_sim::scenario::{Preset, Renewal};
    let cfg = lease_sim::resolve::resolve(s);
    let d = lease_format::display::duration;
    let (lease, note) = match s.broker.preset {
        Preset::Bullmq => {
            let covers = if cfg.renewal == Renewal::EventLoop && cfg.cpu_bound {
                "Renewal does not cover this work: the processor is CPU-bound, and BullMQ renews the lock on the event loop the processor blocks, so lockDuration must outlast the whole job (or run the processor sandboxed, where the renewal keeps running)."
            } else if cfg.renewal == Renewal::EventLoop {
                "Renewal covers this work while the event loop is free: BullMQ renews the lock every half lockDuration; each candidate was judged with renewal off, as if the processor blocked the loop throughout, so this lockDuration also holds through a blocked loop."
            } else {
                "Renewal covers this work: the lock is renewed off the event loop (a sandboxed processor); each candidate was judged with renewal off."
            };
            ("lockDuration", covers.to_string())
        }
        Preset::NatsJetstream => (
            "AckWait",
            "With a BackOff list, its first value replaces AckWait for the first delivery: start it at {t}. A handler that may run longer can call InProgress() to reset the timer.".to_string(),
        ),
        Preset::CeleryRedis | Preset::CelerySqs => {
            let eta = if cfg.eta_ms > 0 {
                format!(
                    "The longest ETA here is {}: a task waiting for its ETA longer than the visibility timeout is restored and run again, so the timeout must cover the ETA and the run.",
                    d(cfg.eta_ms)
                )
            } else {
                "No task here waits for an ETA; one that waits longer than the visibility timeout is restored and run again, so cover the longest ETA too.".to_string()
            };
            let acks = if cfg.ack_at == lease_sim::scenario::AckAt::BeforeWork {
                " With acks_late off each task is acked as it starts, so the timeout only has to cover the wait before the start (the prefetch buffer and the ETA); a crash then loses the task."
            } else {
                ""
            };
            ("the visibility_timeout (broker_transport_options)", eta + acks)
        }
        Preset::Rabbitmq42 | Preset::Rabbitmq43 => ("consumer_timeout", String::new()),
        Preset::TemporalActivity => ("StartToClose", String::new()),
        Preset::CloudTasks => (
            "the dispatch deadline",
            "Cloud Tasks takes a dispatch deadline from 15 s to 30 min; the candidates stayed in it.".to_string(),
        ),
        Preset::AzureServiceBus => ("LockDuration", String::new()),
        Preset::GooglePubsub => ("the ack deadline", String::new()),
        Preset::RedisStreams => ("the claimer's min-idle-time", String::new()),
        _ => ("the visibility timeout", String::new()),
    };
    let no_lease = (!crate::extend::has_lease(s.broker.preset)).then(|| {
        "There is no lease to choose under Sidekiq Pro: super_fetch keeps no lease, so a slow job is never run twice, and a crashed process's jobs come back only when a later process starts, once its heartbeat has expired and the hourly orphan check is due. No timeout changes that.".to_string()
    });
    PresetWords {
        lease: lease.to_string(),
        note,
        no_lease,
    }
}

impl Search {
    pub fn new(scenario: &Scenario, targets: Targets, seeds: u32) -> Result<Search, TargetError> {
        check_targets(&targets, seeds)?;
        lease_sim::validate(scenario)
            .map_err(|e| TargetError::new("scenario", scenario.name.clone(), &e.to_string()))?;
        let (min_ms, top) = crate::extend::timeout_range_ms(scenario.broker.preset);
        let max_ms = scenario.duration_ms.clamp(min_ms, top.max(min_ms));
        let start = (work_median_ms(&scenario.work.dist).round() as u64).clamp(min_ms, max_ms);
        let words = preset_words(scenario);
        Ok(Search {
            targets,
            seeds,
            first_seed: scenario.seed,
            max_ms,
            tail_ms: stated_tail_ms(scenario).round().max(1.0) as u64,
            lambda_minimum_ms: match client_policy(scenario.workers.client.as_ref()) {
                ClientPolicy::SqsLambda {
                    function_timeout_ms,
                } => Some(function_timeout_ms.saturating_mul(LAMBDA_TIMEOUT_FACTOR)),
                _ => None,
            },
            client_note: client_note(client_policy(scenario.workers.client.as_ref())),
            arrived: 0,
            client_library: client_policy(scenario.workers.client.as_ref()) != ClientPolicy::None,
            cannot_extend: crate::extend::cannot_extend(scenario).map(str::to_string),
            min_ms,
            phase: if words.no_lease.is_some() {
                Phase::Done
            } else {
                Phase::Up { next: start }
            },
            words,
            jetstream: scenario.broker.preset == lease_sim::scenario::Preset::NatsJetstream,
            max_deliver: lease_sim::resolve::resolve(scenario).max_receive_count,
            alternatives: Vec::new(),
            points: Vec::new(),
        })
    }

    /// The person says their client has no call that extends the lease (a
    /// library the model does not name): the fallback tries no heartbeat.
    /// Where the preset or the client already says why, that reason stands.
    pub fn with_a_client_that_cannot_extend(mut self) -> Search {
        if self.cannot_extend.is_none() {
            self.cannot_extend = Some(OWN_CLIENT_CANNOT_EXTEND.to_string());
        }
        self
    }

    /// The candidate to run next over `seeds_of()`; `None` when done.
    pub fn next_candidate(&self) -> Option<Candidate> {
        let still = |timeout_ms| {
            Some(Candidate {
                timeout_ms,
                heartbeat: None,
                lease_steps_ms: None,
            })
        };
        match &self.phase {
            Phase::Up { next } | Phase::Down { next } => still(*next),
            Phase::Bisect { lo, hi } => still(lo + (hi - lo) / 2),
            Phase::Top { ms } => still(*ms),
            Phase::Heartbeat { i } => self.heartbeats().get(*i).cloned(),
            Phase::JetStream { i } => self.jetstream_candidates().get(*i).cloned(),
            Phase::Done => None,
        }
    }

    /// JetStream's levers beside AckWait, from the search's answer `t`
    /// (the lowest AckWait that met the targets, or the longest tried): a
    /// `BackOff` list of `t`, `2t`, `4t` (no longer than `MaxDeliver`
    /// allows), and AckWait at the recovery target (or `t`, at most the
    /// 30 s default) with an in-progress ack every third of it, each
    /// restarting the timer (no cap: the server takes any number).
    fn jetstream_candidates(&self) -> Vec<Candidate> {
        if !self.jetstream {
            return Vec::new();
        }
        let t = self
            .static_points()
            .filter(|p| p.meets)
            .map(|p| p.candidate.timeout_ms)
            .min()
            .or_else(|| self.static_points().map(|p| p.candidate.timeout_ms).max());
        let Some(t) = t else {
            return Vec::new();
        };
        let room = self
            .max_deliver
            .map_or(BACKOFF_FACTORS.len(), |n| n as usize);
        let steps: Vec<u64> = BACKOFF_FACTORS
            .iter()
            .take(room.max(1))
            .map(|k| {
                t.saturating_mul(*k)
                    .min(lease_sim::validate::MAX_DURATION_MS)
            })
            .collect();
        let ack_wait = self
            .targets
            .max_recovery_ms
            .unwrap_or(t.min(lease_sim::resolve::JETSTREAM_ACK_WAIT_MS))
            .clamp(self.min_ms.max(3), MAX_VISIBILITY_TIMEOUT_MS);
        vec![
            Candidate {
                timeout_ms: t,
                heartbeat: None,
                lease_steps_ms: Some(steps),
            },
            Candidate {
                timeout_ms: ack_wait,
                heartbeat: Some(Heartbeat {
                    interval_ms: interval_for(ack_wait),
                    extend_by_ms: Some(ack_wait),
                    max_extensions: None,
                    on_reject: OnReject::Continue,
                }),
                lease_steps_ms: None,
            },
        ]
    }

    /// The random seeds every candidate runs: the scenario's seed and the ones after it.
    pub fn seeds_of(&self) -> Vec<u64> {
        (0..u64::from(self.seeds))
            .map(|i| self.first_seed.wrapping_add(i))
            .collect()
    }

    /// The results of `next_candidate()` over `seeds_of()`: judge it and move on.
    pub fn feed(&mut self, results: Vec<SeedResult>) {
        let Some(candidate) = self.next_candidate() else {
            return;
        };
        self.arrived = self.arrived.max(results.iter().map(|r| r.arrived).sum());
        let point = judge(candidate, &results, &self.targets);
        if let Phase::JetStream { i } = self.phase {
            self.alternatives.push(point);
            self.phase = if i + 1 < self.jetstream_candidates().len() {
                Phase::JetStream { i: i + 1 }
            } else {
                Phase::Done
            };
            return;
        }
        let ok = rates_meet(&point, &self.targets);
        let t = point.candidate.timeout_ms;
        self.points.push(point);
        self.phase = match self.phase.clone() {
            Phase::Up { .. } if ok => match self.highest_failing_below(t) {
                Some(lo) => self.bisect_or_top(lo, t),
                None if t <= self.min_ms.max(1) => self.after_static(Some(t)),
                None => Phase::Down {
                    next: (t / 2).max(self.min_ms),
                },
            },
            Phase::Up { .. } if t >= self.max_ms => self.after_static(None),
            Phase::Up { .. } => Phase::Up {
                next: (t.saturating_mul(BRACKET_FACTOR)).min(self.max_ms),
            },
            Phase::Down { .. } if !ok => self.bisect_or_top(t, self.lowest_meeting_above(t)),
            Phase::Down { .. } if t <= self.min_ms.max(1) => self.after_static(Some(t)),
            Phase::Down { .. } => Phase::Down {
                next: (t / 2).max(self.min_ms),
            },
            Phase::Bisect { lo, hi } => {
                if ok {
                    self.bisect_or_top(lo, t)
                } else {
                    self.bisect_or_top(t, hi)
                }
            }
            Phase::Top { .. } => Phase::Done,
            Phase::Heartbeat { i } => {
                if self.points.last().is_some_and(|p| p.meets) || i + 1 >= self.heartbeats().len() {
                    Phase::Done
                } else {
                    Phase::Heartbeat { i: i + 1 }
                }
            }
            Phase::JetStream { .. } | Phase::Done => Phase::Done,
        };
        if self.phase == Phase::Done && !self.jetstream_candidates().is_empty() {
            self.phase = Phase::JetStream { i: 0 };
        }
    }

    /// The recommendation from what has been judged so far; final once
    /// `next_candidate()` is `None`.
    pub fn result(&self) -> Recommendation {
        let mut statics: Vec<Point> = self
            .points
            .iter()
            .filter(|p| p.candidate.heartbeat.is_none())
            .cloned()
            .collect();
        statics.sort_by_key(|p| p.candidate.timeout_ms);
        let beats: Vec<Point> = self
            .points
            .iter()
            .filter(|p| p.candidate.heartbeat.is_some())
            .cloned()
            .collect();
        let lowest = statics
            .iter()
            .find(|p| p.meets)
            .map(|p| p.candidate.timeout_ms);
        let window_ms = lowest.map(|lo| [lo, self.checked_top().max(lo)]);
        let beat = beats.iter().find(|p| p.meets);
        let (timeout, heartbeat) = match (lowest, beat) {
            (Some(t), _) => (Some(t), None),
            (None, Some(p)) => (Some(p.candidate.timeout_ms), p.candidate.heartbeat.clone()),
            (None, None) => (None, None),
        };
        let done = self.phase == Phase::Done;
        let rule = self.rule_of_thumb(timeout, window_ms, heartbeat.is_some());
        if let Some(why) = &self.words.no_lease {
            return Recommendation {
                visibility_timeout_ms: None,
                window_ms: None,
                seeds: self.seeds,
                points: Vec::new(),
                heartbeat: None,
                alternatives: Vec::new(),
                rule_of_thumb: rule,
                verdict: why.clone(),
            };
        }
        let mut verdict = self.verdict(done, &statics, lowest, window_ms, beat);
        if let (true, false) = (done, self.words.note.is_empty()) {
            let t = timeout.map_or(String::new(), lease_format::display::duration);
            verdict.push(' ');
            verdict.push_str(&self.words.note.replace("{t}", &t));
        }
        if done {
            for p in &self.alternatives {
                verdict.push(' ');
                verdict.push_str(&self.alternative_words(p));
            }
        }
        if let (true, Some(note)) = (done, &self.client_note) {
            verdict.push(' ');
            verdict.push_str(note);
        }
        if let (true, Some(note)) = (done, self.too_few_note()) {
            verdict.push(' ');
            verdict.push_str(&note);
        }
        let mut points = statics;
        points.extend(beats);
        Recommendation {
            visibility_timeout_ms: timeout,
            window_ms,
            seeds: self.seeds,
            points,
            heartbeat,
            alternatives: self.alternatives.clone(),
            rule_of_thumb: rule,
            verdict,
        }
    }

    /// A JetStream lever as run: what was set and its figures over the search's random seeds.
    fn alternative_words(&self, p: &Point) -> String {
        let d = lease_format::display::duration;
        let n = self.seeds;
        let verdict = if p.meets {
            "it meets the targets"
        } else {
            "it does not meet the targets"
        };
        let figures = format!(
            "over {n} seeds its redelivery rate is at most {} (95% bound) and a crashed worker's message is back within {}: {verdict}.",
            rate_text(p.redelivery_rate_upper),
            d(p.recovery_ms)
        );
        match (&p.candidate.lease_steps_ms, &p.candidate.heartbeat) {
            (Some(steps), _) => {
                let listed: Vec<String> = steps.iter().map(|&v| d(v)).collect();
                format!(
                    "Run with BackOff [{}] (each redelivery waits its step, the last repeating): {figures}",
                    listed.join(", ")
                )
            }
            (None, Some(h)) => format!(
                "Run with AckWait {} and InProgress() every {} (each restarts the timer): {figures}",
                d(p.candidate.timeout_ms),
                d(h.interval_ms)
            ),
            (None, None) => format!("Run with AckWait {}: {figures}", d(p.candidate.timeout_ms)),
        }
    }

    /// What the preset calls the timeout (`the visibility timeout` before
    /// the preset said).
    fn lease_name(&self) -> &str {
        if self.words.lease.is_empty() {
            "the visibility timeout"
        } else {
            &self.words.lease
        }
    }

    /// When the messages of its runs are too few to show the target rate: with
    /// none redelivered among n messages, a rate is known only to be below
    /// about 3 / n (the rule of three, a 95% bound).
    fn too_few_note(&self) -> Option<String> {
        let rate = self.targets.max_redelivery_rate;
        let n = self.arrived;
        if n > 0 && 3.0 / n as f64 <= rate {
            return None;
        }
        let need = (3.0 / rate).ceil();
        Some(format!(
            "Beware: only {n} messages arrived over {} seeds, too few to show a redelivery rate as low as {}: none redelivered among {n} shows only a rate below about 3 in {n}. Lengthen the run or raise the arrival rate to about {} messages in all before trusting this.",
            self.seeds,
            rate_text(rate),
            need
        ))
    }

    /// The highest static timeout a crashed worker's message may wait out.
    fn window_top(&self) -> u64 {
        self.targets
            .max_recovery_ms
            .map_or(self.max_ms, |r| r.min(self.max_ms))
    }

    /// `window_top`, unless it was tried and failed: then the highest
    /// static timeout that met every target.
    fn checked_top(&self) -> u64 {
        let top = self.window_top();
        let failed = self
            .static_points()
            .any(|p| p.candidate.timeout_ms == top && !p.meets);
        if !failed {
            return top;
        }
        self.static_points()
            .filter(|p| p.meets)
            .map(|p| p.candidate.timeout_ms)
            .max()
            .unwrap_or(top)
    }

    fn highest_failing_below(&self, t: u64) -> Option<u64> {
        self.static_points()
            .filter(|p| p.candidate.timeout_ms < t && !rates_meet(p, &self.targets))
            .map(|p| p.candidate.timeout_ms)
            .max()
    }

    fn lowest_meeting_above(&self, t: u64) -> u64 {
        self.static_points()
            .filter(|p| p.candidate.timeout_ms > t && rates_meet(p, &self.targets))
            .map(|p| p.candidate.timeout_ms)
            .min()
            .unwrap_or(self.max_ms)
    }

    fn static_points(&self) -> impl Iterator<Item = &Point> {
        self.points
            .iter()
            .filter(|p| p.candidate.heartbeat.is_none())
    }

    /// Bisect `lo` (fails) to `hi` (meets) until close enough, then check
    /// the window's top.
    fn bisect_or_top(&self, lo: u64, hi: u64) -> Phase {
        let tolerance = if hi >= 10 * BISECT_MS {
            ((hi as f64 * BISECT_SHARE).ceil() as u64).max(BISECT_MS)
        } else {
            (hi / 10).max(1)
        };
        if hi.saturating_sub(lo) > tolerance {
            Phase::Bisect { lo, hi }
        } else {
            self.after_static(Some(hi))
        }
    }

    /// The static search found `lowest` (or nothing): try the window's top,
    /// or fall back to a heartbeat when no static timeout keeps recovery.
    fn after_static(&self, lowest: Option<u64>) -> Phase {
        match lowest {
            Some(lo) if lo <= self.window_top() => {
                let top = self.window_top();
                if top > lo && !self.static_points().any(|p| p.candidate.timeout_ms == top) {
                    Phase::Top { ms: top }
                } else {
                    Phase::Done
                }
            }
            _ if self.targets.max_recovery_ms.is_some() && !self.heartbeats().is_empty() => {
                Phase::Heartbeat { i: 0 }
            }
            _ => Phase::Done,
        }
    }

    /// The fallback's heartbeats: the timeout at the recovery target, a
    /// beat every third of it, extending by it, capped to cover the work's
    /// tail four times, then twice and four times that cap.
    fn heartbeats(&self) -> Vec<Candidate> {
        let Some(recovery) = self.targets.max_recovery_ms else {
            return Vec::new();
        };
        if self.client_library || self.cannot_extend.is_some() {
            return Vec::new();
        }
        let timeout = recovery.clamp(self.min_ms.max(3), MAX_VISIBILITY_TIMEOUT_MS);
        let interval = interval_for(timeout);
        let cap = suggested_cap(self.tail_ms as f64, interval);
        let mut caps = vec![cap, cap.saturating_mul(2), cap.saturating_mul(4)];
        for c in &mut caps {
            *c = (*c).min(MAX_SUGGESTED_CAP);
        }
        caps.dedup();
        caps.into_iter()
            .map(|c| Candidate {
                timeout_ms: timeout,
                heartbeat: Some(Heartbeat {
                    interval_ms: interval,
                    extend_by_ms: Some(timeout),
                    max_extensions: Some(c),
                    on_reject: OnReject::Continue,
                }),
                lease_steps_ms: None,
            })
            .collect()
    }

    fn rule_of_thumb(
        &self,
        timeout: Option<u64>,
        window: Option<[u64; 2]>,
        heartbeat: bool,
    ) -> RuleOfThumb {
        let p99 = self.tail_ms;
        let lo = (p99 as f64 * THUMB_LOW).round() as u64;
        let hi = (p99 as f64 * THUMB_HIGH).round() as u64;
        let p99_over_timeout = timeout.map(|t| p99 as f64 / t.max(1) as f64);
        let (agrees, words) = match (window, heartbeat) {
            (Some([a, b]), _) => {
                let agrees = lo <= b && a <= hi;
                let words = if agrees {
                    format!(
                        "The rule of thumb, {} to {} (1.5 to 2 times the work's p99 of {}), falls in the window.",
                        lease_format::display::duration(lo),
                        lease_format::display::duration(hi),
                        lease_format::display::duration(p99)
                    )
                } else if hi < a {
                    format!(
                        "The rule of thumb, {} to {} (1.5 to 2 times the work's p99 of {}), is too short here: the simulation needs at least {}.",
                        lease_format::display::duration(lo),
                        lease_format::display::duration(hi),
                        lease_format::display::duration(p99),
                        lease_format::display::duration(a)
                    )
                } else {
                    format!(
                        "The rule of thumb, {} to {} (1.5 to 2 times the work's p99 of {}), is longer than the window's top of {}.",
                        lease_format::display::duration(lo),
                        lease_format::display::duration(hi),
                        lease_format::display::duration(p99),
                        lease_format::display::duration(b)
                    )
                };
                (agrees, words)
            }
            (None, _) => {
                let recovery = self.targets.max_recovery_ms;
                let agrees = heartbeat && recovery.is_some_and(|r| lo > r);
                let words = match recovery {
                    Some(r) if lo > r => format!(
                        "The rule of thumb, {} to {} (1.5 to 2 times the work's p99 of {}), is above the recovery target of {} too: a static timeout cannot meet both.",
                        lease_format::display::duration(lo),
                        lease_format::display::duration(hi),
                        lease_format::display::duration(p99),
                        lease_format::display::duration(r)
                    ),
                    _ => format!(
                        "The rule of thumb says {} to {} (1.5 to 2 times the work's p99 of {}), but the simulation finds no static timeout that meets the targets.",
                        lease_format::display::duration(lo),
                        lease_format::display::duration(hi),
                        lease_format::display::duration(p99)
                    ),
                };
                (agrees, words)
            }
        };
        let (agrees, words) = match (self.lambda_minimum_ms, timeout) {
            (Some(least), Some(t)) => (
                agrees && t >= least,
                format!(
                    "{words} Lambda's rule (at least six times the function timeout) asks for {}: the recommendation {}.",
                    lease_format::display::duration(least),
                    if t >= least { "meets it" } else { "is below it" }
                ),
            ),
            (Some(least), None) => (
                agrees,
                format!(
                    "{words} Lambda's rule (at least six times the function timeout) asks for {}.",
                    lease_format::display::duration(least)
                ),
            ),
            (None, _) => (agrees, words),
        };
        RuleOfThumb {
            p99_ms: p99,
            window_ms: [lo, hi],
            p99_over_timeout,
            lambda_minimum_ms: self.lambda_minimum_ms,
            agrees,
            words,
        }
    }

    fn verdict(
        &self,
        done: bool,
        statics: &[Point],
        lowest: Option<u64>,
        window: Option<[u64; 2]>,
        beat: Option<&Point>,
    ) -> String {
        let n = self.seeds;
        let target = rate_text(self.targets.max_redelivery_rate);
        if !done {
            return format!(
                "Searching: {} candidates judged so far over {n} seeds each.",
                self.points.len()
            );
        }
        if let (Some(t), Some([a, b])) = (lowest, window) {
            let p = statics.iter().find(|p| p.candidate.timeout_ms == t);
            let upper = p.map_or(0.0, |p| p.redelivery_rate_upper);
            return format!(
                "Set {} to {}: over {n} seeds its redelivery rate is at most {} (95% bound), within the target of {target}. Any timeout from {} to {} meets the targets.",
                self.lease_name(),
                lease_format::display::duration(t),
                rate_text(upper),
                lease_format::display::duration(a),
                lease_format::display::duration(b)
            );
        }
        let why = match statics.iter().find(|p| rates_meet(p, &self.targets)) {
            Some(p) if p.recovery_ms > p.candidate.timeout_ms => format!(
                "the lowest timeout that keeps redeliveries within {target} is {}, but a crashed worker's message then stays invisible for up to {}, longer than the recovery target of {}",
                lease_format::display::duration(p.candidate.timeout_ms),
                lease_format::display::duration(p.recovery_ms),
                lease_format::display::duration(self.targets.max_recovery_ms.unwrap_or(0))
            ),
            Some(p) => format!(
                "the lowest timeout that keeps redeliveries within {target} is {}, longer than the recovery target of {}",
                lease_format::display::duration(p.candidate.timeout_ms),
                lease_format::display::duration(self.targets.max_recovery_ms.unwrap_or(0))
            ),
            None => format!(
                "no timeout up to {} keeps redeliveries within {target}",
                lease_format::display::duration(self.max_ms)
            ),
        };
        match beat {
            Some(p) => {
                let h = p.candidate.heartbeat.clone().unwrap_or(Heartbeat {
                    interval_ms: 0,
                    extend_by_ms: None,
                    max_extensions: None,
                    on_reject: OnReject::Continue,
                });
                format!(
                    "No static timeout meets both targets: {why}. Set a {} timeout with a heartbeat every {} extending by {}, capped at {} extensions: over {n} seeds its redelivery rate is at most {} (95% bound).",
                    lease_format::display::duration(p.candidate.timeout_ms),
                    lease_format::display::duration(h.interval_ms),
                    lease_format::display::duration(h.extend_by_ms.unwrap_or(p.candidate.timeout_ms)),
                    h.max_extensions.map_or("no".to_string(), |c| c.to_string()),
                    rate_text(p.redelivery_rate_upper)
                )
            }
            None if self.client_library => format!(
                "Nothing tried meets the targets: {why}; a heartbeat cannot stand in, since the client library manages the lease."
            ),
            None if self.cannot_extend.is_some() => format!(
                "Nothing tried meets the targets: {why}; a heartbeat cannot stand in, since {}.",
                self.cannot_extend.as_deref().unwrap_or_default()
            ),
            None => format!(
                "Nothing tried meets the targets: {why}, and no heartbeat tried does either."
            ),
        }
    }
}

/// The least a crashed worker's message stays invisible under the client
/// library whatever the timeout: Pub/Sub's client extends a lease by at
/// least 10 s from the handler's start (docs/MODEL.md, "Client libraries").
pub fn client_recovery_floor_ms(policy: ClientPolicy) -> u64 {
    match policy {
        ClientPolicy::Pubsub { .. } => PUBSUB_MIN_EXTENSION_MS,
        _ => 0,
    }
}

/// What a lease-managing client library means for the timeout found
/// (docs/MODEL.md, "Client libraries"); `None` when the file's heartbeat
/// settings or Lambda's function timeout rule the lease.
fn client_note(policy: ClientPolicy) -> Option<String> {
    match policy {
        ClientPolicy::Pubsub { max_lease_ms } => Some(format!(
            "Pub/Sub's client extends every lease it holds from the handler's start (by the p99 of its ack delays, 10 s to 10 min, for up to {} after the receive), so the timeout only has to cover the wait from the receive to the handler's start; that is why a timeout far below the work's time can keep redeliveries within the target. A crashed worker's message stays invisible until the client's last extension runs out, at least 10 s whatever the timeout.",
            lease_format::display::duration(max_lease_ms)
        )),
        ClientPolicy::ServiceBus { max_renewal_ms } => Some(format!(
            "Service Bus's processor renews every lock it holds from the handler's start (each renewal for the timeout again, for up to {} after the receive), so the timeout only has to cover the wait from the receive to the handler's start and each renewal's round trip; that is why a timeout far below the work's time can keep redeliveries within the target.",
            lease_format::display::duration(max_renewal_ms)
        )),
        ClientPolicy::None | ClientPolicy::SqsLambda { .. } => None,
    }
}

/// A rate to five decimals, without trailing zeros ("0", "0.00933").
/// A rate both ways: the page's targets are typed and shown as
/// percentages, the command line's flags as fractions.
fn rate_text(x: f64) -> String {
    let fraction = (x * 1e5).round() / 1e5;
    if fraction == 0.0 {
        return "0".into();
    }
    format!("{}% ({})", ((x * 1e5).round() / 1e3), fraction)
}

fn check_targets(t: &Targets, seeds: u32) -> Result<(), TargetError> {
    let rate = |name: &str, v: f64| {
        if v.is_finite() && (0.0..=1.0).contains(&v) {
            Ok(())
        } else {
            Err(TargetError::new(
                name,
                v.to_string(),
                "must be a rate per arrived message from 0 to 1",
            ))
        }
    };
    rate("max_redelivery_rate", t.max_redelivery_rate)?;
    if let Some(d) = t.max_duplicate_rate {
        rate("max_duplicate_rate", d)?;
    }
    if let Some(r) = t.max_recovery_ms {
        if !(1..=MAX_VISIBILITY_TIMEOUT_MS).contains(&r) {
            return Err(TargetError::new(
                "max_recovery_ms",
                r.to_string(),
                "must be from 1 ms to 43,200,000 ms (12 h), the longest timeout a broker allows",
            ));
        }
    }
    if !(MIN_SEEDS..=MAX_SEEDS).contains(&seeds) {
        return Err(TargetError::new(
            "seeds",
            seeds.to_string(),
            "must be from 2 to 1000 (a bound needs a spread, and each seed is a whole run)",
        ));
    }
    Ok(())
}

fn rates_meet(p: &Point, t: &Targets) -> bool {
    p.redelivery_rate_upper <= t.max_redelivery_rate
        && t.max_duplicate_rate
            .is_none_or(|d| p.duplicate_rate_upper <= d)
}

/// Mean and one-sided 95% upper bound, `mean + t(0.95, n-1) s / sqrt(n)`.
pub fn mean_and_upper(xs: &[f64]) -> (f64, f64) {
    let n = xs.len();
    if n == 0 {
        return (0.0, f64::INFINITY);
    }
    let mean = xs.iter().sum::<f64>() / n as f64;
    if n == 1 {
        return (mean, f64::INFINITY);
    }
    let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
    let upper = mean + t95(n - 1) * var.sqrt() / (n as f64).sqrt();
    (mean, upper)
}

/// The one-sided 95% quantile of Student's t with `df` degrees of freedom:
/// a table to 30, then the Cornish-Fisher expansion around the normal's
/// 1.6449 (within 0.001 of the exact value from 30 on).
pub fn t95(df: usize) -> f64 {
    const TABLE: [f64; 30] = [
        6.3138, 2.9200, 2.3534, 2.1318, 2.0150, 1.9432, 1.8946, 1.8595, 1.8331, 1.8125, 1.7959,
        1.7823, 1.7709, 1.7613, 1.7531, 1.7459, 1.7396, 1.7341, 1.7291, 1.7247, 1.7207, 1.7171,
        1.7139, 1.7109, 1.7081, 1.7056, 1.7033, 1.7011, 1.6991, 1.6973,
    ];
    if df == 0 {
        return f64::INFINITY;
    }
    if let Some(&t) = TABLE.get(df - 1) {
        return t;
    }
    let z = 1.644_853_6_f64;
    let v = df as f64;
    let g1 = (z.powi(3) + z) / 4.0;
    let g2 = (5.0 * z.powi(5) + 16.0 * z.powi(3) + 3.0 * z) / 96.0;
    let g3 = (3.0 * z.powi(7) + 19.0 * z.powi(5) + 17.0 * z.powi(3) - 15.0 * z) / 384.0;
    z + g1 / v + g2 / v.powi(2) + g3 / v.powi(3)
}

fn judge(candidate: Candidate, results: &[SeedResult], targets: &Targets) -> Point {
    let rate = |k: u64, n: u64| if n == 0 { 0.0 } else { k as f64 / n as f64 };
    let red: Vec<f64> = results
        .iter()
        .map(|r| rate(r.redeliveries, r.arrived))
        .collect();
    let dup: Vec<f64> = results
        .iter()
        .map(|r| rate(r.duplicate_effects, r.arrived))
        .collect();
    let (redelivery_rate_mean, redelivery_rate_upper) = mean_and_upper(&red);
    let (duplicate_rate_mean, duplicate_rate_upper) = mean_and_upper(&dup);
    let recovery_ms = results
        .iter()
        .map(|r| r.recovery_ms)
        .max()
        .unwrap_or_else(|| candidate.recovery_ms());
    let mut p = Point {
        candidate,
        redelivery_rate_mean,
        redelivery_rate_upper,
        duplicate_rate_mean,
        duplicate_rate_upper,
        recovery_ms,
        meets: false,
    };
    p.meets = rates_meet(&p, targets) && targets.max_recovery_ms.is_none_or(|r| recovery_ms <= r);
    p
}

/// One seed of one candidate, counters only. A run the engine refuses
/// counts as one redelivery and one duplicate per message, so that it can
/// never look like a candidate that meets a target.
pub fn run_seed(scenario: &Scenario, candidate: &Candidate, seed: u64) -> SeedResult {
    let s = candidate.apply(scenario, seed);
    let recovery_ms = candidate
        .recovery_ms()
        .max(client_recovery_floor_ms(client_policy(
            scenario.workers.client.as_ref(),
        )));
    match lease_sim::run_totals(&s) {
        Ok(report) => SeedResult {
            seed,
            arrived: report.totals.arrived,
            redeliveries: report.totals.redeliveries,
            duplicate_effects: report.totals.duplicate_effects,
            recovery_ms,
        },
        Err(_) => SeedResult {
            seed,
            arrived: 1,
            redeliveries: 1,
            duplicate_effects: 1,
            recovery_ms,
        },
    }
}

/// Run the search to its end: natively a candidate's seeds across all
/// cores, on wasm32 one after another.
pub fn recommend(
    scenario: &Scenario,
    targets: Targets,
    seeds: u32,
) -> Result<Recommendation, TargetError> {
    let mut search = Search::new(scenario, targets, seeds)?;
    while let Some(c) = search.next_candidate() {
        let results = run_seeds(scenario, &c, &search.seeds_of());
        search.feed(results);
    }
    Ok(search.result())
}

#[cfg(not(target_arch = "wasm32"))]
fn run_seeds(scenario: &Scenario, c: &Candidate, seeds: &[u64]) -> Vec<SeedResult> {
    use rayon::prelude::*;
    seeds
        .par_iter()
        .map(|&seed| run_seed(scenario, c, seed))
        .collect()
}

#[cfg(target_arch = "wasm32")]
fn run_seeds(scenario: &Scenario, c: &Candidate, seeds: &[u64]) -> Vec<SeedResult> {
    seeds
        .iter()
        .map(|&seed| run_seed(scenario, c, seed))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::rate_text;

    #[test]
    fn a_rate_reads_as_a_percentage_and_as_the_fraction_the_flag_takes() {
        assert_eq!(rate_text(0.002), "0.2% (0.002)");
        assert_eq!(rate_text(0.01), "1% (0.01)");
        assert_eq!(rate_text(0.0), "0");
    }
}
