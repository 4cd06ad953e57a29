//! The managed services and job frameworks that read the lease their own
//! way (docs/MODEL.md "Managed services"): Temporal activities, Google
//! Cloud Tasks and Sidekiq Pro. Their presets' defaults, their delay before
//! a retry, and what their files may not say.

use crate::resolve::{HeartbeatConfig, RetryDelay};
use crate::scenario::{Preset, Scenario};

/// Temporal's retry policy: InitialInterval 1 s.
pub const TEMPORAL_INITIAL_INTERVAL_MS: u64 = 1_000;
/// MaximumInterval: 100 times the initial interval.
pub const TEMPORAL_MAXIMUM_INTERVAL_MS: u64 = 100 * TEMPORAL_INITIAL_INTERVAL_MS;
/// The SDK sends a heartbeat at most once per 0.8 x HeartbeatTimeout...
pub const TEMPORAL_THROTTLE_PER_MILLE: u64 = 800;
/// ... and at most 60 s apart (`maxHeartbeatThrottleInterval`).
pub const TEMPORAL_MAX_THROTTLE_MS: u64 = 60_000;

/// Cloud Tasks, HTTP target: the dispatch deadline, 10 min by default ...
pub const CLOUD_TASKS_DISPATCH_DEADLINE_MS: u64 = 600_000;
/// ... from 15 s ...
pub const CLOUD_TASKS_MIN_DEADLINE_MS: u64 = 15_000;
/// ... to 30 min.
pub const CLOUD_TASKS_MAX_DEADLINE_MS: u64 = 1_800_000;
/// A queue created without a RetryConfig: 100 attempts, a retry after
/// 0.1 s doubling 16 times up to 3,600 s (the queue Google's own sample
/// prints; the reference says only that Cloud Tasks picks the defaults).
pub const CLOUD_TASKS_MAX_ATTEMPTS: u32 = 100;
pub const CLOUD_TASKS_MIN_BACKOFF_MS: u64 = 100;
pub const CLOUD_TASKS_MAX_BACKOFF_MS: u64 = 3_600_000;
pub const CLOUD_TASKS_MAX_DOUBLINGS: u32 = 16;

/// Sidekiq Pro: a dead process's heartbeat expires after 60 s ...
pub const SIDEKIQ_HEARTBEAT_EXPIRY_MS: u64 = 60_000;
/// ... and the orphan check runs at a process start at most once an hour.
pub const SIDEKIQ_ORPHAN_CHECK_MS: u64 = 3_600_000;

/// The preset's delay before a retry, if it has one.
pub fn retry_default(p: Preset) -> Option<RetryDelay> {
    match p {
        // interval = min(initial x 2^retries, maximum); unlimited attempts.
        Preset::TemporalActivity => Some(RetryDelay {
            min_ms: TEMPORAL_INITIAL_INTERVAL_MS,
            max_ms: Some(TEMPORAL_MAXIMUM_INTERVAL_MS),
            doublings: None,
        }),
        Preset::CloudTasks => Some(RetryDelay {
            min_ms: CLOUD_TASKS_MIN_BACKOFF_MS,
            max_ms: Some(CLOUD_TASKS_MAX_BACKOFF_MS),
            doublings: Some(CLOUD_TASKS_MAX_DOUBLINGS),
        }),
        _ => None,
    }
}

/// Temporal: the timeout (StartToClose) caps each attempt whatever its
/// heartbeats, and a heartbeat resets a timer of its own (HeartbeatTimeout).
pub fn caps_attempts(p: Preset) -> bool {
    p == Preset::TemporalActivity
}

/// Whether a worker under this preset can extend its lease at all.
pub fn has_renewal(p: Preset) -> bool {
    !matches!(p, Preset::CloudTasks | Preset::SidekiqPro)
}

/// The Temporal SDK's heartbeat throttle: a heartbeat goes at most once per
/// 0.8 x HeartbeatTimeout, and at least every 60 s.
pub fn temporal_throttle_ms(heartbeat_timeout_ms: u64) -> u64 {
    (heartbeat_timeout_ms * TEMPORAL_THROTTLE_PER_MILLE / 1_000).clamp(1, TEMPORAL_MAX_THROTTLE_MS)
}

/// Under Temporal the activity's heartbeats reach the server as the SDK's
/// throttle lets them: no more often than the throttle interval.
pub fn throttled(p: Preset, h: HeartbeatConfig) -> HeartbeatConfig {
    if p != Preset::TemporalActivity {
        return h;
    }
    let throttle = temporal_throttle_ms(h.extend_by_ms);
    HeartbeatConfig {
        interval_ms: h.interval_ms.max(throttle),
        ..h
    }
}

impl RetryDelay {
    /// The delay before retry `k` (0 for the first retry): the minimum,
    /// doubled `k` times up to `doublings`, then growing by the last doubled
    /// value each retry, never above the maximum (Cloud Tasks' RetryConfig;
    /// Temporal's policy is the case with no limit on doublings, RabbitMQ
    /// 4.3's delayed retry the case with none).
    pub fn delay_ms(&self, k: u32) -> u64 {
        let d = self.doublings.unwrap_or(u32::MAX);
        let doubled = |n: u32| {
            self.min_ms
                .saturating_mul(1u64.checked_shl(n).unwrap_or(u64::MAX))
        };
        let raw = if k <= d {
            doubled(k)
        } else {
            doubled(d).saturating_mul(u64::from(k - d) + 1)
        };
        self.max_ms.map_or(raw, |m| raw.min(m))
    }
}

/// Service Bus: a queue's `LockDuration` is at most 5 min ("Max value is
/// 5 minutes", CreateQueueOptions.LockDuration); no minimum is documented.
pub const SERVICE_BUS_MAX_LOCK_MS: u64 = 300_000;
/// Pub/Sub: a subscription's ack deadline, from 10 s to 600 s
/// (Subscription.ackDeadlineSeconds).
pub const PUBSUB_MIN_ACK_DEADLINE_MS: u64 = 10_000;
pub const PUBSUB_MAX_ACK_DEADLINE_MS: u64 = 600_000;

/// The documented range of a preset's own lease setting, in ms, with its
/// name and where the range comes from; `None` where the system documents
/// none beyond the model's own (SQS's 12 h is the model's maximum for every
/// preset).
pub fn lease_range(p: Preset) -> Option<(u64, u64, &'static str)> {
    match p {
        Preset::CloudTasks => Some((
            CLOUD_TASKS_MIN_DEADLINE_MS,
            CLOUD_TASKS_MAX_DEADLINE_MS,
            "an HTTP target's dispatch deadline",
        )),
        Preset::AzureServiceBus => Some((1, SERVICE_BUS_MAX_LOCK_MS, "a queue's LockDuration")),
        Preset::GooglePubsub => Some((
            PUBSUB_MIN_ACK_DEADLINE_MS,
            PUBSUB_MAX_ACK_DEADLINE_MS,
            "a subscription's ack deadline",
        )),
        _ => None,
    }
}

/// What a file under these presets may not say, with the reason.
pub fn check(s: &Scenario) -> Result<(), (&'static str, String, String)> {
    let p = s.broker.preset;
    if p == Preset::TemporalActivity && s.broker.visibility_timeout_ms.is_none() {
        return Err((
            "broker.visibility_timeout_ms",
            "left out".into(),
            "must be given under temporal_activity: it is the activity's StartToClose, \
             which Temporal leaves to the caller (StartToClose or ScheduleToClose must be set)"
                .into(),
        ));
    }
    if let (Some((lo, hi, what)), Some(t)) = (lease_range(p), s.broker.visibility_timeout_ms) {
        if !(lo..=hi).contains(&t) {
            use lease_format::display::{count, duration};
            let from = if lo > 1 {
                format!("from {} ms ({}) to", count(lo), duration(lo))
            } else {
                "at most".to_string()
            };
            return Err((
                "broker.visibility_timeout_ms",
                t.to_string(),
                format!(
                    "must be {from} {} ms ({}) under {}: {what}",
                    count(hi),
                    duration(hi),
                    <Preset as crate::scenario::Named>::WORDS[crate::scenario::Named::index(p)],
                ),
            ));
        }
    }
    if !has_renewal(p) {
        if let Some(Some(h)) = &s.workers.heartbeat {
            return Err((
                "workers.heartbeat",
                format!("interval_ms {}", h.interval_ms),
                format!(
                    "must be null or left out under {}: {}",
                    if p == Preset::CloudTasks {
                        "cloud_tasks"
                    } else {
                        "sidekiq_pro"
                    },
                    if p == Preset::CloudTasks {
                        "a push target has no call that extends its dispatch deadline"
                    } else {
                        "super_fetch keeps no lease to extend"
                    }
                ),
            ));
        }
    }
    if let (Some(Some(min)), Some(max)) = (s.broker.retry_min_ms, s.broker.retry_max_ms) {
        if max < min {
            return Err((
                "broker.retry_max_ms",
                max.to_string(),
                format!("must be at least broker.retry_min_ms ({min} ms)"),
            ));
        }
    }
    Ok(())
}
