//! Writes the timeline's palette into the page's stylesheet (the block
//! between its `palette: begin` and `palette: end` lines):
//!   cargo run -p lease-view --example palette-css

use std::process::ExitCode;

fn main() -> ExitCode {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../static/style.css");
    let written = std::fs::read_to_string(path)
        .map_err(|e| e.to_string())
        .and_then(|sheet| lease_view::palette::with_css_block(&sheet).map_err(|e| e.to_string()))
        .and_then(|sheet| std::fs::write(path, sheet).map_err(|e| e.to_string()));
    match written {
        Ok(()) => {
            println!("wrote the palette into {path}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{path}: {e}");
            ExitCode::FAILURE
        }
    }
}
