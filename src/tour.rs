//! Guided tours of the seeds' exercises and interview questions: each a
//! scenario and a few steps; a step ticks itself when the run shows what it
//! asks for (a check on the current scenario and its run), and "Show me"
//! applies the step's own demonstration to the controls.

use std::rc::Rc;

use lease_diagnose::{tour, tours, Tour};
use lease_sim::Scenario;
use yew::prelude::*;

use crate::command::Command;
use crate::panel::panel_head;
use crate::run_handle::RunHandle;

#[derive(Properties, PartialEq)]
pub struct TourProps {
    /// The tour under way and its step, if any.
    pub current: Option<(String, usize)>,
    pub scenario: Rc<Scenario>,
    pub run: Option<RunHandle>,
    pub on_command: Callback<Command>,
}

/// The element a step points at, by the tour's `look_at` word.
pub fn target_selector(look_at: &str) -> String {
    match look_at {
        "timeline" => "#timeline".into(),
        "totals" => "#totals".into(),
        "charts" => "#charts".into(),
        "diagnosis" => "#diagnosis".into(),
        "sweep" => "#open-sweep".into(),
        "max_extensions" => "#ctl-cap".into(),
        other => format!("#ctl-{other}"),
    }
}

/// Marks what the current step points at, and unmarks the rest.
#[hook]
fn use_point_at(selector: Option<String>) {
    use_effect_with(selector, |selector| {
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
        if let Some(el) = selector
            .as_deref()
            .and_then(|s| doc.query_selector(s).ok().flatten())
        {
            let _ = el.class_list().add_1("tour-target");
        }
    });
}

#[function_component(TourPanel)]
pub fn tour_panel(p: &TourProps) -> Html {
    let cb = p.on_command.clone();
    let all = tours();
    let running: Option<(&Tour, usize)> = p
        .current
        .as_ref()
        .and_then(|(id, step)| tour(id).map(|t| (t, *step)));
    use_point_at(
        running
            .as_ref()
            .and_then(|(t, i)| t.steps.get(*i).map(|s| target_selector(s.look_at))),
    );
    let on_pick = {
        let cb = cb.clone();
        Callback::from(move |e: Event| {
            let v = e
                .target_unchecked_into::<web_sys::HtmlSelectElement>()
                .value();
            if !v.is_empty() {
                cb.emit(Command::StartTour(v));
            }
        })
    };
    let body = match (&running, &p.run) {
        (Some((t, i)), Some(run)) => {
            let i = (*i).min(t.steps.len().saturating_sub(1));
            let done: Vec<bool> = t
                .steps
                .iter()
                .map(|s| s.check.done(&p.scenario, run))
                .collect();
            let step = &t.steps[i];
            let last = i + 1 == t.steps.len();
            let back = cb.reform(move |_: MouseEvent| Command::TourStep(i.saturating_sub(1)));
            let next = cb.reform(move |_: MouseEvent| Command::TourStep(i + 1));
            let demo = (!step.demo.is_empty()).then(|| {
                let fixes = step.demo;
                let cb = cb.clone();
                Callback::from(move |_: MouseEvent| {
                    cb.emit(Command::Edit(Rc::new(move |s: &mut Scenario| {
                        for f in fixes {
                            f.apply(s);
                        }
                    })));
                })
            });
            html! {
                <div class="tour-body">
                    <p class="tour-question"><strong>{"The question: "}</strong>{t.question}</p>
                    <ol class="tour-steps">
                        { for t.steps.iter().enumerate().map(|(k, s)| {
                            let class = classes!(
                                "tour-step",
                                (k == i).then_some("tour-step-current"),
                                done[k].then_some("tour-step-done"),
                            );
                            let go = cb.reform(move |_: MouseEvent| Command::TourStep(k));
                            html! {
                                <li {class} id={format!("tour-step-{k}")} data-done={done[k].to_string()}>
                                    <button type="button" class="tour-step-link" onclick={go}
                                        aria-current={(k == i).then_some("step")}>
                                        <span class="tour-tick" aria-label={ if done[k] { "done" } else { "not yet" } }>{ if done[k] { "✓" } else { "○" } }</span>
                                        { if k == i { s.text.to_string() } else { first_words(s.text) } }
                                    </button>
                                </li>
                            }
                        }) }
                    </ol>
                    <p class="tour-status" id="tour-status" role="status">
                        { if done[i] { "✓ This step holds in the run on screen." } else { "Not yet: do what the step says, and it ticks itself." } }
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
            { panel_head("tour-title", "Guided tours: the seeds' exercises and interview questions", "Close Tours", cb.reform(|_: MouseEvent| Command::Panel(None))) }
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

fn first_words(text: &str) -> String {
    let cut: String = text.chars().take(70).collect();
    if cut.len() < text.len() {
        format!("{cut}…")
    } else {
        cut
    }
}

fn look_words(look_at: &str) -> String {
    match look_at {
        "timeline" => "the timeline".into(),
        "totals" => "the totals".into(),
        "charts" => "the charts".into(),
        "diagnosis" => "the Diagnosis".into(),
        "sweep" => "the Sweep panel".into(),
        "max_extensions" => "the Extension cap slider".into(),
        "timeout" => "the Visibility timeout slider".into(),
        "heartbeat" => "the Heartbeat controls".into(),
        "fence" => "the Store fence select".into(),
        "workers" => "the Workers slider".into(),
        "max-receive" => "the Max receive count slider".into(),
        other => other.replace('_', " "),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_step_points_at_something_the_page_has() {
        let known = [
            "#timeline",
            "#totals",
            "#charts",
            "#diagnosis",
            "#open-sweep",
            "#ctl-cap",
            "#ctl-timeout",
            "#ctl-heartbeat",
            "#ctl-fence",
            "#ctl-workers",
            "#ctl-max-receive",
        ];
        for t in tours() {
            for s in t.steps {
                let sel = target_selector(s.look_at);
                assert!(
                    known.contains(&sel.as_str()),
                    "{}: {} -> {sel}",
                    t.id,
                    s.look_at
                );
            }
        }
    }
}
