//! Timeline geometry the page draws with, in f64 (f32 loses precision when
//! zoomed in, as Rerun's `re_time_ruler` notes). No web dependency: tested
//! natively. The page reads a `lease_sim::Run` through these functions and
//! never re-derives a broker rule.

pub mod arrow;
pub mod density;
pub mod export;
pub mod focus;
pub mod format;
pub mod hit;
pub mod index;
pub mod lanes;
pub mod limit;
pub mod note;
pub mod outages;
pub mod palette;
pub mod scale;
pub mod states;
pub mod story;
pub mod ticks;
pub mod view;

#[cfg(test)]
mod fixture;

pub use arrow::arrow_head;
pub use density::{Column, Span, Strip};
pub use format::clock;
pub use hit::{hit_message_view, hit_worker_view};
pub use index::{BinWindow, IndexBuilder, RunIndex};
pub use lanes::{
    bar_of, extent_of, lag_of, row_of, Bar, MessageRows, Row, WorkerLanes, AXIS_PX, GUTTER_PX,
};
pub use limit::{past_limit, LimitFate};
pub use outages::{Outage, Outages};
pub use palette::{hue_hsl, message_hsl, message_hue, Colour, Palette, MESSAGE_HUES};
pub use scale::{TimeScale, MIN_SPAN_MS};
pub use states::{message_states, Segment, State};
pub use story::{delivery_story, message_story};
pub use ticks::{label, nice_step, ticks, unit_of, Unit};
pub use view::TimelineView;
