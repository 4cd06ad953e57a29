//! Files the Export panel offers besides the PNG (which the canvas makes):
//! the timeline as a standalone SVG, the report's series and the
//! per-delivery and per-message history as CSV. Pure string building, no web
//! dependency, so the same bytes come out natively and in wasm32.

pub mod csv;
pub mod svg;

#[cfg(test)]
mod tests;

pub use csv::{deliveries_csv, messages_csv, series_csv};
pub use svg::{timeline_svg, timeline_svg_with_notes, SvgOptions};

use lease_sim::run::{DeadLetterCause, Effect, Fate, LeaseEnd, Outcome};

// The names below are the engine's serde names, written out so this crate
// needs no serde_json; the tests compare them with the serialised values.

pub(crate) fn lease_end_name(e: LeaseEnd) -> &'static str {
    match e {
        LeaseEnd::Acked => "acked",
        LeaseEnd::AckedLate => "acked_late",
        LeaseEnd::Released => "released",
        LeaseEnd::Expired => "expired",
        LeaseEnd::Open => "open",
    }
}

pub(crate) fn outcome_name(o: Outcome) -> &'static str {
    match o {
        Outcome::Acked => "acked",
        Outcome::AckRejected => "ack_rejected",
        Outcome::Error => "error",
        Outcome::Hung => "hung",
        Outcome::Aborted => "aborted",
        Outcome::Skipped => "skipped",
        Outcome::Crashed => "crashed",
        Outcome::NeverStarted => "never_started",
        Outcome::Unfinished => "unfinished",
        Outcome::AckNoOp => "ack_no_op",
    }
}

pub(crate) fn effect_name(e: Effect) -> &'static str {
    match e {
        Effect::NoCommit => "no_commit",
        Effect::Applied => "applied",
        Effect::Duplicate => "duplicate",
        Effect::LostUpdate => "lost_update",
        Effect::FenceRejected => "fence_rejected",
    }
}

pub(crate) fn cause_name(c: DeadLetterCause) -> &'static str {
    match c {
        DeadLetterCause::Expired => "expired",
        DeadLetterCause::Failed => "failed",
    }
}

/// The fate's `state` tag, when it settled, and how its last lease ended
/// for a message past its delivery limit.
pub(crate) fn fate_parts(f: Fate) -> (&'static str, Option<u64>, Option<DeadLetterCause>) {
    match f {
        Fate::Deleted { at } => ("deleted", Some(at), None),
        Fate::DeadLettered { at, cause } => ("dead_lettered", Some(at), Some(cause)),
        Fate::Dropped { at, cause } => ("dropped", Some(at), Some(cause)),
        Fate::Stayed { at, cause } => ("stayed", Some(at), Some(cause)),
        Fate::Available => ("available", None, None),
        Fate::InFlight => ("in_flight", None, None),
    }
}
