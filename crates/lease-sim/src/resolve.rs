//! Apply the broker preset to the fields a scenario leaves out (docs/MODEL.md
//! "Broker presets": a preset fills only the fields left out; a field given in
//! the file wins), producing the concrete configuration the engine runs.

use crate::scenario::{
    Client, CountAt, DlqTiming, Fence, LateAck, Library, OnError, OnReject, Preset, Scenario,
    Slowdown, StaleDelete, LAMBDA_FUNCTION_TIMEOUT_MS, LAMBDA_TIMEOUT_FACTOR, PUBSUB_MAX_LEASE_MS,
    SERVICE_BUS_MAX_RENEWAL_MS,
};

/// SQS: 12 hours from the receive, not reset by extensions.
pub const SQS_MAX_LEASE_LIFETIME_MS: u64 = 12 * 3_600_000;

#[derive(Debug, Clone, PartialEq)]
pub struct HeartbeatConfig {
    pub interval_ms: u64,
    pub extend_by_ms: u64,
    pub max_extensions: Option<u32>,
    pub on_reject: OnReject,
}

/// Every switch resolved: what the engine actually runs.
#[derive(Debug, Clone, PartialEq)]
pub struct Config {
    pub visibility_timeout_ms: u64,
    pub max_receive_count: Option<u32>,
    pub max_lease_lifetime_ms: Option<u64>,
    pub receive_batch: u32,
    pub rpc_latency_ms: u64,
    pub dlq_timing: DlqTiming,
    pub late_ack: LateAck,
    pub count_at: CountAt,
    pub stale_delete: StaleDelete,
    /// SQS FIFO with one message group: nothing is handed out while any
    /// message is in flight, and the queue is ordered by arrival.
    pub single_group_fifo: bool,
    pub workers: u32,
    pub concurrency: u32,
    pub prefetch: u32,
    pub heartbeat: Option<HeartbeatConfig>,
    /// The client library's lease policy; with one, `heartbeat` is `None`.
    pub client: ClientPolicy,
    pub error_rate: f64,
    pub hang_rate: f64,
    pub on_error: OnError,
    pub capacity: Option<u32>,
    pub slowdowns: Vec<Slowdown>,
    pub fence: Fence,
}

struct PresetDefaults {
    timeout: u64,
    lifetime: Option<u64>,
    max_receive_count: Option<u32>,
    dlq_timing: DlqTiming,
    late_ack: LateAck,
    count_at: CountAt,
    fifo: bool,
    client_heartbeat: Option<HeartbeatConfig>,
}

fn preset_defaults(p: Preset) -> PresetDefaults {
    match p {
        // Textbook rules: 30 s (SQS's default), no lifetime cap,
        // no redrive unless the file sets one.
        Preset::Textbook => PresetDefaults {
            timeout: 30_000,
            lifetime: None,
            max_receive_count: None,
            dlq_timing: DlqTiming::OnExpiry,
            late_ack: LateAck::Rejected,
            count_at: CountAt::Receive,
            fifo: false,
            client_heartbeat: None,
        },
        // SQS: redrive has no default (you must set maxReceiveCount).
        Preset::SqsStandard => PresetDefaults {
            timeout: 30_000,
            lifetime: Some(SQS_MAX_LEASE_LIFETIME_MS),
            max_receive_count: None,
            dlq_timing: DlqTiming::OnNextReceive,
            late_ack: LateAck::AcceptedIfNotRedelivered,
            count_at: CountAt::Receive,
            fifo: false,
            client_heartbeat: None,
        },
        Preset::SqsFifo => PresetDefaults {
            timeout: 30_000,
            lifetime: Some(SQS_MAX_LEASE_LIFETIME_MS),
            max_receive_count: None,
            dlq_timing: DlqTiming::OnNextReceive,
            late_ack: LateAck::Rejected,
            count_at: CountAt::Receive,
            fifo: true,
            client_heartbeat: None,
        },
        // Service Bus: LockDuration 60 s, MaxDeliveryCount 10, eager DLQ.
        Preset::AzureServiceBus => PresetDefaults {
            timeout: 60_000,
            lifetime: None,
            max_receive_count: Some(10),
            dlq_timing: DlqTiming::OnExpiry,
            late_ack: LateAck::Rejected,
            count_at: CountAt::ExpiryOrAbandon,
            fifo: false,
            client_heartbeat: None,
        },
        // Pub/Sub: ack deadline 10 s, maxDeliveryAttempts 5, and the client
        // library's lease manager (extend to 1 h by default).
        Preset::GooglePubsub => PresetDefaults {
            timeout: 10_000,
            lifetime: None,
            max_receive_count: Some(5),
            dlq_timing: DlqTiming::OnExpiry,
            late_ack: LateAck::AcceptedIfNotRedelivered,
            count_at: CountAt::ExpiryOrAbandon,
            fifo: false,
            client_heartbeat: Some(HeartbeatConfig {
                interval_ms: 5_000,
                extend_by_ms: 10_000,
                max_extensions: Some(720),
                on_reject: OnReject::Continue,
            }),
        },
    }
}

/// Resolve a (validated) scenario into the engine's configuration.
pub fn resolve(s: &Scenario) -> Config {
    let b = &s.broker;
    let d = preset_defaults(b.preset);
    let client = client_policy(s.workers.client.as_ref());
    let timeout = b
        .visibility_timeout_ms
        .unwrap_or_else(|| client.visibility_timeout_ms().unwrap_or(d.timeout));
    let concurrency = s.workers.concurrency.max(1);
    let heartbeat = match &s.workers.heartbeat {
        // The library manages the lease; validation refuses a heartbeat beside it.
        _ if client != ClientPolicy::None => None,
        None => d.client_heartbeat,
        Some(None) => None,
        Some(Some(h)) => Some(HeartbeatConfig {
            interval_ms: h.interval_ms.max(1),
            // docs/MODEL.md default: extend by the visibility timeout.
            extend_by_ms: h.extend_by_ms.unwrap_or(timeout),
            max_extensions: h.max_extensions,
            on_reject: h.on_reject,
        }),
    };
    Config {
        visibility_timeout_ms: timeout,
        max_receive_count: b.max_receive_count.unwrap_or(d.max_receive_count),
        max_lease_lifetime_ms: b.max_lease_lifetime_ms.unwrap_or(d.lifetime),
        receive_batch: b.receive_batch.unwrap_or(1).max(1),
        rpc_latency_ms: b.rpc_latency_ms.unwrap_or(0),
        dlq_timing: b.dlq_timing.unwrap_or(d.dlq_timing),
        late_ack: b.late_ack.unwrap_or(d.late_ack),
        count_at: b.count_at.unwrap_or(d.count_at),
        stale_delete: b.stale_delete.unwrap_or_default(),
        single_group_fifo: d.fifo,
        workers: s.workers.count,
        concurrency,
        prefetch: s.workers.prefetch.unwrap_or(concurrency).max(concurrency),
        heartbeat,
        client,
        error_rate: finite_unit(s.workers.error_rate),
        hang_rate: finite_unit(s.workers.hang_rate),
        on_error: s.workers.on_error,
        capacity: s.downstream.capacity,
        slowdowns: s.downstream.slowdowns.clone(),
        fence: s.store.fence,
    }
}

/// A client library's lease policy, its parameters filled with the
/// library's defaults (docs/MODEL.md "Client libraries").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClientPolicy {
    /// The heartbeat settings apply.
    None,
    /// Extend by the p99 of this worker's ack delays until `max_lease_ms`
    /// after the receive.
    Pubsub { max_lease_ms: u64 },
    /// Renew the lock before it expires until `max_renewal_ms` after the receive.
    ServiceBus { max_renewal_ms: u64 },
    /// The function timeout kills the handler.
    SqsLambda { function_timeout_ms: u64 },
}

impl ClientPolicy {
    /// SQS with Lambda: six times the function timeout, AWS's advice, when
    /// the file leaves the visibility timeout out.
    pub fn visibility_timeout_ms(self) -> Option<u64> {
        match self {
            ClientPolicy::SqsLambda {
                function_timeout_ms,
            } => Some(function_timeout_ms.saturating_mul(LAMBDA_TIMEOUT_FACTOR)),
            _ => None,
        }
    }
}

pub fn client_policy(c: Option<&Client>) -> ClientPolicy {
    let Some(c) = c else {
        return ClientPolicy::None;
    };
    match c.library {
        Library::None => ClientPolicy::None,
        Library::Pubsub => ClientPolicy::Pubsub {
            max_lease_ms: c.max_lease_ms.unwrap_or(PUBSUB_MAX_LEASE_MS),
        },
        Library::ServiceBus => ClientPolicy::ServiceBus {
            max_renewal_ms: c
                .max_auto_lock_renewal_ms
                .unwrap_or(SERVICE_BUS_MAX_RENEWAL_MS),
        },
        Library::SqsLambda => ClientPolicy::SqsLambda {
            function_timeout_ms: c.function_timeout_ms.unwrap_or(LAMBDA_FUNCTION_TIMEOUT_MS),
        },
    }
}

/// Pub/Sub's bounds on one extension: 10 s to 10 min.
pub const PUBSUB_MIN_EXTENSION_MS: u64 = 10_000;
pub const PUBSUB_MAX_EXTENSION_MS: u64 = 600_000;

/// The length of a Pub/Sub client's next extension: the 99th percentile of
/// the ack delays in `seconds` (a count per whole second, as the client's
/// histogram keeps them), or before any the subscription's ack deadline,
/// clamped to 10 s .. 10 min.
pub fn pubsub_extension_ms(seconds: &[u32], ack_deadline_ms: u64) -> u64 {
    let n: u64 = seconds.iter().map(|&c| u64::from(c)).sum();
    let ms = if n == 0 {
        ack_deadline_ms
    } else {
        // From the top down, as the client's histogram does: the largest
        // value with more than 1% of the delays at or above it.
        let mut left = n as f64 * 0.01;
        let mut at = 0;
        for (s, &c) in seconds.iter().enumerate().rev() {
            left -= f64::from(c);
            if left < 0.0 {
                at = s;
                break;
            }
        }
        at as u64 * 1_000
    };
    ms.clamp(PUBSUB_MIN_EXTENSION_MS, PUBSUB_MAX_EXTENSION_MS)
}

/// Service Bus: how long before the lock expires the processor renews it,
/// half the lock but at most 10 s, as the .NET processor computes it.
pub fn service_bus_renew_before_ms(lock_ms: u64) -> u64 {
    (lock_ms / 2).min(10_000)
}

fn finite_unit(x: f64) -> f64 {
    if x.is_finite() {
        x.clamp(0.0, 1.0)
    } else {
        0.0
    }
}
