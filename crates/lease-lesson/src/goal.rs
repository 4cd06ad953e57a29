//! A goal's conditions: `duplicate_effects == 0`, `timeout < 60s`,
//! `timeout >= work_p99`, `fence == fencing_token`, `cap != none`,
//! `detector("expiry-before-ack") == false`. The left side names one of the
//! run's figures (the report's totals and ack latency, and the work's
//! median and p99), one of the field table's fields (`lease_fields`, as the
//! share link names them), or a detector. The right side is a number, a
//! duration, a word of the field, or another figure or field of the same
//! unit. Each is checked against those tables when the lesson is read, so
//! a misspelt figure is an error on its line, never a goal that cannot hold.

use std::fmt;

use lease_diagnose::stats::{work_median_ms, work_p99_ms};
use lease_fields::{Field, Value};
use lease_format::units::parse_ms;
use lease_sim::run::Run;
use lease_sim::scenario::Scenario;

use crate::error::Problem;

/// What a figure counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    /// Messages, runs, events: a plain number.
    Count,
    /// A duration in milliseconds, written with a unit (`90s`, `2min`).
    Ms,
    /// A plain ratio (`0.8`).
    Ratio,
}

/// One of the run's named figures.
pub struct Figure {
    pub name: &'static str,
    pub unit: Unit,
    /// `None` where the run has no such value (no ack, so no ack latency).
    pub value: fn(&Scenario, &Run) -> Option<f64>,
}

impl fmt::Debug for Figure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name)
    }
}

impl PartialEq for Figure {
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name
    }
}

macro_rules! totals {
    ($($name:ident: $unit:ident),* $(,)?) => {
        &[$(Figure {
            name: stringify!($name),
            unit: Unit::$unit,
            value: |_, r| Some(r.report.totals.$name as f64),
        }),*]
    };
}

/// The report's totals, under the names the report gives them.
static TOTALS: &[Figure] = totals!(
    arrived: Count,
    deleted: Count,
    dead_lettered_expired: Count,
    dead_lettered_failed: Count,
    dropped: Count,
    stayed: Count,
    deliveries: Count,
    redeliveries: Count,
    expiries: Count,
    acks_ok: Count,
    acks_rejected: Count,
    acks_no_op: Count,
    releases: Count,
    releases_rejected: Count,
    extensions_ok: Count,
    extensions_rejected: Count,
    errors: Count,
    hangs: Count,
    effects: Count,
    duplicate_effects: Count,
    overlapping_runs: Count,
    sequential_duplicate_runs: Count,
    lost_updates: Count,
    fence_rejections: Count,
    useful_work_ms: Ms,
    wasted_work_ms: Ms,
    still_available: Count,
    still_in_flight: Count,
    events: Count,
    end_ms: Ms,
);

/// The report's ack latency and the work's own quantiles (the tours' "the
/// timeout is at least the work's p99" reads `work_p99`).
static MEASURES: &[Figure] = &[
    Figure {
        name: "ack_latency_p50",
        unit: Unit::Ms,
        value: |_, r| r.report.ack_latency_ms.p50.map(|v| v as f64),
    },
    Figure {
        name: "ack_latency_p99",
        unit: Unit::Ms,
        value: |_, r| r.report.ack_latency_ms.p99.map(|v| v as f64),
    },
    Figure {
        name: "ack_latency_p99_over_timeout",
        unit: Unit::Ratio,
        value: |_, r| r.report.ack_latency_ms.p99_over_timeout,
    },
    Figure {
        name: "work_median",
        unit: Unit::Ms,
        value: |s, _| Some(work_median_ms(&s.work.dist)),
    },
    Figure {
        name: "work_p99",
        unit: Unit::Ms,
        value: |s, _| Some(work_p99_ms(&s.work.dist)),
    },
];

/// Every figure a goal can name, the report's totals first.
pub fn figures() -> impl Iterator<Item = &'static Figure> {
    TOTALS.iter().chain(MEASURES)
}

/// The figure of that name, exactly as the report writes it.
pub fn figure(name: &str) -> Option<&'static Figure> {
    figures().find(|f| f.name == name)
}

/// What a condition's side names.
#[derive(Debug, Clone, PartialEq)]
pub enum Quantity {
    Figure(&'static Figure),
    Field(Field),
    /// Whether the detector of that id fires on the run.
    Detector(&'static str),
}

/// A comparison.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl Op {
    pub fn word(self) -> &'static str {
        match self {
            Op::Eq => "==",
            Op::Ne => "!=",
            Op::Lt => "<",
            Op::Le => "<=",
            Op::Gt => ">",
            Op::Ge => ">=",
        }
    }

    fn holds<T: PartialOrd>(self, a: T, b: T) -> bool {
        match self {
            Op::Eq => a == b,
            Op::Ne => a != b,
            Op::Lt => a < b,
            Op::Le => a <= b,
            Op::Gt => a > b,
            Op::Ge => a >= b,
        }
    }
}

/// A condition's right side.
#[derive(Debug, Clone, PartialEq)]
pub enum Operand {
    /// A count, a ratio or a duration in ms.
    Number(f64),
    /// `true` or `false`, for a detector.
    Bool(bool),
    /// A word field's word (`fencing_token`), as the field table reads it.
    Word(Value),
    /// `off` / `none` (`true`), or `on` (`false`), for a field that can be off.
    Off(bool),
    Quantity(Quantity),
}

/// One condition of a goal, as written and as understood.
#[derive(Debug, Clone, PartialEq)]
pub struct Condition {
    /// The condition as the lesson writes it.
    pub text: String,
    pub lhs: Quantity,
    pub op: Op,
    pub rhs: Operand,
}

/// A field's unit for comparisons: a duration, another number, or a word.
fn field_unit(f: Field) -> Option<Unit> {
    let spec = f.spec();
    spec.bounds()?;
    Some(if spec.is_duration() {
        Unit::Ms
    } else {
        Unit::Count
    })
}

pub(crate) fn quantity_named(name: &str) -> Option<Quantity> {
    if let Some(fig) = figure(name) {
        return Some(Quantity::Figure(fig));
    }
    lease_fields::find(name).map(Quantity::Field)
}

pub(crate) fn unit_of(q: &Quantity) -> Option<Unit> {
    match q {
        Quantity::Figure(f) => Some(f.unit),
        Quantity::Field(f) => field_unit(*f),
        Quantity::Detector(_) => None,
    }
}

fn unit_words(u: Option<Unit>) -> &'static str {
    match u {
        Some(Unit::Ms) => "a duration",
        Some(Unit::Count) => "a number",
        Some(Unit::Ratio) => "a ratio",
        None => "a word",
    }
}

fn name_of(q: &Quantity) -> String {
    match q {
        Quantity::Figure(f) => f.name.to_string(),
        Quantity::Field(f) => f.name().to_string(),
        Quantity::Detector(id) => format!("detector(\"{id}\")"),
    }
}

/// `detector("id")` or `detector('id')`: the id, checked against the
/// diagnosis's detectors.
fn detector(text: &str) -> Option<Result<&'static str, Problem>> {
    let inner = text.strip_prefix("detector")?.trim_start();
    let inner = inner.strip_prefix('(')?.strip_suffix(')')?.trim();
    let id = inner
        .strip_prefix('"')
        .and_then(|i| i.strip_suffix('"'))
        .or_else(|| inner.strip_prefix('\'').and_then(|i| i.strip_suffix('\'')))
        .unwrap_or(inner);
    Some(
        lease_diagnose::detector_ids()
            .find(|d| *d == id)
            .ok_or_else(|| Problem::UnknownDetector(id.to_string())),
    )
}

/// Where the comparison is, and which.
fn split_op(text: &str) -> Option<(&str, Op, &str)> {
    let at = text.find(['<', '>', '=', '!'])?;
    let rest = &text[at..];
    let (op, len) = if rest.starts_with("==") {
        (Op::Eq, 2)
    } else if rest.starts_with("!=") {
        (Op::Ne, 2)
    } else if rest.starts_with("<=") {
        (Op::Le, 2)
    } else if rest.starts_with(">=") {
        (Op::Ge, 2)
    } else if rest.starts_with('<') {
        (Op::Lt, 1)
    } else if rest.starts_with('>') {
        (Op::Gt, 1)
    } else {
        return None;
    };
    Some((text[..at].trim(), op, text[at + len..].trim()))
}

const OFF_WORDS: [&str; 2] = ["off", "none"];

impl Condition {
    /// Read one condition, checking every name it uses.
    pub fn parse(text: &str) -> Result<Condition, Problem> {
        let text = text.trim();
        let bad = |why: &str| Problem::BadCondition {
            text: text.to_string(),
            why: why.to_string(),
        };
        let (lhs_text, op, rhs_text) = match split_op(text) {
            Some(parts) => parts,
            None if text.starts_with("detector") => (text, Op::Eq, "true"),
            None => {
                return Err(bad(
                    "a condition compares a figure or field with a value, with one of == != < <= > >=, such as duplicate_effects == 0",
                ))
            }
        };
        if lhs_text.is_empty() || rhs_text.is_empty() {
            return Err(bad("both sides of the comparison are needed"));
        }
        let lhs = match detector(lhs_text) {
            Some(id) => Quantity::Detector(id?),
            None => quantity_named(lhs_text)
                .ok_or_else(|| Problem::UnknownName(lhs_text.to_string()))?,
        };
        let rhs = Self::operand(&lhs, op, rhs_text).map_err(|e| match e {
            Problem::BadCondition { why, .. } => bad(&why),
            other => other,
        })?;
        Ok(Condition {
            text: text.to_string(),
            lhs,
            op,
            rhs,
        })
    }

    fn operand(lhs: &Quantity, op: Op, rhs: &str) -> Result<Operand, Problem> {
        let bad = |why: String| Problem::BadCondition {
            text: String::new(),
            why,
        };
        let equality = matches!(op, Op::Eq | Op::Ne);
        let name = name_of(lhs);
        let unit = unit_of(lhs);
        if let Quantity::Detector(_) = lhs {
            if !equality {
                return Err(bad(format!(
                    "{name} is true or false: compare it with == or !="
                )));
            }
            return match rhs {
                "true" => Ok(Operand::Bool(true)),
                "false" => Ok(Operand::Bool(false)),
                _ => Err(bad(format!("{name} is true or false, not `{rhs}`"))),
            };
        }
        let lower = rhs.to_ascii_lowercase();
        if let Quantity::Field(f) = lhs {
            let off = OFF_WORDS.contains(&lower.as_str());
            if off || lower == "on" {
                let switchable = f.spec().parse("off").is_ok_and(|v| v == Value::Off)
                    || f.spec().parse("none").is_ok_and(|v| v == Value::Off);
                if !switchable {
                    return Err(bad(format!("{name} cannot be off, so not `{rhs}`")));
                }
                if !equality {
                    return Err(bad(format!("`{rhs}` is compared with == or !=")));
                }
                return Ok(Operand::Off(off));
            }
            if unit.is_none() {
                if !equality {
                    return Err(bad(format!("{name} is a word: compare it with == or !=")));
                }
                return match f.spec().parse(rhs) {
                    Ok(v @ Value::Choice(_)) => Ok(Operand::Word(v)),
                    Ok(_) => Err(bad(format!("`{rhs}` is not one of {name}'s words"))),
                    Err(why) => Err(Problem::BadField { field: name, why }),
                };
            }
        }
        let unit = unit.unwrap_or(Unit::Count);
        let starts_numeric = rhs.starts_with(|c: char| c.is_ascii_digit() || c == '.');
        if !starts_numeric {
            let other = quantity_named(rhs).ok_or_else(|| Problem::UnknownName(rhs.to_string()))?;
            let other_unit = unit_of(&other);
            if other_unit != Some(unit) {
                return Err(Problem::BadUnit {
                    text: rhs.to_string(),
                    why: format!(
                        "{name} is {}, {} is {}",
                        unit_words(Some(unit)),
                        name_of(&other),
                        unit_words(other_unit)
                    ),
                });
            }
            return Ok(Operand::Quantity(other));
        }
        let bare = rhs.chars().all(|c| c.is_ascii_digit() || c == '.');
        match unit {
            Unit::Ms => {
                if bare {
                    return Err(Problem::BadUnit {
                        text: rhs.to_string(),
                        why: format!(
                            "{name} is a duration: write its unit, like 60s, 2min or 250ms"
                        ),
                    });
                }
                parse_ms(rhs, 0, u64::MAX)
                    .map(|ms| Operand::Number(ms as f64))
                    .map_err(|why| Problem::BadUnit {
                        text: rhs.to_string(),
                        why: format!("{name} is a duration that {why}"),
                    })
            }
            Unit::Count | Unit::Ratio => {
                if !bare {
                    return Err(Problem::BadUnit {
                        text: rhs.to_string(),
                        why: format!(
                            "{name} is {}, written without a unit",
                            unit_words(Some(unit))
                        ),
                    });
                }
                rhs.parse::<f64>()
                    .ok()
                    .filter(|x| x.is_finite())
                    .map(Operand::Number)
                    .ok_or_else(|| bad(format!("`{rhs}` is not a number")))
            }
        }
    }

    /// Whether the condition holds for this scenario and its run. A field
    /// that does not apply (the extension cap with no heartbeat) and a
    /// figure the run lacks (ack latency with no ack) satisfy no condition.
    pub fn holds(&self, s: &Scenario, run: &Run) -> bool {
        match (&self.lhs, &self.rhs) {
            (Quantity::Detector(id), Operand::Bool(want)) => {
                let fires = lease_diagnose::detect(id, s, run).is_some();
                self.op.holds(fires, *want)
            }
            (Quantity::Field(f), Operand::Off(want_off)) => match field_off(*f, s) {
                Some(off) => self.op.holds(off, *want_off),
                None => false,
            },
            (Quantity::Field(f), Operand::Word(w)) => {
                let v = f.spec().read(s);
                self.op.holds(&v == w, true)
            }
            (lhs, rhs) => {
                let Some(a) = number(lhs, s, run) else {
                    return false;
                };
                let b = match rhs {
                    Operand::Number(x) => Some(*x),
                    Operand::Quantity(q) => number(q, s, run),
                    _ => None,
                };
                b.is_some_and(|b| self.op.holds(a, b))
            }
        }
    }

    /// The left side's value on this run, as a person reads it, for an
    /// author's "does not hold: duplicate_effects is 3".
    pub fn observed(&self, s: &Scenario, run: &Run) -> String {
        match &self.lhs {
            Quantity::Detector(id) => {
                let fires = lease_diagnose::detect(id, s, run).is_some();
                format!("{} is {fires}", name_of(&self.lhs))
            }
            q @ Quantity::Field(f)
                if !matches!(self.rhs, Operand::Number(_) | Operand::Quantity(_)) =>
            {
                match field_off(*f, s) {
                    Some(true) => format!("{} is off", name_of(q)),
                    _ => match f.spec().read(s) {
                        Value::Choice(c) => format!("{} is {}", name_of(q), c.word()),
                        Value::Na => format!("{} does not apply", name_of(q)),
                        other => format!("{} is {other:?}", name_of(q)),
                    },
                }
            }
            q => match number(q, s, run) {
                Some(v) if unit_of(q) == Some(Unit::Ms) => {
                    format!(
                        "{} is {}",
                        name_of(q),
                        lease_format::units::format_ms_f64(v)
                    )
                }
                Some(v) => format!("{} is {v}", name_of(q)),
                None => format!("{} has no value in this run", name_of(q)),
            },
        }
    }
}

impl Condition {
    /// The left side's number on this run, where it has one.
    pub fn number(&self, s: &Scenario, run: &Run) -> Option<f64> {
        number(&self.lhs, s, run)
    }
}

impl fmt::Display for Condition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

/// A figure's or a numeric field's value, where it has one.
fn number(q: &Quantity, s: &Scenario, run: &Run) -> Option<f64> {
    match q {
        Quantity::Figure(f) => (f.value)(s, run),
        Quantity::Field(f) => match f.control() {
            // What the scenario runs with, the preset's defaults included,
            // as the field's slider shows it.
            Some(c) => {
                let live = (c.applies)(s) && field_off(*f, s) != Some(true);
                live.then(|| (c.get)(s))
            }
            None => match f.spec().read(s) {
                Value::Num(n) => Some(n as f64),
                Value::Float(x) => Some(x),
                _ => None,
            },
        },
        Quantity::Detector(_) => None,
    }
}

/// Whether a field that can be off is off (`None`: it does not apply).
fn field_off(f: Field, s: &Scenario) -> Option<bool> {
    match f.control() {
        Some(c) => {
            if !(c.applies)(s) {
                return None;
            }
            Some(match &c.toggle {
                Some(t) if t.checked == Value::Off => (t.get)(s),
                Some(t) if t.unchecked == Value::Off => !(t.get)(s),
                _ => f.spec().read(s) == Value::Off,
            })
        }
        None => match f.spec().read(s) {
            Value::Na => None,
            v => Some(v == Value::Off),
        },
    }
}
