//! Apply the broker preset to the fields a scenario leaves out (docs/MODEL.md
//! "Broker presets": a preset fills only the fields left out; a field given in
//! the file wins), producing the concrete configuration the engine runs.

use crate::scenario::{
    AckAt, Client, CountAt, DeletedAck, DlqTiming, ExpiryTakes, Fence, LateAck, Library, OnError,
    OnReject, PastLimit, Preset, ReceiveOrder, Renewal, RetryOn, Scenario, Slowdown, StaleDelete,
    LAMBDA_FUNCTION_TIMEOUT_MS, LAMBDA_TIMEOUT_FACTOR, PUBSUB_MAX_LEASE_MS,
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

/// XAUTOCLAIM's default `COUNT` (`redis/docs:content/commands/xautoclaim.md`:
/// "The default value for COUNT is 100").
pub const XAUTOCLAIM_DEFAULT_COUNT: u32 = 100;

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
    /// An ack of a message already deleted: rejected, or a success that
    /// does nothing (docs/MODEL.md "An ack of a message already deleted").
    pub deleted_ack: DeletedAck,
    pub expiry_takes: ExpiryTakes,
    /// Leases past their deadline are taken back on this period's grid
    /// (from t = 0); `None`: at the deadline itself.
    pub expiry_check_ms: Option<u64>,
    pub expiry_counts: bool,
    /// JetStream's `BackOff`: the lease of delivery n, the last repeating.
    pub lease_steps_ms: Vec<u64>,
    /// 2: BullMQ's stalled checker (a lock that ends at its deadline, taken
    /// back on the check after one that saw it held since its renewal; the
    /// workers run the checks, `engine/stalled.rs`).
    pub expiry_check_passes: u32,
    /// XAUTOCLAIM's `COUNT`: the most entries one sweep of the claimer
    /// takes (`expiry_takes: claim` on a periodic check); `None`: no limit
    /// (Celery's restore sweep, unless the file sets one).
    pub claim_count: Option<u32>,
    /// Past this many expiries the message is dead-lettered at once.
    pub max_expiries: Option<u32>,
    pub renewal: Renewal,
    pub ack_at: AckAt,
    /// Every run holds its thread (`work.cpu_bound`).
    pub cpu_bound: bool,
    /// Celery's countdown: a message may start this long after it arrived.
    pub eta_ms: u64,
    /// The delay before a message whose lease ended is handed out again
    /// (docs/MODEL.md "A delay before redelivery"); `None`: at once.
    pub retry: Option<RetryDelay>,
    /// Which ended leases wait out `retry`.
    pub retry_on: RetryOn,
    /// What becomes of a message past the delivery limit.
    pub past_limit: PastLimit,
    pub receive_order: ReceiveOrder,
    /// Temporal: the timeout caps each attempt whatever its heartbeats, and
    /// the heartbeat's `extend_by_ms` is the HeartbeatTimeout.
    pub attempt_cap: bool,
    /// JetStream: an in-progress ack names the message, not the delivery.
    /// Sent with any delivery's reply subject while the message is pending
    /// (handed out, not acked), it restarts the timer of the delivery the
    /// server now holds, by that delivery's AckWait or BackOff step
    /// (docs/MODEL.md "An in-progress ack names the message").
    pub progress_by_message: bool,
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

/// A delay before redelivery: the minimum doubling `doublings` times
/// (`None`: without end), then growing linearly, at most `max_ms`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryDelay {
    pub min_ms: u64,
    pub max_ms: Option<u64>,
    pub doublings: Option<u32>,
}

pub(crate) struct PresetDefaults {
    timeout: u64,
    lifetime: Option<u64>,
    max_receive_count: Option<u32>,
    dlq_timing: DlqTiming,
    late_ack: LateAck,
    deleted_ack: DeletedAck,
    count_at: CountAt,
    fifo: bool,
    client_heartbeat: Option<HeartbeatConfig>,
    expiry_takes: ExpiryTakes,
    expiry_check: Option<u64>,
    expiry_counts: bool,
    /// The job frameworks' worker defaults (docs/MODEL.md "Job frameworks").
    frame: Frame,
}

/// What a job framework's preset sets beside the broker: its workers'
/// renewal, when they ack, their prefetch per handler, the stalled
/// checker's passes and the stall limit.
#[derive(Clone, Copy)]
struct Frame {
    renewal: Renewal,
    ack_at: AckAt,
    prefetch_multiplier: u32,
    passes: u32,
    max_expiries: Option<u32>,
}

/// Every broker's workers: renewal on a thread of its own, the ack after
/// the work, a prefetch of one per handler, one pass, no stall limit.
const PLAIN: Frame = Frame {
    renewal: Renewal::Background,
    ack_at: AckAt::AfterWork,
    prefetch_multiplier: 1,
    passes: 1,
    max_expiries: None,
};

/// BullMQ's `lockDuration` and `stalledInterval`: 30 s each.
pub const BULLMQ_LOCK_DURATION_MS: u64 = 30_000;
pub const BULLMQ_STALLED_INTERVAL_MS: u64 = 30_000;
/// BullMQ's `maxStalledCount`.
pub const BULLMQ_MAX_STALLED_COUNT: u32 = 1;
/// Celery's Redis transport: `visibility_timeout` 1 h, restored on a sweep
/// every `unacked_restore_interval` (10 s) x `unacked_restore_throttle` (10).
pub const CELERY_REDIS_VISIBILITY_TIMEOUT_MS: u64 = 3_600_000;
pub const CELERY_REDIS_RESTORE_SWEEP_MS: u64 = 100_000;
/// Celery's SQS transport: kombu's `default_visibility_timeout`, 30 min.
pub const CELERY_SQS_VISIBILITY_TIMEOUT_MS: u64 = 1_800_000;
/// Celery's `worker_prefetch_multiplier`.
pub const CELERY_PREFETCH_MULTIPLIER: u32 = 4;

/// Celery's workers: ack before the work (`acks_late=False`), four
/// messages prefetched per handler.
const CELERY: Frame = Frame {
    renewal: Renewal::Background,
    ack_at: AckAt::BeforeWork,
    prefetch_multiplier: CELERY_PREFETCH_MULTIPLIER,
    passes: 1,
    max_expiries: None,
};

/// The cloud services' broker: expiry at the deadline takes back the
/// expired delivery alone, and counts.
const AT_THE_DEADLINE: (ExpiryTakes, Option<u64>, bool) = (ExpiryTakes::Delivery, None, true);

/// RabbitMQ's consumer timeout: `consumer_timeout`, 30 min.
pub const RABBITMQ_CONSUMER_TIMEOUT_MS: u64 = 1_800_000;
/// RabbitMQ checks the consumer timeout on the channel's tick,
/// `channel_tick_interval`, 60 s.
pub const RABBITMQ_CHANNEL_TICK_MS: u64 = 60_000;
/// A quorum queue's `x-delivery-limit` since RabbitMQ 4.0.
pub const RABBITMQ_DELIVERY_LIMIT: u32 = 20;
/// JetStream's `AckWait` default.
pub const JETSTREAM_ACK_WAIT_MS: u64 = 30_000;

fn preset_defaults(p: Preset) -> PresetDefaults {
    match p {
        Preset::TemporalActivity | Preset::CloudTasks | Preset::SidekiqPro => service_defaults(p),
        // Textbook rules: 30 s (SQS's default), no lifetime cap,
        // no redrive unless the file sets one.
        Preset::Textbook => PresetDefaults {
            timeout: 30_000,
            lifetime: None,
            max_receive_count: None,
            dlq_timing: DlqTiming::OnExpiry,
            late_ack: LateAck::Rejected,
            deleted_ack: DeletedAck::Rejected,
            count_at: CountAt::Receive,
            fifo: false,
            client_heartbeat: None,
            expiry_takes: AT_THE_DEADLINE.0,
            expiry_check: AT_THE_DEADLINE.1,
            expiry_counts: AT_THE_DEADLINE.2,
            frame: PLAIN,
        },
        // SQS: redrive has no default (you must set maxReceiveCount).
        Preset::SqsStandard => PresetDefaults {
            timeout: 30_000,
            lifetime: Some(SQS_MAX_LEASE_LIFETIME_MS),
            max_receive_count: None,
            dlq_timing: DlqTiming::OnNextReceive,
            late_ack: LateAck::AcceptedIfNotRedelivered,
            deleted_ack: DeletedAck::NoOp,
            count_at: CountAt::Receive,
            fifo: false,
            client_heartbeat: None,
            expiry_takes: AT_THE_DEADLINE.0,
            expiry_check: AT_THE_DEADLINE.1,
            expiry_counts: AT_THE_DEADLINE.2,
            frame: PLAIN,
        },
        Preset::SqsFifo => PresetDefaults {
            timeout: 30_000,
            lifetime: Some(SQS_MAX_LEASE_LIFETIME_MS),
            max_receive_count: None,
            dlq_timing: DlqTiming::OnNextReceive,
            late_ack: LateAck::Rejected,
            deleted_ack: DeletedAck::Rejected,
            count_at: CountAt::Receive,
            fifo: true,
            client_heartbeat: None,
            expiry_takes: AT_THE_DEADLINE.0,
            expiry_check: AT_THE_DEADLINE.1,
            expiry_counts: AT_THE_DEADLINE.2,
            frame: PLAIN,
        },
        // Service Bus: LockDuration 60 s, MaxDeliveryCount 10, eager DLQ.
        Preset::AzureServiceBus => PresetDefaults {
            timeout: 60_000,
            lifetime: None,
            max_receive_count: Some(10),
            dlq_timing: DlqTiming::OnExpiry,
            late_ack: LateAck::Rejected,
            deleted_ack: DeletedAck::Rejected,
            count_at: CountAt::ExpiryOrAbandon,
            fifo: false,
            client_heartbeat: None,
            expiry_takes: AT_THE_DEADLINE.0,
            expiry_check: AT_THE_DEADLINE.1,
            expiry_counts: AT_THE_DEADLINE.2,
            frame: PLAIN,
        },
        // Pub/Sub: ack deadline 10 s, maxDeliveryAttempts 5, and the client
        // library's lease manager (extend to 1 h by default).
        Preset::GooglePubsub => PresetDefaults {
            timeout: 10_000,
            lifetime: None,
            max_receive_count: Some(5),
            dlq_timing: DlqTiming::OnExpiry,
            late_ack: LateAck::AcceptedIfNotRedelivered,
            deleted_ack: DeletedAck::Rejected,
            count_at: CountAt::ExpiryOrAbandon,
            fifo: false,
            client_heartbeat: Some(HeartbeatConfig {
                interval_ms: 5_000,
                extend_by_ms: 10_000,
                max_extensions: Some(720),
                on_reject: OnReject::Continue,
            }),
            expiry_takes: AT_THE_DEADLINE.0,
            expiry_check: AT_THE_DEADLINE.1,
            expiry_counts: AT_THE_DEADLINE.2,
            frame: PLAIN,
        },
        // RabbitMQ 3.x to 4.2: `consumer_timeout` 30 min, checked on the
        // channel's tick; the channel is closed with PRECONDITION_FAILED and
        // everything unacked on it requeued. The first worker's late ack on
        // the closed channel fails in the client (observed with pika on
        // 3.10) and closes nothing; `channel_error` is the client that
        // reuses the channel's number and tags. A quorum queue's
        // `x-delivery-limit` (20) counts every return.
        Preset::Rabbitmq42 => PresetDefaults {
            timeout: RABBITMQ_CONSUMER_TIMEOUT_MS,
            lifetime: None,
            max_receive_count: Some(RABBITMQ_DELIVERY_LIMIT),
            dlq_timing: DlqTiming::OnExpiry,
            late_ack: LateAck::Rejected,
            deleted_ack: DeletedAck::Rejected,
            count_at: CountAt::ExpiryOrAbandon,
            fifo: false,
            client_heartbeat: None,
            expiry_takes: ExpiryTakes::Channel,
            expiry_check: Some(RABBITMQ_CHANNEL_TICK_MS),
            expiry_counts: true,
            frame: PLAIN,
        },
        // RabbitMQ 4.3 quorum queues: the consumer is cancelled and only
        // its timed-out messages return; a timeout raises
        // `x-acquired-count` only, not the delivery count the limit reads.
        Preset::Rabbitmq43 => PresetDefaults {
            timeout: RABBITMQ_CONSUMER_TIMEOUT_MS,
            lifetime: None,
            max_receive_count: Some(RABBITMQ_DELIVERY_LIMIT),
            dlq_timing: DlqTiming::OnExpiry,
            late_ack: LateAck::Rejected,
            deleted_ack: DeletedAck::Rejected,
            count_at: CountAt::ExpiryOrAbandon,
            fifo: false,
            client_heartbeat: None,
            expiry_takes: ExpiryTakes::Delivery,
            expiry_check: None,
            expiry_counts: false,
            frame: PLAIN,
        },
        // JetStream: AckWait 30 s, MaxDeliver -1 (unlimited), a late ack
        // accepted whenever and counted for the message.
        Preset::NatsJetstream => PresetDefaults {
            timeout: JETSTREAM_ACK_WAIT_MS,
            lifetime: None,
            max_receive_count: None,
            dlq_timing: DlqTiming::OnExpiry,
            late_ack: LateAck::AcceptedAlways,
            deleted_ack: DeletedAck::NoOp,
            count_at: CountAt::Receive,
            fifo: false,
            client_heartbeat: None,
            expiry_takes: AT_THE_DEADLINE.0,
            expiry_check: AT_THE_DEADLINE.1,
            expiry_counts: AT_THE_DEADLINE.2,
            frame: PLAIN,
        },
        // Redis Streams: no broker timer; an entry stays pending until
        // XACK, and `XACK` names no consumer. A claimer (XAUTOCLAIM every
        // `expiry_check_ms`, `min-idle-time` = the timeout) is the file's
        // `expiry_takes: claim`. No redrive is built in.
        Preset::RedisStreams => PresetDefaults {
            timeout: 30_000,
            lifetime: None,
            max_receive_count: None,
            dlq_timing: DlqTiming::OnExpiry,
            late_ack: LateAck::AcceptedAlways,
            deleted_ack: DeletedAck::NoOp,
            count_at: CountAt::Receive,
            fifo: false,
            client_heartbeat: None,
            expiry_takes: ExpiryTakes::Nothing,
            expiry_check: None,
            expiry_counts: true,
            frame: PLAIN,
        },
        // BullMQ: `lockDuration` 30 s, renewed every `lockRenewTime`
        // (lockDuration / 2) on the worker's event loop (the heartbeat
        // `resolve` adds); the stalled checker every `stalledInterval`
        // (30 s) in two passes; the second stall (`maxStalledCount` 1)
        // fails the job outright. A thrown error fails it at once (job
        // `attempts` 1); a stall does not count toward `attempts`. A
        // completion without the lock is "Missing lock": rejected.
        Preset::Bullmq => PresetDefaults {
            timeout: BULLMQ_LOCK_DURATION_MS,
            lifetime: None,
            max_receive_count: Some(1),
            dlq_timing: DlqTiming::OnExpiry,
            late_ack: LateAck::Rejected,
            deleted_ack: DeletedAck::Rejected,
            count_at: CountAt::ExpiryOrAbandon,
            fifo: false,
            client_heartbeat: None,
            expiry_takes: ExpiryTakes::Delivery,
            expiry_check: Some(BULLMQ_STALLED_INTERVAL_MS),
            expiry_counts: false,
            frame: Frame {
                renewal: Renewal::EventLoop,
                ack_at: AckAt::AfterWork,
                prefetch_multiplier: 1,
                passes: 2,
                max_expiries: Some(BULLMQ_MAX_STALLED_COUNT),
            },
        },
        // Celery on Redis: `visibility_timeout` 1 h, restored by the
        // transport's sweep (about every 100 s); an ack removes the unacked
        // entry by the delivery tag the message got when it was published,
        // so any copy's ack settles it, but never calls back a restored copy
        // waiting in the list: a restore is a claim (RPUSHed where the
        // workers' BRPOP takes next). No redrive.
        Preset::CeleryRedis => PresetDefaults {
            timeout: CELERY_REDIS_VISIBILITY_TIMEOUT_MS,
            lifetime: None,
            max_receive_count: None,
            dlq_timing: DlqTiming::OnExpiry,
            late_ack: LateAck::AcceptedAlways,
            deleted_ack: DeletedAck::NoOp,
            count_at: CountAt::Receive,
            fifo: false,
            client_heartbeat: None,
            expiry_takes: ExpiryTakes::Claim,
            expiry_check: Some(CELERY_REDIS_RESTORE_SWEEP_MS),
            expiry_counts: true,
            frame: CELERY,
        },
        // Celery on SQS: the SQS standard queue with kombu's 30 min
        // visibility timeout.
        Preset::CelerySqs => PresetDefaults {
            timeout: CELERY_SQS_VISIBILITY_TIMEOUT_MS,
            lifetime: Some(SQS_MAX_LEASE_LIFETIME_MS),
            max_receive_count: None,
            dlq_timing: DlqTiming::OnNextReceive,
            late_ack: LateAck::AcceptedIfNotRedelivered,
            deleted_ack: DeletedAck::NoOp,
            count_at: CountAt::Receive,
            fifo: false,
            client_heartbeat: None,
            expiry_takes: AT_THE_DEADLINE.0,
            expiry_check: AT_THE_DEADLINE.1,
            expiry_counts: AT_THE_DEADLINE.2,
            frame: CELERY,
        },
    }
}

/// Temporal (StartToClose left to the file, unlimited attempts, a timed-out
/// attempt's completion refused), Cloud Tasks (dispatch deadline 10 min,
/// 100 attempts, deleted past them) and Sidekiq Pro (no timer; a dead
/// process's jobs at a later process start): docs/MODEL.md "Managed services".
fn service_defaults(p: Preset) -> PresetDefaults {
    use crate::services::*;
    let (timeout, max_receive_count, expiry_takes, expiry_check) = match p {
        // Never run: validation refuses a Temporal file without its StartToClose.
        Preset::TemporalActivity => (30_000, None, ExpiryTakes::Delivery, None),
        Preset::CloudTasks => (
            CLOUD_TASKS_DISPATCH_DEADLINE_MS,
            Some(CLOUD_TASKS_MAX_ATTEMPTS),
            ExpiryTakes::Delivery,
            None,
        ),
        _ => (
            SIDEKIQ_HEARTBEAT_EXPIRY_MS,
            None,
            ExpiryTakes::Orphans,
            Some(SIDEKIQ_ORPHAN_CHECK_MS),
        ),
    };
    PresetDefaults {
        timeout,
        lifetime: None,
        max_receive_count,
        dlq_timing: DlqTiming::OnExpiry,
        late_ack: LateAck::Rejected,
        deleted_ack: DeletedAck::Rejected,
        count_at: CountAt::Receive,
        fifo: false,
        client_heartbeat: None,
        expiry_takes,
        expiry_check,
        expiry_counts: true,
        frame: PLAIN,
    }
}

/// A managed service's timeout when the file leaves it out.
pub(crate) fn service_timeout_ms(p: Preset) -> u64 {
    service_defaults(p).timeout
}

/// The file's retry delay over the preset's: `retry_min_ms: null` turns it
/// off; a maximum or a number of doublings left out is the preset's.
fn retry(s: &Scenario) -> Option<RetryDelay> {
    let b = &s.broker;
    let d = crate::services::retry_default(b.preset);
    let min_ms = match b.retry_min_ms {
        Some(None) => return None,
        Some(Some(m)) => m,
        None => d?.min_ms,
    };
    Some(RetryDelay {
        min_ms,
        max_ms: b.retry_max_ms.or(d.and_then(|d| d.max_ms)),
        doublings: b.retry_doublings.unwrap_or(d.and_then(|d| d.doublings)),
    })
}

/// What a preset does with a message past its delivery limit when the file
/// leaves it out (docs/MODEL.md "Past the delivery limit").
pub fn past_limit_default(p: Preset) -> PastLimit {
    match p {
        // `MaxDeliver`: the message stays in the stream and the server
        // publishes a MAX_DELIVERIES advisory (nats-server
        // `server/consumer.go`, `hasMaxDeliveries`; consumers.md).
        Preset::NatsJetstream => PastLimit::Stay,
        // A quorum queue's `delivery-limit` drops the message unless a
        // dead-letter exchange is configured, and none is by default
        // (rabbitmq.com/docs/quorum-queues#poison-message-handling).
        Preset::Rabbitmq42 | Preset::Rabbitmq43 => PastLimit::Drop,
        // Past its attempts the task is deleted; there is no dead-letter
        // queue (cloud.google.com/tasks/docs/reference/rest/v2/RetryConfig).
        Preset::CloudTasks => PastLimit::Drop,
        _ => PastLimit::DeadLetter,
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
    let preset_heartbeat = match b.preset {
        // BullMQ renews every `lockRenewTime` (half the lock) by the lock.
        Preset::Bullmq => Some(HeartbeatConfig {
            interval_ms: (timeout / 2).max(1),
            extend_by_ms: timeout,
            max_extensions: None,
            on_reject: OnReject::Continue,
        }),
        _ => d.client_heartbeat,
    };
    let heartbeat = match &s.workers.heartbeat {
        // The library manages the lease; validation refuses a heartbeat beside it.
        _ if client != ClientPolicy::None => None,
        None => preset_heartbeat,
        Some(None) => None,
        Some(Some(h)) => Some(HeartbeatConfig {
            interval_ms: h.interval_ms.max(1),
            // docs/MODEL.md default: extend by the visibility timeout.
            extend_by_ms: h.extend_by_ms.unwrap_or(timeout),
            max_extensions: h.max_extensions,
            on_reject: h.on_reject,
        })
        .map(|h| crate::services::throttled(b.preset, h)),
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
        deleted_ack: b.deleted_ack.unwrap_or(d.deleted_ack),
        expiry_takes: b.expiry_takes.unwrap_or(d.expiry_takes),
        expiry_check_ms: b.expiry_check_ms.unwrap_or(d.expiry_check),
        expiry_counts: b.expiry_counts.unwrap_or(d.expiry_counts),
        lease_steps_ms: b.lease_steps_ms.clone().unwrap_or_default(),
        expiry_check_passes: b.expiry_check_passes.unwrap_or(d.frame.passes),
        claim_count: b
            .claim_count
            .or((b.preset == Preset::RedisStreams).then_some(XAUTOCLAIM_DEFAULT_COUNT)),
        max_expiries: b.max_expiries.unwrap_or(d.frame.max_expiries),
        renewal: s.workers.renewal.unwrap_or(d.frame.renewal),
        ack_at: s.workers.ack_at.unwrap_or(d.frame.ack_at),
        cpu_bound: s.work.cpu_bound,
        eta_ms: s.arrivals.eta_ms,
        retry: retry(s),
        attempt_cap: crate::services::caps_attempts(b.preset),
        progress_by_message: b.preset == Preset::NatsJetstream,
        receive_order: b.receive_order.unwrap_or_default(),
        // BullMQ applies a job's `backoff` to a thrown error, never to a
        // stall (taskforcesh/bullmq docs, "Retrying failing jobs"; taskforcesh/bullmq#651).
        retry_on: b.retry_on.unwrap_or(match b.preset {
            Preset::Bullmq => RetryOn::Failure,
            _ => RetryOn::Every,
        }),
        past_limit: b.past_limit.unwrap_or_else(|| past_limit_default(b.preset)),
        single_group_fifo: d.fifo,
        workers: s.workers.count,
        concurrency,
        prefetch: s
            .workers
            .prefetch
            .unwrap_or(concurrency.saturating_mul(d.frame.prefetch_multiplier))
            .max(concurrency),
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

impl Config {
    /// The lease a delivery with this receipt starts with: the timeout,
    /// or JetStream's `BackOff` step for it (the last value repeating).
    pub fn lease_ms(&self, receipt: u32) -> u64 {
        match self.lease_steps_ms.len() {
            0 => self.visibility_timeout_ms,
            n => self.lease_steps_ms[(receipt.max(1) as usize - 1).min(n - 1)],
        }
    }

    /// When a lease whose deadline is `deadline`, set (received or last
    /// extended) at `set_at`, is taken back: at the deadline, or at the
    /// first periodic check at or after it, the checks falling every period
    /// from `origin`; under two passes, also after the first check past
    /// `set_at` (which marks it); never (`u64::MAX`) when expiry takes
    /// nothing back.
    pub fn taken_back_at(&self, origin: u64, deadline: u64, set_at: u64) -> u64 {
        if matches!(
            self.expiry_takes,
            ExpiryTakes::Nothing | ExpiryTakes::Orphans
        ) {
            return u64::MAX;
        }
        match self.expiry_check_ms {
            Some(p) if p > 0 => {
                // BullMQ: a check marks the jobs active at it, the next
                // moves the marked ones whose lock is gone; a renewal
                // unmarks. The check at `set_at` itself runs first, so the
                // marking check is the first one after it.
                let from = if self.expiry_check_passes >= 2 {
                    deadline.max(set_at.saturating_add(p).saturating_add(1))
                } else {
                    deadline
                };
                let since = from.saturating_sub(origin);
                origin.saturating_add(since.div_ceil(p).saturating_mul(p))
            }
            _ => deadline,
        }
    }

    /// Whether an ack or extension arriving at `now` is in time: before the
    /// broker takes the lease back, or, under two passes (BullMQ's lock, a
    /// key that expires by itself), before its deadline.
    pub fn lease_holds_at(&self, now: u64, taken_back_at: u64, deadline: u64) -> bool {
        if self.expiry_check_passes >= 2 {
            now < deadline.min(taken_back_at)
        } else {
            now < taken_back_at
        }
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
