//! Same scenario and seed, the same event log, byte for byte: the hash of
//! every shipped scenario's log is pinned in `scenarios/hashes.json`, which
//! the wasm32 test (`wasm_determinism.rs`) compares against in Chromium.
//! After a deliberate change to the engine, regenerate the file with
//! `UPDATE_HASHES=1 cargo test -p lease-sim --test determinism`.

use std::collections::BTreeMap;

use lease_sim::{shipped, simulate, Options};

const HASHES: &str = "../../scenarios/hashes.json";

fn native_hashes() -> BTreeMap<String, String> {
    shipped::all()
        .into_iter()
        .map(|s| {
            let run = simulate(&s.scenario, &Options::default()).expect("shipped runs");
            (s.name.to_string(), run.log_hash())
        })
        .collect()
}

#[test]
fn shipped_logs_match_the_pinned_hashes() {
    let native = native_hashes();
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(HASHES);
    if std::env::var_os("UPDATE_HASHES").is_some() {
        let text = serde_json::to_string_pretty(&native).unwrap() + "\n";
        std::fs::write(&path, text).unwrap();
    }
    let pinned: BTreeMap<String, String> =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(
        pinned, native,
        "event logs changed; if intended, rerun with UPDATE_HASHES=1"
    );
}

#[test]
fn the_same_run_twice_gives_the_same_bytes() {
    let s = shipped::find("clip-surge").unwrap().scenario;
    let a = simulate(&s, &Options::default()).unwrap();
    let b = simulate(&s, &Options::default()).unwrap();
    assert_eq!(a.events, b.events);
    assert_eq!(
        serde_json::to_string(&a.report).unwrap(),
        serde_json::to_string(&b.report).unwrap()
    );
}

#[test]
fn a_different_seed_gives_a_different_log() {
    let mut s = shipped::find("clip-surge").unwrap().scenario;
    let a = simulate(&s, &Options::default()).unwrap().log_hash();
    s.seed += 1;
    let b = simulate(&s, &Options::default()).unwrap().log_hash();
    assert_ne!(a, b);
}
