//! Work distributions from a team's own data (docs/MODEL.md "Work and the
//! feedback loop"): a curve through dashboard percentiles (`quantiles`), the
//! durations themselves (`empirical`) and a latency histogram (`histogram`).
//!
//! The quantiles fit is a monotone cubic (Fritsch-Carlson, as PCHIP) of
//! ln(ms) against logit(p) = ln(p / (1 - p)), straight beyond the first and
//! last points: through every point exactly, increasing by construction, and
//! with a log-logistic tail beyond the last point. Two points give a
//! log-logistic distribution.

use crate::scenario::Dist;
use crate::validate::MAX_WORK_MS;

/// Points a `quantiles` distribution takes: a median and a p99 at least,
/// and no more than a dashboard shows.
pub const MIN_POINTS: usize = 2;
pub const MAX_POINTS: usize = 9;
/// Durations an `empirical` distribution holds.
pub const MAX_SAMPLES: usize = 1_000_000;
/// Buckets a `histogram` holds; exported histograms have a few dozen.
pub const MAX_HISTOGRAM_BUCKETS: usize = 1_000;
/// How many quantiles stand for a long list of durations in the page and
/// in a share link (`compact_samples`).
pub const COMPACT_QUANTILES: usize = 256;

fn logit(p: f64) -> f64 {
    (p / (1.0 - p)).ln()
}

/// The fitted curve: knots (logit p, ln ms) and the tangent at each.
struct Spline {
    n: usize,
    x: [f64; MAX_POINTS],
    y: [f64; MAX_POINTS],
    m: [f64; MAX_POINTS],
}

impl Spline {
    /// From the first `MAX_POINTS` points; only a validated list is
    /// guaranteed increasing, but no list makes this panic.
    fn new(points: &[[f64; 2]]) -> Spline {
        let n = points.len().min(MAX_POINTS);
        let mut s = Spline {
            n,
            x: [0.0; MAX_POINTS],
            y: [0.0; MAX_POINTS],
            m: [0.0; MAX_POINTS],
        };
        for (i, [p, ms]) in points.iter().take(n).enumerate() {
            s.x[i] = logit(*p);
            s.y[i] = ms.ln();
        }
        if n < 2 {
            return s;
        }
        let mut d = [0.0; MAX_POINTS];
        let mut h = [0.0; MAX_POINTS];
        for k in 0..n - 1 {
            h[k] = s.x[k + 1] - s.x[k];
            d[k] = (s.y[k + 1] - s.y[k]) / h[k];
        }
        // The end tangents are the end secants, so the straight extensions
        // continue the curve smoothly and a two-point fit is one line.
        s.m[0] = d[0];
        s.m[n - 1] = d[n - 2];
        for k in 1..n - 1 {
            s.m[k] = if d[k - 1] > 0.0 && d[k] > 0.0 {
                // Weighted harmonic mean: at most 3 times either secant,
                // the Fritsch-Carlson bound that keeps each piece monotone.
                let w1 = 2.0 * h[k] + h[k - 1];
                let w2 = h[k] + 2.0 * h[k - 1];
                (w1 + w2) / (w1 / d[k - 1] + w2 / d[k])
            } else {
                0.0
            };
        }
        s
    }

    /// ln(ms) at logit(p) = t.
    fn at(&self, t: f64) -> f64 {
        let n = self.n;
        if n == 0 {
            return 0.0;
        }
        let line = |i: usize| {
            let v = self.y[i] + self.m[i] * (t - self.x[i]);
            // A flat end (invalid points) times an infinite t.
            if v.is_nan() {
                self.y[i]
            } else {
                v
            }
        };
        if n == 1 || t <= self.x[0] {
            return line(0);
        }
        if t >= self.x[n - 1] {
            return line(n - 1);
        }
        let i = (0..n - 1).find(|&i| t < self.x[i + 1]).unwrap_or(n - 2);
        let h = self.x[i + 1] - self.x[i];
        let s = (t - self.x[i]) / h;
        let (s2, s3) = (s * s, s * s * s);
        (2.0 * s3 - 3.0 * s2 + 1.0) * self.y[i]
            + (s3 - 2.0 * s2 + s) * h * self.m[i]
            + (-2.0 * s3 + 3.0 * s2) * self.y[i + 1]
            + (s3 - s2) * h * self.m[i + 1]
    }
}

/// The `p` quantile (linear between order statistics) of sorted values.
fn sorted_quantile(v: &[f64], p: f64) -> f64 {
    if v.is_empty() {
        return f64::NAN;
    }
    let h = (v.len() - 1) as f64 * p.clamp(0.0, 1.0);
    let i = h.floor() as usize;
    let j = (i + 1).min(v.len() - 1);
    v[i] + (h - i as f64) * (v[j] - v[i])
}

/// A sorted copy, unless the values are sorted already (the compact form is).
fn sorted(samples: &[f64]) -> std::borrow::Cow<'_, [f64]> {
    if samples.windows(2).all(|w| w[0] <= w[1]) {
        return std::borrow::Cow::Borrowed(samples);
    }
    // Sorted as bit patterns: for numbers of 0 or more (all that validation
    // lets through; -0 and NaN become 0 here) the bits sort as the numbers
    // do, and the page already holds the sort of `u64`, not one of `f64`.
    let mut bits: Vec<u64> = samples
        .iter()
        .map(|x| (x.max(0.0) + 0.0).to_bits())
        .collect();
    bits.sort_unstable();
    std::borrow::Cow::Owned(bits.into_iter().map(f64::from_bits).collect())
}

/// The `p` quantile in ms of a `quantiles`, `empirical` or `histogram`
/// distribution (NaN for the other shapes: lease-diagnose's
/// `work_quantile_ms` has those). The quantiles fit is capped at
/// `MAX_WORK_MS`, as its draws are.
pub fn quantile_ms(d: &Dist, p: f64) -> f64 {
    match d {
        Dist::Quantiles { points } => {
            // At a point, its own ms: exp(ln(ms)) can be off in the last bit,
            // and the median slider divides by the median.
            if let Some([_, ms]) = points.iter().find(|pt| pt[0] == p) {
                return *ms;
            }
            let ms = Spline::new(points).at(logit(p)).exp();
            ms.min(MAX_WORK_MS as f64)
        }
        Dist::Empirical { samples_ms } => sorted_quantile(&sorted(samples_ms), p),
        Dist::Histogram { buckets } => histogram_quantile(buckets, p),
        _ => f64::NAN,
    }
}

fn histogram_quantile(buckets: &[[f64; 2]], p: f64) -> f64 {
    let total: f64 = buckets.iter().map(|b| b[1].max(0.0)).sum();
    if total <= 0.0 || buckets.is_empty() {
        return f64::NAN;
    }
    let target = p.clamp(0.0, 1.0) * total;
    let mut lo = 0.0;
    let mut cum = 0.0;
    for &[hi, c] in buckets {
        let c = c.max(0.0);
        if c > 0.0 && cum + c >= target {
            let f = ((target - cum) / c).clamp(0.0, 1.0);
            return lo + f * (hi - lo);
        }
        cum += c;
        lo = hi;
    }
    lo
}

/// P(work <= x ms) for a `quantiles`, `empirical` or `histogram`
/// distribution, before rounding to whole ms (NaN for the other shapes):
/// `quantile_ms` inverted by bisection, to 1e-12.
pub fn cdf(d: &Dist, x: f64) -> f64 {
    let once;
    let d = match d {
        Dist::Empirical { samples_ms } => {
            once = Dist::Empirical {
                samples_ms: sorted(samples_ms).into_owned(),
            };
            &once
        }
        Dist::Quantiles { .. } | Dist::Histogram { .. } => d,
        _ => return f64::NAN,
    };
    let (mut lo, mut hi) = (0.0, 1.0);
    for _ in 0..45 {
        let mid = 0.5 * (lo + hi);
        if quantile_ms(d, mid) <= x {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    lo
}

/// For each point, how far the fit is from it, relative to the point's ms
/// (0 when the fit passes through it exactly).
pub fn fit_errors(points: &[[f64; 2]]) -> Vec<f64> {
    let s = Spline::new(points);
    points
        .iter()
        .map(|[p, ms]| ((s.at(logit(*p)).exp() - ms) / ms).abs())
        .collect()
}

/// The `n` evenly spaced quantiles of the samples (at probabilities
/// (k + 1/2) / n, so each stands for an equal share of the data), sorted:
/// a million durations become a short `empirical` list with the same
/// quantiles. A list no longer than `n` comes back sorted, whole.
pub fn compact_samples(samples: &[f64], n: usize) -> Vec<f64> {
    let v = sorted(samples);
    if v.len() <= n {
        return v.into_owned();
    }
    (0..n)
        .map(|k| sorted_quantile(&v, (k as f64 + 0.5) / n as f64))
        .collect()
}

/// The same data with every duration times `k`, where `k` is first held to
/// what keeps the data valid (no point under 1 ms, nothing over
/// `MAX_WORK_MS`), so the shape survives any slider; `None` for the shapes
/// that are not data.
pub fn scale_data(d: &Dist, k: f64) -> Option<Dist> {
    let mut out = d.clone();
    let empirical = matches!(d, Dist::Empirical { .. });
    let ms: Vec<&mut f64> = match &mut out {
        Dist::Quantiles { points } => points.iter_mut().map(|p| &mut p[1]).collect(),
        Dist::Empirical { samples_ms } => samples_ms.iter_mut().collect(),
        Dist::Histogram { buckets } => buckets.iter_mut().map(|b| &mut b[0]).collect(),
        _ => return None,
    };
    let hi = ms.iter().fold(0.0_f64, |a, x| a.max(**x));
    // Only percentiles have a floor above 0 (1 ms).
    let lo = match d {
        Dist::Quantiles { .. } => ms.iter().fold(f64::INFINITY, |a, x| a.min(**x)),
        _ => 0.0,
    };
    let mut k = if k.is_finite() && k > 0.0 { k } else { 1.0 };
    if hi > 0.0 {
        k = k.min(MAX_WORK_MS as f64 / hi);
    }
    if lo > 0.0 && lo.is_finite() {
        k = k.max(1.0 / lo);
    }
    for x in ms {
        // Durations stay whole ms, as every draw is rounded anyway (the
        // same draws), so a share link writes the list exactly.
        *x = if empirical { (*x * k).round() } else { *x * k };
    }
    Some(out)
}

/// One draw in ms (before rounding) from a data shape, given uniforms in
/// [0, 1): `u` picks the quantile or the bucket or the sample, `v` the
/// place inside a bucket.
pub(crate) fn draw(d: &Dist, u: f64, v: f64) -> f64 {
    match d {
        Dist::Empirical { samples_ms } => {
            let n = samples_ms.len();
            let i = ((u * n as f64) as usize).min(n.saturating_sub(1));
            samples_ms.get(i).copied().unwrap_or(1.0)
        }
        Dist::Histogram { buckets } => {
            let total: f64 = buckets.iter().map(|b| b[1].max(0.0)).sum();
            let target = u * total;
            let mut lo = 0.0;
            let mut cum = 0.0;
            for &[hi, c] in buckets {
                let c = c.max(0.0);
                if c > 0.0 && target < cum + c {
                    return lo + v * (hi - lo);
                }
                cum += c;
                lo = hi;
            }
            lo
        }
        _ => quantile_ms(d, u),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_points_are_a_log_logistic() {
        let d = Dist::Quantiles {
            points: vec![[0.5, 2000.0], [0.9, 8000.0]],
        };
        // ln(ms) linear in logit(p): the 0.99 point continues the line.
        let slope = (4.0f64).ln() / logit(0.9);
        let want = 2000.0 * (slope * logit(0.99)).exp();
        assert!((quantile_ms(&d, 0.99) / want - 1.0).abs() < 1e-12);
        assert!((cdf(&d, 2000.0) - 0.5).abs() < 1e-9);
    }

    #[test]
    fn compact_samples_keep_a_short_list_whole() {
        assert_eq!(compact_samples(&[3.0, 1.0, 2.0], 256), vec![1.0, 2.0, 3.0]);
        let many: Vec<f64> = (0..10_000).map(f64::from).collect();
        let c = compact_samples(&many, 4);
        assert_eq!(c.len(), 4);
        assert!((c[0] - 1249.875).abs() < 1e-9, "{c:?}");
    }

    #[test]
    fn a_histogram_draw_is_uniform_inside_its_bucket() {
        let d = Dist::Histogram {
            buckets: vec![[100.0, 1.0], [300.0, 0.0], [500.0, 1.0]],
        };
        assert_eq!(draw(&d, 0.25, 0.5), 50.0);
        assert_eq!(draw(&d, 0.75, 0.5), 400.0);
        assert!((quantile_ms(&d, 0.5) - 100.0).abs() < 1e-9);
        assert!((cdf(&d, 400.0) - 0.75).abs() < 1e-12);
    }

    #[test]
    fn scaling_keeps_the_data_within_its_limits() {
        let d = Dist::Quantiles {
            points: vec![[0.5, 2.0], [0.99, 40_000_000.0]],
        };
        let Some(Dist::Quantiles { points }) = scale_data(&d, 10.0) else {
            panic!("not quantiles")
        };
        assert_eq!(points[1][1], MAX_WORK_MS as f64);
        let Some(Dist::Quantiles { points }) = scale_data(&d, 0.01) else {
            panic!("not quantiles")
        };
        assert_eq!(points[0][1], 1.0);
    }
}
