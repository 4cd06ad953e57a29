//! The words for a scenario's enums (`sqs_standard`, `fencing_token`,
//! `on_next_receive`) are the scenario file's: the file, the share link, the
//! page's selects and the command line read them from the enum's own table
//! (`lease_sim::scenario::Named`), which serde's reader and writer use too,
//! so a renamed variant cannot leave one of them behind.

use lease_sim::scenario::Named;

/// Every word of a unit-variant enum, in declaration order.
pub fn words<T: Named>() -> &'static [&'static str] {
    T::WORDS
}

/// The enum value a word names, as the scenario file reads it.
pub fn parse<T: Named>(word: &str) -> Option<T> {
    position(T::WORDS, word).map(|i| T::NAMES[i].0)
}

fn position(words: &[&str], word: &str) -> Option<usize> {
    words.iter().position(|w| *w == word)
}

/// The word for an enum value, as the scenario file writes it.
pub fn name<T: Named>(value: &T) -> &'static str {
    T::WORDS.get(value.index()).copied().unwrap_or("")
}

#[cfg(test)]
mod tests {
    use super::*;
    use lease_sim::scenario::{CountAt, DlqTiming, Fence, Preset};

    #[test]
    fn every_preset_and_fence_has_the_name_the_scenario_file_uses() {
        assert_eq!(
            words::<Preset>(),
            [
                "textbook",
                "sqs_standard",
                "sqs_fifo",
                "azure_service_bus",
                "google_pubsub",
                "rabbitmq_4_2",
                "rabbitmq_4_3",
                "nats_jetstream",
                "redis_streams",
                "bullmq",
                "celery_redis",
                "celery_sqs",
                "temporal_activity",
                "cloud_tasks",
                "sidekiq_pro"
            ]
        );
        for p in Preset::ALL {
            assert_eq!(parse::<Preset>(name(&p)), Some(p));
        }
        for f in Fence::ALL {
            assert_eq!(parse::<Fence>(name(&f)), Some(f));
        }
        assert_eq!(name(&Fence::FencingToken), "fencing_token");
        assert_eq!(name(&DlqTiming::OnNextReceive), "on_next_receive");
        assert_eq!(words::<CountAt>(), ["receive", "expiry_or_abandon"]);
    }

    #[test]
    fn an_unknown_word_names_nothing() {
        assert_eq!(parse::<Preset>("rabbitmq"), None);
        assert_eq!(parse::<Preset>("Textbook"), None);
    }
}
