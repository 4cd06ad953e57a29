//! Random valid scenarios for the native-versus-wasm determinism check: the
//! same seeded generator runs in both tests, so both see the same scenarios
//! without shipping them; only their hashes are pinned.
#![allow(dead_code)]

use lease_sim::scenario::{Dist, Fence, Heartbeat, OnReject, Preset, Scenario};
use lease_sim::{estimate, shipped, validate};
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;

/// How many scenarios: enough to cover every preset, fence and switch.
pub const COUNT: usize = 48;
/// The generator's seed; change it and regenerate the pinned hashes.
pub const SEED: u64 = 20_261_203;
/// Keeps each run small, so the check runs in seconds in the browser.
const MAX_EVENTS: u64 = 200_000;

pub fn scenarios() -> Vec<Scenario> {
    let mut rng = Pcg64Mcg::seed_from_u64(SEED);
    let bases = shipped::all();
    let mut out = Vec::with_capacity(COUNT);
    while out.len() < COUNT {
        let base = &bases[rng.random_range(0..bases.len())];
        let mut s = base.scenario.clone();
        s.name = format!("random-{}", out.len());
        s.seed = rng.random();
        s.duration_ms = s.duration_ms.min(rng.random_range(60_000..900_000));
        s.broker.preset = Preset::ALL[rng.random_range(0..Preset::ALL.len())];
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
        if validate(&s).is_ok() && estimate(&s).events <= MAX_EVENTS {
            out.push(s);
        }
    }
    out
}
