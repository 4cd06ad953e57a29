//! A file of durations (CSV, TSV or one number per line) read in the
//! background worker, so that a file of millions of lines never holds up the
//! page: one column picked by its header, its unit read from the header
//! (`latency_ms`, `time (s)`, `seconds`) or the one chosen, at most
//! `lease_latency::durations::MAX_VALUES` values (reading stops at the
//! limit), kept as the 256 quantiles the scenario's `empirical` work takes.

use std::io::Read;

use lease_latency::durations::{unit_of_header, MAX_VALUES};
use lease_latency::{parse_duration_token, Unit};
use serde::{Deserialize, Serialize};

use crate::Reply;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DurationsJob {
    pub id: u32,
    /// The column's header, or `None` for the worker's pick: the first
    /// whose header names a unit, else the first of numbers.
    pub column: Option<String>,
    /// The unit of a column whose header names none (`ms`, `s`, `m`).
    pub unit: String,
    /// The file's size in bytes, for the progress.
    pub bytes: u64,
}

/// A file read: what the panel shows and the scenario keeps.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DurationsRead {
    /// Every column's header (`column 1`, ... for a file without one).
    pub columns: Vec<String>,
    pub column: String,
    /// The unit used, and whether the header named it.
    pub unit: String,
    pub unit_from_header: bool,
    pub count: u64,
    /// The compact form: `lease_sim::fit::compact_samples`.
    pub samples_ms: Vec<f64>,
}

/// Progress is posted every this many lines.
const PROGRESS_EVERY: u64 = 50_000;

/// The delimiter the first line uses most: tab, semicolon or comma.
pub fn delimiter_of(first_line: &[u8]) -> u8 {
    let count = |d: u8| first_line.iter().filter(|b| **b == d).count();
    [b'\t', b';', b',']
        .into_iter()
        .max_by_key(|d| count(*d))
        .filter(|d| count(*d) > 0)
        .unwrap_or(b',')
}

fn is_number(cell: &str) -> bool {
    parse_duration_token(cell.trim()).is_some()
}

/// Reads the durations of `input`, whose first line is `first_line`
/// (for the delimiter), posting `Reply::DurationsProgress` on the way.
pub fn read(
    job: &DurationsJob,
    first_line: &[u8],
    input: impl Read,
    progress: &mut dyn FnMut(Reply),
) -> Result<DurationsRead, String> {
    let chosen_unit = Unit::from_name(&job.unit).unwrap_or(Unit::Ms);
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .trim(csv::Trim::All)
        .delimiter(delimiter_of(first_line))
        .buffer_capacity(1 << 20)
        .from_reader(input);
    let mut record = csv::StringRecord::new();
    let mut columns: Vec<String> = Vec::new();
    let mut pick: Option<(usize, Unit, bool)> = None;
    let mut ms: Vec<f64> = Vec::new();
    let mut line: u64 = 0;
    loop {
        match reader.read_record(&mut record) {
            Ok(true) => {}
            Ok(false) => break,
            Err(e) => {
                return Err(format!(
                    "line {}: the file is not CSV or text the worker can read ({e})",
                    line + 1
                ))
            }
        }
        line = record.position().map_or(line + 1, |p| p.line());
        if record.iter().all(|c| c.is_empty()) {
            continue;
        }
        if pick.is_none() {
            let header = !record.iter().any(is_number);
            columns = if header {
                record.iter().map(str::to_string).collect()
            } else {
                (1..=record.len()).map(|i| format!("column {i}")).collect()
            };
            let index = match &job.column {
                Some(name) => columns.iter().position(|c| c == name).ok_or_else(|| {
                    format!(
                        "the file has no column {name:?} (its columns: {})",
                        columns.join(", ")
                    )
                })?,
                None if header => columns
                    .iter()
                    .position(|c| unit_of_header(c).is_some())
                    .unwrap_or(0),
                // Without a header, the first column of numbers.
                None => record.iter().position(is_number).unwrap_or(0),
            };
            let named = if header {
                unit_of_header(&columns[index])
            } else {
                None
            };
            pick = Some((index, named.unwrap_or(chosen_unit), named.is_some()));
            if header {
                continue;
            }
        }
        let Some((index, unit, _)) = pick else {
            continue;
        };
        let Some(cell) = record.get(index).filter(|c| !c.is_empty()) else {
            continue;
        };
        let Some((v, own)) = parse_duration_token(cell) else {
            return Err(format!(
                "line {line}: {cell:?} in the column {:?} is not a number; pick a column of durations",
                columns[index]
            ));
        };
        if v < 0.0 {
            return Err(format!(
                "line {line}: {cell} is a negative duration; durations are 0 or more"
            ));
        }
        if ms.len() == MAX_VALUES {
            return Err(format!(
                "more than {} durations: the page reads at most {} (it stopped reading at line {line})",
                lease_format::display::count(MAX_VALUES as u64),
                lease_format::display::count(MAX_VALUES as u64),
            ));
        }
        ms.push(v * own.unwrap_or(unit).ms());
        if (ms.len() as u64).is_multiple_of(PROGRESS_EVERY) {
            progress(Reply::DurationsProgress {
                id: job.id,
                read_bytes: reader.position().byte(),
                total_bytes: job.bytes,
                values: ms.len() as u64,
            });
        }
    }
    let Some((index, unit, unit_from_header)) = pick.filter(|_| !ms.is_empty()) else {
        return Err(match columns.get(pick.map_or(0, |p| p.0)) {
            Some(c) if pick.is_some() => format!("the column {c:?} holds no numbers"),
            _ => "the file holds no numbers".into(),
        });
    };
    let samples_ms = if ms.len() > lease_sim::fit::COMPACT_QUANTILES {
        lease_sim::fit::compact_samples(&ms, lease_sim::fit::COMPACT_QUANTILES)
    } else {
        ms.sort_by(f64::total_cmp);
        ms.clone()
    };
    Ok(DurationsRead {
        column: columns[index].clone(),
        columns,
        unit: unit.name().into(),
        unit_from_header,
        count: ms.len() as u64,
        samples_ms,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn job(column: Option<&str>, unit: &str) -> DurationsJob {
        DurationsJob {
            id: 1,
            column: column.map(str::to_string),
            unit: unit.into(),
            bytes: 0,
        }
    }

    fn read_text(job: &DurationsJob, text: &str) -> Result<DurationsRead, String> {
        let first = text.lines().next().unwrap_or("").as_bytes();
        read(job, first, text.as_bytes(), &mut |_| {})
    }

    #[test]
    fn a_header_picks_the_column_and_names_its_unit() {
        let r = read_text(&job(None, "ms"), "id,latency_s,queue\n1,1.5,a\n2,2.5,b\n").unwrap();
        assert_eq!(r.columns, ["id", "latency_s", "queue"]);
        assert_eq!(r.column, "latency_s");
        assert_eq!((r.unit.as_str(), r.unit_from_header), ("s", true));
        assert_eq!(r.samples_ms, [1500.0, 2500.0]);
    }

    #[test]
    fn a_chosen_column_and_unit_are_read() {
        let text = "a\tb\n1\t10\n2\t20\n";
        let r = read_text(&job(Some("b"), "s"), text).unwrap();
        assert_eq!(r.samples_ms, [10_000.0, 20_000.0]);
        assert!(!r.unit_from_header);
    }

    #[test]
    fn one_number_per_line_needs_no_header() {
        let r = read_text(&job(None, "ms"), "30\n10\n\n20\n").unwrap();
        assert_eq!(r.columns, ["column 1"]);
        assert_eq!(r.samples_ms, [10.0, 20.0, 30.0]);
        assert_eq!(r.count, 3);
    }

    #[test]
    fn a_hundred_thousand_durations_are_kept_as_256_quantiles_with_progress() {
        let text: String = std::iter::once("duration_ms\n".to_string())
            .chain((1..=100_000).map(|i| format!("{i}\n")))
            .collect();
        let mut posted = 0;
        let r = read(
            &job(None, "s"),
            b"duration_ms",
            text.as_bytes(),
            &mut |_| posted += 1,
        )
        .unwrap();
        assert_eq!(r.count, 100_000);
        assert_eq!(r.samples_ms.len(), 256);
        assert_eq!(posted, 2);
        assert_eq!(r.unit, "ms");
    }

    #[test]
    fn files_that_are_not_durations_are_refused_with_the_line() {
        for (text, column, says) in [
            (
                "name,queue\na,b\nc,d\n",
                None,
                "line 2: \"a\" in the column \"name\" is not a number",
            ),
            ("", None, "the file holds no numbers"),
            (
                "latency_ms\n",
                None,
                "the column \"latency_ms\" holds no numbers",
            ),
            ("ms\n5\n-3\n", None, "line 3: -3 is a negative duration"),
            (
                "a,b\n1,2\n",
                Some("c"),
                "the file has no column \"c\" (its columns: a, b)",
            ),
        ] {
            let e = read_text(&job(column, "ms"), text).unwrap_err();
            assert!(e.contains(says), "{text:?}: {e}");
        }
    }

    #[test]
    fn reading_stops_at_a_million_values() {
        let text = "1\n".repeat(MAX_VALUES + 10);
        let e = read_text(&job(None, "ms"), &text).unwrap_err();
        assert!(e.contains("at most 1,000,000"), "{e}");
        assert!(e.contains(&format!("line {}", MAX_VALUES + 1)), "{e}");
    }
}
