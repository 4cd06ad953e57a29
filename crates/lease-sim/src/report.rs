//! The report: docs/MODEL.md "The report", the command line's `--json` output.
//! Field names are an interface that other people's checks depend on.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct Report {
    pub name: String,
    pub seed: u64,
    pub totals: Totals,
    pub ack_latency_ms: AckLatency,
    /// Count of deliveries -> how many messages were delivered that many
    /// times; "0" counts messages never delivered.
    pub receive_counts: BTreeMap<String, u64>,
    pub series: Series,
    /// Set when the engine stopped the run early because it outgrew its work
    /// budget (its estimate, `MAX_EVENTS` or `Options::max_events`): a
    /// sentence saying when, after how many events, and what to reduce. The
    /// report then covers the run up to `totals.end_ms`. Left out of the JSON
    /// when the run was not stopped, so a normal report is unchanged.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stopped: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct Totals {
    pub arrived: u64,
    pub deleted: u64,
    pub dead_lettered_expired: u64,
    pub dead_lettered_failed: u64,
    pub deliveries: u64,
    pub redeliveries: u64,
    pub expiries: u64,
    pub acks_ok: u64,
    pub acks_rejected: u64,
    pub releases: u64,
    pub releases_rejected: u64,
    pub extensions_ok: u64,
    pub extensions_rejected: u64,
    pub errors: u64,
    pub hangs: u64,
    pub effects: u64,
    pub duplicate_effects: u64,
    /// Handler starts while another run of the same message was executing.
    pub overlapping_runs: u64,
    /// Repeat starts with no other run of the message executing.
    pub sequential_duplicate_runs: u64,
    pub lost_updates: u64,
    pub fence_rejections: u64,
    pub useful_work_ms: u64,
    pub wasted_work_ms: u64,
    /// Messages still available (not delivered or waiting redelivery) at the end.
    pub still_available: u64,
    /// Messages still leased at the end.
    pub still_in_flight: u64,
    pub events: u64,
    pub end_ms: u64,
}

/// The run's transport (the `lease-wire` crate) carries the totals as a
/// column of u64, not as JSON. One list of the fields makes both directions; it names every
/// field (a pattern without `..`, a literal without defaults), so a new
/// counter left out of it is a compile error, not a total that reads back as
/// zero.
macro_rules! totals_counters {
    ($($field:ident),* $(,)?) => {
        /// How many counters a `Totals` holds.
        pub const TOTALS_COUNTERS: usize = [$(stringify!($field)),*].len();

        impl Totals {
            /// The counters in the order the list gives them.
            pub fn counters(&self) -> [u64; TOTALS_COUNTERS] {
                let &Totals { $($field),* } = self;
                [$($field),*]
            }

            /// The inverse of `counters`: the array taken apart by the same
            /// list (a copy, where an iterator's `next` per field was a call
            /// each in the page's decoder).
            pub fn from_counters(counters: [u64; TOTALS_COUNTERS]) -> Totals {
                let [$($field),*] = counters;
                Totals { $($field),* }
            }
        }
    };
}

totals_counters!(
    arrived,
    deleted,
    dead_lettered_expired,
    dead_lettered_failed,
    deliveries,
    redeliveries,
    expiries,
    acks_ok,
    acks_rejected,
    releases,
    releases_rejected,
    extensions_ok,
    extensions_rejected,
    errors,
    hangs,
    effects,
    duplicate_effects,
    overlapping_runs,
    sequential_duplicate_runs,
    lost_updates,
    fence_rejections,
    useful_work_ms,
    wasted_work_ms,
    still_available,
    still_in_flight,
    events,
    end_ms,
);

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct AckLatency {
    /// `None` (JSON null) when no ack was accepted.
    pub p50: Option<u64>,
    pub p99: Option<u64>,
    /// p99 divided by the visibility timeout: the lease health ratio.
    pub p99_over_timeout: Option<f64>,
    /// p99 of each accepted ack's latency over the lease it had at the ack
    /// (from its delivery to the deadline then, extensions included): near
    /// or above 1, acks come at or past their lease's end.
    pub p99_of_lease: Option<f64>,
}

/// One value per bucket of `bucket_ms`. Counters count within the bucket;
/// gauges are sampled at the bucket's end.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct Series {
    pub bucket_ms: u64,
    // counters
    pub arrivals: Vec<u64>,
    pub acks: Vec<u64>,
    /// Accepted acks per minute.
    pub completions_per_min: Vec<f64>,
    /// Commits that gave a message its first effect, per minute.
    pub useful_completions_per_min: Vec<f64>,
    /// Commits that were duplicate effects (lost updates included), per minute.
    pub duplicate_completions_per_min: Vec<f64>,
    pub redeliveries: Vec<u64>,
    pub expiries: Vec<u64>,
    pub dead_letter_expired: Vec<u64>,
    pub dead_letter_failed: Vec<u64>,
    pub extensions_ok: Vec<u64>,
    pub extensions_rejected: Vec<u64>,
    // gauges
    pub queue_depth: Vec<u64>,
    pub in_flight: Vec<u64>,
    pub running_handlers: Vec<u64>,
    pub oldest_in_flight_age_ms: Vec<u64>,
    pub oldest_message_age_ms: Vec<u64>,
}

/// Every series as a column, in one fixed order: the wire format writes them
/// so, and the footprint counts them so.
impl Series {
    pub fn u64_columns(s: &Series) -> [&Vec<u64>; 13] {
        [
            &s.arrivals,
            &s.acks,
            &s.redeliveries,
            &s.expiries,
            &s.dead_letter_expired,
            &s.dead_letter_failed,
            &s.extensions_ok,
            &s.extensions_rejected,
            &s.queue_depth,
            &s.in_flight,
            &s.running_handlers,
            &s.oldest_in_flight_age_ms,
            &s.oldest_message_age_ms,
        ]
    }

    pub fn u64_columns_mut(s: &mut Series) -> [&mut Vec<u64>; 13] {
        [
            &mut s.arrivals,
            &mut s.acks,
            &mut s.redeliveries,
            &mut s.expiries,
            &mut s.dead_letter_expired,
            &mut s.dead_letter_failed,
            &mut s.extensions_ok,
            &mut s.extensions_rejected,
            &mut s.queue_depth,
            &mut s.in_flight,
            &mut s.running_handlers,
            &mut s.oldest_in_flight_age_ms,
            &mut s.oldest_message_age_ms,
        ]
    }

    pub fn f64_columns(s: &Series) -> [&Vec<f64>; 3] {
        [
            &s.completions_per_min,
            &s.useful_completions_per_min,
            &s.duplicate_completions_per_min,
        ]
    }

    pub fn f64_columns_mut(s: &mut Series) -> [&mut Vec<f64>; 3] {
        [
            &mut s.completions_per_min,
            &mut s.useful_completions_per_min,
            &mut s.duplicate_completions_per_min,
        ]
    }
}
