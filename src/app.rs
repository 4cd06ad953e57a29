//! The page: the `App` component that wires the state (`state.rs`) to its
//! views. It holds the page's reducer, runs what the reducer marks as
//! wanted (in the dispatcher, right after the reducer), and draws the header, the notices,
//! the controls, the timeline, the charts and the diagnosis from the state;
//! every part sends its changes back as commands.

use yew::prelude::*;

use crate::charts::Charts;
use crate::command::Command;
use crate::compare::{compare, CompareProps};
use crate::controls::{controls, ControlsProps};
use crate::diagnosis::Diagnosis;
use crate::embed::Part;
use crate::memo::memo;
use crate::panel::Panel;
use crate::panel_view::{panel_view, presented_panel};
use crate::playback::Playback;
use crate::run_status::{cancelled_notice, pending_status, summarised_notice};
use crate::scenario_info::{scenario_info, ScenarioInfoProps};
use crate::state::Side;
use crate::timeline::Timeline;
use crate::totals::{run_summary, totals, TotalsProps};

/// How much thicker the timeline's strokes and larger its labels are in
/// presenter mode: read from the back of a lecture hall.
const PRESENT_INK: f64 = 1.75;

/// What a button of the page's own asks for: one closure type for all of
/// them (`click`).
#[derive(Clone, Copy)]
enum Click {
    /// Compare, or stop comparing (`true`: comparing now).
    Compare(bool),
    Present(bool),
    Interview(bool),
    Palette(bool),
    Dismiss,
    Undo,
}

fn click(dispatch: &Callback<Command>, c: Click) -> Callback<MouseEvent> {
    dispatch.reform(move |_: MouseEvent| match c {
        Click::Compare(true) => Command::CompareStop,
        Click::Compare(false) => Command::CompareStart,
        Click::Present(on) => Command::Present(on),
        Click::Interview(on) => Command::Interview(on),
        Click::Palette(on) => Command::PaletteCb(on),
        Click::Dismiss => Command::DismissNotices,
        Click::Undo => Command::Undo,
    })
}

#[function_component(App)]
pub fn app() -> Html {
    let state = use_reducer(crate::link::initial_state);
    crate::memo::count_render("page");
    // One callback for the page's life: the parts that take it compare equal
    // from one render to the next, so playback does not re-render them.
    let dispatch = {
        let state = state.clone();
        (*use_memo((), move |_| {
            let to = state.dispatcher();
            Callback::from(move |c: Command| {
                crate::catalog::dispatch(c, &to);
                // A slider's move runs at once, in the same task as the
                // hand's input: the page renders once, with the new run,
                // rather than first with the old run and then again.
                let now = state.clone();
                for (id, ran) in now.runs_wanted() {
                    to.dispatch(Command::Ran(id, ran));
                }
            })
        }))
        .clone()
    };
    crate::rehearsal::use_rehearsal(state.clone());
    // The effect that follows a change made by any other path (the first
    // load, a scenario fetched): run what the reducer marked as wanted.
    {
        let wanted = (state.a.wanted, state.b.as_ref().and_then(|b| b.wanted));
        let state = state.clone();
        let dispatch = dispatch.clone();
        use_effect_with(wanted, move |_| {
            for (id, ran) in state.runs_wanted() {
                dispatch.emit(Command::Ran(id, ran));
            }
        });
    }
    // Encoding checks itself by decoding: it is done when the address is
    // written (a pause after the last change), not on every slider step.
    let link = crate::link::link_of(&state);
    crate::link::use_write_query(link.clone());
    crate::link::use_page_keys(dispatch.clone(), state.panel, state.present);
    crate::link::use_follow_history(dispatch.clone());
    crate::playback::use_frames(state.playing, dispatch.clone());
    let page = use_node_ref();
    crate::host::use_tell_host(state.embed, state.a.run.clone(), page.clone());
    let main = use_node_ref();
    let chart_width = crate::charts::use_chart_width(main.clone());
    crate::background_run::use_background_run(
        state.a.pending.as_ref().map(|p| (p.id, p.scenario.clone())),
        dispatch.clone(),
    );
    // Side B of a comparison has a worker of its own: neither side's run
    // stops the other's.
    crate::background_run::use_background_run(
        state
            .b
            .as_ref()
            .and_then(|b| b.pending.as_ref())
            .map(|p| (p.id, p.scenario.clone())),
        dispatch.clone(),
    );
    // The run's diagnosis, from the worker: once the section has neared the
    // viewport, or while a tour's panel wants its checks.
    let near = use_state(|| false);
    let tour_id = state.tour.as_ref().map(|(id, _)| id.clone());
    let touring = presented_panel(&state) == Some(Panel::Tour) && tour_id.is_some();
    let answered = match (&state.a.run, &state.diagnosed) {
        (Some(run), Some(d)) => d.answers(run, tour_id.as_deref().filter(|_| touring)),
        _ => false,
    };
    crate::diagnosis::use_diagnosis(
        state.a.run.clone(),
        tour_id.filter(|_| touring),
        (*near && state.parts.shows(Part::Diagnosis)) || touring,
        answered,
        dispatch.clone(),
    );
    let on_near = {
        let near = near.clone();
        use_memo((), move |_| {
            Callback::from(move |()| {
                if !*near {
                    near.set(true)
                }
            })
        })
    };
    // Kept until what the panel shows changes: playback redraws the page
    // sixty times a second.
    let link_shown =
        matches!(state.panel, Some(Panel::Export | Panel::Embed)).then(|| link.clone());
    let shown = use_memo(
        (
            state.panel,
            state.a.scenario.clone(),
            state.a.run.clone(),
            state.view,
            state.range,
            state.tour.clone(),
            state.tour_earned.clone(),
            state.diagnosed.clone(),
            link_shown,
            (
                state.present,
                state.notes.clone(),
                state.note_draft,
                state.menu_at.clone(),
                state.interview.map(|shown| (shown, state.playhead_ms)),
            ),
        ),
        |_| panel_view(&state, &link),
    );
    let panels = crate::panel_host::use_panel_host((*shown).clone(), dispatch.clone());
    let on_drop = {
        let import = panels.import.clone();
        Callback::from(move |e: DragEvent| {
            if let Some(file) = crate::panel::dropped_file(&e) {
                import.emit(file);
            }
        })
    };
    let on_drag_over = Callback::from(|e: DragEvent| e.prevent_default());

    let run = state.a.run.clone();
    let parts = &state.parts;
    let open = |p: Panel| {
        let cb = dispatch.clone();
        let current = state.panel;
        Callback::from(move |_: MouseEvent| {
            cb.emit(Command::Panel(if current == Some(p) {
                None
            } else {
                Some(p)
            }))
        })
    };
    let pressed = |p: Panel| (state.panel == Some(p)).to_string();
    let full_link = if state.embed {
        crate::link::full_page_link(&state)
    } else {
        String::new()
    };
    let comparing = state.b.is_some();
    let present = state.present;
    let interview = state.interview;
    // What an interview hides until it is revealed (`Command::Reveal`).
    let hidden = |figure: u32| interview.is_some_and(|shown| shown & 1 << figure == 0);
    let cb = state.palette_cb;
    let controls_scenario = match (&state.b, state.edit_b) {
        (Some(b), true) => b.scenario.clone(),
        _ => state.a.scenario.clone(),
    };
    html! {
        <div class={classes!("page", state.embed.then_some("embedded"), state.present.then_some("presenting"), interview.map(|_| "interviewing"))} ref={page}
            ondrop={on_drop} ondragover={on_drag_over}>
            // The first tab stop: past the controls (some sixty stops) to
            // the timeline, which a keyboard then walks run by run.
            <a class="skip-link" href="#timeline" onclick={Callback::from(|e: MouseEvent| {
                e.prevent_default();
                lease_ui::scroll::bring_selector_into_view("#timeline .timeline-canvas");
                if let Some(c) = gloo::utils::document()
                    .query_selector("#timeline .timeline-canvas")
                    .ok()
                    .flatten()
                    .and_then(|c| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(c).ok())
                {
                    let _ = c.focus();
                }
            })}>{"Skip to the timeline"}</a>
            if state.embed {
                <header class="embed-head">
                    <span class="embed-title" id="embed-title">{ crate::scenario_info::shown_title(&state.loaded, &state.a.scenario) }</span>
                    <a href={full_link} target="_blank" rel="noopener" id="open-full">{"Open in Lease Playground ↗"}</a>
                </header>
            } else {
                <header class="page-head">
                    <div>
                        <h1>{"Lease Playground"}</h1>
                        <p class="tagline">{"A message queue and its workers, in your browser: drag the visibility timeout, the heartbeat and the processing time, and watch leases expire, runs overlap and messages reach the dead-letter queue."}</p>
                    </div>
                    <nav class="page-tools" aria-label="Share, embed and help"
                        onpointerenter={panels.warm.reform(|_: PointerEvent| ())} onfocusin={panels.warm.reform(|_: FocusEvent| ())}>
                        <button type="button" id="open-export" aria-pressed={pressed(Panel::Export)} onclick={open(Panel::Export)}>{"Share and export"}</button>
                        <button type="button" id="open-tour" aria-pressed={pressed(Panel::Tour)} onclick={open(Panel::Tour)}>{"Tours"}</button>
                        <button type="button" id="open-compare" aria-pressed={(state.b.is_some()).to_string()}
                            onclick={click(&dispatch, Click::Compare(comparing))}>
                            { if comparing { "Stop comparing" } else { "Compare" } }
                        </button>
                        <button type="button" id="open-sweep" aria-pressed={pressed(Panel::Sweep)} onclick={open(Panel::Sweep)}>{"Sweep"}</button>
                        <button type="button" id="open-embed" aria-pressed={pressed(Panel::Embed)} onclick={open(Panel::Embed)}>{"Embed"}</button>
                        <button type="button" id="open-notes" aria-pressed={pressed(Panel::Notes)} onclick={open(Panel::Notes)}>{"Note…"}</button>
                        <button type="button" id="open-present" aria-pressed={state.present.to_string()} title="Presenter mode (P)"
                            onclick={click(&dispatch, Click::Present(!present))}>{"Present"}</button>
                        <button type="button" id="open-interview" aria-pressed={interview.is_some().to_string()}
                            onclick={click(&dispatch, Click::Interview(interview.is_none()))}>{"Interview"}</button>
                        <button type="button" id="palette-cb" aria-pressed={state.palette_cb.to_string()}
                            onclick={click(&dispatch, Click::Palette(!cb))}>{"Colour-blind palette"}</button>
                        <button type="button" id="open-help" aria-pressed={pressed(Panel::Help)} onclick={open(Panel::Help)} title="Keyboard shortcuts (?)">{"Keys ?"}</button>
                    </nav>
                </header>
            }
            if !state.notices.is_empty() {
                <div class="notices" role="status" id="link-notices">
                    <strong>{"Some of the link or file was not used: "}</strong>
                    <ul>{ for state.notices.iter().map(|n| html! { <li>{n.clone()}</li> }) }</ul>
                    <button type="button" onclick={click(&dispatch, Click::Dismiss)}>{"Dismiss"}</button>
                </div>
            }
            if state.fetching {
                // Not live: the run's summary speaks once the scenario has run.
                <p class="notices" id="fetching-scenario">{"Loading the scenario…"}</p>
            }
            if let Some(pending) = &state.a.pending {
                { pending_status(pending, &dispatch, false) }
            }
            if state.a.cancelled {
                { cancelled_notice(state.a.run.is_some()) }
            }
            if let Some(run) = state.a.run.as_ref().filter(|r| r.summarised.is_some()) {
                { summarised_notice(run) }
            }
            if let Some(why) = state.a.run.as_ref().and_then(|r| r.stopped()) {
                <div class="notices" role="status" id="run-stopped">
                    <strong>{"This run was cut short: "}</strong>{why.to_string()}
                    <span class="error-note">{" The picture shows what happened up to that point."}</span>
                </div>
            }
            if state.error.is_some() || state.refused.is_some() {
                <div class="error" role="alert" id="run-error">
                    if let Some(why) = &state.refused {
                        {why.clone()}
                    }
                    if let Some(e) = &state.error {
                        if state.refused.is_some() {
                            <br/>
                        }
                        <strong>{"This setting cannot run: "}</strong>{e.clone()}
                    }
                    if state.error.is_none() {
                        <span class="error-note">{" Nothing else changed."}</span>
                    } else if run.is_some() {
                        <span class="error-note">{" The picture below is the last run that worked."}</span>
                    }
                </div>
            }
            // Always there, so that the panels' app keeps its place.
            { crate::panel_host::slot(if presented_panel(&state).is_some() { &panels.load } else { &crate::panel_host::Load::Idle }, &dispatch) }
            <div class={classes!("layout", (!parts.shows(Part::Controls)).then_some("no-side"))}>
                if parts.shows(Part::Controls) {
                    { figure_part(state.embed, "embed-controls", "figure-controls", "Controls", html! {
                        <aside class="side">
                            if comparing {
                                <p class="editing-side" id="editing-side">{ if state.edit_b { "These controls edit side B." } else { "These controls edit side A." } }</p>
                            }
                            { memo(ControlsProps { scenario: controls_scenario, loaded: state.loaded.clone(), on_command: dispatch.clone() }, controls) }
                        </aside>
                    }) }
                }
                <main class="main" ref={main.clone()}>
                    if parts.shows(Part::Scenario) {
                        { figure_part(state.embed, "embed-scenario", "figure-scenario", "About this scenario", memo(ScenarioInfoProps { scenario: state.a.scenario.clone(), loaded: state.loaded.clone(), on_command: dispatch.clone(), touring: state.tour.is_some() }, scenario_info)) }
                    }
                    if let Some(run) = run {
                        if parts.shows(Part::Totals) {
                            if state.embed {
                                // One row in a figure, which the reader
                                // scrolls sideways on a narrow screen.
                                <div class="figure-totals" id="figure-totals" tabindex="0" role="group" aria-label="Run totals, one row">
                                    { memo(TotalsProps { run: run.clone(), playhead_ms: state.playhead_ms, hidden: interview.map_or(0, |s| !s) }, totals) }
                                </div>
                            } else {
                                { memo(TotalsProps { run: run.clone(), playhead_ms: state.playhead_ms, hidden: interview.map_or(0, |s| !s) }, totals) }
                            }
                        }
                        // The run in words would tell the candidate its end.
                        if interview.is_none() {
                            { run_summary(&run) }
                        }
                        if parts.shows(Part::Playback) {
                            <Playback end_ms={state.end_ms()} playhead_ms={state.playhead_ms} playing={state.playing} speed={state.speed} on_command={dispatch.clone()} />
                        }
                        if parts.shows(Part::Timeline) {
                            <Timeline run={run.clone()} axis_end_ms={state.b.as_ref().map_or(0, Side::end_ms)} playhead_ms={state.playhead_ms} view={state.view}
                                selected_message={state.selected} on_select={dispatch.reform(Command::Select)}
                                on_cursor={dispatch.reform(Command::Cursor)}
                                cursor_ms={state.cursor_ms} on_view={dispatch.reform(Command::View)}
                                range_ms={state.range} on_range={dispatch.reform(Command::Range)} ink={if present { PRESENT_INK } else { 1.0 }}
                                notes={state.notes.clone()} on_note={dispatch.reform(|(a, b)| Command::NoteAt(a, b))}
                                on_table={(!state.embed).then(|| open(Panel::Table))}
                                on_menu={dispatch.reform(Command::Menu)}
                                fixed_px={state.embed.then_some(lease_ui::embed::FIGURE_TIMELINE_PX)} />
                            if let Some(said) = &state.said {
                                <p class="acted" role="status" id="acted">{said.clone()}
                                    if !state.undo.is_empty() {
                                        {" "}<button type="button" id="undo" title="Undo (Ctrl+Z)" onclick={click(&dispatch, Click::Undo)}>{"Undo"}</button>
                                    }
                                </p>
                            }
                        }
                        if let (Some((side_b, b)), true) = (state.b.as_ref().and_then(|s| Some((s, s.run.as_ref()?))), parts.shows(Part::Timeline)) {
                            { compare(&CompareProps { a: &run, b, b_pending: side_b.pending.as_ref(), b_cancelled: side_b.cancelled, edit_b: state.edit_b, range: state.range,
                                playhead_ms: state.playhead_ms, cursor_ms: state.cursor_ms, on_command: &dispatch, chart_width,
                                fixed_px: state.embed.then_some(lease_ui::embed::FIGURE_TIMELINE_PX) }) }
                        }
                        if parts.shows(Part::Diagnosis) && !hidden(lease_ui::panel::DIAGNOSIS_FIGURE) {
                            <Diagnosis run={run.clone()} diagnosed={state.diagnosed.clone()}
                                failed={state.diagnosis_failed.as_ref().filter(|(r, _)| *r == run).map(|(_, why)| why.clone())}
                                on_command={dispatch.clone()} on_near={(*on_near).clone()} />
                        }
                        if parts.shows(Part::Charts) {
                            { figure_part(state.embed, "embed-charts", "figure-charts", "Charts", html! {
                                <Charts run={run} playhead_ms={state.playhead_ms} cursor_ms={state.cursor_ms} on_cursor={dispatch.reform(Command::Cursor)} width={chart_width} />
                            }) }
                        }
                    }
                </main>
            </div>
        </div>
    }
}

/// A part of a figure in someone else's page behind a disclosure, closed
/// until the reader opens it, so that the figure is as tall as its host
/// reserved for it (`lease_ui::embed::FIGURE_TIMELINE_PX`); on the full page,
/// the part as it is.
fn figure_part(
    embed: bool,
    id: &'static str,
    class: &'static str,
    label: &'static str,
    inner: Html,
) -> Html {
    if embed {
        html! {
            <details class={classes!("figure-part", class)} id={id}>
                <summary>{ label }</summary>
                { inner }
            </details>
        }
    } else {
        inner
    }
}
