//! The arguments of `lease-sim sweep`: which setting to vary and the ends
//! of its range. The sweep itself is lease-diagnose's; the short names and
//! whether a setting is a duration are the scenario field table's
//! (`lease_fields`), the names a share link uses.

use lease_diagnose::Param;
use lease_fields::Field;

/// The settings a sweep can vary, each with the field that names it.
pub const SWEPT: [(Field, Param); 6] = [
    (Field::Timeout, Param::Timeout),
    (Field::Hb, Param::HeartbeatInterval),
    (Field::Cap, Param::ExtensionCap),
    (Field::Workers, Param::Workers),
    (Field::P99, Param::ProcessingP99),
    (Field::Capacity, Param::DownstreamCapacity),
];

fn field_of(p: Param) -> Option<Field> {
    SWEPT.iter().find(|(_, q)| *q == p).map(|(f, _)| *f)
}

/// A field's name or alias (as in a share link), or a dotted path (`Param::path`).
pub fn parse_param(s: &str) -> Result<Param, String> {
    let s = s.trim();
    if let Some(p) = Param::from_path(s) {
        return Ok(p);
    }
    let field = lease_fields::find(s);
    if let Some((_, p)) = SWEPT.iter().find(|(f, _)| Some(*f) == field) {
        return Ok(*p);
    }
    Err(format!(
        "--param: unknown setting `{s}`; allowed: {}",
        allowed()
    ))
}

/// `broker.visibility_timeout_ms (timeout or visibility_timeout), ...`
pub fn allowed() -> String {
    SWEPT
        .iter()
        .map(|(f, p)| {
            let names: Vec<&str> = [f.name()]
                .into_iter()
                .chain(f.spec().aliases.iter().copied())
                .collect();
            format!("{} ({})", p.path(), names.join(" or "))
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Whether the setting is a duration in ms (else a count).
pub fn is_duration(p: Param) -> bool {
    field_of(p).is_some_and(|f| f.spec().is_duration())
}

/// Milliseconds in one of each unit a duration may carry.
const UNITS: [(&str, f64); 10] = [
    ("ms", 1.0),
    ("s", 1_000.0),
    ("sec", 1_000.0),
    ("secs", 1_000.0),
    ("m", 60_000.0),
    ("min", 60_000.0),
    ("mins", 60_000.0),
    ("h", 3_600_000.0),
    ("hr", 3_600_000.0),
    ("hours", 3_600_000.0),
];

/// A duration in ms: a bare number is ms; else a number and a unit (`ms`,
/// `s`, `min` or `m`, `h`), as in `500ms`, `10s`, `1.5 min`. Errors for
/// anything else, a negative or a non-finite value.
pub fn parse_duration_ms(s: &str) -> Result<f64, String> {
    let t = s.trim();
    if let Ok(v) = t.parse::<f64>() {
        return finite(v, s);
    }
    let split = t
        .find(|c: char| c.is_ascii_alphabetic() && c != 'e' && c != 'E')
        .unwrap_or(t.len());
    let (num, unit) = t.split_at(split);
    let unit = unit.trim().to_ascii_lowercase();
    let scale = if unit.is_empty() {
        1.0
    } else {
        match UNITS.iter().find(|(u, _)| *u == unit) {
            Some((_, k)) => *k,
            None => {
                return Err(format!(
                    "`{s}`: unknown unit `{unit}` (use ms, s, min or h, or a bare number of ms)"
                ))
            }
        }
    };
    finite(parse_number(num.trim(), s)? * scale, s)
}

/// A count: a plain number, no unit.
pub fn parse_count(s: &str) -> Result<f64, String> {
    parse_number(s.trim(), s)
}

fn parse_number(num: &str, whole: &str) -> Result<f64, String> {
    let v: f64 = num
        .parse()
        .map_err(|_| format!("`{whole}` is not a number"))?;
    finite(v, whole)
}

fn finite(v: f64, whole: &str) -> Result<f64, String> {
    if !v.is_finite() {
        Err(format!("`{whole}` is not a finite number"))
    } else if v < 0.0 {
        Err(format!("`{whole}` is negative"))
    } else {
        Ok(v)
    }
}

/// `--steps`: a whole number from 1 to `MAX_SWEEP_STEPS`.
pub fn parse_steps(s: &str) -> Result<usize, String> {
    let max = lease_diagnose::sweep::MAX_SWEEP_STEPS;
    match s.trim().parse::<usize>() {
        Ok(n) if (1..=max).contains(&n) => Ok(n),
        _ => Err(format!(
            "--steps: `{s}` must be a whole number from 1 to {max} (each point is a whole simulation)"
        )),
    }
}

/// `--seeds`: a whole number from 1 to `MAX_SWEEP_SEEDS`.
pub fn parse_seeds(s: &str) -> Result<u32, String> {
    let max = lease_diagnose::sweep::MAX_SWEEP_SEEDS;
    match s.trim().parse::<u32>() {
        Ok(n) if (1..=max).contains(&n) => Ok(n),
        _ => Err(format!(
            "--seeds: `{s}` must be a whole number from 1 to {max} (every point runs once per seed)"
        )),
    }
}

/// One end of the range, for `flag` (`--from` or `--to`): a duration for a
/// duration setting, else a count.
pub fn parse_end(flag: &str, param: Param, s: &str) -> Result<f64, String> {
    let r = if is_duration(param) {
        parse_duration_ms(s)
    } else {
        parse_count(s).map_err(|e| {
            if s.trim().ends_with(|c: char| c.is_ascii_alphabetic()) {
                format!("`{s}`: {} is a count, not a duration", param.path())
            } else {
                e
            }
        })
    };
    r.map_err(|e| format!("{flag}: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_take_units_and_bare_numbers_are_ms() {
        for (s, ms) in [
            ("500", 500.0),
            ("500ms", 500.0),
            ("10s", 10_000.0),
            ("1.5s", 1_500.0),
            ("2min", 120_000.0),
            ("2m", 120_000.0),
            ("3 min", 180_000.0),
            ("1h", 3_600_000.0),
            ("10S", 10_000.0),
            ("1e3", 1_000.0),
            ("0", 0.0),
        ] {
            assert_eq!(parse_duration_ms(s), Ok(ms), "{s}");
        }
    }

    #[test]
    fn bad_durations_say_why() {
        for (s, says) in [
            ("", "not a number"),
            ("s", "not a number"),
            ("ten", "unknown unit"),
            ("10 parsecs", "unknown unit `parsecs`"),
            ("-5s", "negative"),
            ("-1", "negative"),
            ("inf", "not a finite number"),
            ("NaN", "not a finite number"),
            ("1e400", "not a finite number"),
            ("1e305h", "not a finite number"),
        ] {
            let e = parse_duration_ms(s).expect_err(s);
            assert!(e.contains(says), "{s}: {e}");
        }
    }

    #[test]
    fn counts_take_no_unit() {
        assert_eq!(parse_end("--from", Param::Workers, "8"), Ok(8.0));
        let e = parse_end("--to", Param::Workers, "10s").unwrap_err();
        assert!(e.starts_with("--to:") && e.contains("workers.count"), "{e}");
        let e = parse_end("--from", Param::ExtensionCap, "-2").unwrap_err();
        assert!(e.starts_with("--from:") && e.contains("negative"), "{e}");
        assert_eq!(parse_end("--from", Param::Timeout, "10s"), Ok(10_000.0));
    }

    #[test]
    fn steps_are_1_to_200() {
        assert_eq!(parse_steps("1"), Ok(1));
        assert_eq!(parse_steps("200"), Ok(200));
        for s in ["0", "201", "-3", "2.5", "many", ""] {
            let e = parse_steps(s).unwrap_err();
            assert!(e.starts_with("--steps:"), "{s}: {e}");
        }
    }

    #[test]
    fn seeds_are_1_to_1000() {
        assert_eq!(parse_seeds("1"), Ok(1));
        assert_eq!(parse_seeds("1000"), Ok(1000));
        for s in ["0", "1001", "-3", "2.5", "many", ""] {
            let e = parse_seeds(s).unwrap_err();
            assert!(
                e.starts_with("--seeds:") && e.contains("1 to 1000"),
                "{s}: {e}"
            );
        }
    }

    #[test]
    fn params_by_path_or_short_name() {
        for p in Param::ALL {
            assert_eq!(parse_param(p.path()), Ok(p));
        }
        for (f, p) in SWEPT {
            assert_eq!(parse_param(f.name()), Ok(p));
            for alias in f.spec().aliases {
                assert_eq!(parse_param(alias), Ok(p), "{alias}");
            }
            assert_eq!(
                is_duration(p),
                p.path().ends_with("_ms"),
                "{} is a duration iff in ms",
                p.path()
            );
        }
        let e = parse_param("speed").unwrap_err();
        assert!(e.contains("--param") && e.contains("`speed`"), "{e}");
        for p in Param::ALL {
            assert!(e.contains(p.path()), "{e}");
        }
    }
}
