//! Chart geometry: nice axis maxima and tick values. Pure, tested natively.

use lease_format::decimal::fixed;

/// An axis label: 12k, 340, 2.5.
pub fn fmt_value(v: f64) -> String {
    if v >= 10_000.0 {
        format!("{}k", fixed(v / 1000.0, 0))
    } else if v.fract() == 0.0 || v >= 100.0 {
        fixed(v, 0)
    } else {
        fixed(v, 1)
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

pub fn tick_label(t: u64) -> String {
    let m = t as f64 / 60_000.0;
    if m >= 1.0 || t == 0 {
        let s = fixed(m, 1);
        s.strip_suffix(".0").map(str::to_string).unwrap_or(s) + " min"
    } else {
        format!("{} s", t / 1000)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        assert_eq!(tick_label(300_000), "5 min");
        assert_eq!(tick_label(30_000), "30 s");
    }
}
