//! The work shapes built from a team's own data (docs/MODEL.md "Work and
//! the feedback loop"), against random valid data: the quantiles fit goes
//! through its points and never falls, an empirical list is drawn with its
//! own quantiles, a histogram's draws land in its buckets in proportion.

use lease_sim::fit::{fit_errors, quantile_ms};
use lease_sim::scenario::Dist;
use lease_sim::validate::check_work;
use lease_sim::work::{sample, stream};
use proptest::prelude::*;

/// The examples the page's help and docs/MODEL.md show, and a few steep,
/// flat and far-apart ones.
const EXAMPLES: &[&[[f64; 2]]] = &[
    &[[0.5, 2000.0], [0.9, 7000.0], [0.99, 20000.0]],
    &[[0.5, 2000.0], [0.99, 20000.0]],
    &[
        [0.5, 8000.0],
        [0.95, 15000.0],
        [0.99, 45000.0],
        [0.999, 120000.0],
    ],
    &[[0.01, 1.0], [0.5, 2.0], [0.99, 86_400_000.0]],
    &[[0.5, 100.0], [0.9, 101.0], [0.99, 90000.0]],
    &[
        [0.1, 40.0],
        [0.25, 60.0],
        [0.5, 90.0],
        [0.75, 140.0],
        [0.9, 300.0],
        [0.95, 700.0],
        [0.99, 4000.0],
        [0.995, 9000.0],
        [0.999, 60000.0],
    ],
];

/// Whether the fit passes within 1% in ms through every point and never
/// falls, on a fine grid of probabilities and near each point.
fn fits(points: &[[f64; 2]]) -> Result<(), String> {
    for (i, e) in fit_errors(points).into_iter().enumerate() {
        if e.is_nan() || e >= 0.01 {
            return Err(format!("point {i} is {e} away"));
        }
    }
    let d = Dist::Quantiles {
        points: points.to_vec(),
    };
    let mut grid: Vec<f64> = (1..2000).map(|k| f64::from(k) / 2000.0).collect();
    for [p, _] in points {
        grid.extend([p * (1.0 - 1e-9), *p, p + (1.0 - p) * 1e-9]);
    }
    grid.extend([1e-12, 1e-6, 1.0 - 1e-6, 1.0 - 1e-12]);
    grid.sort_by(f64::total_cmp);
    let mut last = 0.0;
    for p in grid {
        let q = quantile_ms(&d, p);
        if q.is_nan() || q < last * (1.0 - 1e-12) {
            return Err(format!("falls at p {p}: {q} after {last}"));
        }
        last = q;
    }
    Ok(())
}

#[test]
fn the_fit_passes_through_every_example_and_never_falls() {
    for points in EXAMPLES {
        assert_eq!(
            check_work(&Dist::Quantiles {
                points: points.to_vec()
            }),
            Ok(())
        );
        if let Err(e) = fits(points) {
            panic!("{points:?}: {e}");
        }
    }
}

/// 2 to 9 points with increasing probabilities in (0, 1) and increasing ms
/// from 1 ms to a day.
fn point_set() -> impl Strategy<Value = Vec<[f64; 2]>> {
    (2usize..=9).prop_flat_map(|n| {
        (
            prop::collection::vec(0.0005f64..0.9995, n),
            prop::collection::vec(0.0f64..7.9, n),
        )
            .prop_filter_map("distinct", |(mut p, mut e)| {
                p.sort_by(f64::total_cmp);
                e.sort_by(f64::total_cmp);
                let ms: Vec<f64> = e.iter().map(|x| 10f64.powf(*x).round().max(1.0)).collect();
                let ok = p.windows(2).all(|w| w[1] > w[0] * (1.0 + 1e-6))
                    && ms.windows(2).all(|w| w[1] > w[0]);
                ok.then(|| p.into_iter().zip(ms).map(|(p, m)| [p, m]).collect())
            })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn the_fit_passes_through_random_points_and_never_falls(points in point_set()) {
        prop_assert_eq!(check_work(&Dist::Quantiles { points: points.clone() }), Ok(()));
        if let Err(e) = fits(&points) {
            prop_assert!(false, "{:?}: {}", points, e);
        }
    }
}

/// The share of `data` at most `x`.
fn share_at_most(data: &[f64], x: f64) -> f64 {
    data.iter().filter(|v| v.round().max(1.0) <= x).count() as f64 / data.len() as f64
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn an_empirical_list_is_drawn_with_its_own_quantiles(
        data in prop::collection::vec(0.0f64..100_000.0, 1..2000),
        seed in any::<u64>(),
    ) {
        let d = Dist::Empirical { samples_ms: data.clone() };
        let mut rng = stream(seed, 1, 2, 3);
        let mut v: Vec<u64> = (0..100_000).map(|_| sample(&d, &mut rng)).collect();
        v.sort_unstable();
        for p in [0.5, 0.9, 0.99] {
            // The draws' p quantile sits where the data's share crosses p.
            let x = v[(p * v.len() as f64) as usize] as f64;
            let below = data.iter().filter(|s| s.round().max(1.0) < x).count() as f64
                / data.len() as f64;
            let at_most = share_at_most(&data, x);
            prop_assert!(below <= p + 0.01 && at_most >= p - 0.01,
                "p{}: draw {} has {} of the data below and {} at most", p, x, below, at_most);
        }
    }

    #[test]
    fn histogram_draws_land_in_their_buckets_with_their_shares(
        widths in prop::collection::vec(20.0f64..10_000.0, 1..12),
        counts in prop::collection::vec(0u32..50, 12),
        seed in any::<u64>(),
    ) {
        let mut up = 0.0;
        let buckets: Vec<[f64; 2]> = widths.iter().zip(&counts).map(|(w, c)| {
            up += w.round();
            [up, f64::from(*c)]
        }).collect();
        prop_assume!(buckets.iter().any(|b| b[1] > 0.0));
        prop_assert_eq!(check_work(&Dist::Histogram { buckets: buckets.clone() }), Ok(()));
        let total: f64 = buckets.iter().map(|b| b[1]).sum();
        let d = Dist::Histogram { buckets: buckets.clone() };
        let mut rng = stream(seed, 1, 2, 3);
        let n = 100_000;
        let mut seen = vec![0usize; buckets.len()];
        for _ in 0..n {
            let x = sample(&d, &mut rng) as f64;
            // Upper bounds are whole ms, so a rounded draw stays inside its
            // bucket, edges included (two buckets share an edge).
            let mut lo = 0.0_f64;
            let mut found = false;
            for (i, [hi, c]) in buckets.iter().enumerate() {
                if *c > 0.0 && x >= lo.max(1.0) - 0.5 && x <= *hi {
                    seen[i] += 1;
                    found = true;
                    break;
                }
                lo = *hi;
            }
            prop_assert!(found, "{} in no bucket of {:?}", x, buckets);
        }
        let width = |i: usize| widths.get(i).map_or(f64::INFINITY, |w| w.round());
        for (i, [_, c]) in buckets.iter().enumerate() {
            let share = seen[i] as f64 / n as f64;
            // A draw that rounds onto a shared edge counts for the lower
            // bucket: about half a ms of each neighbour's width.
            let slack = 0.01 + 0.5 / width(i) + 0.5 / width(i + 1);
            prop_assert!((share - c / total).abs() < slack,
                "bucket {}: {} of draws for {} of the counts", i, share, c / total);
        }
    }
}
