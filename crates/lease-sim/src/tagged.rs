//! Reading the scenario file's tagged objects, a work distribution
//! (`"dist": "lognormal"`) and a fault (`"kind": "crash"`), field by field.
//!
//! serde's own internally tagged enums buffer the whole object before they
//! look at the tag, and their errors name only the enclosing object
//! (`work: invalid value ...`). Here the object is read once into a struct of
//! every field any variant has, so an error names its field
//! (`work.ms: invalid value ...`, with the field's line and column), and the
//! tag then picks the fields the variant needs. The written form is the same;
//! writing still goes through serde's derive.

use std::fmt;

use serde::de::{self, Deserializer, Visitor};
use serde::Deserialize;

use crate::scenario::{explicit_null, Dist, Fault, RunOutcome, Work};

/// A field the variant needs: absent and `null` each get their own message.
/// The messages are built by `unmet`.
fn needed<T>(field: Option<Option<T>>, name: &str, variant: &str) -> Result<T, String> {
    match field {
        Some(Some(v)) => Ok(v),
        other => Err(unmet(other.is_some(), name, variant)),
    }
}

fn unmet(null: bool, name: &str, variant: &str) -> String {
    if null {
        format!("`{name}` is null, but a `{variant}` needs a value there")
    } else {
        format!("missing field `{name}`")
    }
}

/// A tag: a string naming one of `names`. Read with `deserialize_str`, so a
/// tag of the wrong type is a type error at the tag, not a JSON syntax error
/// (serde_json reads a unit enum from anything but a string or object that way).
fn tag<'de, D: Deserializer<'de>>(d: D, names: &'static [&'static str]) -> Result<usize, D::Error> {
    struct Name(&'static [&'static str]);
    impl Visitor<'_> for Name {
        type Value = usize;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            write!(f, "one of {}", self.0.join(", "))
        }
        fn visit_str<E: de::Error>(self, v: &str) -> Result<usize, E> {
            self.0
                .iter()
                .position(|n| *n == v)
                .ok_or_else(|| E::unknown_variant(v, self.0))
        }
    }
    d.deserialize_str(Name(names))
}

enum DistKind {
    Constant,
    Uniform,
    Exponential,
    Lognormal,
    Mix,
    Quantiles,
    Empirical,
    Histogram,
}

impl<'de> Deserialize<'de> for DistKind {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        const NAMES: &[&str] = &[
            "constant",
            "uniform",
            "exponential",
            "lognormal",
            "mix",
            "quantiles",
            "empirical",
            "histogram",
        ];
        Ok(match tag(d, NAMES)? {
            0 => DistKind::Constant,
            1 => DistKind::Uniform,
            2 => DistKind::Exponential,
            3 => DistKind::Lognormal,
            4 => DistKind::Mix,
            5 => DistKind::Quantiles,
            6 => DistKind::Empirical,
            _ => DistKind::Histogram,
        })
    }
}

/// Every field of every distribution, and `attempt_jitter`, which sits beside
/// the distribution in `work`. A field a variant does not use is ignored here
/// and reported as unknown by `parse::unknown_fields`, as before.
#[derive(Deserialize)]
#[serde(expecting = "a work distribution, an object such as {\"dist\": \"constant\", \"ms\": 100}")]
pub(crate) struct DistFields {
    dist: DistKind,
    #[serde(default, deserialize_with = "explicit_null")]
    ms: Option<Option<u64>>,
    #[serde(default, deserialize_with = "explicit_null")]
    min_ms: Option<Option<u64>>,
    #[serde(default, deserialize_with = "explicit_null")]
    max_ms: Option<Option<u64>>,
    #[serde(default, deserialize_with = "explicit_null")]
    mean_ms: Option<Option<f64>>,
    #[serde(default, deserialize_with = "explicit_null")]
    median_ms: Option<Option<f64>>,
    #[serde(default, deserialize_with = "explicit_null")]
    p99_ms: Option<Option<f64>>,
    #[serde(default, deserialize_with = "explicit_null")]
    slow_fraction: Option<Option<f64>>,
    #[serde(default, deserialize_with = "explicit_null")]
    fast: Option<Option<Box<Dist>>>,
    #[serde(default, deserialize_with = "explicit_null")]
    slow: Option<Option<Box<Dist>>>,
    #[serde(default, deserialize_with = "explicit_null")]
    points: Option<Option<Vec<[f64; 2]>>>,
    #[serde(default, deserialize_with = "explicit_null")]
    samples_ms: Option<Option<Vec<f64>>>,
    #[serde(default, deserialize_with = "explicit_null")]
    buckets: Option<Option<Vec<[f64; 2]>>>,
    #[serde(default, deserialize_with = "explicit_null")]
    attempt_jitter: Option<Option<f64>>,
    #[serde(default, deserialize_with = "explicit_null")]
    cpu_bound: Option<Option<bool>>,
}

impl TryFrom<DistFields> for Dist {
    type Error = String;

    fn try_from(f: DistFields) -> Result<Dist, String> {
        Ok(match f.dist {
            DistKind::Constant => Dist::Constant {
                ms: needed(f.ms, "ms", "constant")?,
            },
            DistKind::Uniform => Dist::Uniform {
                min_ms: needed(f.min_ms, "min_ms", "uniform")?,
                max_ms: needed(f.max_ms, "max_ms", "uniform")?,
            },
            DistKind::Exponential => Dist::Exponential {
                mean_ms: needed(f.mean_ms, "mean_ms", "exponential")?,
            },
            DistKind::Lognormal => Dist::Lognormal {
                median_ms: needed(f.median_ms, "median_ms", "lognormal")?,
                p99_ms: needed(f.p99_ms, "p99_ms", "lognormal")?,
            },
            DistKind::Mix => Dist::Mix {
                slow_fraction: needed(f.slow_fraction, "slow_fraction", "mix")?,
                fast: needed(f.fast, "fast", "mix")?,
                slow: needed(f.slow, "slow", "mix")?,
            },
            DistKind::Quantiles => Dist::Quantiles {
                points: needed(f.points, "points", "quantiles")?,
            },
            DistKind::Empirical => Dist::Empirical {
                samples_ms: needed(f.samples_ms, "samples_ms", "empirical")?,
            },
            DistKind::Histogram => Dist::Histogram {
                buckets: needed(f.buckets, "buckets", "histogram")?,
            },
        })
    }
}

impl TryFrom<DistFields> for Work {
    type Error = String;

    fn try_from(mut f: DistFields) -> Result<Work, String> {
        let attempt_jitter = match f.attempt_jitter.take() {
            None => 0.0,
            Some(j) => needed(Some(j), "attempt_jitter", "work")?,
        };
        let cpu_bound = match f.cpu_bound.take() {
            None => false,
            Some(b) => needed(Some(b), "cpu_bound", "work")?,
        };
        Ok(Work {
            dist: Dist::try_from(f)?,
            attempt_jitter,
            cpu_bound,
        })
    }
}

enum FaultKind {
    Crash,
    RollingDeploy,
    Pause,
    Run,
}

impl<'de> Deserialize<'de> for FaultKind {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        const NAMES: &[&str] = &["crash", "rolling_deploy", "pause", "run"];
        Ok(match tag(d, NAMES)? {
            0 => FaultKind::Crash,
            1 => FaultKind::RollingDeploy,
            2 => FaultKind::Pause,
            _ => FaultKind::Run,
        })
    }
}

/// Every field of every fault.
#[derive(Deserialize)]
#[serde(
    expecting = "a fault, an object such as {\"kind\": \"crash\", \"worker\": 0, \"at_ms\": 60000}"
)]
pub(crate) struct FaultFields {
    kind: FaultKind,
    #[serde(default, deserialize_with = "explicit_null")]
    worker: Option<Option<u32>>,
    #[serde(default, deserialize_with = "explicit_null")]
    at_ms: Option<Option<u64>>,
    /// `null` and absent both mean "never restarts".
    #[serde(default)]
    restart_after_ms: Option<u64>,
    #[serde(default, deserialize_with = "explicit_null")]
    downtime_ms: Option<Option<u64>>,
    #[serde(default, deserialize_with = "explicit_null")]
    gap_ms: Option<Option<u64>>,
    #[serde(default, deserialize_with = "explicit_null")]
    duration_ms: Option<Option<u64>>,
    #[serde(default, deserialize_with = "explicit_null")]
    message: Option<Option<u32>>,
    #[serde(default, deserialize_with = "explicit_null")]
    receipt: Option<Option<u32>>,
    #[serde(default, deserialize_with = "explicit_null")]
    outcome: Option<Option<RunOutcome>>,
    #[serde(default, deserialize_with = "explicit_null")]
    work_ms: Option<Option<u64>>,
}

impl TryFrom<FaultFields> for Fault {
    type Error = String;

    fn try_from(f: FaultFields) -> Result<Fault, String> {
        Ok(match f.kind {
            FaultKind::Crash => Fault::Crash {
                worker: needed(f.worker, "worker", "crash")?,
                at_ms: needed(f.at_ms, "at_ms", "crash")?,
                restart_after_ms: f.restart_after_ms,
            },
            FaultKind::RollingDeploy => Fault::RollingDeploy {
                at_ms: needed(f.at_ms, "at_ms", "rolling_deploy")?,
                downtime_ms: needed(f.downtime_ms, "downtime_ms", "rolling_deploy")?,
                gap_ms: needed(f.gap_ms, "gap_ms", "rolling_deploy")?,
            },
            FaultKind::Pause => Fault::Pause {
                worker: needed(f.worker, "worker", "pause")?,
                at_ms: needed(f.at_ms, "at_ms", "pause")?,
                duration_ms: needed(f.duration_ms, "duration_ms", "pause")?,
            },
            FaultKind::Run => {
                let outcome = f
                    .outcome
                    .map(|o| needed(Some(o), "outcome", "run"))
                    .transpose()?;
                let work_ms = f
                    .work_ms
                    .map(|w| needed(Some(w), "work_ms", "run"))
                    .transpose()?;
                if outcome.is_none() && work_ms.is_none() {
                    return Err(
                        "a run override needs `outcome`, `work_ms` or both: what the run does at its finish, how long its work takes"
                            .to_string(),
                    );
                }
                Fault::Run {
                    message: needed(f.message, "message", "run")?,
                    receipt: needed(f.receipt, "receipt", "run")?,
                    outcome,
                    work_ms,
                }
            }
        })
    }
}
