use lease_fields::{Field, Value};

use super::*;
use crate::catalog::DEFAULT_SCENARIO;

impl State {
    /// The page a new visitor sees: the default scenario, run.
    pub(crate) fn new() -> Self {
        let default = crate::catalog::find(DEFAULT_SCENARIO).unwrap_or_default();
        let mut st = State::from_commands(vec![Command::Loaded(Box::new(default))]);
        st.run_now();
        st
    }
}

fn side_b(st: &State) -> &Side {
    st.b.as_ref().expect("comparing")
}

/// What the page's effect does after a render: make the wanted runs and
/// hand their outcomes to the reducer.
pub(crate) fn effect(st: Rc<State>) -> Rc<State> {
    let st = st
        .runs_wanted()
        .into_iter()
        .fold(st, |st, (id, ran)| st.reduce(Command::Ran(id, ran)));
    diagnosed(st)
}

/// What the worker answers when the page asks: the findings of the run
/// on screen and the open tour's checks on it.
pub(crate) fn diagnosed(st: Rc<State>) -> Rc<State> {
    let Some(run) = st.a.run.clone() else {
        return st;
    };
    let tour = st.tour.as_ref().map(|(id, _)| id.clone());
    let lease_jobs::Reply::Findings {
        findings,
        tour_done,
        ..
    } = lease_jobs::diagnose_job::findings_of(1, &run.scenario, &run, tour.as_deref())
    else {
        panic!("the worker answers with findings")
    };
    st.reduce(Command::Diagnosed(Rc::new(crate::command::Diagnosed {
        run,
        tour,
        findings,
        tour_done,
    })))
}

#[test]
fn a_setting_wants_a_run_and_the_effect_makes_it() {
    let st = Rc::new(State::new());
    let old = st.a.run.clone();
    assert!(old.is_some() && st.a.wanted.is_none());
    let moved = st.reduce(Command::Set(Field::Timeout, Value::Num(45_000)));
    assert_eq!(moved.a.scenario.broker.visibility_timeout_ms, Some(45_000));
    assert!(moved.a.run == old, "the reducer does not run the scenario");
    assert!(moved.a.wanted.is_some());
    let ran = effect(moved);
    assert!(ran.a.run != old && ran.a.wanted.is_none());
    assert_eq!(
        ran.a
            .run
            .as_ref()
            .map(|r| r.scenario.broker.visibility_timeout_ms),
        Some(Some(45_000))
    );
}

#[test]
fn a_rehearsed_move_runs_on_a_copy_and_leaves_the_page_as_it_was() {
    let st = State::new();
    let shown = st.a.run.clone();
    let rehearsed = st.rehearse_a_move().expect("the default page has sliders");
    // The move was made and run: a new run of a scenario that reads the same.
    assert!(rehearsed.a.run.is_some() && rehearsed.a.run != shown);
    assert!(rehearsed.a.wanted.is_none());
    let timeout = |s: &Scenario| lease_sim::resolve::resolve(s).visibility_timeout_ms;
    assert_eq!(timeout(&rehearsed.a.scenario), timeout(&st.a.scenario));
    // The page itself kept its run, and its next move takes the id it
    // would have taken without the rehearsal.
    assert!(st.a.run == shown);
    let st = Rc::new(st);
    let untouched = Rc::new(State::new());
    let set = || Command::Set(Field::Timeout, Value::Num(45_000));
    assert_eq!(
        st.clone().reduce(set()).a.wanted,
        untouched.reduce(set()).a.wanted
    );
}

#[test]
fn a_run_made_for_an_older_setting_is_ignored() {
    let st = Rc::new(State::new());
    let first = st.reduce(Command::Set(Field::Timeout, Value::Num(45_000)));
    let (id, ran) = first.runs_wanted().remove(0);
    let second = first.reduce(Command::Set(Field::Timeout, Value::Num(50_000)));
    let late = second.clone().reduce(Command::Ran(id, ran));
    assert!(Rc::ptr_eq(&late, &second), "the older run changes nothing");
}

#[test]
fn a_diagnosis_of_a_run_no_longer_on_screen_is_dropped() {
    let first = effect(Rc::new(State::new()));
    let old_run = first.a.run.clone().expect("a run");
    assert!(first.diagnosed.as_ref().is_some_and(|d| d.run == old_run));
    let moved = first.reduce(Command::Set(Field::Timeout, Value::Num(45_000)));
    let now = moved
        .runs_wanted()
        .into_iter()
        .fold(moved, |st, (id, ran)| st.reduce(Command::Ran(id, ran)));
    assert!(now.a.run.as_ref() != Some(&old_run));
    let late = Rc::new(crate::command::Diagnosed {
        run: old_run,
        tour: None,
        findings: Vec::new(),
        tour_done: None,
    });
    let after = now.clone().reduce(Command::Diagnosed(late));
    assert!(Rc::ptr_eq(&after, &now), "the late answer changes nothing");
    let answered = diagnosed(after);
    let run = answered.a.run.clone().expect("a run");
    assert!(answered.diagnosed.as_ref().is_some_and(|d| d.run == run));
}

#[test]
fn commands_compare_and_print() {
    let a = Command::Set(Field::Timeout, Value::Num(30_000));
    assert_eq!(a, Command::Set(Field::Timeout, Value::Num(30_000)));
    assert_ne!(a, Command::Set(Field::Timeout, Value::Num(31_000)));
    assert!(format!("{a:?}").contains("Timeout"));
}

/// The default page comparing itself, then side B edited into a run of
/// 12,000 messages: small by the estimate, too many events for the try.
fn comparing_with_a_large_b() -> Rc<State> {
    let st = Rc::new(State::new()).reduce(Command::CompareStart);
    effect(st.reduce(Command::SetAll(vec![
        (Field::Backlog, Value::Num(12_000)),
        (Field::Rate, Value::Float(0.0)),
        (Field::Workers, Value::Num(100)),
        (Field::Conc, Value::Num(10)),
        (Field::Timeout, Value::Num(3_600_000)),
        (Field::Dist, lease_fields::work::Shape::Constant.into()),
        (Field::Median, Value::Float(200.0)),
    ])))
}

#[test]
fn side_b_past_the_try_waits_for_its_own_background_run() {
    let st = comparing_with_a_large_b();
    assert!(st.a.pending.is_none(), "A is untouched");
    let b = side_b(&st)
        .pending
        .clone()
        .expect("B went to the background");
    assert_eq!(st.error, None);
    let a_run = st.a.run.clone().expect("A's run");
    let old_b = side_b(&st).run.clone().expect("B's last run stays shown");

    // A reply to another job is ignored; B's own lands in B only.
    let whole = lease_sim::simulate(&b.scenario, &lease_sim::Options::default()).unwrap();
    let other = st.clone().reduce(Command::RunArrived(
        b.id + 1_000,
        RunHandle::new(whole.clone()),
    ));
    assert!(side_b(&other).pending.is_some() && side_b(&other).run.as_ref() == Some(&old_b));
    let done = st.reduce(Command::RunArrived(b.id, RunHandle::new(whole)));
    assert!(side_b(&done).pending.is_none());
    assert_eq!(
        side_b(&done).run.as_ref().map(|r| r.messages.len()),
        Some(12_000)
    );
    assert!(done.a.run.as_ref() == Some(&a_run), "A's run is the same");
}

#[test]
fn a_refusal_is_not_a_run_error_and_goes_with_the_next_run() {
    let st = Rc::new(State::new());
    let run = st.a.run.clone();
    let refused = st.reduce(Command::Reject("The file was not loaded: x.json".into()));
    assert_eq!(
        refused.refused.as_deref(),
        Some("The file was not loaded: x.json")
    );
    assert_eq!(refused.error, None, "the setting shown still runs");
    assert!(refused.a.run == run, "the run shown stays");
    let unknown = refused
        .clone()
        .reduce(Command::Load("no-such-scenario".into()));
    assert!(unknown
        .refused
        .as_deref()
        .is_some_and(|w| w.contains("no-such-scenario")));
    assert_eq!(unknown.error, None);
    let moved = effect(refused.reduce(Command::Set(Field::Timeout, Value::Num(45_000))));
    assert_eq!(moved.refused, None, "a new run clears it");
    assert!(moved.a.run != run);
}

#[test]
fn a_failed_background_run_of_side_b_says_side_b() {
    let st = comparing_with_a_large_b();
    let id = side_b(&st).pending.as_ref().unwrap().id;
    let failed = st.reduce(Command::RunFailed(id, "the worker stopped".into()));
    assert!(side_b(&failed).pending.is_none());
    assert_eq!(failed.error.as_deref(), Some("side B: the worker stopped"));
}

#[test]
fn cancelling_side_bs_background_run_keeps_its_last_run_and_says_so() {
    let st = comparing_with_a_large_b();
    let old_b = side_b(&st).run.clone();
    let id = side_b(&st).pending.as_ref().unwrap().id;
    let cancelled = st.reduce(Command::CancelRunB);
    assert!(side_b(&cancelled).pending.is_none() && side_b(&cancelled).cancelled);
    assert!(
        side_b(&cancelled).run.clone() == old_b,
        "B keeps its last run"
    );
    // The cancelled job's late reply is dropped.
    let whole = lease_sim::simulate(
        &cancelled.b.as_ref().unwrap().scenario,
        &lease_sim::Options::default(),
    )
    .unwrap();
    let late = cancelled
        .clone()
        .reduce(Command::RunArrived(id, RunHandle::new(whole)));
    assert!(side_b(&late).run.clone() == old_b);
    // A's cancel is A's: it leaves B's run under way alone.
    let a_cancel = comparing_with_a_large_b().reduce(Command::CancelRun);
    assert!(side_b(&a_cancel).pending.is_some() && !side_b(&a_cancel).cancelled);
    // B's next setting clears the notice.
    let next = cancelled.reduce(Command::Set(Field::Timeout, Value::Num(30_000)));
    assert!(!side_b(&next).cancelled);
}

#[test]
fn playback_runs_to_the_longer_side_s_end_while_comparing() {
    // A done at 90 s; B's short timeout keeps the message going for the
    // whole 5-minute run.
    let a = effect(Rc::new(State::new()).reduce(Command::Set(Field::Timeout, Value::Num(135_000))));
    assert_eq!((a.end_ms(), a.playhead_ms), (90_000, 90_000));
    let st = a.reduce(Command::CompareStart);
    let st = effect(st.reduce(Command::Set(Field::Timeout, Value::Num(30_000))));
    assert_eq!(side_b(&st).end_ms(), 300_000);
    assert_eq!(
        (st.end_ms(), st.playhead_ms),
        (300_000, 300_000),
        "at the end, the playhead follows B's"
    );
    let st = st.reduce(Command::Seek(0)).reduce(Command::Seek(u64::MAX));
    assert_eq!(st.playhead_ms, 300_000);
    // Stepping past A's last event goes on to B's end.
    let st = st.reduce(Command::Seek(89_000)).reduce(Command::Step(true));
    assert_eq!(st.playhead_ms, 90_000);
    assert_eq!(st.clone().reduce(Command::Step(true)).playhead_ms, 300_000);
    // Without B the playhead is back within A's run.
    let st = st
        .reduce(Command::Seek(200_000))
        .reduce(Command::CompareStop);
    assert_eq!((st.end_ms(), st.playhead_ms), (90_000, 90_000));
}

#[test]
fn stopping_the_comparison_forgets_side_bs_background_run() {
    let st = comparing_with_a_large_b().reduce(Command::CompareStop);
    assert!(st.b.is_none());
}

fn with_fault(s: &Scenario, f: lease_sim::scenario::Fault) -> Scenario {
    let mut next = s.clone();
    next.faults.push(f);
    next
}

#[test]
fn a_menu_action_runs_and_undo_goes_back_one_step_at_a_time() {
    use lease_sim::scenario::Fault;
    let st = effect(Rc::new(State::new()));
    let first = st.a.scenario.clone();
    let totals = |st: &State| st.a.run.as_ref().expect("a run").report.totals.clone();
    let before = totals(&st);
    let crash = with_fault(
        &first,
        Fault::Crash {
            worker: 0,
            at_ms: 30_000,
            restart_after_ms: None,
        },
    );
    let said = "Crashed worker 0 at 0:30.".to_string();
    let st = effect(st.reduce(Command::Act(Box::new(crash.clone()), said.clone())));
    assert_eq!(*st.a.scenario, crash);
    assert_eq!(st.a.run.as_ref().expect("a run").scenario, crash);
    assert_ne!(totals(&st), before, "the crash changed the run");
    assert_eq!(st.said.as_ref(), Some(&said));
    let pause = with_fault(
        &crash,
        Fault::Pause {
            worker: 1,
            at_ms: 10_000,
            duration_ms: 5_000,
        },
    );
    let st = effect(st.reduce(Command::Act(Box::new(pause), "Paused.".into())));
    let st = effect(st.reduce(Command::Undo));
    assert_eq!(*st.a.scenario, crash);
    let st = effect(st.reduce(Command::Undo));
    assert_eq!(st.a.scenario, first);
    assert_eq!(totals(&st), before, "the same run as before the actions");
    assert_eq!(
        st.said.as_deref(),
        Some("Undone: Crashed worker 0 at 0:30.")
    );
    let again = st.clone().reduce(Command::Undo);
    assert!(
        Rc::ptr_eq(&again, &st),
        "nothing more to undo changes nothing"
    );
}

#[test]
fn a_fork_compares_the_scenario_as_it_was_with_side_b_changed() {
    use lease_sim::scenario::Fault;
    let st = effect(Rc::new(State::new()));
    let first = st.a.scenario.clone();
    let crash = with_fault(
        &first,
        Fault::Crash {
            worker: 1,
            at_ms: 70_000,
            restart_after_ms: None,
        },
    );
    let st = effect(st.reduce(Command::Fork(Box::new(crash.clone()))));
    assert_eq!(st.a.scenario, first);
    assert_eq!(*side_b(&st).scenario, crash);
    assert_eq!(side_b(&st).run.as_ref().expect("B ran").scenario, crash);
    assert_eq!(st.panel, Some(Panel::Compare));
}

#[test]
fn loading_another_scenario_forgets_what_undo_would_restore() {
    let st = effect(Rc::new(State::new()));
    let mut next = (*st.a.scenario).clone();
    next.seed = 99;
    let st = st.reduce(Command::Act(Box::new(next), "x".into()));
    let clip = crate::catalog::find("clip-surge").expect("shipped");
    let st = st.reduce(Command::Loaded(Box::new(clip)));
    assert!(st.undo.is_empty() && st.said.is_none());
}

#[test]
fn choosing_a_broker_keeps_the_timeout_the_person_set() {
    use lease_sim::scenario::Preset;
    let st = Rc::new(State::new());
    let other = *Preset::ALL
        .iter()
        .find(|p| **p != st.a.scenario.broker.preset)
        .expect("another preset");
    let moved = st.reduce(Command::Set(Field::Timeout, Value::Num(45_000)));
    let chosen = moved.reduce(Command::ChoosePreset(other));
    assert_eq!(chosen.a.scenario.broker.preset, other);
    assert_eq!(chosen.a.scenario.broker.visibility_timeout_ms, Some(45_000));
    assert!(chosen.a.wanted.is_some(), "the new broker's run is wanted");
}

/// A presenter's arrival at a step: the step, then its demonstration.
fn arrive(st: Rc<State>, tour: &str, step: usize) -> Rc<State> {
    let st = st.reduce(Command::TourStep(step));
    let demo = lease_diagnose::tour(tour)
        .and_then(|t| t.steps.get(step))
        .map_or(&[][..], |s| s.demo);
    if demo.is_empty() {
        return st;
    }
    effect(st.reduce(Command::Fix(demo.to_vec())))
}

#[test]
fn going_back_a_step_shows_the_scenario_that_step_showed() {
    let id = "ninety-second-timeline";
    let plan = lease_diagnose::tour(id).expect("tour");
    let start = crate::catalog::find(plan.scenario).expect("shipped");
    let st = effect(
        Rc::new(State::new()).reduce(Command::Tour(id.into(), Some(Box::new(start.clone())))),
    );
    let first = st.a.scenario.clone();
    let st = (1..plan.steps.len()).fold(st, |st, i| arrive(st, id, i));
    // The last step heartbeats; the one before raised the timeout to 135 s.
    assert!(st.a.scenario.workers.heartbeat.clone().flatten().is_some());
    let back = effect(st.reduce(Command::TourReturn(4)));
    assert_eq!(back.tour.as_ref().map(|(_, i)| *i), Some(4));
    assert_eq!(back.a.scenario.broker.visibility_timeout_ms, Some(135_000));
    assert!(
        back.a
            .scenario
            .workers
            .heartbeat
            .clone()
            .flatten()
            .is_none(),
        "the later step's heartbeat is gone"
    );
    assert!(
        back.a
            .run
            .as_ref()
            .is_some_and(|r| r.scenario == *back.a.scenario),
        "and its run is the one on screen"
    );
    // What the person changed while a step was shown is what it shows again.
    let tried = effect(back.reduce(Command::Set(Field::Timeout, Value::Num(150_000))));
    let there = effect(
        tried
            .reduce(Command::TourReturn(5))
            .reduce(Command::TourReturn(4)),
    );
    assert_eq!(there.a.scenario.broker.visibility_timeout_ms, Some(150_000));
    let home = effect(there.reduce(Command::TourReturn(0)));
    assert_eq!(
        home.a.scenario, first,
        "the first step shows the tour's own scenario"
    );
}

#[test]
fn returning_to_a_step_without_a_tour_changes_nothing() {
    let st = Rc::new(State::new());
    let same = st.clone().reduce(Command::TourReturn(2));
    assert!(Rc::ptr_eq(&st, &same));
}

/// The default page (the ninety-second message, run) in an interview.
fn interviewing() -> Rc<State> {
    effect(Rc::new(State::new()).reduce(Command::Interview(true)))
}

#[test]
fn an_interview_starts_before_the_first_event_with_every_figure_hidden() {
    let st = Rc::new(State::new());
    assert_eq!(st.playhead_ms, st.end_ms(), "a run opens at its end");
    let st = st.reduce(Command::Play).reduce(Command::Interview(true));
    assert_eq!(st.interview, Some(0), "no figure revealed");
    assert_eq!(st.playhead_ms, 0, "nothing of the run shows yet");
    assert!(!st.playing, "the interviewer steps it");
}

#[test]
fn revealing_a_figure_shows_that_figure_alone() {
    let st = interviewing().reduce(Command::Reveal(3));
    assert_eq!(st.interview, Some(1 << 3));
    let st = st.reduce(Command::Reveal(lease_ui::panel::DIAGNOSIS_FIGURE));
    assert_eq!(
        st.interview,
        Some(1 << 3 | 1 << lease_ui::panel::DIAGNOSIS_FIGURE)
    );
}

#[test]
fn a_figure_the_page_does_not_have_is_not_revealed() {
    let st = interviewing();
    let same = st.clone().reduce(Command::Reveal(lease_ui::panel::FIGURES));
    assert!(Rc::ptr_eq(&st, &same), "nothing changed");
    let page = Rc::new(State::new());
    let same = page.clone().reduce(Command::Reveal(0));
    assert!(Rc::ptr_eq(&page, &same), "outside an interview all shows");
}

#[test]
fn a_fork_in_an_interview_keeps_the_playhead_and_hides_the_new_runs_figures() {
    let st = interviewing();
    let first_receive =
        st.a.run
            .as_ref()
            .expect("run")
            .events
            .t(1)
            .expect("an event");
    let st = st
        .reduce(Command::Seek(first_receive))
        .reduce(Command::Reveal(0))
        .reduce(Command::Reveal(2));
    let forked = effect(st.reduce(Command::Set(Field::Timeout, Value::Num(45_000))));
    assert_eq!(forked.a.scenario.broker.visibility_timeout_ms, Some(45_000));
    assert!(forked
        .a
        .run
        .as_ref()
        .is_some_and(|r| r.scenario.broker.visibility_timeout_ms == Some(45_000)));
    assert_eq!(forked.playhead_ms, first_receive, "the future stays hidden");
    assert_eq!(forked.interview, Some(0), "the answer is predicted first");
}

#[test]
fn a_fork_at_the_end_of_an_interview_does_not_jump_to_the_new_runs_end() {
    let st = interviewing();
    let old_end = st.end_ms();
    let st = st.reduce(Command::Seek(old_end));
    // A longer lease: the message's run ends later.
    let forked = effect(st.reduce(Command::Set(Field::Timeout, Value::Num(120_000))));
    assert!(
        forked.playhead_ms <= old_end,
        "{} past {old_end}",
        forked.playhead_ms
    );
}

#[test]
fn leaving_the_interview_shows_every_figure() {
    let st = interviewing().reduce(Command::Reveal(1));
    let st = st.reduce(Command::Interview(false));
    assert_eq!(st.interview, None);
}

#[test]
fn a_scenario_loaded_in_an_interview_opens_before_its_first_event() {
    let st = interviewing();
    let clip = crate::catalog::find("clip-surge").expect("shipped");
    let st = effect(st.reduce(Command::Loaded(Box::new(clip))));
    assert_eq!(st.a.scenario.name, "clip-surge");
    assert_eq!(st.playhead_ms, 0);
    assert_eq!(st.interview, Some(0));
}
