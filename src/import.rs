//! Reading a scenario file a visitor drops on the page or picks: the same
//! parser as the command line, so a bad file gets the same message naming
//! the field. Nothing in the file reaches the page as HTML: errors are text.

use lease_sim::parse::{parse_scenario, unknown_fields};
use lease_sim::Scenario;

/// Files larger than this are not read: a scenario is a few kilobytes.
pub const MAX_IMPORT_BYTES: f64 = 1_048_576.0;

/// What an import gave: the scenario and the fields it ignored, or why not.
pub type Imported = Result<(Scenario, Vec<String>), String>;

pub fn import_text(file_name: &str, text: &str) -> Imported {
    let name = shorten(file_name);
    let scenario = parse_scenario(text).map_err(|e| format!("{name}: {e}"))?;
    let unknown = unknown_fields(text, &scenario)
        .into_iter()
        .map(|f| {
            format!(
                "{name}: the field {} is not part of a scenario and was ignored",
                shorten(&f)
            )
        })
        .collect();
    if let Err(why) = crate::budget::fits(&scenario) {
        return Err(format!("{name}: {why}"));
    }
    Ok((scenario, unknown))
}

/// A name shown back to the visitor, cut so a hostile one cannot flood the page.
pub fn shorten(s: &str) -> String {
    const MAX: usize = 80;
    if s.chars().count() <= MAX {
        s.to_string()
    } else {
        let cut: String = s.chars().take(MAX).collect();
        format!("{cut}…")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shipped_scenario_imports_back_to_itself() {
        let s = lease_sim::shipped::find("clip-surge").unwrap().scenario;
        let text = serde_json::to_string_pretty(&s).unwrap();
        let (back, ignored) = import_text("clip-surge.json", &text).unwrap();
        assert_eq!(back, s);
        assert!(ignored.is_empty(), "{ignored:?}");
    }

    #[test]
    fn a_negative_timeout_names_its_field() {
        let why =
            import_text("bad.json", r#"{"broker": {"visibility_timeout_ms": -5}}"#).unwrap_err();
        assert!(why.contains("broker.visibility_timeout_ms"), "{why}");
        assert!(why.starts_with("bad.json: "), "{why}");
    }

    #[test]
    fn garbage_says_it_is_not_json() {
        let why = import_text("x.png", "\u{89}PNG\r\n").unwrap_err();
        assert!(why.contains("not valid JSON"), "{why}");
    }

    #[test]
    fn unknown_fields_are_listed_not_fatal() {
        let (_, ignored) = import_text("a.json", r#"{"seed": 3, "colour": "red"}"#).unwrap();
        assert_eq!(ignored.len(), 1, "{ignored:?}");
        assert!(ignored[0].contains("colour"), "{ignored:?}");
    }

    #[test]
    fn a_run_too_large_for_the_page_is_refused_at_import() {
        let why = import_text(
            "big.json",
            r#"{"arrivals": {"backlog": 5000000, "rate_per_s": 0}}"#,
        )
        .unwrap_err();
        assert!(why.contains("at most 1,000,000"), "{why}");
    }

    #[test]
    fn long_names_are_cut() {
        let long = "x".repeat(500);
        assert_eq!(shorten(&long).chars().count(), 81);
    }
}
