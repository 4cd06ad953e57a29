//! Reading a scenario file a visitor drops on the page or picks: the command
//! line's reader, so a bad file gets the same message naming the field (the
//! field's name from the background worker, `lease_jobs::import_job`). Nothing in the
//! file reaches the page as HTML: errors are text.

use lease_sim::parse::{parse_scenario_without_path, unknown_fields, ParseError};
use lease_sim::Scenario;

pub use lease_jobs::import_job::shorten;

/// Files larger than this are not read: a scenario is a few kilobytes.
pub const MAX_IMPORT_BYTES: f64 = 1_048_576.0;

/// What an import gave: the scenario and the fields it ignored, or why not.
pub type Imported = Result<(Scenario, Vec<String>), String>;

/// Why the page refuses a file.
#[derive(Debug, PartialEq)]
pub enum Refused {
    Because(String),
    /// A value of the wrong type, found at a line and column: the background
    /// worker can name its field (`import_run::explain`). `fallback` is the
    /// page's own message, for a worker that cannot.
    NameTheField {
        fallback: String,
    },
}

pub fn import_text(file_name: &str, text: &str) -> Result<(Scenario, Vec<String>), Refused> {
    let name = shorten(file_name);
    let scenario = match parse_scenario_without_path(text) {
        Ok(s) => s,
        Err(e @ ParseError::Value { .. }) => {
            return Err(Refused::NameTheField {
                fallback: format!("{name}: {e}"),
            })
        }
        Err(e) => return Err(Refused::Because(format!("{name}: {e}"))),
    };
    let unknown = unknown_fields(text, &scenario)
        .into_iter()
        .map(|f| {
            format!(
                "{name}: the field {} is not part of a scenario and was ignored",
                shorten(&f)
            )
        })
        .collect();
    if let Err(why) = lease_jobs::budget::fits(&scenario) {
        return Err(Refused::Because(format!("{name}: {why}")));
    }
    Ok((scenario, unknown))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(name: &str, text: &str) -> Imported {
        import_text(name, text).map_err(|r| match r {
            Refused::Because(why) => why,
            other => panic!("{other:?}"),
        })
    }

    #[test]
    fn a_shipped_scenario_imports_back_to_itself() {
        let s = lease_sim::shipped::find("clip-surge").unwrap().scenario;
        let text = serde_json::to_string_pretty(&s).unwrap();
        let (back, ignored) = read("clip-surge.json", &text).unwrap();
        assert_eq!(back, s);
        assert!(ignored.is_empty(), "{ignored:?}");
    }

    #[test]
    fn a_negative_timeout_goes_to_the_worker_for_its_field() {
        let text = r#"{"broker": {"visibility_timeout_ms": -5}}"#;
        let Err(Refused::NameTheField { fallback }) = import_text("bad.json", text) else {
            panic!("read without asking for the field");
        };
        assert_eq!(
            fallback,
            "bad.json: invalid value: integer `-5`, expected u64 (line 1, column 39)"
        );
        // What the worker answers (import_job::explain), field and all.
        let job = lease_jobs::import_job::ImportJob {
            file_name: "bad.json".into(),
            text: text.into(),
        };
        let why = lease_jobs::import_job::explain(&job).unwrap();
        assert!(
            why.starts_with("bad.json: broker.visibility_timeout_ms: "),
            "{why}"
        );
    }

    #[test]
    fn a_value_out_of_range_is_named_in_the_page() {
        let why = read("bad.json", r#"{"broker": {"visibility_timeout_ms": 0}}"#).unwrap_err();
        assert!(why.starts_with("bad.json: "), "{why}");
        assert!(why.contains("visibility_timeout_ms"), "{why}");
    }

    #[test]
    fn garbage_says_it_is_not_json() {
        let why = read("x.png", "\u{89}PNG\r\n").unwrap_err();
        assert!(why.contains("not valid JSON"), "{why}");
    }

    #[test]
    fn unknown_fields_are_listed_not_fatal() {
        let (_, ignored) = read("a.json", r#"{"seed": 3, "colour": "red"}"#).unwrap();
        assert_eq!(ignored.len(), 1, "{ignored:?}");
        assert!(ignored[0].contains("colour"), "{ignored:?}");
    }

    #[test]
    fn a_run_too_large_for_the_page_is_refused_at_import() {
        let why = read(
            "big.json",
            r#"{"arrivals": {"backlog": 5000000, "rate_per_s": 0}}"#,
        )
        .unwrap_err();
        assert!(why.contains("at most 1,000,000"), "{why}");
    }
}
