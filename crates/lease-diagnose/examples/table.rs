//! Print which detectors fire on docs/MODEL.md's ten scenarios, as Markdown.
//! `cargo run -p lease-diagnose --example table`

use lease_diagnose::table::{fired, markdown, MAIN_SCENARIOS};

fn main() {
    match fired(&MAIN_SCENARIOS) {
        Ok(rows) => print!("{}", markdown(&rows)),
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    }
}
