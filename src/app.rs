//! The page's state and its one reducer. The scenario being edited is the
//! single source of truth; every edit re-simulates at once.

use std::rc::Rc;

use lease_sim::{shipped, simulate, Options, Scenario};
use yew::prelude::*;

use crate::charts::Charts;
use crate::command::Command;
use crate::controls::Controls;
use crate::playback::Playback;
use crate::run_handle::RunHandle;
use crate::scenario_info::ScenarioInfo;
use crate::timeline::{Timeline, TimelineView};
use crate::totals::Totals;

/// The scenario a new visitor sees: one message, one picture, the whole lesson.
pub const DEFAULT_SCENARIO: &str = "ninety-second-message";

#[derive(Clone)]
pub struct State {
    /// The shipped scenario the edits started from.
    pub loaded: Rc<Scenario>,
    pub scenario: Rc<Scenario>,
    pub run: Option<RunHandle>,
    /// Why the last edit could not run; the last good picture stays.
    pub error: Option<String>,
    pub playhead_ms: u64,
    pub playing: bool,
    pub speed: f64,
    pub selected: Option<u32>,
    pub cursor_ms: Option<u64>,
    pub view: TimelineView,
}

impl State {
    pub fn new() -> Self {
        let s = shipped::find(DEFAULT_SCENARIO)
            .map(|s| s.scenario)
            .unwrap_or_default();
        let mut st = State {
            loaded: Rc::new(s.clone()),
            scenario: Rc::new(s),
            run: None,
            error: None,
            playhead_ms: 0,
            playing: false,
            speed: 10.0,
            selected: None,
            cursor_ms: None,
            view: TimelineView::Workers,
        };
        st.simulate();
        st.playhead_ms = st.end_ms();
        st
    }

    pub fn end_ms(&self) -> u64 {
        self.run.as_ref().map_or(0, |r| r.end_ms)
    }

    /// Run the scenario; on failure keep the last good run and say why.
    fn simulate(&mut self) {
        let at_end = self.run.is_none() || self.playhead_ms >= self.end_ms();
        if let Err(why) = crate::budget::check(&self.scenario) {
            self.error = Some(why);
            return;
        }
        match simulate(&self.scenario, &Options::default()) {
            Ok(run) => {
                self.run = Some(RunHandle::new(run));
                self.error = None;
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
            Err(e) => self.error = Some(e.to_string()),
        }
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
            Command::Load(name) => match shipped::find(&name) {
                Some(found) => {
                    s.loaded = Rc::new(found.scenario.clone());
                    s.scenario = Rc::new(found.scenario);
                    s.selected = None;
                    s.playing = false;
                    s.run = None;
                    s.simulate();
                    s.playhead_ms = s.end_ms();
                }
                None => s.error = Some(format!("There is no shipped scenario named {name:?}.")),
            },
            Command::Edit(f) => {
                let mut next = (*s.scenario).clone();
                f(&mut next);
                s.scenario = Rc::new(next);
                s.simulate();
            }
            Command::Replace(next) => {
                s.scenario = Rc::new(*next);
                s.simulate();
            }
            Command::Reject(why) => s.error = Some(why),
            Command::Play => {
                if s.playhead_ms >= s.end_ms() {
                    s.playhead_ms = 0;
                }
                s.playing = s.end_ms() > 0;
            }
            Command::Pause => s.playing = false,
            Command::Speed(x) => s.speed = x.clamp(0.1, 100_000.0),
            Command::Step(forward) => {
                s.playing = false;
                if let Some(run) = &s.run {
                    let t = s.playhead_ms;
                    let events = &run.events;
                    s.playhead_ms = if forward {
                        let i = events.partition_point(|e| e.t <= t);
                        events.get(i).map_or(run.end_ms, |e| e.t)
                    } else {
                        let i = events.partition_point(|e| e.t < t);
                        if i == 0 {
                            0
                        } else {
                            events[i - 1].t
                        }
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
        }
        Rc::new(s)
    }
}

#[function_component(App)]
pub fn app() -> Html {
    let state = use_reducer(State::new);
    let dispatch = {
        let state = state.clone();
        Callback::from(move |c: Command| state.dispatch(c))
    };
    let run = state.run.clone();
    let on_select = dispatch.reform(Command::Select);
    let on_cursor = dispatch.reform(Command::Cursor);
    let on_view = dispatch.reform(Command::View);
    html! {
        <div class="page">
            <header class="page-head">
                <h1>{"Lease Playground"}</h1>
                <p class="tagline">{"A message queue and its workers, in your browser: drag the visibility timeout, the heartbeat and the processing time, and watch leases expire, runs overlap and messages reach the dead-letter queue."}</p>
            </header>
            if let Some(e) = &state.error {
                <div class="error" role="alert" id="run-error">
                    <strong>{"This setting cannot run: "}</strong>{e.clone()}
                    <span class="error-note">{" The picture below is the last run that worked."}</span>
                </div>
            }
            <div class="layout">
                <aside class="side">
                    <Controls scenario={state.scenario.clone()} loaded={state.loaded.clone()} on_command={dispatch.clone()} />
                </aside>
                <main class="main">
                    <ScenarioInfo scenario={state.scenario.clone()} loaded={state.loaded.clone()} on_command={dispatch.clone()} />
                    if let Some(run) = run {
                        <Totals run={run.clone()} playhead_ms={state.playhead_ms} />
                        <Playback run={run.clone()} playhead_ms={state.playhead_ms} playing={state.playing} speed={state.speed} on_command={dispatch.clone()} />
                        <Timeline run={run.clone()} playhead_ms={state.playhead_ms} view={state.view}
                            selected_message={state.selected} on_select={on_select} on_cursor={on_cursor}
                            cursor_ms={state.cursor_ms} on_view={on_view} />
                        <Charts run={run} playhead_ms={state.playhead_ms} cursor_ms={state.cursor_ms} on_cursor={dispatch.reform(Command::Cursor)} />
                    }
                </main>
            </div>
        </div>
    }
}
