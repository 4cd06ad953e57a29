//! Chart geometry: nice axis maxima and tick values. Pure, tested natively.

/// An axis label: 12k, 340, 2.5.
pub fn fmt_value(v: f64) -> String {
    if v >= 10_000.0 {
        format!("{:.0}k", v / 1000.0)
    } else if v.fract() == 0.0 || v >= 100.0 {
        format!("{v:.0}")
    } else {
        format!("{v:.1}")
    }
}

/// The smallest "nice" number (1, 2, 5 times a power of ten) at or above x.
pub fn nice_max(x: f64) -> f64 {
    if !x.is_finite() || x <= 0.0 {
        return 1.0;
    }
    let p = 10f64.powf(x.log10().floor());
    for m in [1.0, 2.0, 5.0, 10.0] {
        if m * p >= x * 0.999_999 {
            return m * p;
        }
    }
    10.0 * p
}

/// Minute ticks for a run of `end_ms`: about five, at round minute counts.
pub fn time_ticks(end_ms: u64) -> Vec<u64> {
    let minutes = end_ms as f64 / 60_000.0;
    let step_min = if minutes <= 0.0 {
        return vec![0];
    } else {
        nice_max(minutes / 5.0)
    };
    let step = (step_min * 60_000.0).max(1.0) as u64;
    (0..)
        .map(|k| k * step)
        .take_while(|&t| t <= end_ms)
        .collect()
}

/// Where to draw a row of axis labels so that none comes within `gap` of
/// the next or leaves `[left, right]`. Each label (its wanted centre and its
/// measured width, in order) is kept inside the span; when two would still
/// collide, every second label is kept, then every third, and so on, the
/// first always. Returns each kept label's index and left edge.
pub fn fit_labels(at: &[(f64, f64)], left: f64, right: f64, gap: f64) -> Vec<(usize, f64)> {
    let mut placed = Vec::with_capacity(at.len());
    for step in 1..=at.len() {
        placed.clear();
        let mut end = f64::NEG_INFINITY;
        let fits = at.iter().enumerate().step_by(step).all(|(i, &(x, w))| {
            let x0 = (x - w / 2.0).min(right - w).max(left);
            let clear = x0 >= end + gap;
            placed.push((i, x0));
            end = x0 + w;
            clear
        });
        if fits {
            break;
        }
    }
    placed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fitted_labels_never_overlap_and_stay_inside() {
        let gap = 6.0;
        for n in 1..30 {
            for span in [60.0, 120.0, 250.0, 400.0, 900.0] {
                for w in [7.0, 30.0, 42.0, 55.0] {
                    let at: Vec<(f64, f64)> = (0..n)
                        .map(|i| (10.0 + span * i as f64 / n as f64, w))
                        .collect();
                    let kept = fit_labels(&at, 10.0, 10.0 + span, gap);
                    assert_eq!(kept[0].0, 0, "the first label stays");
                    for pair in kept.windows(2) {
                        let ((_, a), (_, b)) = (pair[0], pair[1]);
                        assert!(a + w + gap <= b, "n {n} span {span} w {w}: {kept:?}");
                    }
                    if w <= span {
                        for (_, x0) in &kept {
                            assert!(*x0 >= 10.0 && x0 + w <= 10.0 + span + 1e-9);
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn labels_with_room_are_all_kept_and_crowded_ones_thinned_evenly() {
        let at = [(0.0, 20.0), (50.0, 20.0), (100.0, 20.0), (150.0, 20.0)];
        let all: Vec<usize> = fit_labels(&at, 0.0, 160.0, 6.0)
            .iter()
            .map(|k| k.0)
            .collect();
        assert_eq!(all, [0, 1, 2, 3]);
        // The same labels twice as wide: every second one.
        let at = at.map(|(x, _)| (x, 40.0));
        let some: Vec<usize> = fit_labels(&at, 0.0, 160.0, 6.0)
            .iter()
            .map(|k| k.0)
            .collect();
        assert_eq!(some, [0, 2]);
        // The last one is pulled inside the right end.
        let last = fit_labels(&[(0.0, 10.0), (100.0, 30.0)], 0.0, 100.0, 6.0);
        assert_eq!(last, [(0, 0.0), (1, 70.0)]);
    }

    #[test]
    fn nice_maxima() {
        assert_eq!(nice_max(0.0), 1.0);
        assert_eq!(nice_max(7.0), 10.0);
        assert_eq!(nice_max(38.0), 50.0);
        assert_eq!(nice_max(200.0), 200.0);
    }

    #[test]
    fn minute_ticks() {
        assert_eq!(
            time_ticks(25 * 60_000),
            vec![0, 300_000, 600_000, 900_000, 1_200_000, 1_500_000]
        );
    }
}
