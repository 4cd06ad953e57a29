//! The scenario's editable fields, as one table (`table.rs`): what the
//! page's sliders and selects edit, what a share link's short parameters
//! say, and what the command line's `sweep --param` varies. The words of the
//! scenario's enums come from serde (`names.rs`); the page's work-time
//! shapes from `work.rs`. Native Rust, no web dependency: used by the page
//! (controls, share link) and by the `lease-sim` command line.

pub mod edit;
pub mod names;
mod table;
pub mod work;

pub use table::{
    apply, diff, find, rules_for, set, set_all, Choice, Control, Field, FieldError, Group,
    Override, Range, Rule, Spec, Step, Toggle, Unit, Value, CONTROLS, FIELDS,
};
