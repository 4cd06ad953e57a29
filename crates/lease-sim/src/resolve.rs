//! Apply the broker preset to the fields a scenario leaves out (docs/MODEL.md
//! "Broker presets": a preset fills only the fields left out; a field given in
//! the file wins), producing the concrete configuration the engine runs.

use crate::scenario::{
    CountAt, DlqTiming, Fence, LateAck, OnError, OnReject, Preset, Scenario, Slowdown,
};
use lease_format::decimal::clamp;

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
    /// SQS FIFO with one message group: nothing is handed out while any
    /// message is in flight, and the queue is ordered by arrival.
    pub single_group_fifo: bool,
    pub workers: u32,
    pub concurrency: u32,
    pub prefetch: u32,
    pub heartbeat: Option<HeartbeatConfig>,
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
    let timeout = b.visibility_timeout_ms.unwrap_or(d.timeout);
    let concurrency = s.workers.concurrency.max(1);
    let heartbeat = match &s.workers.heartbeat {
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
        single_group_fifo: d.fifo,
        workers: s.workers.count,
        concurrency,
        prefetch: s.workers.prefetch.unwrap_or(concurrency).max(concurrency),
        heartbeat,
        error_rate: finite_unit(s.workers.error_rate),
        hang_rate: finite_unit(s.workers.hang_rate),
        on_error: s.workers.on_error,
        capacity: s.downstream.capacity,
        slowdowns: s.downstream.slowdowns.clone(),
        fence: s.store.fence,
    }
}

fn finite_unit(x: f64) -> f64 {
    if x.is_finite() {
        clamp(x, 0.0, 1.0)
    } else {
        0.0
    }
}
