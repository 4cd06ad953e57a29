//! Shared by the fuzz targets: the check path (`lease_sim::fuzz_check`, which
//! the stable regression test uses too) and the `arbitrary` mirror of a
//! scenario.

pub use lease_sim::fuzz_check as harness;

use arbitrary::Arbitrary;
use serde_json::{json, Value};

/// The main knobs of a scenario, in small integer types so that most inputs
/// land in (or just outside) the valid ranges; `to_json` writes the file.
#[derive(Debug, Arbitrary)]
pub struct ArbScenario {
    pub seed: u64,
    /// Scaled by 16 ms: up to about 17 min; 0 is out of range on purpose.
    pub duration: u16,
    pub bucket: Option<u16>,
    pub preset: Option<u8>,
    pub timeout_ms: Option<u32>,
    /// Outer `None`: absent (preset), `Some(None)`: explicit null.
    pub max_receive_count: Option<Option<u16>>,
    pub max_lease_lifetime_ms: Option<Option<u32>>,
    pub receive_batch: Option<u16>,
    pub rpc_latency_ms: Option<u16>,
    pub dlq_on_next_receive: Option<bool>,
    pub late_ack_accepted: Option<bool>,
    pub count_at_expiry: Option<bool>,
    pub workers: u8,
    pub concurrency: u8,
    pub prefetch: Option<u16>,
    pub heartbeat: Option<Option<ArbHeartbeat>>,
    /// Probabilities in 255ths (0 and 1 exactly reachable).
    pub error_rate: u8,
    pub hang_rate: u8,
    pub on_error_expire: bool,
    pub dist: ArbDist,
    /// Sigma in 64ths: 0 to about 4 (above 3 is refused).
    pub attempt_jitter: u8,
    pub capacity: Option<u16>,
    pub slowdowns: Vec<(u32, u32, u32)>,
    pub backlog: u16,
    /// Messages per second in 64ths.
    pub rate: u16,
    pub fixed: bool,
    pub surges: Vec<(u32, u32, u16)>,
    pub fence: u8,
    pub faults: Vec<ArbFault>,
    pub client: Option<ArbClient>,
    /// `broker.stale_delete`: `permissive` when true.
    pub stale_delete: Option<bool>,
    /// `broker.deleted_ack`: `no_op` when true, `rejected` when false.
    /// Last, as each field added since: the fields before it decode from a
    /// corpus input as they did.
    pub deleted_ack: Option<bool>,
}

/// `workers.client`: the library (modulo 4) and its parameter, written
/// whatever the library, so a parameter of another library is tried too.
#[derive(Debug, Arbitrary)]
pub struct ArbClient {
    pub library: u8,
    pub max_lease_ms: Option<u32>,
    pub max_auto_lock_renewal_ms: Option<u32>,
    pub function_timeout_ms: Option<u32>,
}

#[derive(Debug, Arbitrary)]
pub struct ArbHeartbeat {
    pub interval_ms: u32,
    pub extend_by_ms: Option<u32>,
    pub max_extensions: Option<u16>,
    pub abort: bool,
}

#[derive(Debug, Arbitrary)]
pub enum ArbDist {
    Constant(u32),
    Uniform(u32, u32),
    /// Mean in 8ths of a ms.
    Exponential(u32),
    /// Median and p99 in 8ths of a ms.
    Lognormal(u32, u32),
    Mix(u8, Box<ArbDist>, Box<ArbDist>),
    /// (probability in 255ths, ms in 8ths) points.
    Quantiles(Vec<(u8, u32)>),
    /// Samples in 8ths of a ms.
    Empirical(Vec<u32>),
    /// (upper bound in 8ths of a ms, count) buckets, in any order.
    Histogram(Vec<(u32, u16)>),
}

#[derive(Debug, Arbitrary)]
pub enum ArbFault {
    Crash {
        worker: u8,
        at_ms: u32,
        restart_after_ms: Option<u32>,
    },
    RollingDeploy {
        at_ms: u32,
        downtime_ms: u32,
        gap_ms: u32,
    },
    Pause {
        worker: u8,
        at_ms: u32,
        duration_ms: u32,
    },
}

/// Keep lists short: a long one only slows the run.
const MAX_LIST: usize = 6;
/// Samples are read in one pass (sorted once), so more of them are cheap.
const MAX_SAMPLES: usize = 64;

impl ArbDist {
    fn to_json(&self, depth: u32) -> Value {
        match self {
            ArbDist::Constant(ms) => json!({"dist": "constant", "ms": ms}),
            ArbDist::Uniform(a, b) => json!({"dist": "uniform", "min_ms": a, "max_ms": b}),
            ArbDist::Exponential(m) => {
                json!({"dist": "exponential", "mean_ms": f64::from(*m) / 8.0})
            }
            ArbDist::Lognormal(m, p) => json!({"dist": "lognormal",
                "median_ms": f64::from(*m) / 8.0, "p99_ms": f64::from(*p) / 8.0}),
            // Nesting is legal but deep nesting only tests serde: stop at 3.
            ArbDist::Mix(f, fast, slow) if depth < 3 => json!({"dist": "mix",
                "slow_fraction": f64::from(*f) / 255.0,
                "fast": fast.to_json(depth + 1), "slow": slow.to_json(depth + 1)}),
            ArbDist::Mix(..) => json!({"dist": "constant", "ms": 1}),
            ArbDist::Quantiles(points) => {
                let points: Vec<[f64; 2]> = points
                    .iter()
                    .take(MAX_LIST)
                    .map(|(p, ms)| [f64::from(*p) / 255.0, f64::from(*ms) / 8.0])
                    .collect();
                json!({"dist": "quantiles", "points": points})
            }
            ArbDist::Empirical(samples) => {
                let samples: Vec<f64> = samples
                    .iter()
                    .take(MAX_SAMPLES)
                    .map(|ms| f64::from(*ms) / 8.0)
                    .collect();
                json!({"dist": "empirical", "samples_ms": samples})
            }
            ArbDist::Histogram(buckets) => {
                let buckets: Vec<[f64; 2]> = buckets
                    .iter()
                    .take(MAX_LIST)
                    .map(|(upper, n)| [f64::from(*upper) / 8.0, f64::from(*n)])
                    .collect();
                json!({"dist": "histogram", "buckets": buckets})
            }
        }
    }
}

impl ArbScenario {
    pub fn to_json(&self) -> String {
        let presets = [
            "textbook",
            "sqs_standard",
            "sqs_fifo",
            "azure_service_bus",
            "google_pubsub",
        ];
        let fences = [
            "none",
            "check_then_write",
            "unique_constraint",
            "fencing_token",
        ];
        let mut broker = serde_json::Map::new();
        if let Some(p) = self.preset {
            broker.insert("preset".into(), json!(presets[p as usize % 5]));
        }
        if let Some(t) = self.timeout_ms {
            broker.insert("visibility_timeout_ms".into(), json!(t));
        }
        if let Some(m) = self.max_receive_count {
            broker.insert("max_receive_count".into(), json!(m));
        }
        if let Some(l) = self.max_lease_lifetime_ms {
            broker.insert("max_lease_lifetime_ms".into(), json!(l));
        }
        if let Some(b) = self.receive_batch {
            broker.insert("receive_batch".into(), json!(b));
        }
        if let Some(r) = self.rpc_latency_ms {
            broker.insert("rpc_latency_ms".into(), json!(r));
        }
        if let Some(d) = self.dlq_on_next_receive {
            let v = if d { "on_next_receive" } else { "on_expiry" };
            broker.insert("dlq_timing".into(), json!(v));
        }
        if let Some(a) = self.late_ack_accepted {
            let v = if a {
                "accepted_if_not_redelivered"
            } else {
                "rejected"
            };
            broker.insert("late_ack".into(), json!(v));
        }
        if let Some(c) = self.count_at_expiry {
            let v = if c { "expiry_or_abandon" } else { "receive" };
            broker.insert("count_at".into(), json!(v));
        }
        if let Some(p) = self.stale_delete {
            let v = if p { "permissive" } else { "strict" };
            broker.insert("stale_delete".into(), json!(v));
        }
        if let Some(n) = self.deleted_ack {
            let v = if n { "no_op" } else { "rejected" };
            broker.insert("deleted_ack".into(), json!(v));
        }

        let mut workers = serde_json::Map::new();
        workers.insert("count".into(), json!(self.workers));
        workers.insert("concurrency".into(), json!(self.concurrency));
        if let Some(p) = self.prefetch {
            workers.insert("prefetch".into(), json!(p));
        }
        if let Some(h) = &self.heartbeat {
            let v = match h {
                None => Value::Null,
                Some(h) => json!({
                    "interval_ms": h.interval_ms,
                    "extend_by_ms": h.extend_by_ms,
                    "max_extensions": h.max_extensions,
                    "on_reject": if h.abort { "abort" } else { "continue" },
                }),
            };
            workers.insert("heartbeat".into(), v);
        }
        workers.insert(
            "error_rate".into(),
            json!(f64::from(self.error_rate) / 255.0),
        );
        workers.insert("hang_rate".into(), json!(f64::from(self.hang_rate) / 255.0));
        let on_error = if self.on_error_expire {
            "expire"
        } else {
            "release"
        };
        workers.insert("on_error".into(), json!(on_error));
        if let Some(c) = &self.client {
            let libraries = ["none", "pubsub", "service_bus", "sqs_lambda"];
            let mut client = serde_json::Map::new();
            client.insert(
                "library".into(),
                json!(libraries[c.library as usize % libraries.len()]),
            );
            for (name, v) in [
                ("max_lease_ms", c.max_lease_ms),
                ("max_auto_lock_renewal_ms", c.max_auto_lock_renewal_ms),
                ("function_timeout_ms", c.function_timeout_ms),
            ] {
                if let Some(v) = v {
                    client.insert(name.into(), json!(v));
                }
            }
            workers.insert("client".into(), Value::Object(client));
        }

        let mut work = self.dist.to_json(0);
        work["attempt_jitter"] = json!(f64::from(self.attempt_jitter) / 64.0);

        let slowdowns: Vec<Value> = self
            .slowdowns
            .iter()
            .take(MAX_LIST)
            .map(|(a, b, f)| json!({"from_ms": a, "to_ms": b, "factor": f64::from(*f) / 16.0}))
            .collect();
        let surges: Vec<Value> = self
            .surges
            .iter()
            .take(MAX_LIST)
            .map(|(a, b, r)| json!({"from_ms": a, "to_ms": b, "rate_per_s": f64::from(*r) / 64.0}))
            .collect();
        let faults: Vec<Value> = self
            .faults
            .iter()
            .take(MAX_LIST)
            .map(|f| match f {
                ArbFault::Crash {
                    worker,
                    at_ms,
                    restart_after_ms,
                } => json!({"kind": "crash", "worker": worker, "at_ms": at_ms,
                    "restart_after_ms": restart_after_ms}),
                ArbFault::RollingDeploy {
                    at_ms,
                    downtime_ms,
                    gap_ms,
                } => json!({"kind": "rolling_deploy", "at_ms": at_ms,
                    "downtime_ms": downtime_ms, "gap_ms": gap_ms}),
                ArbFault::Pause {
                    worker,
                    at_ms,
                    duration_ms,
                } => json!({"kind": "pause", "worker": worker, "at_ms": at_ms,
                    "duration_ms": duration_ms}),
            })
            .collect();

        let mut top = json!({
            "name": "fuzz",
            "seed": self.seed,
            "duration_ms": u64::from(self.duration) * 16,
            "broker": broker,
            "workers": workers,
            "work": work,
            "downstream": {"capacity": self.capacity, "slowdowns": slowdowns},
            "arrivals": {"backlog": self.backlog, "rate_per_s": f64::from(self.rate) / 64.0,
                         "process": if self.fixed { "fixed" } else { "poisson" },
                         "surges": surges},
            "store": {"fence": fences[self.fence as usize % 4]},
            "faults": faults,
        });
        if let Some(b) = self.bucket {
            top["bucket_ms"] = json!(u64::from(b) * 16);
        }
        serde_json::to_string_pretty(&top).expect("a json Value always serializes")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arbitrary::Unstructured;

    fn drawn(deleted_ack: Option<bool>) -> Value {
        let bytes: Vec<u8> = (0..2048u32).map(|i| (i * 37 % 251) as u8).collect();
        let mut s = ArbScenario::arbitrary(&mut Unstructured::new(&bytes)).unwrap();
        s.deleted_ack = deleted_ack;
        serde_json::from_str(&s.to_json()).unwrap()
    }

    /// Two workers on SQS standard, a 1 s lease and 1.5 s of work: the first
    /// run's delete lands after its message went to the other worker, whose
    /// delete then finds the message gone.
    fn deleted_ack_case(deleted_ack: bool) -> ArbScenario {
        ArbScenario {
            seed: 7,
            duration: 625,
            bucket: None,
            preset: Some(1),
            timeout_ms: Some(1000),
            max_receive_count: Some(None),
            max_lease_lifetime_ms: None,
            receive_batch: None,
            rpc_latency_ms: None,
            dlq_on_next_receive: None,
            late_ack_accepted: None,
            count_at_expiry: None,
            workers: 2,
            concurrency: 1,
            prefetch: None,
            heartbeat: Some(None),
            error_rate: 0,
            hang_rate: 0,
            on_error_expire: false,
            dist: ArbDist::Constant(1500),
            attempt_jitter: 0,
            capacity: None,
            slowdowns: Vec::new(),
            backlog: 3,
            rate: 0,
            fixed: true,
            surges: Vec::new(),
            fence: 0,
            faults: Vec::new(),
            client: None,
            stale_delete: Some(true),
            deleted_ack: Some(deleted_ack),
        }
    }

    #[test]
    fn the_corpus_deleted_ack_cases_are_what_the_generator_writes() {
        for (no_op, file) in [
            (true, "structured-deleted-ack-no-op-sqs-standard.json"),
            (false, "structured-deleted-ack-rejected-sqs-standard.json"),
        ] {
            let path = format!(
                "{}/../crates/lease-sim/tests/fuzz_corpus/{file}",
                env!("CARGO_MANIFEST_DIR")
            );
            if std::env::var_os("WRITE_CORPUS").is_some() {
                std::fs::write(&path, deleted_ack_case(no_op).to_json()).unwrap();
            }
            let stored = std::fs::read_to_string(&path).unwrap();
            assert_eq!(stored, deleted_ack_case(no_op).to_json(), "{file}");
        }
    }

    #[test]
    fn the_structured_generator_writes_deleted_ack_both_ways_or_leaves_it_to_the_preset() {
        assert_eq!(drawn(Some(true))["broker"]["deleted_ack"], "no_op");
        assert_eq!(drawn(Some(false))["broker"]["deleted_ack"], "rejected");
        assert!(drawn(None)["broker"].get("deleted_ack").is_none());
        // Every answer is a value the scenario format reads.
        for n in [Some(true), Some(false), None] {
            let text = drawn(n).to_string();
            let parsed = lease_sim::parse::parse_scenario_without_path(&text);
            assert!(
                !matches!(&parsed, Err(e) if e.to_string().contains("deleted_ack")),
                "{parsed:?}"
            );
        }
    }
}
