//! The reducer: each command applied to the state, and nothing run here.

use std::rc::Rc;

use lease_fields::edit;

use super::{State, Which};
use crate::command::Command;
use crate::panel::Panel;

impl State {
    /// Apply one command; `false` when nothing changed. A changed scenario
    /// is marked to run (`want_run`), not run here.
    pub(super) fn apply(&mut self, cmd: Command) -> bool {
        let s = self;
        match cmd {
            // `catalog::dispatch` turns a name the page holds into `Loaded`.
            Command::Load(name) => s.refused = Some(no_such_scenario(&name)),
            Command::Loaded(found) => {
                s.load(*found);
                s.tour = None;
            }
            Command::ChoosePreset(p) => {
                let loaded = s.loaded.clone();
                s.edit(|sc| {
                    edit::choose_preset_keeping(sc, p, &loaded);
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
            // An interview starts before the run's first event, with
            // every figure hidden: the candidate predicts, then sees.
            Command::Interview(on) => {
                s.interview = on.then_some(0);
                if on {
                    s.playing = false;
                    s.playhead_ms = 0;
                }
            }
            Command::Reveal(i) => match &mut s.interview {
                Some(shown) if i < lease_ui::panel::FIGURES => *shown |= 1 << i,
                _ => return false,
            },
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
                let steps = lease_diagnose::tour(&id).map_or(0, |t| t.steps.len());
                s.tour_earned = vec![false; steps];
                s.tour_shown = vec![None; steps];
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
            // A presenter going back: the step as it was shown, not the
            // later steps' changes on top of it.
            Command::TourReturn(i) => {
                let Some((_, step)) = &mut s.tour else {
                    return false;
                };
                *step = i.min(s.tour_shown.len().saturating_sub(1));
                if let Some(was) = s.tour_shown.get(*step).cloned().flatten() {
                    if was != s.a.scenario {
                        s.a.scenario = was;
                        s.want_run(Which::A);
                    }
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

fn play(s: &mut State) {
    if s.playhead_ms >= s.end_ms() {
        s.playhead_ms = 0;
    }
    s.playing = s.end_ms() > 0;
}
