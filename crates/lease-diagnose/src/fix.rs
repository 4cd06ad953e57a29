//! The fixes as data: a change to a scenario with a label the page can
//! put on a button. Detectors suggest them; tours use them as the "how to
//! satisfy this step" demonstration; tests apply them and re-run.
//!
//! Also the heuristics that size a fix from what the run measured (the
//! rules: a timeout comfortably above p99, a heartbeat every third of
//! the lease with a hard cap, the unit of work split until it fits).

use lease_sim::resolve::resolve;
use lease_sim::scenario::{Fence, Heartbeat, OnReject, Renewal, Scenario};
use lease_sim::validate::{
    MAX_BACKLOG, MAX_PREFETCH, MAX_RATE_PER_S, MAX_RECEIVE_COUNT, MAX_VISIBILITY_TIMEOUT_MS,
    MAX_WORKERS,
};
use serde::{Deserialize, Serialize};

use crate::stats::{max_slowdown, scale_dist, work_median_ms, work_p99_ms, LeaseFacts};

/// "Comfortably above p99": a static timeout is this many times
/// the p99 the run measured.
pub const TIMEOUT_HEADROOM: f64 = 1.5;
/// A work distribution whose p99 is at least this many times its median has
/// the long tail for which "no single value is right": renew the
/// lease instead of guessing a number.
pub const LONG_TAIL_RATIO: f64 = 3.0;
/// A static timeout above this turns every crash into a multi-minute stall
/// (the clip-moderation case's five-minute "tempting fix"): prefer a heartbeat.
pub const STATIC_TIMEOUT_LIMIT_MS: u64 = 300_000;
/// The cap lets a heartbeat cover this many times the work's tail, so only a
/// hung handler reaches it ("a hung handler must eventually reach
/// the DLQ").
pub const HEARTBEAT_CAP_COVER: f64 = 4.0;
/// Fewest extensions a suggested cap allows: below this the cap is the timeout
/// again under another name.
pub const MIN_SUGGESTED_CAP: u32 = 3;
/// Most extensions a suggested cap allows (Pub/Sub's lease manager stops at
/// 720, an hour of 5 s ticks; this is of the same order).
pub const MAX_SUGGESTED_CAP: u32 = 1_000;
/// A slowdown larger than this is "the dependency stopped answering": no
/// lease should be sized for it, so the heuristics ignore the excess.
pub const SIZING_SLOWDOWN_LIMIT: f64 = 10.0;
/// The lease a heartbeat lets you keep short (SQS's default): how long you
/// are willing to wait after a crash, not how long the work takes.
pub const SHORT_TIMEOUT_MS: u64 = 30_000;
/// The clip-moderation case splits a clip review into fetch, scan and decide.
pub const SPLIT_PARTS: u32 = 3;
/// The clip-moderation case's third fix: "a redrive policy that moves a message to a dead-letter
/// queue after a small number of receives". Five is Pub/Sub's default
/// `maxDeliveryAttempts`, and enough that a message whose lease ran out once
/// or twice by bad luck still completes before it is set aside.
pub const REDRIVE_RECEIVES: u32 = 5;

/// A change to a scenario. `apply` never produces a value outside
/// lease-sim's limits for the field it sets; the scenario as a whole is
/// still validated by `simulate`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Fix {
    /// Set the visibility timeout. An explicit heartbeat `extend_by_ms`
    /// below the new timeout is raised to it: an extension shorter than the
    /// time left shortens the lease (SQS), which would undo the change.
    Timeout { ms: u64 },
    /// Renew the lease while working, with a hard cap (`None`: uncapped, the
    /// dangerous case); optionally with a new (usually shorter) timeout.
    Heartbeat {
        interval_ms: u64,
        extend_by_ms: u64,
        max_extensions: Option<u32>,
        timeout_ms: Option<u64>,
    },
    /// Cap the extensions of the heartbeat (turning one on if none runs).
    ExtensionCap { max_extensions: u32 },
    /// The fence in the destination store.
    Fence { fence: Fence },
    /// Leased messages a worker may hold, running plus buffered.
    Prefetch { prefetch: u32 },
    /// Split each message into `parts` steps: the work of each divided by
    /// `parts`, `parts` times as many messages.
    SplitWork { parts: u32 },
    /// A redrive policy: after `max_receive_count` receives a message goes to
    /// the dead-letter queue instead of circulating for ever.
    RedriveLimit { max_receive_count: u32 },
    /// Where the worker renews its lease: on a thread of its own, or on the
    /// handlers' event loop (BullMQ's sandboxed processor moves the work
    /// off the loop that renews).
    Renewal { renewal: Renewal },
    /// The pool size. Not a fix: what people try first; the
    /// dependency-slows-3x tour shows it makes the feedback loop worse.
    Workers { count: u32 },
}

impl Fix {
    /// What the button says, e.g. "Heartbeat every 10 s, capped at 20 extensions".
    pub fn label(&self) -> String {
        match self {
            Fix::Timeout { ms } => format!(
                "Visibility timeout {}",
                lease_format::display::duration(*ms)
            ),
            Fix::Heartbeat {
                interval_ms,
                extend_by_ms,
                max_extensions,
                timeout_ms,
            } => {
                let cap = match max_extensions {
                    Some(n) => format!("capped at {n} extensions"),
                    None => "uncapped".to_string(),
                };
                let mut s = format!(
                    "Heartbeat every {}, extending by {}, {cap}",
                    lease_format::display::duration(*interval_ms),
                    lease_format::display::duration(*extend_by_ms)
                );
                if let Some(t) = timeout_ms {
                    s.push_str(&format!(
                        ", with a {} timeout",
                        lease_format::display::duration(*t)
                    ));
                }
                s
            }
            Fix::ExtensionCap { max_extensions } => {
                format!("Cap the heartbeat at {max_extensions} extensions")
            }
            Fix::Fence { fence } => match fence {
                Fence::None => "No fence in the store".into(),
                Fence::CheckThenWrite => "Check processed ids, then write (no fence)".into(),
                Fence::UniqueConstraint => {
                    "Unique constraint on the message id, in the effect's transaction".into()
                }
                Fence::FencingToken => "Fencing token: the store rejects a stale receipt".into(),
            },
            Fix::Prefetch { prefetch } => format!("Prefetch {prefetch} per worker"),
            Fix::SplitWork { parts } => {
                format!(
                    "Split each message into {parts} steps (work / {parts}, {parts}x the messages)"
                )
            }
            Fix::RedriveLimit { max_receive_count } => {
                let n = max_receive_count;
                format!(
                    "Redrive to the DLQ after {n} {}",
                    if *n == 1 { "receive" } else { "receives" }
                )
            }
            Fix::Workers { count } => format!("{count} workers"),
            Fix::Renewal { renewal } => match renewal {
                Renewal::Background => {
                    "Renew on a thread of its own (a sandboxed processor)".into()
                }
                Renewal::EventLoop => "Renew on the handlers' event loop".into(),
            },
        }
    }

    /// Change the scenario in place.
    pub fn apply(&self, s: &mut Scenario) {
        match self {
            Fix::Timeout { ms } => set_timeout(s, *ms),
            Fix::Heartbeat {
                interval_ms,
                extend_by_ms,
                max_extensions,
                timeout_ms,
            } => {
                if let Some(t) = timeout_ms {
                    set_timeout(s, *t);
                }
                let on_reject = current_on_reject(s);
                // The heartbeat takes the lease back from a client library.
                s.workers.client = None;
                s.workers.heartbeat = Some(Some(Heartbeat {
                    interval_ms: (*interval_ms).clamp(1, MAX_VISIBILITY_TIMEOUT_MS),
                    extend_by_ms: Some((*extend_by_ms).clamp(1, MAX_VISIBILITY_TIMEOUT_MS)),
                    max_extensions: *max_extensions,
                    on_reject,
                }));
            }
            Fix::ExtensionCap { max_extensions } => {
                let mut h = heartbeat_or_default(s);
                h.max_extensions = Some(*max_extensions);
                s.workers.client = None;
                s.workers.heartbeat = Some(Some(h));
            }
            Fix::Fence { fence } => s.store.fence = *fence,
            Fix::Prefetch { prefetch } => {
                // lease-sim requires prefetch >= concurrency.
                let p = (*prefetch).clamp(s.workers.concurrency.max(1), MAX_PREFETCH);
                s.workers.prefetch = Some(p);
            }
            Fix::SplitWork { parts } => split_work(s, *parts),
            Fix::RedriveLimit { max_receive_count } => {
                s.broker.max_receive_count =
                    Some(Some((*max_receive_count).clamp(1, MAX_RECEIVE_COUNT)));
            }
            Fix::Workers { count } => s.workers.count = (*count).clamp(1, MAX_WORKERS),
            Fix::Renewal { renewal } => s.workers.renewal = Some(*renewal),
        }
    }
}

fn current_on_reject(s: &Scenario) -> OnReject {
    resolve(s)
        .heartbeat
        .map_or(OnReject::Continue, |h| h.on_reject)
}

/// Set the timeout, within the preset's own range, keeping an explicit
/// heartbeat from shortening the lease.
pub(crate) fn set_timeout(s: &mut Scenario, ms: u64) {
    let (lo, hi) = crate::extend::timeout_range_ms(s.broker.preset);
    let ms = ms.clamp(lo, hi);
    s.broker.visibility_timeout_ms = Some(ms);
    if let Some(Some(h)) = &mut s.workers.heartbeat {
        if let Some(e) = h.extend_by_ms {
            if e < ms {
                h.extend_by_ms = Some(ms);
            }
        }
    }
}

/// The heartbeat the scenario runs, made explicit (a preset's client
/// library default included), or a new one: every third of the lease,
/// extending by the lease, with a small cap (turning renewal on should not
/// bring the uncapped hazard with it).
pub(crate) fn heartbeat_or_default(s: &Scenario) -> Heartbeat {
    let cfg = resolve(s);
    match cfg.heartbeat {
        Some(h) => Heartbeat {
            interval_ms: h.interval_ms,
            extend_by_ms: Some(h.extend_by_ms),
            max_extensions: h.max_extensions,
            on_reject: h.on_reject,
        },
        None => {
            let interval = interval_for(cfg.visibility_timeout_ms);
            Heartbeat {
                interval_ms: interval,
                extend_by_ms: None,
                max_extensions: Some(suggested_cap(stated_tail_ms(s), interval)),
                on_reject: OnReject::Continue,
            }
        }
    }
}

/// Enough extensions to cover `HEARTBEAT_CAP_COVER` times `tail_ms` at one
/// extension per `interval_ms`, within the suggested bounds.
pub fn suggested_cap(tail_ms: f64, interval_ms: u64) -> u32 {
    let cap = (HEARTBEAT_CAP_COVER * tail_ms / interval_ms.max(1) as f64).ceil();
    if cap.is_finite() {
        (cap.max(0.0) as u32).clamp(MIN_SUGGESTED_CAP, MAX_SUGGESTED_CAP)
    } else {
        MAX_SUGGESTED_CAP
    }
}

/// The usual heartbeat: "every leaseDuration/3". Whole seconds
/// when the lease is long enough for that to read well.
pub fn interval_for(timeout_ms: u64) -> u64 {
    let third = (timeout_ms / 3).max(1);
    if third >= 1_000 {
        third / 1_000 * 1_000
    } else {
        third
    }
}

fn ceil_to_second(ms: f64) -> u64 {
    let s = (ms / 1_000.0).ceil().max(1.0);
    (s as u64).saturating_mul(1_000)
}

fn split_work(s: &mut Scenario, parts: u32) {
    let parts = parts.max(1);
    let k = f64::from(parts);
    s.work.dist = scale_dist(&s.work.dist, 1.0 / k);
    let a = &mut s.arrivals;
    a.backlog = a.backlog.saturating_mul(u64::from(parts)).min(MAX_BACKLOG);
    a.rate_per_s = (a.rate_per_s * k).min(MAX_RATE_PER_S);
    for sg in &mut a.surges {
        sg.rate_per_s = (sg.rate_per_s * k).min(MAX_RATE_PER_S);
    }
}

/// The work's tail as the scenario states it, slowed by its worst
/// downstream slowdown (up to `SIZING_SLOWDOWN_LIMIT`).
pub fn stated_tail_ms(s: &Scenario) -> f64 {
    work_p99_ms(&s.work.dist) * max_slowdown(s).min(SIZING_SLOWDOWN_LIMIT)
}

/// A static timeout comfortably above p99: the larger of the p99 the run
/// measured (lease start to handler end, slowdowns and contention included)
/// and the stated work p99, times `TIMEOUT_HEADROOM`, in whole seconds.
pub fn timeout_above_p99(s: &Scenario, facts: &LeaseFacts) -> u64 {
    let measured = facts.run_p99_ms().unwrap_or(0) as f64;
    let tail = measured.max(work_p99_ms(&s.work.dist));
    ceil_to_second(tail * TIMEOUT_HEADROOM).min(MAX_VISIBILITY_TIMEOUT_MS)
}

/// Where nothing renews the lease, every run longer than it expires, however
/// rare: a static timeout above the longest run measured as well as above
/// p99 (a job that takes 40 minutes once an hour is far past p99 and still
/// loses its lease every time).
pub fn timeout_above_longest(s: &Scenario, facts: &LeaseFacts) -> u64 {
    let longest = facts.longest_run_ms().unwrap_or(0) as f64;
    timeout_above_p99(s, facts)
        .max(ceil_to_second(longest * TIMEOUT_HEADROOM).min(MAX_VISIBILITY_TIMEOUT_MS))
}

/// A heartbeat every third of the lease, extending by the lease, capped so
/// that it covers `HEARTBEAT_CAP_COVER` times the work's tail.
pub fn capped_heartbeat(s: &Scenario, facts: &LeaseFacts, timeout_ms: Option<u64>) -> Fix {
    let lease = timeout_ms.unwrap_or(facts.timeout_ms).max(1);
    let interval = interval_for(lease);
    let tail = (facts.run_p99_ms().unwrap_or(0) as f64).max(stated_tail_ms(s));
    Fix::Heartbeat {
        interval_ms: interval,
        extend_by_ms: lease,
        max_extensions: Some(suggested_cap(tail, interval)),
        timeout_ms,
    }
}

/// Whether the work's duration varies so much that no static timeout is
/// right in both directions ("handlers whose duration varies by
/// orders of magnitude"; the clip-moderation case, a surge that slows the service).
pub fn long_tailed(s: &Scenario) -> bool {
    let median = work_median_ms(&s.work.dist).max(1.0);
    work_p99_ms(&s.work.dist) / median >= LONG_TAIL_RATIO || max_slowdown(s) > 1.0
}

/// The answer to a lease that runs out under a live handler, picked
/// by what the run shows:
/// - leases dying in prefetch buffers: hold fewer (the invisible backlog);
/// - a heartbeat already runs and still lost the lease: a timeout above p99;
/// - a long-tailed or slowed workload, or a p99 so long that a static
///   timeout would stall every crash: heartbeat with a cap;
/// - otherwise predictable work: a static timeout above p99.
pub fn lease_fix(s: &Scenario, facts: &LeaseFacts) -> (Fix, String) {
    let cfg = &facts.config;
    if cfg.eta_ms > 0 && facts.buffer_expiries > facts.mid_run_expiries {
        // Celery: a message held for its ETA sits outside the prefetch, so
        // a smaller prefetch changes nothing; the timeout has to outlast
        // the wait and the run (Celery's Redis docs).
        let ms = timeout_above_p99(s, facts)
            .max(ceil_to_second(
                (cfg.eta_ms as f64 + work_p99_ms(&s.work.dist)) * TIMEOUT_HEADROOM,
            ))
            .min(MAX_VISIBILITY_TIMEOUT_MS);
        return (
            Fix::Timeout { ms },
            format!(
                "Most expired leases ({} of {}) ran out while their message waited for its ETA ({}) in a worker: set the visibility timeout beyond the longest ETA and run ({}).",
                facts.buffer_expiries,
                facts.expiries(),
                lease_format::display::duration(cfg.eta_ms),
                lease_format::display::duration(ms)
            ),
        );
    }
    if facts.buffer_expiries > facts.mid_run_expiries && cfg.prefetch > cfg.concurrency {
        return (
            Fix::Prefetch {
                prefetch: cfg.concurrency,
            },
            format!(
                "Most expired leases ({} of {}) ran out in a worker's prefetch buffer, before any handler started them: hold no more leased messages than the handlers can run (prefetch {} instead of {}).",
                facts.buffer_expiries,
                facts.expiries(),
                cfg.concurrency,
                cfg.prefetch
            ),
        );
    }
    let t = timeout_above_p99(s, facts);
    let p99 = work_p99_ms(&s.work.dist);
    let median = work_median_ms(&s.work.dist);
    if cfg.attempt_cap {
        return temporal_lease_fix(s, facts);
    }
    if cfg.heartbeat.is_some() {
        return (
            Fix::Timeout { ms: t },
            format!(
                "A heartbeat already runs and the lease was still lost: raise the timeout above the measured p99 ({} x {}), so a missed heartbeat is not an expiry; the fence in the store is what makes it safe.",
                TIMEOUT_HEADROOM,
                lease_format::display::duration(facts.run_p99_ms().unwrap_or(p99 as u64))
            ),
        );
    }
    if let Some(why) = crate::extend::cannot_extend(s) {
        let (lo, hi) = crate::extend::timeout_range_ms(s.broker.preset);
        let t = timeout_above_longest(s, facts).clamp(lo, hi);
        return (
            Fix::Timeout { ms: t },
            format!(
                "Set the timeout above the longest run measured ({} x {}, {}): no heartbeat can help here, since {why}, so every run longer than the lease loses it.",
                TIMEOUT_HEADROOM,
                lease_format::display::duration(facts.longest_run_ms().unwrap_or(p99 as u64)),
                lease_format::display::duration(t)
            ),
        );
    }
    if long_tailed(s) || t > STATIC_TIMEOUT_LIMIT_MS {
        let fix = capped_heartbeat(s, facts, None);
        let why = if max_slowdown(s) > 1.0 {
            format!(
                "the downstream slows by up to {:.1}x, so the work's duration is not a number you can know in advance",
                max_slowdown(s),
            )
        } else if t > STATIC_TIMEOUT_LIMIT_MS {
            format!(
                "a static timeout above p99 would be {}, and every crash would then stall its messages that long",
                lease_format::display::duration(t)
            )
        } else {
            format!(
                "the work has a long tail (p99 {} is {:.1}x the median {})",
                lease_format::display::duration(p99 as u64),
                p99 / median.max(1.0),
                lease_format::display::duration(median as u64)
            )
        };
        return (
            fix,
            format!(
                "Renew the lease while working, with a hard cap: {why}. The heartbeat turns a guess about duration into a liveness signal, and the cap still sends a hung handler's message to the DLQ."
            ),
        );
    }
    (
        Fix::Timeout { ms: t },
        format!(
            "The work is predictable (p99 {}, median {}): a static timeout comfortably above p99 ({}) covers it without heartbeat machinery.",
            lease_format::display::duration(p99 as u64),
            lease_format::display::duration(median as u64),
            lease_format::display::duration(t)
        ),
    )
}

/// Under Temporal (`attempt_cap`): the StartToClose above the work's p99
/// and a HeartbeatTimeout, whatever the finding (a lost lease or a stall
/// after a crash): see `temporal_fix`.
pub(crate) fn temporal_lease_fix(s: &Scenario, facts: &LeaseFacts) -> (Fix, String) {
    let t = timeout_above_p99(s, facts);
    temporal_fix(
        facts.config.visibility_timeout_ms.max(t),
        work_p99_ms(&s.work.dist),
    )
}

/// Temporal's HeartbeatTimeout in the fix: 30 s, a crash found that soon.
pub const TEMPORAL_FIX_HEARTBEAT_TIMEOUT_MS: u64 = 30_000;

/// Under Temporal a heartbeat cannot carry an attempt past StartToClose
/// (docs/MODEL.md "Managed services"): the fix is a StartToClose above the
/// work (`start_to_close`) and a HeartbeatTimeout with heartbeats, which
/// still finds a crashed worker within it.
fn temporal_fix(start_to_close: u64, p99: f64) -> (Fix, String) {
    let ht = TEMPORAL_FIX_HEARTBEAT_TIMEOUT_MS.min(start_to_close);
    let d = lease_format::display::duration;
    (
        Fix::Heartbeat {
            interval_ms: (ht / 3).max(1),
            extend_by_ms: ht,
            // StartToClose caps every attempt, heartbeats or not.
            max_extensions: None,
            timeout_ms: Some(start_to_close),
        },
        format!(
            "Temporal does not stop a timed-out attempt, and a heartbeat cannot carry an attempt past its StartToClose: raise StartToClose above the work's p99 ({}) to {}, and set a HeartbeatTimeout of {} with a heartbeat every {} (the SDK sends one every {}), so that a crashed worker's activity is still tried again within {} rather than after StartToClose.",
            d(p99 as u64),
            d(start_to_close),
            d(ht),
            d((ht / 3).max(1)),
            d(lease_sim::services::temporal_throttle_ms(ht)),
            d(ht)
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::shipped_scenario as scenario;

    #[test]
    fn under_temporal_the_fix_is_a_longer_start_to_close_and_a_heartbeat_timeout() {
        let s = scenario("two-attempts-of-the-same-activity");
        let run = lease_sim::simulate(&s, &lease_sim::Options::default()).unwrap();
        let facts = crate::stats::LeaseFacts::new(&s, &run);
        let (fix, why) = lease_fix(&s, &facts);
        let Fix::Heartbeat {
            extend_by_ms,
            timeout_ms: Some(stc),
            max_extensions: None,
            ..
        } = fix
        else {
            panic!("{fix:?}")
        };
        assert_eq!(extend_by_ms, 30_000);
        // Above the work's stated p99 (6 min).
        assert!(stc > 360_000, "{stc}");
        assert!(why.contains("StartToClose"), "{why}");
    }

    #[test]
    fn labels_read_as_settings_in_words() {
        let f = Fix::Heartbeat {
            interval_ms: 10_000,
            extend_by_ms: 30_000,
            max_extensions: Some(20),
            timeout_ms: None,
        };
        assert_eq!(
            f.label(),
            "Heartbeat every 10 s, extending by 30 s, capped at 20 extensions"
        );
        assert_eq!(
            Fix::Timeout { ms: 135_000 }.label(),
            "Visibility timeout 135 s"
        );
        assert_eq!(
            Fix::Timeout { ms: 300_000 }.label(),
            "Visibility timeout 5 min"
        );
    }

    #[test]
    fn a_longer_timeout_raises_an_explicit_extension_that_would_shorten_it() {
        let mut s = scenario("gc-pause-starves-heartbeat");
        Fix::Timeout { ms: 90_000 }.apply(&mut s);
        let cfg = resolve(&s);
        assert_eq!(cfg.visibility_timeout_ms, 90_000);
        assert_eq!(cfg.heartbeat.map(|h| h.extend_by_ms), Some(90_000));
    }

    #[test]
    fn a_cap_on_a_scenario_without_heartbeat_turns_a_capped_one_on() {
        let mut s = scenario("sub-second-work");
        Fix::ExtensionCap { max_extensions: 4 }.apply(&mut s);
        let h = resolve(&s).heartbeat;
        assert_eq!(h.as_ref().map(|h| h.max_extensions), Some(Some(4)));
        assert_eq!(h.map(|h| h.interval_ms), Some(1_000));
    }

    #[test]
    fn a_redrive_limit_turns_the_policy_on() {
        let mut s = scenario("clip-surge");
        assert_eq!(resolve(&s).max_receive_count, None);
        let f = Fix::RedriveLimit {
            max_receive_count: REDRIVE_RECEIVES,
        };
        assert_eq!(f.label(), "Redrive to the DLQ after 5 receives");
        f.apply(&mut s);
        assert_eq!(s.broker.max_receive_count, Some(Some(5)));
        assert_eq!(resolve(&s).max_receive_count, Some(5));
        assert!(lease_sim::validate(&s).is_ok());
        // Out of range is clamped into lease-sim's limits.
        Fix::RedriveLimit {
            max_receive_count: 0,
        }
        .apply(&mut s);
        assert_eq!(s.broker.max_receive_count, Some(Some(1)));
    }

    #[test]
    fn fixes_serialize_tagged_by_kind() {
        let v = serde_json::to_string(&Fix::RedriveLimit {
            max_receive_count: 5,
        });
        assert_eq!(
            v.ok().as_deref(),
            Some(r#"{"kind":"redrive_limit","max_receive_count":5}"#)
        );
    }

    #[test]
    fn splitting_divides_the_work_and_multiplies_the_messages() {
        let mut s = scenario("clip-surge");
        Fix::SplitWork { parts: 3 }.apply(&mut s);
        assert!((work_p99_ms(&s.work.dist) - 10_000.0).abs() < 1.0);
        assert!((s.arrivals.rate_per_s - 1.5).abs() < 1e-9);
        assert!((s.arrivals.surges[0].rate_per_s - 3.0).abs() < 1e-9);
        assert!(lease_sim::validate(&s).is_ok());
    }

    #[test]
    fn a_heartbeat_fix_under_a_client_library_hands_the_lease_back_and_runs() {
        use lease_sim::scenario::{Client, Library};
        for fix in [
            Fix::Heartbeat {
                interval_ms: 10_000,
                extend_by_ms: 30_000,
                max_extensions: Some(20),
                timeout_ms: None,
            },
            Fix::ExtensionCap { max_extensions: 4 },
        ] {
            let mut s = scenario("clip-surge");
            s.workers.heartbeat = None;
            s.workers.client = Some(Client {
                library: Library::Pubsub,
                ..Client::default()
            });
            fix.apply(&mut s);
            assert_eq!(s.workers.client, None);
            assert!(lease_sim::validate(&s).is_ok(), "{}", fix.label());
        }
    }
}
