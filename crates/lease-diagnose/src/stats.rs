//! Numbers the detectors, fixes and sweeps share: quantiles of a work
//! distribution (what the scenario says the work takes), what the run shows
//! the work took, and why each lease that expired did so.
use lease_sim::resolve::{resolve, Config};
use lease_sim::run::{Delivery, LeaseEnd, Outcome, Run};
use lease_sim::scenario::{Dist, Scenario};
use lease_sim::validate::MAX_WORK_MS;

/// z of the 99th percentile of a standard normal: lease-sim's log-normal is
/// given by median and p99 with sigma = ln(p99 / median) / Z99.
const Z99: f64 = 2.326_347_874;

/// Standard normal CDF. `erfc` by the Chebyshev fit of Numerical Recipes
/// (relative error below 1.2e-7): plenty for placing a slider's label.
fn normal_cdf(z: f64) -> f64 {
    let x = -z / std::f64::consts::SQRT_2;
    let t = 1.0 / (1.0 + 0.5 * x.abs());
    let poly = -x * x - 1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_203_98
                                + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    let erfc = t * poly.exp();
    let erfc = if x >= 0.0 { erfc } else { 2.0 - erfc };
    0.5 * erfc
}

/// P(work <= x) at full speed.
fn cdf(d: &Dist, x: f64) -> f64 {
    match d {
        Dist::Constant { ms } => {
            if x >= *ms as f64 {
                1.0
            } else {
                0.0
            }
        }
        Dist::Uniform { min_ms, max_ms } => {
            let (lo, hi) = (*min_ms as f64, *max_ms as f64);
            if x < lo {
                0.0
            } else if x >= hi || hi <= lo {
                1.0
            } else {
                (x - lo) / (hi - lo)
            }
        }
        Dist::Exponential { mean_ms } => {
            if x <= 0.0 || *mean_ms <= 0.0 {
                0.0
            } else {
                1.0 - (-x / mean_ms).exp()
            }
        }
        Dist::Lognormal { median_ms, p99_ms } => {
            if x <= 0.0 || *median_ms <= 0.0 {
                return 0.0;
            }
            let sigma = (p99_ms / median_ms).ln() / Z99;
            if !(sigma.is_finite() && sigma > 0.0) {
                return if x >= *median_ms { 1.0 } else { 0.0 };
            }
            normal_cdf((x / median_ms).ln() / sigma)
        }
        Dist::Mix {
            slow_fraction,
            fast,
            slow,
        } => {
            let f = (*slow_fraction).clamp(0.0, 1.0);
            (1.0 - f) * cdf(fast, x) + f * cdf(slow, x)
        }
        Dist::Quantiles { .. } | Dist::Empirical { .. } | Dist::Histogram { .. } => {
            lease_sim::fit::cdf(d, x)
        }
    }
}

/// The `q` quantile of the work at full speed, in ms. Closed forms where the
/// scenario states them (a log-normal's p99 is exactly its `p99_ms`), else
/// bisection on the CDF, which a two-point mix needs.
pub fn work_quantile_ms(d: &Dist, q: f64) -> f64 {
    match d {
        Dist::Constant { ms } => return *ms as f64,
        Dist::Lognormal { p99_ms, .. } if (q - 0.99).abs() < 1e-12 => return *p99_ms,
        Dist::Lognormal { median_ms, .. } if (q - 0.5).abs() < 1e-12 => return *median_ms,
        Dist::Quantiles { .. } | Dist::Empirical { .. } | Dist::Histogram { .. } => {
            return lease_sim::fit::quantile_ms(d, q)
        }
        _ => {}
    }
    let (mut lo, mut hi) = (0.0_f64, MAX_WORK_MS as f64 * 4.0);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if cdf(d, mid) >= q {
            hi = mid;
        } else {
            lo = mid;
        }
        if hi - lo < 0.01 {
            break;
        }
    }
    hi
}

/// p99 of the work at full speed: the number a timeout is sized by.
pub fn work_p99_ms(d: &Dist) -> f64 {
    work_quantile_ms(d, 0.99)
}

pub fn work_median_ms(d: &Dist) -> f64 {
    work_quantile_ms(d, 0.5)
}

/// The same shape with every duration multiplied by `k` (whole ms, at least
/// 1 ms, within lease-sim's limit).
pub fn scale_dist(d: &Dist, k: f64) -> Dist {
    let ms = |v: u64| ((v as f64 * k).round() as u64).clamp(1, MAX_WORK_MS);
    let fl = |v: f64| (v * k).clamp(1.0, MAX_WORK_MS as f64);
    match d {
        Dist::Constant { ms: v } => Dist::Constant { ms: ms(*v) },
        Dist::Uniform { min_ms, max_ms } => Dist::Uniform {
            min_ms: ms(*min_ms).min(ms(*max_ms)),
            max_ms: ms(*max_ms),
        },
        Dist::Exponential { mean_ms } => Dist::Exponential {
            mean_ms: fl(*mean_ms),
        },
        Dist::Lognormal { median_ms, p99_ms } => {
            let median = fl(*median_ms);
            Dist::Lognormal {
                median_ms: median,
                p99_ms: fl(*p99_ms).max(median),
            }
        }
        Dist::Mix {
            slow_fraction,
            fast,
            slow,
        } => Dist::Mix {
            slow_fraction: *slow_fraction,
            fast: Box::new(scale_dist(fast, k)),
            slow: Box::new(scale_dist(slow, k)),
        },
        // Data keeps its shape: every duration times k, k held so that the
        // data stays valid (docs/MODEL.md "Work and the feedback loop").
        Dist::Quantiles { .. } | Dist::Empirical { .. } | Dist::Histogram { .. } => {
            lease_sim::fit::scale_data(d, k).unwrap_or_else(|| d.clone())
        }
    }
}

/// The largest downstream slowdown factor at any instant (overlapping
/// slowdowns multiply, docs/MODEL.md), at least 1: how much slower than full
/// speed the scenario can make the work without any duplicate load.
pub fn max_slowdown(s: &Scenario) -> f64 {
    let sds = &s.downstream.slowdowns;
    let mut worst = 1.0_f64;
    for a in sds {
        // The product over slowdowns active at `a.from_ms` (edges are where
        // the product can change upwards).
        let f: f64 = sds
            .iter()
            .filter(|b| b.from_ms <= a.from_ms && a.from_ms < b.to_ms)
            .map(|b| b.factor)
            .product();
        if f.is_finite() {
            worst = worst.max(f);
        }
    }
    worst
}

/// Nearest-rank percentile (as lease-sim reports ack latency), `None` for
/// no data.
pub fn percentile(sorted: &[u64], p: f64) -> Option<u64> {
    if sorted.is_empty() {
        return None;
    }
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    sorted.get(rank.clamp(1, sorted.len()) - 1).copied()
}

/// Why a lease ended in an expiry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExpiryKind {
    /// The handler was still working (or paused) when the lease ran out:
    /// the slow-or-starved case every seed is about.
    MidRun,
    /// The message waited in the worker's local buffer (prefetch) and its
    /// lease ran out before a handler started it: the invisible backlog.
    InBuffer,
    /// The worker crashed while holding it: the lease is how the work comes back.
    Crashed,
    /// The handler hung; only the lease (or the cap on extensions) ends it.
    Hung,
    /// The work was over but no ack or release landed in time (an error
    /// left to expire, a crash between commit and ack, RPC latency).
    AfterWork,
}

/// Classify an expired lease; `None` if the lease did not expire.
pub fn expiry_kind(d: &Delivery) -> Option<ExpiryKind> {
    if d.lease_end != LeaseEnd::Expired {
        return None;
    }
    let at = d.lease_ended_at;
    Some(match (d.outcome, d.started_at, d.ended_at) {
        (Outcome::Hung, _, _) => ExpiryKind::Hung,
        (_, None, _) => ExpiryKind::InBuffer,
        (_, Some(s), _) if s >= at => ExpiryKind::InBuffer,
        (Outcome::Crashed, _, Some(e)) if e <= at => ExpiryKind::Crashed,
        (_, _, Some(e)) if e <= at => ExpiryKind::AfterWork,
        _ => ExpiryKind::MidRun,
    })
}

/// What the run says about its own leases, computed once per diagnosis.
#[derive(Debug, Clone)]
pub struct LeaseFacts {
    pub config: Config,
    pub timeout_ms: u64,
    pub mid_run_expiries: u64,
    pub buffer_expiries: u64,
    pub crash_expiries: u64,
    pub hung_expiries: u64,
    pub other_expiries: u64,
    /// How long each run took from the lease starting to the handler
    /// stopping (as the broker would have had to wait for it), sorted. Runs
    /// still working at the end count to the end (a lower bound); hung,
    /// crashed and never-started runs are left out: they say nothing about
    /// how long the work takes.
    pub run_ms: Vec<u64>,
}

impl LeaseFacts {
    pub fn new(scenario: &Scenario, run: &Run) -> Self {
        let config = resolve(scenario);
        let mut f = LeaseFacts {
            timeout_ms: run.visibility_timeout_ms.max(1),
            config,
            mid_run_expiries: 0,
            buffer_expiries: 0,
            crash_expiries: 0,
            hung_expiries: 0,
            other_expiries: 0,
            run_ms: Vec::new(),
        };
        for d in &run.deliveries {
            match expiry_kind(d) {
                Some(ExpiryKind::MidRun) => f.mid_run_expiries += 1,
                Some(ExpiryKind::InBuffer) => f.buffer_expiries += 1,
                Some(ExpiryKind::Crashed) => f.crash_expiries += 1,
                Some(ExpiryKind::Hung) => f.hung_expiries += 1,
                Some(ExpiryKind::AfterWork) => f.other_expiries += 1,
                None => {}
            }
            if d.started_at.is_none() {
                continue;
            }
            match (d.outcome, d.ended_at) {
                (Outcome::Hung | Outcome::Crashed | Outcome::Aborted, _) => {}
                (_, Some(e)) => f.run_ms.push(e.saturating_sub(d.received_at)),
                (Outcome::Unfinished, None) => {
                    f.run_ms.push(run.end_ms.saturating_sub(d.received_at))
                }
                _ => {}
            }
        }
        f.run_ms.sort_unstable();
        f
    }

    pub fn expiries(&self) -> u64 {
        self.mid_run_expiries
            + self.buffer_expiries
            + self.crash_expiries
            + self.hung_expiries
            + self.other_expiries
    }

    /// p99 of how long runs took, `None` when no run says.
    pub fn run_p99_ms(&self) -> Option<u64> {
        percentile(&self.run_ms, 99.0)
    }

    pub fn longest_run_ms(&self) -> Option<u64> {
        self.run_ms.last().copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantiles_match_the_stated_parameters() {
        let ln = Dist::Lognormal {
            median_ms: 8_000.0,
            p99_ms: 30_000.0,
        };
        assert_eq!(work_p99_ms(&ln), 30_000.0);
        assert_eq!(work_median_ms(&ln), 8_000.0);
        // The bisection agrees with the closed form.
        let q = work_quantile_ms(&ln, 0.989_999);
        assert!((q - 30_000.0).abs() < 30.0, "{q}");
        let ex = Dist::Exponential { mean_ms: 1_000.0 };
        assert!((work_p99_ms(&ex) - 1_000.0 * 100f64.ln()).abs() < 1.0);
        let un = Dist::Uniform {
            min_ms: 1_000,
            max_ms: 2_000,
        };
        assert!((work_p99_ms(&un) - 1_990.0).abs() < 1.0);
        assert_eq!(work_p99_ms(&Dist::Constant { ms: 90_000 }), 90_000.0);
    }

    #[test]
    fn a_mix_has_its_slow_tail_in_the_p99() {
        let mix = Dist::Mix {
            slow_fraction: 0.05,
            fast: Box::new(Dist::Constant { ms: 100 }),
            slow: Box::new(Dist::Constant { ms: 60_000 }),
        };
        assert!((work_p99_ms(&mix) - 60_000.0).abs() < 1.0);
        assert!((work_median_ms(&mix) - 100.0).abs() < 1.0);
    }

    #[test]
    fn scaling_keeps_the_shape() {
        let ln = Dist::Lognormal {
            median_ms: 9_000.0,
            p99_ms: 30_000.0,
        };
        let third = scale_dist(&ln, 1.0 / 3.0);
        assert!((work_p99_ms(&third) - 10_000.0).abs() < 1e-6);
        assert!((work_median_ms(&third) - 3_000.0).abs() < 1e-6);
    }

    #[test]
    fn percentile_is_nearest_rank() {
        let v: Vec<u64> = (1..=100).collect();
        assert_eq!(percentile(&v, 99.0), Some(99));
        assert_eq!(percentile(&v, 50.0), Some(50));
        assert_eq!(percentile(&[], 99.0), None);
        assert_eq!(percentile(&[7], 99.0), Some(7));
    }
}
