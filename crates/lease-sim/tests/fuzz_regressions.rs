//! Replays what `cargo fuzz` found (fuzz/, see fuzz/README.md): a minimized
//! corpus of both targets (`tests/fuzz_corpus/`, the `structured` target's
//! inputs written out as the JSON they stand for) and every crash input
//! (`tests/fuzz_crashes/`). Each file goes through the fuzzers' own path,
//! `lease_sim::fuzz_check::check_text`: parse, validate, a bounded run with every
//! invariant checked. None may panic or break an invariant. Runs on stable.

use std::path::{Path, PathBuf};

fn files(dir: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join(dir);
    let mut out: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        // `.gitkeep` keeps an empty directory in git; it is not an input.
        .filter(|p| p.is_file() && !p.file_name().unwrap().to_string_lossy().starts_with('.'))
        .collect();
    out.sort();
    out
}

fn replay(dir: &str) -> usize {
    let files = files(dir);
    for p in &files {
        let bytes = std::fs::read(p).unwrap();
        let text = String::from_utf8_lossy(&bytes);
        let outcome = std::panic::catch_unwind(|| lease_sim::fuzz_check::check_text(&text));
        assert!(outcome.is_ok(), "{} crashed (see above)", p.display());
    }
    files.len()
}

#[test]
fn the_fuzz_corpus_runs_clean() {
    let n = replay("fuzz_corpus");
    assert!(n >= 20, "only {n} corpus files");
}

#[test]
fn every_crash_the_fuzzer_found_stays_fixed() {
    replay("fuzz_crashes");
}
