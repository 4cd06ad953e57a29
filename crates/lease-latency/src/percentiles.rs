//! Percentiles as dashboards show them: `p50 2s, p90 7s, p99 20s`, one per
//! line, `p50=2000ms`, `50%: 2 s`, `median 2s`, or a table's header row of
//! percentiles with one row of numbers under it (`p50 p90 p99` /
//! `2.1 7.4 20`). A number without a unit takes the unit the caller gives
//! (the panel's picker, shown when the text names none).

use thiserror::Error;

use crate::{parse_duration_token, parse_number, Unit};

/// The most and fewest points the quantiles fit takes (docs/MODEL.md).
pub const MIN_POINTS: usize = 2;
pub const MAX_POINTS: usize = 9;

#[derive(Debug, Clone, PartialEq)]
pub struct Percentiles {
    /// (probability, ms), by probability.
    pub points: Vec<[f64; 2]>,
    /// Whether the text named a unit anywhere: if not, every number took
    /// the unit the caller gave, and the panel shows its picker.
    pub unit_named: bool,
}

#[derive(Debug, Clone, PartialEq, Error)]
pub enum PercentileError {
    #[error("no percentiles found: write them as a dashboard shows them, such as p50 2s, p90 7s, p99 20s")]
    Empty,
    #[error("line {line}: {token:?} is not a percentile (write p90, 90% or median)")]
    NotAPercentile { line: usize, token: String },
    #[error("line {line}: {label} has no duration after it (write {label} 7s)")]
    NoDuration { line: usize, label: String },
    #[error("line {line}: {token:?} after {label} is not a duration (write 7s, 7000ms or 1.5m)")]
    NotADuration {
        line: usize,
        label: String,
        token: String,
    },
    #[error("line {line}: {label} is outside 0 to 100 (a percentile is above 0 and below 100)")]
    OutOfRange { line: usize, label: String },
    #[error("line {line}: {label} is a negative duration; durations are 0 or more")]
    Negative { line: usize, label: String },
    #[error("{label} is given twice (lines {first} and {second})")]
    Twice {
        label: String,
        first: usize,
        second: usize,
    },
    #[error("the fit takes {MIN_POINTS} to {MAX_POINTS} percentiles, and the text has {count}")]
    Count { count: usize },
    #[error("the durations must grow with the percentile: {lower} is {lower_ms} but {upper} is {upper_ms}")]
    NotIncreasing {
        lower: String,
        lower_ms: String,
        upper: String,
        upper_ms: String,
    },
    #[error(
        "line {line}: the header names {header} percentiles but the row under it has {row} numbers"
    )]
    RowMismatch {
        line: usize,
        header: usize,
        row: usize,
    },
}

/// `p50`, `P99.9`, `50%`, `median`: the percentile, 0 to 100 exclusive not
/// yet checked. `None`: not a percentile's label.
fn percentile_of(token: &str) -> Option<f64> {
    let t = token.to_ascii_lowercase();
    if t == "median" {
        return Some(50.0);
    }
    let num = t
        .strip_prefix('p')
        .or_else(|| t.strip_suffix('%'))
        .or_else(|| t.strip_suffix("th"))?;
    parse_number(num)
}

/// The label as the messages write it: `p99.9`.
fn label_of(p: f64) -> String {
    format!("p{}", p)
}

/// A line's words: split at spaces, tabs, commas, semicolons, bars, `=`
/// and `:` (a `50%:` label and a `p50=2s` pair both come apart).
fn words(line: &str) -> Vec<&str> {
    line.split(|c: char| c.is_whitespace() || matches!(c, ',' | ';' | '|' | '=' | ':'))
        .filter(|w| !w.is_empty())
        .collect()
}

/// A row of durations (numbers, each optionally followed by a unit word or
/// with one written on): the values and their units. `None` when a word is
/// neither.
fn duration_row(ws: &[&str]) -> Option<Vec<(f64, Option<Unit>)>> {
    let mut out: Vec<(f64, Option<Unit>)> = Vec::new();
    for w in ws {
        if let Some(d) = parse_duration_token(w) {
            out.push(d);
        } else {
            let u = Unit::of_word(w)?;
            match out.last_mut() {
                Some(last) if last.1.is_none() => last.1 = Some(u),
                _ => return None,
            }
        }
    }
    Some(out)
}

/// The percentiles in `text`, each number without a unit taken in `unit`.
pub fn read(text: &str, unit: Unit) -> Result<Percentiles, PercentileError> {
    let lines: Vec<(usize, Vec<&str>)> = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, words(l)))
        .filter(|(_, w)| !w.is_empty())
        .collect();
    // (percentile, value, its unit, line)
    let mut found: Vec<(f64, f64, Option<Unit>, usize)> = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let (line, ws) = &lines[i];
        let header: Option<Vec<f64>> = ws.iter().map(|w| percentile_of(w)).collect();
        if let (Some(header), true) = (header, ws.len() >= 2) {
            // A table: a header of percentiles, a row of numbers under it.
            let Some((row_line, row_ws)) = lines.get(i + 1) else {
                return Err(PercentileError::NoDuration {
                    line: *line,
                    label: ws[ws.len() - 1].to_string(),
                });
            };
            let row = duration_row(row_ws).ok_or_else(|| PercentileError::NotADuration {
                line: *row_line,
                label: ws[0].to_string(),
                token: row_ws.join(" "),
            })?;
            if row.len() != header.len() {
                return Err(PercentileError::RowMismatch {
                    line: *row_line,
                    header: header.len(),
                    row: row.len(),
                });
            }
            for (p, (v, u)) in header.into_iter().zip(row) {
                found.push((p, v, u, *row_line));
            }
            i += 2;
            continue;
        }
        let mut j = 0;
        while j < ws.len() {
            let label = ws[j];
            let Some(p) = percentile_of(label) else {
                return Err(PercentileError::NotAPercentile {
                    line: *line,
                    token: label.to_string(),
                });
            };
            let Some(value) = ws.get(j + 1) else {
                return Err(PercentileError::NoDuration {
                    line: *line,
                    label: label.to_string(),
                });
            };
            let Some((v, mut u)) = parse_duration_token(value) else {
                return Err(PercentileError::NotADuration {
                    line: *line,
                    label: label.to_string(),
                    token: value.to_string(),
                });
            };
            j += 2;
            if u.is_none() {
                if let Some(w) = ws.get(j).and_then(|w| Unit::of_word(w)) {
                    u = Some(w);
                    j += 1;
                }
            }
            found.push((p, v, u, *line));
        }
        i += 1;
    }
    check(found, unit)
}

fn check(
    found: Vec<(f64, f64, Option<Unit>, usize)>,
    unit: Unit,
) -> Result<Percentiles, PercentileError> {
    if found.is_empty() {
        return Err(PercentileError::Empty);
    }
    let unit_named = found.iter().any(|f| f.2.is_some());
    let mut points: Vec<([f64; 2], usize)> = Vec::with_capacity(found.len());
    for (p, v, u, line) in found {
        if !(p > 0.0 && p < 100.0) {
            return Err(PercentileError::OutOfRange {
                line,
                label: label_of(p),
            });
        }
        if v < 0.0 {
            return Err(PercentileError::Negative {
                line,
                label: label_of(p),
            });
        }
        if let Some((_, first)) = points.iter().find(|(q, _)| (q[0] * 100.0 - p).abs() < 1e-9) {
            return Err(PercentileError::Twice {
                label: label_of(p),
                first: *first,
                second: line,
            });
        }
        // p99.9 is 0.999, not the 0.9990000000000001 a division by 100 gives.
        let prob = (p * 1e10).round() / 1e12;
        points.push(([prob, v * u.unwrap_or(unit).ms()], line));
    }
    if !(MIN_POINTS..=MAX_POINTS).contains(&points.len()) {
        return Err(PercentileError::Count {
            count: points.len(),
        });
    }
    points.sort_by(|a, b| a.0[0].total_cmp(&b.0[0]));
    for w in points.windows(2) {
        let ([p, lo], [q, hi]) = (w[0].0, w[1].0);
        if hi <= lo {
            return Err(PercentileError::NotIncreasing {
                lower: label_of(p * 100.0),
                lower_ms: lease_format::display::duration_f64(lo),
                upper: label_of(q * 100.0),
                upper_ms: lease_format::display::duration_f64(hi),
            });
        }
    }
    Ok(Percentiles {
        points: points.into_iter().map(|(p, _)| p).collect(),
        unit_named,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn points(text: &str) -> Vec<[f64; 2]> {
        read(text, Unit::Ms).unwrap().points
    }

    const DASHBOARD: [[f64; 2]; 3] = [[0.5, 2000.0], [0.9, 7000.0], [0.99, 20_000.0]];

    #[test]
    fn every_way_a_dashboard_writes_percentiles_reads_the_same() {
        for text in [
            "p50 2s, p90 7s, p99 20s",
            "p50 2s\np90 7s\np99 20s\n",
            "p50=2000ms p90=7000ms p99=20000ms",
            "50%: 2 s\n90%: 7 s\n99%: 20 s",
            "P50 = 2 sec; P90 = 7 sec; P99 = 20 sec",
            "median 2s, p90 7s, p99 20s",
            "p50 p90 p99\n2s 7s 20s",
            "p99 20s, p50 2s, p90 7s",
            "p50\tp90\tp99\n2000\t7000\t20000",
        ] {
            assert_eq!(points(text), DASHBOARD, "{text}");
        }
    }

    #[test]
    fn a_table_row_without_units_takes_the_chosen_unit() {
        let r = read("p50 p90 p99\n2.1 7.4 20", Unit::S).unwrap();
        assert!(!r.unit_named);
        assert_eq!(r.points, [[0.5, 2100.0], [0.9, 7400.0], [0.99, 20_000.0]]);
        let r = read("p50 2s, p99 3", Unit::Min).unwrap();
        assert!(r.unit_named);
        assert_eq!(r.points, [[0.5, 2000.0], [0.99, 180_000.0]]);
    }

    #[test]
    fn minutes_and_fractional_percentiles_read() {
        assert_eq!(
            points("p50 1m, p99.9 2.5min"),
            [[0.5, 60_000.0], [0.999, 150_000.0]]
        );
    }

    #[test]
    fn bad_percentile_text_says_which_line_and_what_is_wrong() {
        for (text, says) in [
            ("", "no percentiles found"),
            ("   \n  ", "no percentiles found"),
            ("hello world", "line 1: \"hello\" is not a percentile"),
            (
                "p50 2s\np90 soon",
                "line 2: \"soon\" after p90 is not a duration",
            ),
            ("p50 2s, p90", "line 1: p90 has no duration"),
            ("p50 2s, p100 9s", "line 1: p100 is outside 0 to 100"),
            ("p0 1s, p50 2s", "p0 is outside"),
            ("p50 -2s, p90 7s", "p50 is a negative duration"),
            ("p50 2s\np50 3s", "p50 is given twice (lines 1 and 2)"),
            (
                "p50 2s",
                "the fit takes 2 to 9 percentiles, and the text has 1",
            ),
            (
                "p10 1, p20 2, p30 3, p40 4, p50 5, p60 6, p70 7, p80 8, p90 9, p99 10",
                "the text has 10",
            ),
            (
                "p50 7s, p90 2s",
                "must grow with the percentile: p50 is 7 s but p90 is 2 s",
            ),
            (
                "p50 p90 p99\n2 7",
                "line 2: the header names 3 percentiles but the row under it has 2",
            ),
            ("p50 p90\n2 seven", "line 2"),
            ("p50 2h, p90 3h", "\"2h\" after p50 is not a duration"),
        ] {
            let e = read(text, Unit::Ms).unwrap_err().to_string();
            assert!(e.contains(says), "{text:?}: {e}");
        }
    }
}
