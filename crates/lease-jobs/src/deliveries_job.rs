//! The timeline as a table: one row per delivery of the run the page holds,
//! sorted by a column and cut to one page, for the "As a table" panel.
//!
//! Why the worker: a million-message run has a hundred thousand deliveries
//! on the page; sorting them would hold the tab. The worker computes the run
//! again from the scenario (the engine is deterministic), summarised as the
//! page's copy is, so its rows are the timeline's runs.

use lease_sim::run::Run;
use lease_sim::Scenario;
use lease_view::past_limit;
use lease_view::story::outcome_word_in;
use serde::{Deserialize, Serialize};

/// A column the table sorts by.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Column {
    Message,
    Worker,
    Receipt,
    Start,
    End,
    Outcome,
    Overlap,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DeliveriesJob {
    /// Replies carry it.
    pub id: u32,
    pub scenario: Scenario,
    pub sort: Column,
    pub descending: bool,
    /// The first row of the page, counted from 0 in the sorted order.
    pub offset: usize,
    /// Rows a page.
    pub limit: usize,
}

/// One delivery as the table shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DeliveryRow {
    pub message: u32,
    pub worker: u32,
    pub receipt: u32,
    /// When the handler started; `None`: it never did (it waited in the
    /// worker's buffer until the lease ran out).
    pub start_ms: Option<u64>,
    /// When the handler stopped; `None`: it was still running (or hung).
    pub end_ms: Option<u64>,
    pub outcome: String,
    /// On a message's last delivery, its end past the delivery limit in the
    /// timeline's words ("DLQ expired", "dropped (expired)", "stays,
    /// advisory (failed)"); `None` on every other row.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub past_limit: Option<String>,
    /// The earlier run of the same message it overlapped: its receipt and worker.
    pub overlaps: Option<(u32, u32)>,
}

/// One page of rows and how many there are in all.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DeliveriesPage {
    pub rows: Vec<DeliveryRow>,
    pub total: usize,
}

/// Rows a page at most: a larger `limit` is cut to it.
pub const MAX_LIMIT: usize = 500;

/// Runs the job's scenario as the page does and reads one page of it.
pub fn run(job: &DeliveriesJob) -> Result<DeliveriesPage, String> {
    let run =
        crate::run_job::simulate_for_page(&job.scenario, &mut |_| {}).map_err(|e| e.to_string())?;
    Ok(page_of(
        &run,
        job.sort,
        job.descending,
        job.offset,
        job.limit,
    ))
}

/// One page of the run's deliveries sorted by `sort` (ties in delivery
/// order, which is the order they were received in, either way).
pub fn page_of(
    run: &Run,
    sort: Column,
    descending: bool,
    offset: usize,
    limit: usize,
) -> DeliveriesPage {
    let ds = &run.deliveries;
    let mut order: Vec<u32> = (0..ds.len() as u32).collect();
    let overlap_key = |i: u32| {
        ds[i as usize]
            .overlaps
            .and_then(|t| ds.get(t as usize))
            .map_or(u64::MAX, |t| t.receipt as u64)
    };
    // A missing time sorts after every time: a run that never started or
    // never stopped comes last going up.
    let key = |i: u32| -> (u64, u64) {
        let d = &ds[i as usize];
        match sort {
            Column::Message => (d.message as u64, d.receipt as u64),
            Column::Worker => (d.worker as u64, d.received_at),
            Column::Receipt => (d.receipt as u64, d.message as u64),
            Column::Start => (d.started_at.unwrap_or(u64::MAX), 0),
            Column::End => (d.ended_at.unwrap_or(u64::MAX), 0),
            // Sorted by its word, below.
            Column::Outcome => (0, 0),
            Column::Overlap => (overlap_key(i), d.message as u64),
        }
    };
    order.sort_by(|a, b| {
        let by = if sort == Column::Outcome {
            outcome_word_in(run, &ds[*a as usize]).cmp(outcome_word_in(run, &ds[*b as usize]))
        } else {
            key(*a).cmp(&key(*b))
        };
        // Ties keep delivery order either way.
        (if descending { by.reverse() } else { by }).then(a.cmp(b))
    });
    let limit = limit.clamp(1, MAX_LIMIT);
    let rows = order
        .iter()
        .skip(offset)
        .take(limit)
        .map(|&i| {
            let d = &ds[i as usize];
            DeliveryRow {
                message: d.message,
                worker: d.worker,
                receipt: d.receipt,
                start_ms: d.started_at,
                end_ms: d.ended_at,
                outcome: outcome_word_in(run, d).to_string(),
                past_limit: run
                    .messages
                    .get(d.message as usize)
                    .filter(|m| m.deliveries.last() == Some(&i))
                    .and_then(|m| past_limit(m.fate))
                    .map(|(fate, _, cause)| fate.mark(cause)),
                overlaps: d
                    .overlaps
                    .and_then(|t| ds.get(t as usize))
                    .map(|t| (t.receipt, t.worker)),
            }
        })
        .collect();
    DeliveriesPage {
        rows,
        total: ds.len(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ninety_second_message() -> Run {
        let s = lease_sim::shipped::find("ninety-second-message")
            .unwrap()
            .scenario;
        crate::run_job::simulate_for_page(&s, &mut |_| {}).unwrap()
    }

    #[test]
    fn the_second_run_of_the_ninety_second_message_overlaps_the_first() {
        let run = ninety_second_message();
        let page = page_of(&run, Column::Start, false, 0, 50);
        assert_eq!(page.total, run.deliveries.len());
        let second = &page.rows[1];
        assert_eq!((second.receipt, second.worker), (2, 1));
        assert_eq!(second.start_ms, Some(60_000));
        assert_eq!(second.overlaps, Some((1, 0)));
        assert_eq!(page.rows[0].overlaps, None);
    }

    #[test]
    fn sorting_by_a_column_going_down_puts_its_largest_first() {
        let run = ninety_second_message();
        let up = page_of(&run, Column::Receipt, false, 0, 50);
        let down = page_of(&run, Column::Receipt, true, 0, 50);
        let last = up.rows.last().unwrap().receipt;
        assert_eq!(down.rows[0].receipt, last);
        assert!(last > up.rows[0].receipt);
        let by_worker = page_of(&run, Column::Worker, false, 0, 50);
        assert!(by_worker
            .rows
            .windows(2)
            .all(|w| w[0].worker <= w[1].worker));
    }

    #[test]
    fn a_page_is_the_rows_after_its_offset_and_no_more_than_its_limit() {
        let s = lease_sim::shipped::find("clip-surge").unwrap().scenario;
        let run = crate::run_job::simulate_for_page(&s, &mut |_| {}).unwrap();
        let all = page_of(&run, Column::Message, false, 0, MAX_LIMIT);
        let second = page_of(&run, Column::Message, false, 50, 50);
        assert!(all.total > 100, "clip-surge has {} deliveries", all.total);
        assert_eq!(second.rows.len(), 50);
        assert_eq!(second.rows[..], all.rows[50..100]);
        let past = page_of(&run, Column::Message, false, all.total, 50);
        assert!(past.rows.is_empty());
        assert_eq!(past.total, all.total);
    }

    #[test]
    fn the_last_delivery_of_a_message_past_its_limit_names_its_fate() {
        use lease_sim::scenario::PastLimit;
        for (past, said) in [
            (PastLimit::DeadLetter, "DLQ expired"),
            (PastLimit::Drop, "dropped (expired)"),
            (PastLimit::Stay, "stays, advisory (expired)"),
        ] {
            let mut s = lease_sim::shipped::find("ninety-second-message")
                .unwrap()
                .scenario;
            s.broker.max_receive_count = Some(Some(2));
            s.broker.past_limit = Some(past);
            let run = crate::run_job::simulate_for_page(&s, &mut |_| {}).unwrap();
            let page = page_of(&run, Column::Receipt, false, 0, 50);
            let named: Vec<(u32, Option<&str>)> = page
                .rows
                .iter()
                .map(|r| (r.receipt, r.past_limit.as_deref()))
                .collect();
            assert_eq!(named, vec![(1, None), (2, Some(said))], "{past:?}");
        }
    }

    #[test]
    fn a_job_reads_back_as_the_panel_wrote_it() {
        let job = crate::Job::Deliveries(DeliveriesJob {
            id: 3,
            scenario: Scenario::default(),
            sort: Column::Overlap,
            descending: true,
            offset: 50,
            limit: 50,
        });
        assert_eq!(crate::Job::from_json(&job.to_json()), Ok(job));
    }
}
