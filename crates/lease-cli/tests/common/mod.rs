//! What every test of the command shares: the binary, run from the
//! repository's root as a user runs it.

use std::process::{Command, Output};

pub fn lease_sim(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_lease-sim"))
        .args(args)
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
        .output()
        .expect("the binary runs")
}
