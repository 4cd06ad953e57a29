//! The floating card that tells a hovered message's story.
use lease_view::{message_story, RunIndex};
use yew::prelude::*;

use crate::run_handle::RunHandle;

/// The card sits beside the pointer, flipped to the left near the right edge.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Hover {
    pub message: u32,
    pub delivery: Option<u32>,
    /// Pointer position in CSS pixels within the canvas.
    pub x: f64,
    pub y: f64,
}

const CARD_W: f64 = 340.0;

pub fn card(run: &RunHandle, index: &RunIndex, hover: &Hover, upto: u64, stage_w: f64) -> Html {
    let lines = message_story(run, index, hover.message, upto);
    let left = if hover.x + 16.0 + CARD_W > stage_w {
        (hover.x - 16.0 - CARD_W).max(0.0)
    } else {
        hover.x + 16.0
    };
    let style = format!("left:{left:.0}px;top:{:.0}px", hover.y + 12.0);
    let mut lines = lines.into_iter();
    let title = lines.next().unwrap_or_default();
    html! {
        <div id="hover-card" class="timeline-hover-card" role="tooltip" {style}>
            <p class="timeline-hover-title">{ title }</p>
            { for lines.map(|l| html! { <p>{ l }</p> }) }
            <p class="timeline-hover-hint">{ "Click for every delivery of this message." }</p>
        </div>
    }
}
