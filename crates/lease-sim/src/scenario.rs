//! The scenario: one serde type for the page's state, the share link, the files
//! in `scenarios/` and the command-line input. Field names are an interface
//! (docs/MODEL.md, "The scenario file"); fields added here all have defaults so that old files keep loading.
//!
//! Broker fields that a preset may fill are `Option`s: `None` means "left out of
//! the file", so the preset's value applies (docs/MODEL.md: "a field given in the
//! file wins"). Fields where JSON `null` is itself meaningful
//! (`max_receive_count: null` = no redrive, `heartbeat: null` = renewal off)
//! are `Option<Option<_>>`: outer `None` = absent, `Some(None)` = explicit null.

use serde::{Deserialize, Deserializer, Serialize};

/// Deserialize a field where absent and `null` mean different things.
/// Use with `#[serde(default, deserialize_with = "explicit_null")]`.
pub fn explicit_null<'de, D, T>(d: D) -> Result<Option<Option<T>>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    Option::<T>::deserialize(d).map(Some)
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Scenario {
    /// Short id, used in share links (`?scenario=clip-surge`).
    pub name: String,
    /// Human title shown in the scenario select.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub title: String,
    /// What the scenario shows, in a few sentences.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub explanation: String,
    /// What to look for in the timeline and the totals.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub look_for: String,
    pub seed: u64,
    pub duration_ms: u64,
    /// Width of a series bucket (docs/MODEL.md: 60 s by default).
    pub bucket_ms: u64,
    pub broker: Broker,
    pub workers: Workers,
    pub work: Work,
    pub downstream: Downstream,
    pub arrivals: Arrivals,
    pub store: Store,
    pub faults: Vec<Fault>,
    /// For a shipped fix or comparison: the `name` of the scenario it varies
    /// (the page groups variants under it). Empty for a main scenario.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub variant_of: String,
}

impl Default for Scenario {
    fn default() -> Self {
        Scenario {
            name: String::new(),
            title: String::new(),
            explanation: String::new(),
            look_for: String::new(),
            seed: 1,
            duration_ms: 600_000,
            bucket_ms: 60_000,
            broker: Broker::default(),
            workers: Workers::default(),
            work: Work::default(),
            downstream: Downstream::default(),
            arrivals: Arrivals::default(),
            store: Store::default(),
            faults: Vec::new(),
            variant_of: String::new(),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", try_from = "String")]
pub enum Preset {
    #[default]
    Textbook,
    SqsStandard,
    SqsFifo,
    AzureServiceBus,
    GooglePubsub,
    /// RabbitMQ 3.x to 4.2: the AMQP 0-9-1 channel's consumer timeout.
    #[serde(rename = "rabbitmq_4_2")]
    Rabbitmq42,
    /// RabbitMQ 4.3 and later: the quorum queue's consumer timeout.
    #[serde(rename = "rabbitmq_4_3")]
    Rabbitmq43,
    NatsJetstream,
    RedisStreams,
    /// BullMQ on Redis: a lock renewed on the worker's event loop, a
    /// stalled checker in two passes, `maxStalledCount`.
    Bullmq,
    /// Celery on the Redis transport: a visibility timeout restored on the
    /// transport's own sweep.
    CeleryRedis,
    /// Celery on Amazon SQS.
    CelerySqs,
    /// Temporal: an activity's StartToClose, HeartbeatTimeout and retry policy.
    TemporalActivity,
    /// Google Cloud Tasks, HTTP targets: the dispatch deadline and RetryConfig.
    CloudTasks,
    /// Sidekiq Pro's `super_fetch`: no lease; a dead process's jobs come back
    /// at a later process start.
    SidekiqPro,
}

impl Preset {
    pub const ALL: [Preset; 15] = [
        Preset::Textbook,
        Preset::SqsStandard,
        Preset::SqsFifo,
        Preset::AzureServiceBus,
        Preset::GooglePubsub,
        Preset::Rabbitmq42,
        Preset::Rabbitmq43,
        Preset::NatsJetstream,
        Preset::RedisStreams,
        Preset::Bullmq,
        Preset::CeleryRedis,
        Preset::CelerySqs,
        Preset::TemporalActivity,
        Preset::CloudTasks,
        Preset::SidekiqPro,
    ];
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", try_from = "String")]
pub enum DlqTiming {
    /// Textbook rules, Service Bus: moved when the last lease expires.
    OnExpiry,
    /// SQS as observed: moved by the next receive that would hand it out.
    OnNextReceive,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", try_from = "String")]
pub enum LateAck {
    Rejected,
    AcceptedIfNotRedelivered,
    /// NATS JetStream, Redis `XACK`: an ack with any receipt of a message
    /// not yet deleted deletes it, even while another worker runs it.
    AcceptedAlways,
    /// RabbitMQ: `PRECONDITION_FAILED - unknown delivery tag`, a channel
    /// error: rejected, and the acking worker's channel is closed, so
    /// everything it holds unacked goes back to the queue.
    ChannelError,
}

impl LateAck {
    pub const ALL: [LateAck; 4] = [
        LateAck::Rejected,
        LateAck::AcceptedIfNotRedelivered,
        LateAck::AcceptedAlways,
        LateAck::ChannelError,
    ];
}

/// What a lease expiry takes back (docs/MODEL.md "What expiry takes back").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", try_from = "String")]
pub enum ExpiryTakes {
    /// The expired delivery alone.
    Delivery,
    /// Every unacked delivery the expired delivery's worker holds, running
    /// or prefetched: RabbitMQ up to 4.2 closes the channel.
    Channel,
    /// Nothing: the broker has no timer (Redis Streams without a claimer);
    /// a delivery stays pending until it is acked.
    Nothing,
    /// Nothing while the worker's process lives; a crashed process's
    /// deliveries come back at a later process start, once its heartbeat has
    /// expired (the timeout) and the orphan check is due (`expiry_check_ms`
    /// since the last): Sidekiq Pro's `super_fetch`.
    Orphans,
    /// The expired delivery alone, claimed: a Redis Streams claimer
    /// (`XCLAIM`, `XAUTOCLAIM`) makes it a delivery at the check and hands
    /// it to the next receive ahead of the queue. A late ack meanwhile
    /// settles the entry but cannot call the claimed copy back: it still
    /// runs, and its own ack finds nothing.
    Claim,
}

impl ExpiryTakes {
    pub const ALL: [ExpiryTakes; 5] = [
        ExpiryTakes::Delivery,
        ExpiryTakes::Channel,
        ExpiryTakes::Nothing,
        ExpiryTakes::Orphans,
        ExpiryTakes::Claim,
    ];
}

/// Which visible message a receive hands out (docs/MODEL.md "Which
/// visible message a receive hands out").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", try_from = "String")]
pub enum ReceiveOrder {
    /// By the time each became visible, then by id.
    #[default]
    Oldest,
    /// SQS standard's best effort: a pick among the visible messages, each
    /// as likely as any other, drawn from the scenario's seed.
    Random,
}

impl ReceiveOrder {
    pub const ALL: [ReceiveOrder; 2] = [ReceiveOrder::Oldest, ReceiveOrder::Random];
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", try_from = "String")]
pub enum CountAt {
    Receive,
    ExpiryOrAbandon,
}

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct Broker {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub visibility_timeout_ms: Option<u64>,
    /// `Some(None)`: explicit `null`, no redrive policy.
    #[serde(
        deserialize_with = "explicit_null",
        skip_serializing_if = "Option::is_none"
    )]
    pub max_receive_count: Option<Option<u32>>,
    /// `Some(None)`: explicit `null`, no lifetime cap.
    #[serde(
        deserialize_with = "explicit_null",
        skip_serializing_if = "Option::is_none"
    )]
    pub max_lease_lifetime_ms: Option<Option<u64>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub receive_batch: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rpc_latency_ms: Option<u64>,
    pub preset: Preset,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dlq_timing: Option<DlqTiming>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub late_ack: Option<LateAck>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub count_at: Option<CountAt>,
    /// Absent: `strict`. `permissive`: a stale receipt still deletes
    /// (docs/MODEL.md "Stale deletes").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stale_delete: Option<StaleDelete>,
    /// Absent: the preset's (docs/MODEL.md "An ack of a message already
    /// deleted").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deleted_ack: Option<DeletedAck>,
    /// Absent: the preset's (`delivery` for the clouds).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expiry_takes: Option<ExpiryTakes>,
    /// A lease past its deadline is taken back at the next multiple of
    /// this interval (RabbitMQ's channel tick). `Some(None)`: explicit
    /// `null`, at the instant.
    #[serde(
        deserialize_with = "explicit_null",
        skip_serializing_if = "Option::is_none"
    )]
    pub expiry_check_ms: Option<Option<u64>>,
    /// Whether an expiry counts toward `max_receive_count`; absent: the preset's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expiry_counts: Option<bool>,
    /// JetStream's `BackOff`: delivery n's lease is the n-th value, the last
    /// repeating; replaces the visibility timeout.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lease_steps_ms: Option<Vec<u64>>,
    /// 2: BullMQ's stalled checker. The lease (the lock) ends at its
    /// deadline for acks and extensions; a check takes it back only when
    /// the check before it already saw it held since its last renewal.
    /// The workers run the checks, each from its start, one per period
    /// across them (docs/MODEL.md "The stalled checker runs in the
    /// workers"). Absent: the preset's (1 elsewhere).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expiry_check_passes: Option<u32>,
    /// Under `expiry_takes: claim`, the most entries one sweep claims
    /// (XAUTOCLAIM's `COUNT`), the oldest first; the rest wait for the next
    /// sweep. Absent: Redis's default, 100.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub claim_count: Option<u32>,
    /// Past this many expiries the message is dead-lettered (failed) at
    /// once, whatever `max_receive_count` says (BullMQ `maxStalledCount`).
    /// `Some(None)`: explicit `null`, no such limit.
    #[serde(
        deserialize_with = "explicit_null",
        skip_serializing_if = "Option::is_none"
    )]
    pub max_expiries: Option<Option<u32>>,
    /// The delay before a message whose lease ended (expiry or release) is
    /// handed out again: the first retry's (docs/MODEL.md "A delay before
    /// redelivery"). Absent: the preset's; `Some(None)`: explicit `null`, none.
    #[serde(
        deserialize_with = "explicit_null",
        skip_serializing_if = "Option::is_none"
    )]
    pub retry_min_ms: Option<Option<u64>>,
    /// The longest retry delay; absent: the preset's, or no cap.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub retry_max_ms: Option<u64>,
    /// How many times the delay doubles before it grows linearly (Cloud
    /// Tasks' `max_doublings`; 0 is linear). `Some(None)`: explicit `null`,
    /// it doubles without end (Temporal). Absent: the preset's.
    #[serde(
        deserialize_with = "explicit_null",
        skip_serializing_if = "Option::is_none"
    )]
    pub retry_doublings: Option<Option<u32>>,
    /// Absent: `oldest`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub receive_order: Option<ReceiveOrder>,
    /// Which ended leases wait out the retry delay; absent: the preset's
    /// (BullMQ's `backoff`: failures only; elsewhere every one).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub retry_on: Option<RetryOn>,
    /// What becomes of a message past `max_receive_count` (or `max_expiries`);
    /// absent: the preset's (docs/MODEL.md "Past the delivery limit").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub past_limit: Option<PastLimit>,
}

/// A message's fate past the delivery limit (docs/MODEL.md "Past the
/// delivery limit"). Whichever it is, the broker hands it out no more.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", try_from = "String")]
pub enum PastLimit {
    /// Moved to a dead-letter queue: SQS's redrive, Service Bus, a
    /// RabbitMQ queue with a dead-letter exchange, BullMQ's failed set.
    DeadLetter,
    /// Gone: a RabbitMQ quorum queue with no dead-letter exchange, Cloud
    /// Tasks deleting a task past its attempts.
    Drop,
    /// Left in the stream, delivered no more, with an advisory published:
    /// JetStream's `MaxDeliver`.
    Stay,
}

impl PastLimit {
    pub const ALL: [PastLimit; 3] = [PastLimit::DeadLetter, PastLimit::Drop, PastLimit::Stay];
}

/// Which ended leases wait out the retry delay (docs/MODEL.md "A delay
/// before redelivery").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", try_from = "String")]
pub enum RetryOn {
    /// An expiry or a release: Temporal, Cloud Tasks.
    Every,
    /// A release after a handler error alone: BullMQ's `backoff` delays a
    /// job whose processor threw, while a stalled job goes straight back
    /// to wait.
    Failure,
}

impl RetryOn {
    pub const ALL: [RetryOn; 2] = [RetryOn::Every, RetryOn::Failure];
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", try_from = "String")]
pub enum OnReject {
    /// The worker believes it still holds the lease: the hazard.
    #[default]
    Continue,
    Abort,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", try_from = "String")]
pub enum OnError {
    #[default]
    Release,
    /// Let the lease run out; the broker never learns of the error.
    Expire,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Heartbeat {
    pub interval_ms: u64,
    /// Default: the visibility timeout.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extend_by_ms: Option<u64>,
    /// `None` (or `null`): no cap: a hung handler holds its message for ever.
    #[serde(default)]
    pub max_extensions: Option<u32>,
    #[serde(default)]
    pub on_reject: OnReject,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Workers {
    pub count: u32,
    pub concurrency: u32,
    /// Default: `concurrency`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prefetch: Option<u32>,
    /// Absent: the preset's client default (Pub/Sub's lease manager) or off.
    /// `Some(None)`: explicit `null`, renewal off.
    #[serde(
        deserialize_with = "explicit_null",
        skip_serializing_if = "Option::is_none"
    )]
    pub heartbeat: Option<Option<Heartbeat>>,
    pub error_rate: f64,
    pub hang_rate: f64,
    pub on_error: OnError,
    /// The client library's lease policy (docs/MODEL.md "Client libraries");
    /// absent: none, the heartbeat settings apply.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub client: Option<Client>,
    /// Where the worker's renewal runs; absent: the preset's (BullMQ's
    /// event loop, elsewhere a background thread).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub renewal: Option<Renewal>,
    /// When the ack is sent; absent: the preset's (Celery's default
    /// `acks_late=False`: before the work; elsewhere after it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ack_at: Option<AckAt>,
}

/// Where a worker's lease renewal (its heartbeat) runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", try_from = "String")]
pub enum Renewal {
    /// A thread of its own (Kafka's heartbeat thread, the cloud clients'
    /// lease managers): it goes on whatever the handlers do.
    Background,
    /// The handlers' own event loop (BullMQ on Node): a CPU-bound run
    /// blocks it, so while one runs the worker renews nothing and its
    /// other handlers neither start nor progress.
    EventLoop,
}

impl Renewal {
    pub const ALL: [Renewal; 2] = [Renewal::Background, Renewal::EventLoop];
}

/// When a worker sends its ack.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", try_from = "String")]
pub enum AckAt {
    /// After the work and its commit: at least once.
    AfterWork,
    /// As the handler starts (Celery's `acks_late=False`): at most once;
    /// a crash or an error loses the message.
    BeforeWork,
}

impl AckAt {
    pub const ALL: [AckAt; 2] = [AckAt::AfterWork, AckAt::BeforeWork];
}

impl Default for Workers {
    fn default() -> Self {
        Workers {
            count: 4,
            concurrency: 1,
            prefetch: None,
            heartbeat: None,
            error_rate: 0.0,
            hang_rate: 0.0,
            on_error: OnError::Release,
            client: None,
            renewal: None,
            ack_at: None,
        }
    }
}

/// A work-time distribution, in milliseconds at full speed.
/// Read through `tagged::DistFields`, so that an error names its field.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(
    tag = "dist",
    rename_all = "snake_case",
    try_from = "crate::tagged::DistFields"
)]
pub enum Dist {
    Constant {
        ms: u64,
    },
    Uniform {
        min_ms: u64,
        max_ms: u64,
    },
    Exponential {
        mean_ms: f64,
    },
    Lognormal {
        median_ms: f64,
        p99_ms: f64,
    },
    /// Most fast, a few slow.
    Mix {
        slow_fraction: f64,
        fast: Box<Dist>,
        slow: Box<Dist>,
    },
    /// Through (probability, ms) points: `lease_sim::fit` (docs/MODEL.md
    /// "Work and the feedback loop").
    Quantiles {
        points: Vec<[f64; 2]>,
    },
    /// One of these durations, each equally likely.
    Empirical {
        samples_ms: Vec<f64>,
    },
    /// `[upper_ms, count]` buckets: a bucket by its count, then uniform
    /// between the previous bucket's upper bound (0 for the first) and its own.
    Histogram {
        buckets: Vec<[f64; 2]>,
    },
}

/// Read through `tagged::DistFields`, so that an error names its field.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "crate::tagged::DistFields")]
pub struct Work {
    #[serde(flatten)]
    pub dist: Dist,
    /// Sigma of ln(per-attempt factor), median 1. 0: every attempt identical.
    #[serde(default)]
    pub attempt_jitter: f64,
    /// The work holds its thread busy (a CPU-bound handler): under
    /// `workers.renewal: event_loop` a run blocks its worker's event loop.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub cpu_bound: bool,
}

impl Default for Work {
    fn default() -> Self {
        Work {
            dist: Dist::Lognormal {
                median_ms: 2_000.0,
                p99_ms: 10_000.0,
            },
            attempt_jitter: 0.0,
            cpu_bound: false,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Slowdown {
    pub from_ms: u64,
    pub to_ms: u64,
    pub factor: f64,
}

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct Downstream {
    /// How many handlers the downstream serves at full speed; `None`: unlimited.
    pub capacity: Option<u32>,
    pub slowdowns: Vec<Slowdown>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", try_from = "String")]
pub enum Process {
    Fixed,
    #[default]
    Poisson,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Surge {
    pub from_ms: u64,
    pub to_ms: u64,
    pub rate_per_s: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Arrivals {
    pub backlog: u64,
    pub rate_per_s: f64,
    pub process: Process,
    pub surges: Vec<Surge>,
    /// Each message is sent with an ETA this long after it arrives (Celery's
    /// `countdown`): a worker that receives it earlier holds it in memory,
    /// outside its prefetch, and starts it at the ETA. 0: none.
    #[serde(skip_serializing_if = "is_zero")]
    pub eta_ms: u64,
}

fn is_zero(x: &u64) -> bool {
    *x == 0
}

impl Default for Arrivals {
    fn default() -> Self {
        Arrivals {
            backlog: 0,
            rate_per_s: 1.0,
            process: Process::Poisson,
            surges: Vec::new(),
            eta_ms: 0,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", try_from = "String")]
pub enum Fence {
    #[default]
    None,
    CheckThenWrite,
    UniqueConstraint,
    FencingToken,
}

impl Fence {
    pub const ALL: [Fence; 4] = [
        Fence::None,
        Fence::CheckThenWrite,
        Fence::UniqueConstraint,
        Fence::FencingToken,
    ];
}

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct Store {
    pub fence: Fence,
}

/// Read through `tagged::FaultFields`, so that an error names its field.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(
    tag = "kind",
    rename_all = "snake_case",
    try_from = "crate::tagged::FaultFields"
)]
pub enum Fault {
    /// The worker's handlers and buffer vanish; a fresh worker joins after
    /// `restart_after_ms` (`None`: never).
    Crash {
        worker: u32,
        at_ms: u64,
        #[serde(default)]
        restart_after_ms: Option<u64>,
    },
    /// Worker i stops at `at + i * (downtime + gap)` and restarts after `downtime`.
    RollingDeploy {
        at_ms: u64,
        downtime_ms: u64,
        gap_ms: u64,
    },
    /// Stop-the-world: neither work nor heartbeats progress on that worker.
    Pause {
        worker: u32,
        at_ms: u64,
        duration_ms: u64,
    },
    /// One run's finish, decided here rather than by its draw (the draw is
    /// still made): the page's "make this run hang", "drop this ack"; and/or
    /// the work that run takes, fixed rather than drawn (a conformance
    /// case's handler that sleeps a given time on a given delivery).
    Run {
        message: u32,
        receipt: u32,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        outcome: Option<RunOutcome>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        work_ms: Option<u64>,
    },
}

/// What an overridden run does at its finish (docs/MODEL.md "Run overrides").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", try_from = "String")]
pub enum RunOutcome {
    Hang,
    Fail,
    /// Commits, but its delete never reaches the broker.
    LoseAck,
}

/// What a delete (ack) with a receipt that is no longer the latest does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", try_from = "String")]
pub enum StaleDelete {
    /// As `late_ack` says: only the latest receipt can delete.
    #[default]
    Strict,
    /// SQS standard's documented possibility: the delete "succeeds, but the
    /// message might not be deleted"; here it is deleted, even while a later
    /// receipt holds it.
    Permissive,
}

impl StaleDelete {
    pub const ALL: [StaleDelete; 2] = [StaleDelete::Strict, StaleDelete::Permissive];
}

/// What the broker answers to an ack of a message already deleted (by
/// another run's ack, or a stale receipt's delete): docs/MODEL.md "An ack
/// of a message already deleted".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", try_from = "String")]
pub enum DeletedAck {
    /// An error the client sees: the receipt no longer names anything
    /// (SQS FIFO's expired receipt, RabbitMQ's unknown delivery tag,
    /// BullMQ's missing lock).
    Rejected,
    /// Answered as a success that does nothing: there is nothing left to
    /// settle (SQS standard's DeleteMessage, JetStream's ack of a sequence
    /// no longer pending, `XACK` answering 0, kombu's Redis `QoS.ack`).
    NoOp,
}

impl DeletedAck {
    pub const ALL: [DeletedAck; 2] = [DeletedAck::Rejected, DeletedAck::NoOp];
}

/// The client library a worker runs its handlers in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", try_from = "String")]
pub enum Library {
    /// No client help: the heartbeat settings (and the preset's default) apply.
    #[default]
    None,
    /// Google Pub/Sub client libraries' lease management.
    Pubsub,
    /// Azure Service Bus processor's automatic lock renewal.
    ServiceBus,
    /// An AWS Lambda function behind an SQS event source.
    SqsLambda,
}

impl Library {
    pub const ALL: [Library; 4] = [
        Library::None,
        Library::Pubsub,
        Library::ServiceBus,
        Library::SqsLambda,
    ];
}

/// `workers.client`: a library and the parameters of that library; a
/// parameter left out takes the library's documented default.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct Client {
    pub library: Library,
    /// Pub/Sub: stop extending this long after the receive (60 min).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_lease_ms: Option<u64>,
    /// Service Bus: `MaxAutoLockRenewalDuration` (5 min).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_auto_lock_renewal_ms: Option<u64>,
    /// SQS with Lambda: the function timeout that kills the handler.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub function_timeout_ms: Option<u64>,
}

/// Pub/Sub's default maximum lease: 60 min.
pub const PUBSUB_MAX_LEASE_MS: u64 = 3_600_000;
/// Service Bus's default `MaxAutoLockRenewalDuration`: 5 min.
pub const SERVICE_BUS_MAX_RENEWAL_MS: u64 = 300_000;
/// The playground's default function timeout for SQS with Lambda.
pub const LAMBDA_FUNCTION_TIMEOUT_MS: u64 = 30_000;
/// AWS: a visibility timeout of at least six times the function timeout.
pub const LAMBDA_TIMEOUT_FACTOR: u64 = 6;

/// A unit-variant enum of the scenario file, with the name each variant has
/// in it. The file, the share link, the page's selects and the command line
/// all read and write these names (`lease_fields::names`), and serde's
/// writer is checked against them, so a renamed variant cannot leave one of
/// them behind.
pub trait Named: Copy + PartialEq + 'static {
    /// Every variant with its name, in declaration order.
    const NAMES: &'static [(Self, &'static str)];
    /// The names alone, in the same order.
    const WORDS: &'static [&'static str];
    /// The variant's place in `NAMES` (its declaration order).
    fn index(self) -> usize;
}

/// Read through `String` (`try_from`), by one loop over the names for all
/// of them. The message is serde's own.
macro_rules! named_variants {
    ($t:ident { $($v:ident = $name:literal),+ $(,)? }) => {
        impl Named for $t {
            const NAMES: &'static [($t, &'static str)] = &[$(($t::$v, $name)),+];
            const WORDS: &'static [&'static str] = &[$($name),+];
            fn index(self) -> usize {
                self as usize
            }
        }
        impl TryFrom<String> for $t {
            type Error = String;
            fn try_from(s: String) -> Result<Self, String> {
                let i = variant_index(&s, <$t as Named>::WORDS)?;
                Ok(<$t as Named>::NAMES[i].0)
            }
        }
    };
}

/// Where `s` is among `n` names, or serde's "unknown variant" message.
fn variant_index(s: &str, words: &[&str]) -> Result<usize, String> {
    if let Some(i) = words.iter().position(|w| *w == s) {
        return Ok(i);
    }
    let n = words.len();
    let mut expected = String::new();
    for (i, w) in words.iter().enumerate() {
        expected.push_str(match (i, n) {
            (0, 1 | 2) => "",
            (0, _) => "one of ",
            (_, 2) => " or ",
            _ => ", ",
        });
        expected.push('`');
        expected.push_str(w);
        expected.push('`');
    }
    Err(format!("unknown variant `{s}`, expected {expected}"))
}

named_variants!(Preset { Textbook = "textbook", SqsStandard = "sqs_standard", SqsFifo = "sqs_fifo", AzureServiceBus = "azure_service_bus", GooglePubsub = "google_pubsub", Rabbitmq42 = "rabbitmq_4_2", Rabbitmq43 = "rabbitmq_4_3", NatsJetstream = "nats_jetstream", RedisStreams = "redis_streams", Bullmq = "bullmq", CeleryRedis = "celery_redis", CelerySqs = "celery_sqs", TemporalActivity = "temporal_activity", CloudTasks = "cloud_tasks", SidekiqPro = "sidekiq_pro" });
named_variants!(Renewal { Background = "background", EventLoop = "event_loop" });
named_variants!(AckAt { AfterWork = "after_work", BeforeWork = "before_work" });
named_variants!(DlqTiming { OnExpiry = "on_expiry", OnNextReceive = "on_next_receive" });
named_variants!(LateAck { Rejected = "rejected", AcceptedIfNotRedelivered = "accepted_if_not_redelivered", AcceptedAlways = "accepted_always", ChannelError = "channel_error" });
named_variants!(ExpiryTakes { Delivery = "delivery", Channel = "channel", Nothing = "nothing", Orphans = "orphans", Claim = "claim" });
named_variants!(ReceiveOrder { Oldest = "oldest", Random = "random" });
named_variants!(RetryOn { Every = "every", Failure = "failure" });
named_variants!(PastLimit { DeadLetter = "dead_letter", Drop = "drop", Stay = "stay" });
named_variants!(CountAt { Receive = "receive", ExpiryOrAbandon = "expiry_or_abandon" });
named_variants!(OnReject { Continue = "continue", Abort = "abort" });
named_variants!(OnError { Release = "release", Expire = "expire" });
named_variants!(Process { Fixed = "fixed", Poisson = "poisson" });
named_variants!(Fence { None = "none", CheckThenWrite = "check_then_write", UniqueConstraint = "unique_constraint", FencingToken = "fencing_token" });
named_variants!(StaleDelete { Strict = "strict", Permissive = "permissive" });
named_variants!(DeletedAck { Rejected = "rejected", NoOp = "no_op" });
named_variants!(RunOutcome { Hang = "hang", Fail = "fail", LoseAck = "lose_ack" });
named_variants!(Library { None = "none", Pubsub = "pubsub", ServiceBus = "service_bus", SqsLambda = "sqs_lambda" });

#[cfg(test)]
mod named_variant_tests {
    use super::*;

    #[test]
    fn a_unit_enum_reads_its_names_and_refuses_others_with_serde_s_message() {
        for (p, name) in <Preset as Named>::NAMES {
            let read: Preset = serde_json::from_str(&format!("\"{name}\"")).unwrap();
            assert_eq!(read, *p);
            assert_eq!(serde_json::to_string(p).unwrap(), format!("\"{name}\""));
        }
        // serde's writer says the same names as the table, for every enum.
        fn same<T: Named + Serialize>() {
            for (v, name) in T::NAMES {
                assert_eq!(serde_json::to_string(v).unwrap(), format!("\"{name}\""));
            }
            let words: Vec<&str> = T::NAMES.iter().map(|(_, w)| *w).collect();
            assert_eq!(T::WORDS, words.as_slice());
            for (i, (v, _)) in T::NAMES.iter().enumerate() {
                assert_eq!(v.index(), i, "the table is in declaration order");
            }
        }
        same::<Preset>();
        same::<DlqTiming>();
        same::<LateAck>();
        same::<ExpiryTakes>();
        same::<CountAt>();
        same::<ReceiveOrder>();
        same::<RetryOn>();
        same::<PastLimit>();
        same::<OnReject>();
        same::<OnError>();
        same::<Process>();
        same::<Fence>();
        same::<StaleDelete>();
        same::<DeletedAck>();
        same::<Library>();
        same::<RunOutcome>();
        same::<Renewal>();
        same::<AckAt>();
        let e = serde_json::from_str::<Preset>("\"sqs\"")
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("unknown variant `sqs`, expected one of `textbook`, `sqs_standard`, `sqs_fifo`, `azure_service_bus`, `google_pubsub`, `rabbitmq_4_2`, `rabbitmq_4_3`, `nats_jetstream`, `redis_streams`, `bullmq`, `celery_redis`, `celery_sqs`"),
            "{e}"
        );
        let e = serde_json::from_str::<StaleDelete>("\"loose\"")
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("unknown variant `loose`, expected `strict` or `permissive`"),
            "{e}"
        );
    }
}
