//! Native figures of the recommendation and the counters-only run: the
//! recommendation for `clip-surge` at 20 seeds on one thread and on all
//! cores, a 40-point sweep the same two ways, and events per second of the
//! counters-only run against the full run on the 100,000-message bench
//! scenario. Prints a table; `--write` also puts it in docs/benchmarks.md
//! (its own section, the rest of the file kept).
//! `cargo run --release -p lease-diagnose --example recommend_bench -- --write`

use std::time::{Duration, Instant};

use lease_diagnose::{recommend, sweep, Param, Targets};
use lease_sim::{bench_scenarios, run_totals, shipped, simulate, Options};

const HEADING: &str = "## Natively: the recommendation and the counters-only run";
/// Each figure is the median of this many repetitions.
const REPEATS: usize = 5;

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort_unstable();
    v[v.len() / 2]
}

fn time<T>(mut f: impl FnMut() -> T) -> Duration {
    median(
        (0..REPEATS)
            .map(|_| {
                let start = Instant::now();
                std::hint::black_box(f());
                start.elapsed()
            })
            .collect(),
    )
}

fn pool(threads: usize) -> rayon::ThreadPool {
    match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
        Ok(p) => p,
        Err(e) => fail(&format!("a thread pool of {threads}: {e}")),
    }
}

fn fail(why: &str) -> ! {
    eprintln!("recommend_bench: {why}");
    std::process::exit(1)
}

fn ms(d: Duration) -> String {
    format!("{:.0} ms", d.as_secs_f64() * 1_000.0)
}

fn main() {
    let write = std::env::args().any(|a| a == "--write");
    // A shared machine's load decides what all cores can gain: say it.
    let load = std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|l| l.split_whitespace().next().map(str::to_string))
        .unwrap_or_else(|| "unknown".to_string());
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let Some(clip) = shipped::find("clip-surge") else {
        fail("no shipped scenario clip-surge")
    };
    let s = clip.scenario;
    let targets = Targets {
        max_redelivery_rate: 0.002,
        max_recovery_ms: Some(120_000),
        max_duplicate_rate: None,
    };
    let run_recommend = || match recommend(&s, targets.clone(), 20) {
        Ok(r) => r,
        Err(e) => fail(&e.to_string()),
    };
    let rec = run_recommend();
    let one = pool(1).install(|| time(run_recommend));
    let all = pool(cores).install(|| time(run_recommend));
    let sweep_of = || match sweep(&s, Param::Timeout, 120_000.0, 10_000.0, 40, false) {
        Ok(r) => r,
        Err(e) => fail(&e),
    };
    let sweep_one = pool(1).install(|| time(sweep_of));
    let sweep_all = pool(cores).install(|| time(sweep_of));

    let big = bench_scenarios::hundred_thousand();
    let events = match run_totals(&big) {
        Ok(r) => r.totals.events,
        Err(e) => fail(&e.to_string()),
    };
    let full = time(|| simulate(&big, &Options::default()).map(|r| r.report.totals.events));
    let counted = time(|| run_totals(&big).map(|r| r.totals.events));
    let per_s = |d: Duration| events as f64 / d.as_secs_f64();

    let rows = [
        (
            format!(
                "Recommend, clip-surge, 20 seeds ({} candidates; redelivery rate 0.002, recovery 2 min), one thread",
                rec.points.len()
            ),
            ms(one),
        ),
        (format!("  all {cores} cores"), format!("{} ({:.2}x)", ms(all), one.as_secs_f64() / all.as_secs_f64())),
        ("Sweep, clip-surge, 40 timeouts, one thread".to_string(), ms(sweep_one)),
        (
            format!("  all {cores} cores"),
            format!("{} ({:.2}x)", ms(sweep_all), sweep_one.as_secs_f64() / sweep_all.as_secs_f64()),
        ),
        (
            format!("Full run, 100,000-message bench scenario ({events} events)"),
            format!("{} ({:.1} M events/s)", ms(full), per_s(full) / 1e6),
        ),
        (
            "  counters-only run (the log counted, not stored)".to_string(),
            format!(
                "{} ({:.1} M events/s, {:.2}x)",
                ms(counted),
                per_s(counted) / 1e6,
                full.as_secs_f64() / counted.as_secs_f64()
            ),
        ),
    ];
    let mut table = String::from("| measure | result |\n|---|---:|\n");
    for (m, r) in &rows {
        table.push_str(&format!("| {m} | {r} |\n"));
    }
    print!("{table}");
    if write {
        write_section(&table, cores, &load);
    }
}

/// Replace this bench's section of docs/benchmarks.md (or add it at the
/// end), keeping every other section as it is.
fn write_section(table: &str, cores: usize, load: &str) {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/benchmarks.md");
    let old = std::fs::read_to_string(path).unwrap_or_else(|e| fail(&format!("{path}: {e}")));
    let section = format!(
        "{HEADING}\n\nThe command line's figures, natively (a release build, {cores} cores, \
         load average {load} when the bench started; the median of {REPEATS} runs each; \
         not asserted by tests). To measure again:\n\n\
         ```sh\ncargo run --release -p lease-diagnose --example recommend_bench -- --write\n```\n\n{table}"
    );
    let new = match old.find(HEADING) {
        Some(at) => {
            let rest = old[at + HEADING.len()..]
                .find("\n## ")
                .map_or(String::new(), |i| old[at + HEADING.len() + i..].to_string());
            format!("{}{section}{rest}", &old[..at])
        }
        None => format!("{}\n\n{section}", old.trim_end()),
    };
    std::fs::write(path, new).unwrap_or_else(|e| fail(&format!("{path}: {e}")));
    println!("written: docs/benchmarks.md");
}
