//! What a stored run costs in memory, by part (issue "Scale and speed": we
//! report bytes per event and per message). Counts the heap bytes in use
//! (lengths, not capacities), so the figure depends on the run alone, not on
//! how the vectors grew.

use crate::report::Series;
use crate::run::{Delivery, DeliveryIx, Mark, MessageRecord, Run, WorkerMark};

/// Heap bytes of a stored run, by part. `Run::footprint` fills it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Footprint {
    pub events: usize,
    pub deliveries: usize,
    pub marks: usize,
    pub worker_marks: usize,
    /// Message records and their delivery lists.
    pub messages: usize,
    /// The report's per-bucket series.
    pub series: usize,
    /// `Summarised`'s per-message columns, if the run was summarised.
    pub summary: usize,
    /// Log entries stored.
    pub events_stored: u64,
    /// Log entries the run logged, stored or not.
    pub events_total: u64,
    /// Messages of the whole run (kept or not).
    pub messages_total: u64,
}

impl Footprint {
    pub fn total(&self) -> usize {
        self.events
            + self.deliveries
            + self.marks
            + self.worker_marks
            + self.messages
            + self.series
            + self.summary
    }

    /// All stored bytes over every event the run logged.
    pub fn bytes_per_event(&self) -> f64 {
        self.total() as f64 / self.events_total.max(1) as f64
    }

    /// All stored bytes over every message of the run.
    pub fn bytes_per_message(&self) -> f64 {
        self.total() as f64 / self.messages_total.max(1) as f64
    }

    /// Bytes of one stored log entry.
    pub fn event_bytes_each(&self) -> f64 {
        self.events as f64 / self.events_stored.max(1) as f64
    }
}

fn series_bytes(s: &Series) -> usize {
    Series::u64_columns(s)
        .iter()
        .map(|v| v.len() * size_of::<u64>())
        .sum::<usize>()
        + Series::f64_columns(s)
            .iter()
            .map(|v| v.len() * size_of::<f64>())
            .sum::<usize>()
}

impl Run {
    pub fn footprint(&self) -> Footprint {
        Footprint {
            events: self.events.heap_bytes(),
            deliveries: self.deliveries.len() * size_of::<Delivery>(),
            marks: self.marks.len() * size_of::<Mark>(),
            worker_marks: self.worker_marks.len() * size_of::<WorkerMark>(),
            messages: self.messages.len() * size_of::<MessageRecord>()
                + self
                    .messages
                    .iter()
                    .map(|m| m.deliveries.len() * size_of::<DeliveryIx>())
                    .sum::<usize>(),
            series: series_bytes(&self.report.series),
            summary: self.summarised.as_ref().map_or(0, |s| {
                s.fates.len() + s.receive_counts.len() * size_of::<u32>()
            }),
            events_stored: self.events.len() as u64,
            events_total: self.events.total(),
            messages_total: self
                .summarised
                .as_ref()
                .map_or(self.messages.len() as u64, |s| s.messages_total),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::{shipped, simulate, Options};

    #[test]
    fn the_footprint_adds_up_and_an_event_takes_seventeen_bytes() {
        let s = &shipped::all()[0].scenario;
        let run = simulate(s, &Options::default()).unwrap();
        let f = run.footprint();
        assert_eq!(f.events, run.events.len() * 17);
        assert_eq!(f.event_bytes_each(), 17.0);
        assert!(f.total() > f.events + f.deliveries);
        assert_eq!(f.events_total, run.report.totals.events);
        assert!(f.bytes_per_event() > 17.0);
    }
}
