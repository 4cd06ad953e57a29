//! Milliseconds <-> pixels, in f64: f32 loses precision when zoomed in, as
//! Rerun's `re_time_ruler` notes.

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
    /// Milliseconds covered by `px` pixels at this zoom.
    pub fn ms_per_px(&self) -> f64 {
        self.span() / self.width_px
    }
    /// The canvas was resized: keep the visible domain, change only the pixels.
    pub fn set_width(&mut self, width_px: f64) {
        self.width_px = width_px.max(1.0);
    }
    /// A new run came in: keep the view where it was (a slider moved; the
    /// reader's zoom should survive), clamped to the new run's length. A
    /// view that showed the whole old run shows the whole new one.
    pub fn set_limit(&mut self, limit_ms: f64) {
        let limit_ms = limit_ms.max(MIN_SPAN_MS);
        let was_fit = self.start_ms <= 0.0 && self.end_ms >= self.limit_ms;
        self.limit_ms = limit_ms;
        if was_fit {
            self.start_ms = 0.0;
            self.end_ms = limit_ms;
        }
        self.clamp();
    }
    /// `factor > 1` zooms in; the time under `x_px` stays under it.
    pub fn zoom_about(&mut self, x_px: f64, factor: f64) {
        if !(factor.is_finite() && factor > 0.0) {
            return;
        }
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
    fn sixty_seconds_across_six_hundred_pixels_is_a_hundred_ms_a_pixel() {
        let s = TimeScale::fit(60_000.0, 600.0);
        assert_eq!(s.x_of(30_000.0), 300.0);
        assert_eq!(s.ms_of(150.0), 15_000.0);
        assert_eq!(s.ms_per_px(), 100.0);
    }

    #[test]
    fn zooming_at_the_left_edge_keeps_zero_at_the_edge() {
        let mut s = TimeScale::fit(100_000.0, 1000.0);
        s.zoom_about(0.0, 4.0);
        assert_eq!((s.start_ms, s.end_ms), (0.0, 25_000.0));
    }

    #[test]
    fn zoom_out_past_the_run_stops_at_the_whole_run() {
        let mut s = TimeScale::fit(100_000.0, 1000.0);
        s.zoom_about(800.0, 2.0);
        s.zoom_about(100.0, 0.01);
        assert_eq!((s.start_ms, s.end_ms), (0.0, 100_000.0));
    }

    #[test]
    fn zoom_in_stops_at_ten_milliseconds() {
        let mut s = TimeScale::fit(100_000.0, 1000.0);
        s.zoom_about(500.0, 1e9);
        assert_eq!(s.span(), MIN_SPAN_MS);
        assert_eq!((s.start_ms, s.end_ms), (49_995.0, 50_005.0));
    }

    #[test]
    fn pan_past_the_end_stops_at_the_end() {
        let mut s = TimeScale::fit(100_000.0, 1000.0);
        s.zoom_about(0.0, 10.0);
        s.pan_px(-50_000.0);
        assert_eq!((s.start_ms, s.end_ms), (90_000.0, 100_000.0));
    }

    #[test]
    fn a_bad_zoom_factor_changes_nothing() {
        let mut s = TimeScale::fit(100_000.0, 1000.0);
        s.zoom_about(10.0, f64::NAN);
        s.zoom_about(10.0, 0.0);
        assert_eq!(s, TimeScale::fit(100_000.0, 1000.0));
    }

    #[test]
    fn a_new_run_keeps_the_zoom_or_the_fit() {
        let mut fitted = TimeScale::fit(100_000.0, 1000.0);
        fitted.set_limit(200_000.0);
        assert_eq!((fitted.start_ms, fitted.end_ms), (0.0, 200_000.0));

        let mut zoomed = TimeScale::fit(100_000.0, 1000.0);
        zoomed.zoom_about(1000.0, 4.0);
        assert_eq!((zoomed.start_ms, zoomed.end_ms), (75_000.0, 100_000.0));
        zoomed.set_limit(80_000.0);
        assert_eq!((zoomed.start_ms, zoomed.end_ms), (55_000.0, 80_000.0));
    }

    #[test]
    fn resizing_keeps_the_domain() {
        let mut s = TimeScale::fit(100_000.0, 1000.0);
        s.set_width(500.0);
        assert_eq!(s.x_of(50_000.0), 250.0);
    }
}
