//! Where the timeline's context menu opens (right-click, a long press, the
//! Menu key): the moment and what lies under it, for the menu in the panels
//! module (`crates/lease-panels`), which does the rest.
use lease_ui::panel::MenuAt;
use lease_view::{extent_of, row_of, TimelineView};
use web_sys::HtmlCanvasElement;
use yew::prelude::*;

use super::draw::{AXIS_PX, GUTTER_PX};
use super::Timeline;

/// `msg` to the timeline in `ms`: one closure type for every timer of the
/// timeline.
pub fn later(ctx: &Context<Timeline>, ms: u32, msg: super::Msg) -> gloo::timers::callback::Timeout {
    let link = ctx.link().clone();
    gloo::timers::callback::Timeout::new(ms, move || link.send_message(msg))
}

/// A press held this long without moving opens the menu on touch.
pub const LONG_PRESS_MS: u32 = 500;
/// A fault's mark within this many pixels of the pointer is under it.
const NEAR_PX: f64 = 6.0;

impl Timeline {
    /// The menu at a point of the canvas, in CSS pixels within it.
    pub(super) fn menu_at_point(&self, ctx: &Context<Self>, x: f64, y: f64) -> MenuAt {
        let props = ctx.props();
        let scale = self.scale(ctx);
        let t = scale
            .ms_of(x - GUTTER_PX)
            .clamp(0.0, props.run.end_ms as f64)
            .round() as u64;
        let hit = self.hit(ctx, x, y);
        let (lanes, _) = self.layout(ctx);
        let lane = (self.view == TimelineView::Workers)
            .then(|| lanes.row_at(y).map(|r| r.worker()))
            .flatten();
        let mut at = self.menu_base(ctx, x, y, t);
        at.worker = lane;
        if let Some(h) = hit {
            at.message = Some(h.message);
            if let Some(d) = h
                .delivery
                .and_then(|ix| props.run.deliveries.get(ix as usize))
            {
                at.worker = Some(d.worker);
                at.receipt = Some(d.receipt);
                at.run_end_ms = Some(extent_of(d, props.run.end_ms).1);
            }
        }
        at
    }

    /// The menu from the keyboard: at the selected message's run under the
    /// playhead (or its last run before it; its middle while the playhead
    /// is at the end), else at the view's centre.
    pub(super) fn menu_at_keys(&self, ctx: &Context<Self>) -> MenuAt {
        let props = ctx.props();
        let run = &props.run;
        let scale = self.scale(ctx);
        let t = props.playhead_ms;
        // The run the arrow keys are on first: the menu opens where the
        // keyboard is.
        let focused = self
            .focus
            .and_then(|ix| run.deliveries.get(ix as usize).map(|d| (ix, d)));
        let chosen = focused.or_else(|| {
            props.selected_message.and_then(|m| {
                let ds = &run.messages.get(m as usize)?.deliveries;
                let of = |ix: &u32| run.deliveries.get(*ix as usize).map(|d| (*ix, d));
                ds.iter()
                    .filter_map(of)
                    .filter(|(_, d)| d.received_at <= t)
                    .find(|(_, d)| extent_of(d, run.end_ms).1 >= t)
                    .or_else(|| ds.iter().filter_map(of).rfind(|(_, d)| d.received_at <= t))
                    .or_else(|| ds.first().and_then(of))
            })
        });
        let Some((_, d)) = chosen else {
            let mid = (scale.start_ms + scale.end_ms) / 2.0;
            let (x, y) = (GUTTER_PX + scale.x_of(mid), (AXIS_PX + self.css_h) / 2.0);
            return self.menu_at_point(ctx, x, y);
        };
        let (lanes, rows) = self.layout(ctx);
        let (from, to) = extent_of(d, run.end_ms);
        // The playhead at the end (where a run first shows) is a moment
        // nothing follows: the run's middle instead.
        let at_t = if t >= run.end_ms {
            from + (to - from) / 2
        } else {
            t.max(from).min(to)
        };
        let y = match self.view {
            TimelineView::Workers => {
                let (top, h) = lanes.row_span(row_of(d, self.index.slots));
                top + h / 2.0
            }
            TimelineView::Messages => rows.row_top(d.message) + rows.row_px / 2.0,
        };
        let x = GUTTER_PX + scale.x_of(at_t as f64).clamp(0.0, self.plot_w());
        let mut at = self.menu_base(ctx, x, y, at_t);
        at.worker = Some(d.worker);
        at.message = Some(d.message);
        at.receipt = Some(d.receipt);
        at.run_end_ms = Some(to);
        at
    }

    fn menu_base(&self, ctx: &Context<Self>, x: f64, y: f64, t_ms: u64) -> MenuAt {
        let scale = self.scale(ctx);
        let (left, top) = self
            .canvas
            .cast::<HtmlCanvasElement>()
            .map(|c| {
                let r = c.get_bounding_client_rect();
                (r.left(), r.top())
            })
            .unwrap_or_default();
        MenuAt {
            t_ms,
            near_ms: (scale.ms_per_px() * NEAR_PX).ceil() as u64,
            x: left + x,
            y: top + y,
            ..MenuAt::default()
        }
    }
}
