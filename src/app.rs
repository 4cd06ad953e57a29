//! The page's state and its one reducer. The scenario being edited is the
//! single source of truth. The reducer is a function of the state and the
//! command: it reads no clock and no global. A command that changes a
//! side's scenario marks its run as wanted; the run is an effect that
//! follows (`use_runs`): computed on the page, or handed to the background
//! worker, its outcome comes back as `Command::Ran`. A share link is read
//! into this state as commands (`link.rs`), and its scenario runs once.

use std::rc::Rc;

use lease_fields::{edit, names, Field, FieldError, Value};
use lease_sim::scenario::Preset;
use lease_sim::Scenario;
use yew::prelude::*;

use crate::charts::Charts;
use crate::command::Command;
use crate::compare::{compare, CompareProps};
use crate::controls::{controls, ControlsProps};
use crate::diagnosis::Diagnosis;
use crate::embed::Parts;
use crate::memo::memo;
use crate::panel::{Panel, PanelView};
use crate::playback::Playback;
use crate::run_handle::RunHandle;
use crate::run_status::{cancelled_notice, pending_status, summarised_notice};
use crate::scenario_info::{scenario_info, ScenarioInfoProps};
use crate::timeline::{Timeline, TimelineView};
use crate::totals::{run_summary, totals, TotalsProps};

/// The scenario a new visitor sees: one message, one picture, the whole lesson.
pub const DEFAULT_SCENARIO: &str = "ninety-second-message";
/// How much thicker the timeline's strokes and larger its labels are in
/// presenter mode: read from the back of a lecture hall.
const PRESENT_INK: f64 = 1.75;

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
    /// What the background worker found in a run of side A, and the tour's
    /// checks on it: the Diagnosis and the tours panel show it once it
    /// answers for the run on screen.
    pub diagnosed: Option<Rc<crate::diagnosis::Diagnosed>>,
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

/// What came of running a side's scenario (the effect that follows a
/// change): the run, or that the background worker computes it, or why it
/// cannot run.
#[derive(Debug, Clone, PartialEq)]
pub enum Ran {
    Done(RunHandle),
    Background,
    Failed(String),
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
    /// The default scenario, run.
    pub fn new() -> Self {
        let default = crate::catalog::find(DEFAULT_SCENARIO).unwrap_or_default();
        let mut st = State::from_commands(vec![Command::Loaded(Box::new(default))]);
        st.run_now();
        st
    }

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
            notes: Vec::new(),
            note_draft: None,
            tour: None,
            tour_earned: Vec::new(),
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

    /// The runs wanted, made here and now (the page's first state, the
    /// tests): what the effect does after a render.
    pub fn run_now(&mut self) {
        for (id, ran) in self.runs_wanted() {
            self.apply(Command::Ran(id, ran));
        }
    }

    /// The effect that follows a change: each wanted run, tried on the page
    /// (or found too large for it, or unable to run). It reads the clock (a
    /// try on the page stops when it takes too long), so the reducer does not.
    pub fn runs_wanted(&self) -> Vec<(u32, Ran)> {
        [(Which::A, Some(&self.a)), (Which::B, self.b.as_ref())]
            .into_iter()
            .filter_map(|(which, side)| {
                let side = side?;
                Some((side.wanted?, run_side(which, &side.scenario)))
            })
            .collect()
    }

    /// Mark a side's scenario as changed: its run is wanted.
    fn want_run(&mut self, which: Which) {
        let id = self.next_id;
        if let Some(side) = self.side(which) {
            side.wanted = Some(id);
            side.cancelled = false;
            self.next_id = id.wrapping_add(1);
        }
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

    /// The outcome of run `id` for its side: shown, handed to the worker
    /// (a run already under way there is replaced), or refused with why
    /// (a newer setting replaces a run under way, even one that cannot run).
    fn ran(&mut self, which: Which, id: u32, ran: Ran) {
        if let Some(side) = self.side(which) {
            side.wanted = None;
        }
        // A loaded scenario whose run is not made here shows no other's run.
        if which == Which::A && self.follow_end && !matches!(ran, Ran::Done(_)) {
            self.a.run = None;
        }
        match ran {
            Ran::Done(run) => self.show(which, run),
            Ran::Background => {
                if let Some(side) = self.side(which) {
                    side.pending = Some(PendingRun::new(id, side.scenario.clone()));
                }
                self.error = None;
                self.refused = None;
            }
            Ran::Failed(why) => self.fail(which, &why),
        }
    }

    /// Show a finished run: computed here or arrived from the worker.
    fn show(&mut self, which: Which, run: RunHandle) {
        let at_end = self.follow_end || (self.a.run.is_some() && self.playhead_ms >= self.end_ms());
        let Some(side) = self.side(which) else {
            return;
        };
        side.pending = None;
        side.run = Some(run);
        self.error = None;
        self.refused = None;
        let end = self.end_ms();
        // Following the end keeps the whole picture as the hand moves.
        self.playhead_ms = if at_end {
            end
        } else {
            self.playhead_ms.min(end)
        };
        if which == Which::B {
            return;
        }
        self.follow_end = false;
        if self.selected.is_some_and(|m| {
            self.a
                .run
                .as_ref()
                .is_some_and(|r| m as usize >= r.messages.len())
        }) {
            self.selected = None;
        }
    }

    /// A side's run could not be made; its last good run stays.
    fn fail(&mut self, which: Which, why: &str) {
        if let Some(side) = self.side(which) {
            side.pending = None;
        }
        self.error = Some(match which {
            Which::A => why.to_string(),
            Which::B => format!("side B: {why}"),
        });
    }

    /// The side a background run `id` belongs to, if it is still awaited.
    fn awaiting(&self, id: u32) -> Option<Which> {
        if self.a.waits_for(id) {
            Some(Which::A)
        } else if self.b.as_ref().is_some_and(|b| b.waits_for(id)) {
            Some(Which::B)
        } else {
            None
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

impl Default for State {
    fn default() -> Self {
        Self::new()
    }
}

impl Reducible for State {
    type Action = Command;

    fn reduce(self: Rc<Self>, cmd: Command) -> Rc<Self> {
        let mut s = (*self).clone();
        if !s.apply(cmd) {
            return self;
        }
        Rc::new(s)
    }
}

impl State {
    /// Apply one command; `false` when nothing changed. A changed scenario
    /// is marked to run (`want_run`), not run here.
    fn apply(&mut self, cmd: Command) -> bool {
        let s = self;
        match cmd {
            // `catalog::dispatch` turns a name the page holds into `Loaded`.
            Command::Load(name) => s.refused = Some(no_such_scenario(&name)),
            Command::Loaded(found) => {
                s.load(*found);
                s.tour = None;
            }
            Command::Set(Field::Broker, Value::Word(w)) if names::parse::<Preset>(w).is_some() => {
                let loaded = s.loaded.clone();
                s.edit(|sc| {
                    if let Some(p) = names::parse::<Preset>(w) {
                        edit::choose_preset_keeping(sc, p, &loaded);
                    }
                    Ok(())
                })
            }
            Command::Set(field, value) => s.edit(|sc| lease_fields::set(sc, field, &value)),
            Command::SetAll(sets) => s.edit(|sc| lease_fields::set_all(sc, &sets)),
            Command::Fix(fixes) => s.edit(|sc| {
                for f in &fixes {
                    f.apply(sc);
                }
                Ok(())
            }),
            Command::Replace(next) => {
                // A scenario of one's own (a file, "your system") arrives
                // whole in a link: the page shows it, with its own title
                // and notes, not as an edit of the shipped one.
                if next.name != s.loaded.name {
                    s.loaded = Rc::new((*next).clone());
                }
                s.a.scenario = Rc::new(*next);
                s.want_run(Which::A);
            }
            Command::Import(next, ignored) => {
                s.load(*next);
                s.notices = ignored;
                s.tour = None;
            }
            Command::Reject(why) => s.refused = Some(why),
            Command::Fetching(on) => s.fetching = on,
            Command::Play => play(s),
            Command::Pause => s.playing = false,
            Command::TogglePlay => {
                if s.playing {
                    s.playing = false
                } else {
                    play(s)
                }
            }
            Command::Speed(x) => s.speed = x.clamp(0.1, 100_000.0),
            Command::Step(forward) => {
                s.playing = false;
                let end = s.end_ms();
                if let Some(run) = &s.a.run {
                    let t = s.playhead_ms;
                    let events = &run.events;
                    s.playhead_ms = if forward {
                        let i = events.partition_point_t(|e| e <= t);
                        events.t(i).unwrap_or(end)
                    } else {
                        let i = events.partition_point_t(|e| e < t);
                        i.checked_sub(1).and_then(|i| events.t(i)).unwrap_or(0)
                    };
                }
            }
            // Before the run is made (a link's `t=`), the run clamps it (`show`).
            Command::Seek(t) => {
                s.follow_end = false;
                s.playhead_ms = if s.a.wanted.is_some() {
                    t
                } else {
                    t.min(s.end_ms())
                };
            }
            Command::Tick(real_ms) => {
                if s.playing {
                    let adv = (real_ms * s.speed).max(0.0) as u64;
                    s.playhead_ms = s.playhead_ms.saturating_add(adv.max(1)).min(s.end_ms());
                    if s.playhead_ms >= s.end_ms() {
                        s.playing = false;
                    }
                }
            }
            // Only a message of the run shown (a link may name any number).
            Command::Select(m) => {
                s.selected = m.filter(|m| {
                    s.a.wanted.is_some()
                        || s.a
                            .run
                            .as_ref()
                            .is_some_and(|r| (*m as usize) < r.messages.len())
                })
            }
            Command::Cursor(t) => {
                if s.cursor_ms == t {
                    return false;
                }
                s.cursor_ms = t;
            }
            Command::View(v) => s.view = v,
            Command::Range(range) => {
                if range == s.range {
                    return false;
                }
                s.range = range;
            }
            Command::Panel(p) => {
                // A range picked for a note holds until that panel closes.
                s.note_draft = s.note_draft.filter(|_| p == Some(Panel::Notes));
                s.panel = p;
            }
            Command::Notices(n) => s.notices = n,
            Command::DismissNotices => s.notices.clear(),
            Command::Embed(parts) => {
                s.embed = true;
                s.parts = parts;
            }
            Command::Theme(t) => s.theme = t,
            Command::PaletteCb(on) => s.palette_cb = on,
            Command::HostOrigin(o) => s.host_origin = o,
            Command::Present(on) => s.present = on,
            Command::Notes(mut notes) => {
                notes.truncate(lease_view::note::MAX_NOTES);
                s.notes = notes;
            }
            Command::NoteAt(from, to) if from < to => {
                s.note_draft = Some((from, to));
                s.panel = Some(Panel::Notes);
            }
            Command::NoteAt(..) => return false,
            // A link opened afresh: its own state, with its own notices.
            // Read into `Open` by `Command::resolve`.
            Command::OpenLink(_) => return false,
            Command::Open(commands) => {
                let next_id = s.next_id;
                *s = State::from_commands(commands);
                s.next_id = s.next_id.max(next_id);
                s.want_run(Which::A);
            }
            // `Command::resolve` turns a tour's id into `Tour`; no tour has this one.
            Command::StartTour(_) => return false,
            Command::Tour(id, scenario) => {
                if let Some(found) = scenario {
                    s.load(*found);
                }
                s.tour_earned = vec![false; lease_diagnose::tour(&id).map_or(0, |t| t.steps.len())];
                s.tour = Some((id, 0));
                s.panel = Some(Panel::Tour);
            }
            // A late answer, for a run no longer on screen, changes nothing.
            Command::Diagnosed(d) if s.a.run.as_ref() == Some(&d.run) => {
                s.diagnosis_failed = None;
                s.diagnosed = Some(d);
            }
            Command::Diagnosed(_) => return false,
            // Side B's large runs are not diagnosed on the page.
            Command::RunDiagnosed(id, d) if s.awaiting(id) == Some(Which::A) => {
                s.diagnosed = Some(d);
            }
            Command::RunDiagnosed(..) => return false,
            Command::DiagnosisFailed(why) => {
                s.diagnosis_failed = s.a.run.clone().map(|run| (run, why));
            }
            Command::TourStep(i) => {
                if let Some((id, step)) = &mut s.tour {
                    let plan = lease_diagnose::tour(id);
                    let read = plan
                        .and_then(|t| t.steps.get(*step))
                        .is_some_and(|st| st.check == lease_diagnose::Check::Read);
                    if read && i > *step {
                        if let Some(e) = s.tour_earned.get_mut(*step) {
                            *e = true;
                        }
                    }
                    let last = plan.map_or(0, |t| t.steps.len().saturating_sub(1));
                    *step = i.min(last);
                }
            }
            Command::Ran(id, ran) => match s.awaiting(id) {
                Some(which) => s.ran(which, id, ran),
                None => return false,
            },
            Command::RunProgress(id, p) => {
                let Some(pending) = s
                    .awaiting(id)
                    .and_then(|w| s.side(w))
                    .and_then(|side| side.pending.as_mut())
                else {
                    return false;
                };
                pending.progress = Some(p);
            }
            Command::RunArrived(id, run) => match s.awaiting(id) {
                Some(which) => s.show(which, run),
                None => return false,
            },
            Command::RunFailed(id, why) => match s.awaiting(id) {
                Some(which) => s.fail(which, &why),
                None => return false,
            },
            Command::CancelRun => s.cancel(Which::A),
            Command::CancelRunB => s.cancel(Which::B),
            Command::CompareStart => {
                s.b = Some(s.a.copy());
                // A's run not made yet (a link being read): B makes its own.
                if s.a.wanted.is_some() || s.a.run.is_none() {
                    s.want_run(Which::B);
                }
                s.edit_b = true;
                s.panel = Some(Panel::Compare);
            }
            Command::Menu(at) => {
                s.menu_at = Some(at);
                s.panel = Some(Panel::Menu);
            }
            Command::Act(next, said) => {
                let was = std::mem::replace(&mut s.a.scenario, Rc::new(*next));
                s.undo.push((was, said.clone()));
                s.said = Some(said);
                s.panel = None;
                s.want_run(Which::A);
            }
            Command::Fork(next) => {
                let mut b = s.a.copy();
                b.scenario = Rc::new(*next);
                s.b = Some(b);
                s.want_run(Which::B);
                s.edit_b = true;
                s.panel = Some(Panel::Compare);
            }
            Command::Undo => {
                let Some((was, what)) = s.undo.pop() else {
                    return false;
                };
                s.a.scenario = was;
                s.said = Some(format!("Undone: {what}"));
                s.want_run(Which::A);
            }
            Command::CompareEdit(b) => s.edit_b = b && s.b.is_some(),
            Command::CompareCopy => s.b = Some(s.a.copy()),
            Command::CompareStop => {
                s.end_compare();
                if s.panel == Some(Panel::Compare) {
                    s.panel = None;
                }
            }
        }
        true
    }
}

fn no_such_scenario(name: &str) -> String {
    format!(
        "There is no shipped scenario named \"{}\".",
        crate::import_job::shorten(name)
    )
}

/// Run a side's scenario, as the effect after a change does: tried here, or
/// found too large for the page (the worker computes it), or why it cannot
/// run. Side B is kept whole (never summarised), so it must fit what the
/// page tries (`budget::fits_side_b`).
fn run_side(which: Which, scenario: &Scenario) -> Ran {
    let fits = match which {
        Which::A => crate::budget::route(scenario),
        Which::B => crate::budget::fits_side_b(scenario).map(|()| crate::budget::Route::Page),
    };
    let route = match fits {
        Ok(route) => route,
        Err(why) => return Ran::Failed(why),
    };
    if route == crate::budget::Route::Worker {
        return Ran::Background;
    }
    let tried = crate::timing::measure("lease:simulate", || {
        crate::budget::try_on_page(scenario, &crate::timing::now_ms)
    });
    match tried {
        crate::budget::Tried::Outgrew => Ran::Background,
        crate::budget::Tried::Done(run) => match *run {
            Ok(run) => Ran::Done(RunHandle::new(run)),
            Err(e) => Ran::Failed(e.to_string()),
        },
    }
}

impl State {
    /// Stop a side's background run; its last finished run stays.
    fn cancel(&mut self, which: Which) {
        if let Some(side) = self.side(which) {
            if side.pending.take().is_some() {
                side.cancelled = true;
            }
        }
    }
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
        by_message: state.view == crate::timeline::TimelineView::Messages,
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
    })
    .ok()
}

/// The panel loaded on demand that shows: in presenter mode, the tours'
/// panel as the presenter bar, unless a note is being written.
fn presented_panel(state: &State) -> Option<Panel> {
    if state.present && state.panel != Some(Panel::Notes) {
        return Some(Panel::Tour);
    }
    state.panel.filter(|p| p.on_demand())
}

/// What a button of the page's own asks for: one closure type for all of
/// them (`click`).
#[derive(Clone, Copy)]
enum Click {
    /// Compare, or stop comparing (`true`: comparing now).
    Compare(bool),
    Present(bool),
    Palette(bool),
    Dismiss,
    Undo,
}

fn click(dispatch: &Callback<Command>, c: Click) -> Callback<MouseEvent> {
    dispatch.reform(move |_: MouseEvent| match c {
        Click::Compare(true) => Command::CompareStop,
        Click::Compare(false) => Command::CompareStart,
        Click::Present(on) => Command::Present(on),
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
        let to = state.dispatcher();
        (*use_memo((), move |_| {
            Callback::from(move |c: Command| crate::catalog::dispatch(c, &to))
        }))
        .clone()
    };
    // The effect that follows a change: run what the reducer marked as wanted.
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
        (*near && state.parts.shows("diagnosis")) || touring,
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
    let cb = state.palette_cb;
    let controls_scenario = match (&state.b, state.edit_b) {
        (Some(b), true) => b.scenario.clone(),
        _ => state.a.scenario.clone(),
    };
    html! {
        <div class={classes!("page", state.embed.then_some("embedded"), state.present.then_some("presenting"))} ref={page}
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
                            onclick={click(&dispatch, Click::Compare(comparing))}>
                            { if comparing { "Stop comparing" } else { "Compare" } }
                        </button>
                        <button type="button" id="open-sweep" aria-pressed={pressed(Panel::Sweep)} onclick={open(Panel::Sweep)}>{"Sweep"}</button>
                        <button type="button" id="open-embed" aria-pressed={pressed(Panel::Embed)} onclick={open(Panel::Embed)}>{"Embed"}</button>
                        <button type="button" id="open-notes" aria-pressed={pressed(Panel::Notes)} onclick={open(Panel::Notes)}>{"Note…"}</button>
                        <button type="button" id="open-present" aria-pressed={state.present.to_string()} title="Presenter mode (P)"
                            onclick={click(&dispatch, Click::Present(!present))}>{"Present"}</button>
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
                <p class="notices" role="status" id="fetching-scenario">{"Loading the scenario…"}</p>
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
            <div class={classes!("layout", (!parts.shows("controls")).then_some("no-side"))}>
                if parts.shows("controls") {
                    <aside class="side">
                        if comparing {
                            <p class="editing-side" id="editing-side">{ if state.edit_b { "These controls edit side B." } else { "These controls edit side A." } }</p>
                        }
                        { memo(ControlsProps { scenario: controls_scenario, loaded: state.loaded.clone(), on_command: dispatch.clone() }, controls) }
                    </aside>
                }
                <main class="main" ref={main.clone()}>
                    if parts.shows("scenario") {
                        { memo(ScenarioInfoProps { scenario: state.a.scenario.clone(), loaded: state.loaded.clone(), on_command: dispatch.clone(), touring: state.tour.is_some() }, scenario_info) }
                    }
                    if let Some(run) = run {
                        if parts.shows("totals") {
                            { memo(TotalsProps { run: run.clone(), playhead_ms: state.playhead_ms }, totals) }
                        }
                        { run_summary(&run) }
                        if parts.shows("playback") {
                            <Playback end_ms={state.end_ms()} playhead_ms={state.playhead_ms} playing={state.playing} speed={state.speed} on_command={dispatch.clone()} />
                        }
                        if parts.shows("timeline") {
                            <Timeline run={run.clone()} axis_end_ms={state.b.as_ref().map_or(0, Side::end_ms)} playhead_ms={state.playhead_ms} view={state.view}
                                selected_message={state.selected} on_select={dispatch.reform(Command::Select)}
                                on_cursor={dispatch.reform(Command::Cursor)}
                                cursor_ms={state.cursor_ms} on_view={dispatch.reform(Command::View)}
                                range_ms={state.range} on_range={dispatch.reform(Command::Range)} ink={if present { PRESENT_INK } else { 1.0 }}
                                notes={state.notes.clone()} on_note={dispatch.reform(|(a, b)| Command::NoteAt(a, b))}
                                on_table={(!state.embed).then(|| open(Panel::Table))}
                                on_menu={dispatch.reform(Command::Menu)} />
                            if let Some(said) = &state.said {
                                <p class="acted" role="status" id="acted">{said.clone()}
                                    if !state.undo.is_empty() {
                                        {" "}<button type="button" id="undo" title="Undo (Ctrl+Z)" onclick={click(&dispatch, Click::Undo)}>{"Undo"}</button>
                                    }
                                </p>
                            }
                        }
                        if let (Some((side_b, b)), true) = (state.b.as_ref().and_then(|s| Some((s, s.run.as_ref()?))), parts.shows("timeline")) {
                            { compare(&CompareProps { a: &run, b, b_pending: side_b.pending.as_ref(), b_cancelled: side_b.cancelled, edit_b: state.edit_b, range: state.range,
                                playhead_ms: state.playhead_ms, cursor_ms: state.cursor_ms, on_command: &dispatch, chart_width }) }
                        }
                        if parts.shows("diagnosis") {
                            <Diagnosis run={run.clone()} diagnosed={state.diagnosed.clone()}
                                failed={state.diagnosis_failed.as_ref().filter(|(r, _)| *r == run).map(|(_, why)| why.clone())}
                                on_command={dispatch.clone()} on_near={(*on_near).clone()} />
                        }
                        if parts.shows("charts") {
                            <Charts run={run} playhead_ms={state.playhead_ms} cursor_ms={state.cursor_ms} on_cursor={dispatch.reform(Command::Cursor)} width={chart_width} />
                        }
                    }
                </main>
            </div>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use lease_fields::{Field, Value};

    use super::*;

    fn side_b(st: &State) -> &Side {
        st.b.as_ref().expect("comparing")
    }

    /// What the page's effect does after a render: make the wanted runs and
    /// hand their outcomes to the reducer.
    fn effect(st: Rc<State>) -> Rc<State> {
        let st = st
            .runs_wanted()
            .into_iter()
            .fold(st, |st, (id, ran)| st.reduce(Command::Ran(id, ran)));
        diagnosed(st)
    }

    /// What the worker answers when the page asks: the findings of the run
    /// on screen and the open tour's checks on it.
    fn diagnosed(st: Rc<State>) -> Rc<State> {
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
        st.reduce(Command::Diagnosed(Rc::new(crate::diagnosis::Diagnosed {
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
    fn a_run_made_for_an_older_setting_is_ignored() {
        let st = Rc::new(State::new());
        let first = st.reduce(Command::Set(Field::Timeout, Value::Num(45_000)));
        let (id, ran) = first.runs_wanted().remove(0);
        let second = first.reduce(Command::Set(Field::Timeout, Value::Num(50_000)));
        let late = second.clone().reduce(Command::Ran(id, ran));
        assert!(Rc::ptr_eq(&late, &second), "the older run changes nothing");
    }

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
        let late = Rc::new(crate::diagnosis::Diagnosed {
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
            (Field::Dist, Value::Word("constant")),
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
        let a =
            effect(Rc::new(State::new()).reduce(Command::Set(Field::Timeout, Value::Num(135_000))));
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
}
