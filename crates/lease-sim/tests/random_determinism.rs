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

#[test]
fn the_generator_covers_every_work_shape_from_data_client_library_and_stale_delete() {
    use lease_sim::scenario::{Dist, Library, StaleDelete};
    let all = random::scenarios();
    for (shape, is) in [
        (
            "quantiles",
            (|d| matches!(d, Dist::Quantiles { .. })) as fn(&Dist) -> bool,
        ),
        ("empirical", |d| matches!(d, Dist::Empirical { .. })),
        ("histogram", |d| matches!(d, Dist::Histogram { .. })),
    ] {
        assert!(all.iter().any(|s| is(&s.work.dist)), "{shape}");
    }
    for l in Library::ALL {
        assert!(
            all.iter()
                .any(|s| s.workers.client.as_ref().is_some_and(|c| c.library == l)),
            "{l:?}"
        );
    }
    for d in StaleDelete::ALL {
        assert!(
            all.iter().any(|s| s.broker.stale_delete == Some(d)),
            "{d:?}"
        );
    }
}

#[test]
fn the_generator_covers_each_answer_to_an_ack_of_a_message_already_deleted() {
    use lease_sim::scenario::DeletedAck;
    let all = random::scenarios();
    assert!(all.iter().any(|s| s.broker.deleted_ack.is_none()));
    for d in DeletedAck::ALL {
        assert!(all.iter().any(|s| s.broker.deleted_ack == Some(d)), "{d:?}");
    }
    // Each answer is given in a run, not only drawn: an ack of a deleted
    // message answered with nothing to settle, and one rejected under
    // `deleted_ack: rejected`.
    let runs: Vec<_> = all
        .iter()
        .map(|s| {
            (
                s,
                simulate(s, &Options::default()).expect("a valid scenario runs"),
            )
        })
        .collect();
    assert!(runs.iter().any(|(_, r)| r.report.totals.acks_no_op > 0));
    let rejects_a_deleted_message = |r: &lease_sim::Run| {
        r.events.iter().any(|e| {
            e.kind == lease_sim::run::EventKind::AckRejected
                && matches!(r.messages[e.message as usize].fate,
                    lease_sim::run::Fate::Deleted { at } if at < e.t)
        })
    };
    assert!(runs.iter().any(|(s, r)| {
        s.broker.deleted_ack == Some(DeletedAck::Rejected) && rejects_a_deleted_message(r)
    }));
    assert!(runs.iter().all(|(s, r)| {
        s.broker.deleted_ack != Some(DeletedAck::Rejected) || r.report.totals.acks_no_op == 0
    }));
}
