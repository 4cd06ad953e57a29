//! Tick choice and tick labels for the time axis.

use crate::scale::TimeScale;

/// The unit tick labels are written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    Ms,
    S,
    Min,
    H,
}

/// Nice steps: 1/2/5 x 10^k within a unit, and 30 s, 15 and 30 min, 3/6/12 h at
/// the seams, because a 50 s step would label ticks "1 min 40 s".
const STEPS: [f64; 25] = [
    1.0, 2.0, 5.0, 10.0, 20.0, 50.0, 100.0, 200.0, 500.0, 1e3, 2e3, 5e3, 1e4, 2e4, 3e4, 6e4, 12e4,
    3e5, 6e5, 9e5, 18e5, 36e5, 108e5, 216e5, 432e5,
];

/// The smallest nice step at least `min_step_ms` long.
pub fn nice_step(min_step_ms: f64) -> f64 {
    STEPS
        .iter()
        .copied()
        .find(|s| *s >= min_step_ms)
        .unwrap_or_else(|| {
            let days = (min_step_ms / 864e5).ceil();
            days * 864e5
        })
}

pub fn unit_of(step_ms: f64) -> Unit {
    if step_ms < 1e3 {
        Unit::Ms
    } else if step_ms < 6e4 {
        Unit::S
    } else if step_ms < 36e5 {
        Unit::Min
    } else {
        Unit::H
    }
}

/// "250 ms", "90 s", "2 min", "1 h 30 min", "2 h".
pub fn label(ms: f64, unit: Unit) -> String {
    let ms = ms.round() as u64;
    match unit {
        Unit::Ms => format!("{ms} ms"),
        Unit::S => format!("{} s", ms / 1000),
        Unit::Min | Unit::H => {
            let min = ms / 60_000;
            match (min / 60, min % 60) {
                (0, m) => format!("{m} min"),
                (h, 0) => format!("{h} h"),
                (h, m) => format!("{h} h {m} min"),
            }
        }
    }
}

/// Ticks across the visible domain, at least `min_px` apart.
pub fn ticks(scale: &TimeScale, min_px: f64) -> (Unit, Vec<(f64, String)>) {
    let step = nice_step(min_px / scale.width_px * scale.span());
    let unit = unit_of(step);
    let mut out = Vec::new();
    let mut k = (scale.start_ms / step).ceil();
    while k * step <= scale.end_ms {
        out.push((k * step, label(k * step, unit)));
        k += 1.0;
    }
    (unit, out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_minutes_across_a_thousand_pixels_ticks_every_ten_seconds() {
        let s = TimeScale::fit(120_000.0, 1000.0);
        let (unit, t) = ticks(&s, 80.0);
        assert_eq!(unit, Unit::S);
        assert_eq!(t.len(), 13);
        assert_eq!(t[9].1, "90 s");
    }

    #[test]
    fn thirty_minutes_tick_every_two_minutes_or_five_when_sparse() {
        let s = TimeScale::fit(1_800_000.0, 1200.0);
        let (unit, t) = ticks(&s, 80.0);
        assert_eq!(unit, Unit::Min);
        assert_eq!(t.len(), 16);
        assert_eq!(t[1].1, "2 min");
        assert_eq!(t[15].1, "30 min");
        let (_, sparse) = ticks(&s, 200.0);
        assert_eq!(sparse.len(), 7);
        assert_eq!(sparse[1].1, "5 min");
    }

    #[test]
    fn a_zoomed_view_ticks_from_its_first_whole_step() {
        let mut s = TimeScale::fit(120_000.0, 1000.0);
        s.start_ms = 61_234.0;
        s.end_ms = 62_234.0;
        let (unit, t) = ticks(&s, 80.0);
        assert_eq!(unit, Unit::Ms);
        assert_eq!(t[0].0, 61_300.0);
        assert_eq!(t[0].1, "61300 ms");
        assert_eq!(t.len(), 10);
    }

    #[test]
    fn the_step_after_twenty_seconds_is_thirty_not_fifty() {
        assert_eq!(nice_step(21_000.0), 30_000.0);
        assert_eq!(nice_step(31_000.0), 60_000.0);
        assert_eq!(nice_step(1.0), 1.0);
        assert_eq!(nice_step(50_000_000.0), 86_400_000.0);
        assert_eq!(nice_step(100_000_000.0), 172_800_000.0);
    }

    #[test]
    fn labels_read_in_minutes_and_hours() {
        assert_eq!(label(120_000.0, Unit::Min), "2 min");
        assert_eq!(label(5_400_000.0, Unit::Min), "1 h 30 min");
        assert_eq!(label(7_200_000.0, Unit::H), "2 h");
        assert_eq!(nice_step(576_000.0), 600_000.0);
    }
}
