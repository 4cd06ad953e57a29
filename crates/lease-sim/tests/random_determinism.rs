//! Random valid scenarios hash the same natively and in wasm: the native
//! side pins the hashes here, `wasm_determinism.rs` recomputes them in
//! Chromium. Regenerate after a deliberate engine change with
//! `UPDATE_HASHES=1 cargo test -p lease-sim --test random_determinism`.

mod random;

use lease_sim::{simulate, Options};

const HASHES: &str = "tests/random/hashes.json";

#[test]
fn random_scenarios_match_their_pinned_hashes() {
    let native: Vec<String> = random::scenarios()
        .iter()
        .map(|s| {
            simulate(s, &Options::default())
                .expect("a valid scenario runs")
                .log_hash()
        })
        .collect();
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(HASHES);
    if std::env::var_os("UPDATE_HASHES").is_some() {
        std::fs::write(&path, serde_json::to_string_pretty(&native).unwrap() + "\n").unwrap();
    }
    let pinned: Vec<String> =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(pinned.len(), random::COUNT);
    assert_eq!(
        pinned, native,
        "event logs changed; if intended, rerun with UPDATE_HASHES=1"
    );
}

#[test]
fn the_generator_covers_every_preset_and_fence() {
    let all = random::scenarios();
    for p in lease_sim::scenario::Preset::ALL {
        assert!(all.iter().any(|s| s.broker.preset == p), "{p:?}");
    }
    for f in lease_sim::scenario::Fence::ALL {
        assert!(all.iter().any(|s| s.store.fence == f), "{f:?}");
    }
    assert!(all
        .iter()
        .any(|s| matches!(s.workers.heartbeat, Some(Some(_)))));
    assert!(all
        .iter()
        .any(|s| matches!(s.workers.heartbeat, Some(None))));
}
