//! The shipped scenarios as the page holds them. The default one is in the
//! page's wasm; the others are fetched from
//! `scenarios/NAME.json` the first time the menu, a link, a tour or an
//! imported file's `variant_of` asks for one, and kept for the visit. A
//! command that needs a scenario the page does not hold yet waits for it
//! (`dispatch`); the reducer itself stays synchronous.
//!
//! The menu's names and titles are listed here, so that it draws without
//! fetching anything; a test checks the list against the files. Natively
//! (the tests) every shipped scenario is at hand through `lease_sim::shipped`.

use lease_sim::Scenario;

use crate::command::Command;

/// The scenario a new visitor sees: one message, one picture, the whole lesson.
pub const DEFAULT_SCENARIO: &str = "ninety-second-message";

/// A shipped scenario as the menu lists it.
pub struct Entry {
    pub name: &'static str,
    /// What the menu says: short enough to read whole in the closed menu
    /// of a phone or of the controls' column (the browser tests measure it);
    /// the scenario card under the header shows the full title.
    pub menu: &'static str,
    pub title: &'static str,
    /// The main scenario this one fixes or compares with.
    pub variant_of: Option<&'static str>,
}

/// In `lease_sim::shipped`'s order: the main scenarios, then the variants.
#[rustfmt::skip]
pub const ENTRIES: &[Entry] = &[
    Entry { name: "ninety-second-message", menu: "90 s message, 60 s timeout", title: "A 90-second message against a 60-second timeout", variant_of: None },
    Entry { name: "clip-surge", menu: "Clip-moderation surge", title: "The clip-moderation surge: 8 s of work takes nearly a minute against a 30 s lease", variant_of: None },
    Entry { name: "five-minute-timeout-deploy", menu: "5-minute timeout, deploys", title: "The tempting fix: a five-minute timeout, then a rolling deploy", variant_of: None },
    Entry { name: "hung-handler", menu: "Hung handler, uncapped", title: "A hung handler with uncapped lease extension", variant_of: None },
    Entry { name: "invisible-backlog", menu: "Invisible backlog", title: "The invisible backlog: a stalled pool with a large prefetch", variant_of: None },
    Entry { name: "dependency-slows-3x", menu: "Dependency slows 3x", title: "A downstream dependency slows down by 3x", variant_of: None },
    Entry { name: "dlq-of-valid-messages", menu: "DLQ of valid messages", title: "A dead-letter queue full of valid messages", variant_of: None },
    Entry { name: "order-confirmation-email", menu: "Email: crash after send", title: "The order-confirmation email: a crash after sending", variant_of: None },
    Entry { name: "gc-pause-starves-heartbeat", menu: "GC pause starves heartbeat", title: "A stop-the-world pause starves the heartbeat", variant_of: None },
    Entry { name: "sub-second-work", menu: "Sub-second work", title: "Reliably sub-second work: a static timeout is enough", variant_of: None },
    Entry { name: "celery-task-runs-four-times", menu: "Celery task runs 4 times", title: "A Celery task runs four times at once", variant_of: None },
    Entry { name: "bullmq-stalled-more-than-allowable-limit", menu: "BullMQ: stalled too often", title: "Stalled more than allowable limit", variant_of: None },
    Entry { name: "two-attempts-of-the-same-activity", menu: "Temporal: two attempts at once", title: "Two attempts of the same activity", variant_of: None },
    Entry { name: "one-slow-consumer-requeues-its-whole-channel", menu: "RabbitMQ: channel requeued", title: "One slow consumer requeues its whole channel", variant_of: None },
    Entry { name: "forty-redeliveries-of-a-message-that-never-left-the-buffer", menu: "NATS: forty redeliveries", title: "Forty redeliveries of a message that never left the buffer", variant_of: None },
    Entry { name: "the-late-ack-that-settled-someone-else-s-run", menu: "NATS: a late ack settles", title: "The late ack that settled someone else's run", variant_of: None },
    Entry { name: "clip-surge-heartbeat", menu: "Clip surge fix 1: heartbeat", title: "Clip surge, fix 1: renew the lease while working (with a cap)", variant_of: Some("clip-surge") },
    Entry { name: "clip-surge-smaller-steps", menu: "Clip surge fix 2: smaller steps", title: "Clip surge, fix 2: make the unit of work smaller than the lease", variant_of: Some("clip-surge") },
    Entry { name: "clip-surge-redrive", menu: "Clip surge fix 3: DLQ", title: "Clip surge, fix 3: bound redeliveries with a dead-letter queue", variant_of: Some("clip-surge") },
    Entry { name: "clip-surge-idempotent", menu: "Clip surge fix 4: idempotent", title: "Clip surge, fix 4: an idempotent handler keyed on clip id", variant_of: Some("clip-surge") },
    Entry { name: "five-minute-timeout-deploy-heartbeat", menu: "Deploys fix: heartbeat", title: "The same deploys with a 30 s timeout and heartbeat renewal", variant_of: Some("five-minute-timeout-deploy") },
    Entry { name: "hung-handler-capped", menu: "Hung handler fix: cap", title: "The hung handler with a hard cap on extensions", variant_of: Some("hung-handler") },
    Entry { name: "dependency-slows-3x-more-workers", menu: "Slowdown: twice the workers", title: "The 3x slowdown with twice the workers", variant_of: Some("dependency-slows-3x") },
    Entry { name: "order-confirmation-email-idempotent", menu: "Email fix: idempotent", title: "The email with an idempotent receiver", variant_of: Some("order-confirmation-email") },
    Entry { name: "gc-pause-starves-heartbeat-fencing-token", menu: "GC pause fix: fencing token", title: "The GC pause against a fencing-token store", variant_of: Some("gc-pause-starves-heartbeat") },
    Entry { name: "sub-second-work-heartbeat", menu: "Sub-second: heartbeat added", title: "Sub-second work with heartbeat renewal added", variant_of: Some("sub-second-work") },
    Entry { name: "celery-task-runs-four-times-visibility-timeout", menu: "Celery: timeout past the ETA", title: "The fix: a visibility timeout beyond the longest countdown", variant_of: Some("celery-task-runs-four-times") },
    Entry { name: "bullmq-stalled-sandboxed-processor", menu: "BullMQ: sandboxed processor", title: "The fix: a sandboxed processor, so the lock renewal keeps running", variant_of: Some("bullmq-stalled-more-than-allowable-limit") },
    Entry { name: "two-attempts-of-the-same-activity-heartbeat", menu: "Temporal fix: heartbeat timeout", title: "Two attempts, fixed: a StartToClose longer than the work, and a heartbeat timeout", variant_of: Some("two-attempts-of-the-same-activity") },
    Entry { name: "one-slow-consumer-requeues-its-whole-channel-consumer-timeout", menu: "RabbitMQ fix: longer timeout", title: "The fix: a consumer_timeout above the longest job", variant_of: Some("one-slow-consumer-requeues-its-whole-channel") },
    Entry { name: "forty-redeliveries-of-a-message-that-never-left-the-buffer-max-ack-pending", menu: "NATS fix: MaxAckPending 1", title: "The fix: MaxAckPending 1, so nothing waits in the buffer", variant_of: Some("forty-redeliveries-of-a-message-that-never-left-the-buffer") },
    Entry { name: "the-late-ack-that-settled-someone-else-s-run-in-progress", menu: "NATS fix: in-progress acks", title: "The fix: in-progress acks while the handler works", variant_of: Some("the-late-ack-that-settled-someone-else-s-run") },
];

pub fn entry(name: &str) -> Option<&'static Entry> {
    ENTRIES.iter().find(|e| e.name == name)
}

/// The command with what it names looked up: a shipped scenario's name,
/// a tour's id, a link's query. The reducer reads no catalog of its own.
pub fn resolve(cmd: Command, find: &dyn Fn(&str) -> Option<Scenario>) -> Command {
    match cmd {
        Command::Load(name) => match find(&name) {
            Some(found) => Command::Loaded(Box::new(found)),
            None => Command::Load(name),
        },
        Command::StartTour(id) => match lease_diagnose::tour(&id) {
            Some(t) => {
                let scenario = find(t.scenario).map(Box::new);
                Command::Tour(id, scenario)
            }
            None => Command::StartTour(id),
        },
        Command::OpenLink(query) => Command::Open(crate::link::commands_of_query(&query)),
        other => other,
    }
}

/// The shipped scenarios `cmd` reads that the page does not hold yet: the
/// one it loads and the main one it varies (the scenario card lists what a
/// fix changes from it).
// Natively every shipped scenario is at hand: only the tests ask.
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
fn wanted(cmd: &Command, held: &dyn Fn(&str) -> bool) -> Vec<&'static str> {
    let name = match cmd {
        Command::Load(name) => Some(name.clone()),
        Command::StartTour(id) => lease_diagnose::tour(id).map(|t| t.scenario.to_string()),
        Command::OpenLink(query) => crate::url::base_name(query),
        Command::Import(s, _) => Some(s.variant_of.clone()),
        _ => None,
    };
    let Some(e) = name.as_deref().and_then(entry) else {
        return Vec::new();
    };
    [Some(e.name), e.variant_of]
        .into_iter()
        .flatten()
        .filter(|n| !held(n))
        .collect()
}

#[cfg(target_arch = "wasm32")]
pub use held::{dispatch, fetch_for_query, find};

#[cfg(target_arch = "wasm32")]
mod held {
    use std::cell::RefCell;

    use lease_sim::{parse_scenario_without_path, Scenario};
    use wasm_bindgen::JsCast;
    use wasm_bindgen_futures::JsFuture;
    use yew::prelude::*;

    use super::{entry, resolve, wanted, DEFAULT_SCENARIO};
    use crate::command::Command;

    const DEFAULT_TEXT: &str = include_str!("../scenarios/ninety-second-message.json");

    thread_local! {
        /// Each shipped scenario fetched (or the default, once read), and
        /// why the last try of one failed.
        static HELD: RefCell<Vec<(&'static str, Result<Scenario, String>)>> =
            const { RefCell::new(Vec::new()) };
    }

    fn remember(name: &'static str, got: Result<Scenario, String>) {
        HELD.with_borrow_mut(|held| {
            held.retain(|(n, _)| *n != name);
            held.push((name, got));
        });
    }

    fn looked_up(name: &str) -> Option<Result<Scenario, String>> {
        HELD.with_borrow(|held| {
            held.iter()
                .find(|(n, _)| *n == name)
                .map(|(_, got)| got.clone())
        })
    }

    pub fn held(name: &str) -> bool {
        name == DEFAULT_SCENARIO || matches!(looked_up(name), Some(Ok(_)))
    }

    /// The shipped scenario, if the page holds it.
    pub fn find(name: &str) -> Option<Scenario> {
        if name == DEFAULT_SCENARIO && looked_up(name).is_none() {
            let e = entry(DEFAULT_SCENARIO)?;
            remember(
                e.name,
                parse_scenario_without_path(DEFAULT_TEXT).map_err(|e| e.to_string()),
            );
        }
        looked_up(name)?.ok()
    }

    /// Why the shipped scenario could not be fetched, if it could not.
    pub fn failure(name: &str) -> Option<String> {
        looked_up(name)?.err()
    }

    async fn fetch(name: &'static str) -> Result<(), String> {
        let url = crate::browser::beside_page(&format!("scenarios/{name}.json"));
        let text = JsFuture::from(crate::browser::fetch_text(&url)).await;
        let got = text
            .map(|t| t.as_string().unwrap_or_default())
            .map_err(|e| {
                e.dyn_ref::<js_sys::Error>().map_or_else(
                    || "the browser gave no reason".into(),
                    |e| e.message().into(),
                )
            })
            .and_then(|text| {
                let s = parse_scenario_without_path(&text).map_err(|e| e.to_string())?;
                if s.name == name {
                    Ok(s)
                } else {
                    Err(format!("the file names the scenario \"{}\"", s.name))
                }
            });
        let result = got.as_ref().map(|_| ()).map_err(Clone::clone);
        remember(name, got);
        result
    }

    /// Fetches what a link opening the page names, before the page reads it.
    pub async fn fetch_for_query(query: &str) {
        for name in wanted(&Command::OpenLink(query.to_string()), &held) {
            // A failure is remembered: the link's notice says why.
            let _ = fetch(name).await;
        }
    }

    /// Hands `cmd` to the reducer, once the shipped scenarios it reads are
    /// here. Meanwhile the page says it is loading; if one cannot be
    /// fetched, a link opens from the default scenario with a notice, and
    /// anything else says why and changes nothing.
    pub fn dispatch<R: Reducible<Action = Command> + 'static>(
        cmd: Command,
        to: &UseReducerDispatcher<R>,
    ) {
        let missing = wanted(&cmd, &held);
        if missing.is_empty() {
            to.dispatch(resolve(cmd, &find));
            return;
        }
        let to = to.clone();
        to.dispatch(Command::Fetching(true));
        wasm_bindgen_futures::spawn_local(async move {
            let mut failed = None;
            for name in missing {
                if let Err(why) = fetch(name).await {
                    failed = Some((name, why));
                    break;
                }
            }
            to.dispatch(Command::Fetching(false));
            match failed {
                Some((name, why)) if !matches!(cmd, Command::OpenLink(_)) => {
                    let title = entry(name).map_or(name, |e| e.title);
                    to.dispatch(Command::Reject(format!(
                        "The scenario “{title}” could not be loaded ({why}). Check the connection and choose it again."
                    )));
                }
                _ => to.dispatch(resolve(cmd, &find)),
            }
        });
    }
}

/// Natively every shipped scenario is at hand.
#[cfg(not(target_arch = "wasm32"))]
pub fn find(name: &str) -> Option<lease_sim::Scenario> {
    lease_sim::shipped::find(name).map(|s| s.scenario)
}

#[cfg(not(target_arch = "wasm32"))]
pub fn dispatch<R: yew::Reducible<Action = Command>>(
    cmd: Command,
    to: &yew::UseReducerDispatcher<R>,
) {
    to.dispatch(resolve(cmd, &find));
}

/// Why the shipped scenario could not be fetched, if it could not.
#[cfg(target_arch = "wasm32")]
pub use held::failure;

#[cfg(not(target_arch = "wasm32"))]
pub fn failure(_: &str) -> Option<String> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_menu_lists_every_shipped_file_by_its_name_title_and_main_scenario() {
        let files = lease_sim::shipped::all();
        assert_eq!(files.len(), ENTRIES.len());
        for (file, e) in files.iter().zip(ENTRIES) {
            assert_eq!(file.name, e.name);
            assert_eq!(file.title, e.title, "{}", e.name);
            assert_eq!(file.variant_of.as_deref(), e.variant_of, "{}", e.name);
        }
    }

    #[test]
    fn a_command_wants_the_scenario_it_loads_and_the_one_it_varies() {
        let none = |_: &str| false;
        let default_only = |n: &str| n == DEFAULT_SCENARIO;
        assert_eq!(
            wanted(&Command::Load("clip-surge-redrive".into()), &none),
            ["clip-surge-redrive", "clip-surge"]
        );
        assert_eq!(
            wanted(&Command::Load("clip-surge-redrive".into()), &|n: &str| n
                == "clip-surge"),
            ["clip-surge-redrive"]
        );
        assert_eq!(
            wanted(
                &Command::OpenLink("timeout=30s&Scenario=+hung-handler-capped".into()),
                &default_only
            ),
            ["hung-handler-capped", "hung-handler"]
        );
        assert!(wanted(&Command::OpenLink("timeout=30s".into()), &default_only).is_empty());
        let tour = lease_diagnose::tours()[0].id;
        let its = lease_diagnose::tour(tour).unwrap().scenario;
        assert_eq!(wanted(&Command::StartTour(tour.into()), &none), [its]);
        let imported = lease_sim::Scenario {
            variant_of: "dependency-slows-3x".into(),
            ..Default::default()
        };
        assert_eq!(
            wanted(&Command::Import(Box::new(imported), Vec::new()), &none),
            ["dependency-slows-3x"]
        );
        for unknown in ["", "no-such", "../secrets"] {
            assert!(wanted(&Command::Load(unknown.into()), &none).is_empty());
        }
        assert!(wanted(&Command::Play, &none).is_empty());
    }
}
