//! Which detectors fire on which of docs/MODEL.md's ten scenarios, as data and as
//! Markdown (the `table` example prints it; a test pins it).

use lease_sim::{shipped, simulate, Options};

use crate::diagnose::{detector_ids, diagnose};

/// docs/MODEL.md's ten scenarios, in its order.
pub const MAIN_SCENARIOS: [&str; 10] = [
    "ninety-second-message",
    "clip-surge",
    "five-minute-timeout-deploy",
    "hung-handler",
    "invisible-backlog",
    "dependency-slows-3x",
    "dlq-of-valid-messages",
    "order-confirmation-email",
    "gc-pause-starves-heartbeat",
    "sub-second-work",
];

/// For each named shipped scenario, the ids of the detectors that fire on
/// its run. A name that is not shipped or does not run is an error.
pub fn fired(names: &[&str]) -> Result<Vec<(String, Vec<&'static str>)>, String> {
    names
        .iter()
        .map(|name| {
            let s = shipped::find(name).ok_or_else(|| format!("no shipped scenario {name}"))?;
            let run =
                simulate(&s.scenario, &Options::default()).map_err(|e| format!("{name}: {e}"))?;
            let ids = diagnose(&s.scenario, &run)
                .iter()
                .filter_map(|f| detector_ids().find(|d| *d == f.id))
                .collect();
            Ok((name.to_string(), ids))
        })
        .collect()
}

/// One row per scenario, one column per detector, an `x` where it fires.
pub fn markdown(rows: &[(String, Vec<&'static str>)]) -> String {
    let ids: Vec<&str> = detector_ids().collect();
    let mut out = String::from("| scenario |");
    for id in &ids {
        out.push_str(&format!(" {id} |"));
    }
    out.push_str("\n|---|");
    for _ in &ids {
        out.push_str(":-:|");
    }
    out.push('\n');
    for (name, fired) in rows {
        out.push_str(&format!("| {name} |"));
        for id in &ids {
            out.push_str(if fired.contains(id) { " x |" } else { "  |" });
        }
        out.push('\n');
    }
    out
}
