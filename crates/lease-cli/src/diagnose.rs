//! `lease-sim diagnose`: the run's failure signatures as the page's
//! Diagnosis panel shows them (title, evidence, the fix in words, the fix's
//! button), with the fields the fix changes named as a share link names
//! them; or the same as one JSON object, lease-diagnose's `Finding` as it
//! serializes.

use lease_diagnose::Finding;
use lease_format::display;
use lease_sim::{Run, Scenario};
use serde::Serialize;

/// What the page says when no detector fires.
pub const HEALTHY: &str = "No overlapping runs, no redelivery loop, no dead letters from expiry, no stuck lease: this configuration is in the good quadrant for this load.";

/// One field the fix sets, as a share link or `sweep --param` names it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FieldChange {
    pub field: &'static str,
    pub value: String,
}

/// A finding with its fix spelled out: the button's label and the fields
/// it changes.
#[derive(Debug, Serialize)]
pub struct Diagnosed<'a> {
    #[serde(flatten)]
    pub finding: &'a Finding,
    pub fix_label: Option<String>,
    pub fix_fields: Vec<FieldChange>,
}

/// The whole answer: which scenario, which seed, every finding.
#[derive(Debug, Serialize)]
pub struct Diagnosis<'a> {
    pub scenario: &'a str,
    pub seed: u64,
    pub findings: Vec<Diagnosed<'a>>,
}

/// The fields `finding`'s fix changes in `scenario`, in the field table's
/// order.
fn fix_fields(scenario: &Scenario, finding: &Finding) -> Vec<FieldChange> {
    let Some(fix) = &finding.fix else {
        return Vec::new();
    };
    let mut fixed = scenario.clone();
    fix.apply(&mut fixed);
    lease_fields::diff(scenario, &fixed)
        .into_iter()
        .map(|(field, value)| FieldChange { field, value })
        .collect()
}

pub fn diagnosis<'a>(scenario: &'a Scenario, findings: &'a [Finding]) -> Diagnosis<'a> {
    Diagnosis {
        scenario: &scenario.name,
        seed: scenario.seed,
        findings: findings
            .iter()
            .map(|f| Diagnosed {
                finding: f,
                fix_label: f.fix.as_ref().map(|x| x.label()),
                fix_fields: fix_fields(scenario, f),
            })
            .collect(),
    }
}

pub fn json(d: &Diagnosis<'_>) -> String {
    serde_json::to_string_pretty(d).expect("a diagnosis always serializes") + "\n"
}

/// The text: a heading with the count, then each finding as the page lists
/// it, with where it shows on the timeline.
pub fn render(d: &Diagnosis<'_>, run: &Run) -> String {
    let mut out = format!(
        "{} (seed {}): Diagnosis: {}\n",
        d.scenario,
        d.seed,
        match d.findings.len() {
            0 => "no failure signature".to_string(),
            1 => "1 failure signature".to_string(),
            n => format!("{n} failure signatures"),
        }
    );
    if d.findings.is_empty() {
        out.push_str(&format!("\n{HEALTHY}\n"));
        return out;
    }
    for x in &d.findings {
        let f = x.finding;
        out.push_str(&format!("\n{} [{}]\n", f.title, f.id));
        let until = f.until_ms.unwrap_or(run.end_ms);
        let mut at = format!(
            "  on the timeline: {} to {}",
            display::duration(f.at_ms),
            display::duration(until)
        );
        if let Some(m) = f.message {
            at.push_str(&format!(", message {m}"));
        }
        out.push_str(&at);
        out.push('\n');
        for e in &f.evidence {
            out.push_str(&format!("  - {e}\n"));
        }
        out.push_str(&format!("  Fix: {}\n", f.fix_text));
        if let Some(label) = &x.fix_label {
            let fields: Vec<String> = x
                .fix_fields
                .iter()
                .map(|c| format!("{}={}", c.field, c.value))
                .collect();
            if fields.is_empty() {
                out.push_str(&format!("  Apply fix: {label}\n"));
            } else {
                out.push_str(&format!("  Apply fix: {label} ({})\n", fields.join(", ")));
            }
        }
    }
    out
}
