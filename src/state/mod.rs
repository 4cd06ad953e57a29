//! The page's state and its one reducer: the model below the page's views.
//! The scenario being edited is the single source of truth. The reducer is
//! a function of the state and the command: it reads no clock and no global.
//! A command that changes a side's scenario marks its run as wanted; the
//! run is an effect that follows (`runs`, asked by the page's dispatcher
//! right after the reducer, in the same task): computed on the page, or handed
//! to the background worker, its outcome comes back as `Command::Ran`. A
//! share link is read into this state as commands (`link.rs`), and its
//! scenario runs once.
//!
//! Nothing here renders: the views (`app.rs` and the modules it draws with)
//! read this state and send commands.

mod reduce;
mod runs;
#[cfg(test)]
pub(crate) mod tests;

use std::rc::Rc;

use lease_fields::FieldError;
use lease_sim::Scenario;
use lease_view::TimelineView;
use yew::prelude::*;

use crate::command::Command;
use crate::embed::Parts;
use crate::panel::Panel;
use crate::run_handle::RunHandle;

/// One side of the page: a scenario and its run. The page shows side A; a
/// comparison adds side B, run the same way.
#[derive(Clone, PartialEq)]
pub struct Side {
    pub scenario: Rc<Scenario>,
    pub run: Option<RunHandle>,
    /// A large run being computed in the background worker; the picture
    /// shows the last finished run until it arrives.
    pub pending: Option<PendingRun>,
    /// The visitor cancelled the last background run.
    pub cancelled: bool,
    /// A command changed the scenario since it was last run: the id of the
    /// run wanted (`Command::Ran` answers it).
    pub wanted: Option<u32>,
}

impl Side {
    fn new(scenario: Scenario) -> Side {
        Side {
            scenario: Rc::new(scenario),
            run: None,
            pending: None,
            cancelled: false,
            wanted: None,
        }
    }

    /// Side B as a comparison starts it: A's scenario and run.
    fn copy(&self) -> Side {
        Side {
            scenario: self.scenario.clone(),
            run: self.run.clone(),
            pending: None,
            cancelled: false,
            wanted: None,
        }
    }

    pub fn end_ms(&self) -> u64 {
        self.run.as_ref().map_or(0, |r| r.end_ms)
    }

    /// Whether `id` is this side's wanted or background run (a reply to an
    /// older one is ignored).
    fn waits_for(&self, id: u32) -> bool {
        self.wanted == Some(id) || self.pending.as_ref().is_some_and(|p| p.id == id)
    }
}

/// Which side a run belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Which {
    A,
    B,
}

#[derive(Clone)]
pub struct State {
    /// The scenario the edits started from: shipped, or imported.
    pub loaded: Rc<Scenario>,
    /// The scenario being edited and its run.
    pub a: Side,
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
    /// The playhead goes to the end of the next run shown (a scenario was
    /// loaded, and no command has moved the playhead since).
    follow_end: bool,
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
    /// The colour scheme the link or the host chose.
    pub theme: lease_ui::theme::Theme,
    pub palette_cb: bool,
    /// `host_origin=`: whose messages the page takes, and where its events go.
    pub host_origin: Option<String>,
    /// Presenter mode: the tours' panel is the presenter bar.
    pub present: bool,
    /// The interviewer's mode (`mode=interview`), with the figures revealed
    /// so far, one bit each (`lease_ui::panel::FIGURES`): a candidate
    /// predicts each figure, and what comes after the playhead, before it
    /// shows. `None`: everything shows.
    pub interview: Option<u16>,
    /// Notes on the timeline (`note=` in the link).
    pub notes: Vec<String>,
    /// The range the notes panel starts a new note on.
    pub note_draft: Option<(u64, u64)>,
    /// The guided tour under way, and its step.
    pub tour: Option<(String, usize)>,
    /// Per step of that tour, whether the person earned its tick: changed
    /// something while the step was shown (or pressed "Show me"), or, for a
    /// step that is only read, moved on from it. A step that already holds
    /// on arrival is one to look at, not a tick.
    pub tour_earned: Vec<bool>,
    /// Per step of that tour, the scenario on screen when the step was last
    /// shown: going back to a step shows it again.
    pub tour_shown: Vec<Option<Rc<Scenario>>>,
    /// What the background worker found in a run of side A, and the tour's
    /// checks on it: the Diagnosis and the tours panel show it once it
    /// answers for the run on screen.
    pub diagnosed: Option<Rc<crate::command::Diagnosed>>,
    /// Why the worker could not diagnose this run.
    pub diagnosis_failed: Option<(RunHandle, String)>,
    /// Compare: side B; the controls edit B when `edit_b`.
    pub b: Option<Side>,
    pub edit_b: bool,
    /// Where the timeline's menu opened.
    pub menu_at: Option<lease_ui::panel::MenuAt>,
    /// Side A's scenarios before each menu action, with what it did.
    pub undo: Vec<(Rc<Scenario>, String)>,
    /// What the last menu action (or undo) did, in words.
    pub said: Option<String>,
    /// The id the next wanted run takes. Ids count for the page's life, not
    /// per link: a link opened from history builds a fresh state, and its
    /// run must not take the id of a reply still on its way.
    next_id: u32,
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
    fn new(id: u32, scenario: Rc<Scenario>) -> Self {
        PendingRun {
            id,
            messages: lease_sim::estimate(&scenario).messages,
            scenario,
            progress: None,
        }
    }
}

impl State {
    /// The page's state for these commands (a share link's), from an empty
    /// scenario; its run is wanted, not yet made.
    pub fn from_commands(commands: Vec<Command>) -> Self {
        let mut st = State {
            loaded: Rc::default(),
            a: Side::new(Scenario::default()),
            error: None,
            refused: None,
            notices: Vec::new(),
            fetching: false,
            playhead_ms: 0,
            follow_end: true,
            playing: false,
            speed: 10.0,
            selected: None,
            cursor_ms: None,
            view: TimelineView::Workers,
            range: None,
            panel: None,
            embed: false,
            parts: Parts::all(),
            theme: lease_ui::theme::Theme::Auto,
            palette_cb: false,
            host_origin: None,
            present: false,
            interview: None,
            notes: Vec::new(),
            note_draft: None,
            tour: None,
            tour_earned: Vec::new(),
            tour_shown: Vec::new(),
            diagnosed: None,
            diagnosis_failed: None,
            b: None,
            edit_b: false,
            menu_at: None,
            undo: Vec::new(),
            said: None,
            next_id: 1,
        };
        for cmd in commands {
            st.apply(cmd);
        }
        st
    }

    /// Where playback ends: while comparing, side B may run past A.
    pub fn end_ms(&self) -> u64 {
        self.a.end_ms().max(self.b.as_ref().map_or(0, Side::end_ms))
    }

    fn side(&mut self, which: Which) -> Option<&mut Side> {
        match which {
            Which::A => Some(&mut self.a),
            Which::B => self.b.as_mut(),
        }
    }

    /// Loading another scenario ends a comparison and a tour's hold on it.
    fn end_compare(&mut self) {
        self.b = None;
        self.edit_b = false;
        self.playhead_ms = self.playhead_ms.min(self.end_ms());
    }

    fn load(&mut self, scenario: Scenario) {
        self.loaded = Rc::new(scenario.clone());
        // The last run stays on screen until the new one is made (the page
        // and an open panel keep their place); if the new one is not made
        // here, it goes (`ran`).
        let shown = self.a.run.take();
        self.a = Side::new(scenario);
        self.a.run = shown;
        self.selected = None;
        self.playing = false;
        self.range = None;
        // The new run starts at its end (`show`).
        self.playhead_ms = 0;
        self.follow_end = true;
        self.end_compare();
        self.undo.clear();
        self.said = None;
        self.want_run(Which::A);
    }

    /// Edit the scenario the controls edit (side B while comparing and
    /// editing B); an edit that cannot apply changes nothing and says why.
    fn edit(&mut self, f: impl FnOnce(&mut Scenario) -> Result<(), FieldError>) {
        let which = if self.edit_b { Which::B } else { Which::A };
        let Some(side) = self.side(which) else {
            return;
        };
        let mut next = (*side.scenario).clone();
        match f(&mut next) {
            Ok(()) => {
                side.scenario = Rc::new(next);
                self.want_run(which);
                if let Some((_, step)) = &self.tour {
                    if let Some(e) = self.tour_earned.get_mut(*step) {
                        *e = true;
                    }
                }
            }
            Err(e) => self.refused = Some(format!("The setting {e}.")),
        }
    }
}

impl State {
    /// Keeps the scenario the tour's current step shows, for a return to it.
    fn remember_tour_step(&mut self) {
        if let Some((_, step)) = &self.tour {
            if let Some(shown) = self.tour_shown.get_mut(*step) {
                *shown = Some(self.a.scenario.clone());
            }
        }
    }
}

impl Reducible for State {
    type Action = Command;

    fn reduce(self: Rc<Self>, cmd: Command) -> Rc<Self> {
        let mut s = (*self).clone();
        if !s.apply(cmd) {
            return self;
        }
        s.remember_tour_step();
        Rc::new(s)
    }
}
