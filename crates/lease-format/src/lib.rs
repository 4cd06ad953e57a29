//! Numbers and durations as text: how the page, the share link, the exports
//! and the command line write a value, and how they read one back. One
//! formatter everywhere (`display` for what a person reads, `units` for the
//! link), so a label, a link and a CSV never disagree.
//! `base64url` is the share link's `data=` as text, `query` its pairs.
//! Used by every binary: the page, the panels module, the background worker
//! and the command line.

pub mod base64url;
pub mod display;
pub mod query;
pub mod units;
