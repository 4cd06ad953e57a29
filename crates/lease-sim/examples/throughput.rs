//! `cargo run --release -p lease-sim --example throughput`: events per
//! second on the 100,000-message scenario, and the wall time and peak memory
//! of a 1,000,000-message run. Prints figures; asserts nothing.

use std::time::Instant;

use lease_sim::run::{Delivery, Event, Mark, MessageRecord};
use lease_sim::{bench_scenarios, simulate, Options};

/// Peak resident memory of this process so far (Linux), in MiB.
fn peak_mib() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024.0)
}

fn main() {
    println!(
        "bytes: event {}, delivery {}, mark {}, message record {}",
        size_of::<Event>(),
        size_of::<Delivery>(),
        size_of::<Mark>(),
        size_of::<MessageRecord>()
    );
    let s = bench_scenarios::hundred_thousand();
    let mut best = f64::INFINITY;
    let mut events = 0;
    for _ in 0..5 {
        let t = Instant::now();
        let run = simulate(&s, &Options::default()).unwrap();
        best = best.min(t.elapsed().as_secs_f64());
        events = run.events.len();
    }
    println!(
        "100k messages: {events} events, best of 5 {:.3} s, {:.2} M events/s",
        best,
        events as f64 / best / 1e6
    );

    let s = bench_scenarios::one_million();
    let t = Instant::now();
    let run = simulate(&s, &Options::default()).unwrap();
    let wall = t.elapsed().as_secs_f64();
    let per_message = run.events.len() as f64 / run.messages.len() as f64;
    println!(
        "1M messages: {} events ({per_message:.1} per message) in {wall:.3} s, {:.2} M events/s, peak memory {:.0} MiB",
        run.events.len(),
        run.events.len() as f64 / wall / 1e6,
        peak_mib().unwrap_or(f64::NAN)
    );
}
