//! Presenter mode's bar: a tour's steps as slides for a projector and a
//! clicker. PageDown / → go to the next step and PageUp / ← back, each
//! step's demonstration ("Show me") applied on arrival; the page's controls
//! collapse to the one the step points at and those the presenter pinned
//! (`panels.css`, under `.presenting`). The page holds only the mode
//! (`present=1`, the P key, Escape to leave). A clicker's blank key, `.`
//! or B, blacks the screen out and brings it back, as slide software does.

use gloo::events::{EventListener, EventListenerOptions};
use lease_diagnose::{tour, tour_text, tour_texts};
use lease_ui::panel::PanelCommand;
use wasm_bindgen::JsCast;
use yew::prelude::*;

use super::tour::use_point_at;
use crate::tour_look::target_selector;

/// What marks a control the presenter keeps in view.
const PIN_CLASS: &str = "presenter-pin";

#[derive(Properties, PartialEq)]
pub struct PresenterProps {
    /// The tour under way and its step, if any.
    pub current: Option<(String, usize)>,
    /// The name of the scenario on screen: the bar offers its tours first.
    pub scenario: String,
    pub on_command: Callback<PanelCommand>,
}

/// Go to `step` of `tour` and apply its demonstration, as "Show me" would.
fn arrive(cb: &Callback<PanelCommand>, tour_id: &str, step: usize) {
    cb.emit(PanelCommand::TourStep(step));
    if tour(tour_id)
        .and_then(|t| t.steps.get(step))
        .is_some_and(|s| !s.demo.is_empty())
    {
        cb.emit(PanelCommand::TourDemo {
            tour: tour_id.to_string(),
            step,
        });
    }
}

/// Whether a key pressed at `target` is the page's to steer a slide with:
/// not while typing, moving a slider or steering the timeline, which have
/// arrow keys of their own.
fn slide_key_target(target: Option<web_sys::EventTarget>) -> bool {
    let Some(el) = target.and_then(|t| t.dyn_into::<web_sys::Element>().ok()) else {
        return true;
    };
    let owned = matches!(
        el.tag_name().to_ascii_lowercase().as_str(),
        "input" | "select" | "textarea" | "canvas"
    ) || el
        .closest("#timeline, [role='slider'], [role='grid'], [contenteditable]")
        .ok()
        .flatten()
        .is_some();
    !owned
}

fn is_button(target: Option<&web_sys::EventTarget>) -> bool {
    target
        .and_then(|t| t.dyn_ref::<web_sys::Element>())
        .is_some_and(|el| el.tag_name().eq_ignore_ascii_case("button"))
}

/// The page's controls that can be pinned: (element id, label).
fn pinnable() -> Vec<(String, String)> {
    let Ok(labels) =
        gloo::utils::document().query_selector_all(".controls .control label[for^='ctl-']")
    else {
        return Vec::new();
    };
    (0..labels.length())
        .filter_map(|i| labels.item(i)?.dyn_into::<web_sys::Element>().ok())
        .filter_map(|l| Some((l.get_attribute("for")?, l.text_content()?)))
        .collect()
}

/// Marks the pinned controls, unmarks the rest; again after each change of
/// scenario or step, as the page may have drawn its controls afresh.
#[hook]
fn use_pins(pins: Vec<String>, again: (Option<(String, usize)>, String)) {
    use_effect_with((pins, again), |(pins, _)| {
        let pins = pins.clone();
        let mark = move |on: bool| {
            let doc = gloo::utils::document();
            if let Ok(old) = doc.query_selector_all(&format!(".{PIN_CLASS}")) {
                for i in 0..old.length() {
                    if let Some(el) = old
                        .item(i)
                        .and_then(|n| n.dyn_into::<web_sys::Element>().ok())
                    {
                        let _ = el.class_list().remove_1(PIN_CLASS);
                    }
                }
            }
            if on {
                for id in &pins {
                    if let Some(el) = doc.get_element_by_id(id) {
                        let _ = el.class_list().add_1(PIN_CLASS);
                    }
                }
            }
        };
        mark(true);
        move || mark(false)
    });
}

/// The bar's height as `--presenter-h` on the root element, read by
/// panels.css: the page's sticky totals then sit under the bar rather than
/// behind it, so what a step brings into view (clear of the totals) is clear
/// of the bar too. Measured after every render, as a step's words change it.
#[hook]
fn use_bar_height(bar: NodeRef) {
    let root = || {
        gloo::utils::document_element()
            .dyn_into::<web_sys::HtmlElement>()
            .ok()
    };
    use_effect(move || {
        if let (Some(el), Some(root)) = (bar.cast::<web_sys::HtmlElement>(), root()) {
            let h = format!("{}px", el.offset_height());
            let _ = root.style().set_property("--presenter-h", &h);
        }
    });
    use_effect_with((), move |_| {
        move || {
            if let Some(root) = root() {
                let _ = root.style().remove_property("--presenter-h");
            }
        }
    });
}

#[function_component(PresenterBar)]
pub fn presenter_bar(p: &PresenterProps) -> Html {
    let cb = p.on_command.clone();
    let pins = use_state(Vec::<String>::new);
    let blank = use_state(|| false);
    let bar = use_node_ref();
    use_bar_height(bar.clone());
    let running = p
        .current
        .as_ref()
        .and_then(|(id, step)| tour_text(id).map(|t| (t, *step)));
    use_point_at(
        p.current.clone(),
        true,
        running
            .as_ref()
            .and_then(|(t, i)| t.steps.get(*i).map(|s| target_selector(s.look_at))),
    );
    use_pins((*pins).clone(), (p.current.clone(), p.scenario.clone()));
    {
        let cb = cb.clone();
        let blank = blank.clone();
        use_effect_with((p.current.clone(), *blank), move |(current, blanked)| {
            let (current, blanked) = (current.clone(), *blanked);
            let options = EventListenerOptions::enable_prevent_default();
            let listener = EventListener::new_with_options(
                &gloo::utils::document(),
                "keydown",
                options,
                move |e| {
                    let Some(e) = e.dyn_ref::<web_sys::KeyboardEvent>() else {
                        return;
                    };
                    if e.ctrl_key() || e.meta_key() || e.alt_key() {
                        return;
                    }
                    let code = e.code();
                    // The page leaves buttons' keys alone; in presenter mode
                    // Escape and P leave it from a button too.
                    if matches!(code.as_str(), "Escape" | "KeyP") && is_button(e.target().as_ref())
                    {
                        e.prevent_default();
                        cb.emit(PanelCommand::Present(false));
                        return;
                    }
                    let forward = match code.as_str() {
                        "PageDown" | "ArrowRight" => true,
                        "PageUp" | "ArrowLeft" => false,
                        "Period" | "KeyB" if slide_key_target(e.target()) => {
                            e.prevent_default();
                            blank.set(!blanked);
                            return;
                        }
                        _ => return,
                    };
                    if !slide_key_target(e.target()) {
                        return;
                    }
                    // A step from the clicker shows the screen again.
                    if blanked {
                        blank.set(false);
                    }
                    let Some((id, step)) = &current else {
                        return;
                    };
                    let count = tour(id).map_or(0, |t| t.steps.len());
                    let to = if forward {
                        (step + 1 < count).then_some(step + 1)
                    } else {
                        step.checked_sub(1)
                    };
                    e.prevent_default();
                    if let Some(to) = to {
                        arrive(&cb, id, to);
                    }
                },
            );
            move || drop(listener)
        });
    }
    let leave = cb.reform(|_: MouseEvent| PanelCommand::Present(false));
    let body = match running {
        Some((t, i)) => {
            let i = i.min(t.steps.len().saturating_sub(1));
            let id = t.id;
            let back = {
                let cb = cb.clone();
                Callback::from(move |_: MouseEvent| arrive(&cb, id, i.saturating_sub(1)))
            };
            let next = {
                let cb = cb.clone();
                Callback::from(move |_: MouseEvent| arrive(&cb, id, i + 1))
            };
            let last = i + 1 == t.steps.len();
            html! {
                <>
                    <p class="presenter-tour">{t.title}</p>
                    <p class="presenter-count" id="presenter-count">{format!("Step {} of {}", i + 1, t.steps.len())}</p>
                    <p class="presenter-words" id="presenter-words" aria-live="polite">{t.steps[i].text}</p>
                    <div class="panel-row">
                        <button type="button" id="presenter-back" onclick={back} disabled={i == 0}>{"← Back"}</button>
                        <button type="button" id="presenter-next" onclick={next} disabled={last}>{"Next →"}</button>
                        <span class="muted">{"PageDown / PageUp or → / ← step through the tour; . or B blanks the screen."}</span>
                    </div>
                </>
            }
        }
        None => {
            let start = |id: &'static str| {
                cb.reform(move |_: MouseEvent| PanelCommand::StartTour(id.into()))
            };
            let (own, others): (Vec<_>, Vec<_>) = tour_texts()
                .iter()
                .partition(|t| tour(t.id).is_some_and(|plan| plan.scenario == p.scenario));
            let on_pick = {
                let cb = cb.clone();
                Callback::from(move |e: Event| {
                    let id = e
                        .target_unchecked_into::<web_sys::HtmlSelectElement>()
                        .value();
                    if !id.is_empty() {
                        cb.emit(PanelCommand::StartTour(id));
                    }
                })
            };
            html! {
                <>
                    if own.is_empty() {
                        <p class="presenter-words">{"This scenario has no tour of its own: pick one below, and its scenario loads."}</p>
                    } else {
                        <p class="presenter-words">{"Start a tour of this scenario:"}</p>
                        <div class="panel-row presenter-tours">
                            { for own.iter().map(|t| html! {
                                <button type="button" class="presenter-start" id={format!("present-tour-{}", t.id)} onclick={start(t.id)}>{t.title}</button>
                            }) }
                        </div>
                    }
                    if !others.is_empty() {
                        <div class="panel-row">
                            <label for="presenter-pick">{"Another tour"}</label>
                            <select id="presenter-pick" onchange={on_pick}>
                                <option value="" selected=true>{"Choose a tour…"}</option>
                                { for others.iter().map(|t| html! { <option value={t.id}>{t.title}</option> }) }
                            </select>
                        </div>
                    }
                </>
            }
        }
    };
    let toggle_pin = |id: String| {
        let pins = pins.clone();
        Callback::from(move |_: Event| {
            let mut next = (*pins).clone();
            match next.iter().position(|p| *p == id) {
                Some(k) => {
                    next.remove(k);
                }
                None => next.push(id.clone()),
            }
            pins.set(next);
        })
    };
    let unblank = {
        let blank = blank.clone();
        Callback::from(move |_: MouseEvent| blank.set(false))
    };
    html! {
        <>
        if *blank {
            <button type="button" class="presenter-blank" id="presenter-blank" onclick={unblank}
                aria-label="The screen is blanked: press . or B, or click, to show it again"></button>
        }
        <section class="panel presenter-bar" id="presenter-bar" ref={bar} aria-labelledby="presenter-title">
            <div class="panel-head">
                <h2 id="presenter-title">{"Presenter mode"}</h2>
                <button type="button" id="presenter-leave" onclick={leave}>{"Leave (Esc)"}</button>
            </div>
            {body}
            <details class="presenter-pins" id="presenter-pins">
                <summary>{"Pin controls to keep them shown"}</summary>
                <ul>
                    { for pinnable().into_iter().map(|(id, label)| {
                        let checked = pins.contains(&id);
                        let pin_id = format!("pin-{id}");
                        html! {
                            <li>
                                <input type="checkbox" id={pin_id.clone()} {checked} onchange={toggle_pin(id)} />
                                <label for={pin_id}>{label}</label>
                            </li>
                        }
                    }) }
                </ul>
            </details>
        </section>
        </>
    }
}
