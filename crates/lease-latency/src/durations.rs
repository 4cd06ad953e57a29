//! Durations pasted as a list (one per line, or separated by commas or
//! spaces, each with or without a unit), and the unit a file's column
//! header names. Files are read in the background worker, through the
//! `csv` crate (`lease_jobs::durations_job`), with the same limits.

use thiserror::Error;

use crate::{parse_duration_token, Unit};

/// The most durations read: a million is a few seconds' reading and 8 MB
/// of numbers; the scenario keeps 256 quantiles of them anyway.
pub const MAX_VALUES: usize = 1_000_000;

#[derive(Debug, Clone, PartialEq)]
pub struct Durations {
    pub ms: Vec<f64>,
    /// Whether the text named a unit; if not, the caller's applied.
    pub unit_named: bool,
}

#[derive(Debug, Clone, PartialEq, Error)]
pub enum DurationError {
    #[error("no durations found: paste one number per line, or numbers separated by commas")]
    Empty,
    #[error("line {line}: {token:?} is not a duration (write 250, 250ms or 1.5s)")]
    NotADuration { line: usize, token: String },
    #[error("line {line}: {token} is a negative duration; durations are 0 or more")]
    Negative { line: usize, token: String },
    #[error("more than {} durations: the page reads at most {} (it stopped reading at line {line})", lease_format::display::count(MAX_VALUES as u64), lease_format::display::count(MAX_VALUES as u64))]
    TooMany { line: usize },
}

/// The durations in `text`, in ms; a number without a unit is in `unit`.
pub fn read(text: &str, unit: Unit) -> Result<Durations, DurationError> {
    let mut ms = Vec::new();
    let mut unit_named = false;
    for (i, line) in text.lines().enumerate() {
        let line_no = i + 1;
        let words: Vec<&str> = line
            .split(|c: char| c.is_whitespace() || matches!(c, ',' | ';'))
            .filter(|w| !w.is_empty())
            .collect();
        let mut j = 0;
        while j < words.len() {
            let w = words[j];
            let Some((v, mut u)) = parse_duration_token(w) else {
                return Err(DurationError::NotADuration {
                    line: line_no,
                    token: w.to_string(),
                });
            };
            j += 1;
            if u.is_none() {
                if let Some(named) = words.get(j).and_then(|w| Unit::of_word(w)) {
                    u = Some(named);
                    j += 1;
                }
            }
            if v < 0.0 {
                return Err(DurationError::Negative {
                    line: line_no,
                    token: w.to_string(),
                });
            }
            if ms.len() == MAX_VALUES {
                return Err(DurationError::TooMany { line: line_no });
            }
            unit_named |= u.is_some();
            ms.push(v * u.unwrap_or(unit).ms());
        }
    }
    if ms.is_empty() {
        return Err(DurationError::Empty);
    }
    Ok(Durations { ms, unit_named })
}

/// The unit a column's header names: `latency_ms`, `time (s)`, `seconds`,
/// `duration_sec`, `ack_latency_minutes`. `None`: the header names none.
pub fn unit_of_header(header: &str) -> Option<Unit> {
    let h = header.trim().to_ascii_lowercase();
    if let Some(inner) = h
        .rsplit_once(['(', '['])
        .and_then(|(_, r)| r.strip_suffix([')', ']']))
    {
        if let Some(u) = Unit::of_word(inner.trim()) {
            return Some(u);
        }
    }
    // The last word of `ack_latency_ms`, `processing-time seconds`.
    let last = h
        .rsplit(|c: char| !c.is_ascii_alphanumeric())
        .find(|w| !w.is_empty())?;
    // A bare `m` or `s` word alone is too likely a name (`s`, `m`) to be a unit
    // unless it ends a longer header.
    if last == h && last.len() <= 1 {
        return None;
    }
    Unit::of_word(last)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pasted_durations_read_in_every_separator_and_unit() {
        let r = read("120\n340, 560 ms; 2s\n1.5 s 1m", Unit::Ms).unwrap();
        assert_eq!(r.ms, [120.0, 340.0, 560.0, 2000.0, 1500.0, 60_000.0]);
        assert!(r.unit_named);
        let r = read("1 2 3", Unit::S).unwrap();
        assert_eq!(r.ms, [1000.0, 2000.0, 3000.0]);
        assert!(!r.unit_named);
    }

    #[test]
    fn bad_durations_say_which_line_and_what_is_wrong() {
        for (text, says) in [
            ("", "no durations found"),
            ("\n \n", "no durations found"),
            ("12\nabc", "line 2: \"abc\" is not a duration"),
            ("12, -5", "line 1: -5 is a negative duration"),
        ] {
            let e = read(text, Unit::Ms).unwrap_err().to_string();
            assert!(e.contains(says), "{text:?}: {e}");
        }
    }

    #[test]
    fn more_than_a_million_durations_stop_at_the_limit() {
        let text = "1\n".repeat(MAX_VALUES + 5);
        let e = read(&text, Unit::Ms).unwrap_err();
        assert_eq!(
            e,
            DurationError::TooMany {
                line: MAX_VALUES + 1
            }
        );
        assert!(e.to_string().contains("at most 1,000,000"), "{e}");
        assert_eq!(
            read(&"1\n".repeat(MAX_VALUES), Unit::Ms).unwrap().ms.len(),
            MAX_VALUES
        );
    }

    #[test]
    fn a_header_names_its_unit() {
        for (h, u) in [
            ("latency_ms", Some(Unit::Ms)),
            ("time (s)", Some(Unit::S)),
            ("Duration [ms]", Some(Unit::Ms)),
            ("seconds", Some(Unit::S)),
            ("duration_sec", Some(Unit::S)),
            ("ack_latency_minutes", Some(Unit::Min)),
            ("wait_m", Some(Unit::Min)),
            ("duration", None),
            ("s", None),
            ("id", None),
        ] {
            assert_eq!(unit_of_header(h), u, "{h}");
        }
    }
}
