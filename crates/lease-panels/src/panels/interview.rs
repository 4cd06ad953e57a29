//! The interviewer's bar (`mode=interview`): the candidate predicts, then
//! sees. The page hides the run's figures and, by its playhead, what comes
//! after it; this bar steps the run event by event, or on to the next
//! receive, expiry or ack, says what the event was, and reveals the figures
//! one at a time, each by its own button. Presenter mode's keys work here:
//! PageDown / → step on, PageUp / ← back, Escape leaves; R, X and A go on
//! to the next receive, expiry and ack, V reveals the next figure. A control changed meanwhile
//! is a fork ("what if the timeout were 45 s?"): the page keeps the playhead
//! and hides the figures again, so the answer is predicted before it shows.

use std::rc::Rc;

use lease_sim::run::{Event, EventKind as K};
use lease_sim::{EventLog, Run, Scenario};
use lease_ui::panel::{PanelCommand, DIAGNOSIS_FIGURE, FIGURES};
use lease_view::clock;
use yew::prelude::*;

use super::presenter::{clicker_keys, slide_key_target};

/// Where a step goes: the next event of any kind, or of one kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Next {
    Event,
    Receive,
    Expiry,
    /// An ack of any outcome: accepted, rejected, settling nothing or unsent.
    Ack,
}

impl Next {
    fn takes(self, kind: K) -> bool {
        match self {
            Next::Event => true,
            Next::Receive => kind == K::Receive,
            Next::Expiry => kind == K::Expire,
            Next::Ack => matches!(kind, K::AckOk | K::AckRejected | K::AckNoOp | K::AckUnsent),
        }
    }
}

/// What a key asks of the bar.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Key {
    Step(Next),
    Back,
    RevealNext,
    Leave,
}

/// The bar's key for `code` (`KeyboardEvent.code`), as presenter mode's
/// slides take PageDown / PageUp and the arrows.
pub fn key(code: &str) -> Option<Key> {
    Some(match code {
        "PageDown" | "ArrowRight" => Key::Step(Next::Event),
        "PageUp" | "ArrowLeft" => Key::Back,
        "KeyR" => Key::Step(Next::Receive),
        "KeyX" => Key::Step(Next::Expiry),
        "KeyA" => Key::Step(Next::Ack),
        "KeyV" => Key::RevealNext,
        "Escape" => Key::Leave,
        _ => return None,
    })
}

/// The time of the first event after `t` that `next` takes.
pub fn next_at(events: &EventLog, t: u64, next: Next) -> Option<u64> {
    let from = events.partition_point_t(|e| e <= t);
    (from..events.len())
        .filter_map(|i| events.get(i))
        .find(|e| next.takes(e.kind))
        .map(|e| e.t)
}

/// The time of the last event before `t`; the run's start if none.
pub fn previous_at(events: &EventLog, t: u64) -> u64 {
    let i = events.partition_point_t(|e| e < t);
    i.checked_sub(1).and_then(|i| events.t(i)).unwrap_or(0)
}

/// The events at the playhead: those at the last moment at or before it.
pub fn at_playhead(events: &EventLog, t: u64) -> Vec<Event> {
    let end = events.partition_point_t(|e| e <= t);
    let Some(last) = end.checked_sub(1).and_then(|i| events.t(i)) else {
        return Vec::new();
    };
    let start = events.partition_point_t(|e| e < last);
    (start..end).filter_map(|i| events.get(i)).collect()
}

/// One event in words: "worker 1 received message 0 (delivery 2)".
pub fn describe(e: &Event) -> String {
    let (m, w, r) = (e.message, e.worker, e.receipt);
    match e.kind {
        K::Arrive => format!("message {m} arrived in the queue"),
        K::Receive => format!("worker {w} received message {m} (delivery {r}, a new lease)"),
        K::Start => format!("worker {w} started message {m} (delivery {r})"),
        K::ExtendOk => format!("worker {w} extended the lease of delivery {r} of message {m}"),
        K::ExtendRejected => format!("the broker refused worker {w}'s extension of delivery {r} of message {m}"),
        K::Expire => format!("the lease of delivery {r} of message {m} expired: the message is back in the queue"),
        K::Finish => format!("worker {w} finished delivery {r} of message {m}"),
        K::Error => format!("worker {w}'s handler failed on delivery {r} of message {m}"),
        K::Hang => format!("worker {w}'s handler hung on delivery {r} of message {m}"),
        K::Abort => format!("worker {w} stopped delivery {r} of message {m} when its ack was refused"),
        K::Skip => format!("worker {w} found message {m} already done and skipped the work"),
        K::CommitApplied => format!("worker {w} committed the effect of message {m}"),
        K::CommitDuplicate | K::CommitLostUpdate => {
            format!("worker {w} committed message {m}'s effect again: a duplicate effect")
        }
        K::CommitFenceRejected => format!("the fence refused worker {w}'s stale commit of message {m}"),
        K::AckOk => format!("the broker accepted worker {w}'s ack of delivery {r}: message {m} is deleted"),
        K::AckRejected => format!("the broker rejected worker {w}'s ack of delivery {r} of message {m}: its receipt is stale"),
        K::AckNoOp => format!("worker {w}'s ack of message {m} came after it was deleted and settled nothing"),
        K::AckUnsent => format!("worker {w} could not send its ack of delivery {r} of message {m}: the channel had closed"),
        K::Release => format!("worker {w} released message {m} back to the queue"),
        K::ReleaseRejected => format!("the broker refused worker {w}'s release of message {m}"),
        K::DeadLetterExpired => format!("message {m} went to the dead-letter queue when its lease expired"),
        K::DeadLetterFailed => format!("message {m} went to the dead-letter queue after its handler failed"),
        K::Crash => format!("worker {w} crashed"),
        K::Restart => format!("worker {w} restarted"),
        K::Pause => format!("worker {w} paused"),
        K::Resume => format!("worker {w} resumed"),
        K::Dropped => format!("message {m} was dropped past the delivery limit"),
        K::MaxDeliveries => format!("message {m} stays in the stream past the delivery limit"),
    }
}

/// The figures the mode hides, in their bits' order (`FIGURES`): the
/// page's totals as it shows them, by the id of each value (`total-…`),
/// then the diagnosis. What happens past the delivery limit is counted
/// under the name the scenario's broker gives it.
pub fn figures(s: &Scenario) -> [(&'static str, &'static str); FIGURES as usize] {
    use lease_sim::scenario::PastLimit;
    let past = match lease_sim::resolve::resolve(s).past_limit {
        PastLimit::DeadLetter => ("total-dead-lettered", "Dead-lettered"),
        PastLimit::Drop => ("total-dropped", "Dropped past the limit"),
        PastLimit::Stay => ("total-stayed", "Stays in the stream"),
    };
    [
        ("total-arrived", "Arrived"),
        ("total-waiting", "Waiting"),
        ("total-delivered", "Delivered"),
        ("total-acked", "Acked"),
        ("total-redeliveries", "Redeliveries"),
        ("total-overlapping", "Overlapping runs"),
        ("total-duplicates", "Duplicate effects"),
        past,
        ("total-ack-ratio", "Ack p99"),
        ("diagnosis", "The diagnosis"),
    ]
}

/// The first figure not yet revealed (`FIGURES`).
pub fn next_hidden(shown: u64) -> Option<u32> {
    (0..FIGURES).find(|i| shown & 1 << i == 0)
}

#[derive(Properties, PartialEq)]
pub struct InterviewProps {
    /// The scenario of the run on screen: the bar runs it again, as the page
    /// does, to read its events (a run too large for the page is not
    /// stepped by kind).
    pub run_scenario: Rc<Scenario>,
    /// The figures revealed, one bit each, and the playhead.
    pub shown: u64,
    pub playhead: u64,
    pub on_command: Callback<PanelCommand>,
}

fn run_of(s: &Scenario) -> Option<Rc<Run>> {
    matches!(
        lease_jobs::budget::route(s),
        Ok(lease_jobs::budget::Route::Page)
    )
    .then(|| lease_jobs::run_job::simulate_for_page(s, &mut |_| {}).ok())
    .flatten()
    .map(Rc::new)
}

/// What the interviewer asked for, as the page's commands.
fn act(cb: &Callback<PanelCommand>, run: Option<&Run>, playhead: u64, shown: u64, k: Key) {
    match (k, run) {
        (Key::Step(next), Some(run)) => {
            if let Some(t) = next_at(&run.events, playhead, next) {
                cb.emit(PanelCommand::Seek(t));
            }
        }
        (Key::Back, Some(run)) => cb.emit(PanelCommand::Seek(previous_at(&run.events, playhead))),
        (Key::RevealNext, _) => {
            if let Some(i) = next_hidden(shown) {
                cb.emit(PanelCommand::Reveal(i));
            }
        }
        (Key::Leave, _) => cb.emit(PanelCommand::Interview(false)),
        _ => {}
    }
}

#[function_component(InterviewBar)]
pub fn interview_bar(p: &InterviewProps) -> Html {
    let cb = p.on_command.clone();
    let run = use_memo(p.run_scenario.clone(), |s| run_of(s));
    // The keys read the newest playhead and mask, whatever render made the
    // listener.
    let now = use_mut_ref(|| (p.playhead, p.shown));
    *now.borrow_mut() = (p.playhead, p.shown);
    {
        let (cb, now) = (cb.clone(), now.clone());
        use_effect_with(run.clone(), move |run| {
            let run = (**run).clone();
            // Capture: before the page's own keys (R opens Recommend there),
            // and a clicker's PageDown wherever the focus is, as presenter
            // mode takes it.
            let listener = clicker_keys(move |e| {
                if e.shift_key() {
                    return;
                }
                let code = e.code();
                let Some(k) = key(&code) else {
                    return;
                };
                let clicker = matches!(code.as_str(), "PageDown" | "PageUp" | "Escape");
                if !clicker && !slide_key_target(e.target()) {
                    return;
                }
                e.prevent_default();
                e.stop_propagation();
                let (playhead, shown) = *now.borrow();
                act(&cb, run.as_deref(), playhead, shown, k);
            });
            move || drop(listener)
        });
    }
    let button = |label: &'static str, id: &'static str, k: Key, title: &'static str| {
        let (cb, run, playhead, shown) = (cb.clone(), (*run).clone(), p.playhead, p.shown);
        html! {
            <button type="button" {id} {title} disabled={run.is_none() && matches!(k, Key::Step(_) | Key::Back)}
                onclick={Callback::from(move |_: MouseEvent| act(&cb, run.as_deref(), playhead, shown, k))}>{label}</button>
        }
    };
    let happened = match run.as_deref() {
        Some(r) => {
            let events = at_playhead(&r.events, p.playhead);
            match events.first() {
                None => "Before the first event: nothing has happened yet.".to_string(),
                Some(first) => format!(
                    "At {}: {}.",
                    clock(first.t),
                    events.iter().map(describe).collect::<Vec<_>>().join("; ")
                ),
            }
        }
        None => "This run is too large to step by kind here: , and . step it event by event."
            .to_string(),
    };
    let reveal = figures(&p.run_scenario)
        .into_iter()
        .zip(0..FIGURES)
        .filter(|(_, i)| p.shown & 1 << i == 0)
        .map(|((id, label), i)| {
            let cb = cb.clone();
            html! {
                <button type="button" id={format!("reveal-{id}")} class="interview-reveal"
                    onclick={Callback::from(move |_: MouseEvent| cb.emit(PanelCommand::Reveal(i)))}>{label}</button>
            }
        })
        .collect::<Html>();
    let said = if p.shown & ((1 << FIGURES) - 1) == (1 << FIGURES) - 1 {
        "Every figure is revealed."
    } else if p.shown & 1 << DIAGNOSIS_FIGURE == 0 {
        "Hidden until revealed (a total shows ?), the diagnosis among them:"
    } else {
        "Hidden until revealed (a total shows ?):"
    };
    html! {
        <section class="panel presenter-bar interview-bar" id="interview-bar" aria-labelledby="interview-title">
            <div class="panel-head">
                <h2 id="interview-title">{"Interviewer's mode"}</h2>
                {button("Leave (Esc)", "interview-leave", Key::Leave, "Show everything again")}
            </div>
            <p class="presenter-words" id="interview-event" aria-live="polite">{happened}</p>
            <div class="panel-row presenter-row">
                {button("← Back", "interview-back", Key::Back, "The event before (PageUp, ←)")}
                {button("Next event →", "interview-next", Key::Step(Next::Event), "The next event (PageDown, →)")}
                {button("Next receive (R)", "interview-receive", Key::Step(Next::Receive), "On to the next receive: a new lease")}
                {button("Next expiry (X)", "interview-expiry", Key::Step(Next::Expiry), "On to the next lease that runs out")}
                {button("Next ack (A)", "interview-ack", Key::Step(Next::Ack), "On to the next ack, whatever its outcome")}
            </div>
            <div class="panel-row presenter-row" id="interview-figures">
                <span class="muted" id="interview-hidden">{said}</span>
                {reveal}
                {button("Reveal the next (V)", "interview-reveal-next", Key::RevealNext, "Reveal the first hidden total, then the diagnosis")}
            </div>
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ninety_second_run() -> Run {
        let s = lease_sim::shipped::find("ninety-second-message")
            .expect("shipped")
            .scenario;
        lease_sim::simulate(&s, &lease_sim::Options::default()).expect("runs")
    }

    #[test]
    fn the_next_expiry_of_the_ninety_second_message_is_its_first_lease_running_out() {
        let run = ninety_second_run();
        let t = next_at(&run.events, 0, Next::Expiry).expect("an expiry");
        let expiry = run
            .events
            .iter()
            .find(|e| e.kind == K::Expire)
            .expect("expires");
        assert_eq!(t, expiry.t);
        let at = at_playhead(&run.events, t);
        assert!(at.iter().any(|e| e.kind == K::Expire), "{at:?}");
        assert!(
            at.iter().map(describe).any(|d| d.contains("expired")),
            "the bar says what the event was"
        );
    }

    #[test]
    fn stepping_to_the_next_receive_skips_events_of_other_kinds() {
        let run = ninety_second_run();
        let first = next_at(&run.events, 0, Next::Receive).expect("a receive");
        let second = next_at(&run.events, first, Next::Receive).expect("a redelivery");
        assert!(second > first);
        let between: Vec<_> = run
            .events
            .iter()
            .filter(|e| e.t > first && e.t < second)
            .collect();
        assert!(
            between.iter().all(|e| e.kind != K::Receive),
            "no receive is passed over: {between:?}"
        );
        assert!(!between.is_empty(), "other events lie between");
    }

    #[test]
    fn stepping_back_goes_to_the_event_before_and_then_to_the_start() {
        let run = ninety_second_run();
        let t = next_at(&run.events, 0, Next::Expiry).expect("an expiry");
        let back = previous_at(&run.events, t);
        assert!(back < t);
        assert_eq!(next_at(&run.events, back, Next::Event), Some(t));
        assert_eq!(previous_at(&run.events, 0), 0);
    }

    #[test]
    fn an_ack_of_any_outcome_is_an_ack_to_step_to() {
        for k in [K::AckOk, K::AckRejected, K::AckNoOp, K::AckUnsent] {
            assert!(Next::Ack.takes(k), "{k:?}");
        }
        assert!(!Next::Ack.takes(K::Receive));
    }

    #[test]
    fn presenter_modes_keys_step_and_leave_the_interview() {
        assert_eq!(key("PageDown"), Some(Key::Step(Next::Event)));
        assert_eq!(key("ArrowRight"), Some(Key::Step(Next::Event)));
        assert_eq!(key("PageUp"), Some(Key::Back));
        assert_eq!(key("ArrowLeft"), Some(Key::Back));
        assert_eq!(key("Escape"), Some(Key::Leave));
        assert_eq!(key("KeyX"), Some(Key::Step(Next::Expiry)));
        assert_eq!(key("KeyQ"), None);
    }

    #[test]
    fn the_figures_are_one_per_bit_with_the_diagnosis_at_its_own() {
        let s = lease_sim::shipped::find("ninety-second-message")
            .expect("shipped")
            .scenario;
        let f = figures(&s);
        assert_eq!(f[DIAGNOSIS_FIGURE as usize].0, "diagnosis");
        assert_eq!(f[7].0, "total-dead-lettered", "no redrive: dead letters");
        let mut ids: Vec<_> = f.iter().map(|(id, _)| *id).collect();
        ids.dedup();
        assert_eq!(ids.len(), FIGURES as usize);
    }

    #[test]
    fn the_next_figure_revealed_is_the_first_still_hidden() {
        assert_eq!(next_hidden(0), Some(0));
        assert_eq!(next_hidden(0b0111), Some(3));
        assert_eq!(next_hidden((1 << FIGURES) - 1), None);
    }
}
