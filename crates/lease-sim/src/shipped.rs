//! The scenarios the playground ships (docs/MODEL.md, "Scenarios the playground
//! ships"), embedded in the binary so the page and the command line need no
//! file access (wasm32 has none). The main scenarios come first, in
//! docs/MODEL.md's order, then the fixes and comparisons, each naming the scenario
//! it varies in `variant_of`.

use crate::parse::parse_scenario_without_path;
use crate::scenario::Scenario;

/// (file name without `.json`, file text). The order is the page's order.
const FILES: &[(&str, &str)] = &[
    (
        "ninety-second-message",
        include_str!("../../../scenarios/ninety-second-message.json"),
    ),
    (
        "clip-surge",
        include_str!("../../../scenarios/clip-surge.json"),
    ),
    (
        "five-minute-timeout-deploy",
        include_str!("../../../scenarios/five-minute-timeout-deploy.json"),
    ),
    (
        "hung-handler",
        include_str!("../../../scenarios/hung-handler.json"),
    ),
    (
        "invisible-backlog",
        include_str!("../../../scenarios/invisible-backlog.json"),
    ),
    (
        "dependency-slows-3x",
        include_str!("../../../scenarios/dependency-slows-3x.json"),
    ),
    (
        "dlq-of-valid-messages",
        include_str!("../../../scenarios/dlq-of-valid-messages.json"),
    ),
    (
        "order-confirmation-email",
        include_str!("../../../scenarios/order-confirmation-email.json"),
    ),
    (
        "gc-pause-starves-heartbeat",
        include_str!("../../../scenarios/gc-pause-starves-heartbeat.json"),
    ),
    (
        "sub-second-work",
        include_str!("../../../scenarios/sub-second-work.json"),
    ),
    (
        "celery-task-runs-four-times",
        include_str!("../../../scenarios/celery-task-runs-four-times.json"),
    ),
    (
        "bullmq-stalled-more-than-allowable-limit",
        include_str!("../../../scenarios/bullmq-stalled-more-than-allowable-limit.json"),
    ),
    (
        "two-attempts-of-the-same-activity",
        include_str!("../../../scenarios/two-attempts-of-the-same-activity.json"),
    ),
    (
        "one-slow-consumer-requeues-its-whole-channel",
        include_str!("../../../scenarios/one-slow-consumer-requeues-its-whole-channel.json"),
    ),
    (
        "forty-redeliveries-of-a-message-that-never-left-the-buffer",
        include_str!("../../../scenarios/forty-redeliveries-of-a-message-that-never-left-the-buffer.json"),
    ),
    (
        "the-late-ack-that-settled-someone-else-s-run",
        include_str!("../../../scenarios/the-late-ack-that-settled-someone-else-s-run.json"),
    ),
    // Variants: the fixes and comparisons, grouped after the main list.
    (
        "clip-surge-heartbeat",
        include_str!("../../../scenarios/clip-surge-heartbeat.json"),
    ),
    (
        "clip-surge-smaller-steps",
        include_str!("../../../scenarios/clip-surge-smaller-steps.json"),
    ),
    (
        "clip-surge-redrive",
        include_str!("../../../scenarios/clip-surge-redrive.json"),
    ),
    (
        "clip-surge-idempotent",
        include_str!("../../../scenarios/clip-surge-idempotent.json"),
    ),
    (
        "five-minute-timeout-deploy-heartbeat",
        include_str!("../../../scenarios/five-minute-timeout-deploy-heartbeat.json"),
    ),
    (
        "hung-handler-capped",
        include_str!("../../../scenarios/hung-handler-capped.json"),
    ),
    (
        "dependency-slows-3x-more-workers",
        include_str!("../../../scenarios/dependency-slows-3x-more-workers.json"),
    ),
    (
        "order-confirmation-email-idempotent",
        include_str!("../../../scenarios/order-confirmation-email-idempotent.json"),
    ),
    (
        "gc-pause-starves-heartbeat-fencing-token",
        include_str!("../../../scenarios/gc-pause-starves-heartbeat-fencing-token.json"),
    ),
    (
        "sub-second-work-heartbeat",
        include_str!("../../../scenarios/sub-second-work-heartbeat.json"),
    ),
    (
        "celery-task-runs-four-times-visibility-timeout",
        include_str!("../../../scenarios/celery-task-runs-four-times-visibility-timeout.json"),
    ),
    (
        "bullmq-stalled-sandboxed-processor",
        include_str!("../../../scenarios/bullmq-stalled-sandboxed-processor.json"),
    ),
    (
        "two-attempts-of-the-same-activity-heartbeat",
        include_str!("../../../scenarios/two-attempts-of-the-same-activity-heartbeat.json"),
    ),
    (
        "one-slow-consumer-requeues-its-whole-channel-consumer-timeout",
        include_str!("../../../scenarios/one-slow-consumer-requeues-its-whole-channel-consumer-timeout.json"),
    ),
    (
        "forty-redeliveries-of-a-message-that-never-left-the-buffer-max-ack-pending",
        include_str!("../../../scenarios/forty-redeliveries-of-a-message-that-never-left-the-buffer-max-ack-pending.json"),
    ),
    (
        "the-late-ack-that-settled-someone-else-s-run-in-progress",
        include_str!("../../../scenarios/the-late-ack-that-settled-someone-else-s-run-in-progress.json"),
    ),
];

/// How many of the shipped files are main scenarios (the rest are variants).
pub const MAIN_COUNT: usize = 16;

#[derive(Debug, Clone, PartialEq)]
pub struct ShippedScenario {
    /// The scenario's `name`, also its file name and its share-link id.
    pub name: &'static str,
    pub title: String,
    /// The file as shipped, for "view source" and downloads.
    pub text: &'static str,
    pub scenario: Scenario,
    /// The main scenario this one varies; `None` for a main scenario.
    pub variant_of: Option<String>,
}

/// Every shipped scenario, main ones first. A file that failed to parse would
/// be left out rather than panic in the page; the tests check none is.
pub fn all() -> Vec<ShippedScenario> {
    FILES
        .iter()
        .filter_map(|(name, text)| {
            let scenario = parse_scenario_without_path(text).ok()?;
            let variant_of = if scenario.variant_of.is_empty() {
                None
            } else {
                Some(scenario.variant_of.clone())
            };
            Some(ShippedScenario {
                name,
                title: scenario.title.clone(),
                text,
                scenario,
                variant_of,
            })
        })
        .collect()
}

/// The shipped scenario of that name (the share link's `?scenario=`).
pub fn find(name: &str) -> Option<ShippedScenario> {
    let (n, text) = FILES.iter().find(|(n, _)| *n == name)?;
    let scenario = parse_scenario_without_path(text).ok()?;
    Some(ShippedScenario {
        name: n,
        title: scenario.title.clone(),
        text,
        variant_of: (!scenario.variant_of.is_empty()).then(|| scenario.variant_of.clone()),
        scenario,
    })
}

/// The variants of a main scenario, in shipped order.
pub fn variants_of(name: &str) -> Vec<ShippedScenario> {
    all()
        .into_iter()
        .filter(|s| s.variant_of.as_deref() == Some(name))
        .collect()
}

/// The names of every shipped file, whether or not it parses (for tests).
pub fn file_names() -> impl Iterator<Item = &'static str> {
    FILES.iter().map(|(n, _)| *n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_shipped_file_parses_and_validates() {
        for (name, text) in FILES {
            match crate::parse::parse_scenario(text) {
                // `all` and `find` read with the page's reader: the same scenario.
                Ok(s) => assert_eq!(parse_scenario_without_path(text), Ok(s), "{name}"),
                Err(e) => panic!("scenarios/{name}.json: {e}"),
            }
        }
        assert_eq!(all().len(), FILES.len());
    }

    #[test]
    fn each_name_matches_its_file_and_has_words() {
        for s in all() {
            assert_eq!(s.scenario.name, s.name);
            assert!(!s.title.is_empty(), "{} has no title", s.name);
            assert!(s.scenario.explanation.len() > 80, "{} explanation", s.name);
            assert!(s.scenario.look_for.len() > 40, "{} look_for", s.name);
        }
    }

    #[test]
    fn the_main_scenarios_come_first_then_variants_of_them() {
        let all = all();
        assert!(all[..MAIN_COUNT].iter().all(|s| s.variant_of.is_none()));
        let mains: Vec<&str> = all[..MAIN_COUNT].iter().map(|s| s.name).collect();
        for v in &all[MAIN_COUNT..] {
            let of = v.variant_of.as_deref().unwrap_or("");
            assert!(mains.contains(&of), "{} varies unknown {of:?}", v.name);
        }
        assert_eq!(variants_of("clip-surge").len(), 4);
    }

    #[test]
    fn find_returns_the_named_scenario() {
        assert_eq!(
            find("hung-handler-capped").map(|s| s.variant_of),
            Some(Some("hung-handler".to_string()))
        );
        assert!(find("no-such-scenario").is_none());
    }
}
