//! A message past its delivery limit, as the timeline, the hover card and
//! the exports word it: dead-lettered, dropped, or left in the stream with
//! an advisory (docs/MODEL.md "Past the delivery limit").

use lease_sim::run::{DeadLetterCause, Fate};

use crate::story::cause_word;

/// Which of the three ends past the limit a message met.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LimitFate {
    /// In the dead-letter queue, where someone can read it.
    DeadLettered,
    /// Gone: no queue holds it any more.
    Dropped,
    /// Still in the stream, delivered no more; an advisory said so.
    Stayed,
}

/// The message's end past the limit, when it came and how its last lease
/// ended; `None` for every other fate.
pub fn past_limit(f: Fate) -> Option<(LimitFate, u64, DeadLetterCause)> {
    match f {
        Fate::DeadLettered { at, cause } => Some((LimitFate::DeadLettered, at, cause)),
        Fate::Dropped { at, cause } => Some((LimitFate::Dropped, at, cause)),
        Fate::Stayed { at, cause } => Some((LimitFate::Stayed, at, cause)),
        Fate::Deleted { .. } | Fate::Available | Fate::InFlight => None,
    }
}

impl LimitFate {
    /// The timeline's mark beside the message's last delivery: "DLQ
    /// expired", "dropped (expired)", "stays, advisory (failed)".
    pub fn mark(self, cause: DeadLetterCause) -> String {
        let c = cause_word(cause);
        match self {
            LimitFate::DeadLettered => format!("DLQ {c}"),
            LimitFate::Dropped => format!("dropped ({c})"),
            LimitFate::Stayed => format!("stays, advisory ({c})"),
        }
    }

    /// The fate in a sentence's words.
    pub fn words(self) -> &'static str {
        match self {
            LimitFate::DeadLettered => "dead-lettered",
            LimitFate::Dropped => "dropped",
            LimitFate::Stayed => "left in the stream",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_fate_past_the_limit_has_a_mark_of_its_own() {
        let e = DeadLetterCause::Expired;
        let marks: Vec<String> = [
            Fate::DeadLettered { at: 1, cause: e },
            Fate::Dropped { at: 1, cause: e },
            Fate::Stayed { at: 1, cause: e },
        ]
        .into_iter()
        .map(|f| {
            let (k, at, cause) = past_limit(f).unwrap();
            assert_eq!((at, cause), (1, e));
            k.mark(cause)
        })
        .collect();
        assert_eq!(
            marks,
            [
                "DLQ expired",
                "dropped (expired)",
                "stays, advisory (expired)"
            ]
        );
        assert_eq!(past_limit(Fate::Deleted { at: 1 }), None);
        assert_eq!(past_limit(Fate::InFlight), None);
    }
}
