//! Guided tours of the exercises and interview questions: each a
//! scenario and a few steps; a step ticks itself when the run shows what it
//! asks for (a check on the current scenario and its run), and "Show me"
//! applies the step's own demonstration to the controls.

use lease_diagnose::{tour, tour_text, tour_texts, StepText, TourText};
use lease_ui::panel::PanelCommand;
use lease_ui::scroll::bring_selector_into_view;
use yew::prelude::*;

use super::panel_head;
use crate::tour_look::{look_words, target_selector};

#[derive(Properties, PartialEq)]
pub struct TourProps {
    /// The tour under way and its step, if any.
    pub current: Option<(String, usize)>,
    /// Whether each of its steps holds in the run on screen (the page checks,
    /// as the run is in its memory); `None` while there is no run.
    pub done: Option<Vec<bool>>,
    /// Whether the person earned each step's tick: their own change while
    /// it was shown, or moving on from a step that is only read.
    pub earned: Vec<bool>,
    pub on_command: Callback<PanelCommand>,
}

/// Marks what the current step points at, unmarks the rest, and brings
/// `shown` into view (each step, also when two in a row point at the same
/// thing); closing the panel unmarks it.
#[hook]
pub(super) fn use_point_at(
    step: Option<(String, usize)>,
    ran: bool,
    selector: Option<String>,
    shown: Option<String>,
) {
    // Again once the tour's scenario has run: its run changes the page's
    // layout under the target.
    use_effect_with((step, ran, selector, shown), |(_, _, selector, shown)| {
        let doc = gloo::utils::document();
        if let Ok(old) = doc.query_selector_all(".tour-target") {
            for i in 0..old.length() {
                if let Some(el) = old
                    .item(i)
                    .and_then(|n| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(n).ok())
                {
                    let _ = el.class_list().remove_1("tour-target");
                }
            }
        }
        let marked = selector
            .as_deref()
            .and_then(|s| doc.query_selector(s).ok().flatten());
        if let Some(el) = &marked {
            let _ = el.class_list().add_1("tour-target");
        }
        if let Some(s) = shown {
            bring_selector_into_view(s);
        }
        move || {
            if let Some(el) = marked {
                let _ = el.class_list().remove_1("tour-target");
            }
        }
    });
}

#[function_component(TourPanel)]
pub fn tour_panel(p: &TourProps) -> Html {
    let cb = p.on_command.clone();
    let all = tour_texts();
    let running: Option<(&TourText, usize)> = p
        .current
        .as_ref()
        .and_then(|(id, step)| tour_text(id).map(|t| (t, *step)));
    let target = running
        .as_ref()
        .and_then(|(t, i)| t.steps.get(*i).map(|s| target_selector(s.look_at)));
    use_point_at(p.current.clone(), p.done.is_some(), target.clone(), target);
    let on_pick = {
        let cb = cb.clone();
        Callback::from(move |e: Event| {
            let v = e
                .target_unchecked_into::<web_sys::HtmlSelectElement>()
                .value();
            if !v.is_empty() {
                cb.emit(PanelCommand::StartTour(v));
            }
        })
    };
    let body = match (&running, &p.done) {
        (Some((t, i)), Some(done)) if done.len() == t.steps.len() => {
            let i = (*i).min(t.steps.len().saturating_sub(1));
            let step: &StepText = &t.steps[i];
            let last = i + 1 == t.steps.len();
            let back = cb.reform(move |_: MouseEvent| PanelCommand::TourStep(i.saturating_sub(1)));
            let next = cb.reform(move |_: MouseEvent| PanelCommand::TourStep(i + 1));
            // The page applies the step's demonstration to the side the
            // controls edit.
            let has_demo = tour(t.id)
                .is_some_and(|plan| plan.steps.get(i).is_some_and(|s| !s.demo.is_empty()));
            let demo = has_demo.then(|| {
                let id = t.id.to_string();
                let target = target_selector(step.look_at);
                cb.reform(move |_: MouseEvent| {
                    bring_selector_into_view(&target);
                    PanelCommand::TourDemo {
                        tour: id.clone(),
                        step: i,
                    }
                })
            });
            html! {
                <div class="tour-body">
                    <p class="tour-question"><strong>{"The question: "}</strong>{t.question}</p>
                    <ol class="tour-steps">
                        { for t.steps.iter().enumerate().map(|(k, s)| {
                            let mark = Mark::of(done[k], p.earned.get(k).copied().unwrap_or(false));
                            let ticked = mark == Mark::Ticked;
                            let class = classes!(
                                "tour-step",
                                (k == i).then_some("tour-step-current"),
                                ticked.then_some("tour-step-done"),
                            );
                            let go = cb.reform(move |_: MouseEvent| PanelCommand::TourStep(k));
                            html! {
                                <li {class} id={format!("tour-step-{k}")} data-done={ticked.to_string()} data-mark={mark.name()}>
                                    <button type="button" class="tour-step-link" onclick={go}
                                        aria-current={(k == i).then_some("step")}>
                                        <span class="tour-tick" aria-label={mark.words()}>{mark.sign()}</span>
                                        <span class="tour-step-words">{ if k == i { s.text.to_string() } else { first_words(s.text) } }</span>
                                    </button>
                                </li>
                            }
                        }) }
                    </ol>
                    <p class="tour-status" id="tour-status" role="status">
                        { match Mark::of(done[i], p.earned.get(i).copied().unwrap_or(false)) {
                            Mark::Ticked => "✓ Done: after your change, this holds in the run on screen.",
                            Mark::Look => "Look: this already holds in the run on screen.",
                            Mark::NotYet => "Not yet: do what the step says, and it ticks itself.",
                        } }
                        { format!(" Look at: {}.", look_words(step.look_at)) }
                    </p>
                    <div class="panel-row">
                        <button type="button" id="tour-back" onclick={back} disabled={i == 0}>{"Back"}</button>
                        if let Some(demo) = demo {
                            <button type="button" id="tour-show-me" onclick={demo}>{"Show me"}</button>
                        }
                        <button type="button" id="tour-next" onclick={next} disabled={last}>{"Next"}</button>
                        <span class="muted">{format!("Step {} of {}", i + 1, t.steps.len())}</span>
                    </div>
                </div>
            }
        }
        _ => {
            html! { <p class="muted">{"Pick a tour: it loads its scenario and walks through it a step at a time."}</p> }
        }
    };
    html! {
        <section class="panel" id="tour-panel" aria-labelledby="tour-title">
            { panel_head("tour-title", "Guided tours: exercises and interview questions", "Close Tours", cb.reform(|_: MouseEvent| PanelCommand::Close)) }
            <div class="panel-row">
                <label for="tour-pick">{"Tour"}</label>
                <select id="tour-pick" onchange={on_pick}>
                    <option value="" selected={running.is_none()}>{"Choose a tour…"}</option>
                    { for all.iter().map(|t| html! {
                        <option value={t.id} selected={running.as_ref().is_some_and(|(r, _)| r.id == t.id)}>{t.title}</option>
                    }) }
                </select>
            </div>
            {body}
        </section>
    }
}

/// How a step shows: ticked only when the person earned it; holding
/// without their doing is something to look at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mark {
    Ticked,
    Look,
    NotYet,
}

impl Mark {
    fn of(holds: bool, earned: bool) -> Mark {
        match (holds, earned) {
            (true, true) => Mark::Ticked,
            (true, false) => Mark::Look,
            (false, _) => Mark::NotYet,
        }
    }
    fn name(self) -> &'static str {
        match self {
            Mark::Ticked => "done",
            Mark::Look => "look",
            Mark::NotYet => "not-yet",
        }
    }
    fn words(self) -> &'static str {
        match self {
            Mark::Ticked => "done",
            Mark::Look => "look",
            Mark::NotYet => "not yet",
        }
    }
    fn sign(self) -> &'static str {
        match self {
            Mark::Ticked => "✓",
            Mark::Look => "◉",
            Mark::NotYet => "○",
        }
    }
}

fn first_words(text: &str) -> String {
    let cut: String = text.chars().take(70).collect();
    if cut.len() < text.len() {
        format!("{cut}…")
    } else {
        cut
    }
}
