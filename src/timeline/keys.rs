//! The keyboard's run focus: arrow keys walk the runs (`lease_view::focus`),
//! the focused run gets a ring drawn around it, and a live region reads its
//! story, so a reader who cannot see the canvas can still follow it.

use lease_sim::run::DeliveryIx;
use lease_view::focus::Step;
use lease_view::{bar_of, delivery_story, row_of, RunIndex};
use web_sys::CanvasRenderingContext2d;

use super::draw::{Frame, AXIS_PX, GUTTER_PX};
use super::TimelineView;
use crate::run_handle::RunHandle;

/// What a key does to the run focus.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FocusKey {
    Move(Step),
    /// Enter: open the focused run's message.
    Open,
}

pub fn focus_key(key: &str) -> Option<FocusKey> {
    Some(match key {
        "ArrowRight" => FocusKey::Move(Step::Next),
        "ArrowLeft" => FocusKey::Move(Step::Previous),
        "ArrowUp" => FocusKey::Move(Step::Up),
        "ArrowDown" => FocusKey::Move(Step::Down),
        "Home" => FocusKey::Move(Step::First),
        "End" => FocusKey::Move(Step::Last),
        "Enter" => FocusKey::Open,
        _ => return None,
    })
}

/// Where the reader is, then the hover card's words for the run:
/// "Message 0, delivery 2 of 2, worker 1. Delivery 2 to worker 1 at 1:00, …".
pub fn announcement(run: &RunHandle, index: &RunIndex, ix: DeliveryIx, upto: u64) -> String {
    let Some(d) = run.deliveries.get(ix as usize) else {
        return String::new();
    };
    let all = run
        .messages
        .get(d.message as usize)
        .map_or(&[][..], |m| m.deliveries.as_slice());
    let nth = all.iter().position(|x| *x == ix).map_or(1, |i| i + 1);
    format!(
        "Message {}, delivery {nth} of {}, worker {}. {}",
        d.message,
        all.len(),
        d.worker,
        delivery_story(run, index, ix, upto)
    )
}

/// A ring two strokes wide (the text colour outside, the background
/// inside) around the focused run, so that it shows on any run's colour and
/// is a shape, not a hue. False when the run is out of view.
pub fn paint_ring(ctx: &CanvasRenderingContext2d, f: &Frame, ix: DeliveryIx) -> bool {
    let Some(d) = f.run.deliveries.get(ix as usize) else {
        return false;
    };
    let bar = bar_of(d, f.run.end_ms);
    let (y, h) = match f.view {
        TimelineView::Workers => f.lanes.row_span(row_of(d, f.index.slots)),
        TimelineView::Messages => (f.rows.row_top(d.message), f.rows.row_px),
    };
    let x = f.x(bar.start);
    let w = (f.x(bar.end.min(f.playhead).max(bar.start)) - x).max(2.0);
    if x + w < GUTTER_PX || x > f.width || y + h < AXIS_PX || y > f.height {
        return false;
    }
    let p = super::draw::Inks::of_scheme(f.dark);
    ctx.save();
    ctx.begin_path();
    ctx.rect(GUTTER_PX, AXIS_PX, f.width - GUTTER_PX, f.height - AXIS_PX);
    ctx.clip();
    ctx.set_line_width(2.0);
    ctx.set_stroke_style_str(&p.text);
    ctx.stroke_rect(x - 3.0, y - 3.0, w + 6.0, h + 6.0);
    ctx.set_line_width(1.0);
    ctx.set_stroke_style_str(&p.background);
    ctx.stroke_rect(x - 1.5, y - 1.5, w + 3.0, h + 3.0);
    ctx.restore();
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arrows_home_end_and_enter_move_or_open_the_focus() {
        assert_eq!(focus_key("ArrowRight"), Some(FocusKey::Move(Step::Next)));
        assert_eq!(focus_key("ArrowUp"), Some(FocusKey::Move(Step::Up)));
        assert_eq!(focus_key("End"), Some(FocusKey::Move(Step::Last)));
        assert_eq!(focus_key("Enter"), Some(FocusKey::Open));
        assert_eq!(focus_key("d"), None);
    }
}
