//! The timeline's context menu (right-click, a long press, the Menu key):
//! what can be done at that moment, each as a fault or an override added to
//! the scenario (docs/MODEL.md "Faults"), or as a fork compared with the
//! scenario as it was. The page opens it with where it opened
//! (`lease_ui::panel::MenuAt`) and hears back `PanelCommand::Replace` or
//! `Fork`; what applies and why an item does not is `items`, tested natively.

use std::rc::Rc;

use lease_sim::scenario::{Fault, RunOutcome, Slowdown};
use lease_sim::Scenario;
use lease_ui::panel::{MenuAt, PanelCommand};
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// One entry of the menu: its words, and the scenario it makes with what
/// it did in words, or why it does not apply here.
#[derive(Debug, Clone, PartialEq)]
pub struct Item {
    pub label: String,
    pub act: Result<(Scenario, String), String>,
}

/// The pauses the menu offers.
pub const PAUSES_MS: [u64; 3] = [10_000, 30_000, 60_000];
/// The slowdown the menu injects.
pub const SLOWDOWN_FACTOR: f64 = 3.0;

/// `61_000` as `1:01`, `3_725_000` as `1:02:05`, with tenths when the
/// moment is not on a whole second (`1:01.5`).
pub fn clock(ms: u64) -> String {
    let s = ms / 1_000;
    let tenths = (ms % 1_000) / 100;
    let mut out = if s >= 3_600 {
        format!("{}:{:02}:{:02}", s / 3_600, s / 60 % 60, s % 60)
    } else {
        format!("{}:{:02}", s / 60, s % 60)
    };
    if tenths > 0 {
        out.push_str(&format!(".{tenths}"));
    }
    out
}

/// The crash that has `worker` down at `t`, by its index in the faults.
fn down_by(s: &Scenario, worker: u32, t: u64) -> Option<usize> {
    s.faults.iter().rposition(|f| match *f {
        Fault::Crash {
            worker: w,
            at_ms,
            restart_after_ms,
        } => w == worker && at_ms <= t && restart_after_ms.is_none_or(|r| at_ms + r > t),
        _ => false,
    })
}

/// The fault whose mark is under the pointer, and its words.
fn fault_here(s: &Scenario, at: &MenuAt) -> Option<(usize, String)> {
    let near = |t: u64| t.abs_diff(at.t_ms) <= at.near_ms.max(1);
    s.faults.iter().enumerate().rev().find_map(|(i, f)| {
        let words = match *f {
            Fault::Crash { worker, at_ms, .. } if Some(worker) == at.worker && near(at_ms) => {
                format!("the crash of worker {worker} at {}", clock(at_ms))
            }
            Fault::Pause { worker, at_ms, .. } if Some(worker) == at.worker && near(at_ms) => {
                format!("the pause of worker {worker} at {}", clock(at_ms))
            }
            Fault::Run {
                message,
                receipt,
                outcome: Some(outcome),
                ..
            } if Some(message) == at.message && Some(receipt) == at.receipt => {
                let what = match outcome {
                    RunOutcome::Hang => "hang",
                    RunOutcome::Fail => "failure",
                    RunOutcome::LoseAck => "lost ack",
                };
                format!("the {what} of message {message}'s run {receipt}")
            }
            _ => return None,
        };
        Some((i, words))
    })
}

/// The scenario with `f` added, after any override of the same run.
fn with_fault(s: &Scenario, f: Fault) -> Scenario {
    let mut next = s.clone();
    let mut f = f;
    if let Fault::Run {
        message,
        receipt,
        ref mut work_ms,
        ..
    } = f
    {
        // A fixed work time of the same run (a conformance case's) is kept.
        let kept = s.faults.iter().rev().find_map(|g| match *g {
            Fault::Run {
                message: m,
                receipt: r,
                work_ms: w,
                ..
            } if m == message && r == receipt => w,
            _ => None,
        });
        *work_ms = work_ms.or(kept);
        next.faults.retain(|g| {
            !matches!(*g, Fault::Run { message: m, receipt: r, .. } if m == message && r == receipt)
        });
    }
    next.faults.push(f);
    next
}

/// Every entry of the menu at `at`, in order; one that does not apply says why.
pub fn items(s: &Scenario, at: &MenuAt) -> Vec<Item> {
    let t = at.t_ms;
    let when = clock(t);
    let mut out = Vec::new();
    let no_lane =
        || "no worker's lane here: open the menu on a lane of the Workers view".to_string();
    let lane = at.worker.filter(|w| *w < s.workers.count);
    let w_name = lane.map_or_else(|| "the worker".to_string(), |w| format!("worker {w}"));
    let down = lane.and_then(|w| down_by(s, w, t));
    let crash = match (lane, down) {
        (None, _) => Err(no_lane()),
        (Some(w), Some(_)) => Err(format!("worker {w} is down here already")),
        (Some(w), None) => Ok((
            with_fault(
                s,
                Fault::Crash {
                    worker: w,
                    at_ms: t,
                    restart_after_ms: None,
                },
            ),
            format!("Crashed worker {w} at {when}."),
        )),
    };
    out.push(Item {
        label: format!("Crash {w_name} here"),
        act: crash,
    });
    for d in PAUSES_MS {
        let span = lease_format::display::duration(d);
        let act = match (lane, down) {
            (None, _) => Err(no_lane()),
            (Some(w), Some(_)) => Err(format!("worker {w} is down here")),
            (Some(w), None) => Ok((
                with_fault(
                    s,
                    Fault::Pause {
                        worker: w,
                        at_ms: t,
                        duration_ms: d,
                    },
                ),
                format!("Paused worker {w} at {when} for {span}."),
            )),
        };
        out.push(Item {
            label: format!("Pause {w_name} here for {span}"),
            act,
        });
    }
    let restart = match (lane, down) {
        (None, _) => Err(no_lane()),
        (Some(w), None) => Err(format!(
            "worker {w} is not down here: restart brings back a crashed worker"
        )),
        (Some(w), Some(i)) => {
            let mut next = s.clone();
            if let Some(Fault::Crash {
                at_ms,
                restart_after_ms,
                ..
            }) = next.faults.get_mut(i)
            {
                *restart_after_ms = Some(t.saturating_sub(*at_ms).max(1));
            }
            Ok((next, format!("Restarted worker {w} at {when}.")))
        }
    };
    out.push(Item {
        label: format!("Restart {w_name}"),
        act: restart,
    });
    let run = at.message.zip(at.receipt);
    let no_run = || "no run here: open the menu on a run".to_string();
    for (outcome, label, said) in [
        (RunOutcome::Hang, "Make this run hang", "hangs"),
        (RunOutcome::Fail, "Make this run fail", "fails"),
        (
            RunOutcome::LoseAck,
            "Drop this message's ack (lost on the way to the broker)",
            "loses its ack on the way to the broker",
        ),
    ] {
        let act = match run {
            None => Err(no_run()),
            Some((message, receipt)) => Ok((
                with_fault(
                    s,
                    Fault::Run {
                        message,
                        receipt,
                        outcome: Some(outcome),
                        work_ms: None,
                    },
                ),
                format!("Message {message}'s run {receipt} {said}."),
            )),
        };
        out.push(Item {
            label: label.to_string(),
            act,
        });
    }
    let slow = match (run, at.run_end_ms) {
        (Some(_), Some(end)) if end > t => {
            let mut next = s.clone();
            next.downstream.slowdowns.push(Slowdown {
                from_ms: t,
                to_ms: end,
                factor: SLOWDOWN_FACTOR,
            });
            Ok((
                next,
                format!(
                    "The downstream runs {SLOWDOWN_FACTOR}× slower from {when} to {}.",
                    clock(end)
                ),
            ))
        }
        (Some(_), _) => Err("this run has ended here".to_string()),
        (None, _) => Err(no_run()),
    };
    out.push(Item {
        label: format!("Inject a {SLOWDOWN_FACTOR}× slowdown from here to the run's end"),
        act: slow,
    });
    let remove = match fault_here(s, at) {
        Some((i, words)) => {
            let mut next = s.clone();
            next.faults.remove(i);
            Ok((next, format!("Removed {words}.")))
        }
        None => Err("no fault's mark here".to_string()),
    };
    out.push(Item {
        label: "Remove this fault".to_string(),
        act: remove,
    });
    // A slowdown has no mark of its own on the timeline: it is found by the
    // moment the menu opened at, the one that began last if several cover it.
    let covering = s
        .downstream
        .slowdowns
        .iter()
        .enumerate()
        .filter(|(_, d)| d.from_ms <= t && t < d.to_ms)
        .max_by_key(|(_, d)| d.from_ms)
        .map(|(i, _)| i);
    let unslow = match covering {
        Some(i) => {
            let mut next = s.clone();
            let d = next.downstream.slowdowns.remove(i);
            Ok((
                next,
                format!(
                    "Removed the {}× slowdown from {} to {}.",
                    d.factor,
                    clock(d.from_ms),
                    clock(d.to_ms)
                ),
            ))
        }
        None => Err("no slowdown at this moment".to_string()),
    };
    out.push(Item {
        label: "Remove the slowdown at this moment".to_string(),
        act: unslow,
    });
    out
}

#[derive(Properties, PartialEq)]
pub struct MenuProps {
    pub scenario: Rc<Scenario>,
    pub at: MenuAt,
    pub on_command: Callback<PanelCommand>,
}

/// Gives the timeline the focus back (the menu closed), once the page has
/// redrawn: closing the menu can put a new canvas under the timeline.
fn focus_timeline() {
    gloo::timers::callback::Timeout::new(30, focus_canvas).forget();
}

fn focus_canvas() {
    if let Some(el) = gloo::utils::document()
        .query_selector("#timeline canvas")
        .ok()
        .flatten()
        .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
    {
        let _ = el.focus();
    }
}

/// The menu's entries as elements, in order.
fn entries(menu: &NodeRef) -> Vec<web_sys::HtmlElement> {
    let Some(list) = menu
        .cast::<web_sys::Element>()
        .and_then(|m| m.query_selector_all("[role^=menuitem]").ok())
    else {
        return Vec::new();
    };
    (0..list.length())
        .filter_map(|i| list.item(i)?.dyn_into::<web_sys::HtmlElement>().ok())
        .collect()
}

#[function_component(TimelineMenu)]
pub fn timeline_menu(p: &MenuProps) -> Html {
    let fork = use_state(|| false);
    let menu = use_node_ref();
    {
        // Focus goes to the first entry that applies; the menu stays inside
        // the window.
        let menu = menu.clone();
        use_effect_with(p.at.clone(), move |at| {
            if let Some(el) = menu.cast::<web_sys::HtmlElement>() {
                let window = gloo::utils::window();
                let w = window
                    .inner_width()
                    .ok()
                    .and_then(|v| v.as_f64())
                    .unwrap_or(800.0);
                let h = window
                    .inner_height()
                    .ok()
                    .and_then(|v| v.as_f64())
                    .unwrap_or(600.0);
                let r = el.get_bounding_client_rect();
                let left = at.x.min(w - r.width() - 4.0).max(4.0);
                let top = at.y.min(h - r.height() - 4.0).max(4.0);
                let _ = el.set_attribute("style", &format!("left:{left}px;top:{top}px"));
            }
            let all = entries(&menu);
            let first = all
                .iter()
                .find(|e| e.get_attribute("aria-disabled").is_none())
                .or(all.first());
            if let Some(e) = first {
                let _ = e.focus();
            }
        });
    }
    let close = {
        let on = p.on_command.clone();
        Callback::from(move |()| {
            focus_timeline();
            on.emit(PanelCommand::Close);
        })
    };
    let on_key = {
        let (menu, close) = (menu.clone(), close.clone());
        Callback::from(move |e: KeyboardEvent| {
            let all = entries(&menu);
            let doc = gloo::utils::document();
            let now = doc
                .active_element()
                .and_then(|a| all.iter().position(|e| e.is_same_node(Some(&a))));
            let n = all.len();
            if n == 0 {
                return;
            }
            let go = match e.key().as_str() {
                "ArrowDown" => now.map_or(0, |i| (i + 1) % n),
                "ArrowUp" => now.map_or(n - 1, |i| (i + n - 1) % n),
                "Home" => 0,
                "End" => n - 1,
                "Escape" | "Tab" => {
                    // Only the menu closes: not the run's details as well.
                    e.prevent_default();
                    e.stop_propagation();
                    close.emit(());
                    return;
                }
                _ => return,
            };
            e.prevent_default();
            let _ = all[go].focus();
        })
    };
    let act = |act: &Result<(Scenario, String), String>| {
        let on = p.on_command.clone();
        let act = act.clone();
        let forking = *fork;
        Callback::from(move |_: MouseEvent| {
            let Ok((s, said)) = &act else {
                return;
            };
            let scenario = serde_json::to_string(s).unwrap_or_default();
            focus_timeline();
            on.emit(if forking {
                PanelCommand::Fork { scenario }
            } else {
                PanelCommand::Replace {
                    scenario,
                    said: said.clone(),
                }
            });
        })
    };
    let list = items(&p.scenario, &p.at);
    let toggle_fork = {
        let fork = fork.clone();
        Callback::from(move |_: MouseEvent| fork.set(!*fork))
    };
    // A press that began outside the menu closes it; the release of the
    // long press that opened it (its press began on the timeline) does not.
    let pressed_outside = use_mut_ref(|| false);
    let backdrop_press = {
        let pressed_outside = pressed_outside.clone();
        Callback::from(move |_: PointerEvent| *pressed_outside.borrow_mut() = true)
    };
    let backdrop_click = {
        let close = close.clone();
        Callback::from(move |e: MouseEvent| {
            e.prevent_default();
            if std::mem::take(&mut *pressed_outside.borrow_mut()) {
                close.emit(());
            }
        })
    };
    let backdrop_close = {
        let close = close.clone();
        Callback::from(move |e: MouseEvent| {
            e.prevent_default();
            close.emit(());
        })
    };
    let heading = format!("At {}", clock(p.at.t_ms));
    html! {
        <>
            <div class="tl-menu-backdrop" onpointerdown={backdrop_press} onclick={backdrop_click} oncontextmenu={backdrop_close}></div>
            <div class="tl-menu" id="timeline-menu" role="menu" aria-label={format!(
                "Act on the timeline {}",
                heading.to_lowercase(),
            )}
                ref={menu} onkeydown={on_key} style={format!("left:{}px;top:{}px", p.at.x, p.at.y)}>
                <div class="tl-menu-head" aria-hidden="true">{heading}{ if *fork { " · as a fork" } else { "" } }</div>
                { for list.iter().enumerate().map(|(i, item)| {
                    let why = item.act.is_err().then(|| format!("tl-menu-why-{i}"));
                    html! {
                        <button type="button" role="menuitem" tabindex="-1" class="tl-menu-item"
                            aria-disabled={item.act.is_err().then_some("true")}
                            aria-describedby={why.clone()}
                            onclick={act(&item.act)}>
                            <span>{ if *fork && item.act.is_ok() { format!(
                                "Fork: {}",
                                item.label,
                            ) } else { item.label.clone() } }</span>
                            if let (Some(id), Err(text)) = (why, &item.act) {
                                <span class="tl-menu-why" id={id}>{format!("Not here: {text}.")}</span>
                            }
                        </button>
                    }
                }) }
                <div role="separator" class="tl-menu-sep"></div>
                <button type="button" role="menuitemcheckbox" tabindex="-1" class="tl-menu-item" id="timeline-menu-fork"
                    aria-checked={(*fork).to_string()} onclick={toggle_fork}>
                    <span>{"Fork from here…"}</span>
                    <span class="tl-menu-why">{ if *fork { "On: each action opens a comparison, A as it was and B with the change." } else { "Each action as a comparison: A as it was, B with the change." } }</span>
                </button>
            </div>
        </>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clip() -> Scenario {
        lease_sim::shipped::find("clip-surge").unwrap().scenario
    }

    fn find<'a>(items: &'a [Item], starts: &str) -> &'a Item {
        items
            .iter()
            .find(|i| i.label.starts_with(starts))
            .unwrap_or_else(|| panic!("no item {starts}"))
    }

    fn on_run() -> MenuAt {
        MenuAt {
            t_ms: 61_000,
            worker: Some(2),
            message: Some(7),
            receipt: Some(1),
            run_end_ms: Some(70_000),
            near_ms: 500,
            ..MenuAt::default()
        }
    }

    #[test]
    fn crash_here_adds_a_crash_of_that_worker_at_that_moment() {
        let s = clip();
        let items = items(&s, &on_run());
        let (next, said) = find(&items, "Crash worker 2 here").act.clone().unwrap();
        assert_eq!(
            next.faults.last(),
            Some(&Fault::Crash {
                worker: 2,
                at_ms: 61_000,
                restart_after_ms: None
            })
        );
        assert_eq!(said, "Crashed worker 2 at 1:01.");
        assert!(lease_sim::validate(&next).is_ok());
    }

    #[test]
    fn restart_applies_only_to_a_crashed_worker_and_sets_its_restart() {
        let s = clip();
        let items_before = items(&s, &on_run());
        assert!(find(&items_before, "Restart worker 2")
            .act
            .as_ref()
            .unwrap_err()
            .contains("not down"));
        let (crashed, _) = find(&items_before, "Crash worker 2").act.clone().unwrap();
        let later = MenuAt {
            t_ms: 75_000,
            ..on_run()
        };
        let after = items(&crashed, &later);
        let (next, said) = find(&after, "Restart worker 2").act.clone().unwrap();
        assert_eq!(
            next.faults.last(),
            Some(&Fault::Crash {
                worker: 2,
                at_ms: 61_000,
                restart_after_ms: Some(14_000)
            })
        );
        assert_eq!(said, "Restarted worker 2 at 1:15.");
        assert!(find(&after, "Crash worker 2")
            .act
            .as_ref()
            .unwrap_err()
            .contains("down here already"));
    }

    #[test]
    fn run_items_override_the_run_under_the_pointer_once() {
        let s = clip();
        let (hang, _) = find(&items(&s, &on_run()), "Make this run hang")
            .act
            .clone()
            .unwrap();
        let (fail, said) = find(&items(&hang, &on_run()), "Make this run fail")
            .act
            .clone()
            .unwrap();
        assert_eq!(
            run_overrides(&fail),
            vec![&Fault::Run {
                message: 7,
                receipt: 1,
                outcome: Some(RunOutcome::Fail),
                work_ms: None,
            }]
        );
        assert_eq!(said, "Message 7's run 1 fails.");
    }

    fn run_overrides(s: &Scenario) -> Vec<&Fault> {
        s.faults
            .iter()
            .filter(|f| matches!(f, Fault::Run { .. }))
            .collect()
    }

    #[test]
    fn a_run_item_keeps_the_run_s_fixed_work_time() {
        let mut s = clip();
        s.faults.push(Fault::Run {
            message: 7,
            receipt: 1,
            outcome: None,
            work_ms: Some(2_500),
        });
        let (hang, _) = find(&items(&s, &on_run()), "Make this run hang")
            .act
            .clone()
            .unwrap();
        assert_eq!(
            run_overrides(&hang),
            vec![&Fault::Run {
                message: 7,
                receipt: 1,
                outcome: Some(RunOutcome::Hang),
                work_ms: Some(2_500),
            }]
        );
    }

    #[test]
    fn items_that_do_not_apply_say_why_and_none_is_left_out() {
        let nothing = MenuAt {
            t_ms: 5_000,
            ..MenuAt::default()
        };
        let s = clip();
        let all = items(&s, &nothing);
        assert_eq!(all.len(), items(&s, &on_run()).len());
        assert!(all.iter().all(|i| i.act.is_err()), "{all:?}");
        assert!(find(&all, "Make this run hang")
            .act
            .as_ref()
            .unwrap_err()
            .contains("no run here"));
        assert!(find(&all, "Crash the worker here")
            .act
            .as_ref()
            .unwrap_err()
            .contains("lane"));
    }

    #[test]
    fn a_slowdown_runs_from_here_to_the_run_s_end() {
        let s = clip();
        let (next, _) = find(&items(&s, &on_run()), "Inject a 3× slowdown")
            .act
            .clone()
            .unwrap();
        assert_eq!(
            next.downstream.slowdowns.last(),
            Some(&Slowdown {
                from_ms: 61_000,
                to_ms: 70_000,
                factor: 3.0
            })
        );
    }

    #[test]
    fn remove_takes_away_the_fault_whose_mark_is_under_the_pointer() {
        let s = clip();
        let (crashed, _) = find(&items(&s, &on_run()), "Crash worker 2")
            .act
            .clone()
            .unwrap();
        let near = MenuAt {
            t_ms: 61_300,
            message: None,
            receipt: None,
            ..on_run()
        };
        let (back, said) = find(&items(&crashed, &near), "Remove this fault")
            .act
            .clone()
            .unwrap();
        assert_eq!(back, s);
        assert_eq!(said, "Removed the crash of worker 2 at 1:01.");
        let far = MenuAt {
            t_ms: 90_000,
            ..near
        };
        assert!(find(&items(&crashed, &far), "Remove this fault")
            .act
            .is_err());
    }

    #[test]
    fn a_slowdown_is_removed_from_any_moment_it_covers() {
        let s = clip();
        let (slowed, _) = find(&items(&s, &on_run()), "Inject a 3× slowdown")
            .act
            .clone()
            .unwrap();
        let inside = MenuAt {
            t_ms: 65_000,
            message: None,
            receipt: None,
            ..on_run()
        };
        let (back, said) = find(&items(&slowed, &inside), "Remove the slowdown")
            .act
            .clone()
            .unwrap();
        assert_eq!(back, s);
        assert_eq!(said, "Removed the 3× slowdown from 1:01 to 1:10.");
        let before = MenuAt {
            t_ms: 60_000,
            ..inside
        };
        assert_eq!(
            find(&items(&slowed, &before), "Remove the slowdown").act,
            Err("no slowdown at this moment".to_string())
        );
    }

    #[test]
    fn the_clock_reads_as_minutes_and_seconds() {
        assert_eq!(clock(61_000), "1:01");
        assert_eq!(clock(61_500), "1:01.5");
        assert_eq!(clock(3_725_000), "1:02:05");
        assert_eq!(clock(0), "0:00");
    }
}
