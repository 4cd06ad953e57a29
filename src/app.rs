//! The page's state and its one reducer. The scenario being edited is the
//! single source of truth; every edit re-simulates at once. The share link
//! is written from this state and read into it (`link.rs`).

use std::rc::Rc;

use lease_format::decimal::clamp;
use lease_sim::Scenario;
use yew::prelude::*;

use crate::charts::Charts;
use crate::command::Command;
use crate::compare::{compare, CompareProps};
use crate::controls::{controls, ControlsProps};
use crate::diagnosis::Diagnosis;
use crate::embed::Parts;
use crate::memo::memo;
use crate::panel::{Panel, PanelViewOf};
use crate::playback::Playback;
use crate::run_handle::RunHandle;
use crate::run_status::{cancelled_notice, pending_status, summarised_notice};
use crate::scenario_info::{scenario_info, ScenarioInfoProps};
use crate::timeline::{Timeline, TimelineView};
use crate::totals::{run_summary, totals, TotalsProps};

/// The scenario a new visitor sees: one message, one picture, the whole lesson.
pub const DEFAULT_SCENARIO: &str = "ninety-second-message";

#[derive(Clone)]
pub struct State {
    /// The scenario the edits started from: shipped, or imported.
    pub loaded: Rc<Scenario>,
    pub scenario: Rc<Scenario>,
    pub run: Option<RunHandle>,
    /// Why the last edit could not run; the last good picture stays.
    pub error: Option<String>,
    /// Input the page would not take (a file, a fetched scenario, a typed
    /// seed), in a sentence of its own; it goes when a run next starts.
    pub refused: Option<String>,
    /// What the page ignored from the link or an imported file, and why.
    pub notices: Vec<String>,
    /// A shipped scenario the visitor asked for is being fetched.
    pub fetching: bool,
    pub playhead_ms: u64,
    pub playing: bool,
    pub speed: f64,
    pub selected: Option<u32>,
    pub cursor_ms: Option<u64>,
    pub view: TimelineView,
    /// The timeline's visible range in ms, once the visitor zoomed or a link
    /// set it; the timelines read it from here and hold none of their own.
    pub range: Option<(f64, f64)>,
    pub panel: Option<Panel>,
    /// Embedded in another page (`?embed=1`), showing only some parts.
    pub embed: bool,
    pub parts: Parts,
    /// The guided tour under way, and its step.
    pub tour: Option<(String, usize)>,
    /// Compare: side B's scenario and run; the controls edit B when `edit_b`.
    pub b: Option<Rc<Scenario>>,
    pub run_b: Option<RunHandle>,
    pub edit_b: bool,
    /// A large run being computed in the background worker; the picture
    /// shows the last finished run until it arrives.
    pub pending: Option<PendingRun>,
    /// The visitor cancelled the last background run.
    pub cancelled: bool,
    /// Side B's run, when it outgrew the page's try and is being computed in
    /// the background; B's last run stays shown until it arrives.
    pub pending_b: Option<PendingRun>,
    /// The visitor cancelled side B's last background run.
    pub cancelled_b: bool,
}

/// Ids of background runs, so that a late reply to an older one is ignored.
/// Counted for the page's life, not per state: a link opened from history
/// builds a fresh state, and its run must not reuse the id of the one it replaces.
fn next_job_id() -> u32 {
    use std::sync::atomic::{AtomicU32, Ordering};
    static NEXT: AtomicU32 = AtomicU32::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// A run under way in the background worker, and how far it has got.
#[derive(Clone, PartialEq)]
pub struct PendingRun {
    pub id: u32,
    pub scenario: Rc<Scenario>,
    /// The engine's upper-bound estimate of its messages.
    pub messages: u64,
    pub progress: Option<crate::command::RunProgress>,
}

impl PendingRun {
    fn new(scenario: Rc<Scenario>) -> Self {
        PendingRun {
            id: next_job_id(),
            messages: lease_sim::estimate(&scenario).messages,
            scenario,
            progress: None,
        }
    }
}

impl State {
    pub fn new() -> Self {
        let s = crate::catalog::find(DEFAULT_SCENARIO).unwrap_or_default();
        let mut st = State {
            loaded: Rc::new(s.clone()),
            scenario: Rc::new(s),
            run: None,
            error: None,
            refused: None,
            notices: Vec::new(),
            fetching: false,
            playhead_ms: 0,
            playing: false,
            speed: 10.0,
            selected: None,
            cursor_ms: None,
            view: TimelineView::Workers,
            range: None,
            panel: None,
            embed: false,
            parts: Parts::all(),
            tour: None,
            b: None,
            run_b: None,
            edit_b: false,
            pending: None,
            cancelled: false,
            pending_b: None,
            cancelled_b: false,
        };
        st.simulate();
        st.playhead_ms = st.end_ms();
        st
    }

    pub fn end_ms(&self) -> u64 {
        self.run.as_ref().map_or(0, |r| r.end_ms)
    }

    /// Run the scenario (here, or in the background if it is large); on
    /// failure keep the last good run and say why.
    pub fn simulate(&mut self) {
        self.cancelled = false;
        let route = match crate::budget::route(&self.scenario) {
            Ok(r) => r,
            Err(why) => {
                // A newer setting replaces a run under way, even one that cannot run.
                self.pending = None;
                self.error = Some(why);
                return;
            }
        };
        if route == crate::budget::Route::Worker {
            return self.send_to_worker();
        }
        let tried = crate::timing::measure("lease:simulate", || {
            crate::budget::try_on_page(&self.scenario, &crate::timing::now_ms)
        });
        let run = match tried {
            crate::budget::Tried::Outgrew => return self.send_to_worker(),
            crate::budget::Tried::Done(run) => *run,
        };
        self.pending = None;
        match run {
            Ok(run) => self.install(RunHandle::new(run)),
            Err(e) => self.error = Some(e.to_string()),
        }
    }

    /// Hand the scenario to the background worker; a run already under way
    /// there is replaced.
    fn send_to_worker(&mut self) {
        self.pending = Some(PendingRun::new(self.scenario.clone()));
        self.error = None;
        self.refused = None;
    }

    /// Show a finished run: computed here or arrived from the worker.
    fn install(&mut self, run: RunHandle) {
        let at_end = self.run.is_none() || self.playhead_ms >= self.end_ms();
        self.run = Some(run);
        self.error = None;
        self.refused = None;
        let end = self.end_ms();
        // Following the end keeps the whole picture as the hand moves.
        self.playhead_ms = if at_end {
            end
        } else {
            self.playhead_ms.min(end)
        };
        if self.selected.is_some_and(|m| {
            self.run
                .as_ref()
                .is_some_and(|r| m as usize >= r.messages.len())
        }) {
            self.selected = None;
        }
    }
}

impl State {
    /// Run side B as A is run: tried here, or in the background if it
    /// outgrows the try; on failure keep B's last good run and say why.
    fn simulate_b(&mut self) {
        let Some(b) = self.b.clone() else {
            return;
        };
        self.cancelled_b = false;
        if let Err(why) = crate::budget::fits_side_b(&b) {
            self.error = Some(format!("side B: {why}"));
            return;
        }
        let tried = crate::timing::measure("lease:simulate", || {
            crate::budget::try_on_page(&b, &crate::timing::now_ms)
        });
        let run = match tried {
            crate::budget::Tried::Outgrew => {
                self.pending_b = Some(PendingRun::new(b));
                self.error = None;
                return;
            }
            crate::budget::Tried::Done(run) => *run,
        };
        self.pending_b = None;
        match run {
            Ok(run) => {
                self.run_b = Some(RunHandle::new(run));
                self.error = None;
            }
            Err(e) => self.error = Some(format!("side B: {e}")),
        }
    }

    /// Loading another scenario ends a comparison and a tour's hold on it.
    fn end_compare(&mut self) {
        self.b = None;
        self.run_b = None;
        self.pending_b = None;
        self.cancelled_b = false;
        self.edit_b = false;
    }

    fn load(&mut self, scenario: Scenario) {
        self.loaded = Rc::new(scenario.clone());
        self.scenario = Rc::new(scenario);
        self.selected = None;
        self.playing = false;
        self.range = None;
        self.run = None;
        self.end_compare();
        self.simulate();
        self.playhead_ms = self.end_ms();
    }
}

impl Default for State {
    fn default() -> Self {
        Self::new()
    }
}

impl Reducible for State {
    type Action = Command;

    fn reduce(self: Rc<Self>, cmd: Command) -> Rc<Self> {
        let mut s = (*self).clone();
        match cmd {
            Command::Load(name) => match crate::catalog::find(&name) {
                Some(found) => {
                    s.load(found);
                    s.tour = None;
                }
                None => {
                    s.refused = Some(format!(
                        "There is no shipped scenario named {:?}.",
                        crate::import_job::shorten(&name)
                    ))
                }
            },
            Command::Edit(f) => {
                if let (true, Some(b)) = (s.edit_b, &s.b) {
                    let mut next = (**b).clone();
                    f(&mut next);
                    s.b = Some(Rc::new(next));
                    s.simulate_b();
                } else {
                    let mut next = (*s.scenario).clone();
                    f(&mut next);
                    s.scenario = Rc::new(next);
                    s.simulate();
                }
            }
            Command::Replace(next) => {
                s.scenario = Rc::new(*next);
                s.simulate();
            }
            Command::Import(next, ignored) => {
                s.load(*next);
                s.notices = ignored;
                s.tour = None;
            }
            Command::Reject(why) => s.refused = Some(why),
            Command::Fetching(on) => s.fetching = on,
            Command::Play => play(&mut s),
            Command::Pause => s.playing = false,
            Command::TogglePlay => {
                if s.playing {
                    s.playing = false
                } else {
                    play(&mut s)
                }
            }
            Command::Speed(x) => s.speed = clamp(x, 0.1, 100_000.0),
            Command::Step(forward) => {
                s.playing = false;
                if let Some(run) = &s.run {
                    let t = s.playhead_ms;
                    let events = &run.events;
                    s.playhead_ms = if forward {
                        let i = events.partition_point_t(|e| e <= t);
                        events.t(i).unwrap_or(run.end_ms)
                    } else {
                        let i = events.partition_point_t(|e| e < t);
                        i.checked_sub(1).and_then(|i| events.t(i)).unwrap_or(0)
                    };
                }
            }
            Command::Seek(t) => {
                s.playhead_ms = t.min(s.end_ms());
            }
            Command::Tick(real_ms) => {
                if s.playing {
                    let adv = (real_ms * s.speed).max(0.0) as u64;
                    s.playhead_ms = (s.playhead_ms + adv.max(1)).min(s.end_ms());
                    if s.playhead_ms >= s.end_ms() {
                        s.playing = false;
                    }
                }
            }
            Command::Select(m) => s.selected = m,
            Command::Cursor(t) => {
                if s.cursor_ms == t {
                    return self;
                }
                s.cursor_ms = t;
            }
            Command::View(v) => s.view = v,
            Command::Range(range) => {
                if range == s.range {
                    return self;
                }
                s.range = range;
            }
            Command::Panel(p) => s.panel = p,
            Command::DismissNotices => s.notices.clear(),
            Command::OpenLink(query) => return Rc::new(crate::link::state_from_query(&query)),
            Command::StartTour(id) => {
                if let Some(t) = lease_diagnose::tour(&id) {
                    if let Some(found) = crate::catalog::find(t.scenario) {
                        s.load(found);
                    }
                    s.tour = Some((id, 0));
                    s.panel = Some(Panel::Tour);
                }
            }
            Command::TourStep(i) => {
                if let Some((id, step)) = &mut s.tour {
                    let last =
                        lease_diagnose::tour(id).map_or(0, |t| t.steps.len().saturating_sub(1));
                    *step = i.min(last);
                }
            }
            Command::RunProgress(id, p) => match (&mut s.pending, &mut s.pending_b) {
                (Some(pending), _) | (_, Some(pending)) if pending.id == id => {
                    pending.progress = Some(p)
                }
                _ => return self,
            },
            Command::RunArrived(id, run) => match (is(&s.pending, id), is(&s.pending_b, id)) {
                (true, _) => {
                    s.pending = None;
                    s.install(run);
                }
                (_, true) => {
                    s.pending_b = None;
                    s.run_b = Some(run);
                    s.error = None;
                }
                _ => return self,
            },
            Command::RunFailed(id, why) => match (is(&s.pending, id), is(&s.pending_b, id)) {
                (true, _) => {
                    s.pending = None;
                    s.error = Some(why);
                }
                (_, true) => {
                    s.pending_b = None;
                    s.error = Some(format!("side B: {why}"));
                }
                _ => return self,
            },
            Command::CancelRun => {
                if s.pending.take().is_some() {
                    s.cancelled = true;
                }
            }
            Command::CancelRunB => {
                if s.pending_b.take().is_some() {
                    s.cancelled_b = true;
                }
            }
            Command::CompareStart => {
                s.b = Some(s.scenario.clone());
                s.run_b = s.run.clone();
                s.edit_b = true;
                s.panel = Some(Panel::Compare);
            }
            Command::CompareEdit(b) => s.edit_b = b && s.b.is_some(),
            Command::CompareCopy => {
                s.b = Some(s.scenario.clone());
                s.run_b = s.run.clone();
            }
            Command::CompareStop => {
                s.end_compare();
                if s.panel == Some(Panel::Compare) {
                    s.panel = None;
                }
            }
        }
        Rc::new(s)
    }
}

/// Whether `pending` is the background run `id` (a reply to an older one is
/// ignored).
fn is(pending: &Option<PendingRun>, id: u32) -> bool {
    pending.as_ref().is_some_and(|p| p.id == id)
}

fn play(s: &mut State) {
    if s.playhead_ms >= s.end_ms() {
        s.playhead_ms = 0;
    }
    s.playing = s.end_ms() > 0;
}

/// What the open panel loaded on demand shows, as JSON (`panel_host.rs`).
/// Share and export shows only with a run on screen, as it always has.
fn panel_view(state: &State, link: &crate::url::Link) -> Option<String> {
    let panel = state.panel.filter(|p| p.on_demand())?;
    let run_scenario = match (panel, &state.run) {
        (Panel::Export, None) => return None,
        (_, Some(run)) => &run.scenario,
        (_, None) => &*state.scenario,
    };
    // The tours' checks run here, where the run is; the panel shows them.
    let tour = state.tour.as_ref().map(|(id, step)| (id.as_str(), *step));
    let done = match (
        panel,
        tour.and_then(|(id, _)| lease_diagnose::tour(id)),
        &state.run,
    ) {
        (Panel::Tour, Some(t), Some(run)) => Some(
            t.steps
                .iter()
                .map(|s| s.check.done(&state.scenario, run))
                .collect(),
        ),
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
    serde_json::to_string(&PanelViewOf {
        panel: panel.name(),
        scenario: &state.scenario,
        run_scenario,
        link: &link,
        by_message: state.view == crate::timeline::TimelineView::Messages,
        range: state
            .range
            .map(|(from, to)| (from.round() as u64, to.round() as u64)),
        query: &query,
        tour,
        done,
    })
    .ok()
}

#[function_component(App)]
pub fn app() -> Html {
    let state = use_reducer(crate::link::initial_state);
    let dispatch = {
        let to = state.dispatcher();
        Callback::from(move |c: Command| crate::catalog::dispatch(c, &to))
    };
    // Encoding checks itself by decoding: it is done when the address is
    // written (a pause after the last change), not on every slider step.
    let link = crate::link::link_of(&state);
    crate::link::use_write_query(link.clone());
    crate::link::use_page_keys(dispatch.clone(), state.panel);
    crate::link::use_follow_history(dispatch.clone());
    let page = use_node_ref();
    crate::link::use_report_height(state.embed, page.clone());
    crate::background_run::use_background_run(
        state.pending.as_ref().map(|p| (p.id, p.scenario.clone())),
        dispatch.clone(),
    );
    // Side B of a comparison has a worker of its own: neither side's run
    // stops the other's.
    crate::background_run::use_background_run(
        state.pending_b.as_ref().map(|p| (p.id, p.scenario.clone())),
        dispatch.clone(),
    );
    // Kept until what the panel shows changes: playback redraws the page
    // sixty times a second, and a tour's checks may run the diagnosis.
    let link_shown =
        matches!(state.panel, Some(Panel::Export | Panel::Embed)).then(|| link.clone());
    let shown = use_memo(
        (
            state.panel,
            state.scenario.clone(),
            state.run.clone(),
            state.view,
            state.range,
            state.tour.clone(),
            link_shown,
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

    let run = state.run.clone();
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
    let controls_scenario = match (&state.b, state.edit_b) {
        (Some(b), true) => b.clone(),
        _ => state.scenario.clone(),
    };
    html! {
        <div class={classes!("page", state.embed.then_some("embedded"))} ref={page}
            ondrop={on_drop} ondragover={on_drag_over}>
            if state.embed {
                <header class="embed-head">
                    <span class="embed-title">{ if state.loaded.title.is_empty() { state.loaded.name.clone() } else { state.loaded.title.clone() } }</span>
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
                            onclick={dispatch.reform(move |_: MouseEvent| if comparing { Command::CompareStop } else { Command::CompareStart })}>
                            { if comparing { "Stop comparing" } else { "Compare" } }
                        </button>
                        <button type="button" id="open-sweep" aria-pressed={pressed(Panel::Sweep)} onclick={open(Panel::Sweep)}>{"Sweep"}</button>
                        <button type="button" id="open-embed" aria-pressed={pressed(Panel::Embed)} onclick={open(Panel::Embed)}>{"Embed"}</button>
                        <button type="button" id="open-help" aria-pressed={pressed(Panel::Help)} onclick={open(Panel::Help)} title="Keyboard shortcuts (?)">{"Keys ?"}</button>
                    </nav>
                </header>
            }
            if !state.notices.is_empty() {
                <div class="notices" role="status" id="link-notices">
                    <strong>{"Some of the link or file was not used: "}</strong>
                    <ul>{ for state.notices.iter().map(|n| html! { <li>{n.clone()}</li> }) }</ul>
                    <button type="button" onclick={dispatch.reform(|_: MouseEvent| Command::DismissNotices)}>{"Dismiss"}</button>
                </div>
            }
            if state.fetching {
                <p class="notices" role="status" id="fetching-scenario">{"Loading the scenario…"}</p>
            }
            if let Some(pending) = &state.pending {
                { pending_status(pending, &dispatch, false) }
            }
            if state.cancelled {
                { cancelled_notice(state.run.is_some()) }
            }
            if let Some(run) = state.run.as_ref().filter(|r| r.summarised.is_some()) {
                { summarised_notice(run) }
            }
            if let Some(why) = state.run.as_ref().and_then(|r| r.stopped()) {
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
            { crate::panel_host::slot(if state.panel.is_some_and(Panel::on_demand) { &panels.load } else { &crate::panel_host::Load::Idle }, &dispatch) }
            <div class={classes!("layout", (!parts.shows("controls")).then_some("no-side"))}>
                if parts.shows("controls") {
                    <aside class="side">
                        if comparing {
                            <p class="editing-side" id="editing-side">{ if state.edit_b { "These controls edit side B." } else { "These controls edit side A." } }</p>
                        }
                        { memo(ControlsProps { scenario: controls_scenario, loaded: state.loaded.clone(), on_command: dispatch.clone() }, controls) }
                    </aside>
                }
                <main class="main">
                    if parts.shows("scenario") {
                        { memo(ScenarioInfoProps { scenario: state.scenario.clone(), loaded: state.loaded.clone(), on_command: dispatch.clone() }, scenario_info) }
                    }
                    if let Some(run) = run {
                        if parts.shows("totals") {
                            { memo(TotalsProps { run: run.clone(), playhead_ms: state.playhead_ms }, totals) }
                        }
                        { run_summary(&run) }
                        if parts.shows("playback") {
                            <Playback run={run.clone()} playhead_ms={state.playhead_ms} playing={state.playing} speed={state.speed} on_command={dispatch.clone()} />
                        }
                        if parts.shows("timeline") {
                            <Timeline run={run.clone()} axis_end_ms={state.run_b.as_ref().map_or(0, |b| b.end_ms)} playhead_ms={state.playhead_ms} view={state.view}
                                selected_message={state.selected} on_select={dispatch.reform(Command::Select)}
                                on_cursor={dispatch.reform(Command::Cursor)}
                                cursor_ms={state.cursor_ms} on_view={dispatch.reform(Command::View)}
                                range_ms={state.range} on_range={dispatch.reform(Command::Range)} />
                        }
                        if let (Some(b), true) = (&state.run_b, parts.shows("timeline")) {
                            { compare(&CompareProps { a: &run, b, b_pending: state.pending_b.as_ref(), b_cancelled: state.cancelled_b, edit_b: state.edit_b, range: state.range,
                                playhead_ms: state.playhead_ms, cursor_ms: state.cursor_ms, on_command: &dispatch }) }
                        }
                        if parts.shows("diagnosis") {
                            <Diagnosis run={run.clone()} scenario={state.scenario.clone()} on_command={dispatch.clone()} />
                        }
                        if parts.shows("charts") {
                            <Charts run={run} playhead_ms={state.playhead_ms} cursor_ms={state.cursor_ms} on_cursor={dispatch.reform(Command::Cursor)} />
                        }
                    }
                </main>
            </div>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The default page comparing itself, then side B edited into a run of
    /// 12,000 messages: small by the estimate, too many events for the try.
    fn comparing_with_a_large_b() -> Rc<State> {
        let st = Rc::new(State::new()).reduce(Command::CompareStart);
        st.reduce(Command::Edit(Rc::new(|s: &mut Scenario| {
            s.arrivals.backlog = 12_000;
            s.arrivals.rate_per_s = 0.0;
            s.workers.count = 100;
            s.workers.concurrency = 10;
            s.broker.visibility_timeout_ms = Some(3_600_000);
            s.work.dist = lease_sim::scenario::Dist::Constant { ms: 200 };
        })))
    }

    #[test]
    fn side_b_past_the_try_waits_for_its_own_background_run() {
        let st = comparing_with_a_large_b();
        assert!(st.pending.is_none(), "A is untouched");
        let b = st.pending_b.clone().expect("B went to the background");
        assert_eq!(st.error, None);
        let a_run = st.run.clone().expect("A's run");
        let old_b = st.run_b.clone().expect("B's last run stays shown");

        // A reply to another job is ignored; B's own lands in B only.
        let whole = lease_sim::simulate(&b.scenario, &lease_sim::Options::default()).unwrap();
        let other = st.clone().reduce(Command::RunArrived(
            b.id + 1_000,
            RunHandle::new(whole.clone()),
        ));
        assert!(other.pending_b.is_some() && other.run_b.as_ref() == Some(&old_b));
        let done = st.reduce(Command::RunArrived(b.id, RunHandle::new(whole)));
        assert!(done.pending_b.is_none());
        assert_eq!(done.run_b.as_ref().map(|r| r.messages.len()), Some(12_000));
        assert!(done.run.as_ref() == Some(&a_run), "A's run is the same");
    }

    #[test]
    fn a_refusal_is_not_a_run_error_and_goes_with_the_next_run() {
        let st = Rc::new(State::new());
        let run = st.run.clone();
        let refused = st.reduce(Command::Reject("The file was not loaded: x.json".into()));
        assert_eq!(
            refused.refused.as_deref(),
            Some("The file was not loaded: x.json")
        );
        assert_eq!(refused.error, None, "the setting shown still runs");
        assert!(refused.run == run, "the run shown stays");
        let unknown = refused
            .clone()
            .reduce(Command::Load("no-such-scenario".into()));
        assert!(unknown
            .refused
            .as_deref()
            .is_some_and(|w| w.contains("no-such-scenario")));
        assert_eq!(unknown.error, None);
        let moved = refused.reduce(Command::Edit(Rc::new(|s: &mut Scenario| {
            s.broker.visibility_timeout_ms = Some(45_000)
        })));
        assert_eq!(moved.refused, None, "a new run clears it");
        assert!(moved.run != run);
    }

    #[test]
    fn a_failed_background_run_of_side_b_says_side_b() {
        let st = comparing_with_a_large_b();
        let id = st.pending_b.as_ref().unwrap().id;
        let failed = st.reduce(Command::RunFailed(id, "the worker stopped".into()));
        assert!(failed.pending_b.is_none());
        assert_eq!(failed.error.as_deref(), Some("side B: the worker stopped"));
    }

    #[test]
    fn cancelling_side_bs_background_run_keeps_its_last_run_and_says_so() {
        let st = comparing_with_a_large_b();
        let old_b = st.run_b.clone();
        let id = st.pending_b.as_ref().unwrap().id;
        let cancelled = st.reduce(Command::CancelRunB);
        assert!(cancelled.pending_b.is_none() && cancelled.cancelled_b);
        assert!(cancelled.run_b == old_b, "B keeps its last run");
        // The cancelled job's late reply is dropped.
        let whole = lease_sim::simulate(
            cancelled.b.as_deref().unwrap(),
            &lease_sim::Options::default(),
        )
        .unwrap();
        let late = cancelled
            .clone()
            .reduce(Command::RunArrived(id, RunHandle::new(whole)));
        assert!(late.run_b == old_b);
        // A's cancel is A's: it leaves B's run under way alone.
        let a_cancel = comparing_with_a_large_b().reduce(Command::CancelRun);
        assert!(a_cancel.pending_b.is_some() && !a_cancel.cancelled_b);
        // B's next setting clears the notice.
        let next = cancelled.reduce(Command::Edit(Rc::new(|s: &mut Scenario| {
            s.broker.visibility_timeout_ms = Some(30_000);
        })));
        assert!(!next.cancelled_b);
    }

    #[test]
    fn stopping_the_comparison_forgets_side_bs_background_run() {
        let st = comparing_with_a_large_b().reduce(Command::CompareStop);
        assert!(st.pending_b.is_none() && st.b.is_none());
    }
}
