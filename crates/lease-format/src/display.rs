//! How a value reads wherever a person sees it: labels, tooltips, tables,
//! exports, notices and the command line. One reading each, so that the same
//! duration, rate or count never reads two ways on the page and in a file.
//!
//! A duration reads as the share link writes it (`units::format_ms`), with a
//! space before the unit: exact, in the unit a person would use (`45 s`,
//! `2.5 min`, `1.5 h`), falling back to a smaller unit where one decimal
//! would not be exact (`135 s`, `61,234 ms`). A control's label then says
//! what its link says, and no figure is rounded into another.

use crate::units::format_ms;

/// A whole number of milliseconds: `250 ms`, `45 s`, `135 s`, `2.5 min`,
/// `1.5 h`, `61,234 ms`.
pub fn duration(ms: u64) -> String {
    let text = format_ms(ms);
    let cut = text
        .find(|c: char| c.is_ascii_alphabetic())
        .unwrap_or(text.len());
    let (num, unit) = text.split_at(cut);
    match (unit, num.parse::<u64>()) {
        ("ms", Ok(n)) => format!("{} ms", count(n)),
        _ => format!("{num} {unit}"),
    }
}

/// Milliseconds measured as a fraction (a latency read from a file, a
/// percentile): whole values as `duration` writes them, a fraction of a
/// millisecond to one decimal below a second (`0.4 ms`), the rest rounded
/// to the millisecond. Not finite or negative: `-`.
pub fn duration_f64(ms: f64) -> String {
    if !(ms.is_finite() && ms >= 0.0) {
        return "-".into();
    }
    if ms < 1_000.0 && ms.fract() != 0.0 {
        let tenths = (ms * 10.0).round() / 10.0;
        if tenths.fract() != 0.0 {
            return format!("{tenths:.1} ms");
        }
    }
    duration(ms.round() as u64)
}

/// A duration measured or computed rather than chosen (the playhead, a
/// percentile, a sweep's axis): as `duration` writes it wherever that is
/// exact in a person's unit to three digits (`45 s`, `135 s`, `2.5 min`,
/// `90.5 s`, `250 ms`), and otherwise in the unit `duration` prefers for its size, to
/// one decimal (`61.2 s` for 61,234 ms, `10.2 min`, `1.5 h` for
/// 5,432,100 ms). Not finite: `-`.
pub fn duration_about(ms: f64) -> String {
    if !ms.is_finite() {
        return "-".into();
    }
    if ms.abs() < 1_000.0 {
        return format!("{} ms", ms.round());
    }
    if ms >= 0.0 && ms.fract() == 0.0 && ms < 9.0e15 {
        let exact = duration(ms as u64);
        let digits = exact.bytes().filter(u8::is_ascii_digit).count();
        if !exact.ends_with(" ms") && digits <= 3 {
            return exact;
        }
    }
    let (per, unit) = if ms.abs() < 2.0 * 60_000.0 {
        (1_000.0, "s")
    } else if ms.abs() < 3_600_000.0 {
        (60_000.0, "min")
    } else {
        (3_600_000.0, "h")
    };
    let text = format!("{:.1}", ms / per);
    let text = text.strip_suffix(".0").unwrap_or(&text);
    format!("{text} {unit}")
}

/// A rate of messages: below one a second, per minute to the whole message
/// (`30 /min`); from one a second, per second to two decimals (`2.5 /s`);
/// `none` for zero.
pub fn rate(per_s: f64) -> String {
    if per_s == 0.0 {
        "none".into()
    } else if per_s < 1.0 {
        format!("{:.0} /min", per_s * 60.0)
    } else {
        let r = (per_s * 100.0).round() / 100.0;
        format!("{r} /s")
    }
}

/// A count, with thousands separators: `1,234,567`.
pub fn count(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A value as the page shows it (`45 s`, `2.5 min`, `30 /min`, `5%`), in
/// words for a screen reader: `45 seconds`, `2.5 minutes`, `30 per minute`,
/// `5 percent`. A screen reader reads `s` as a letter and `/` as "slash".
pub fn spoken(shown: &str) -> String {
    let words = shown.split(' ').collect::<Vec<_>>();
    let mut out: Vec<String> = Vec::with_capacity(words.len());
    for (i, w) in words.iter().enumerate() {
        let one = i > 0 && words[i - 1] == "1";
        let unit = |singular: &str, plural: &str| if one { singular } else { plural }.to_string();
        out.push(match *w {
            "ms" => unit("millisecond", "milliseconds"),
            "s" => unit("second", "seconds"),
            "min" => unit("minute", "minutes"),
            "h" => unit("hour", "hours"),
            "/s" => "per second".into(),
            "/min" => "per minute".into(),
            "/h" => "per hour".into(),
            w if w.ends_with('%') && w.len() > 1 => format!("{} percent", &w[..w.len() - 1]),
            w => w.to_string(),
        });
    }
    out.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_value_is_spoken_in_words_and_units() {
        for (shown, said) in [
            ("60 s", "60 seconds"),
            ("1 s", "1 second"),
            ("2.5 min", "2.5 minutes"),
            ("1 h", "1 hour"),
            ("250 ms", "250 milliseconds"),
            ("30 /min", "30 per minute"),
            ("2.5 /s", "2.5 per second"),
            ("5%", "5 percent"),
            ("16 handlers", "16 handlers"),
            ("off", "off"),
            ("1:30 of 5 min", "1:30 of 5 minutes"),
        ] {
            assert_eq!(spoken(shown), said, "{shown}");
        }
    }

    #[test]
    fn a_duration_reads_as_the_link_writes_it_with_a_space() {
        for (ms, text) in [
            (0, "0 ms"),
            (250, "250 ms"),
            (1_500, "1.5 s"),
            (45_000, "45 s"),
            (90_500, "90.5 s"),
            (135_000, "135 s"),
            (150_000, "2.5 min"),
            (5_400_000, "1.5 h"),
            (61_234, "61,234 ms"),
        ] {
            assert_eq!(duration(ms), text, "{ms}");
            assert_eq!(
                crate::units::parse_ms(&text.replace([' ', ','], ""), 0, u64::MAX),
                Ok(ms),
                "{text} reads back"
            );
        }
    }

    #[test]
    fn a_measured_duration_reads_as_a_whole_one_where_it_is_whole() {
        assert_eq!(duration_f64(150_000.0), duration(150_000));
        assert_eq!(duration_f64(0.42), "0.4 ms");
        assert_eq!(duration_f64(450.0), "450 ms");
        assert_eq!(duration_f64(1_234.567), "1,235 ms");
        assert_eq!(duration_f64(f64::NAN), "-");
        assert_eq!(duration_f64(-1.0), "-");
    }

    #[test]
    fn a_measured_duration_reads_as_a_chosen_one_where_that_is_exact_and_to_a_tenth_elsewhere() {
        for ms in [
            250, 1_500, 45_000, 90_500, 135_000, 150_000, 600_000, 5_400_000,
        ] {
            assert_eq!(duration_about(ms as f64), duration(ms), "{ms}");
        }
        assert_eq!(duration_about(61_234.0), "61.2 s");
        assert_eq!(duration_about(612_345.0), "10.2 min");
        assert_eq!(duration_about(5_432_100.0), "1.5 h");
        assert_eq!(duration_about(1_978_000.0), "33 min");
        assert_eq!(duration_about(999.6), "1000 ms");
        assert_eq!(duration_about(1_234.5), "1.2 s");
        assert_eq!(duration_about(f64::NAN), "-");
    }

    #[test]
    fn a_rate_reads_per_minute_below_one_a_second() {
        assert_eq!(rate(0.0), "none");
        assert_eq!(rate(0.5), "30 /min");
        assert_eq!(rate(2.5), "2.5 /s");
        assert_eq!(rate(1.0 / 3.0 * 10.0), "3.33 /s");
    }

    #[test]
    fn a_count_has_thousands_separators() {
        assert_eq!(count(0), "0");
        assert_eq!(count(999), "999");
        assert_eq!(count(1_000), "1,000");
        assert_eq!(count(1_234_567), "1,234,567");
    }
}
