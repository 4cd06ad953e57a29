//! `cargo run --release -p lease-sim --example throughput [100k|1m]`: events
//! per second on the 100,000-message scenario, and the wall time and peak
//! memory of a 1,000,000-message run (both by default), and the bytes the
//! stored run takes per event and per message (`Run::footprint`). Prints figures;
//! asserts nothing. CPU time (user + system) is printed next to wall time
//! because on a shared machine the wall clock also counts other processes.
//!
//! The workspace's release profile is tuned for the wasm bundle's size
//! (`opt-level = "z"`), which slows the native engine measurably; the
//! `native` profile (root Cargo.toml) is the release profile at opt-level 3.

use std::time::Instant;

use lease_sim::log::BYTES_PER_EVENT;
use lease_sim::run::{Delivery, Event, Mark, MessageRecord, Run};
use lease_sim::{bench_scenarios, simulate, Options};

/// Peak resident memory of this process so far (Linux), in MiB.
fn peak_mib() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024.0)
}

/// User and system CPU time of this process so far (Linux), in seconds,
/// assuming the usual 100 clock ticks per second.
fn cpu_s() -> Option<(f64, f64)> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the parenthesised command name; utime and stime are the
    // 14th and 15th fields of the whole line.
    let rest = &stat[stat.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    let tick = |i: usize| f.get(i)?.parse::<f64>().ok().map(|t| t / 100.0);
    Some((tick(11)?, tick(12)?))
}

/// What the stored run takes, per event and per message (`Run::footprint`).
fn print_footprint(label: &str, run: &Run) {
    let f = run.footprint();
    println!(
        "{label}: recorded run {:.1} MB in use, {:.1} bytes per event, {:.0} bytes per message \
         (events {:.1} B each: {:.1} MB; deliveries {:.1} MB; marks {:.1} MB; messages {:.1} MB; series {:.2} MB)",
        f.total() as f64 / 1e6,
        f.bytes_per_event(),
        f.bytes_per_message(),
        f.event_bytes_each(),
        f.events as f64 / 1e6,
        f.deliveries as f64 / 1e6,
        f.marks as f64 / 1e6,
        f.messages as f64 / 1e6,
        f.series as f64 / 1e6,
    );
}

fn hundred_thousand() {
    let s = bench_scenarios::hundred_thousand();
    let mut best = f64::INFINITY;
    let mut events = 0;
    let mut last = None;
    let before = cpu_s();
    for _ in 0..5 {
        let t = Instant::now();
        let run = simulate(&s, &Options::default()).expect("the bench scenario is valid");
        best = best.min(t.elapsed().as_secs_f64());
        events = run.events.len();
        last = Some(run);
    }
    let cpu = match (before, cpu_s()) {
        (Some(a), Some(b)) => format!(
            "; CPU for all 5: user {:.2} s, system {:.2} s",
            b.0 - a.0,
            b.1 - a.1
        ),
        _ => String::new(),
    };
    println!(
        "100k messages: {events} events, best of 5 {:.3} s, {:.2} M events/s{cpu}",
        best,
        events as f64 / best / 1e6
    );
    if let Some(run) = last {
        print_footprint("100k messages", &run);
    }
}

fn one_million() {
    let s = bench_scenarios::one_million();
    let before = cpu_s();
    let t = Instant::now();
    let run = simulate(&s, &Options::default()).expect("the bench scenario is valid");
    let wall = t.elapsed().as_secs_f64();
    let cpu = match (before, cpu_s()) {
        (Some(a), Some(b)) => format!(" (CPU: user {:.2} s, system {:.2} s)", b.0 - a.0, b.1 - a.1),
        _ => String::new(),
    };
    let events = run.events.len();
    let per_message = events as f64 / run.messages.len() as f64;
    println!(
        "1M messages: {events} events ({per_message:.1} per message) in {wall:.3} s{cpu}, {:.2} M events/s, peak memory {:.0} MiB",
        events as f64 / wall / 1e6,
        peak_mib().unwrap_or(f64::NAN)
    );
    print_footprint("1M messages", &run);
}

fn main() {
    println!(
        "bytes: event {} ({} stored by column), delivery {}, mark {}, message record {}",
        size_of::<Event>(),
        BYTES_PER_EVENT,
        size_of::<Delivery>(),
        size_of::<Mark>(),
        size_of::<MessageRecord>()
    );
    let which = std::env::args().nth(1);
    match which.as_deref() {
        Some("100k") => hundred_thousand(),
        Some("1m") => one_million(),
        _ => {
            hundred_thousand();
            one_million();
        }
    }
}
