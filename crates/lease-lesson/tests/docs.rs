//! docs/lessons.md is enough to write a lesson from: its three-step example
//! is the file docs/lesson-example.md and passes the author's check, its
//! snippets are steps that pass it too, the check's output it shows is the
//! check's, and it names every figure and detector a goal can use.

use lease_lesson::check::check;
use lease_lesson::{parse, Lesson, Question, StepKind};

fn read(path: &str) -> String {
    let full = format!("{}/../../{path}", env!("CARGO_MANIFEST_DIR"));
    match std::fs::read_to_string(&full) {
        Ok(t) => t,
        Err(e) => panic!("{full}: {e}"),
    }
}

fn lesson(src: &str) -> Lesson {
    match parse(src) {
        Ok(l) => l,
        Err(e) => panic!("{e}\n{src}"),
    }
}

#[test]
fn the_reference_holds_its_three_step_example_which_passes_its_check() {
    let doc = read("docs/lessons.md");
    let example = read("docs/lesson-example.md");
    assert!(
        doc.contains(&format!("````markdown\n{example}````")),
        "the example, verbatim"
    );
    let l = lesson(&example);
    assert_eq!(l.steps.len(), 3);
    assert!(l.steps.iter().any(|s| matches!(
        &s.kind,
        StepKind::Predict {
            question: Question::Choice { .. },
            ..
        }
    )));
    assert!(l
        .steps
        .iter()
        .any(|s| matches!(s.kind, StepKind::Do { .. })));
    let outcomes = check(&l);
    for o in &outcomes {
        assert!(o.ok, "{o}");
        // The reference shows the check's own output.
        assert!(doc.contains(&o.to_string()), "docs/lessons.md lacks: {o}");
    }
}

#[test]
fn every_step_snippet_of_the_reference_passes_the_check() {
    let doc = read("docs/lessons.md");
    let mut snippets = 0;
    for block in doc.split("```toml\n").skip(1) {
        let Some((body, _)) = block.split_once("```") else {
            panic!("an unclosed snippet: {block}")
        };
        if !body.contains("kind = ") {
            continue;
        }
        snippets += 1;
        let src = format!(
            "+++\ntitle = \"T\"\nscenario = \"ninety-second-message\"\n+++\n\n```step\n{body}```\nThe step.\n"
        );
        for o in check(&lesson(&src)) {
            assert!(o.ok, "{body}\n{o}");
        }
    }
    assert_eq!(snippets, 5, "text, do and the three kinds of question");
}

#[test]
fn the_reference_names_every_figure_and_detector() {
    let doc = read("docs/lessons.md");
    for f in lease_lesson::goal::figures() {
        assert!(doc.contains(&format!("| `{}` |", f.name)), "{}", f.name);
    }
    for d in lease_diagnose::detector_ids() {
        assert!(doc.contains(&format!("`{d}`")), "{d}");
    }
}
