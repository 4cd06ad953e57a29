//! What the page and the panels module both draw with or say to each other:
//! which panel is open and the messages between the two wasm modules
//! (`panel`), the crash message (`crash`), embed mode's parts (`embed`),
//! chart axes (`axis`), slider scales and duration labels (`scale`), and
//! bringing a target into view clear of the sticky totals (`scroll`), and the
//! colour scheme (`theme`).
//! Used by the page and the panels module.

pub mod axis;
pub mod crash;
pub mod embed;
pub mod panel;
pub mod scale;
pub mod scroll;
pub mod theme;
