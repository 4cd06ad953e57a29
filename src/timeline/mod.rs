//! The timeline canvas: one lane per worker (or one row per message), runs,
//! leases, heartbeats, acks, redeliveries, dead-letter routing and faults.

use yew::prelude::*;

use crate::run_handle::RunHandle;

#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum TimelineView {
    /// One lane per worker: who ran what, when.
    #[default]
    Workers,
    /// One row per message: available / in flight / dead-lettered over time.
    Messages,
}

#[derive(Properties, PartialEq)]
pub struct TimelineProps {
    pub run: RunHandle,
    /// Playback: draw only what happened before this time.
    pub playhead_ms: u64,
    #[prop_or_default]
    pub view: TimelineView,
    /// The message whose details panel is open (clicked run).
    #[prop_or_default]
    pub selected_message: Option<u32>,
    /// A click on a run selects its message; a click on nothing or the
    /// panel's close button sends `None`.
    #[prop_or_default]
    pub on_select: Callback<Option<u32>>,
    /// The time under the pointer, shared with the charts' cursor.
    #[prop_or_default]
    pub on_cursor: Callback<Option<u64>>,
    #[prop_or_default]
    pub cursor_ms: Option<u64>,
}

#[function_component(Timeline)]
pub fn timeline(props: &TimelineProps) -> Html {
    let _ = props;
    html! { <canvas class="timeline-canvas"></canvas> }
}
