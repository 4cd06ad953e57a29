//! The run bookkeeping: which runs are wanted, what came of each, and
//! which side a reply from the background worker belongs to. Run ids count
//! for the page's life, so a late reply to an older run is told apart.

use std::rc::Rc;

use lease_fields::CONTROLS;
use lease_sim::Scenario;
use yew::Reducible;

use super::{PendingRun, State, Which};
use crate::command::{Command, Ran};
use crate::run_handle::RunHandle;

impl State {
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
    pub(super) fn want_run(&mut self, which: Which) {
        // A fork in an interview ("what if the timeout were 45 s?") hides
        // the figures again: the new run's answer is predicted first.
        if let Some(shown) = &mut self.interview {
            *shown = 0;
        }
        let id = self.next_id;
        if let Some(side) = self.side(which) {
            side.wanted = Some(id);
            side.cancelled = false;
            self.next_id = id.wrapping_add(1);
        }
    }

    /// The outcome of run `id` for its side: shown, handed to the worker
    /// (a run already under way there is replaced), or refused with why
    /// (a newer setting replaces a run under way, even one that cannot run).
    pub(super) fn ran(&mut self, which: Which, id: u32, ran: Ran) {
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
    pub(super) fn show(&mut self, which: Which, run: RunHandle) {
        // In an interview the playhead stays where it was: a new run's
        // future stays hidden until the interviewer steps into it.
        let at_end = self.interview.is_none()
            && (self.follow_end || (self.a.run.is_some() && self.playhead_ms >= self.end_ms()));
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
    pub(super) fn fail(&mut self, which: Which, why: &str) {
        if let Some(side) = self.side(which) {
            side.pending = None;
        }
        self.error = Some(match which {
            Which::A => why.to_string(),
            Which::B => format!("side B: {why}"),
        });
    }

    /// The side a background run `id` belongs to, if it is still awaited.
    pub(super) fn awaiting(&self, id: u32) -> Option<Which> {
        if self.a.waits_for(id) {
            Some(Which::A)
        } else if self.b.as_ref().is_some_and(|b| b.waits_for(id)) {
            Some(Which::B)
        } else {
            None
        }
    }
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
    /// A hand's first slider move, made on a copy and thrown away: each
    /// slider's edit goes through the reducer, and the first slider's is run
    /// as a move is (tried on the page, its outcome reduced, the timeline's
    /// index built). The page does it while idle after load, so that the
    /// first real move finds this code compiled and the memory a second run
    /// needs already grown, rather than paying for both between the hand
    /// and the picture. Returns the state that move made, which the page
    /// drops.
    pub fn rehearse_a_move(&self) -> Option<Rc<State>> {
        let now = Rc::new(self.clone());
        let scenario = &self.a.scenario;
        let mut moved = None;
        for field in CONTROLS {
            let Some(c) = field.control().filter(|c| (c.applies)(scenario)) else {
                continue;
            };
            let value = (c.value)(scenario, (c.get)(scenario));
            let next = Rc::clone(&now).reduce(Command::Set(field, value));
            moved.get_or_insert(next);
        }
        let mut next = moved?;
        for (id, ran) in next.runs_wanted() {
            if let Ran::Done(run) = &ran {
                run.index();
            }
            next = next.reduce(Command::Ran(id, ran));
        }
        Some(next)
    }

    /// Stop a side's background run; its last finished run stays.
    pub(super) fn cancel(&mut self, which: Which) {
        if let Some(side) = self.side(which) {
            if side.pending.take().is_some() {
                side.cancelled = true;
            }
        }
    }
}
