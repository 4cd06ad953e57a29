//! Work: the intrinsic work distributions, per-attempt jitter, the random
//! streams, and the processor-sharing progress of running handlers.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use rand::{RngExt, SeedableRng};
use rand_distr::{Exp1, StandardNormal};
use rand_pcg::Pcg64Mcg;

use crate::run::DeliveryIx;
use crate::scenario::Dist;

/// z of the 99th percentile of the standard normal (docs/MODEL.md: sigma =
/// ln(p99 / median) / 2.3263).
pub const Z99: f64 = 2.3263;

/// Stream tags: each kind of randomness has its own stream so that changing
/// one setting (say the timeout) does not reshuffle the arrivals or the work.
pub const TAG_ARRIVALS: u64 = 0xA441_7A15;
pub const TAG_WORK: u64 = 0x3047_4B00;
pub const TAG_JITTER: u64 = 0x1177_E400;
pub const TAG_OUTCOME: u64 = 0x0C7C_0E00;
/// The receives' picks under `receive_order: random`: one stream for the run.
pub const TAG_RECEIVE_ORDER: u64 = 0x5EC7_0D00;

/// Mix a key into one 64-bit seed (the splitmix64 finalizer: a hash of the
/// key, not a generator; the generator is rand_pcg's `Pcg64Mcg`).
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A stream for `(seed, tag, a, b)`.
pub fn stream(seed: u64, tag: u64, a: u64, b: u64) -> Pcg64Mcg {
    let k = mix(mix(mix(seed ^ mix(tag)).wrapping_add(a)).wrapping_add(b));
    Pcg64Mcg::seed_from_u64(k)
}

/// Round half up to whole milliseconds, at least 1 ms (docs/MODEL.md "Time and
/// order"). NaN becomes 1 ms; huge ones and +inf saturate.
pub fn to_ms(x: f64) -> u64 {
    if x == f64::INFINITY {
        // An overflowing draw (a huge lognormal sigma) is as long as can be,
        // not 1 ms.
        return 9_000_000_000_000_000;
    }
    if !x.is_finite() || x < 1.0 {
        return 1;
    }
    let r = (x + 0.5).floor();
    if r >= 9.0e15 {
        9_000_000_000_000_000
    } else {
        (r as u64).max(1)
    }
}

/// Draw one intrinsic work time in ms.
pub fn sample(dist: &Dist, rng: &mut Pcg64Mcg) -> u64 {
    match dist {
        Dist::Constant { ms } => (*ms).max(1),
        Dist::Uniform { min_ms, max_ms } => {
            let (lo, hi) = if min_ms <= max_ms {
                (*min_ms, *max_ms)
            } else {
                (*max_ms, *min_ms)
            };
            rng.random_range(lo..=hi).max(1)
        }
        Dist::Exponential { mean_ms } => {
            let e: f64 = rng.sample(Exp1);
            to_ms(e * mean_ms)
        }
        Dist::Lognormal { median_ms, p99_ms } => {
            let sigma = lognormal_sigma(*median_ms, *p99_ms);
            let z: f64 = rng.sample(StandardNormal);
            to_ms(median_ms * (sigma * z).exp())
        }
        Dist::Mix {
            slow_fraction,
            fast,
            slow,
        } => {
            let u: f64 = rng.random();
            if u < *slow_fraction {
                sample(slow, rng)
            } else {
                sample(fast, rng)
            }
        }
        Dist::Quantiles { .. } | Dist::Empirical { .. } => {
            let u: f64 = rng.random();
            to_ms(crate::fit::draw(dist, u, 0.0))
        }
        Dist::Histogram { .. } => {
            let u: f64 = rng.random();
            let v: f64 = rng.random();
            to_ms(crate::fit::draw(dist, u, v))
        }
    }
}

pub fn lognormal_sigma(median: f64, p99: f64) -> f64 {
    let ratio = p99 / median;
    // A tiny median (5e-324) makes the ratio infinite: take the logarithms
    // apart rather than fall back to sigma 0. Only then, so that
    // every other scenario draws exactly what it drew before.
    let ln_ratio = if ratio.is_finite() {
        ratio.ln()
    } else {
        p99.ln() - median.ln()
    };
    let s = ln_ratio / Z99;
    if s.is_finite() && s > 0.0 {
        s
    } else {
        0.0
    }
}

/// The work an attempt needs: `round(w * factor)`, at least 1, where
/// ln(factor) ~ Normal(0, jitter), drawn from the stream of (message, receipt).
pub fn attempt_need(seed: u64, jitter: f64, message: u32, receipt: u32, w: u64) -> u64 {
    if jitter <= 0.0 || !jitter.is_finite() {
        return w.max(1);
    }
    let mut rng = stream(seed, TAG_JITTER, message as u64, receipt as u64);
    let z: f64 = rng.sample(StandardNormal);
    to_ms(w as f64 * (jitter * z).exp())
}

/// The one uniform draw that decides a finish: error, hang or commit.
pub fn finish_draw(seed: u64, message: u32, receipt: u32) -> f64 {
    let mut rng = stream(seed, TAG_OUTCOME, message as u64, receipt as u64);
    rng.random()
}

#[derive(Debug, Clone, Copy)]
struct Target {
    v: f64,
    delivery: DeliveryIx,
    generation: u32,
}
impl PartialEq for Target {
    fn eq(&self, o: &Self) -> bool {
        self.cmp(o) == Ordering::Equal
    }
}
impl Eq for Target {}
impl PartialOrd for Target {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for Target {
    fn cmp(&self, o: &Self) -> Ordering {
        // Min-heap by (target, delivery).
        o.v.total_cmp(&self.v)
            .then_with(|| o.delivery.cmp(&self.delivery))
    }
}

/// Processor sharing with a virtual clock. Every running handler progresses
/// at the same rate r(t) = 1/slowdown(t) * min(1, capacity/running(t)), so
/// with V(t) = the integral of r, a handler that started (or resumed) with
/// `need` work left finishes when V reaches V_then + need. A min-heap keeps
/// the targets; only the single next finish is ever scheduled.
#[derive(Debug, Default)]
pub struct Pool {
    v: f64,
    last_t: u64,
    rate: f64,
    heap: BinaryHeap<Target>,
    running: u32,
}

/// Work below this (ms at full speed) counts as done: it absorbs f64 drift
/// in V, far below the 1 ms resolution of every time in the model.
const EPS: f64 = 1e-6;

impl Pool {
    pub fn new() -> Self {
        Pool {
            rate: 1.0,
            ..Pool::default()
        }
    }

    pub fn running(&self) -> u32 {
        self.running
    }

    /// Advance V to `now` at the current rate.
    pub fn advance(&mut self, now: u64) {
        if now > self.last_t {
            self.v += self.rate * (now - self.last_t) as f64;
            self.last_t = now;
        }
    }

    pub fn set_rate(&mut self, rate: f64) {
        self.rate = if rate.is_finite() && rate > 0.0 {
            rate
        } else {
            0.0
        };
    }

    /// Add a handler with `left` ms of work; returns its target.
    pub fn add(&mut self, delivery: DeliveryIx, generation: u32, left: f64) -> f64 {
        let v = self.v + left.max(0.0);
        self.heap.push(Target {
            v,
            delivery,
            generation,
        });
        self.running += 1;
        v
    }

    /// A handler left the set (pause, crash, abort): its heap entry goes
    /// stale and is skipped lazily by `is_current`.
    pub fn remove(&mut self) {
        self.running = self.running.saturating_sub(1);
    }

    /// Work left for a handler with this target (>= 0).
    pub fn left(&self, target: f64) -> f64 {
        (target - self.v).max(0.0)
    }

    /// Pop the next handler whose work is done, if any; `is_current` tells
    /// whether a heap entry still belongs to a running handler.
    pub fn pop_done(
        &mut self,
        mut is_current: impl FnMut(DeliveryIx, u32) -> bool,
    ) -> Option<DeliveryIx> {
        while let Some(top) = self.heap.peek().copied() {
            if !is_current(top.delivery, top.generation) {
                self.heap.pop();
                continue;
            }
            if top.v - self.v <= EPS * self.v.abs().max(1.0) {
                self.heap.pop();
                self.running = self.running.saturating_sub(1);
                return Some(top.delivery);
            }
            return None;
        }
        None
    }

    /// When the next finish happens at the current rate, rounded up to a
    /// whole ms and at least `now + 1` (the caller pops finished ones first),
    /// or `None` when nothing runs or the rate is zero.
    pub fn next_finish(
        &mut self,
        now: u64,
        mut is_current: impl FnMut(DeliveryIx, u32) -> bool,
    ) -> Option<u64> {
        while let Some(top) = self.heap.peek().copied() {
            if !is_current(top.delivery, top.generation) {
                self.heap.pop();
                continue;
            }
            if self.rate <= 0.0 {
                return None;
            }
            let dt = ((top.v - self.v) / self.rate).ceil();
            let dt = if dt.is_finite() && dt >= 1.0 {
                dt.min(9.0e15) as u64
            } else {
                1
            };
            return Some(now.saturating_add(dt));
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounding_is_half_up_and_at_least_one_ms() {
        assert_eq!(to_ms(0.2), 1);
        assert_eq!(to_ms(1.5), 2);
        assert_eq!(to_ms(2.4999), 2);
        assert_eq!(to_ms(f64::NAN), 1);
    }

    #[test]
    fn lognormal_sigma_from_median_and_p99() {
        let s = lognormal_sigma(8_000.0, 20_000.0);
        assert!((s - (2.5f64).ln() / 2.3263).abs() < 1e-12);
        assert_eq!(lognormal_sigma(5.0, 5.0), 0.0);
    }

    #[test]
    fn keyed_streams_do_not_depend_on_order() {
        let a = attempt_need(7, 0.5, 3, 2, 10_000);
        let _ = attempt_need(7, 0.5, 4, 1, 10_000);
        assert_eq!(a, attempt_need(7, 0.5, 3, 2, 10_000));
        assert_ne!(a, attempt_need(7, 0.5, 3, 3, 10_000));
    }
}
