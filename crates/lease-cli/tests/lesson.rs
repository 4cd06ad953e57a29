//! `lease-sim lesson check` as an author runs it: every shipped lesson and
//! the reference's example pass, and a failing step or an unreadable line
//! is named.

mod common;

use common::lease_sim;

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn temp_lesson(name: &str, body: &str) -> String {
    let dir = std::env::temp_dir().join(format!("lease-cli-lesson-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let p = dir.join(name);
    std::fs::write(&p, body).expect("the lesson is written");
    p.to_string_lossy().into_owned()
}

const FRONT: &str = "+++\ntitle = \"Lower it\"\nscenario = \"ninety-second-message\"\n+++\n\n";

#[test]
fn lesson_check_passes_every_shipped_lesson() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../lessons");
    let mut files: Vec<String> = std::fs::read_dir(dir)
        .expect("lessons/")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".md"))
        .collect();
    files.sort();
    assert_eq!(files.len(), 8, "{files:?}");
    for f in files {
        let path = format!("lessons/{f}");
        let o = lease_sim(&["lesson", "check", &path]);
        let out = text(&o.stdout);
        assert!(o.status.success(), "{path}:\n{out}{}", text(&o.stderr));
        assert!(
            out.lines().last().is_some_and(|l| l.starts_with("ok: ")),
            "{out}"
        );
        assert!(!out.contains("FAIL"), "{out}");
    }
}

#[test]
fn lesson_check_names_the_step_and_line_of_a_goal_the_demo_does_not_meet() {
    let path = temp_lesson(
        "unmet.md",
        &format!("{FRONT}```step\nkind = \"do\"\ngoal = [\"overlapping_runs == 0\"]\ndemo = {{ timeout = \"61s\" }}\n```\nRaise it a little.\n"),
    );
    let o = lease_sim(&["lesson", "check", &path]);
    assert_eq!(o.status.code(), Some(1));
    let out = text(&o.stdout);
    assert!(
        out.contains("FAIL step 1 (line 6): the goal is not met after the demo timeout=61s"),
        "{out}"
    );
    assert!(text(&o.stderr).contains("1 of 1 steps failed"));
}

#[test]
fn lesson_check_names_the_line_and_figure_of_a_lesson_that_does_not_read() {
    let path = temp_lesson(
        "typo.md",
        &format!("{FRONT}```step\nkind = \"do\"\nlook_at = \"timeout\"\ngoal = [\"duplicate_efects == 0\"]\ndemo = {{ timeout = \"135s\" }}\n```\nRaise it.\n"),
    );
    let o = lease_sim(&["lesson", "check", &path]);
    assert_eq!(o.status.code(), Some(2));
    let err = text(&o.stderr);
    assert!(
        err.contains(&format!(
            "{path}:line 9: unknown figure or field `duplicate_efects`"
        )),
        "{err}"
    );
}

#[test]
fn the_reference_example_passes_lesson_check() {
    let o = lease_sim(&["lesson", "check", "docs/lesson-example.md"]);
    let out = text(&o.stdout);
    assert!(o.status.success(), "{out}{}", text(&o.stderr));
    assert!(out.ends_with("ok: 3 steps\n"), "{out}");
}
