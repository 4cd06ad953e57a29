//! Histogram buckets as monitoring systems export them, read into per-bucket
//! counts (`{"dist":"histogram","buckets":[[upper_ms,count],...]}`):
//!
//! - Prometheus' text (`..._bucket{le="500"} 120`): cumulative counts, each
//!   bucket counting everything up to its bound, with a last `le="+Inf"`;
//! - rows of `upper,count` (tabs or spaces also part them), a per-bucket
//!   count each, or cumulative when the header says `le` or `cumulative`;
//! - Cloud Monitoring's JSON of a distribution (Pub/Sub's
//!   `subscription/ack_latencies`, in ms): `bucketOptions` (exponential,
//!   linear or explicit bounds) and `bucketCounts`, summed over every point
//!   of the series that shares the first point's bounds.
//!
//! A scenario's histogram has finite bounds, so a last `+Inf` bucket that
//! counts anything is spread up to twice the last finite bound, and the
//! reading says so.

use serde::Deserialize;
use serde_json::Value;
use thiserror::Error;

use crate::{parse_number, Unit};

#[derive(Debug, Clone, PartialEq)]
pub struct Histogram {
    /// (upper bound in ms, count in this bucket alone), by bound.
    pub buckets: Vec<[f64; 2]>,
    /// What the reading had to assume, in a sentence (the `+Inf` bucket).
    pub note: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Error)]
pub enum HistogramError {
    #[error("no buckets found: paste Prometheus buckets (le=\"500\"}} 120), rows of upper,count, or a distribution's JSON")]
    Empty,
    #[error("line {line}: {text:?} is not a bucket (write le=\"500\"}} 120 or 500,120)")]
    NotABucket { line: usize, text: String },
    #[error("line {line}: the bucket up to {upper} comes after the one up to {previous}: buckets must be sorted by their upper bound, smallest first")]
    Unsorted {
        line: usize,
        upper: String,
        previous: String,
    },
    #[error("line {line}: the count {count} is negative; counts are 0 or more")]
    NegativeCount { line: usize, count: String },
    #[error("line {line}: the cumulative count {count} is below the bucket before it ({previous}); Prometheus' counts only grow")]
    CumulativeFalls {
        line: usize,
        count: String,
        previous: String,
    },
    #[error("line {line}: the upper bound {upper} is not above 0")]
    NotPositive { line: usize, upper: String },
    #[error("every bucket counts 0: there is nothing to draw from")]
    AllZero,
    #[error("the distribution's JSON {0}")]
    Json(String),
}

/// (upper, count as given, line); `upper` may be infinite.
type Row = (f64, f64, usize);

/// The buckets in `text`; bounds without a unit are in `unit`.
pub fn read(text: &str, unit: Unit) -> Result<Histogram, HistogramError> {
    let trimmed = text.trim_start();
    if trimmed.starts_with('{') || trimmed.starts_with('[') {
        return from_json(trimmed, unit);
    }
    let (rows, cumulative) = rows_of(text)?;
    finish(rows, cumulative, unit)
}

fn bound_of(text: &str) -> Option<f64> {
    let t = text.trim().trim_matches('"');
    match t.to_ascii_lowercase().as_str() {
        "+inf" | "inf" | "infinity" | "+infinity" => Some(f64::INFINITY),
        _ => parse_number(t),
    }
}

fn rows_of(text: &str) -> Result<(Vec<Row>, bool), HistogramError> {
    let mut rows = Vec::new();
    let mut cumulative = false;
    let mut seen_header = false;
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let l = raw.trim();
        if l.is_empty() || l.starts_with('#') {
            continue;
        }
        let bad = || HistogramError::NotABucket {
            line,
            text: l.to_string(),
        };
        if let Some(at) = l.find("le=\"") {
            // Prometheus: `name_bucket{...,le="500",...} 120 [timestamp]`.
            cumulative = true;
            let rest = &l[at + 4..];
            let end = rest.find('"').ok_or_else(bad)?;
            let upper = bound_of(&rest[..end]).ok_or_else(bad)?;
            let after = rest[end + 1..]
                .split_once('}')
                .map_or(&rest[end + 1..], |(_, a)| a);
            let count = after
                .split_whitespace()
                .next()
                .and_then(parse_number)
                .ok_or_else(bad)?;
            rows.push((upper, count, line));
            continue;
        }
        if l.contains("_sum") || l.contains("_count") {
            // Prometheus' totals beside the buckets.
            continue;
        }
        let cells: Vec<&str> = l
            .split(|c: char| c == ',' || c == ';' || c.is_whitespace())
            .filter(|c| !c.is_empty())
            .collect();
        let row = match cells.as_slice() {
            [u, c] => bound_of(u).zip(parse_number(c)),
            _ => None,
        };
        match row {
            Some((u, c)) => rows.push((u, c, line)),
            None if rows.is_empty() && !seen_header => {
                seen_header = true;
                let h = l.to_ascii_lowercase();
                cumulative = h.contains("cumulative")
                    || h.split(|c: char| !c.is_ascii_alphanumeric())
                        .any(|w| w == "le");
            }
            None => return Err(bad()),
        }
    }
    Ok((rows, cumulative))
}

fn finish(rows: Vec<Row>, cumulative: bool, unit: Unit) -> Result<Histogram, HistogramError> {
    if rows.is_empty() {
        return Err(HistogramError::Empty);
    }
    let mut out: Vec<[f64; 2]> = Vec::with_capacity(rows.len());
    let mut last_cumulative = 0.0;
    let mut inf_count = None;
    for (k, &(upper, count, line)) in rows.iter().enumerate() {
        if count < 0.0 {
            return Err(HistogramError::NegativeCount {
                line,
                count: count.to_string(),
            });
        }
        if upper <= 0.0 {
            return Err(HistogramError::NotPositive {
                line,
                upper: upper.to_string(),
            });
        }
        if k > 0 {
            let previous = rows[k - 1].0;
            if upper <= previous {
                let show = |x: f64| {
                    if x.is_finite() {
                        x.to_string()
                    } else {
                        "+Inf".into()
                    }
                };
                return Err(HistogramError::Unsorted {
                    line,
                    upper: show(upper),
                    previous: show(previous),
                });
            }
        }
        let own = if cumulative {
            if count < last_cumulative {
                return Err(HistogramError::CumulativeFalls {
                    line,
                    count: count.to_string(),
                    previous: last_cumulative.to_string(),
                });
            }
            let own = count - last_cumulative;
            last_cumulative = count;
            own
        } else {
            count
        };
        if upper.is_finite() {
            out.push([upper * unit.ms(), own]);
        } else {
            inf_count = Some(own);
        }
    }
    if out.iter().all(|b| b[1] == 0.0) && inf_count.is_none_or(|c| c == 0.0) {
        return Err(HistogramError::AllZero);
    }
    let mut note = None;
    match (inf_count, out.last().map(|b| b[0])) {
        (Some(c), Some(last)) if c > 0.0 => {
            out.push([last * 2.0, c]);
            note = Some(format!(
                "{} above the last bound ({}) are spread up to twice it ({}): a histogram cannot say how far they go.",
                plural(c),
                lease_format::display::duration_f64(last),
                lease_format::display::duration_f64(last * 2.0),
            ));
        }
        (Some(_), None) => return Err(HistogramError::AllZero),
        _ => {}
    }
    // Buckets past the last that counts anything draw nothing: dropped, so
    // that the scenario's list stays short.
    while out.len() > 1 && out.last().is_some_and(|b| b[1] == 0.0) {
        out.pop();
    }
    Ok(Histogram { buckets: out, note })
}

fn plural(count: f64) -> String {
    let n = count.to_string();
    if count == 1.0 {
        format!("{n} message")
    } else {
        format!("{n} messages")
    }
}

/// A number as Cloud Monitoring writes it: an int64 as a string, or a
/// JSON number.
#[derive(Debug, Clone, Copy, PartialEq, Deserialize)]
#[serde(try_from = "Written")]
struct Number(f64);

#[derive(Deserialize)]
#[serde(untagged)]
enum Written {
    Number(f64),
    Text(String),
}

impl TryFrom<Written> for Number {
    type Error = String;
    fn try_from(w: Written) -> Result<Number, String> {
        match w {
            Written::Number(x) => Ok(Number(x)),
            Written::Text(t) => parse_number(&t)
                .map(Number)
                .ok_or_else(|| format!("{t:?} is not a number")),
        }
    }
}

/// A distribution's bounds (Cloud Monitoring's `BucketOptions`): one of
/// three kinds.
#[derive(Debug, PartialEq, Deserialize)]
enum BucketOptions {
    #[serde(rename = "exponentialBuckets", rename_all = "camelCase")]
    Exponential {
        num_finite_buckets: Number,
        growth_factor: Number,
        scale: Number,
    },
    #[serde(rename = "linearBuckets", rename_all = "camelCase")]
    Linear {
        num_finite_buckets: Number,
        width: Number,
        offset: Number,
    },
    #[serde(rename = "explicitBuckets")]
    Explicit { bounds: Vec<Number> },
}

/// One distribution (a point's `distributionValue`): its bounds and the
/// count of each bucket, trailing empty ones left out.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Distribution {
    bucket_options: BucketOptions,
    #[serde(default)]
    bucket_counts: Vec<Number>,
}

/// The upper bounds of a distribution's buckets, the overflow one infinite.
fn bounds_of(options: &BucketOptions) -> Result<Vec<f64>, HistogramError> {
    let json = |what: &str| HistogramError::Json(what.to_string());
    let mut bounds: Vec<f64> = match *options {
        BucketOptions::Exponential {
            num_finite_buckets: Number(n),
            growth_factor: Number(g),
            scale: Number(s),
        } => {
            if !(1.0..=10_000.0).contains(&n) || g <= 1.0 || s <= 0.0 {
                return Err(json("has exponentialBuckets outside 1 to 10,000 buckets, growthFactor above 1 and scale above 0"));
            }
            (0..=n as i32).map(|i| s * g.powi(i)).collect()
        }
        BucketOptions::Linear {
            num_finite_buckets: Number(n),
            width: Number(w),
            offset: Number(o),
        } => {
            if !(1.0..=10_000.0).contains(&n) || w <= 0.0 {
                return Err(json(
                    "has linearBuckets outside 1 to 10,000 buckets and a width above 0",
                ));
            }
            (0..=n as i32).map(|i| o + w * f64::from(i)).collect()
        }
        BucketOptions::Explicit { ref bounds } => bounds.iter().map(|b| b.0).collect(),
    };
    bounds.push(f64::INFINITY);
    Ok(bounds)
}

/// Every object holding `bucketCounts`, depth first: the distribution may
/// be pasted alone or inside a time series list's answer.
fn distributions<'a>(v: &'a Value, out: &mut Vec<&'a Value>) {
    match v {
        Value::Object(o) if o.contains_key("bucketCounts") => out.push(v),
        Value::Object(o) => o.values().for_each(|c| distributions(c, out)),
        Value::Array(a) => a.iter().for_each(|c| distributions(c, out)),
        _ => {}
    }
}

fn from_json(text: &str, unit: Unit) -> Result<Histogram, HistogramError> {
    let value: Value = serde_json::from_str(text)
        .map_err(|e| HistogramError::Json(format!("is not JSON: {e}")))?;
    let mut found = Vec::new();
    distributions(&value, &mut found);
    if found.is_empty() {
        return Err(HistogramError::Json(
            "has no \"bucketCounts\": export the distribution itself (a time series' distributionValue)".into(),
        ));
    }
    let found = found
        .into_iter()
        .map(|d| {
            Distribution::deserialize(d)
                .map_err(|e| HistogramError::Json(format!("has a distribution that {e}")))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let options = &found[0].bucket_options;
    let bounds = bounds_of(options)?;
    let mut counts = vec![0.0; bounds.len()];
    for d in found.iter().filter(|d| d.bucket_options == *options) {
        if d.bucket_counts.len() > counts.len() {
            return Err(HistogramError::Json(format!(
                "has {} bucketCounts for {} buckets",
                d.bucket_counts.len(),
                counts.len()
            )));
        }
        for (k, Number(c)) in d.bucket_counts.iter().enumerate() {
            if *c < 0.0 {
                return Err(HistogramError::Json(format!(
                    "has a negative bucket count ({k})"
                )));
            }
            counts[k] += c;
        }
    }
    // The underflow bucket (below the first bound) starts at 0: durations
    // are not negative. Line numbers are bucket numbers, from 1.
    let rows: Vec<Row> = bounds
        .into_iter()
        .zip(counts)
        .enumerate()
        .map(|(k, (u, c))| (u, c, k + 1))
        .collect();
    finish(rows, false, unit)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prometheus_cumulative_buckets_become_per_bucket_counts() {
        let text = "# HELP job_seconds How long\n\
            job_seconds_bucket{le=\"100\"} 10\n\
            job_seconds_bucket{queue=\"a\",le=\"500\"} 120\n\
            job_seconds_bucket{le=\"1000\"} 150\n\
            job_seconds_bucket{le=\"+Inf\"} 150\n\
            job_seconds_sum 12345\n\
            job_seconds_count 150\n";
        let h = read(text, Unit::Ms).unwrap();
        assert_eq!(h.buckets, [[100.0, 10.0], [500.0, 110.0], [1000.0, 30.0]]);
        assert_eq!(h.note, None);
    }

    #[test]
    fn a_counting_inf_bucket_is_spread_up_to_twice_the_last_bound() {
        let h = read("le=\"0.5\" 10\nle=\"2\" 30\nle=\"+Inf\" 34", Unit::S).unwrap();
        assert_eq!(h.buckets, [[500.0, 10.0], [2000.0, 20.0], [4000.0, 4.0]]);
        assert!(h
            .note
            .unwrap()
            .contains("4 messages above the last bound (2 s)"));
    }

    #[test]
    fn rows_of_upper_and_count_are_per_bucket_unless_the_header_says_cumulative() {
        let h = read("upper_ms,count\n100,5\n200,7\n400,1", Unit::Ms).unwrap();
        assert_eq!(h.buckets, [[100.0, 5.0], [200.0, 7.0], [400.0, 1.0]]);
        let h = read("le,cumulative count\n100,5\n200,7\n400,8", Unit::Ms).unwrap();
        assert_eq!(h.buckets, [[100.0, 5.0], [200.0, 2.0], [400.0, 1.0]]);
        let h = read("100\t5\n200 7", Unit::S).unwrap();
        assert_eq!(h.buckets, [[100_000.0, 5.0], [200_000.0, 7.0]]);
    }

    #[test]
    fn a_pubsub_ack_latency_distribution_reads_from_its_json() {
        // Cloud Monitoring's timeSeries.list answer for
        // subscription/ack_latencies: exponential buckets, counts as strings,
        // trailing empty buckets left out, two points summed.
        let text = r#"{"timeSeries":[{"metric":{"type":"pubsub.googleapis.com/subscription/ack_latencies"},
            "points":[
              {"value":{"distributionValue":{"count":"6","bucketOptions":{"exponentialBuckets":{"numFiniteBuckets":4,"growthFactor":2,"scale":100}},"bucketCounts":["0","1","2","3"]}}},
              {"value":{"distributionValue":{"count":"2","bucketOptions":{"exponentialBuckets":{"numFiniteBuckets":4,"growthFactor":2,"scale":100}},"bucketCounts":["1","0","1"]}}}
            ]}]}"#;
        let h = read(text, Unit::Ms).unwrap();
        assert_eq!(
            h.buckets,
            [[100.0, 1.0], [200.0, 1.0], [400.0, 3.0], [800.0, 3.0]]
        );
    }

    #[test]
    fn linear_and_explicit_bounds_read_from_a_distributions_json() {
        let linear = r#"{"bucketOptions":{"linearBuckets":{"numFiniteBuckets":"2","width":100,"offset":50}},"bucketCounts":["1","4","1"]}"#;
        let h = read(linear, Unit::Ms).unwrap();
        assert_eq!(h.buckets, [[50.0, 1.0], [150.0, 4.0], [250.0, 1.0]]);
        let explicit =
            r#"{"bucketOptions":{"explicitBuckets":{"bounds":[50,"250"]}},"bucketCounts":[1,2]}"#;
        let h = read(explicit, Unit::Ms).unwrap();
        assert_eq!(h.buckets, [[50.0, 1.0], [250.0, 2.0]]);
    }

    #[test]
    fn a_distributions_json_names_what_it_cannot_read() {
        for (text, says) in [
            (r#"{"bucketCounts":["1"]}"#, "missing field `bucketOptions`"),
            (
                r#"{"bucketOptions":{"logBuckets":{}},"bucketCounts":["1"]}"#,
                "explicitBuckets",
            ),
            (
                r#"{"bucketOptions":{"explicitBuckets":{"bounds":[100]}},"bucketCounts":["many"]}"#,
                "\"many\" is not a number",
            ),
            (
                r#"{"bucketOptions":{"exponentialBuckets":{"numFiniteBuckets":4,"growthFactor":1,"scale":100}},"bucketCounts":["1"]}"#,
                "growthFactor above 1",
            ),
            (
                r#"{"bucketOptions":{"explicitBuckets":{"bounds":[100]}},"bucketCounts":["1","2","3"]}"#,
                "has 3 bucketCounts for 2 buckets",
            ),
        ] {
            let e = read(text, Unit::Ms).unwrap_err().to_string();
            assert!(e.contains(says), "{text}: {e}");
        }
    }

    #[test]
    fn bad_buckets_say_which_line_and_what_is_wrong() {
        for (text, says) in [
            ("", "no buckets found"),
            (
                "le=\"500\" 10\nle=\"100\" 12",
                "line 2: the bucket up to 100 comes after the one up to 500",
            ),
            (
                "100,5\n50,3",
                "line 2: the bucket up to 50 comes after the one up to 100",
            ),
            ("100,5\n200,-3", "line 2: the count -3 is negative"),
            (
                "le=\"100\" 10\nle=\"200\" 5",
                "line 2: the cumulative count 5 is below the bucket before it (10)",
            ),
            ("100,0\n200,0", "every bucket counts 0"),
            ("100,5\nsoon,3", "line 2: \"soon,3\" is not a bucket"),
            ("0,5\n100,3", "line 1: the upper bound 0 is not above 0"),
            (
                "le=\"+Inf\" 3\nle=\"100\" 4",
                "line 2: the bucket up to 100 comes after the one up to +Inf",
            ),
            ("{\"x\": 1}", "has no \"bucketCounts\""),
            ("{not json", "is not JSON"),
        ] {
            let e = read(text, Unit::Ms).unwrap_err().to_string();
            assert!(e.contains(says), "{text:?}: {e}");
        }
    }
}
