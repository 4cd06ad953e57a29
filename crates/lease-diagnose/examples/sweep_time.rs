//! Wall time of a 40-point timeout sweep (120 s down to 10 s) of
//! `ninety-second-message` and `clip-surge`, natively. Pass `--csv` to print
//! the rows as well.
//! `cargo run --release -p lease-diagnose --example sweep_time`

use std::time::Instant;

use lease_diagnose::{sweep, sweep_csv, Param};
use lease_sim::shipped;

fn main() {
    let csv = std::env::args().any(|a| a == "--csv");
    for name in ["ninety-second-message", "clip-surge"] {
        let Some(s) = shipped::find(name) else {
            eprintln!("no shipped scenario {name}");
            std::process::exit(1);
        };
        let start = Instant::now();
        let rows = sweep(&s.scenario, Param::Timeout, 120_000.0, 10_000.0, 40, false);
        let took = start.elapsed();
        match rows {
            Ok(rows) => {
                println!(
                    "{name}: {} points of {} in {:.2} ms ({:.3} ms per point)",
                    rows.len(),
                    Param::Timeout.path(),
                    took.as_secs_f64() * 1_000.0,
                    took.as_secs_f64() * 1_000.0 / rows.len().max(1) as f64
                );
                if csv {
                    print!("{}", sweep_csv(Param::Timeout, &rows));
                }
            }
            Err(e) => {
                eprintln!("{name}: {e}");
                std::process::exit(1);
            }
        }
    }
}
