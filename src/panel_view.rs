//! What the panels module is told to show (`panel_host.rs` posts it): the
//! open panel, or the presenter bar, and what it shows, read from the
//! page's state. The tours' panel takes its ticks from the run's diagnosis.

use lease_view::TimelineView;

use crate::panel::{Panel, PanelView};
use crate::state::State;

/// What the open panel loaded on demand shows, as JSON (`panel_host.rs`).
/// Share and export shows only with a run on screen, as it always has.
pub fn panel_view(state: &State, link: &crate::url::Link) -> Option<String> {
    let panel = presented_panel(state)?;
    let run_scenario = match (panel, &state.a.run) {
        (Panel::Export, None) => return None,
        (_, Some(run)) => &run.scenario,
        (_, None) => &*state.a.scenario,
    };
    // The tours' checks run in the background worker, with the run's
    // diagnosis, and only on the tour's own scenario (the run of the page's
    // last scenario stays on screen until that has run). While the answer
    // for a newer run of it is on its way, the panel keeps the last one
    // rather than emptying itself at every change.
    let tour = state.tour.as_ref().map(|(id, step)| (id.as_str(), *step));
    let done = match (panel, tour, &state.a.run, &state.diagnosed) {
        (Panel::Tour, Some((id, _)), Some(run), Some(d))
            if d.tour.as_deref() == Some(id)
                && lease_diagnose::tour(id).is_some_and(|t| t.scenario == run.scenario.name) =>
        {
            d.tour_done.clone()
        }
        _ => None,
    };
    let (link, query) = match panel {
        Panel::Export => (
            crate::link::absolute(&crate::url::encode(link)),
            String::new(),
        ),
        Panel::Embed => (String::new(), crate::link::query_without_embed(state)),
        _ => (String::new(), String::new()),
    };
    serde_json::to_string(&PanelView {
        panel: panel.name().into(),
        scenario: (*state.a.scenario).clone(),
        run_scenario: run_scenario.clone(),
        link,
        by_message: state.view == TimelineView::Messages,
        range: state
            .range
            .map(|(from, to)| (from.round() as u64, to.round() as u64)),
        query,
        tour: tour.map(|(id, step)| (id.to_string(), step)),
        done,
        earned: state.tour_earned.clone(),
        present: state.present,
        notes: state.notes.clone(),
        draft: state.note_draft,
        at: state.menu_at.clone().filter(|_| panel == Panel::Menu),
        interview: state
            .interview
            .map(|shown| (u64::from(shown), state.playhead_ms)),
    })
    .ok()
}

/// The panel loaded on demand that shows: in presenter mode, the tours'
/// panel as the presenter bar, unless a note is being written; in the
/// interviewer's mode, its bar, until a panel is opened over it (share,
/// the keys, the table) and after that panel closes.
pub fn presented_panel(state: &State) -> Option<Panel> {
    let open = state.panel.filter(|p| p.on_demand());
    if state.interview.is_some() {
        return open.or(Some(Panel::Interview));
    }
    if state.present && state.panel != Some(Panel::Notes) {
        return Some(Panel::Tour);
    }
    open
}

#[cfg(test)]
mod tests {
    use std::rc::Rc;

    use lease_fields::{Field, Value};
    use yew::Reducible;

    use super::*;
    use crate::command::Command;
    use crate::state::tests::{diagnosed, effect};

    /// Per step of the tour on screen: (holds in the run, earned by the person).
    fn tour_marks(st: &State) -> Vec<(bool, bool)> {
        let view = panel_view(st, &crate::link::link_of(st)).expect("the tours panel is open");
        let v: serde_json::Value = serde_json::from_str(&view).expect("json");
        let holds = v["done"].as_array().expect("checked").clone();
        let earned = v["earned"].as_array().expect("earned").clone();
        holds
            .iter()
            .zip(&earned)
            .map(|(h, e)| (h.as_bool() == Some(true), e.as_bool() == Some(true)))
            .collect()
    }

    /// The page once the lower-the-timeout tour has started and run.
    fn on_lower_the_timeout_tour() -> Rc<State> {
        let id = "lower-the-timeout";
        let plan = lease_diagnose::tour(id).expect("tour");
        let start = lease_sim::shipped::find(plan.scenario).expect("shipped");
        effect(Rc::new(State::new()).reduce(Command::Tour(
            id.into(),
            Some(Box::new(start.scenario.clone())),
        )))
    }

    #[test]
    fn a_tour_step_that_holds_on_arrival_is_not_ticked_until_the_person_acts() {
        let st = on_lower_the_timeout_tour();
        // The 55 s step: the loop already runs at the scenario's own 30 s.
        let st = st.reduce(Command::TourStep(3));
        let marks = tour_marks(&st);
        assert_eq!(marks[3], (true, false), "holds on arrival, not earned");
        assert!(
            marks.iter().all(|&(_, earned)| !earned),
            "nothing is earned before the person does anything: {marks:?}"
        );
        let st = effect(st.reduce(Command::Set(Field::Timeout, Value::Num(55_000))));
        assert_eq!(tour_marks(&st)[3], (true, true), "earned by the change");
        // A step that is only read is earned by moving on from it.
        let st = st.reduce(Command::TourStep(1));
        assert_eq!(tour_marks(&st)[1], (true, false));
        let st = st.reduce(Command::TourStep(2));
        assert_eq!(tour_marks(&st)[1], (true, true));
    }

    #[test]
    fn an_interview_shows_its_bar_until_a_panel_is_opened_over_it() {
        let st = Rc::new(State::new()).reduce(Command::Present(true));
        let st = st.reduce(Command::Interview(true));
        assert_eq!(presented_panel(&st), Some(Panel::Interview));
        let view = panel_view(&st, &crate::link::link_of(&st)).expect("the bar");
        let v: serde_json::Value = serde_json::from_str(&view).expect("json");
        assert_eq!(
            v["interview"],
            serde_json::json!([0, 0]),
            "nothing revealed, at the start"
        );
        let st = st.reduce(Command::Panel(Some(Panel::Export)));
        assert_eq!(presented_panel(&st), Some(Panel::Export), "share shows");
        let st = st.reduce(Command::Panel(None));
        assert_eq!(
            presented_panel(&st),
            Some(Panel::Interview),
            "and the bar again"
        );
    }

    #[test]
    fn the_tours_panel_keeps_its_checks_while_a_newer_runs_answer_is_on_its_way() {
        let st = on_lower_the_timeout_tour();
        // The 55 s step.
        let st = st.reduce(Command::TourStep(3));
        let before = tour_marks(&st);
        let moved = st.reduce(Command::Set(Field::Timeout, Value::Num(55_000)));
        let ran = moved
            .runs_wanted()
            .into_iter()
            .fold(moved, |st, (id, ran)| st.reduce(Command::Ran(id, ran)));
        let waiting = tour_marks(&ran);
        assert_eq!(waiting.len(), before.len(), "the steps stay on screen");
        let answered = tour_marks(&diagnosed(ran));
        assert_eq!(
            answered[3],
            (true, true),
            "holds in the newer run, and earned"
        );
    }
}
