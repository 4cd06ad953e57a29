//! Slider positions (0..=STEPS) to values and back. A timeout from 1 s to
//! 15 min wants a log scale: equal drags are equal ratios.

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
}

impl Scale {
    pub fn value(self, pos: u32) -> f64 {
        let f = f64::from(pos.min(STEPS)) / f64::from(STEPS);
        match self {
            Scale::Linear { min, max } => min + f * (max - min),
            Scale::Log { min, max } => min * (max / min).powf(f),
        }
    }

    pub fn pos(self, value: f64) -> u32 {
        let f = match self {
            Scale::Linear { min, max } => (value - min) / (max - min),
            Scale::Log { min, max } => (value.max(min) / min).ln() / (max / min).ln(),
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
}
