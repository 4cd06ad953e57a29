//! A note on the timeline: a time range, a worker's lane or a message if
//! it is about one, and a short text ("worker 1 starts the same message
//! here"). Notes travel in the share link as repeated `note=` fields in a
//! compact form, `60s-90s~w1~worker 1 starts it again`: the range (`FROM-TO`,
//! durations as the link writes them), the target (`w1` worker 1's lane,
//! `m3` message 3, nothing for the whole timeline), then the text. The text
//! is the rest of the value, so it may hold `~` itself; the link's writer
//! %-escapes the whole value as it does any other.

use std::fmt;

use lease_format::units::{format_ms, parse_ms};
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

/// Why a `note=` value is not a note.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NoteError {
    /// Not `FROM-TO~TARGET~TEXT`.
    Form,
    /// One end of the range is not a duration, and why.
    Time(&'static str, String),
    /// The range ends where it starts, or before.
    Order,
    /// The target is not `wN`, `mN` or empty.
    Target(String),
    Empty,
    /// The text's length in characters.
    TooLong(usize),
    /// The text holds a control character (a line break, a tab).
    Control,
}

impl fmt::Display for NoteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NoteError::Form => write!(
                f,
                "is not a note: write FROM-TO~ON~TEXT, e.g. 60s-90s~w1~worker 1 starts it again (ON: w and a worker, m and a message, or nothing)"
            ),
            NoteError::Time(end, why) => write!(f, "has a range whose {end} {why}"),
            NoteError::Order => write!(f, "has a range that ends before it starts"),
            NoteError::Target(t) => write!(
                f,
                "is on {t:?}, which is neither w and a worker (w1) nor m and a message (m3)"
            ),
            NoteError::Empty => write!(f, "has no text"),
            NoteError::TooLong(n) => write!(
                f,
                "has a text of {n} characters; at most {MAX_NOTE_CHARS} are allowed"
            ),
            NoteError::Control => write!(f, "has a line break or other control character in its text"),
        }
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
        let (range, rest) = cut(value, b'~').ok_or(NoteError::Form)?;
        let (on, text) = cut(rest, b'~').ok_or(NoteError::Form)?;
        let (from, to) = cut(range, b'-').ok_or(NoteError::Form)?;
        let time = |end: &'static str, t: &str| {
            parse_ms(t.trim(), 0, MAX_DURATION_MS).map_err(|why| NoteError::Time(end, why))
        };
        let note = Note {
            from_ms: time("start", from)?,
            to_ms: time("end", to)?,
            on: target(on.trim())?,
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
        let n = self.text.chars().count();
        if n > MAX_NOTE_CHARS {
            return Err(NoteError::TooLong(n));
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

    /// The note as a sentence a screen reader reads: "60s to 90s, worker 1:
    /// worker 1 starts it again".
    pub fn describe(&self) -> String {
        let on = match self.on {
            NoteOn::Timeline => String::new(),
            _ => format!(", {}", self.on_words()),
        };
        format!(
            "{} to {}{on}: {}",
            format_ms(self.from_ms),
            format_ms(self.to_ms),
            self.text
        )
    }
}

fn target(on: &str) -> Result<NoteOn, NoteError> {
    let number = |digits: &str| {
        (!digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()))
            .then(|| digits.parse::<u32>().ok())
            .flatten()
    };
    let parsed = match on.as_bytes().first() {
        None => Some(NoteOn::Timeline),
        Some(b'w' | b'W') => number(&on[1..]).map(NoteOn::Worker),
        Some(b'm' | b'M') => number(&on[1..]).map(NoteOn::Message),
        Some(_) => None,
    };
    // The first 20 characters, cut at a byte offset: a `String` collected
    // from `chars()` is a copy of its own in the page's download.
    let shown = on.char_indices().nth(20).map_or(on.len(), |(i, _)| i);
    parsed.ok_or_else(|| NoteError::Target(on[..shown].to_string()))
}

/// `s` split at the first `sep`, an ASCII byte (so both halves are whole
/// characters): one loop over bytes, where `str::split_once` with a `char`
/// pattern is a second copy of its searcher in the page.
fn cut(s: &str, sep: u8) -> Option<(&str, &str)> {
    let i = s.bytes().position(|b| b == sep)?;
    Some((&s[..i], &s[i + 1..]))
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
        for (value, says) in [
            ("garbage", "is not a note"),
            ("60s-90s", "is not a note"),
            ("60s~~x", "is not a note"),
            ("sixty-90s~~x", "range whose start must be a whole number"),
            ("60s-ninety~~x", "range whose end must be a whole number"),
            ("90s-60s~~x", "ends before it starts"),
            ("60s-60s~~x", "ends before it starts"),
            ("60s-90s~q1~x", "neither w and a worker"),
            ("60s-90s~w~x", "neither w and a worker"),
            ("60s-90s~w1~   ", "has no text"),
            ("60s-90s~~a\nb", "line break"),
        ] {
            let e = Note::from_field(value).unwrap_err().to_string();
            assert!(e.contains(says), "{value:?}: {e}");
        }
        let long = format!("60s-90s~~{}", "é".repeat(MAX_NOTE_CHARS + 1));
        assert_eq!(
            Note::from_field(&long),
            Err(NoteError::TooLong(MAX_NOTE_CHARS + 1))
        );
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
        assert_eq!(n.describe(), "60s to 90s, worker 1: again");
        assert_eq!(
            note(0, 5, NoteOn::Timeline, "x").describe(),
            "0ms to 5ms: x"
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
