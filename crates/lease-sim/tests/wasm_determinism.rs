//! In headless Chromium: every shipped scenario's event log hashes to the
//! same value as natively (`scenarios/hashes.json`, pinned by the native
//! `determinism` test).
#![cfg(target_arch = "wasm32")]

mod random;

use std::collections::BTreeMap;

use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
fn every_shipped_log_hashes_as_natively() {
    let pinned: BTreeMap<String, String> =
        serde_json::from_str(include_str!("../../../scenarios/hashes.json")).unwrap();
    let shipped = lease_sim::shipped::all();
    assert_eq!(pinned.len(), shipped.len());
    for s in shipped {
        let run = lease_sim::simulate(&s.scenario, &lease_sim::Options::default()).unwrap();
        assert_eq!(
            Some(&run.log_hash()),
            pinned.get(s.name),
            "{}: the wasm32 log differs from the native one",
            s.name
        );
    }
}

#[wasm_bindgen_test]
fn random_scenarios_hash_as_natively() {
    let pinned: Vec<String> = serde_json::from_str(include_str!("random/hashes.json")).unwrap();
    let scenarios = random::scenarios();
    assert_eq!(pinned.len(), scenarios.len());
    for (i, s) in scenarios.iter().enumerate() {
        let run = lease_sim::simulate(s, &lease_sim::Options::default()).unwrap();
        assert_eq!(
            run.log_hash(),
            pinned[i],
            "random scenario {i}: the wasm32 log differs from the native one"
        );
    }
}
