//! A recorded run shared between components. Yew compares props by value; a
//! run holds hundreds of thousands of events, so equality here is identity:
//! a new simulation is a new handle, the same one is never deep-compared.
//! The handle also carries the timeline's index of the run, built once, and
//! early when a large run arrives (in a task of its own, before the page
//! re-renders with it).

use std::cell::OnceCell;
use std::ops::Deref;
use std::rc::Rc;

use lease_sim::Run;
use lease_view::RunIndex;
use yew::prelude::*;

#[derive(Clone)]
pub struct RunHandle(pub Rc<Run>, Rc<OnceCell<Rc<RunIndex>>>);

impl RunHandle {
    pub fn new(run: Run) -> Self {
        RunHandle(Rc::new(run), Rc::default())
    }

    /// The timeline's index of this run, built on first use.
    pub fn index(&self) -> Rc<RunIndex> {
        self.1
            .get_or_init(|| Rc::new(RunIndex::new(&self.0)))
            .clone()
    }

    /// Gives the run the index built for it beforehand, in steps.
    pub fn with_index(self, index: RunIndex) -> Self {
        let _ = self.1.set(Rc::new(index));
        self
    }
}

impl PartialEq for RunHandle {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

impl std::fmt::Debug for RunHandle {
    // A run is large: a command that carries one prints its size.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RunHandle")
            .field("messages", &self.messages.len())
            .field("end_ms", &self.end_ms)
            .finish()
    }
}

impl Deref for RunHandle {
    type Target = Run;
    fn deref(&self) -> &Run {
        &self.0
    }
}

/// `run`, one task late. The charts and the diagnosis show the previous run
/// until the timeline has been repainted with the new one: a slider move then
/// repaints the picture under the hand first, and the rest follows at once
/// after, in a task of its own.
#[hook]
pub fn use_deferred_run(run: &RunHandle) -> RunHandle {
    let shown = use_state(|| run.clone());
    {
        let shown = shown.clone();
        use_effect_with(run.clone(), move |run| {
            let mut pending = None;
            if *shown != *run {
                let run = run.clone();
                pending = Some(gloo::timers::callback::Timeout::new(0, move || {
                    shown.set(run)
                }));
            }
            // A newer run before the timer fired cancels it.
            move || drop(pending)
        });
    }
    (*shown).clone()
}
