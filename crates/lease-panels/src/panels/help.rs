//! The `?` overlay: every keyboard shortcut, by the physical key that
//! triggers it (a French AZERTY keyboard presses the same places), and how
//! the broker presets differ, which the button under the page's Broker
//! select opens the overlay at (`Panel::Presets`).

use lease_ui::panel::PanelCommand;
use yew::prelude::*;

use lease_sim::scenario::Preset;

use super::preset_questions::{answers, QUESTIONS};
use crate::shortcut_list::SHORTCUTS;

/// How the presets differ from Textbook rules where it matters most: a
/// late ack with an old receipt (docs/MODEL.md, "Broker presets"): each
/// preset's short name and its rules, in `Preset::ALL`'s order.
pub const PRESET_RULES: [(&str, &str); 15] = [
    (
        "Textbook rules",
        ": an ack with an old receipt is rejected; 30 s; no redrive unless set.",
    ),
    (
        "SQS standard",
        ": a delete with an old receipt handle succeeds, but the message may not be deleted (not once handed out again); the DLQ move waits for the next receive.",
    ),
    ("SQS FIFO", ": an old receipt handle is rejected."),
    (
        "Service Bus",
        ": an old lock token is rejected (lock lost); 60 s; 10 deliveries, counted when a lock expires or is abandoned; the lock duration is at most 5 min.",
    ),
    (
        "Pub/Sub",
        ": a late ack may succeed and the message still come again; 10 s; 5 attempts; the client extends the lease for up to 1 h; the ack deadline takes 10 s to 600 s.",
    ),
    (
        "RabbitMQ to 4.2",
        ": a consumer timeout (30 min, checked on the channel's tick every 60 s) closes the channel and requeues everything unacked on it, prefetched messages too; 20 deliveries on a quorum queue, every return counted, then the message is dropped unless a dead-letter exchange is set.",
    ),
    (
        "RabbitMQ 4.3+",
        ": a consumer timeout (30 min) returns only the timed-out message; a late ack is rejected; 20 deliveries on a quorum queue, a timeout not counted, so a message that keeps timing out is never dropped; past the limit by failures, it is dropped unless a dead-letter exchange is set.",
    ),
    (
        "NATS JetStream",
        ": a late ack is accepted whenever and settles the message, even while another worker runs it; AckWait 30 s, MaxDeliver unlimited; past a MaxDeliver you set, the message stays in the stream, delivered no more, and an advisory is published.",
    ),
    (
        "Redis Streams",
        ": no timer: an entry stays pending until a claimer takes it (XAUTOCLAIM, min-idle-time, on its own schedule); XACK names no consumer, so a late XACK removes what another worker claimed.",
    ),
    (
        "BullMQ",
        ": a 30 s lock renewed every 15 s on the worker's event loop, so a CPU-bound processor renews nothing; the stalled checker (every 30 s, in two passes) moves the job back; the second stall fails it outright, skipping its retries and its backoff; 1 attempt by default, so a thrown error fails it at once; with more attempts, a thrown error waits out the job's backoff (fixed or exponential) before its retry, a stall never does; the first run is not stopped.",
    ),
    (
        "Celery on Redis",
        ": a 1 h visibility timeout, restored on the transport's sweep (about every 100 s); acked as the task starts unless acks_late; 4 prefetched per handler, and a task waiting for its ETA is restored and run again by another worker; any copy's ack settles it.",
    ),
    (
        "Celery on SQS",
        ": SQS's visibility timeout at kombu's 30 min; acked as the task starts unless acks_late; 4 prefetched per handler.",
    ),
    (
        "Temporal activity",
        ": StartToClose (no default: set it) caps each attempt, and a timed-out attempt keeps running, its effects landing; a HeartbeatTimeout is reset by heartbeats, sent at most every 0.8 of it; a retry waits 1 s, doubling up to 100 s, with no limit on retries.",
    ),
    (
        "Cloud Tasks",
        ": a dispatch deadline (10 min, 15 s to 30 min) that nothing extends; a retry waits 0.1 s, doubling 16 times up to 1 h; 100 attempts, then the task is deleted.",
    ),
    (
        "Sidekiq Pro",
        ": no lease: a slow job is never run twice; a crashed process's jobs come back only when a later process starts, once its heartbeat has expired (60 s) and the hourly orphan check is due.",
    ),
];

/// The questions a design review asks, one row a preset, in
/// `Preset::ALL`'s order; its own scroll box, so that at a phone's width
/// the table scrolls sideways under its sticky first column.
fn questions_table() -> Html {
    html! {
        <div class="preset-table-wrap" role="region" aria-labelledby="presets-differ" tabindex="0">
            <table class="preset-table" id="preset-table">
                <thead>
                    <tr>
                        <th scope="col">{"Preset"}</th>
                        { for QUESTIONS.iter().map(|q| html! { <th scope="col">{*q}</th> }) }
                    </tr>
                </thead>
                <tbody>
                    { for Preset::ALL.into_iter().zip(PRESET_RULES).map(|(p, (name, _))| html! {
                        <tr>
                            <th scope="row">{name}</th>
                            { for answers(p).into_iter().map(|a| html! { <td>{a}</td> }) }
                        </tr>
                    }) }
                </tbody>
            </table>
        </div>
    }
}

#[derive(Properties, PartialEq)]
pub struct HelpProps {
    pub on_command: Callback<PanelCommand>,
    /// Opened at "How the broker presets differ" rather than at the top.
    pub presets: bool,
}

#[function_component(HelpOverlay)]
pub fn help_overlay(p: &HelpProps) -> Html {
    let close = p.on_command.reform(|_: MouseEvent| PanelCommand::Close);
    let card = use_node_ref();
    let section = use_node_ref();
    {
        // Focus moves into the dialog so that Escape and Tab work at once;
        // opened at the presets, onto their heading, which scrolls it into
        // view below the shortcuts.
        let (card, section) = (card.clone(), section.clone());
        use_effect_with(p.presets, move |presets| {
            let node = if *presets { section } else { card };
            if let Some(el) = node.cast::<web_sys::HtmlElement>() {
                let _ = el.focus();
            }
        });
    }
    let title = if p.presets {
        "presets-differ"
    } else {
        "help-title"
    };
    html! {
        <div class="overlay" role="dialog" aria-modal="true" aria-labelledby={title} id="help-overlay">
            <div class="overlay-card wide" tabindex="-1" ref={card}>
                <h2 id="help-title">{"Keyboard shortcuts"}</h2>
                <p class="muted">{"Keys are named as on a US keyboard; on another layout press the key in the same place. Page keys work when the focus is not in a text field or slider; timeline keys work when the timeline has the focus (click it or Tab to it)."}</p>
                <table class="shortcuts">
                    <thead><tr><th>{"Key"}</th><th>{"Where"}</th><th>{"What it does"}</th></tr></thead>
                    <tbody>
                        { for SHORTCUTS.iter().map(|s| html! {
                            <tr><td><kbd>{s.keys}</kbd></td><td>{s.scope}</td><td>{s.what}</td></tr>
                        }) }
                    </tbody>
                </table>
                <h2 id="presets-differ" tabindex="-1" ref={section}>{"How the broker presets differ"}</h2>
                {questions_table()}
                <h3 class="preset-rules-head">{"Each in a sentence"}</h3>
                <ul class="preset-rules" id="preset-rules">
                    { for PRESET_RULES.iter().map(|(name, rule)| html! {
                        <li><strong>{*name}</strong>{*rule}</li>
                    }) }
                </ul>
                <button type="button" onclick={close}>{"Close"}</button>
            </div>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lease_sim::scenario::{Named, Scenario};

    /// The lines follow `Preset::ALL`, and a timeout or a count of
    /// deliveries a line states is the one the engine gives the preset.
    #[test]
    fn each_line_states_its_preset_s_own_defaults() {
        assert_eq!(PRESET_RULES.len(), Preset::ALL.len());
        let mut stated = 0;
        for (preset, (name, rule)) in Preset::ALL.into_iter().zip(PRESET_RULES) {
            let mut s = Scenario::default();
            s.broker.preset = preset;
            let c = lease_sim::resolve::resolve(&s);
            if rule.contains(" s;") {
                let secs = c.visibility_timeout_ms / 1000;
                assert!(rule.contains(&format!("; {secs} s;")), "{name}: {rule}");
                stated += 1;
            }
            match c.max_receive_count {
                Some(n) => assert!(rule.contains(&format!("; {n} ")), "{name}: {rule}"),
                None => assert!(!rule.contains("deliveries") && !rule.contains("attempts")),
            }
        }
        assert_eq!(
            stated, 3,
            "Textbook rules, Service Bus and Pub/Sub state a timeout"
        );
        assert_eq!(PRESET_RULES[0].0, "Textbook rules");
        assert_eq!(PRESET_RULES[4].0, "Pub/Sub");
    }

    /// Where a preset's fate past the limit is no dead letter, its line
    /// says which; BullMQ's line says which ended leases wait out the
    /// backoff; a documented range of the lease setting is stated.
    #[test]
    fn each_line_says_the_fate_past_the_limit_the_backoff_and_the_range() {
        use lease_sim::scenario::PastLimit;
        for (preset, (name, rule)) in Preset::ALL.into_iter().zip(PRESET_RULES) {
            let mut s = Scenario::default();
            s.broker.preset = preset;
            match lease_sim::resolve::resolve(&s).past_limit {
                PastLimit::Drop => assert!(
                    rule.contains("dropped") || rule.contains("deleted"),
                    "{name}: {rule}"
                ),
                PastLimit::Stay => assert!(rule.contains("stays in the stream"), "{name}: {rule}"),
                PastLimit::DeadLetter => {}
            }
        }
        let rule = |p: Preset| PRESET_RULES[p.index()].1;
        assert!(rule(Preset::Bullmq).contains("backoff"));
        assert!(rule(Preset::Bullmq).contains("a stall never does"));
        assert!(rule(Preset::GooglePubsub).contains("10 s to 600 s"));
        assert!(rule(Preset::AzureServiceBus).contains("at most 5 min"));
        assert!(rule(Preset::CloudTasks).contains("15 s to 30 min"));
    }
}
