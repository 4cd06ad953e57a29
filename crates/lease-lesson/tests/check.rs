//! The author's check fails a goal the demonstration does not meet, a goal
//! that holds before the student does anything, words the run contradicts
//! and a question whose answer the run contradicts, naming the step and line.

use lease_lesson::check::{check, Outcome};
use lease_lesson::parse;
use lease_sim::{shipped, simulate, Options, Run};

const FRONT: &str = "+++\ntitle = \"T\"\nscenario = \"ninety-second-message\"\n+++\n\n";

fn outcomes(steps: &str) -> Vec<Outcome> {
    let src = format!("{FRONT}{steps}");
    match parse(&src) {
        Ok(l) => check(&l),
        Err(e) => panic!("{e}\n{src}"),
    }
}

fn the_run() -> Run {
    let s = shipped::find("ninety-second-message").expect("shipped");
    simulate(&s.scenario, &Options::default()).expect("runs")
}

#[test]
fn a_goal_the_demo_meets_passes() {
    let o = outcomes("```step\nkind = \"do\"\ngoal = [\"overlapping_runs == 0\"]\ndemo = { timeout = \"135s\" }\n```\nRaise it.\n");
    assert!(o[0].ok, "{}", o[0]);
    assert!(o[0].says.contains("timeout=135s"), "{}", o[0]);
}

#[test]
fn a_goal_that_holds_before_the_student_does_anything_fails() {
    let o = outcomes("```step\nkind = \"do\"\ngoal = [\"overlapping_runs >= 1\"]\ndemo = { timeout = \"30s\" }\n```\nLower it.\n");
    assert!(!o[0].ok);
    assert_eq!((o[0].step, o[0].line), (1, 6));
    assert!(
        o[0].says.contains("holds before the student does anything"),
        "{}",
        o[0]
    );
}

#[test]
fn a_goal_the_demo_does_not_meet_fails_with_what_the_run_shows() {
    let o = outcomes("```step\nkind = \"text\"\n```\nRead.\n\n```step\nkind = \"do\"\ngoal = [\"overlapping_runs == 0\"]\ndemo = { timeout = \"61s\" }\n```\nRaise it a little.\n");
    assert!(o[0].ok);
    assert!(!o[1].ok);
    assert_eq!((o[1].step, o[1].line), (2, 11));
    let shown = o[1].to_string();
    assert!(
        shown.starts_with("FAIL step 2 (line 11): the goal is not met"),
        "{shown}"
    );
    assert!(shown.contains("overlapping_runs is"), "{shown}");
}

#[test]
fn words_the_run_contradicts_fail() {
    let o = outcomes("```step\nkind = \"text\"\nholds = [\"duplicate_effects == 0\"]\n```\nNo duplicates here.\n");
    assert!(!o[0].ok);
    assert!(o[0].says.contains("duplicate_effects"), "{}", o[0]);
}

#[test]
fn a_multiple_choice_answer_the_run_contradicts_fails() {
    let ask = |holds: &str| {
        outcomes(&format!("```step\nkind = \"predict\"\nstop = \"60s\"\nchoices = [\"Nothing happens\", \"Worker 1 gets the message too\"]\nanswer = 2\nholds = [\"{holds}\"]\nwhy = \"The timer ran out.\"\n```\nWhat happens at 60 s?\n"))
    };
    assert!(ask("overlapping_runs >= 1")[0].ok);
    let o = ask("overlapping_runs == 0");
    assert!(!o[0].ok);
    assert!(o[0].says.contains("contradicts answer 2"), "{}", o[0]);
}

#[test]
fn a_number_answer_is_right_within_its_tolerance_of_the_run() {
    let measured = the_run().report.totals.redeliveries;
    let ask = |answer: u64, tolerance: u64| {
        outcomes(&format!("```step\nkind = \"predict\"\nstop = \"60s\"\nfigure = \"redeliveries\"\nanswer = {answer}\ntolerance = {tolerance}\nwhy = \"One per expiry.\"\n```\nHow many redeliveries?\n"))[0].clone()
    };
    assert!(ask(measured, 0).ok);
    assert!(ask(measured + 1, 1).ok);
    let o = ask(measured + 3, 1);
    assert!(!o.ok);
    assert!(
        o.says.contains(&format!("redeliveries is {measured}")),
        "{o}"
    );
}

#[test]
fn the_run_that_happens_next_is_the_first_delivery_at_or_after_the_stop() {
    let run = the_run();
    let next = run
        .deliveries
        .iter()
        .filter(|d| d.received_at >= 60_000)
        .min_by_key(|d| d.received_at)
        .expect("a delivery after 60 s");
    let ask = |message: u32, worker: u32| {
        outcomes(&format!("```step\nkind = \"predict\"\nstop = \"60s\"\nnext_run = {{ message = {message}, worker = {worker} }}\nwhy = \"The timer ran out.\"\n```\nClick the run that happens next.\n"))[0].clone()
    };
    let right = ask(next.message, next.worker);
    assert!(right.ok, "{right}");
    let wrong = ask(next.message, next.worker + 1);
    assert!(!wrong.ok);
    assert!(
        wrong.says.contains("the next run after the stop is"),
        "{wrong}"
    );
}

#[test]
fn a_stop_after_the_runs_end_fails() {
    let o = outcomes("```step\nkind = \"predict\"\nstop = \"100h\"\nfigure = \"redeliveries\"\nanswer = 1\ntolerance = 100\nwhy = \"Because.\"\n```\nHow many?\n");
    assert!(!o[0].ok);
    assert!(o[0].says.contains("after the run's end"), "{}", o[0]);
}

#[test]
fn a_moment_a_range_or_a_message_outside_the_run_fails() {
    let run = the_run();
    let end = run.scenario.duration_ms;
    let after = lease_format::units::format_ms(end + 1_000);
    for settings in [
        format!("at = \"{after}\""),
        format!("fit = [\"0s\", \"{after}\"]"),
        format!("highlight = [{}]", run.messages.len()),
    ] {
        let o = outcomes(&format!(
            "```step\nkind = \"text\"\n{settings}\n```\nRead.\n"
        ));
        assert!(!o[0].ok, "{settings}: {}", o[0]);
    }
    let o = outcomes("```step\nkind = \"text\"\nat = \"60s\"\nfit = [\"0s\", \"2min\"]\nhighlight = [0]\n```\nRead.\n");
    assert!(o[0].ok, "{}", o[0]);
}

#[test]
fn a_lesson_starts_from_a_scenario_file_inline_or_from_a_links_fields() {
    let shipped = shipped::find("ninety-second-message").expect("shipped");
    let step = "```step\nkind = \"do\"\ngoal = [\"overlapping_runs == 0\"]\ndemo = { timeout = \"135s\" }\n```\nRaise it.\n";
    let inline = format!(
        "+++\ntitle = \"T\"\n+++\n\n```scenario\n{}\n```\n\n{step}",
        shipped.text.trim()
    );
    let l = match lease_lesson::parse(&inline) {
        Ok(l) => l,
        Err(e) => panic!("{e}"),
    };
    assert_eq!(l.start.from, lease_lesson::StartFrom::File);
    assert_eq!(l.start.scenario, shipped.scenario);
    assert!(check(&l).iter().all(|o| o.ok));

    // The link's timeout already avoids the overlap: the goal holds before
    // the student does anything.
    let linked = format!(
        "+++\ntitle = \"T\"\nlink = \"https://example.org/?scenario=ninety-second-message&timeout=2min\"\n+++\n\n{step}"
    );
    let l = match lease_lesson::parse(&linked) {
        Ok(l) => l,
        Err(e) => panic!("{e}"),
    };
    assert_eq!(l.start.scenario.broker.visibility_timeout_ms, Some(120_000));
    let o = check(&l);
    assert!(!o[0].ok && o[0].says.contains("holds before"), "{}", o[0]);
}
