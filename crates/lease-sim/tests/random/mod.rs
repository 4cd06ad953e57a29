//! Random valid scenarios for the native-versus-wasm determinism check: the
//! same seeded generator runs in both tests, so both see the same scenarios
//! without shipping them; only their hashes are pinned.
#![allow(dead_code)]

use lease_sim::scenario::{
    AckAt, Client, CountAt, DeletedAck, Dist, ExpiryTakes, Fault, Fence, Heartbeat, LateAck,
    Library, OnReject, Preset, Renewal, Scenario, StaleDelete,
};
use lease_sim::{estimate, shipped, validate};
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;

/// How many scenarios of the first generator: enough to cover every
/// preset, fence and switch.
pub const CLASSIC: usize = 48;
/// How many of the second, which adds the work shapes built from data and
/// the client libraries. A separate stream, so the first generator's
/// scenarios, and their pinned hashes, stay as they were.
pub const FROM_DATA: usize = 24;
/// How many of the third, which draws the brokers one runs (RabbitMQ,
/// JetStream) and their rules: periodic checks, channel-wide expiry, late
/// acks accepted always or closing the channel, uncounted expiries, lists
/// of leases.
pub const BROKERS: usize = 24;
/// How many of the fourth, which draws the job frameworks (BullMQ, Celery)
/// and their rules: a renewal on the event loop with CPU-bound work, the
/// stalled checker's two passes, a stall limit, the ack before the work,
/// messages held until their ETA.
pub const FRAMEWORKS: usize = 24;
/// How many of the fifth, which draws the managed services (Temporal,
/// Cloud Tasks, Sidekiq Pro) and their rules: delays before redelivery,
/// attempts capped whatever their heartbeats, jobs taken back at a later
/// process start.
pub const SERVICES: usize = 12;
/// How many of the sixth, which draws what an ack of a message already
/// deleted does (rejected, or a success with nothing to settle) under every
/// preset with a queue, with late acks and stale deletes that reach a
/// deleted message.
pub const DELETED_ACKS: usize = 24;
/// All the scenarios, the first generator's first.
pub const COUNT: usize = CLASSIC + FROM_DATA + BROKERS + FRAMEWORKS + SERVICES + DELETED_ACKS;
/// The generators' seeds; change one and regenerate the pinned hashes.
pub const SEED: u64 = 20_261_203;
pub const SEED_FROM_DATA: u64 = 20_261_206;
pub const SEED_BROKERS: u64 = 20_261_207;
pub const SEED_FRAMEWORKS: u64 = 20_261_208;
/// The fifth generator's seed.
pub const SEED_SERVICES: u64 = 20_261_209;
/// The sixth generator's seed.
pub const SEED_DELETED_ACKS: u64 = 20_261_210;
/// The presets the first two generators draw from: the cloud services. They
/// draw from these alone so that their scenarios, and their pinned hashes,
/// stay as they were when more presets came.
const CLOUD_PRESETS: &[Preset] = &[
    Preset::Textbook,
    Preset::SqsStandard,
    Preset::SqsFifo,
    Preset::AzureServiceBus,
    Preset::GooglePubsub,
];
/// The job frameworks' presets, which the fourth generator draws.
const FRAMEWORK_PRESETS: &[Preset] = &[Preset::Bullmq, Preset::CeleryRedis, Preset::CelerySqs];
/// The presets of the brokers one runs, which the third generator draws.
const RUN_PRESETS: &[Preset] = &[
    Preset::Rabbitmq42,
    Preset::Rabbitmq43,
    Preset::NatsJetstream,
    Preset::RedisStreams,
];
/// What expiry takes back, as the third generator draws it: the rules it
/// was pinned with, so that later rules leave its scenarios as they were.
const RUN_EXPIRY_TAKES: &[ExpiryTakes] = &[
    ExpiryTakes::Delivery,
    ExpiryTakes::Channel,
    ExpiryTakes::Nothing,
];
/// The presets whose broker keeps a queue to ack against, which the sixth
/// generator draws in turn.
const QUEUE_PRESETS: &[Preset] = &[
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
];
/// The managed services, which the fifth generator draws.
const SERVICE_PRESETS: &[Preset] = &[
    Preset::TemporalActivity,
    Preset::CloudTasks,
    Preset::SidekiqPro,
];
/// The shipped scenarios the generators start from: those there were when
/// the hashes were pinned, in shipped order, so that a scenario shipped
/// later leaves every generated scenario as it was.
const BASES: [&str; 20] = [
    "ninety-second-message",
    "clip-surge",
    "five-minute-timeout-deploy",
    "hung-handler",
    "invisible-backlog",
    "dependency-slows-3x",
    "dlq-of-valid-messages",
    "order-confirmation-email",
    "gc-pause-starves-heartbeat",
    "sub-second-work",
    "clip-surge-heartbeat",
    "clip-surge-smaller-steps",
    "clip-surge-redrive",
    "clip-surge-idempotent",
    "five-minute-timeout-deploy-heartbeat",
    "hung-handler-capped",
    "dependency-slows-3x-more-workers",
    "order-confirmation-email-idempotent",
    "gc-pause-starves-heartbeat-fencing-token",
    "sub-second-work-heartbeat",
];

fn bases() -> Vec<shipped::ShippedScenario> {
    let all = shipped::all();
    let bases: Vec<_> = all
        .into_iter()
        .filter(|s| BASES.contains(&s.name))
        .collect();
    assert_eq!(bases.len(), BASES.len(), "a base is no longer shipped");
    bases
}

/// Keeps each run small, so the check runs in seconds in the browser.
const MAX_EVENTS: u64 = 200_000;

pub fn scenarios() -> Vec<Scenario> {
    let mut out = classic();
    out.extend(from_data());
    out.extend(brokers());
    out.extend(frameworks());
    out.extend(services());
    out.extend(deleted_acks());
    out
}

/// Draws `count` valid scenarios from the shipped bases: each a base with
/// a name of its own, a seed and a run of at most 15 minutes, then `vary`
/// (told how many are drawn so far), kept when it validates and stays small.
/// A field a preset fills: left to the preset, cleared, or drawn, one in
/// three each (the draw after the choice, so the order of draws is fixed).
fn preset_cleared_or<T>(
    rng: &mut Pcg64Mcg,
    value: impl FnOnce(&mut Pcg64Mcg) -> T,
) -> Option<Option<T>> {
    match rng.random_range(0..3) {
        0 => None,
        1 => Some(None),
        _ => Some(Some(value(rng))),
    }
}

fn draw(
    seed: u64,
    count: usize,
    prefix: &str,
    mut vary: impl FnMut(&mut Pcg64Mcg, &mut Scenario, usize),
) -> Vec<Scenario> {
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let bases = bases();
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        let base = &bases[rng.random_range(0..bases.len())];
        let mut s = base.scenario.clone();
        s.name = format!("{prefix}{}", out.len());
        s.seed = rng.random();
        s.duration_ms = s.duration_ms.min(rng.random_range(60_000..900_000));
        vary(&mut rng, &mut s, out.len());
        if validate(&s).is_ok() && estimate(&s).events <= MAX_EVENTS {
            out.push(s);
        }
    }
    out
}

fn classic() -> Vec<Scenario> {
    draw(SEED, CLASSIC, "random-", |rng, s, _| {
        s.broker.preset = CLOUD_PRESETS[rng.random_range(0..CLOUD_PRESETS.len())];
        s.broker.visibility_timeout_ms = Some(rng.random_range(1_000..300_000));
        s.broker.max_receive_count = Some(if rng.random_bool(0.3) {
            None
        } else {
            Some(rng.random_range(1..8))
        });
        s.broker.rpc_latency_ms = Some(if rng.random_bool(0.5) {
            0
        } else {
            rng.random_range(1..500)
        });
        s.workers.count = rng.random_range(1..9);
        s.workers.concurrency = rng.random_range(1..4);
        s.workers.prefetch = Some(s.workers.concurrency + rng.random_range(0..4));
        s.workers.heartbeat = Some(if rng.random_bool(0.5) {
            None
        } else {
            Some(Heartbeat {
                interval_ms: rng.random_range(500..30_000),
                extend_by_ms: if rng.random_bool(0.5) {
                    None
                } else {
                    Some(rng.random_range(1_000..60_000))
                },
                max_extensions: if rng.random_bool(0.3) {
                    None
                } else {
                    Some(rng.random_range(0..40))
                },
                on_reject: if rng.random_bool(0.5) {
                    OnReject::Continue
                } else {
                    OnReject::Abort
                },
            })
        });
        s.workers.error_rate = if rng.random_bool(0.5) {
            0.0
        } else {
            rng.random_range(0.0..0.2)
        };
        s.workers.hang_rate = if rng.random_bool(0.7) {
            0.0
        } else {
            rng.random_range(0.0..0.05)
        };
        s.work.dist = match rng.random_range(0..4) {
            0 => Dist::Constant {
                ms: rng.random_range(1..120_000),
            },
            1 => Dist::Exponential {
                mean_ms: rng.random_range(10.0..30_000.0),
            },
            2 => {
                let lo = rng.random_range(1..20_000);
                Dist::Uniform {
                    min_ms: lo,
                    max_ms: lo + rng.random_range(0..60_000),
                }
            }
            _ => {
                let m = rng.random_range(10.0..20_000.0);
                Dist::Lognormal {
                    median_ms: m,
                    p99_ms: m * rng.random_range(1.0..10.0),
                }
            }
        };
        s.work.attempt_jitter = rng.random_range(0.0..0.5);
        s.arrivals.backlog = s.arrivals.backlog.min(rng.random_range(0..200));
        s.arrivals.rate_per_s = s.arrivals.rate_per_s.min(rng.random_range(0.0..1.0));
        s.store.fence = Fence::ALL[rng.random_range(0..Fence::ALL.len())];
    })
}

/// Work from data (percentiles, samples, a histogram) under each client
/// library and the stale-delete switch, on top of the first generator's
/// broker and worker settings.
fn from_data() -> Vec<Scenario> {
    draw(SEED_FROM_DATA, FROM_DATA, "random-data-", |rng, s, n| {
        s.broker.preset = CLOUD_PRESETS[rng.random_range(0..CLOUD_PRESETS.len())];
        s.broker.visibility_timeout_ms = Some(rng.random_range(1_000..300_000));
        s.broker.stale_delete = Some(StaleDelete::ALL[rng.random_range(0..2)]);
        s.workers.count = rng.random_range(1..9);
        s.workers.concurrency = rng.random_range(1..4);
        s.workers.prefetch = Some(s.workers.concurrency + rng.random_range(0..4));
        let library = Library::ALL[n % Library::ALL.len()];
        s.workers.client = Some(Client {
            library,
            max_lease_ms: (library == Library::Pubsub && rng.random_bool(0.5))
                .then(|| rng.random_range(10_000..3_600_000)),
            max_auto_lock_renewal_ms: (library == Library::ServiceBus && rng.random_bool(0.5))
                .then(|| rng.random_range(0..300_000)),
            function_timeout_ms: (library == Library::SqsLambda && rng.random_bool(0.5))
                .then(|| rng.random_range(1_000..50_000)),
        });
        // A library manages the lease itself: no heartbeat beside it.
        s.workers.heartbeat = Some(None);
        s.workers.error_rate = if rng.random_bool(0.5) {
            0.0
        } else {
            rng.random_range(0.0..0.2)
        };
        s.work.dist = match (n / Library::ALL.len()) % 3 {
            0 => {
                let p50 = rng.random_range(10.0..10_000.0);
                let p90 = p50 * rng.random_range(1.0..5.0);
                let p99 = p90 * rng.random_range(1.0..5.0);
                Dist::Quantiles {
                    points: vec![[0.5, p50], [0.9, p90], [0.99, p99]],
                }
            }
            1 => Dist::Empirical {
                samples_ms: (0..rng.random_range(1..50))
                    .map(|_| rng.random_range(1.0..60_000.0))
                    .collect(),
            },
            _ => {
                let mut upper = 0.0;
                Dist::Histogram {
                    buckets: (0..rng.random_range(1..8))
                        .map(|_| {
                            upper += rng.random_range(1.0..20_000.0);
                            [upper, f64::from(rng.random_range(0..100u32))]
                        })
                        .collect(),
                }
            }
        };
        s.work.attempt_jitter = rng.random_range(0.0..0.5);
        s.arrivals.backlog = s.arrivals.backlog.min(rng.random_range(0..200));
        s.arrivals.rate_per_s = s.arrivals.rate_per_s.min(rng.random_range(0.0..1.0));
        s.store.fence = Fence::ALL[rng.random_range(0..Fence::ALL.len())];
    })
}

/// The brokers one runs and their switches, each drawn on its own or left
/// to the preset, over the first generator's shipped bases.
fn brokers() -> Vec<Scenario> {
    draw(SEED_BROKERS, BROKERS, "random-broker-", |rng, s, n| {
        s.broker.preset = RUN_PRESETS[n % RUN_PRESETS.len()];
        s.broker.visibility_timeout_ms = Some(rng.random_range(1_000..120_000));
        s.broker.max_receive_count = preset_cleared_or(rng, |rng| rng.random_range(2..8));
        s.broker.expiry_check_ms = preset_cleared_or(rng, |rng| rng.random_range(1_000..60_000));
        s.broker.expiry_takes = rng
            .random_bool(0.5)
            .then(|| RUN_EXPIRY_TAKES[rng.random_range(0..RUN_EXPIRY_TAKES.len())]);
        s.broker.late_ack = rng
            .random_bool(0.5)
            .then(|| LateAck::ALL[rng.random_range(0..LateAck::ALL.len())]);
        s.broker.count_at = rng.random_bool(0.3).then(|| {
            if rng.random_bool(0.5) {
                CountAt::Receive
            } else {
                CountAt::ExpiryOrAbandon
            }
        });
        s.broker.expiry_counts = rng.random_bool(0.5).then(|| rng.random_bool(0.5));
        // A list no longer than the limit allows deliveries (validation's rule).
        s.broker.lease_steps_ms = rng.random_bool(0.3).then(|| {
            (0..rng.random_range(1..3))
                .map(|_| rng.random_range(1_000..60_000))
                .collect()
        });
        s.broker.rpc_latency_ms = Some(if rng.random_bool(0.5) {
            0
        } else {
            rng.random_range(1..500)
        });
        s.workers.client = None;
        s.workers.count = rng.random_range(1..6);
        s.workers.concurrency = rng.random_range(1..4);
        s.workers.prefetch = Some(s.workers.concurrency + rng.random_range(0..4));
        s.workers.heartbeat = Some(if rng.random_bool(0.6) {
            None
        } else {
            Some(Heartbeat {
                interval_ms: rng.random_range(500..30_000),
                extend_by_ms: None,
                max_extensions: Some(rng.random_range(0..20)),
                on_reject: OnReject::Continue,
            })
        });
        s.workers.error_rate = if rng.random_bool(0.5) {
            0.0
        } else {
            rng.random_range(0.0..0.2)
        };
        s.work.dist = Dist::Uniform {
            min_ms: rng.random_range(1..20_000),
            max_ms: rng.random_range(20_000..150_000),
        };
        s.arrivals.backlog = s.arrivals.backlog.min(rng.random_range(0..60));
        s.arrivals.rate_per_s = s.arrivals.rate_per_s.min(rng.random_range(0.0..0.5));
        s.store.fence = Fence::ALL[rng.random_range(0..Fence::ALL.len())];
    })
}

/// The job frameworks and their switches, each drawn on its own or left to
/// the preset, over the shipped bases.
fn frameworks() -> Vec<Scenario> {
    draw(
        SEED_FRAMEWORKS,
        FRAMEWORKS,
        "random-framework-",
        |rng, s, n| {
            s.broker = Default::default();
            s.broker.preset = FRAMEWORK_PRESETS[n % FRAMEWORK_PRESETS.len()];
            s.broker.visibility_timeout_ms = Some(rng.random_range(1_000..120_000));
            s.broker.max_receive_count = preset_cleared_or(rng, |rng| rng.random_range(1..6));
            s.broker.expiry_check_ms = match rng.random_range(0..3) {
                0 => None,
                _ => Some(Some(rng.random_range(1_000..60_000))),
            };
            s.broker.expiry_check_passes = rng.random_bool(0.3).then(|| rng.random_range(1..3));
            if s.broker.expiry_check_passes == Some(2) && s.broker.preset == Preset::CelerySqs {
                s.broker.expiry_check_ms = Some(Some(rng.random_range(1_000..60_000)));
            }
            s.broker.max_expiries = preset_cleared_or(rng, |rng| rng.random_range(0..4));
            s.broker.rpc_latency_ms = Some(if rng.random_bool(0.5) {
                0
            } else {
                rng.random_range(1..500)
            });
            s.workers.client = None;
            s.workers.count = rng.random_range(1..6);
            s.workers.concurrency = rng.random_range(1..4);
            s.workers.prefetch = rng
                .random_bool(0.5)
                .then(|| s.workers.concurrency + rng.random_range(0..6));
            s.workers.heartbeat = preset_cleared_or(rng, |rng| Heartbeat {
                interval_ms: rng.random_range(500..30_000),
                extend_by_ms: None,
                max_extensions: Some(rng.random_range(0..20)),
                on_reject: OnReject::Continue,
            });
            s.workers.renewal = rng
                .random_bool(0.5)
                .then(|| Renewal::ALL[rng.random_range(0..Renewal::ALL.len())]);
            s.workers.ack_at = rng
                .random_bool(0.5)
                .then(|| AckAt::ALL[rng.random_range(0..AckAt::ALL.len())]);
            s.workers.error_rate = if rng.random_bool(0.5) {
                0.0
            } else {
                rng.random_range(0.0..0.2)
            };
            s.work.dist = Dist::Uniform {
                min_ms: rng.random_range(1..20_000),
                max_ms: rng.random_range(20_000..150_000),
            };
            s.work.cpu_bound = rng.random_bool(0.5);
            s.arrivals.eta_ms = if rng.random_bool(0.4) {
                rng.random_range(1_000..200_000)
            } else {
                0
            };
            s.arrivals.backlog = s.arrivals.backlog.min(rng.random_range(0..60));
            s.arrivals.rate_per_s = s.arrivals.rate_per_s.min(rng.random_range(0.0..0.5));
            s.store.fence = Fence::ALL[rng.random_range(0..Fence::ALL.len())];
        },
    )
}

/// The managed services and their rules, each drawn on its own or left to
/// the preset, over the first generator's shipped bases; crashes with
/// restarts, so that Sidekiq Pro's orphan checks run.
fn services() -> Vec<Scenario> {
    draw(SEED_SERVICES, SERVICES, "random-service-", |rng, s, n| {
        let preset = SERVICE_PRESETS[n % SERVICE_PRESETS.len()];
        s.broker = Default::default();
        s.broker.preset = preset;
        // Cloud Tasks' dispatch deadline is at least 15 s.
        s.broker.visibility_timeout_ms = Some(rng.random_range(15_000..120_000));
        s.broker.max_receive_count = preset_cleared_or(rng, |rng| rng.random_range(2..8));
        s.broker.retry_min_ms = preset_cleared_or(rng, |rng| rng.random_range(1..5_000));
        s.broker.retry_max_ms = rng
            .random_bool(0.5)
            .then(|| rng.random_range(5_000..120_000));
        s.broker.retry_doublings = preset_cleared_or(rng, |rng| rng.random_range(0..8));
        if preset == Preset::SidekiqPro {
            s.broker.expiry_check_ms = Some(Some(rng.random_range(10_000..300_000)));
        }
        s.broker.rpc_latency_ms = Some(if rng.random_bool(0.5) {
            0
        } else {
            rng.random_range(1..500)
        });
        s.workers.client = None;
        s.workers.count = rng.random_range(1..6);
        s.workers.concurrency = rng.random_range(1..4);
        s.workers.prefetch = Some(s.workers.concurrency + rng.random_range(0..4));
        // Only Temporal's activities can heartbeat.
        s.workers.heartbeat = Some(
            (preset == Preset::TemporalActivity && rng.random_bool(0.5)).then(|| Heartbeat {
                interval_ms: rng.random_range(500..30_000),
                extend_by_ms: Some(rng.random_range(1_000..60_000)),
                max_extensions: Some(rng.random_range(0..20)),
                on_reject: OnReject::Continue,
            }),
        );
        s.workers.error_rate = if rng.random_bool(0.5) {
            0.0
        } else {
            rng.random_range(0.0..0.2)
        };
        s.work.dist = Dist::Uniform {
            min_ms: rng.random_range(1..20_000),
            max_ms: rng.random_range(20_000..150_000),
        };
        s.arrivals.backlog = s.arrivals.backlog.min(rng.random_range(0..60));
        s.arrivals.rate_per_s = s.arrivals.rate_per_s.min(rng.random_range(0.0..0.5));
        s.store.fence = Fence::ALL[rng.random_range(0..Fence::ALL.len())];
        s.faults = (0..rng.random_range(0..3))
            .map(|_| Fault::Crash {
                worker: rng.random_range(0..s.workers.count),
                at_ms: rng.random_range(0..s.duration_ms),
                restart_after_ms: Some(rng.random_range(1_000..120_000)),
            })
            .collect();
    })
}

/// What an ack of a message already deleted does, drawn on its own or left
/// to the preset, under every preset with a queue: work longer than the
/// lease, late acks accepted always or stale deletes, so that one run's ack
/// deletes a message another run then acks.
fn deleted_acks() -> Vec<Scenario> {
    draw(
        SEED_DELETED_ACKS,
        DELETED_ACKS,
        "random-deleted-ack-",
        |rng, s, n| {
            s.broker = Default::default();
            s.broker.preset = QUEUE_PRESETS[n % QUEUE_PRESETS.len()];
            s.broker.visibility_timeout_ms = Some(rng.random_range(1_000..30_000));
            s.broker.max_receive_count = preset_cleared_or(rng, |rng| rng.random_range(2..8));
            s.broker.deleted_ack = match rng.random_range(0..3) {
                0 => None,
                1 => Some(DeletedAck::Rejected),
                _ => Some(DeletedAck::NoOp),
            };
            s.broker.late_ack = rng
                .random_bool(0.5)
                .then(|| LateAck::ALL[rng.random_range(0..LateAck::ALL.len())]);
            s.broker.stale_delete = rng
                .random_bool(0.5)
                .then(|| StaleDelete::ALL[rng.random_range(0..StaleDelete::ALL.len())]);
            s.broker.rpc_latency_ms = Some(if rng.random_bool(0.5) {
                0
            } else {
                rng.random_range(1..500)
            });
            s.workers.client = None;
            s.workers.count = rng.random_range(2..6);
            s.workers.concurrency = rng.random_range(1..4);
            s.workers.prefetch = Some(s.workers.concurrency + rng.random_range(0..4));
            s.workers.heartbeat = Some(None);
            s.workers.error_rate = if rng.random_bool(0.5) {
                0.0
            } else {
                rng.random_range(0.0..0.2)
            };
            s.work.dist = Dist::Uniform {
                min_ms: rng.random_range(1..10_000),
                max_ms: rng.random_range(10_000..90_000),
            };
            s.arrivals.eta_ms = 0;
            s.arrivals.backlog = s.arrivals.backlog.min(rng.random_range(0..60));
            s.arrivals.rate_per_s = s.arrivals.rate_per_s.min(rng.random_range(0.0..0.5));
            s.store.fence = Fence::ALL[rng.random_range(0..Fence::ALL.len())];
        },
    )
}
