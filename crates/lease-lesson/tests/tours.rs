//! The eight guided tours as lesson files (`lessons/ID.md`): each passes
//! the author's check, and each agrees step by step with the tour's Rust
//! table in lease-diagnose (words, where it points, its moment, its check
//! and its demonstration), so the page can read the files instead.

use lease_diagnose::{tour_texts, tours, Check, Tour};
use lease_lesson::check::{apply_demo, check};
use lease_lesson::{parse, Condition, Lesson, StartFrom, StepKind};
use lease_sim::{simulate, Options, Run, Scenario};

fn lesson_text(id: &str) -> String {
    let path = format!("{}/../../lessons/{id}.md", env!("CARGO_MANIFEST_DIR"));
    match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) => panic!("{path}: {e}"),
    }
}

fn lesson(id: &str) -> Lesson {
    match parse(&lesson_text(id)) {
        Ok(l) => l,
        Err(e) => panic!("lessons/{id}.md:\n{e}"),
    }
}

fn run(s: &Scenario) -> Run {
    match simulate(s, &Options::default()) {
        Ok(r) => r,
        Err(e) => panic!("{}: {e}", s.name),
    }
}

fn conditions(kind: &StepKind) -> &[Condition] {
    match kind {
        StepKind::Text { holds } => holds,
        StepKind::Do { goal, .. } => goal,
        StepKind::Predict { .. } => &[],
    }
}

#[test]
fn every_tour_lesson_passes_the_authors_check() {
    for t in tours() {
        let l = lesson(t.id);
        let outcomes = check(&l);
        assert_eq!(outcomes.len(), t.steps.len(), "{}", t.id);
        let failed: Vec<String> = outcomes
            .iter()
            .filter(|o| !o.ok)
            .map(|o| o.to_string())
            .collect();
        assert!(
            failed.is_empty(),
            "lessons/{}.md:\n{}",
            t.id,
            failed.join("\n")
        );
    }
}

/// The kind a tour's step becomes: a read step a text to read, a step whose
/// check holds once the earlier ones are done a text with its claims, a
/// step with a demonstration a do step.
fn kind_agrees(t: &Tour, i: usize, kind: &StepKind) {
    let step = &t.steps[i];
    match kind {
        StepKind::Text { holds } => {
            assert!(
                step.demo.is_empty(),
                "{} step {i}: a text step changes nothing",
                t.id
            );
            assert_eq!(
                holds.is_empty(),
                step.check == Check::Read,
                "{} step {i}: a text has claims exactly when the tour's step checks something",
                t.id
            );
        }
        StepKind::Do { demo, .. } => {
            assert!(
                !step.demo.is_empty() && !demo.is_empty(),
                "{} step {i}",
                t.id
            );
        }
        StepKind::Predict { .. } => panic!("{} step {i}: the tours ask no predictions", t.id),
    }
}

/// A tour's check as the lesson's conditions write it, one per check.
fn as_conditions(c: &Check) -> Vec<String> {
    let ms = lease_format::units::format_ms;
    let fence = |f: &lease_sim::scenario::Fence| lease_fields::names::name(f);
    vec![match c {
        Check::Read => return Vec::new(),
        Check::All(cs) => return cs.iter().flat_map(as_conditions).collect(),
        Check::TimeoutBelowMs(n) => format!("timeout < {}", ms(*n)),
        Check::TimeoutAtLeastMs(n) => format!("timeout >= {}", ms(*n)),
        Check::TimeoutAtLeastP99 => "timeout >= work_p99".into(),
        Check::OverlapsAtLeast(n) => format!("overlapping_runs >= {n}"),
        Check::NoOverlaps => "overlapping_runs == 0".into(),
        Check::NoRedeliveries => "redeliveries == 0".into(),
        Check::DuplicateEffectsAtLeast(n) => format!("duplicate_effects >= {n}"),
        Check::DuplicateEffectsAtMost(n) => format!("duplicate_effects <= {n}"),
        Check::FenceRejectionsAtLeast(n) => format!("fence_rejections >= {n}"),
        Check::AcksRejectedAtLeast(n) => format!("acks_rejected >= {n}"),
        Check::DeadLetteredExpiredAtLeast(n) => format!("dead_lettered_expired >= {n}"),
        Check::FenceIs(f) => format!("fence == {}", fence(f)),
        Check::HeartbeatOn => "hb == on".into(),
        Check::ExtensionCapSet => "cap != none".into(),
        Check::WorkersAtLeast(n) => format!("workers >= {n}"),
        Check::DetectorFires(id) => format!("detector(\"{id}\")"),
        Check::DetectorSilent(id) => format!("detector(\"{id}\") == false"),
    }]
}

#[test]
fn each_tour_lesson_agrees_with_its_rust_table_step_by_step() {
    assert_eq!(tours().len(), 8);
    for (t, words) in tours().iter().zip(tour_texts()) {
        let l = lesson(t.id);
        assert_eq!(l.title, words.title, "{}", t.id);
        assert_eq!(l.question, words.question, "{}", t.id);
        assert_eq!(
            l.start.from,
            StartFrom::Shipped(t.scenario.to_string()),
            "{}",
            t.id
        );
        assert_eq!(l.steps.len(), t.steps.len(), "{}: a step per step", t.id);

        // The tour's scenario and the lesson's, walked side by side.
        let mut by_fix = l.start.scenario.clone();
        let mut by_lesson = l.start.scenario.clone();
        for (i, ((step, w), ls)) in t.steps.iter().zip(words.steps).zip(&l.steps).enumerate() {
            assert_eq!(ls.text, w.text, "{} step {i}: its words", t.id);
            assert_eq!(ls.look_at.as_deref(), Some(w.look_at), "{} step {i}", t.id);
            assert_eq!(ls.at_ms, w.at_ms, "{} step {i}: its moment", t.id);
            kind_agrees(t, i, &ls.kind);
            let conds = conditions(&ls.kind);
            let written: Vec<&str> = conds.iter().map(|c| c.text.as_str()).collect();
            assert_eq!(
                written,
                as_conditions(&step.check),
                "{} step {i}: the lesson's conditions are the tour's check",
                t.id
            );
            let lesson_done = |s: &Scenario, r: &Run| conds.iter().all(|c| c.holds(s, r));
            if step.check != Check::Read {
                // Before the step's change: the check and the goal agree.
                let r = run(&by_fix);
                assert_eq!(
                    lesson_done(&by_fix, &r),
                    step.check.done(&by_fix, &r),
                    "{} step {i}: before its demo",
                    t.id
                );
            }
            for fix in step.demo {
                fix.apply(&mut by_fix);
            }
            if let Err(e) = apply_demo(ls, &mut by_lesson) {
                panic!("{} step {i}: {e}", t.id);
            }
            assert_eq!(
                by_lesson, by_fix,
                "{} step {i}: the lesson's demo makes the tour's scenario",
                t.id
            );
            if step.check != Check::Read {
                let r = run(&by_fix);
                assert_eq!(
                    lesson_done(&by_fix, &r),
                    step.check.done(&by_fix, &r),
                    "{} step {i}: after its demo",
                    t.id
                );
            }
        }
    }
}
