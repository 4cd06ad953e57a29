//! Reads a scenario file and says exactly where it is wrong. serde_path_to_error
//! tracks the dotted path of the field serde was reading when it failed, so a
//! negative timeout reads
//! `broker.visibility_timeout_ms: invalid value: integer -5, expected u64 (line 3, column 40)`,
//! and an unknown fence lists the fences there are (serde's own message).
//! A file that reads cleanly is then checked by `validate`.
//!
//! `parse_scenario_without_path` gives line and column but no path: the
//! page reads with it and asks the background worker for the field
//! (`lease_jobs::import_job`).

use crate::scenario::Scenario;
use crate::validate::validate;
use crate::SimError;

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ParseError {
    /// The text is not JSON at all (or stops early).
    #[error("not valid JSON: {message} (line {line}, column {column})")]
    Syntax {
        message: String,
        line: usize,
        column: usize,
    },
    /// JSON, but a field has the wrong type or an unknown value.
    #[error("{path}: {message} (line {line}, column {column})")]
    Field {
        /// Dotted path, `broker.visibility_timeout_ms`, `faults[1].kind`;
        /// `(top level)` when the document itself is the wrong shape.
        path: String,
        message: String,
        line: usize,
        column: usize,
    },
    /// JSON, but a value has the wrong type or an unknown value, read by
    /// `parse_scenario_without_path`, which does not track the field.
    #[error("{message} (line {line}, column {column})")]
    Value {
        message: String,
        line: usize,
        column: usize,
    },
    /// Well-formed, but a value is out of range or the run is too large.
    #[error(transparent)]
    Invalid(#[from] SimError),
}

impl ParseError {
    /// The dotted field path the error is about, when there is one.
    pub fn field(&self) -> Option<&str> {
        match self {
            ParseError::Syntax { .. } | ParseError::Value { .. } => None,
            ParseError::Field { path, .. } => Some(path),
            ParseError::Invalid(SimError::Invalid { field, .. }) => Some(field),
            ParseError::Invalid(_) => None,
        }
    }
}

/// serde_json appends " at line L column C" to its messages; we print the
/// position our own way, after the path, so strip theirs.
fn bare_message(e: &serde_json::Error) -> String {
    let full = e.to_string();
    let suffix = format!(" at line {} column {}", e.line(), e.column());
    match full.strip_suffix(&suffix) {
        Some(m) => m.to_string(),
        None => full,
    }
}

/// A syntax error, or `Some(path)`'s field error.
fn classify(inner: serde_json::Error, path: Option<String>) -> ParseError {
    let message = bare_message(&inner);
    let (line, column) = (inner.line(), inner.column());
    if inner.is_syntax() || inner.is_eof() || inner.is_io() {
        return ParseError::Syntax {
            message,
            line,
            column,
        };
    }
    match path {
        None => ParseError::Value {
            message,
            line,
            column,
        },
        // serde accepts a struct written as an array of its fields, so
        // `[1, 2]` fails at "[0]" with a message about the first field.
        Some(path) if path.starts_with('[') => ParseError::Field {
            path: "(top level)".to_string(),
            message:
                "a scenario is a JSON object ({ \"name\": ..., \"broker\": ... }), not an array"
                    .to_string(),
            line,
            column,
        },
        Some(path) => ParseError::Field {
            path: if path == "." {
                "(top level)".to_string()
            } else {
                path
            },
            message,
            line,
            column,
        },
    }
}

/// Parse the JSON only, without range checks: for a page that wants to show
/// the scenario even while one slider is out of range.
pub fn parse_unchecked(json: &str) -> Result<Scenario, ParseError> {
    let de = &mut serde_json::Deserializer::from_str(json);
    serde_path_to_error::deserialize(de).map_err(|e| {
        let path = e.path().to_string();
        classify(e.into_inner(), Some(path))
    })
}

/// Parse a scenario file and check every field: what the command line and
/// the page's background worker use.
pub fn parse_scenario(json: &str) -> Result<Scenario, ParseError> {
    let scenario = parse_unchecked(json)?;
    validate(&scenario)?;
    Ok(scenario)
}

/// `parse_scenario` without the field's path in a type error
/// (`ParseError::Value`, with line and column). Tracking the path wraps every
/// deserialiser of the scenario's types; this reader does without it.
pub fn parse_scenario_without_path(json: &str) -> Result<Scenario, ParseError> {
    let scenario = serde_json::from_str(json).map_err(|e| classify(e, None))?;
    validate(&scenario)?;
    Ok(scenario)
}

/// Fields of the file that the scenario type does not know, by dotted path
/// (`brokr`, `workers.heartbeat.interval`): they are ignored, since files
/// written by a later version may carry fields this one lacks, but a typo
/// among them silently leaves the default in place, so callers warn.
///
/// Found by comparing the file with the parsed scenario written back: a key
/// the scenario does not write back was not read. Keys whose value is `null`
/// or `""` are not reported (the scenario omits such defaults itself). They
/// come in the file's order.
pub fn unknown_fields(json: &str, scenario: &Scenario) -> Vec<String> {
    fn walk(
        given: &serde_json::Value,
        known: &serde_json::Value,
        path: &str,
        out: &mut Vec<String>,
    ) {
        use serde_json::Value;
        match (given, known) {
            (Value::Object(g), Value::Object(k)) => {
                for (key, v) in g {
                    let p = if path.is_empty() {
                        key.clone()
                    } else {
                        format!("{path}.{key}")
                    };
                    match k.get(key) {
                        Some(kv) => walk(v, kv, &p, out),
                        None if v.is_null() || v.as_str() == Some("") => {}
                        None => out.push(p),
                    }
                }
            }
            (Value::Array(g), Value::Array(k)) => {
                for (i, (gv, kv)) in g.iter().zip(k).enumerate() {
                    walk(gv, kv, &format!("{path}[{i}]"), out);
                }
            }
            _ => {}
        }
    }
    // Through text rather than `to_value`: one serialiser of the scenario's
    // types, the one that writes text, serves every caller.
    let known = serde_json::to_string(scenario).and_then(|t| serde_json::from_str(&t));
    let (Ok(given), Ok(known)) = (serde_json::from_str::<serde_json::Value>(json), known) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    // Listed as walked: each object's keys in order (serde_json's map is
    // sorted), array items by index, without a sort of the paths.
    walk(&given, &known, "", &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::{Dist, Fence};

    #[test]
    fn an_empty_object_is_the_default_scenario() {
        assert_eq!(parse_scenario("{}"), Ok(Scenario::default()));
    }

    #[test]
    fn a_negative_timeout_names_its_path_and_position() {
        let json = "{\n  \"name\": \"x\",\n  \"broker\": { \"visibility_timeout_ms\": -5 }\n}";
        let e = parse_scenario(json).unwrap_err();
        assert_eq!(e.field(), Some("broker.visibility_timeout_ms"));
        assert_eq!(
            e.to_string(),
            "broker.visibility_timeout_ms: invalid value: integer `-5`, expected u64 (line 3, column 41)"
        );
    }

    #[test]
    fn an_unknown_fence_lists_the_fences() {
        let e = parse_scenario(r#"{"store": {"fence": "lock"}}"#).unwrap_err();
        assert_eq!(e.field(), Some("store.fence"));
        let msg = e.to_string();
        for f in [
            "none",
            "check_then_write",
            "unique_constraint",
            "fencing_token",
        ] {
            assert!(msg.contains(f), "{msg}");
        }
    }

    #[test]
    fn a_run_override_s_unknown_outcome_names_its_field() {
        let e = parse_scenario(
            r#"{"faults": [{"kind": "crash", "worker": 0, "at_ms": 1}, {"kind": "run", "message": 0, "receipt": 1, "outcome": "explode"}]}"#,
        )
        .unwrap_err();
        assert_eq!(e.field(), Some("faults[1].outcome"));
        assert!(e.to_string().contains("`hang`, `fail`, `lose_ack`"), "{e}");
        let e = parse_scenario(r#"{"faults": [{"kind": "run", "message": 0, "outcome": "hang"}]}"#)
            .unwrap_err();
        assert!(e.to_string().contains("missing field `receipt`"), "{e}");
    }

    #[test]
    fn without_the_path_a_type_error_gives_its_line_and_column() {
        let json = "{\n  \"name\": \"x\",\n  \"broker\": { \"visibility_timeout_ms\": -5 }\n}";
        let e = parse_scenario_without_path(json).unwrap_err();
        assert_eq!(e.field(), None);
        assert_eq!(
            e.to_string(),
            "invalid value: integer `-5`, expected u64 (line 3, column 41)"
        );
        // Syntax and range errors read as with the path.
        for bad in ["{", r#"{"broker": {"visibility_timeout_ms": 0}}"#] {
            assert!(parse_scenario(bad).is_err(), "{bad}");
            assert_eq!(
                parse_scenario_without_path(bad),
                parse_scenario(bad),
                "{bad}"
            );
        }
    }

    #[test]
    fn an_unknown_fault_kind_is_reported_inside_the_list() {
        let e = parse_scenario(r#"{"faults": [{"kind": "meteor", "at_ms": 1}]}"#).unwrap_err();
        assert_eq!(e.field(), Some("faults[0].kind"));
        assert!(e.to_string().contains("rolling_deploy"), "{e}");
    }

    #[test]
    fn an_unknown_work_distribution_names_the_choices() {
        let e = parse_scenario(r#"{"work": {"dist": "pareto"}}"#).unwrap_err();
        assert!(e.to_string().contains("lognormal"), "{e}");
    }

    #[test]
    fn text_that_is_not_json_is_a_syntax_error() {
        let e = parse_scenario("{ broker: 1 }").unwrap_err();
        assert!(matches!(e, ParseError::Syntax { line: 1, .. }), "{e:?}");
        assert!(e.to_string().starts_with("not valid JSON"));
        let e = parse_scenario("").unwrap_err();
        assert!(matches!(e, ParseError::Syntax { .. }), "{e:?}");
    }

    #[test]
    fn a_document_of_the_wrong_shape_says_top_level() {
        let e = parse_scenario("42").unwrap_err();
        assert_eq!(e.field(), Some("(top level)"));
    }

    #[test]
    fn out_of_range_values_come_from_validate() {
        let e = parse_scenario(r#"{"broker": {"visibility_timeout_ms": 0}}"#).unwrap_err();
        assert_eq!(
            e.to_string(),
            "broker.visibility_timeout_ms = 0: must be from 1 ms to 43,200,000 ms (12 h)"
        );
        assert!(parse_unchecked(r#"{"broker": {"visibility_timeout_ms": 0}}"#).is_ok());
    }

    #[test]
    fn explicit_null_keeps_its_meaning() {
        let s = parse_scenario(
            r#"{"broker": {"max_receive_count": null}, "workers": {"heartbeat": null}}"#,
        )
        .unwrap();
        assert_eq!(s.broker.max_receive_count, Some(None));
        assert_eq!(s.workers.heartbeat, Some(None));
        let s = parse_scenario("{}").unwrap();
        assert_eq!(s.broker.max_receive_count, None);
        assert_eq!(s.workers.heartbeat, None);
    }

    #[test]
    fn the_model_example_parses() {
        let json = r#"{
  "name": "clip-surge", "seed": 7, "duration_ms": 1800000,
  "broker": { "visibility_timeout_ms": 30000, "max_receive_count": null,
              "max_lease_lifetime_ms": 43200000, "receive_batch": 1,
              "rpc_latency_ms": 0, "preset": "textbook",
              "dlq_timing": "on_expiry", "late_ack": "rejected",
              "count_at": "receive" },
  "workers": { "count": 8, "concurrency": 1, "prefetch": 1,
               "heartbeat": { "interval_ms": 10000, "extend_by_ms": 30000,
                              "max_extensions": 20, "on_reject": "continue" },
               "error_rate": 0.0, "hang_rate": 0.0, "on_error": "release" },
  "work": { "dist": "lognormal", "median_ms": 8000, "p99_ms": 20000,
            "attempt_jitter": 0.2 },
  "downstream": { "capacity": null,
                  "slowdowns": [ { "from_ms": 600000, "to_ms": 1200000, "factor": 5.6 } ] },
  "arrivals": { "backlog": 0, "rate_per_s": 0.5, "process": "poisson",
                "surges": [ { "from_ms": 600000, "to_ms": 1200000, "rate_per_s": 1.0 } ] },
  "store": { "fence": "none" },
  "faults": [ { "kind": "crash", "worker": 0, "at_ms": 120000, "restart_after_ms": 20000 },
              { "kind": "rolling_deploy", "at_ms": 900000, "downtime_ms": 15000, "gap_ms": 5000 },
              { "kind": "pause", "worker": 2, "at_ms": 300000, "duration_ms": 40000 } ]
}"#;
        let s = parse_scenario(json).unwrap();
        assert_eq!(s.name, "clip-surge");
        assert_eq!(s.faults.len(), 3);
        assert_eq!(s.store.fence, Fence::None);
        assert!(matches!(s.work.dist, Dist::Lognormal { .. }));
        assert_eq!(s.work.attempt_jitter, 0.2);
    }

    #[test]
    fn a_top_level_array_says_a_scenario_is_an_object() {
        let e = parse_scenario("[1, 2]").unwrap_err();
        assert_eq!(e.field(), Some("(top level)"));
        assert!(e.to_string().contains("JSON object"), "{e}");
    }

    #[test]
    fn unknown_fields_are_found_by_path_and_known_ones_are_not() {
        let json = r#"{"name": "x", "brokr": {}, "title": "",
            "broker": {"visibility_timeout_ms": 1000, "timeout": 5, "preset": "textbook",
                       "max_receive_count": null, "dlq_timing": null},
            "workers": {"prefetch": null, "heartbeat": {"interval_ms": 100, "intervall": 7}},
            "work": {"dist": "mix", "slow_fraction": 0.1, "fast": {"dist": "constant", "ms": 1},
                     "slow": {"dist": "constant", "ms": 9, "mean": 3}, "attempt_jitter": 0.1},
            "faults": [{"kind": "crash", "worker": 0, "at_ms": 5, "restart_after_ms": null, "x": 1}]}"#;
        let s = parse_scenario(json).unwrap();
        assert_eq!(
            unknown_fields(json, &s),
            vec![
                "brokr",
                "broker.timeout",
                "workers.heartbeat.intervall",
                "work.slow.mean",
                "faults[0].x",
            ]
        );
        for s in crate::shipped::all() {
            assert_eq!(
                unknown_fields(s.text, &s.scenario),
                Vec::<String>::new(),
                "{}",
                s.name
            );
        }
    }

    #[test]
    fn the_data_shapes_read_and_write_back_the_same() {
        let json = r#"{"work": {"dist": "quantiles", "points": [[0.5, 2000], [0.9, 7000], [0.99, 20000]]},
            "name": "q"}"#;
        let s = parse_scenario(json).unwrap();
        assert_eq!(
            s.work.dist,
            Dist::Quantiles {
                points: vec![[0.5, 2000.0], [0.9, 7000.0], [0.99, 20000.0]]
            }
        );
        assert_eq!(unknown_fields(json, &s), Vec::<String>::new());
        for work in [
            r#"{"dist": "empirical", "samples_ms": [0, 12.5, 3000]}"#,
            r#"{"dist": "histogram", "buckets": [[100, 3], [1000, 0], [5000, 2]]}"#,
        ] {
            let s = parse_scenario(&format!(r#"{{"work": {work}}}"#)).unwrap();
            let back = serde_json::to_string(&s).unwrap();
            assert_eq!(parse_scenario(&back).unwrap(), s, "{back}");
        }
    }

    #[test]
    fn a_bad_data_shape_names_its_field() {
        let e =
            parse_scenario(r#"{"work": {"dist": "histogram", "buckets": [[100, 3], [50, 1]]}}"#)
                .unwrap_err();
        assert_eq!(e.field(), Some("work.buckets[1]"));
        let e =
            parse_scenario(r#"{"work": {"dist": "quantiles", "points": [[0.5]]}}"#).unwrap_err();
        assert!(
            e.field().is_some_and(|f| f.starts_with("work.points")),
            "{e}"
        );
        let e = parse_scenario(r#"{"work": {"dist": "empirical"}}"#).unwrap_err();
        assert!(e.to_string().contains("missing field `samples_ms`"), "{e}");
    }

    #[test]
    fn a_fault_on_a_missing_worker_is_refused() {
        let e = parse_scenario(
            r#"{"workers": {"count": 2}, "faults": [{"kind": "pause", "worker": 5, "at_ms": 0, "duration_ms": 10}]}"#,
        )
        .unwrap_err();
        assert_eq!(e.field(), Some("faults[0].worker"));
    }

    #[test]
    fn an_error_inside_a_work_distribution_names_its_field() {
        let e = parse_scenario(r#"{"work": {"dist": "constant", "ms": -3}}"#).unwrap_err();
        assert_eq!(e.field(), Some("work.ms"));
        assert!(e.to_string().contains("expected u64"), "{e}");
        let e = parse_scenario(
            r#"{"work": {"dist": "mix", "slow_fraction": 0.1,
                "fast": {"dist": "constant", "ms": 1}, "slow": {"dist": "pareto"}}}"#,
        )
        .unwrap_err();
        assert_eq!(e.field(), Some("work.slow.dist"));
        assert!(e.to_string().contains("lognormal"), "{e}");
    }

    #[test]
    fn a_field_the_variant_needs_is_missing_or_null_by_name() {
        let e = parse_scenario(r#"{"faults": [{"kind": "pause", "worker": 0, "at_ms": 5}]}"#)
            .unwrap_err();
        assert_eq!(e.field(), Some("faults[0]"));
        assert!(e.to_string().contains("missing field `duration_ms`"), "{e}");
        let e = parse_scenario(r#"{"work": {"dist": "constant", "ms": null}}"#).unwrap_err();
        assert_eq!(e.field(), Some("work"));
        assert!(
            e.to_string()
                .contains("`ms` is null, but a `constant` needs a value there"),
            "{e}"
        );
    }

    #[test]
    fn a_tag_of_the_wrong_type_is_a_type_error_at_the_tag() {
        let e = parse_scenario(r#"{"faults": [{"kind": 3}]}"#).unwrap_err();
        assert_eq!(e.field(), Some("faults[0].kind"));
        assert!(e.to_string().contains("expected one of crash"), "{e}");
        let e = parse_scenario(r#"{"work": {"dist": null}}"#).unwrap_err();
        assert_eq!(e.field(), Some("work.dist"));
    }

    #[test]
    fn a_tag_after_the_fields_reads_the_same() {
        let late = parse_scenario(
            r#"{"work": {"ms": 100, "dist": "constant", "attempt_jitter": 0.5},
                "faults": [{"worker": 0, "at_ms": 1, "kind": "crash", "restart_after_ms": null}]}"#,
        )
        .unwrap();
        assert_eq!(late.work.dist, Dist::Constant { ms: 100 });
        assert_eq!(late.work.attempt_jitter, 0.5);
        assert_eq!(
            late.faults,
            vec![crate::scenario::Fault::Crash {
                worker: 0,
                at_ms: 1,
                restart_after_ms: None
            }]
        );
    }
}
