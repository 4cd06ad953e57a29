//! Every change to the page goes through one of these commands and one
//! reducer (`app::State::reduce`): a slider, a key, a button or a link
//! cannot disagree about what they do.

use std::rc::Rc;

use lease_sim::Scenario;

use crate::panel::Panel;
use crate::timeline::TimelineView;

#[derive(Clone)]
pub enum Command {
    /// Load a shipped scenario by name.
    Load(String),
    /// Shipped scenarios a command needs are being fetched (`catalog`).
    Fetching(bool),
    /// Change the scenario being edited (a control moved), then re-simulate.
    Edit(Rc<dyn Fn(&mut Scenario)>),
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
    /// The visitor has read the link's notices.
    DismissNotices,
    /// The address changed under the page (back, forward): open that link.
    OpenLink(String),
    /// Start a guided tour by id: its scenario loads, at its first step.
    StartTour(String),
    TourStep(usize),
    /// Compare: side B starts as a copy of A.
    CompareStart,
    /// Whether the controls edit side B (else A).
    CompareEdit(bool),
    CompareCopy,
    CompareStop,
    /// The background worker's progress on run `id`.
    RunProgress(u32, RunProgress),
    /// Run `id` finished in the background worker.
    RunArrived(u32, crate::run_handle::RunHandle),
    /// Run `id` could not run in the background worker, and why.
    RunFailed(u32, String),
    /// Stop the background run under way; the last finished run stays.
    CancelRun,
    /// Stop side B's run in the background; B keeps its last run.
    CancelRunB,
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

impl PartialEq for Command {
    fn eq(&self, _: &Self) -> bool {
        false
    }
}
