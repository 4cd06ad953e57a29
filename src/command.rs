//! Every change to the page goes through one of these commands and one
//! reducer (`state::State::reduce`): a slider, a key, a button or a link
//! cannot disagree about what they do. Commands are data: they compare,
//! print and replay, and a share link reads as a list of them
//! (`link::commands_of_query`).

use std::rc::Rc;

use lease_diagnose::Finding;
use lease_diagnose::Fix;
use lease_fields::{Field, Value};
use lease_sim::scenario::Preset;
use lease_sim::Scenario;
use lease_ui::theme::Theme;
use lease_view::TimelineView;

use crate::embed::Parts;
use crate::panel::Panel;
use crate::run_handle::RunHandle;

#[derive(Debug, Clone, PartialEq)]
pub enum Command {
    /// Load a shipped scenario by name: `catalog::resolve` turns it into `Loaded`
    /// once the page holds it (`catalog::dispatch`).
    Load(String),
    /// Load this shipped scenario.
    Loaded(Box<Scenario>),
    /// Shipped scenarios a command needs are being fetched (`catalog`).
    #[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
    Fetching(bool),
    /// Set one field of the scenario being edited (a control moved).
    Set(Field, Value),
    /// Choose the broker on the page: the preset brings its rules and keeps
    /// the timeout, redrive and lease lifetime the person set
    /// (`lease_fields::edit::choose_preset_keeping`).
    ChoosePreset(Preset),
    /// Set fields together, in the field table's order: a share link's
    /// fields, where a work distribution's median and p99 go together.
    SetAll(Vec<(Field, Value)>),
    /// Apply a diagnosis's fixes (a finding's button, a tour's demonstration).
    Fix(Vec<Fix>),
    /// What the background worker found in a run (`diagnosis.rs`).
    Diagnosed(Rc<Diagnosed>),
    /// What it found in the large run of this id, which arrives next.
    RunDiagnosed(u32, Rc<Diagnosed>),
    /// Why the background worker could not diagnose the run on screen.
    DiagnosisFailed(String),
    /// Replace the whole scenario (back to the loaded one).
    Replace(Box<Scenario>),
    /// An imported file: it becomes the scenario edits start from. The
    /// strings name the fields the file had that the page ignored.
    Import(Box<Scenario>, Vec<String>),
    /// A control that could not take its input explains why.
    Reject(String),
    Play,
    Pause,
    TogglePlay,
    /// Speed of playback: simulated ms per real ms.
    Speed(f64),
    /// Move the playhead to the next (or previous) event.
    Step(bool),
    /// Move the playhead; past the end means the end.
    Seek(u64),
    /// Real milliseconds passed while playing.
    Tick(f64),
    Select(Option<u32>),
    Cursor(Option<u64>),
    View(TimelineView),
    /// The timeline's visible time range, in ms; `None`: the whole run.
    Range(Option<(f64, f64)>),
    /// Open a panel, or close the open one.
    Panel(Option<Panel>),
    /// What the page ignored from a link, and why.
    Notices(Vec<String>),
    /// The visitor has read the link's notices.
    DismissNotices,
    /// Embedded in another page, showing these parts.
    Embed(Parts),
    /// The colour scheme (a link's `theme=`, a host's `set-theme`).
    Theme(Theme),
    /// The colour-blind-safe palette on or off (`palette=cb`, its toggle).
    PaletteCb(bool),
    /// The only origin an embed takes messages from and posts events to.
    HostOrigin(Option<String>),
    /// The address changed under the page (back, forward): open that link.
    /// `catalog::resolve` reads it into `Open`.
    OpenLink(String),
    /// A fresh page, built by these commands (a link's).
    Open(Vec<Command>),
    /// Start a guided tour by id; `catalog::resolve` turns it into `Tour`.
    StartTour(String),
    /// Start this tour: its scenario loads, at its first step.
    Tour(String, Option<Box<Scenario>>),
    TourStep(usize),
    /// Back to that step of the tour, with the scenario it last showed.
    TourReturn(usize),
    /// Compare: side B starts as a copy of A.
    CompareStart,
    /// Whether the controls edit side B (else A).
    CompareEdit(bool),
    CompareCopy,
    CompareStop,
    /// What came of running the scenario for run `id` (the effect after a change).
    Ran(u32, Ran),
    /// The background worker's progress on run `id`.
    RunProgress(u32, RunProgress),
    /// Run `id` finished in the background worker.
    RunArrived(u32, RunHandle),
    /// Run `id` could not run in the background worker, and why.
    RunFailed(u32, String),
    /// Stop the background run under way; the last finished run stays.
    CancelRun,
    /// Stop side B's run in the background; B keeps its last run.
    CancelRunB,
    /// Enter or leave presenter mode (`present=1`, the P key).
    Present(bool),
    /// Enter or leave the interviewer's mode (`mode=interview`, its button).
    Interview(bool),
    /// Reveal one figure the interviewer's mode hides
    /// (`lease_ui::panel::FIGURES`).
    Reveal(u32),
    /// The notes on the timeline, all of them (a link's, the notes panel's),
    /// each in its link form and read once already.
    Notes(Vec<String>),
    /// Open the notes panel on a new note over this range, in ms (a
    /// Shift+drag on the timeline, the Note… button, a context menu).
    NoteAt(u64, u64),
    /// Open the timeline's menu there.
    Menu(lease_ui::panel::MenuAt),
    /// The menu's action: side A becomes this scenario; the words say what
    /// was done, and `Undo` goes back.
    Act(Box<Scenario>, String),
    /// The menu's action as a fork: compare, with side B this scenario.
    Fork(Box<Scenario>),
    /// Back to the scenario before the last menu action.
    Undo,
}

/// How far a background run has got.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RunProgress {
    /// Simulated time reached, of `end_ms`.
    pub now_ms: u64,
    pub end_ms: u64,
    pub events: u64,
    /// Messages deleted or dead-lettered so far.
    pub settled: u64,
    /// Wall-clock ms since the worker took the job.
    pub elapsed_ms: f64,
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

/// What the worker found in a run: its findings and, when a tour asked and
/// the run is of the tour's scenario, whether each step holds.
#[derive(Debug, Clone, PartialEq)]
pub struct Diagnosed {
    pub run: RunHandle,
    /// The tour the checks were asked for (`None`: none asked).
    pub tour: Option<String>,
    pub findings: Vec<Finding>,
    pub tour_done: Option<Vec<bool>>,
}

impl Diagnosed {
    /// Whether this answers for `run` with the checks of `tour`.
    pub fn answers(&self, run: &RunHandle, tour: Option<&str>) -> bool {
        self.run == *run && (tour.is_none() || self.tour.as_deref() == tour)
    }
}
