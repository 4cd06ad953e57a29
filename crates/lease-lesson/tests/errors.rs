//! A wrong lesson is an error on its line naming the figure, field,
//! detector or scenario at fault, never a step silently skipped.

use lease_lesson::{parse, LessonError, Problem};
use proptest::prelude::*;

/// A one-step lesson; the goal is on line 9, the demo on line 10.
fn with_goal(goal: &str) -> String {
    format!(
        "+++\ntitle = \"T\"\nscenario = \"ninety-second-message\"\n+++\n\n```step\nkind = \"do\"\nlook_at = \"timeout\"\ngoal = [{goal}]\ndemo = {{ timeout = \"135s\" }}\n```\nRaise the timeout.\n"
    )
}

fn errors(src: &str) -> Vec<LessonError> {
    match parse(src) {
        Ok(_) => panic!("read without an error:\n{src}"),
        Err(e) => e.0,
    }
}

fn only(src: &str) -> LessonError {
    let e = errors(src);
    assert_eq!(e.len(), 1, "{e:#?}");
    e.into_iter().next().expect("one error")
}

#[test]
fn the_well_formed_goal_reads() {
    let l = match parse(&with_goal(
        "\"duplicate_effects == 0\", 'detector(\"lease-health-ratio\") == false'",
    )) {
        Ok(l) => l,
        Err(e) => panic!("{e}"),
    };
    assert_eq!(l.steps.len(), 1);
    assert_eq!(l.steps[0].line, 6);
    assert_eq!(l.steps[0].text, "Raise the timeout.");
}

/// What a case's error must be.
type IsProblem = Box<dyn Fn(&Problem) -> bool>;

#[test]
fn each_wrong_goal_is_an_error_on_its_line_naming_what_is_wrong() {
    let unknown = |n: &str| Problem::UnknownName(n.into());
    let cases: Vec<(&str, IsProblem)> = vec![
        (
            "\"duplicate_efects == 0\"",
            Box::new(move |p| *p == unknown("duplicate_efects")),
        ),
        (
            "\"timeout >= wrk_p99\"",
            Box::new(move |p| *p == unknown("wrk_p99")),
        ),
        (
            "\"timeout < 60\"",
            Box::new(
                |p| matches!(p, Problem::BadUnit { text, why } if text == "60" && why.contains("timeout is a duration")),
            ),
        ),
        (
            "\"overlapping_runs >= 2s\"",
            Box::new(
                |p| matches!(p, Problem::BadUnit { text, why } if text == "2s" && why.contains("overlapping_runs is a number")),
            ),
        ),
        (
            "\"timeout < 60 parsecs\"",
            Box::new(|p| matches!(p, Problem::BadUnit { text, .. } if text == "60 parsecs")),
        ),
        (
            "\"workers >= p99\"",
            Box::new(
                |p| matches!(p, Problem::BadUnit { why, .. } if why.contains("workers is a number, p99 is a duration")),
            ),
        ),
        (
            "'detector(\"expiry-before-akc\")'",
            Box::new(|p| *p == Problem::UnknownDetector("expiry-before-akc".into())),
        ),
        (
            "'detector(\"lease-health-ratio\") > true'",
            Box::new(
                |p| matches!(p, Problem::BadCondition { why, .. } if why.contains("== or !=")),
            ),
        ),
        (
            "\"duplicate_effects = 0\"",
            Box::new(
                |p| matches!(p, Problem::BadCondition { text, .. } if text == "duplicate_effects = 0"),
            ),
        ),
        (
            "\"fence == fencing\"",
            Box::new(|p| matches!(p, Problem::BadField { field, .. } if field == "fence")),
        ),
        (
            "\"workers == none\"",
            Box::new(
                |p| matches!(p, Problem::BadCondition { why, .. } if why.contains("workers cannot be off")),
            ),
        ),
        (
            "\"fence < fencing_token\"",
            Box::new(
                |p| matches!(p, Problem::BadCondition { why, .. } if why.contains("fence is a word")),
            ),
        ),
    ];
    for (goal, is) in cases {
        let e = only(&with_goal(goal));
        assert_eq!(e.line, 9, "{goal}: {e}");
        assert!(is(&e.problem), "{goal}: {e}");
        let shown = e.to_string();
        assert!(shown.starts_with("line 9: "), "{shown}");
    }
}

#[test]
fn an_unknown_figure_error_lists_the_figures_a_goal_can_name() {
    let e = only(&with_goal("\"recovery_p99 <= 2min\""));
    let shown = e.to_string();
    assert!(shown.contains("`recovery_p99`"), "{shown}");
    for known in [
        "duplicate_effects",
        "overlapping_runs",
        "ack_latency_p99",
        "work_p99",
    ] {
        assert!(shown.contains(known), "{shown}");
    }
}

/// One broken piece of a lesson, and the line and problem it gives.
struct Case {
    src: &'static str,
    line: usize,
    is: fn(&Problem) -> bool,
}

const STEP: &str = "```step\nkind = \"text\"\n```\nRead.\n";

#[test]
fn each_wrong_piece_of_a_lesson_is_an_error_on_its_line() {
    let cases = [
        Case {
            src: "+++\ntitle = \"T\"\nscenario = \"ninety-second-mesage\"\n+++\n\n```step\nkind = \"text\"\n```\nRead.\n",
            line: 3,
            is: |p| *p == Problem::UnknownScenario("ninety-second-mesage".into()),
        },
        Case {
            src: "+++\ntitle = \"T\"\nscenario = \"clip-surge\"\n+++\n\nIntro.\n\n```step\n```\nRead.\n",
            line: 8,
            is: |p| matches!(p, Problem::Format(w) if w.contains("kind")),
        },
        Case {
            src: "# A lesson\n\n```step\nkind = \"text\"\n```\nRead.\n",
            line: 1,
            is: |p| matches!(p, Problem::Format(w) if w.contains("front matter")),
        },
        Case {
            src: "+++\ntitle = \"T\"\nscenario = \"clip-surge\"\n+++\n\n```step\nkind = \"quiz\"\n```\nRead.\n",
            line: 7,
            is: |p| matches!(p, Problem::Format(w) if w.contains("unknown step kind `quiz`")),
        },
        Case {
            src: "+++\ntitle = \"T\"\nscenario = \"clip-surge\"\n+++\n\n```step\nkind = \"do\"\ngoals = [\"overlapping_runs == 0\"]\n```\nRead.\n",
            line: 8,
            is: |p| matches!(p, Problem::Format(w) if w.contains("goals")),
        },
        Case {
            src: "+++\ntitle = \"T\"\nscenario = \"clip-surge\"\n+++\n\n```step\nkind = \"do\"\ngoal = [\"overlapping_runs == 0\"]\ndemo = { timout = \"135s\" }\n```\nRead.\n",
            line: 9,
            is: |p| matches!(p, Problem::BadField { field, .. } if field == "timout"),
        },
        Case {
            src: "+++\ntitle = \"T\"\nscenario = \"clip-surge\"\n+++\n\n```step\nkind = \"do\"\ngoal = [\"overlapping_runs == 0\"]\ndemo = { timeout = \"fast\" }\n```\nRead.\n",
            line: 9,
            is: |p| matches!(p, Problem::BadField { field, why } if field == "timeout" && why.contains("30s")),
        },
        Case {
            src: "+++\ntitle = \"T\"\nscenario = \"clip-surge\"\n+++\n\n```step\nkind = \"do\"\ngoal = [\"overlapping_runs == 0\"]\n```\nRead.\n",
            line: 7,
            is: |p| matches!(p, Problem::Format(w) if w.contains("needs its demo")),
        },
        Case {
            src: "+++\ntitle = \"T\"\nscenario = \"clip-surge\"\n+++\n\n```step\nkind = \"text\"\nlook_at = \"timline\"\n```\nRead.\n",
            line: 8,
            is: |p| matches!(p, Problem::Format(w) if w.contains("unknown look_at `timline`") && w.contains("max-receive")),
        },
        Case {
            src: "+++\ntitle = \"T\"\nscenario = \"clip-surge\"\n+++\n\n```step\nkind = \"text\"\nat = \"soon\"\n```\nRead.\n",
            line: 8,
            is: |p| matches!(p, Problem::BadUnit { text, .. } if text == "soon"),
        },
        Case {
            src: "+++\ntitle = \"T\"\nscenario = \"clip-surge\"\n+++\n\n```step\nkind = \"text\"\ngoal = [\"overlapping_runs == 0\"]\n```\nRead.\n",
            line: 7,
            is: |p| matches!(p, Problem::Format(w) if w.contains("`goal` does not belong to a text step")),
        },
        Case {
            src: "+++\ntitle = \"T\"\nscenario = \"clip-surge\"\n+++\n\n```step\nkind = \"predict\"\nstop = \"60s\"\nchoices = [\"a\", \"b\"]\nanswer = 1\nholds = [\"overlapping_runs >= 1\"]\n```\nWhat next?\n",
            line: 7,
            is: |p| matches!(p, Problem::Format(w) if w.contains("needs its why")),
        },
        Case {
            src: "+++\ntitle = \"T\"\nscenario = \"clip-surge\"\n+++\n\n```step\nkind = \"predict\"\nstop = \"60s\"\nchoices = [\"a\", \"b\"]\nanswer = 3\nholds = [\"overlapping_runs >= 1\"]\nwhy = \"Because.\"\n```\nWhat next?\n",
            line: 10,
            is: |p| matches!(p, Problem::Format(w) if w.contains("from 1 to 2")),
        },
        Case {
            src: "+++\ntitle = \"T\"\nscenario = \"clip-surge\"\n+++\n\n```step\nkind = \"predict\"\nstop = \"60s\"\nfigure = \"overlapping_runs\"\nanswer = \"3s\"\nwhy = \"Because.\"\n```\nHow many?\n",
            line: 10,
            is: |p| matches!(p, Problem::BadUnit { why, .. } if why.contains("overlapping_runs is a number")),
        },
        Case {
            src: "+++\ntitle = \"T\"\nscenario = \"clip-surge\"\n+++\n\n```step\nkind = \"predict\"\nstop = \"60s\"\nfigure = \"overlaping_runs\"\nanswer = 3\nwhy = \"Because.\"\n```\nHow many?\n",
            line: 9,
            is: |p| *p == Problem::UnknownName("overlaping_runs".into()),
        },
        Case {
            src: "+++\ntitle = \"T\"\nlink = \"scenario=clip-surge&timeout=abc\"\n+++\n\n```step\nkind = \"text\"\n```\nRead.\n",
            line: 3,
            is: |p| matches!(p, Problem::BadField { field, .. } if field == "timeout"),
        },
        Case {
            src: "+++\ntitle = \"T\"\nlink = \"scenario=clip-surj&timeout=30s\"\n+++\n\n```step\nkind = \"text\"\n```\nRead.\n",
            line: 3,
            is: |p| *p == Problem::UnknownScenario("clip-surj".into()),
        },
        Case {
            src: "+++\ntitle = \"T\"\n+++\n\n```scenario\n{\n  \"name\": \"x\",\n  \"broker\": 7\n}\n```\n\n```step\nkind = \"text\"\n```\nRead.\n",
            line: 8,
            is: |p| matches!(p, Problem::BadScenario(_)),
        },
        Case {
            src: "+++\ntitle = \"T\"\nscenario = \"clip-surge\"\n+++\n\n```step\nkind = \"predict\"\nstop = \"60s\"\nfigure = \"redeliveries\"\nanswer = 3\nholds = [\"redeliveries >= 1\"]\nwhy = \"Because.\"\n```\nHow many?\n",
            line: 7,
            is: |p| matches!(p, Problem::Format(w) if w.contains("`holds` does not belong to a number question")),
        },
        Case {
            src: "+++\ntitle = \"T\"\nscenario = \"clip-surge\"\n+++\n\n```step\nkind = \"predict\"\nstop = \"60s\"\nnext_run = { message = 0, worker = 1 }\nanswer = 2\nwhy = \"Because.\"\n```\nWhich next?\n",
            line: 7,
            is: |p| matches!(p, Problem::Format(w) if w.contains("`answer` does not belong to a next-run question")),
        },
        Case {
            src: "+++\ntitle = \"T\"\n+++\n\n```scenario\nSCENARIO\n```\n\n```step\nkind = \"text\"\n```\nRead.\n",
            line: 6,
            is: |p| matches!(p, Problem::BadScenario(w) if w.contains("unknown field `brokr`")),
        },
        Case {
            src: "+++\ntitle = \"T\"\nscenario = \"clip-surge\"\nlink = \"scenario=clip-surge\"\n+++\n\n```step\nkind = \"text\"\n```\nRead.\n",
            line: 2,
            is: |p| matches!(p, Problem::Format(w) if w.contains("exactly one")),
        },
        Case {
            src: "+++\ntitle = \"T\nscenario = \"clip-surge\"\n+++\n\n```step\nkind = \"text\"\n```\nRead.\n",
            line: 2,
            is: |p| matches!(p, Problem::Format(_)),
        },
    ];
    // A shipped scenario's file with one key misspelt.
    let shipped = lease_sim::shipped::find("ninety-second-message").expect("shipped");
    let misspelt = shipped.text.replacen("\"broker\"", "\"brokr\"", 1);
    assert_ne!(misspelt, shipped.text);
    for c in cases {
        let src = c.src.replace("SCENARIO", misspelt.trim());
        let e = only(&src);
        assert_eq!(e.line, c.line, "{src}\n{e}");
        assert!((c.is)(&e.problem), "{src}\n{e}");
    }
}

#[test]
fn every_wrong_step_is_reported_not_only_the_first() {
    let src = format!(
        "+++\ntitle = \"T\"\nscenario = \"clip-surge\"\n+++\n\n{STEP}\n```step\nkind = \"do\"\ngoal = [\"redelivery == 0\"]\ndemo = {{ timeout = \"30s\" }}\n```\nOne.\n\n```step\nkind = \"do\"\ngoal = [\"redeliveries == 0\"]\ndemo = {{ workers = \"many\" }}\n```\nTwo.\n"
    );
    let e = errors(&src);
    let lines: Vec<usize> = e.iter().map(|e| e.line).collect();
    assert_eq!(lines, [13, 21], "{e:#?}");
    assert_eq!(e[0].problem, Problem::UnknownName("redelivery".into()));
    assert!(matches!(&e[1].problem, Problem::BadField { field, .. } if field == "workers"));
}

#[test]
fn a_count_compared_with_a_duration_and_a_duration_with_a_bare_number_are_bad_units() {
    for f in lease_lesson::goal::figures() {
        let wrong = match f.unit {
            lease_lesson::Unit::Ms => "5",
            lease_lesson::Unit::Count | lease_lesson::Unit::Ratio => "5s",
        };
        let e = only(&with_goal(&format!("\"{} >= {wrong}\"", f.name)));
        assert_eq!(e.line, 9);
        assert!(
            matches!(e.problem, Problem::BadUnit { .. }),
            "{}: {e}",
            f.name
        );
    }
}

/// Names that are neither a figure nor a field.
fn unknown_name() -> impl Strategy<Value = String> {
    "[a-z][a-z_]{2,14}".prop_filter("not a figure or field", |n| {
        lease_lesson::goal::figure(n).is_none() && lease_fields::find(n).is_none()
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// However far down the file a goal is, its unknown figure is reported
    /// on the goal's own line.
    #[test]
    fn an_unknown_figure_is_reported_on_its_own_line(name in unknown_name(), prose in 0usize..30) {
        let filler = "Some words.\n".repeat(prose);
        let src = format!(
            "+++\ntitle = \"T\"\nscenario = \"clip-surge\"\n+++\n\n{filler}\n```step\nkind = \"do\"\nlook_at = \"timeout\"\n\ngoal = [\n  \"overlapping_runs == 0\",\n  \"{name} <= 2min\",\n]\ndemo = {{ timeout = \"135s\" }}\n```\nText.\n"
        );
        let e = only(&src);
        prop_assert_eq!(e.line, 6 + prose + 1 + 6);
        prop_assert_eq!(e.problem, Problem::UnknownName(name));
    }

    /// Any text at all reads as a lesson or as errors with lines within
    /// the file, never a panic.
    #[test]
    fn any_text_reads_or_gives_errors_on_its_lines(src in "(\\+\\+\\+\n|```step\n|```\n|kind = \"(do|text|predict)\"\n|goal = \\[\"[a-z_ =<>0-9]{0,20}\"\\]\n|[ -~é€]{0,20}\n|\r\n){0,12}") {
        match parse(&src) {
            Ok(l) => prop_assert!(!l.steps.is_empty()),
            Err(e) => {
                prop_assert!(!e.0.is_empty());
                let lines = src.lines().count().max(1);
                for err in e.0 {
                    prop_assert!(err.line >= 1 && err.line <= lines + 1, "{} of {}", err.line, lines);
                }
            }
        }
    }
}

#[test]
fn a_lesson_with_windows_line_endings_reads_as_the_same_lesson() {
    let unix = with_goal("\"duplicate_effects == 0\"");
    let windows = unix.replace('\n', "\r\n");
    match (parse(&unix), parse(&windows)) {
        (Ok(a), Ok(b)) => {
            assert_eq!(a.steps.len(), b.steps.len());
            assert_eq!(a.steps[0].line, b.steps[0].line);
            assert_eq!(a.steps[0].kind, b.steps[0].kind);
            assert_eq!(a.steps[0].text, b.steps[0].text);
        }
        (a, b) => panic!("{a:?}\n{b:?}"),
    }
    let e = only(&with_goal("\"duplicate_efects == 0\"").replace('\n', "\r\n"));
    assert_eq!(e.line, 9);
}
