//! Timeline geometry the page draws with, in f64 (f32 loses precision when
//! zoomed in, as Rerun's `re_time_ruler` notes). No web dependency: tested
//! natively. The page reads a `lease_sim::Run` through these functions and
//! never re-derives a broker rule.

pub mod arrow;
pub mod density;
pub mod export;
pub mod format;
pub mod hit;
pub mod index;
pub mod lanes;
pub mod outages;
pub mod scale;
pub mod states;
pub mod story;
pub mod ticks;

#[cfg(test)]
mod fixture;

pub use arrow::arrow_head;
pub use density::{Column, Span, Strip};
pub use format::{clock, duration};
pub use hit::{hit_message_view, hit_worker_view};
pub use index::{BinWindow, IndexBuilder, RunIndex};
pub use lanes::{bar_of, extent_of, row_of, Bar, MessageRows, Row, WorkerLanes};
pub use outages::{Outage, Outages};
pub use scale::{TimeScale, MIN_SPAN_MS};
pub use states::{message_states, Segment, State};
pub use story::{delivery_story, message_story};
pub use ticks::{label, nice_step, ticks, unit_of, Unit};

/// How many hues message colours are drawn from: few enough that the
/// timeline fills every run of a hue at once (one fill per hue), while
/// golden-ratio steps still give neighbouring ids distant hues.
pub const MESSAGE_HUES: usize = 24;

/// A stable colour per message id: golden-ratio hues spread neighbouring ids
/// far apart, skipping reds (red marks overlapping runs), rounded to one of
/// `MESSAGE_HUES`, so the canvas and the SVG export agree. Lighter in dark
/// mode.
pub fn message_hsl(id: u32, dark: bool) -> (f64, f64, f64) {
    hue_hsl(message_hue(id), dark)
}

/// Which of the `MESSAGE_HUES` hues message `id` is drawn in.
pub fn message_hue(id: u32) -> usize {
    let frac = (id as f64 * 0.618_033_988_749_895).fract();
    (frac * (MESSAGE_HUES - 1) as f64).round() as usize
}

/// Hue number `index` (of `MESSAGE_HUES`), as hue, saturation and lightness.
pub fn hue_hsl(index: usize, dark: bool) -> (f64, f64, f64) {
    let hue = 35.0 + index.min(MESSAGE_HUES - 1) as f64 / (MESSAGE_HUES - 1) as f64 * 290.0;
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
    fn neighbouring_ids_get_distant_hues() {
        assert_eq!(message_hsl(0, false), (35.0, 65.0, 42.0));
        // Id 1 is 0.618 of the way along: hue 14 of the 23 steps.
        assert_eq!(message_hue(1), 14);
        let (h1, _, _) = message_hsl(1, true);
        assert!((h1 - (35.0 + 14.0 / 23.0 * 290.0)).abs() < 1e-9);
        // The next ids land far from it and from each other.
        let hues: Vec<usize> = (0..6).map(message_hue).collect();
        assert!(
            hues.windows(2).all(|w| w[0].abs_diff(w[1]) >= 4),
            "{hues:?}"
        );
    }
}
