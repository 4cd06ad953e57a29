//! Lease Playground's "explain, compare, sweep": detectors that name the
//! failure signatures in a recorded run, guided tours built from
//! exercises and interview questions, and parameter sweeps. It reads lease-sim's `Run` and
//! `Scenario` only; no web dependency, so the page (wasm32), the command line
//! and the tests all share it.

pub mod diagnose;
pub mod extend;
pub mod fix;
pub mod recommend;
pub mod stats;
pub mod sweep;
pub mod table;
#[cfg(test)]
mod testing;
pub mod tour;

pub use diagnose::{detect, detector_ids, diagnose, Finding, DETECTORS};
pub use fix::Fix;
pub use recommend::{
    recommend, run_seed, Candidate, Point, Recommendation, RuleOfThumb, Search, SeedResult,
    TargetError, Targets,
};
pub use sweep::{
    sweep, sweep_band_csv, sweep_csv, sweep_one, sweep_points, sweep_seeds, Param, SweepRow,
};
pub use tour::{tour, tour_text, tour_texts, tours, Check, Step, StepText, Tour, TourText};
