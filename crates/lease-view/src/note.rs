//! A note on the timeline: a time range, a worker's lane or a message if
//! it is about one, and a short text ("worker 1 starts the same message
//! here"). Notes travel in the share link as repeated `note=` fields in a
//! compact form, `60s-90s~w1~worker 1 starts it again`: the range (`FROM-TO`,
//! durations as the link writes them), the target (`w1` worker 1's lane,
//! `m3` message 3, nothing for the whole timeline), then the text. The text
//! is the rest of the value, so it may hold `~` itself; the link's writer
//! %-escapes the whole value as it does any other.

use std::fmt;

use lease_format::units::{format_ms, parse_count, parse_ms};
use lease_sim::validate::MAX_DURATION_MS;

/// A link carries at most this many notes; the rest are refused.
pub const MAX_NOTES: usize = 10;
/// A note's text is at most this many characters.
pub const MAX_NOTE_CHARS: usize = 140;

/// What a note is about, besides its time range.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoteOn {
    /// The whole timeline.
    Timeline,
    /// A worker's lane (its index, as the lane's label says).
    Worker(u32),
    /// A message (its id).
    Message(u32),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Note {
    pub from_ms: u64,
    pub to_ms: u64,
    pub on: NoteOn,
    pub text: String,
}

/// Why a `note=` value is not a note. The words are fixed, with no part
/// of the value in them: the notice that shows one names the value already.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoteError {
    /// Not `FROM-TO~TARGET~TEXT`.
    Form,
    /// An end of the range is not a duration.
    Range,
    /// The range ends where it starts, or before.
    Order,
    /// The target is not `wN`, `mN` or empty.
    Target,
    Empty,
    TooLong,
    /// The text holds a control character (a line break, a tab).
    Control,
}

impl NoteError {
    /// What is wrong, as the rest of a sentence about the note.
    pub fn says(self) -> &'static str {
        match self {
            NoteError::Form => "is not FROM-TO~ON~TEXT, as in 60s-90s~w1~it starts again",
            NoteError::Range => "has a range that is not two durations, as in 60s-90s",
            NoteError::Order => "has a range that ends before it starts",
            NoteError::Target => "is on neither a worker (w1) nor a message (m3)",
            NoteError::Empty => "has no text",
            NoteError::TooLong => "has more than 140 characters",
            NoteError::Control => "has a line break in its text",
        }
    }
}

impl fmt::Display for NoteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.says())
    }
}

impl std::error::Error for NoteError {}

impl Note {
    /// The note's link form, `60s-90s~w1~text` (unescaped).
    pub fn to_field(&self) -> String {
        let on = match self.on {
            NoteOn::Timeline => String::new(),
            NoteOn::Worker(w) => format!("w{w}"),
            NoteOn::Message(m) => format!("m{m}"),
        };
        format!(
            "{}-{}~{on}~{}",
            format_ms(self.from_ms),
            format_ms(self.to_ms),
            self.text
        )
    }

    /// Reads a note as `to_field` writes it (the link has unescaped it).
    pub fn from_field(value: &str) -> Result<Note, NoteError> {
        let (range, rest) = value.split_once('~').ok_or(NoteError::Form)?;
        let (on, text) = rest.split_once('~').ok_or(NoteError::Form)?;
        let (from, to) = range.split_once('-').ok_or(NoteError::Form)?;
        let time = |t: &str| parse_ms(t.trim(), 0, MAX_DURATION_MS).ok();
        let note = Note {
            from_ms: time(from).ok_or(NoteError::Range)?,
            to_ms: time(to).ok_or(NoteError::Range)?,
            on: target(on.trim()).ok_or(NoteError::Target)?,
            text: text.to_string(),
        };
        note.check()?;
        Ok(note)
    }

    /// Whether the note can be kept: a range that ends after it starts, and
    /// a text of 1 to `MAX_NOTE_CHARS` characters on one line.
    pub fn check(&self) -> Result<(), NoteError> {
        if self.to_ms <= self.from_ms {
            return Err(NoteError::Order);
        }
        if self.text.trim().is_empty() {
            return Err(NoteError::Empty);
        }
        if self.text.chars().count() > MAX_NOTE_CHARS {
            return Err(NoteError::TooLong);
        }
        if self.text.chars().any(char::is_control) {
            return Err(NoteError::Control);
        }
        Ok(())
    }

    /// "worker 1", "message 3", or "the timeline".
    pub fn on_words(&self) -> String {
        match self.on {
            NoteOn::Timeline => "the timeline".into(),
            NoteOn::Worker(w) => format!("worker {w}"),
            NoteOn::Message(m) => format!("message {m}"),
        }
    }

    /// The note as a sentence a screen reader reads: "60 s to 90 s, worker 1:
    /// worker 1 starts it again".
    pub fn describe(&self) -> String {
        let on = match self.on {
            NoteOn::Timeline => String::new(),
            _ => format!(", {}", self.on_words()),
        };
        format!(
            "{} to {}{on}: {}",
            lease_format::display::duration(self.from_ms),
            lease_format::display::duration(self.to_ms),
            self.text
        )
    }
}

fn target(on: &str) -> Option<NoteOn> {
    // The link's own reader of counts, which the page has already.
    let number = || {
        parse_count(&on[1..], 0, u64::from(u32::MAX))
            .ok()
            .map(|n| n as u32)
    };
    match on.as_bytes().first() {
        None => Some(NoteOn::Timeline),
        Some(b'w' | b'W') => number().map(NoteOn::Worker),
        Some(b'm' | b'M') => number().map(NoteOn::Message),
        Some(_) => None,
    }
}

/// The notes of a list of link forms that read, and why each other one did
/// not: (its index, the value, the error). At most `MAX_NOTES` are kept.
pub fn read_notes(values: &[String]) -> (Vec<Note>, Vec<(usize, NoteError)>) {
    let mut notes = Vec::new();
    let mut refused = Vec::new();
    for (i, v) in values.iter().enumerate() {
        match Note::from_field(v) {
            Ok(n) if notes.len() < MAX_NOTES => notes.push(n),
            Ok(_) => {}
            Err(e) => refused.push((i, e)),
        }
    }
    (notes, refused)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn note(from_ms: u64, to_ms: u64, on: NoteOn, text: &str) -> Note {
        Note {
            from_ms,
            to_ms,
            on,
            text: text.into(),
        }
    }

    #[test]
    fn a_note_reads_back_from_its_link_form() {
        let n = note(
            60_000,
            90_000,
            NoteOn::Worker(1),
            "worker 1 starts the same message here",
        );
        assert_eq!(
            n.to_field(),
            "60s-90s~w1~worker 1 starts the same message here"
        );
        assert_eq!(Note::from_field(&n.to_field()), Ok(n));
        let m = note(0, 1_500, NoteOn::Message(3), "a ~ in the text & 100% ✓");
        assert_eq!(Note::from_field(&m.to_field()), Ok(m));
        let t = note(120_000, 7_200_000, NoteOn::Timeline, "the whole surge");
        assert_eq!(t.to_field(), "2min-2h~~the whole surge");
        assert_eq!(Note::from_field(&t.to_field()), Ok(t));
    }

    #[test]
    fn a_bad_note_says_what_is_wrong_with_it() {
        use NoteError::*;
        for (value, why, says) in [
            ("garbage", Form, "is not FROM-TO~ON~TEXT"),
            ("60s-90s", Form, "is not FROM-TO~ON~TEXT"),
            ("60s~~x", Form, "is not FROM-TO~ON~TEXT"),
            ("sixty-90s~~x", Range, "not two durations"),
            ("60s-ninety~~x", Range, "not two durations"),
            ("90s-60s~~x", Order, "ends before it starts"),
            ("60s-60s~~x", Order, "ends before it starts"),
            (
                "60s-90s~q1~x",
                Target,
                "neither a worker (w1) nor a message (m3)",
            ),
            ("60s-90s~w~x", Target, "neither a worker"),
            ("60s-90s~w1~   ", Empty, "has no text"),
            ("60s-90s~~a\nb", Control, "line break"),
        ] {
            assert_eq!(Note::from_field(value), Err(why), "{value:?}");
            assert!(why.to_string().contains(says), "{value:?}: {why}");
        }
        let long = format!("60s-90s~~{}", "é".repeat(MAX_NOTE_CHARS + 1));
        assert_eq!(Note::from_field(&long), Err(NoteError::TooLong));
        assert!(NoteError::TooLong
            .says()
            .contains(&MAX_NOTE_CHARS.to_string()));
        let most = format!("60s-90s~~{}", "é".repeat(MAX_NOTE_CHARS));
        assert!(Note::from_field(&most).is_ok());
    }

    #[test]
    fn a_link_keeps_at_most_ten_notes_and_drops_each_bad_one_alone() {
        let mut values: Vec<String> = (0..12)
            .map(|i| format!("{i}s-{}s~~note {i}", i + 1))
            .collect();
        values.insert(3, "nonsense".into());
        let (notes, refused) = read_notes(&values);
        assert_eq!(notes.len(), MAX_NOTES);
        assert_eq!(notes[3].text, "note 3", "the bad one is dropped alone");
        assert_eq!(refused.len(), 1);
        assert_eq!(refused[0].0, 3);
    }

    #[test]
    fn describes_itself_in_words() {
        let n = note(60_000, 90_000, NoteOn::Worker(1), "again");
        assert_eq!(n.describe(), "60 s to 90 s, worker 1: again");
        assert_eq!(
            note(0, 5, NoteOn::Timeline, "x").describe(),
            "0 ms to 5 ms: x"
        );
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod properties {
    use super::*;
    use proptest::prelude::*;

    fn on() -> impl Strategy<Value = NoteOn> {
        prop_oneof![
            Just(NoteOn::Timeline),
            any::<u32>().prop_map(NoteOn::Worker),
            any::<u32>().prop_map(NoteOn::Message),
        ]
    }

    proptest! {
        #[test]
        fn any_note_round_trips_through_its_link_form(
            from in 0u64..MAX_DURATION_MS,
            len in 1u64..MAX_DURATION_MS,
            on in on(),
            text in "[~&%=+# a-zA-Z0-9é✓日本語🙂-]{0,139}[~&%a-z✓🙂]",
        ) {
            let n = Note { from_ms: from, to_ms: (from + len).min(MAX_DURATION_MS), on, text };
            prop_assume!(n.to_ms > n.from_ms);
            prop_assert_eq!(Note::from_field(&n.to_field()), Ok(n));
        }
    }
}
