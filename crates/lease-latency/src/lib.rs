//! Latency data as people paste it, read into the numbers the work shapes of
//! a scenario take. Each reader returns the whole reading or an error naming
//! the line and what is wrong: a half-read paste never reaches a scenario.

pub mod durations;
pub mod histogram;
pub mod percentiles;

/// A unit of time a paste or a column's header names.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Unit {
    Ms,
    S,
    Min,
}

impl Unit {
    pub const ALL: [Unit; 3] = [Unit::Ms, Unit::S, Unit::Min];

    pub fn ms(self) -> f64 {
        match self {
            Unit::Ms => 1.0,
            Unit::S => 1000.0,
            Unit::Min => 60_000.0,
        }
    }

    /// The short name the readers take and the pickers show.
    pub fn name(self) -> &'static str {
        match self {
            Unit::Ms => "ms",
            Unit::S => "s",
            Unit::Min => "m",
        }
    }

    pub fn from_name(name: &str) -> Option<Unit> {
        Unit::ALL.into_iter().find(|u| u.name() == name)
    }

    /// A unit word as dashboards and headers write it (`ms`, `sec`,
    /// `seconds`, `m`, `min`, `minutes`), in any case.
    pub fn of_word(word: &str) -> Option<Unit> {
        match word.to_ascii_lowercase().as_str() {
            "ms" | "msec" | "msecs" | "millis" | "millisecond" | "milliseconds" => Some(Unit::Ms),
            "s" | "sec" | "secs" | "second" | "seconds" => Some(Unit::S),
            "m" | "min" | "mins" | "minute" | "minutes" => Some(Unit::Min),
            _ => None,
        }
    }
}

/// A number as people write it: `2`, `2.5`, `.5`, `-3`, `1e3`, `1,500`
/// is two numbers (the readers split on commas first). No words (`inf`,
/// `NaN`) and an exponent of at most three digits.
pub fn parse_number(text: &str) -> Option<f64> {
    let rest = text.strip_prefix(['-', '+']).unwrap_or(text);
    let (mantissa, exp) = match rest.split_once(['e', 'E']) {
        Some((m, e)) => (m, Some(e)),
        None => (rest, None),
    };
    let exp_ok = exp.is_none_or(|e| {
        let digits = e.strip_prefix(['+', '-']).unwrap_or(e);
        !digits.is_empty() && digits.len() <= 3 && digits.bytes().all(|b| b.is_ascii_digit())
    });
    if !exp_ok || lease_format::units::parse_plain_f64(mantissa).is_none() {
        return None;
    }
    text.parse::<f64>().ok().filter(|v| v.is_finite())
}

/// A number with the unit written onto it (`2s`, `2000ms`, `1.5min`), or a
/// bare number (`None` for the unit).
pub fn parse_duration_token(token: &str) -> Option<(f64, Option<Unit>)> {
    let split = token
        .find(|c: char| c.is_ascii_alphabetic() && c != 'e' && c != 'E')
        .unwrap_or(token.len());
    let (num, unit) = token.split_at(split);
    let v = parse_number(num)?;
    if unit.is_empty() {
        Some((v, None))
    } else {
        Some((v, Some(Unit::of_word(unit)?)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_read_as_people_write_them() {
        for (text, want) in [
            ("2", Some(2.0)),
            ("2.5", Some(2.5)),
            (".5", Some(0.5)),
            ("-3", Some(-3.0)),
            ("1e3", Some(1000.0)),
            ("2.5E-1", Some(0.25)),
            ("abc", None),
            ("", None),
            ("1e", None),
            ("--1", None),
        ] {
            assert_eq!(parse_number(text), want, "{text}");
        }
    }

    #[test]
    fn a_unit_written_onto_a_number_is_read_with_it() {
        assert_eq!(parse_duration_token("2s"), Some((2.0, Some(Unit::S))));
        assert_eq!(
            parse_duration_token("2000ms"),
            Some((2000.0, Some(Unit::Ms)))
        );
        assert_eq!(parse_duration_token("1.5min"), Some((1.5, Some(Unit::Min))));
        assert_eq!(parse_duration_token("7"), Some((7.0, None)));
        assert_eq!(parse_duration_token("7h"), None);
    }
}
