//! The report: docs/MODEL.md "The report", the command line's `--json` output.
//! Field names are an interface that other people's checks depend on.

use std::fmt;

use serde::de::{MapAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct Report {
    pub name: String,
    pub seed: u64,
    pub totals: Totals,
    pub ack_latency_ms: AckLatency,
    /// Count of deliveries -> how many messages were delivered that many
    /// times; "0" counts messages never delivered.
    pub receive_counts: ReceiveCounts,
    pub series: Series,
    /// Set when the engine stopped the run early because it outgrew its work
    /// budget (its estimate, `MAX_EVENTS` or `Options::max_events`): a
    /// sentence saying when, after how many events, and what to reduce. The
    /// report then covers the run up to `totals.end_ms`. Left out of the JSON
    /// when the run was not stopped, so a normal report is unchanged.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stopped: Option<String>,
}

/// Count of deliveries, as text -> how many messages were delivered that
/// many times. Sorted by the text ("10" before "2"), each key once: the
/// order and the JSON object of a `BTreeMap<String, u64>`. A run has a few
/// keys.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ReceiveCounts(Vec<(String, u64)>);

impl ReceiveCounts {
    pub fn new() -> ReceiveCounts {
        ReceiveCounts(Vec::new())
    }

    /// Sets the messages of `count`, returning what it held, as a map's
    /// insert does: a key given twice keeps its last value.
    pub fn insert(&mut self, count: String, messages: u64) -> Option<u64> {
        match self.find(&count) {
            Ok(i) => Some(std::mem::replace(&mut self.0[i].1, messages)),
            Err(i) => {
                self.0.insert(i, (count, messages));
                None
            }
        }
    }

    pub fn get(&self, count: &str) -> Option<&u64> {
        self.find(count).ok().map(|i| &self.0[i].1)
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The entries in key order.
    pub fn iter(&self) -> Iter<'_> {
        Iter(self.0.iter())
    }

    pub fn keys(&self) -> impl Iterator<Item = &String> {
        self.0.iter().map(|(k, _)| k)
    }

    pub fn values(&self) -> impl Iterator<Item = &u64> {
        self.0.iter().map(|(_, v)| v)
    }

    fn find(&self, count: &str) -> Result<usize, usize> {
        self.0.binary_search_by(|(k, _)| k.as_str().cmp(count))
    }
}

/// The entries of a `ReceiveCounts` in key order, as a map's `iter` gives
/// them.
pub struct Iter<'a>(std::slice::Iter<'a, (String, u64)>);

impl<'a> Iterator for Iter<'a> {
    type Item = (&'a String, &'a u64);

    fn next(&mut self) -> Option<Self::Item> {
        self.0.next().map(|(k, v)| (k, v))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.0.size_hint()
    }
}

impl<'a> IntoIterator for &'a ReceiveCounts {
    type Item = (&'a String, &'a u64);
    type IntoIter = Iter<'a>;

    fn into_iter(self) -> Iter<'a> {
        self.iter()
    }
}

impl FromIterator<(String, u64)> for ReceiveCounts {
    fn from_iter<I: IntoIterator<Item = (String, u64)>>(entries: I) -> ReceiveCounts {
        let mut counts = ReceiveCounts::new();
        for (count, messages) in entries {
            counts.insert(count, messages);
        }
        counts
    }
}

impl Serialize for ReceiveCounts {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(self.iter())
    }
}

impl<'de> Deserialize<'de> for ReceiveCounts {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<ReceiveCounts, D::Error> {
        struct Counts;

        impl<'de> Visitor<'de> for Counts {
            type Value = ReceiveCounts;

            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an object of receive counts to numbers of messages")
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<ReceiveCounts, A::Error> {
                let mut counts = ReceiveCounts::new();
                while let Some((count, messages)) = map.next_entry()? {
                    counts.insert(count, messages);
                }
                Ok(counts)
            }
        }

        deserializer.deserialize_map(Counts)
    }
}

#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct Totals {
    pub arrived: u64,
    pub deleted: u64,
    pub dead_lettered_expired: u64,
    pub dead_lettered_failed: u64,
    /// Past the delivery limit and dropped (`past_limit: drop`).
    pub dropped: u64,
    /// Past the delivery limit and left in the stream (`past_limit: stay`).
    pub stayed: u64,
    pub deliveries: u64,
    pub redeliveries: u64,
    pub expiries: u64,
    pub acks_ok: u64,
    pub acks_rejected: u64,
    /// Acks of a message already deleted that the broker answered as a
    /// success doing nothing (`deleted_ack: no_op`).
    pub acks_no_op: u64,
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
            /// list.
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
    dropped,
    stayed,
    deliveries,
    redeliveries,
    expiries,
    acks_ok,
    acks_rejected,
    acks_no_op,
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
    /// Messages dropped past the delivery limit (`past_limit: drop`).
    pub dropped: Vec<u64>,
    /// Messages left in the stream past the delivery limit, each with its
    /// advisory (`past_limit: stay`).
    pub stayed: Vec<u64>,
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
    pub fn u64_columns(s: &Series) -> [&Vec<u64>; 15] {
        [
            &s.arrivals,
            &s.acks,
            &s.redeliveries,
            &s.expiries,
            &s.dead_letter_expired,
            &s.dead_letter_failed,
            &s.dropped,
            &s.stayed,
            &s.extensions_ok,
            &s.extensions_rejected,
            &s.queue_depth,
            &s.in_flight,
            &s.running_handlers,
            &s.oldest_in_flight_age_ms,
            &s.oldest_message_age_ms,
        ]
    }

    pub fn u64_columns_mut(s: &mut Series) -> [&mut Vec<u64>; 15] {
        [
            &mut s.arrivals,
            &mut s.acks,
            &mut s.redeliveries,
            &mut s.expiries,
            &mut s.dead_letter_expired,
            &mut s.dead_letter_failed,
            &mut s.dropped,
            &mut s.stayed,
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
