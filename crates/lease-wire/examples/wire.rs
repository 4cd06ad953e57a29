//! `cargo run --release -p lease-wire --example wire [100k|1m]`: how
//! many bytes `wire::encode` makes and how long it and `wire::decode` take,
//! for a 1,000,000-message run summarised as the page's worker summarises it
//! and for the 100,000-message bench run whole (both by default). Prints
//! figures; asserts only that the run comes back equal.
//!
//! The page decodes on its main thread, which must never block for more than
//! 50 ms, and wasm runs about 1.5-2x slower than this native build: the
//! summarised 1M run should decode here in under 10 ms.

use std::time::Instant;

use lease_sim::{bench_scenarios, shipped, simulate, Options, Run, Scenario, SummaryLimits};
use lease_wire as wire;

/// Mirrors the page's limits (`lease_jobs::run_job::PAGE_LIMITS`), so that these
/// figures are the ones the page sees; change both together.
const PAGE_DELIVERIES: usize = 100_000;
const PAGE_EVENTS: usize = 2_000_000;
const PAGE_LIMITS: SummaryLimits = SummaryLimits {
    deliveries: PAGE_DELIVERIES,
    events: PAGE_EVENTS,
};

/// The largest run the page offers: a million messages waiting at t = 0,
/// drained by 100 workers of 10 handlers each over 15 minutes of sub-second
/// work.
fn one_million_on_the_page() -> Scenario {
    let mut s = shipped::find("sub-second-work")
        .expect("sub-second-work is shipped")
        .scenario;
    s.name = "wire-1m".into();
    s.seed = 1;
    s.duration_ms = 15 * 60_000;
    s.arrivals.backlog = 1_000_000;
    s.arrivals.rate_per_s = 0.0;
    s.workers.count = 100;
    s.workers.concurrency = 10;
    s
}

fn measure(label: &str, run: &Run) {
    let mut best = (f64::INFINITY, f64::INFINITY);
    let mut bytes = Vec::new();
    for _ in 0..5 {
        let t = Instant::now();
        bytes = wire::encode(run);
        best.0 = best.0.min(t.elapsed().as_secs_f64());
        let t = Instant::now();
        let back = wire::decode(&bytes).expect("an encoded run decodes");
        best.1 = best.1.min(t.elapsed().as_secs_f64());
        assert!(back == *run, "the decoded run differs");
    }
    println!(
        "{label}: {} deliveries, {} events, {} messages kept",
        run.deliveries.len(),
        run.events.len(),
        run.messages.len(),
    );
    if let Some(s) = &run.summarised {
        println!(
            "  summarised: kept_until_ms {}, {} outcomes, of {} deliveries, {} events",
            s.kept_until_ms,
            s.fates.len(),
            s.deliveries_total,
            s.events_total,
        );
    }
    println!(
        "  {} bytes ({:.2} MB), encode {:.2} ms, decode {:.2} ms (best of 5)",
        bytes.len(),
        bytes.len() as f64 / 1e6,
        best.0 * 1e3,
        best.1 * 1e3
    );
}

fn main() {
    let which = std::env::args().nth(1);
    if which.as_deref() != Some("100k") {
        // As the page's worker runs it (`lease_jobs::run_job`): the log past the
        // page's limit is counted, not stored, then the run is summarised.
        let options = Options {
            keep_events: Some(PAGE_EVENTS as u64),
            ..Options::default()
        };
        let mut run =
            simulate(&one_million_on_the_page(), &options).expect("the 1M scenario is valid");
        run.summarise(PAGE_LIMITS);
        measure("1M messages, summarised with the page's limits", &run);
    }
    if which.as_deref() != Some("1m") {
        let run = simulate(&bench_scenarios::hundred_thousand(), &Options::default())
            .expect("the bench scenario is valid");
        measure("100k messages, whole", &run);
    }
}
