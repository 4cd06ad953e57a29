//! Every change to the page goes through one of these commands and one
//! reducer (`app::State::reduce`): a slider, a key, a button or a link
//! cannot disagree about what they do.

use std::rc::Rc;

use lease_sim::Scenario;

use crate::timeline::TimelineView;

#[derive(Clone)]
pub enum Command {
    /// Load a shipped scenario by name.
    Load(String),
    /// Change the scenario being edited (a control moved), then re-simulate.
    Edit(Rc<dyn Fn(&mut Scenario)>),
    /// Replace the whole scenario (back to the loaded one, an import).
    Replace(Box<Scenario>),
    /// A control that could not take its input explains why.
    Reject(String),
    Play,
    Pause,
    /// Speed of playback: simulated ms per real ms.
    Speed(f64),
    /// Move the playhead to the next (or previous) event.
    Step(bool),
    Seek(u64),
    /// Real milliseconds passed while playing.
    Tick(f64),
    Select(Option<u32>),
    Cursor(Option<u64>),
    View(TimelineView),
}

impl PartialEq for Command {
    fn eq(&self, _: &Self) -> bool {
        false
    }
}
