//! The "Processing time" control: a distribution shape plus a median and a
//! p99, whatever the shape, so the two sliders mean the same thing for all.

use lease_sim::fit::{compact_samples, quantile_ms, COMPACT_QUANTILES};
use lease_sim::scenario::{Dist, Named};
use lease_sim::work::{sample, stream};

/// The shape of the work's distribution, as the page's "Distribution"
/// select and a share link's `dist=` choose it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    Lognormal,
    Constant,
    Uniform,
    Exponential,
    Mix,
    Quantiles,
    Empirical,
    Histogram,
}

impl Named for Shape {
    const NAMES: &'static [(Shape, &'static str)] = &[
        (Shape::Lognormal, "lognormal"),
        (Shape::Constant, "constant"),
        (Shape::Uniform, "uniform"),
        (Shape::Exponential, "exponential"),
        (Shape::Mix, "mix"),
        (Shape::Quantiles, "quantiles"),
        (Shape::Empirical, "empirical"),
        (Shape::Histogram, "histogram"),
    ];
    const WORDS: &'static [&'static str] = &[
        "lognormal",
        "constant",
        "uniform",
        "exponential",
        "mix",
        "quantiles",
        "empirical",
        "histogram",
    ];
    fn index(self) -> usize {
        self as usize
    }
}

impl Shape {
    /// Every shape, in the select's order.
    pub const ALL: [Shape; 8] = [
        Shape::Lognormal,
        Shape::Constant,
        Shape::Uniform,
        Shape::Exponential,
        Shape::Mix,
        Shape::Quantiles,
        Shape::Empirical,
        Shape::Histogram,
    ];

    /// The word a share link and the scenario file's `kind` use.
    pub fn word(self) -> &'static str {
        Self::WORDS[self as usize]
    }

    /// What the page's select says.
    pub fn label(self) -> &'static str {
        match self {
            Shape::Lognormal => "Log-normal (median, p99)",
            Shape::Constant => "Constant",
            Shape::Uniform => "Uniform",
            Shape::Exponential => "Exponential",
            Shape::Mix => "Mix: most fast, 5% slow",
            Shape::Quantiles => "Your percentiles",
            Shape::Empirical => "Your durations",
            Shape::Histogram => "Your histogram",
        }
    }

    /// The shapes that are a team's own data: the median slider scales the
    /// whole distribution and the p99 follows (docs/MODEL.md "Work and the
    /// feedback loop").
    pub fn is_data(self) -> bool {
        matches!(self, Shape::Quantiles | Shape::Empirical | Shape::Histogram)
    }

    /// Whether the p99 slider means anything for the shape.
    pub fn has_p99(self) -> bool {
        !matches!(self, Shape::Constant | Shape::Exponential) && !self.is_data()
    }
}

impl std::fmt::Display for Shape {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.word())
    }
}

pub fn shape(d: &Dist) -> Shape {
    match d {
        Dist::Lognormal { .. } => Shape::Lognormal,
        Dist::Constant { .. } => Shape::Constant,
        Dist::Uniform { .. } => Shape::Uniform,
        Dist::Exponential { .. } => Shape::Exponential,
        Dist::Mix { .. } => Shape::Mix,
        Dist::Quantiles { .. } => Shape::Quantiles,
        Dist::Empirical { .. } => Shape::Empirical,
        Dist::Histogram { .. } => Shape::Histogram,
    }
}

/// Median and p99 of a distribution, in ms: exact where there is a formula
/// (the data shapes' own quantiles), sampled (fixed seed) for the mix.
pub fn median_p99(d: &Dist) -> (f64, f64) {
    match d {
        Dist::Constant { ms } => (*ms as f64, *ms as f64),
        Dist::Uniform { min_ms, max_ms } => {
            let (a, b) = (*min_ms as f64, *max_ms as f64);
            ((a + b) / 2.0, a + 0.99 * (b - a))
        }
        Dist::Exponential { mean_ms } => (mean_ms * std::f64::consts::LN_2, mean_ms * 100f64.ln()),
        Dist::Lognormal { median_ms, p99_ms } => (*median_ms, *p99_ms),
        Dist::Mix { .. } => {
            let mut rng = stream(0, 0, 0, 0);
            let mut v: Vec<u64> = (0..4000).map(|_| sample(d, &mut rng)).collect();
            v.sort_unstable();
            (v[2000] as f64, v[3960] as f64)
        }
        Dist::Quantiles { .. } | Dist::Empirical { .. } | Dist::Histogram { .. } => {
            (quantile_ms(d, 0.5), quantile_ms(d, 0.99))
        }
    }
}

/// The distribution of this shape with (about) this median and p99.
pub fn build(shape: Shape, median: f64, p99: f64) -> Dist {
    let median = median.max(1.0);
    let p99 = p99.max(median);
    match shape {
        Shape::Constant => Dist::Constant {
            ms: median.round() as u64,
        },
        Shape::Uniform => {
            // Median (a+b)/2 and p99 a+0.99(b-a), solved for a and b.
            // When that would put a below 1 ms, the p99 wins and the median
            // comes out higher: the page shows the real median beside the slider.
            let width = ((p99 - median) / 0.49).max(0.0);
            let a = (median - width / 2.0).max(1.0);
            let b = (a + (p99 - a) / 0.99).max(a);
            Dist::Uniform {
                min_ms: a.round() as u64,
                max_ms: b.round() as u64,
            }
        }
        // One parameter: the median sets it, the p99 follows.
        Shape::Exponential => Dist::Exponential {
            mean_ms: median / std::f64::consts::LN_2,
        },
        Shape::Mix => Dist::Mix {
            slow_fraction: 0.05,
            fast: Box::new(Dist::Lognormal {
                median_ms: median,
                p99_ms: median * 2.0,
            }),
            slow: Box::new(Dist::Constant {
                ms: p99.round() as u64,
            }),
        },
        // Until the user's data arrives, each data shape starts as the
        // log-logistic through this median and p99.
        Shape::Quantiles => Dist::Quantiles {
            points: vec![[0.5, median], [0.99, p99.max(median + 1.0)]],
        },
        Shape::Empirical => {
            let fit = build(Shape::Quantiles, median, p99);
            let n = COMPACT_QUANTILES;
            Dist::Empirical {
                samples_ms: (0..n)
                    .map(|k| quantile_ms(&fit, (k as f64 + 0.5) / n as f64).round())
                    .collect(),
            }
        }
        Shape::Histogram => {
            // Bucket edges at these quantiles, so the median and the p99
            // are edges; the top 1% share the last bucket.
            let fit = build(Shape::Quantiles, median, p99);
            let edges = [0.1, 0.25, 0.5, 0.75, 0.9, 0.99, 0.999];
            let mut buckets: Vec<[f64; 2]> = Vec::with_capacity(edges.len());
            let mut below = 0.0;
            for (i, p) in edges.into_iter().enumerate() {
                let prev = buckets.last().map_or(0.0, |b| b[0]);
                let up = quantile_ms(&fit, p).round().max(prev + 1.0);
                let share = if i + 1 == edges.len() { 1.0 } else { p };
                buckets.push([up, ((share - below) * 1000.0).round()]);
                below = share;
            }
            Dist::Histogram { buckets }
        }
        Shape::Lognormal => Dist::Lognormal {
            median_ms: median,
            p99_ms: p99,
        },
    }
}

/// The work as a share link carries it, when that differs: a list of
/// durations as its compact quantiles in whole ms (docs/MODEL.md "The
/// compact form"), so that a link stays short whatever was loaded.
pub fn link_form(d: &Dist) -> Option<Dist> {
    let Dist::Empirical { samples_ms } = d else {
        return None;
    };
    let c: Vec<f64> = compact_samples(samples_ms, COMPACT_QUANTILES)
        .into_iter()
        .map(f64::round)
        .collect();
    (c != *samples_ms).then_some(Dist::Empirical { samples_ms: c })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_shape_keeps_its_median_and_p99() {
        for shape in Shape::ALL {
            let d = build(shape, 20_000.0, 30_000.0);
            let (m, q) = median_p99(&d);
            assert!((m / 20_000.0 - 1.0).abs() < 0.1, "{shape}: median {m}");
            if (shape.has_p99() || shape.is_data()) && shape != Shape::Mix {
                assert!((q / 30_000.0 - 1.0).abs() < 0.02, "{shape}: p99 {q}");
            }
        }
    }

    #[test]
    fn the_median_slider_scales_data_by_the_median_ratio() {
        use crate::table::{set, Field, Value};
        let mut s = lease_sim::Scenario::default();
        s.work.dist = Dist::Quantiles {
            points: vec![[0.5, 2000.0], [0.9, 7000.0], [0.99, 20000.0]],
        };
        set(&mut s, Field::Median, &Value::Float(4000.0)).unwrap();
        assert_eq!(
            s.work.dist,
            Dist::Quantiles {
                points: vec![[0.5, 4000.0], [0.9, 14000.0], [0.99, 40000.0]]
            }
        );
        s.work.dist = Dist::Empirical {
            samples_ms: vec![100.0, 300.0, 1000.0],
        };
        set(&mut s, Field::Median, &Value::Float(150.0)).unwrap();
        assert_eq!(
            s.work.dist,
            Dist::Empirical {
                samples_ms: vec![50.0, 150.0, 500.0]
            }
        );
        s.work.dist = Dist::Histogram {
            buckets: vec![[100.0, 1.0], [1000.0, 1.0]],
        };
        set(&mut s, Field::Median, &Value::Float(1000.0)).unwrap();
        assert_eq!(
            s.work.dist,
            Dist::Histogram {
                buckets: vec![[1000.0, 1.0], [10000.0, 1.0]]
            }
        );
        // The p99 follows the data: it has no slider of its own here.
        let e = set(&mut s, Field::P99, &Value::Float(90_000.0)).unwrap_err();
        assert_eq!(e.field, "p99");
    }

    #[test]
    fn a_data_shape_chosen_before_any_data_is_the_log_logistic_of_the_median_and_p99() {
        for shape in [Shape::Quantiles, Shape::Empirical, Shape::Histogram] {
            let d = build(shape, 2000.0, 20_000.0);
            assert_eq!(lease_sim::validate::check_work(&d), Ok(()), "{shape}");
            let (m, q) = median_p99(&d);
            assert!((m / 2000.0 - 1.0).abs() < 0.01, "{shape}: median {m}");
            assert!((q / 20_000.0 - 1.0).abs() < 0.1, "{shape}: p99 {q}");
        }
        // Even when the median and p99 are 1 ms apart, the data is valid.
        for shape in [Shape::Quantiles, Shape::Empirical, Shape::Histogram] {
            let d = build(shape, 1.0, 1.0);
            assert_eq!(lease_sim::validate::check_work(&d), Ok(()), "{shape}");
        }
    }

    #[test]
    fn a_uniform_that_cannot_reach_its_median_keeps_its_p99() {
        // Median 8 s with p99 30 s would need a negative minimum.
        let d = build(Shape::Uniform, 8000.0, 30_000.0);
        let Dist::Uniform { min_ms, .. } = d else {
            panic!("not uniform: {d:?}")
        };
        assert_eq!(min_ms, 1);
        let (m, q) = median_p99(&d);
        assert!((q / 30_000.0 - 1.0).abs() < 0.01, "p99 {q}");
        assert!(m > 8000.0, "median {m}");
    }
}
