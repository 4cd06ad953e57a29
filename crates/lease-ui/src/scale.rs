//! Slider positions (0..=STEPS) to values and back. A timeout from 1 ms to
//! 12 h wants a log scale: equal drags are equal ratios. A field whose
//! values start at 0 (no latency, no backlog) has its 0 at the first
//! position and the log scale after it.

pub const STEPS: u32 = 1000;

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Scale {
    Linear {
        min: f64,
        max: f64,
    },
    /// Both ends > 0.
    Log {
        min: f64,
        max: f64,
    },
    /// 0 at position 0, then `min` (> 0) to `max` on a log scale.
    LogFromZero {
        min: f64,
        max: f64,
    },
}

impl Scale {
    pub fn value(self, pos: u32) -> f64 {
        let f = f64::from(pos.min(STEPS)) / f64::from(STEPS);
        match self {
            Scale::Linear { min, max } => min + f * (max - min),
            Scale::Log { min, max } => min * (max / min).powf(f),
            Scale::LogFromZero { min, max } => match pos.min(STEPS) {
                0 => 0.0,
                p => min * (max / min).powf(f64::from(p - 1) / f64::from(STEPS - 1)),
            },
        }
    }

    pub fn pos(self, value: f64) -> u32 {
        if let Scale::LogFromZero { min, max } = self {
            // 0, below it, or not a number: the first position.
            if value.is_nan() || value <= 0.0 {
                return 0;
            }
            let f = (value.max(min) / min).ln() / (max / min).ln();
            let f = if f.is_finite() {
                f.clamp(0.0, 1.0)
            } else {
                0.0
            };
            return 1 + (f * f64::from(STEPS - 1)).round() as u32;
        }
        let f = match self {
            Scale::Linear { min, max } => (value - min) / (max - min),
            Scale::Log { min, max } => (value.max(min) / min).ln() / (max / min).ln(),
            Scale::LogFromZero { .. } => 0.0,
        };
        if f.is_finite() {
            (f.clamp(0.0, 1.0) * f64::from(STEPS)).round() as u32
        } else {
            0
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn log_scale_ends_and_middle() {
        let s = Scale::Log {
            min: 1000.0,
            max: 900_000.0,
        };
        assert_eq!(s.value(0), 1000.0);
        assert!((s.value(STEPS) - 900_000.0).abs() < 1e-6);
        assert!((s.value(500) - 30_000.0).abs() < 1.0);
        assert_eq!(s.pos(30_000.0), 500);
        assert_eq!(s.pos(1.0), 0);
        assert_eq!(s.pos(f64::NAN), 0);
    }

    #[test]
    fn a_log_scale_from_zero_has_zero_first_then_its_log_span() {
        let s = Scale::LogFromZero {
            min: 1.0,
            max: 1_000_000.0,
        };
        assert_eq!(s.value(0), 0.0);
        assert_eq!(s.value(1), 1.0);
        assert!((s.value(STEPS) - 1_000_000.0).abs() < 1e-6);
        assert_eq!(s.pos(0.0), 0);
        assert_eq!(s.pos(1.0), 1);
        assert_eq!(s.pos(1_000_000.0), STEPS);
        assert_eq!(s.pos(f64::NAN), 0);
        for p in [1, 200, 500, 999] {
            assert_eq!(s.pos(s.value(p)), p);
        }
    }
}
