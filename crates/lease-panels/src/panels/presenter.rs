//! Presenter mode's bar: a tour's steps as slides for a projector and a
//! clicker. PageDown / → go to the next step and PageUp / ← back, each
//! step's demonstration ("Show me") applied on arrival and the playhead at
//! the moment a step talks about; going back shows the step as it was
//! shown, the later steps' changes undone. The clicker's PageDown and
//! PageUp step the slides wherever the focus is; the page's controls
//! collapse to the one the step points at and those the presenter pinned
//! (`panels.css`, under `.presenting`). The page holds only the mode
//! (`present=1`, the P key, Escape to leave). A clicker's blank key, `.`
//! or B, blacks the screen out and brings it back, as slide software does.

use gloo::events::{EventListener, EventListenerOptions, EventListenerPhase};
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

/// Go to `step` of `tour` and apply its demonstration, as "Show me" would;
/// a step that talks about a moment of the run moves the playhead there.
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
    seek_to_moment(cb, tour_id, step);
}

/// Go back to `step` of `tour` as it was shown: the later steps' changes
/// undone, the playhead at its moment.
fn go_back(cb: &Callback<PanelCommand>, tour_id: &str, step: usize) {
    cb.emit(PanelCommand::TourReturn(step));
    seek_to_moment(cb, tour_id, step);
}

fn seek_to_moment(cb: &Callback<PanelCommand>, tour_id: &str, step: usize) {
    if let Some(ms) = tour_text(tour_id)
        .and_then(|t| t.steps.get(step))
        .and_then(|s| s.at_ms)
    {
        cb.emit(PanelCommand::Seek(ms));
    }
}

/// The step a key goes on from: the last one a key asked for, until the
/// page shows a newer one. A clicker's presses can come faster than the
/// page answers, and each press is one step on from the one before it.
type AtStep = std::rc::Rc<std::cell::RefCell<Option<(String, usize)>>>;

/// Steps the tour under way one step on or back, if there is one to go to.
fn step_tour(cb: &Callback<PanelCommand>, at: &AtStep, forward: bool) {
    let Some((id, step)) = at.borrow().clone() else {
        return;
    };
    let count = tour(&id).map_or(0, |t| t.steps.len());
    let to = if forward {
        (step + 1 < count).then_some(step + 1)
    } else {
        step.checked_sub(1)
    };
    let Some(to) = to else {
        return;
    };
    *at.borrow_mut() = Some((id.clone(), to));
    if forward {
        arrive(cb, &id, to);
    } else {
        go_back(cb, &id, to);
    }
}

/// Listens for keys on the whole window before anything focused sees them:
/// a clicker's PageDown steps a presentation even with a slider focused.
/// Keys held with Ctrl, Meta or Alt stay the browser's.
pub(super) fn clicker_keys(on_key: impl Fn(&web_sys::KeyboardEvent) + 'static) -> EventListener {
    EventListener::new_with_options(
        &gloo::utils::window(),
        "keydown",
        EventListenerOptions {
            phase: EventListenerPhase::Capture,
            passive: false,
        },
        move |e| {
            let Some(e) = e.dyn_ref::<web_sys::KeyboardEvent>() else {
                return;
            };
            if e.ctrl_key() || e.meta_key() || e.alt_key() {
                return;
            }
            on_key(e);
        },
    )
}

/// Whether a key pressed at `target` is the page's to steer a slide with:
/// not while typing, moving a slider or steering the timeline, which have
/// arrow keys of their own.
pub(super) fn slide_key_target(target: Option<web_sys::EventTarget>) -> bool {
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

/// What a room needs on screen for a step: a step about a control shows
/// the timeline, where the control's effect is seen, with the control
/// beside it (presenter mode lays the page out so); other steps show what
/// they point at.
fn presented_view(look_at: &str) -> String {
    if target_selector(look_at).starts_with("#ctl-") {
        target_selector("timeline")
    } else {
        target_selector(look_at)
    }
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
    let look_at = running
        .as_ref()
        .and_then(|(t, i)| t.steps.get(*i).map(|s| s.look_at));
    use_point_at(
        p.current.clone(),
        true,
        look_at.map(target_selector),
        look_at.map(presented_view),
    );
    use_pins((*pins).clone(), (p.current.clone(), p.scenario.clone()));
    {
        let cb = cb.clone();
        let blank = blank.clone();
        let at: AtStep = use_mut_ref(|| p.current.clone());
        {
            let at = at.clone();
            use_effect_with(p.current.clone(), move |current| {
                *at.borrow_mut() = current.clone();
            });
        }
        use_effect_with(*blank, move |blanked| {
            let blanked = *blanked;
            // A clicker sends PageDown and PageUp: in presenter mode they
            // step the presentation wherever the focus is, before a focused
            // slider or list takes them as its own.
            let clicker = {
                let blank = blank.clone();
                let cb = cb.clone();
                let at = at.clone();
                clicker_keys(move |e| {
                    let forward = match e.code().as_str() {
                        "PageDown" => true,
                        "PageUp" => false,
                        _ => return,
                    };
                    e.prevent_default();
                    e.stop_propagation();
                    if blanked {
                        blank.set(false);
                    }
                    step_tour(&cb, &at, forward);
                })
            };
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
                        "ArrowRight" => true,
                        "ArrowLeft" => false,
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
                    e.prevent_default();
                    step_tour(&cb, &at, forward);
                },
            );
            move || drop((listener, clicker))
        });
    }
    let leave = cb.reform(|_: MouseEvent| PanelCommand::Present(false));
    let body = match running {
        Some((t, i)) => {
            let i = i.min(t.steps.len().saturating_sub(1));
            let id = t.id;
            let back = {
                let cb = cb.clone();
                Callback::from(move |_: MouseEvent| go_back(&cb, id, i.saturating_sub(1)))
            };
            let next = {
                let cb = cb.clone();
                Callback::from(move |_: MouseEvent| arrive(&cb, id, i + 1))
            };
            let last = i + 1 == t.steps.len();
            html! {
                <>
                    <p class="presenter-head">
                        <span class="presenter-count" id="presenter-count">{format!("Step {} of {}", i + 1, t.steps.len())}</span>
                        <span class="presenter-tour">{t.title}</span>
                    </p>
                    <p class="presenter-words" id="presenter-words" aria-live="polite">{t.steps[i].text}</p>
                    <div class="panel-row presenter-row">
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
