//! Timeline geometry the page draws with, in f64 (f32 loses precision when
//! zoomed in, as Rerun's `re_time_ruler` notes). No web dependency: tested natively.

/// Milliseconds <-> pixels over a visible domain, kept inside `[0, limit_ms]`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TimeScale {
    pub start_ms: f64,
    pub end_ms: f64,
    pub width_px: f64,
    pub limit_ms: f64,
}

/// The narrowest view: 10 ms across the canvas, so ticks stay whole milliseconds.
pub const MIN_SPAN_MS: f64 = 10.0;

impl TimeScale {
    /// A view fitted to the whole run.
    pub fn fit(limit_ms: f64, width_px: f64) -> Self {
        let limit_ms = limit_ms.max(MIN_SPAN_MS);
        TimeScale {
            start_ms: 0.0,
            end_ms: limit_ms,
            width_px: width_px.max(1.0),
            limit_ms,
        }
    }
    pub fn span(&self) -> f64 {
        self.end_ms - self.start_ms
    }
    pub fn x_of(&self, ms: f64) -> f64 {
        (ms - self.start_ms) / self.span() * self.width_px
    }
    pub fn ms_of(&self, x: f64) -> f64 {
        self.start_ms + x / self.width_px * self.span()
    }
    /// `factor > 1` zooms in; the time under `x_px` stays under it.
    pub fn zoom_about(&mut self, x_px: f64, factor: f64) {
        let at = self.ms_of(x_px);
        let span = (self.span() / factor).clamp(MIN_SPAN_MS, self.limit_ms);
        self.start_ms = at - x_px / self.width_px * span;
        self.end_ms = self.start_ms + span;
        self.clamp();
    }
    /// A drag of `dx_px` to the right moves the content right (earlier times come in).
    pub fn pan_px(&mut self, dx_px: f64) {
        let d = dx_px / self.width_px * self.span();
        self.start_ms -= d;
        self.end_ms -= d;
        self.clamp();
    }
    /// Shift the view back inside `[0, limit_ms]` without changing its span.
    pub fn clamp(&mut self) {
        let span = self.span().clamp(MIN_SPAN_MS, self.limit_ms);
        let start = self.start_ms.clamp(0.0, self.limit_ms - span);
        self.start_ms = start;
        self.end_ms = start + span;
    }
}

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

/// A stable colour per message id: golden-ratio hues spread neighbouring ids
/// far apart, skipping reds (red marks overlapping runs). Lighter in dark mode.
pub fn message_hsl(id: u32, dark: bool) -> (f64, f64, f64) {
    let frac = (id as f64 * 0.618_033_988_749_895).fract();
    let hue = 35.0 + frac * 290.0;
    if dark {
        (hue, 70.0, 65.0)
    } else {
        (hue, 65.0, 42.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zoom_about_the_pointer_keeps_its_time_under_it() {
        let mut s = TimeScale::fit(120_000.0, 1000.0);
        s.zoom_about(500.0, 2.0);
        assert_eq!((s.start_ms, s.end_ms), (30_000.0, 90_000.0));
        assert_eq!(s.ms_of(500.0), 60_000.0);
        s.pan_px(1000.0);
        assert_eq!((s.start_ms, s.end_ms), (0.0, 60_000.0));
    }

    #[test]
    fn two_minutes_across_a_thousand_pixels_ticks_every_ten_seconds() {
        let s = TimeScale::fit(120_000.0, 1000.0);
        let (unit, t) = ticks(&s, 80.0);
        assert_eq!(unit, Unit::S);
        assert_eq!(t.len(), 13);
        assert_eq!(t[9].1, "90 s");
    }

    #[test]
    fn labels_read_in_minutes_and_hours() {
        assert_eq!(label(120_000.0, Unit::Min), "2 min");
        assert_eq!(label(5_400_000.0, Unit::Min), "1 h 30 min");
        assert_eq!(label(7_200_000.0, Unit::H), "2 h");
        assert_eq!(nice_step(576_000.0), 600_000.0);
    }

    #[test]
    fn neighbouring_ids_get_distant_hues() {
        assert_eq!(message_hsl(0, false), (35.0, 65.0, 42.0));
        let (h1, _, _) = message_hsl(1, true);
        assert!((h1 - 214.229_856_737_469_55).abs() < 1e-9);
    }
}
