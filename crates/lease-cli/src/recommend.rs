//! `lease-sim recommend`: the targets from the flags, the search from
//! lease-diagnose (all cores), and the answer as text or one JSON object.

use lease_diagnose::{Recommendation, TargetError, Targets};
use lease_format::display;
use lease_sim::scenario::Heartbeat;

use crate::sweep::parse_duration_ms;

/// The flags as typed, before they are read.
pub struct Flags<'a> {
    pub max_redelivery_rate: &'a str,
    pub max_recovery: Option<&'a str>,
    pub max_duplicate_rate: Option<&'a str>,
    pub seeds: &'a str,
}

/// The targets and the seed count; the message names the flag. Ranges are
/// the library's to check (`Search::new`), so both say the same.
pub fn parse(flags: &Flags<'_>) -> Result<(Targets, u32), String> {
    let rate = |flag: &str, s: &str| {
        s.trim().parse::<f64>().map_err(|_| {
            format!(
                "{flag}: `{s}` is not a number (a rate per arrived message from 0 to 1, as 0.002)"
            )
        })
    };
    let max_redelivery_rate = rate("--max-redelivery-rate", flags.max_redelivery_rate)?;
    let max_duplicate_rate = flags
        .max_duplicate_rate
        .map(|s| rate("--max-duplicate-rate", s))
        .transpose()?;
    let max_recovery_ms = flags
        .max_recovery
        .map(|s| {
            parse_duration_ms(s)
                .map(|ms| ms.round().min(u64::MAX as f64) as u64)
                .map_err(|e| format!("--max-recovery: {e}"))
        })
        .transpose()?;
    let seeds = flags.seeds.trim().parse::<u32>().map_err(|_| {
        format!(
            "--seeds: `{}` must be a whole number from 2 to 1000",
            flags.seeds
        )
    })?;
    Ok((
        Targets {
            max_redelivery_rate,
            max_recovery_ms,
            max_duplicate_rate,
        },
        seeds,
    ))
}

/// `--preset NAME`: the preset a scenario file names so, or an error that
/// lists every name.
pub fn preset_named(name: &str) -> Result<lease_sim::scenario::Preset, String> {
    use lease_sim::scenario::{Named, Preset};
    serde_json::from_value::<Preset>(serde_json::Value::String(name.trim().to_string())).map_err(
        |_| {
            format!(
                "--preset: `{name}` is not a broker preset (one of {})",
                Preset::WORDS.join(", ")
            )
        },
    )
}

/// A target the library refused, said with its flag.
pub fn target_message(file: &str, e: &TargetError) -> String {
    if e.target == "scenario" {
        format!("{file}: {}", e.allowed)
    } else {
        format!("{} = {}: {}", e.flag(), e.value, e.allowed)
    }
}

/// One JSON object: the recommendation, each point with its `timeout_ms`
/// and `heartbeat` beside its rates (in place of the library's nested
/// `candidate`, so that each thing is said once).
pub fn json(rec: &Recommendation) -> String {
    let mut v = serde_json::to_value(rec).unwrap_or_default();
    if let Some(points) = v.get_mut("points").and_then(|p| p.as_array_mut()) {
        for p in points {
            if let Some(o) = p.as_object_mut() {
                let c = o.remove("candidate").unwrap_or_default();
                o.insert("timeout_ms".into(), c["timeout_ms"].clone());
                o.insert("heartbeat".into(), c["heartbeat"].clone());
            }
        }
    }
    serde_json::to_string_pretty(&v).unwrap_or_default() + "\n"
}

fn heartbeat_words(h: &Heartbeat, timeout_ms: u64) -> String {
    let cap = h
        .max_extensions
        .map_or("no cap".to_string(), |c| format!("at most {c} extensions"));
    format!(
        "every {}, extending by {}, {cap}",
        display::duration(h.interval_ms),
        display::duration(h.extend_by_ms.unwrap_or(timeout_ms))
    )
}

/// The answer for a person: the verdict, the window, the heartbeat, the
/// points judged, and the rule of thumb.
pub fn render(name: &str, targets: &Targets, rec: &Recommendation) -> String {
    let mut out = String::new();
    let mut wanted = format!("redelivery rate at most {}", targets.max_redelivery_rate);
    if let Some(r) = targets.max_recovery_ms {
        wanted.push_str(&format!(", recovery within {}", display::duration(r)));
    }
    if let Some(d) = targets.max_duplicate_rate {
        wanted.push_str(&format!(", duplicate rate at most {}", d));
    }
    out.push_str(&format!(
        "{name}: {wanted} (each judged by its 95% upper bound over {} seeds)\n\n",
        rec.seeds
    ));
    out.push_str(&rec.verdict);
    out.push_str("\n\n");
    match rec.visibility_timeout_ms {
        Some(t) => {
            let words = display::duration(t);
            let exact = format!("{t} ms");
            if words == exact {
                out.push_str(&format!("visibility timeout: {words}\n"));
            } else {
                out.push_str(&format!("visibility timeout: {words} ({exact})\n"));
            }
        }
        None => out.push_str("visibility timeout: none meets the targets\n"),
    }
    match rec.window_ms {
        Some([a, b]) => out.push_str(&format!(
            "window: {} to {} (every static timeout in it meets the targets)\n",
            display::duration(a),
            display::duration(b)
        )),
        None => out.push_str("window: none (no static timeout meets every target)\n"),
    }
    if let (Some(h), Some(t)) = (&rec.heartbeat, rec.visibility_timeout_ms) {
        out.push_str(&format!("heartbeat: {}\n", heartbeat_words(h, t)));
    }
    out.push_str(&format!(
        "\n{:>10}  {:>9}  {:>17}  {:>18}  {}\n",
        "timeout", "heartbeat", "redelivery mean", "redelivery upper", "meets"
    ));
    for p in &rec.points {
        let hb = p.candidate.heartbeat.as_ref().map_or("-".to_string(), |h| {
            format!(
                "{} x{}",
                display::duration(h.interval_ms),
                h.max_extensions.map_or("-".to_string(), |c| c.to_string())
            )
        });
        out.push_str(&format!(
            "{:>10}  {:>9}  {:>17}  {:>18}  {}\n",
            display::duration(p.candidate.timeout_ms),
            hb,
            format!("{:.5}", p.redelivery_rate_mean),
            format!("{:.5}", p.redelivery_rate_upper),
            if p.meets { "yes" } else { "no" }
        ));
    }
    let r = &rec.rule_of_thumb;
    out.push_str(&format!(
        "\nrule of thumb: {} to {} (1.5 to 2 times the work's p99 of {}){}; {}\n",
        display::duration(r.window_ms[0]),
        display::duration(r.window_ms[1]),
        display::duration(r.p99_ms),
        r.p99_over_timeout.map_or(String::new(), |x| format!(
            ", the work's p99 is {x:.2} times the recommended timeout"
        )),
        // With a window, the rule is judged against the window (any
        // timeout in it will do), not against its lowest timeout.
        match (rec.window_ms.is_some(), r.agrees) {
            (true, true) => "the window of timeouts that meet the targets includes it",
            (true, false) => "outside the window of timeouts that meet the targets",
            (false, true) => "the recommendation agrees",
            (false, false) => "the recommendation differs",
        }
    ));
    if let Some(l) = r.lambda_minimum_ms {
        out.push_str(&format!(
            "Lambda: at least six times the function timeout, {}\n",
            display::duration(l)
        ));
    }
    out.push_str(&r.words);
    out.push('\n');
    out
}
