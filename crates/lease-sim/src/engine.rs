//! Interim engine: returns an empty run so that callers can wire up. The full
//! engine replaces this file.
use crate::report::{Report, Series, Totals};
use crate::{Options, Run, Scenario, SimError};

pub fn simulate(scenario: &Scenario, options: &Options) -> Result<Run, SimError> {
    // validation: see validate.rs
    let end_ms = options
        .until_ms
        .map_or(scenario.duration_ms, |u| u.min(scenario.duration_ms));
    Ok(Run {
        scenario: scenario.clone(),
        visibility_timeout_ms: scenario.broker.visibility_timeout_ms.unwrap_or(30_000),
        worker_count: scenario.workers.count,
        concurrency: scenario.workers.concurrency,
        end_ms,
        events: Vec::new(),
        deliveries: Vec::new(),
        marks: Vec::new(),
        worker_marks: Vec::new(),
        messages: Vec::new(),
        report: Report {
            name: scenario.name.clone(),
            seed: scenario.seed,
            totals: Totals {
                end_ms,
                ..Totals::default()
            },
            series: Series {
                bucket_ms: scenario.bucket_ms,
                ..Series::default()
            },
            ..Report::default()
        },
    })
}
