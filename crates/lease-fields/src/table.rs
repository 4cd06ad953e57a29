//! The scenario's editable fields, as one table: each field's name (the
//! share link's), the other spellings people type, the form of its value,
//! how it reads and writes the scenario, and, for the fields a slider edits,
//! the slider (label, range, what it shows). The page's controls, the share
//! link and the command line's `sweep --param` all read this table.
//!
//! Writes do what the page's control does (the broker select resets the
//! preset's fields, "Heartbeat on" adds the page's default heartbeat), so a
//! link replays the same edits; reads return the raw state (`None` versus an
//! explicit value), so that `diff` can make `apply` rebuild a scenario exactly.

use std::fmt;

use lease_format::units::{
    format_f64, format_ms, format_ms_f64, is_keyword, parse_count, parse_f64, parse_ms,
    parse_ms_f64, parse_rate, parse_word_at,
};
use lease_sim::resolve::{resolve, Config};
use lease_sim::scenario::Named;
use lease_sim::scenario::{
    AckAt, CountAt, DeletedAck, Dist, DlqTiming, ExpiryTakes, Fence, Heartbeat, LateAck, Library,
    OnError, OnReject, PastLimit, Preset, Process, ReceiveOrder, Renewal, RetryOn, Scenario,
    StaleDelete, LAMBDA_FUNCTION_TIMEOUT_MS,
};
use lease_sim::validate::{
    effective_visibility_timeout_ms, MAX_ATTEMPT_JITTER, MAX_BACKLOG, MAX_CLAIM_COUNT,
    MAX_CONCURRENCY, MAX_DOWNSTREAM_CAPACITY, MAX_DURATION_MS, MAX_FUNCTION_TIMEOUT_MS,
    MAX_LEASE_LIFETIME_MS, MAX_PREFETCH, MAX_RATE_PER_S, MAX_RECEIVE_BATCH, MAX_RECEIVE_COUNT,
    MAX_RETRY_DOUBLINGS, MAX_RPC_LATENCY_MS, MAX_VISIBILITY_TIMEOUT_MS, MAX_WORKERS, MAX_WORK_MS,
};

use crate::edit::{
    choose_client, choose_preset, client_mut, figure, heartbeat, heartbeat_mut, library, on_grid,
    round2, set_heartbeat_on,
};
use crate::names::{name, words};
use crate::work::{build, median_p99, shape, Shape};
use lease_sim::fit::{compact_samples, scale_data, COMPACT_QUANTILES};
use lease_sim::validate::check_work;

/// A field's value: parsed from a link, sent by a control, or read from a scenario.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// Left to the broker preset (the file leaves the field out).
    Default,
    /// The switch-off value: no redrive, no cap, heartbeat off, unlimited.
    Off,
    /// The switch-on value: the heartbeat the scenario has, or the page's default one.
    On,
    Num(u64),
    Float(f64),
    /// One of a field's words, read once into its enum where the word came in.
    Choice(Choice),
    /// `[probability, ms]` points or `[upper_ms, count]` buckets.
    Pairs(Vec<[f64; 2]>),
    /// Durations in ms.
    List(Vec<f64>),
    /// The field does not apply to this scenario (no explicit heartbeat).
    Na,
}

/// A field's choice among its words (`broker=sqs_fifo`, the client
/// select, `expiry_counts=false`), as the enum the scenario holds: a link
/// or a select reads the word into it once, and the field's write takes it
/// as it is.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Choice {
    Preset(Preset),
    Library(Library),
    DlqTiming(DlqTiming),
    LateAck(LateAck),
    CountAt(CountAt),
    StaleDelete(StaleDelete),
    DeletedAck(DeletedAck),
    ExpiryTakes(ExpiryTakes),
    /// `expiry_counts`: `true` or `false`, as the scenario file writes it.
    Yes(bool),
    OnReject(OnReject),
    OnError(OnError),
    Shape(Shape),
    Process(Process),
    Fence(Fence),
    Renewal(Renewal),
    AckAt(AckAt),
    ReceiveOrder(ReceiveOrder),
    RetryOn(RetryOn),
    PastLimit(PastLimit),
}

impl Choice {
    /// The word a link and the scenario file write for the choice.
    pub fn word(self) -> &'static str {
        match self {
            Choice::Preset(x) => name(&x),
            Choice::Library(x) => name(&x),
            Choice::DlqTiming(x) => name(&x),
            Choice::LateAck(x) => name(&x),
            Choice::CountAt(x) => name(&x),
            Choice::StaleDelete(x) => name(&x),
            Choice::DeletedAck(x) => name(&x),
            Choice::ExpiryTakes(x) => name(&x),
            Choice::Yes(b) => yes_no()[usize::from(!b)],
            Choice::OnReject(x) => name(&x),
            Choice::OnError(x) => name(&x),
            Choice::Shape(x) => name(&x),
            Choice::Process(x) => name(&x),
            Choice::Fence(x) => name(&x),
            Choice::Renewal(x) => name(&x),
            Choice::AckAt(x) => name(&x),
            Choice::ReceiveOrder(x) => name(&x),
            Choice::RetryOn(x) => name(&x),
            Choice::PastLimit(x) => name(&x),
        }
    }
}

/// An enum a field chooses among: which `Choice` carries it.
trait Chosen: Named {
    fn of(c: Choice) -> Option<Self>;
    fn choice(self) -> Choice;
}

macro_rules! chosen {
    ($($t:ident),+ $(,)?) => {
        $(
            impl Chosen for $t {
                fn of(c: Choice) -> Option<$t> {
                    match c {
                        Choice::$t(x) => Some(x),
                        _ => None,
                    }
                }
                fn choice(self) -> Choice {
                    Choice::$t(self)
                }
            }
            impl From<$t> for Value {
                fn from(x: $t) -> Value {
                    Value::Choice(Choice::$t(x))
                }
            }
        )+
    };
}

chosen!(
    Preset,
    Library,
    DlqTiming,
    LateAck,
    CountAt,
    StaleDelete,
    DeletedAck,
    ExpiryTakes,
    OnReject,
    OnError,
    Shape,
    Process,
    Fence,
    Renewal,
    AckAt,
    ReceiveOrder,
    RetryOn,
    PastLimit
);

impl From<Choice> for Value {
    fn from(c: Choice) -> Value {
        Value::Choice(c)
    }
}

/// The choice at `i` of the enum's words.
fn pick<T: Chosen>(i: usize) -> Choice {
    T::NAMES[i].0.choice()
}

#[derive(Clone, Copy)]
enum Kind {
    /// Whole milliseconds.
    Ms {
        lo: u64,
        hi: u64,
    },
    /// Milliseconds held as `f64`, above 0.
    MsF {
        hi: u64,
    },
    Count {
        lo: u64,
        hi: u64,
    },
    /// A plain number; `percent` also takes `5%`.
    Float {
        lo: f64,
        hi: f64,
        percent: bool,
    },
    Rate {
        hi: f64,
    },
    /// One of these words, read into the `Choice` at the same place.
    Words(fn() -> &'static [&'static str], fn(usize) -> Choice),
    /// A list of durations, `5s,30s,5min`, each within the range.
    MsList {
        lo: u64,
        hi: u64,
    },
    /// A work distribution's data, `a:b,c:d` or `a,b,c`, checked as the
    /// scenario file's: `0.5:2000,0.99:20000` (`points`), `120,340`
    /// (`samples`), `100:3,1000:5` (`buckets`).
    Data(DataKind),
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum DataKind {
    Points,
    Samples,
    Buckets,
}

impl DataKind {
    fn dist(self, v: &Value) -> Option<Dist> {
        Some(match (self, v) {
            (DataKind::Points, Value::Pairs(p)) => Dist::Quantiles { points: p.clone() },
            (DataKind::Buckets, Value::Pairs(b)) => Dist::Histogram { buckets: b.clone() },
            // Whole ms, as a link writes them (docs/MODEL.md "The compact
            // form"): what a link reads, it writes back the same.
            (DataKind::Samples, Value::List(l)) => Dist::Empirical {
                samples_ms: l.iter().map(|x| x.round()).collect(),
            },
            _ => return None,
        })
    }

    fn parse(self, text: &str) -> Result<Value, String> {
        // Every number of the data is 0 or more; the ranges are the check's.
        let number = |t: &str| {
            parse_f64(t, 0.0, f64::MAX, false)
                .map_err(|_| format!("`{t}` must be a number, 0 or more"))
        };
        let items = text.split(',').map(str::trim).filter(|t| !t.is_empty());
        let v = if self == DataKind::Samples {
            Value::List(items.map(number).collect::<Result<_, _>>()?)
        } else {
            let pair = |t: &str| -> Result<[f64; 2], String> {
                let (a, b) = t
                    .split_once(':')
                    .ok_or_else(|| format!("`{t}` must be a pair such as 0.5:2000"))?;
                Ok([number(a)?, number(b)?])
            };
            Value::Pairs(items.map(pair).collect::<Result<_, _>>()?)
        };
        let d = self.dist(&v).ok_or("must be a list of numbers")?;
        check_work(&d).map_err(|e| e.to_string())?;
        Ok(v)
    }

    /// Samples are written as their compact quantiles in whole ms, so a
    /// link stays short whatever the list (docs/MODEL.md).
    fn format(self, v: &Value) -> Option<String> {
        let list: Vec<String> = match (self, v) {
            (DataKind::Samples, Value::List(l)) => compact_samples(l, COMPACT_QUANTILES)
                .into_iter()
                .map(|x| x.round().to_string())
                .collect(),
            (DataKind::Points | DataKind::Buckets, Value::Pairs(p)) => p
                .iter()
                .map(|[a, b]| format!("{}:{}", (*a), (*b)))
                .collect(),
            _ => return None,
        };
        Some(list.join(","))
    }
}

/// The words that switch a field off; the first is what `diff` writes
/// unless the field names its own.
const OFF_WORDS: [&str; 5] = ["off", "none", "unlimited", "no", "null"];
const DEFAULT_WORDS: [&str; 2] = ["default", "preset"];

/// A field that could not take a value, and why (with what is allowed).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldError {
    pub field: &'static str,
    pub why: String,
}

impl fmt::Display for FieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field, self.why)
    }
}

impl std::error::Error for FieldError {}

/// The slowest rate the arrivals slider reaches after 0: 0.01 a second
/// (36 an hour), the finest a rate is written to (two decimals); a slower
/// rate is typed (`1/h`), and the keys step from it.
pub const SLOWEST_RATE_PER_S: f64 = 0.01;

/// The shortest work time the work sliders reach: a tenth of a
/// millisecond, the finest a duration reads on the page.
pub const FINEST_WORK_MS: f64 = 0.1;

/// A slider's span: its ends, and whether equal drags are equal ratios.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Range {
    pub min: f64,
    pub max: f64,
    pub log: bool,
    /// 0 is a value too, at the slider's first position, before `min`
    /// (a log scale cannot reach it).
    pub zero: bool,
}

impl Range {
    const fn linear(min: f64, max: f64) -> Range {
        Range {
            min,
            max,
            log: false,
            zero: false,
        }
    }

    const fn log(min: f64, max: f64) -> Range {
        Range {
            min,
            max,
            log: true,
            zero: false,
        }
    }

    /// 0, then `min` to `max` on a log scale.
    const fn log_from_zero(min: f64, max: f64) -> Range {
        Range {
            min,
            max,
            log: true,
            zero: true,
        }
    }

    /// The smallest value the slider reaches: 0 when it has a zero.
    pub fn lowest(&self) -> f64 {
        if self.zero {
            0.0
        } else {
            self.min
        }
    }
}

/// How a slider's value reads to a person.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    Ms,
    Count,
    Ratio,
    Percent,
    PerSecond,
    Handlers,
}

/// A checkbox beside a slider: a special value ("no cap") or a switch.
pub struct Toggle {
    pub id: &'static str,
    pub label: &'static str,
    pub get: fn(&Scenario) -> bool,
    /// What checking it sets, and what unchecking it sets.
    pub checked: Value,
    pub unchecked: Value,
    /// The slider is live when the box is checked (a switch such as
    /// "Heartbeat on") rather than unchecked (a special value such as "No cap").
    pub enables: bool,
}

/// The slider that edits a field on the page.
pub struct Control {
    /// The element's id on the page (`ctl-ID`, `out-ID`).
    pub id: &'static str,
    pub label: &'static str,
    pub group: Group,
    pub range: Range,
    pub unit: Unit,
    /// What the scenario runs with, the preset's defaults included.
    pub get: fn(&Scenario) -> f64,
    /// The value a slider position sends: rounded to what a person reads,
    /// and kept where the slider keeps it (prefetch at least the handlers).
    pub value: fn(&Scenario, f64) -> Value,
    /// Beyond the toggle: can the slider apply at all (e.g. a heartbeat exists)?
    pub applies: fn(&Scenario) -> bool,
    pub toggle: Option<Toggle>,
}

/// The controls' groups, each a fieldset of the page with its legend.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Group {
    Load,
    Workers,
    Work,
    Broker,
    Heartbeat,
    Downstream,
}

impl Group {
    /// The group's legend.
    pub fn label(self) -> &'static str {
        match self {
            Group::Load => "Load",
            Group::Workers => "Workers",
            Group::Work => "Work",
            Group::Broker => "Broker",
            Group::Heartbeat => "Heartbeat",
            Group::Downstream => "Downstream",
        }
    }
}

/// A key on a slider: arrows move one step of the control's precision,
/// Page Up and Page Down ten, Home and End to the ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    Up,
    Down,
    PageUp,
    PageDown,
    Home,
    End,
}

impl Step {
    /// The step a key (`KeyboardEvent.key`) asks for, as a native range does.
    pub fn of_key(key: &str) -> Option<Step> {
        Some(match key {
            "ArrowUp" | "ArrowRight" => Step::Up,
            "ArrowDown" | "ArrowLeft" => Step::Down,
            "PageUp" => Step::PageUp,
            "PageDown" => Step::PageDown,
            "Home" => Step::Home,
            "End" => Step::End,
            _ => return None,
        })
    }
}

impl Control {
    /// What the slider sends for `v`: the control's rounding, but a value
    /// at either end of the range exactly, so that End reaches the most
    /// the field takes (12 h, not 43,000 s) and never rounds past it.
    pub fn at(&self, s: &Scenario, v: f64) -> Value {
        let sent = (self.value)(s, v);
        if v != self.range.max && v != self.range.lowest() {
            return sent;
        }
        match sent {
            Value::Num(_) => Value::Num(v.round() as u64),
            Value::Float(_) => Value::Float(v),
            other => other,
        }
    }

    pub fn live(&self, s: &Scenario) -> bool {
        (self.applies)(s) && self.toggle.as_ref().is_none_or(|t| (t.get)(s) == t.enables)
    }

    /// The power of ten of the control's finest step at `v`: on a log
    /// slider the second significant figure (the figure `round2` keeps, so
    /// 60 s goes to 61 s and 1.2 min to 1.3 min), on a linear one a fixed
    /// place (10 ms, one handler, one percent). Whole units never step by
    /// less than one.
    fn fine(&self, v: f64) -> i32 {
        let whole = matches!(self.unit, Unit::Count | Unit::Handlers);
        let e = if self.range.log {
            figure(v.max(self.range.min)) - 1
        } else {
            match self.unit {
                Unit::Ms => 1,
                Unit::Ratio | Unit::Percent => -2,
                Unit::Count | Unit::Handlers => 0,
                Unit::PerSecond => -2,
            }
        };
        if whole || self.unit == Unit::Ms {
            e.max(0)
        } else {
            e
        }
    }

    /// Where a key moves the slider from the value `v`: to the next value on
    /// the grid of the control's precision in that direction, within the
    /// slider's range.
    pub fn step(&self, v: f64, step: Step) -> f64 {
        let (lo, hi) = (self.range.lowest(), self.range.max);
        let (up, coarse) = match step {
            Step::Home => return lo,
            Step::End => return hi,
            Step::Up => (true, false),
            Step::Down => (false, false),
            Step::PageUp => (true, true),
            Step::PageDown => (false, true),
        };
        // Going down from 100 s, the grid is that of the decade below (99 s).
        let at = if up { v } else { v * (1.0 - 1e-9) };
        let e = self.fine(at) + i32::from(coarse);
        let next = if up {
            on_grid(v, e, |t| t.floor() + 1.0)
        } else {
            on_grid(v, e, |t| t.ceil() - 1.0)
        };
        // Below a log range's first value, down goes to its zero.
        let next = if !up && self.range.zero && next < self.range.min {
            0.0
        } else {
            next
        };
        let next = next.clamp(lo, hi);
        // A key never moves the value the wrong way: a value typed beyond
        // the slider's end (or a preset's) stays where it is.
        if up {
            next.max(v.min(hi))
        } else {
            next.min(v.max(lo))
        }
    }
}

/// A broker rule as the page's "Broker rules" group offers it: its label,
/// the presets whose documented behaviour it sets (docs/MODEL.md, "The
/// brokers one runs"), and the value the scenario runs with, the preset's
/// own where the scenario leaves the field out.
pub struct Rule {
    pub label: &'static str,
    pub presets: &'static [Preset],
    pub runs_with: fn(&Config) -> Value,
}

pub struct Spec {
    pub name: &'static str,
    /// The page's slider id and other spellings people may type.
    pub aliases: &'static [&'static str],
    kind: Kind,
    /// `default` is accepted: the field goes back to the broker preset's value.
    default_ok: bool,
    /// The word written for `Value::Off`, when the field has an off value.
    off: Option<&'static str>,
    read: fn(&Scenario) -> Value,
    write: fn(&mut Scenario, &Value) -> Result<(), String>,
    /// Part of the work distribution, applied together by `apply_work`.
    work: bool,
    pub control: Option<Control>,
    /// A broker rule a person sets on the page under the presets it matters to.
    pub rule: Option<Rule>,
}

impl Spec {
    /// The least and the most a numeric field accepts.
    pub fn bounds(&self) -> Option<(f64, f64)> {
        Some(match self.kind {
            Kind::Ms { lo, hi } | Kind::Count { lo, hi } => (lo as f64, hi as f64),
            // Above 0: from the finest a duration reads on the page, a
            // tenth of a millisecond (`display::duration_f64`).
            Kind::MsF { hi } => (FINEST_WORK_MS, hi as f64),
            Kind::Float { lo, hi, .. } => (lo, hi),
            Kind::Rate { hi } => (0.0, hi),
            _ => return None,
        })
    }

    pub fn parse(&self, text: &str) -> Result<Value, String> {
        if self.default_ok && is_keyword(text, &DEFAULT_WORDS) {
            return Ok(Value::Default);
        }
        if self.off.is_some() && is_keyword(text, &OFF_WORDS) {
            return Ok(Value::Off);
        }
        let parsed = match self.kind {
            Kind::Ms { lo, hi } => parse_ms(text, lo, hi).map(Value::Num),
            Kind::MsF { hi } => parse_ms_f64(text, hi).map(Value::Float),
            Kind::Count { lo, hi } => parse_count(text, lo, hi).map(Value::Num),
            Kind::Float { lo, hi, percent } => parse_f64(text, lo, hi, percent).map(Value::Float),
            Kind::Rate { hi } => parse_rate(text, hi).map(Value::Float),
            Kind::Words(words, pick) => {
                parse_word_at(text, words()).map(|i| Value::Choice(pick(i)))
            }
            Kind::Data(k) => k.parse(text),
            Kind::MsList { lo, hi } => text
                .split(',')
                .map(str::trim)
                .filter(|t| !t.is_empty())
                .map(|t| {
                    parse_ms(t, lo, hi)
                        .map(|n| n as f64)
                        .map_err(|why| format!("the entry `{t}` {why}"))
                })
                .collect::<Result<Vec<f64>, String>>()
                .and_then(|l| {
                    if l.is_empty() {
                        Err("must list at least one duration, such as 5s,30s,5min".into())
                    } else {
                        Ok(Value::List(l))
                    }
                }),
        };
        parsed.map_err(|why| {
            let mut why = why;
            if let Some(off) = self.off {
                why.push_str(&format!(", or {off}"));
            }
            if self.default_ok {
                why.push_str(match self.name {
                    "max_lease" | "max_lock_renewal" | "function_timeout" => {
                        ", or default (the client library's value)"
                    }
                    _ => ", or default (the broker preset's value)",
                });
            }
            why
        })
    }

    pub fn format(&self, v: &Value) -> Option<String> {
        Some(match (v, self.kind) {
            (Value::Default, _) if self.default_ok => "default".into(),
            (Value::Off, _) => self.off?.into(),
            (Value::Num(n), Kind::Ms { .. }) => format_ms(*n),
            (Value::Num(n), Kind::Count { .. }) => n.to_string(),
            (Value::Float(x), Kind::MsF { .. }) => format_ms_f64(*x),
            (Value::Float(x), Kind::Float { .. } | Kind::Rate { .. }) => format_f64(*x),
            (Value::Choice(c), Kind::Words(..)) => c.word().into(),
            (v, Kind::Data(k)) => k.format(v)?,
            (Value::List(l), Kind::MsList { .. }) => l
                .iter()
                .map(|&x| format_ms(x as u64))
                .collect::<Vec<_>>()
                .join(","),
            _ => return None,
        })
    }

    /// The field's raw value in the scenario (`Default` where the file
    /// leaves it to the preset), as a link would write it.
    pub fn read(&self, s: &Scenario) -> Value {
        (self.read)(s)
    }

    /// The words a word field chooses among, in the scenario file's spelling.
    pub fn words(&self) -> Option<&'static [&'static str]> {
        match self.kind {
            Kind::Words(words, _) => Some(words()),
            _ => None,
        }
    }

    /// What the scenario runs with for a broker rule, as a link writes it:
    /// the preset's own value where the scenario leaves the field out.
    pub fn runs_with(&self, s: &Scenario) -> Option<String> {
        let v = (self.rule.as_ref()?.runs_with)(&resolve(s));
        Some(match v {
            Value::Na => String::new(),
            Value::Off if self.off.is_none() => String::new(),
            v => self.format(&v)?,
        })
    }

    /// Whether the value is a duration (else a count, a number or a word).
    pub fn is_duration(&self) -> bool {
        matches!(self.kind, Kind::Ms { .. } | Kind::MsF { .. })
    }
}

/// Every scenario field, by its link name. The order is `Spec`'s table's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Field {
    Seed,
    Duration,
    Broker,
    Client,
    MaxLease,
    LockRenewal,
    FunctionTimeout,
    Timeout,
    Mrc,
    Lifetime,
    Batch,
    Rpc,
    Dlq,
    LateAck,
    CountAt,
    StaleDelete,
    DeletedAck,
    ExpiryTakes,
    ExpiryCheck,
    ExpiryCounts,
    LeaseSteps,
    CheckPasses,
    ClaimCount,
    MaxExpiries,
    RetryMin,
    RetryMax,
    RetryDoublings,
    RetryOn,
    PastLimit,
    ReceiveOrder,
    Workers,
    Conc,
    Prefetch,
    Hb,
    Ext,
    Cap,
    OnReject,
    Err,
    Hang,
    OnError,
    Renewal,
    AckAt,
    CpuBound,
    Dist,
    Median,
    P99,
    Min,
    Max,
    Mean,
    Points,
    Samples,
    Buckets,
    Jitter,
    Rate,
    Backlog,
    Process,
    Eta,
    Capacity,
    Fence,
}

impl Field {
    pub const ALL: [Field; 59] = [
        Field::Seed,
        Field::Duration,
        Field::Broker,
        Field::Client,
        Field::MaxLease,
        Field::LockRenewal,
        Field::FunctionTimeout,
        Field::Timeout,
        Field::Mrc,
        Field::Lifetime,
        Field::Batch,
        Field::Rpc,
        Field::Dlq,
        Field::LateAck,
        Field::CountAt,
        Field::StaleDelete,
        Field::DeletedAck,
        Field::ExpiryTakes,
        Field::ExpiryCheck,
        Field::ExpiryCounts,
        Field::LeaseSteps,
        Field::CheckPasses,
        Field::ClaimCount,
        Field::MaxExpiries,
        Field::RetryMin,
        Field::RetryMax,
        Field::RetryDoublings,
        Field::RetryOn,
        Field::PastLimit,
        Field::ReceiveOrder,
        Field::Workers,
        Field::Conc,
        Field::Prefetch,
        Field::Hb,
        Field::Ext,
        Field::Cap,
        Field::OnReject,
        Field::Err,
        Field::Hang,
        Field::OnError,
        Field::Renewal,
        Field::AckAt,
        Field::CpuBound,
        Field::Dist,
        Field::Median,
        Field::P99,
        Field::Min,
        Field::Max,
        Field::Mean,
        Field::Points,
        Field::Samples,
        Field::Buckets,
        Field::Jitter,
        Field::Rate,
        Field::Backlog,
        Field::Process,
        Field::Eta,
        Field::Capacity,
        Field::Fence,
    ];

    pub fn spec(self) -> &'static Spec {
        &FIELDS[self as usize]
    }

    /// The name the share link and the command line use.
    pub fn name(self) -> &'static str {
        self.spec().name
    }

    /// The field's slider; every field a `CONTROLS` entry names has one.
    pub fn control(self) -> Option<&'static Control> {
        self.spec().control.as_ref()
    }
}

/// The broker rules that matter under a preset, in the table's order: the
/// page's "Broker rules" group.
pub fn rules_for(p: Preset) -> impl Iterator<Item = Field> {
    Field::ALL.into_iter().filter(move |f| {
        f.spec()
            .rule
            .as_ref()
            .is_some_and(|r| r.presets.contains(&p))
    })
}

/// The sliders in the order the page shows them, each group together.
pub const CONTROLS: [Field; 18] = [
    Field::Timeout,
    Field::FunctionTimeout,
    Field::Mrc,
    Field::Rpc,
    Field::Workers,
    Field::Conc,
    Field::Prefetch,
    Field::Hb,
    Field::Ext,
    Field::Cap,
    Field::Median,
    Field::P99,
    Field::Jitter,
    Field::Err,
    Field::Rate,
    Field::Backlog,
    Field::Duration,
    Field::Capacity,
];

fn always(_: &Scenario) -> bool {
    true
}

fn opt_num(v: Option<u64>) -> Value {
    v.map_or(Value::Default, Value::Num)
}

fn num(v: &Value) -> Result<u64, String> {
    match v {
        Value::Num(n) => Ok(*n),
        _ => Err("must be a number".into()),
    }
}

fn num_u32(v: &Value) -> Result<u32, String> {
    u32::try_from(num(v)?).map_err(|_| "is too large".into())
}

fn float(v: &Value) -> Result<f64, String> {
    match v {
        Value::Float(x) => Ok(*x),
        _ => Err("must be a number".into()),
    }
}

/// The enum value a field's choice holds.
fn chosen<T: Chosen>(v: &Value) -> Result<T, String> {
    match v {
        Value::Choice(c) => {
            T::of(*c).ok_or_else(|| format!("must be one of {}", T::WORDS.join(", ")))
        }
        _ => Err("must be a word".into()),
    }
}

fn yes(v: &Value) -> Result<bool, String> {
    match v {
        Value::Choice(Choice::Yes(b)) => Ok(*b),
        _ => Err("must be true or false".into()),
    }
}

/// `None` for `default`, else the value: the preset-filled broker fields.
fn defaultable<T>(
    v: &Value,
    f: impl FnOnce(&Value) -> Result<T, String>,
) -> Result<Option<T>, String> {
    match v {
        Value::Default => Ok(None),
        other => f(other).map(Some),
    }
}

/// `Some(None)` for `off`, `None` for `default`: the fields where JSON `null`
/// itself means something.
fn nullable<T>(
    v: &Value,
    f: impl FnOnce(&Value) -> Result<T, String>,
) -> Result<Option<Option<T>>, String> {
    match v {
        Value::Default => Ok(None),
        Value::Off => Ok(Some(None)),
        other => f(other).map(|x| Some(Some(x))),
    }
}

fn nullable_read<T: Copy>(v: Option<Option<T>>, f: impl Fn(T) -> u64) -> Value {
    match v {
        None => Value::Default,
        Some(None) => Value::Off,
        Some(Some(x)) => Value::Num(f(x)),
    }
}

fn optional_word<T: Chosen>(v: Option<T>) -> Value {
    v.map_or(Value::Default, |x| Value::Choice(x.choice()))
}

/// A yes-or-no field's words, `true` first, as the scenario file writes it.
fn yes_no() -> &'static [&'static str] {
    &["true", "false"]
}

const NO_HEARTBEAT: &str = "applies only while the heartbeat is on (set hb first)";

fn explicit_read(s: &Scenario, f: impl Fn(&Heartbeat) -> Value) -> Value {
    match &s.workers.heartbeat {
        Some(Some(h)) => f(h),
        _ => Value::Na,
    }
}

/// A client parameter, when the scenario's library is `want`.
fn client_read(
    s: &Scenario,
    want: Library,
    f: impl Fn(&lease_sim::scenario::Client) -> Value,
) -> Value {
    match &s.workers.client {
        Some(c) if c.library == want => f(c),
        _ => Value::Na,
    }
}

fn work_read(_: &Scenario) -> Value {
    Value::Na
}

fn work_write(_: &mut Scenario, _: &Value) -> Result<(), String> {
    Ok(())
}

/// Every scenario field, in the order `apply` applies them: a field's write
/// may depend only on fields before it (the broker select before the timeout,
/// the timeout before "Heartbeat on", handlers before prefetch).
pub static FIELDS: [Spec; 59] = [
    Spec {
        name: "seed",
        aliases: &[],
        kind: Kind::Count {
            lo: 0,
            hi: u64::MAX,
        },
        default_ok: false,
        off: None,
        read: |s| Value::Num(s.seed),
        write: |s, v| {
            s.seed = num(v)?;
            Ok(())
        },
        work: false,
        rule: None,
        control: None,
    },
    Spec {
        name: "duration",
        aliases: &["length"],
        kind: Kind::Ms {
            lo: 1,
            hi: MAX_DURATION_MS,
        },
        default_ok: false,
        off: None,
        read: |s| Value::Num(s.duration_ms),
        write: |s, v| {
            s.duration_ms = num(v)?;
            Ok(())
        },
        work: false,
        rule: None,
        control: Some(Control {
            id: "duration",
            label: "Run length",
            group: Group::Load,
            range: Range::log(1.0, MAX_DURATION_MS as f64),
            unit: Unit::Ms,
            get: |s| s.duration_ms as f64,
            value: |_, v| Value::Num(round2(v) as u64),
            applies: always,
            toggle: None,
        }),
    },
    Spec {
        name: "broker",
        aliases: &["preset"],
        kind: Kind::Words(words::<Preset>, pick::<Preset>),
        default_ok: false,
        off: None,
        read: |s| s.broker.preset.into(),
        write: |s, v| {
            // What the page's broker select does: the preset brings its own defaults.
            choose_preset(s, chosen::<Preset>(v)?);
            Ok(())
        },
        work: false,
        rule: None,
        control: None,
    },
    Spec {
        name: "client",
        aliases: &["library", "client_library"],
        kind: Kind::Words(words::<Library>, pick::<Library>),
        default_ok: false,
        off: None,
        read: |s| library(s).into(),
        write: |s, v| {
            // What the page's client select does: the library takes the lease.
            choose_client(s, chosen::<Library>(v)?);
            Ok(())
        },
        work: false,
        rule: None,
        control: None,
    },
    Spec {
        name: "max_lease",
        aliases: &["max_lease_ms"],
        kind: Kind::Ms {
            lo: 1,
            hi: MAX_DURATION_MS,
        },
        // `default`: the library's 60 min.
        default_ok: true,
        off: None,
        read: |s| client_read(s, Library::Pubsub, |c| opt_num(c.max_lease_ms)),
        write: |s, v| {
            let x = defaultable(v, num)?;
            client_mut(s, Library::Pubsub)?.max_lease_ms = x;
            Ok(())
        },
        work: false,
        rule: None,
        control: None,
    },
    Spec {
        name: "max_lock_renewal",
        aliases: &["max_auto_lock_renewal", "max_auto_lock_renewal_ms"],
        kind: Kind::Ms {
            lo: 0,
            hi: MAX_DURATION_MS,
        },
        // `default`: the library's 5 min.
        default_ok: true,
        off: None,
        read: |s| {
            client_read(s, Library::ServiceBus, |c| {
                opt_num(c.max_auto_lock_renewal_ms)
            })
        },
        write: |s, v| {
            let x = defaultable(v, num)?;
            client_mut(s, Library::ServiceBus)?.max_auto_lock_renewal_ms = x;
            Ok(())
        },
        work: false,
        rule: None,
        control: None,
    },
    Spec {
        name: "function_timeout",
        aliases: &["function_timeout_ms", "lambda_timeout"],
        kind: Kind::Ms {
            lo: 1,
            hi: MAX_FUNCTION_TIMEOUT_MS,
        },
        // `default`: the playground's 30 s.
        default_ok: true,
        off: None,
        read: |s| client_read(s, Library::SqsLambda, |c| opt_num(c.function_timeout_ms)),
        write: |s, v| {
            let x = defaultable(v, num)?;
            client_mut(s, Library::SqsLambda)?.function_timeout_ms = x;
            Ok(())
        },
        work: false,
        rule: None,
        // Shown with the Lambda client only: it is that client's setting.
        control: Some(Control {
            id: "function-timeout",
            label: "Function timeout",
            group: Group::Broker,
            range: Range::log(1.0, MAX_FUNCTION_TIMEOUT_MS as f64),
            unit: Unit::Ms,
            get: |s| {
                s.workers
                    .client
                    .as_ref()
                    .filter(|c| c.library == Library::SqsLambda)
                    .and_then(|c| c.function_timeout_ms)
                    .unwrap_or(LAMBDA_FUNCTION_TIMEOUT_MS) as f64
            },
            value: |_, v| Value::Num(round2(v) as u64),
            applies: |s| library(s) == Library::SqsLambda,
            toggle: None,
        }),
    },
    Spec {
        name: "timeout",
        aliases: &["visibility_timeout"],
        kind: Kind::Ms {
            lo: 1,
            hi: MAX_VISIBILITY_TIMEOUT_MS,
        },
        default_ok: true,
        off: None,
        read: |s| opt_num(s.broker.visibility_timeout_ms),
        write: |s, v| {
            s.broker.visibility_timeout_ms = defaultable(v, num)?;
            Ok(())
        },
        work: false,
        rule: None,
        control: Some(Control {
            id: "timeout",
            label: "Visibility timeout",
            group: Group::Broker,
            range: Range::log(1.0, MAX_VISIBILITY_TIMEOUT_MS as f64),
            unit: Unit::Ms,
            get: |s| effective_visibility_timeout_ms(s) as f64,
            value: |_, v| Value::Num(round2(v) as u64),
            applies: always,
            toggle: None,
        }),
    },
    Spec {
        name: "mrc",
        aliases: &["max-receive", "max_receive_count"],
        kind: Kind::Count {
            lo: 1,
            hi: MAX_RECEIVE_COUNT as u64,
        },
        default_ok: true,
        off: Some("none"),
        read: |s| nullable_read(s.broker.max_receive_count, u64::from),
        write: |s, v| {
            s.broker.max_receive_count = nullable(v, num_u32)?;
            Ok(())
        },
        work: false,
        rule: None,
        control: Some(Control {
            id: "max-receive",
            label: "Max receive count",
            group: Group::Broker,
            range: Range::log(1.0, MAX_RECEIVE_COUNT as f64),
            unit: Unit::Count,
            get: |s| f64::from(resolve(s).max_receive_count.unwrap_or(5)),
            value: |_, v| Value::Num(v.round().max(1.0) as u64),
            applies: always,
            toggle: Some(Toggle {
                id: "no-redrive",
                label: "No redrive",
                get: |s| resolve(s).max_receive_count.is_none(),
                checked: Value::Off,
                unchecked: Value::Num(5),
                enables: false,
            }),
        }),
    },
    Spec {
        name: "lifetime",
        aliases: &["max_lease_lifetime"],
        kind: Kind::Ms {
            lo: 1,
            hi: MAX_LEASE_LIFETIME_MS,
        },
        default_ok: true,
        off: Some("none"),
        read: |s| nullable_read(s.broker.max_lease_lifetime_ms, |x| x),
        write: |s, v| {
            s.broker.max_lease_lifetime_ms = nullable(v, num)?;
            Ok(())
        },
        work: false,
        rule: None,
        control: None,
    },
    Spec {
        name: "batch",
        aliases: &["receive_batch"],
        kind: Kind::Count {
            lo: 1,
            hi: MAX_RECEIVE_BATCH as u64,
        },
        default_ok: true,
        off: None,
        read: |s| opt_num(s.broker.receive_batch.map(u64::from)),
        write: |s, v| {
            s.broker.receive_batch = defaultable(v, num_u32)?;
            Ok(())
        },
        work: false,
        rule: None,
        control: None,
    },
    Spec {
        name: "rpc",
        aliases: &["rpc_latency"],
        kind: Kind::Ms {
            lo: 0,
            hi: MAX_RPC_LATENCY_MS,
        },
        default_ok: true,
        off: None,
        read: |s| opt_num(s.broker.rpc_latency_ms),
        write: |s, v| {
            s.broker.rpc_latency_ms = defaultable(v, num)?;
            Ok(())
        },
        work: false,
        rule: None,
        control: Some(Control {
            id: "rpc",
            label: "Broker call latency",
            group: Group::Broker,
            range: Range::log_from_zero(1.0, MAX_RPC_LATENCY_MS as f64),
            unit: Unit::Ms,
            get: |s| resolve(s).rpc_latency_ms as f64,
            value: |_, v| Value::Num(round2(v.max(0.0)) as u64),
            applies: always,
            toggle: None,
        }),
    },
    Spec {
        name: "dlq",
        aliases: &["dlq_timing"],
        kind: Kind::Words(words::<DlqTiming>, pick::<DlqTiming>),
        default_ok: true,
        off: None,
        read: |s| optional_word(s.broker.dlq_timing),
        write: |s, v| {
            s.broker.dlq_timing = defaultable(v, chosen)?;
            Ok(())
        },
        work: false,
        rule: None,
        control: None,
    },
    Spec {
        name: "late_ack",
        aliases: &["late"],
        kind: Kind::Words(words::<LateAck>, pick::<LateAck>),
        default_ok: true,
        off: None,
        read: |s| optional_word(s.broker.late_ack),
        write: |s, v| {
            s.broker.late_ack = defaultable(v, chosen)?;
            Ok(())
        },
        work: false,
        rule: None,
        control: None,
    },
    Spec {
        name: "count_at",
        aliases: &[],
        kind: Kind::Words(words::<CountAt>, pick::<CountAt>),
        default_ok: true,
        off: None,
        read: |s| optional_word(s.broker.count_at),
        write: |s, v| {
            s.broker.count_at = defaultable(v, chosen)?;
            Ok(())
        },
        work: false,
        rule: None,
        control: None,
    },
    Spec {
        name: "stale_delete",
        aliases: &[],
        kind: Kind::Words(words::<StaleDelete>, pick::<StaleDelete>),
        default_ok: true,
        off: None,
        read: |s| optional_word(s.broker.stale_delete),
        write: |s, v| {
            s.broker.stale_delete = defaultable(v, chosen)?;
            Ok(())
        },
        work: false,
        rule: None,
        control: None,
    },
    Spec {
        name: "deleted_ack",
        aliases: &[],
        kind: Kind::Words(words::<DeletedAck>, pick::<DeletedAck>),
        default_ok: true,
        off: None,
        read: |s| optional_word(s.broker.deleted_ack),
        write: |s, v| {
            s.broker.deleted_ack = defaultable(v, chosen)?;
            Ok(())
        },
        work: false,
        rule: None,
        control: None,
    },
    Spec {
        name: "expiry_takes",
        aliases: &["takes"],
        kind: Kind::Words(words::<ExpiryTakes>, pick::<ExpiryTakes>),
        default_ok: true,
        off: None,
        read: |s| optional_word(s.broker.expiry_takes),
        write: |s, v| {
            s.broker.expiry_takes = defaultable(v, chosen)?;
            Ok(())
        },
        work: false,
        rule: Some(Rule {
            label: "What expiry takes back",
            presets: &[
                Preset::Rabbitmq42,
                Preset::Rabbitmq43,
                Preset::RedisStreams,
                Preset::CeleryRedis,
                Preset::SidekiqPro,
            ],
            runs_with: |c| c.expiry_takes.into(),
        }),
        control: None,
    },
    Spec {
        name: "expiry_check",
        aliases: &["expiry_check_ms", "channel_tick", "channel_tick_interval"],
        kind: Kind::Ms {
            lo: 1,
            hi: MAX_DURATION_MS,
        },
        default_ok: true,
        // `none`: taken back at the deadline itself.
        off: Some("none"),
        read: |s| nullable_read(s.broker.expiry_check_ms, |x| x),
        write: |s, v| {
            s.broker.expiry_check_ms = nullable(v, num)?;
            Ok(())
        },
        work: false,
        rule: Some(Rule {
            label: "Expiry check interval",
            presets: &[
                Preset::Rabbitmq42,
                Preset::RedisStreams,
                Preset::Bullmq,
                Preset::CeleryRedis,
                Preset::SidekiqPro,
            ],
            runs_with: |c| c.expiry_check_ms.map_or(Value::Off, Value::Num),
        }),
        control: None,
    },
    Spec {
        name: "expiry_counts",
        aliases: &[],
        kind: Kind::Words(yes_no, |i| Choice::Yes(i == 0)),
        default_ok: true,
        off: None,
        read: |s| match s.broker.expiry_counts {
            None => Value::Default,
            Some(b) => Value::Choice(Choice::Yes(b)),
        },
        write: |s, v| {
            s.broker.expiry_counts = defaultable(v, yes)?;
            Ok(())
        },
        work: false,
        rule: Some(Rule {
            label: "Expiry counts toward the limit",
            presets: &[Preset::Rabbitmq42, Preset::Rabbitmq43, Preset::Bullmq],
            runs_with: |c| Value::Choice(Choice::Yes(c.expiry_counts)),
        }),
        control: None,
    },
    Spec {
        name: "lease_steps",
        aliases: &["lease_steps_ms", "backoff"],
        kind: Kind::MsList {
            lo: 1,
            hi: MAX_DURATION_MS,
        },
        default_ok: true,
        off: None,
        read: |s| match &s.broker.lease_steps_ms {
            None => Value::Default,
            Some(l) => Value::List(l.iter().map(|&x| x as f64).collect()),
        },
        write: |s, v| {
            s.broker.lease_steps_ms = defaultable(v, |v| match v {
                Value::List(l) => Ok(l.iter().map(|&x| x as u64).collect()),
                _ => Err("must be a list of durations".into()),
            })?;
            Ok(())
        },
        work: false,
        rule: Some(Rule {
            label: "BackOff list",
            presets: &[Preset::NatsJetstream],
            runs_with: |c| Value::List(c.lease_steps_ms.iter().map(|&x| x as f64).collect()),
        }),
        control: None,
    },
    Spec {
        name: "check_passes",
        aliases: &["expiry_check_passes"],
        kind: Kind::Count { lo: 1, hi: 2 },
        default_ok: true,
        off: None,
        read: |s| {
            s.broker
                .expiry_check_passes
                .map_or(Value::Default, |n| Value::Num(n.into()))
        },
        write: |s, v| {
            s.broker.expiry_check_passes = defaultable(v, num_u32)?;
            Ok(())
        },
        work: false,
        rule: Some(Rule {
            label: "Stall check passes",
            presets: &[Preset::Bullmq],
            runs_with: |c| Value::Num(c.expiry_check_passes.into()),
        }),
        control: None,
    },
    Spec {
        name: "claim_count",
        aliases: &["xautoclaim_count"],
        kind: Kind::Count {
            lo: 1,
            hi: MAX_CLAIM_COUNT as u64,
        },
        default_ok: true,
        off: None,
        read: |s| {
            s.broker
                .claim_count
                .map_or(Value::Default, |n| Value::Num(n.into()))
        },
        write: |s, v| {
            s.broker.claim_count = defaultable(v, num_u32)?;
            Ok(())
        },
        work: false,
        rule: Some(Rule {
            label: "Entries claimed per sweep",
            presets: &[Preset::RedisStreams],
            runs_with: |c| {
                c.claim_count
                    .map_or(Value::Default, |n| Value::Num(n.into()))
            },
        }),
        control: None,
    },
    Spec {
        name: "max_expiries",
        aliases: &["max_stalled", "max_stalled_count"],
        kind: Kind::Count {
            lo: 0,
            hi: MAX_RECEIVE_COUNT as u64,
        },
        default_ok: true,
        // `none`: no limit on expiries.
        off: Some("none"),
        read: |s| nullable_read(s.broker.max_expiries, u64::from),
        write: |s, v| {
            s.broker.max_expiries = nullable(v, num_u32)?;
            Ok(())
        },
        work: false,
        rule: Some(Rule {
            label: "Max stalled count",
            presets: &[Preset::Bullmq],
            runs_with: |c| c.max_expiries.map_or(Value::Off, |n| Value::Num(n.into())),
        }),
        control: None,
    },
    Spec {
        name: "retry_min",
        aliases: &["retry_min_ms", "min_backoff", "initial_interval"],
        kind: Kind::Ms {
            lo: 1,
            hi: MAX_DURATION_MS,
        },
        default_ok: true,
        // `none`: redelivered at once.
        off: Some("none"),
        read: |s| nullable_read(s.broker.retry_min_ms, |x| x),
        write: |s, v| {
            s.broker.retry_min_ms = nullable(v, num)?;
            Ok(())
        },
        work: false,
        rule: Some(Rule {
            label: "Retry delay, first",
            presets: &[
                Preset::Rabbitmq43,
                Preset::Bullmq,
                Preset::TemporalActivity,
                Preset::CloudTasks,
            ],
            runs_with: |c| c.retry.map_or(Value::Off, |r| Value::Num(r.min_ms)),
        }),
        control: None,
    },
    Spec {
        name: "retry_max",
        aliases: &["retry_max_ms", "max_backoff", "maximum_interval"],
        kind: Kind::Ms {
            lo: 1,
            hi: MAX_DURATION_MS,
        },
        default_ok: true,
        off: None,
        read: |s| s.broker.retry_max_ms.map_or(Value::Default, Value::Num),
        write: |s, v| {
            s.broker.retry_max_ms = defaultable(v, num)?;
            Ok(())
        },
        work: false,
        rule: Some(Rule {
            label: "Retry delay, most",
            presets: &[
                Preset::Rabbitmq43,
                Preset::Bullmq,
                Preset::TemporalActivity,
                Preset::CloudTasks,
            ],
            runs_with: |c| c.retry.and_then(|r| r.max_ms).map_or(Value::Na, Value::Num),
        }),
        control: None,
    },
    Spec {
        name: "retry_doublings",
        aliases: &["max_doublings"],
        kind: Kind::Count {
            lo: 0,
            hi: MAX_RETRY_DOUBLINGS as u64,
        },
        default_ok: true,
        // `none`: the delay doubles without end (Temporal).
        off: Some("none"),
        read: |s| nullable_read(s.broker.retry_doublings, u64::from),
        write: |s, v| {
            s.broker.retry_doublings = nullable(v, num_u32)?;
            Ok(())
        },
        work: false,
        rule: Some(Rule {
            label: "Retry doublings",
            presets: &[Preset::TemporalActivity, Preset::CloudTasks],
            runs_with: |c| {
                c.retry
                    .and_then(|r| r.doublings)
                    .map_or(Value::Off, |n| Value::Num(n.into()))
            },
        }),
        control: None,
    },
    Spec {
        name: "retry_on",
        aliases: &[],
        kind: Kind::Words(words::<RetryOn>, pick::<RetryOn>),
        default_ok: true,
        off: None,
        read: |s| optional_word(s.broker.retry_on),
        write: |s, v| {
            s.broker.retry_on = defaultable(v, chosen)?;
            Ok(())
        },
        work: false,
        rule: Some(Rule {
            label: "Retry delay after",
            presets: &[Preset::Bullmq, Preset::TemporalActivity, Preset::CloudTasks],
            runs_with: |c| c.retry_on.into(),
        }),
        control: None,
    },
    Spec {
        name: "past_limit",
        aliases: &[],
        kind: Kind::Words(words::<PastLimit>, pick::<PastLimit>),
        default_ok: true,
        off: None,
        read: |s| optional_word(s.broker.past_limit),
        write: |s, v| {
            s.broker.past_limit = defaultable(v, chosen)?;
            Ok(())
        },
        work: false,
        rule: Some(Rule {
            label: "Past the limit",
            presets: &[
                Preset::Rabbitmq42,
                Preset::Rabbitmq43,
                Preset::NatsJetstream,
                Preset::Bullmq,
                Preset::CloudTasks,
            ],
            runs_with: |c| c.past_limit.into(),
        }),
        control: None,
    },
    Spec {
        name: "receive_order",
        aliases: &["order"],
        kind: Kind::Words(words::<ReceiveOrder>, pick::<ReceiveOrder>),
        default_ok: true,
        off: None,
        read: |s| optional_word(s.broker.receive_order),
        write: |s, v| {
            s.broker.receive_order = defaultable(v, chosen)?;
            Ok(())
        },
        work: false,
        rule: Some(Rule {
            label: "Receive order",
            presets: &[Preset::SqsStandard],
            runs_with: |c| c.receive_order.into(),
        }),
        control: None,
    },
    Spec {
        name: "workers",
        aliases: &["count"],
        kind: Kind::Count {
            lo: 1,
            hi: MAX_WORKERS as u64,
        },
        default_ok: false,
        off: None,
        read: |s| Value::Num(s.workers.count.into()),
        write: |s, v| {
            s.workers.count = num_u32(v)?;
            Ok(())
        },
        work: false,
        rule: None,
        control: Some(Control {
            id: "workers",
            label: "Workers",
            group: Group::Workers,
            range: Range::log(1.0, MAX_WORKERS as f64),
            unit: Unit::Count,
            get: |s| f64::from(s.workers.count),
            value: |_, v| Value::Num(v.round().max(1.0) as u64),
            applies: always,
            toggle: None,
        }),
    },
    Spec {
        name: "conc",
        aliases: &["concurrency", "handlers"],
        kind: Kind::Count {
            lo: 1,
            hi: MAX_CONCURRENCY as u64,
        },
        default_ok: false,
        off: None,
        read: |s| Value::Num(s.workers.concurrency.into()),
        write: |s, v| {
            let c = num_u32(v)?;
            // As the page's slider: a worker holds every message it runs.
            s.workers.concurrency = c;
            if let Some(p) = &mut s.workers.prefetch {
                *p = (*p).max(c);
            }
            Ok(())
        },
        work: false,
        rule: None,
        control: Some(Control {
            id: "concurrency",
            label: "Handlers per worker",
            group: Group::Workers,
            range: Range::log(1.0, MAX_CONCURRENCY as f64),
            unit: Unit::Count,
            get: |s| f64::from(s.workers.concurrency),
            value: |_, v| Value::Num(v.round().max(1.0) as u64),
            applies: always,
            toggle: None,
        }),
    },
    Spec {
        name: "prefetch",
        aliases: &[],
        kind: Kind::Count {
            lo: 1,
            hi: MAX_PREFETCH as u64,
        },
        default_ok: true,
        off: None,
        read: |s| opt_num(s.workers.prefetch.map(u64::from)),
        write: |s, v| {
            s.workers.prefetch = defaultable(v, num_u32)?;
            Ok(())
        },
        work: false,
        rule: None,
        control: Some(Control {
            id: "prefetch",
            label: "Prefetch",
            group: Group::Workers,
            range: Range::log(1.0, MAX_PREFETCH as f64),
            unit: Unit::Count,
            get: |s| f64::from(resolve(s).prefetch),
            // A worker holds every message it runs: no fewer than its handlers.
            value: |s, v| Value::Num(u64::from((v.round() as u32).max(s.workers.concurrency))),
            applies: always,
            toggle: None,
        }),
    },
    Spec {
        name: "hb",
        aliases: &["heartbeat"],
        kind: Kind::Ms {
            lo: 1,
            hi: MAX_VISIBILITY_TIMEOUT_MS,
        },
        default_ok: true,
        off: Some("off"),
        read: |s| match &s.workers.heartbeat {
            None => Value::Default,
            Some(None) => Value::Off,
            Some(Some(h)) => Value::Num(h.interval_ms),
        },
        write: |s, v| {
            match v {
                Value::Default => s.workers.heartbeat = None,
                Value::Off => s.workers.heartbeat = Some(None),
                Value::On => set_heartbeat_on(s, true),
                v => {
                    let interval = num(v)?;
                    // "Heartbeat on" as the page's checkbox does it, so that
                    // `hb=10s` gives the same heartbeat as ticking the box.
                    set_heartbeat_on(s, true);
                    heartbeat_mut(s).ok_or(NO_HEARTBEAT)?.interval_ms = interval;
                }
            }
            Ok(())
        },
        work: false,
        rule: None,
        control: Some(Control {
            id: "heartbeat",
            label: "Heartbeat interval",
            group: Group::Heartbeat,
            range: Range::log(1.0, MAX_VISIBILITY_TIMEOUT_MS as f64),
            unit: Unit::Ms,
            get: |s| heartbeat(s).map_or(10_000.0, |h| h.interval_ms as f64),
            value: |_, v| Value::Num(round2(v).max(1.0) as u64),
            applies: always,
            toggle: Some(Toggle {
                id: "heartbeat-on",
                label: "Heartbeat on",
                get: |s| heartbeat(s).is_some(),
                checked: Value::On,
                unchecked: Value::Off,
                enables: true,
            }),
        }),
    },
    Spec {
        name: "ext",
        aliases: &["extend-by", "extend_by"],
        kind: Kind::Ms {
            lo: 1,
            hi: MAX_VISIBILITY_TIMEOUT_MS,
        },
        // `default`: extend by the visibility timeout (docs/MODEL.md).
        default_ok: true,
        off: None,
        read: |s| explicit_read(s, |h| opt_num(h.extend_by_ms)),
        write: |s, v| {
            let e = defaultable(v, num)?;
            heartbeat_mut(s).ok_or(NO_HEARTBEAT)?.extend_by_ms = e;
            Ok(())
        },
        work: false,
        rule: None,
        control: Some(Control {
            id: "extend-by",
            label: "Extend by",
            group: Group::Heartbeat,
            range: Range::log(1.0, MAX_VISIBILITY_TIMEOUT_MS as f64),
            unit: Unit::Ms,
            get: |s| heartbeat(s).map_or(30_000.0, |h| h.extend_by_ms as f64),
            value: |_, v| Value::Num(round2(v) as u64),
            applies: |s| heartbeat(s).is_some(),
            toggle: None,
        }),
    },
    Spec {
        name: "cap",
        aliases: &["max_extensions"],
        kind: Kind::Count {
            lo: 0,
            hi: u32::MAX as u64,
        },
        default_ok: false,
        off: Some("none"),
        read: |s| {
            explicit_read(s, |h| {
                h.max_extensions
                    .map_or(Value::Off, |n| Value::Num(u64::from(n)))
            })
        },
        write: |s, v| {
            let cap = match v {
                Value::Off => None,
                v => Some(num_u32(v)?),
            };
            heartbeat_mut(s).ok_or(NO_HEARTBEAT)?.max_extensions = cap;
            Ok(())
        },
        work: false,
        rule: None,
        control: Some(Control {
            id: "cap",
            label: "Extension cap",
            group: Group::Heartbeat,
            range: Range::log_from_zero(1.0, u32::MAX as f64),
            unit: Unit::Count,
            get: |s| {
                heartbeat(s)
                    .and_then(|h| h.max_extensions)
                    .map_or(20.0, f64::from)
            },
            value: |_, v| Value::Num(v.round().max(0.0) as u64),
            applies: |s| heartbeat(s).is_some(),
            toggle: Some(Toggle {
                id: "no-cap",
                label: "No cap",
                get: |s| heartbeat(s).is_some_and(|h| h.max_extensions.is_none()),
                checked: Value::Off,
                unchecked: Value::Num(20),
                enables: false,
            }),
        }),
    },
    Spec {
        name: "on_reject",
        aliases: &["reject"],
        kind: Kind::Words(words::<OnReject>, pick::<OnReject>),
        default_ok: false,
        off: None,
        read: |s| explicit_read(s, |h| h.on_reject.into()),
        write: |s, v| {
            let r: OnReject = chosen(v)?;
            heartbeat_mut(s).ok_or(NO_HEARTBEAT)?.on_reject = r;
            Ok(())
        },
        work: false,
        rule: None,
        control: None,
    },
    Spec {
        name: "err",
        aliases: &["error-rate", "error_rate"],
        kind: Kind::Float {
            lo: 0.0,
            hi: 1.0,
            percent: true,
        },
        default_ok: false,
        off: None,
        read: |s| Value::Float(s.workers.error_rate),
        write: |s, v| {
            s.workers.error_rate = float(v)?;
            Ok(())
        },
        work: false,
        rule: None,
        control: Some(Control {
            id: "error-rate",
            label: "Handler error rate",
            group: Group::Work,
            range: Range::linear(0.0, 1.0),
            unit: Unit::Percent,
            get: |s| s.workers.error_rate,
            value: |_, v| Value::Float((v * 100.0).round() / 100.0),
            applies: always,
            toggle: None,
        }),
    },
    Spec {
        name: "hang",
        aliases: &["hang_rate"],
        kind: Kind::Float {
            lo: 0.0,
            hi: 1.0,
            percent: true,
        },
        default_ok: false,
        off: None,
        read: |s| Value::Float(s.workers.hang_rate),
        write: |s, v| {
            s.workers.hang_rate = float(v)?;
            Ok(())
        },
        work: false,
        rule: None,
        control: None,
    },
    Spec {
        name: "on_error",
        aliases: &[],
        kind: Kind::Words(words::<OnError>, pick::<OnError>),
        default_ok: false,
        off: None,
        read: |s| s.workers.on_error.into(),
        write: |s, v| {
            s.workers.on_error = chosen(v)?;
            Ok(())
        },
        work: false,
        rule: None,
        control: None,
    },
    Spec {
        name: "renewal",
        aliases: &[],
        kind: Kind::Words(words::<Renewal>, pick::<Renewal>),
        default_ok: true,
        off: None,
        read: |s| optional_word(s.workers.renewal),
        write: |s, v| {
            s.workers.renewal = defaultable(v, chosen)?;
            Ok(())
        },
        work: false,
        rule: Some(Rule {
            label: "Lock renewal",
            presets: &[Preset::Bullmq],
            runs_with: |c| c.renewal.into(),
        }),
        control: None,
    },
    Spec {
        name: "ack_at",
        aliases: &[],
        kind: Kind::Words(words::<AckAt>, pick::<AckAt>),
        default_ok: true,
        off: None,
        read: |s| optional_word(s.workers.ack_at),
        write: |s, v| {
            s.workers.ack_at = defaultable(v, chosen)?;
            Ok(())
        },
        work: false,
        rule: Some(Rule {
            label: "Ack sent",
            presets: &[Preset::CeleryRedis, Preset::CelerySqs],
            runs_with: |c| c.ack_at.into(),
        }),
        control: None,
    },
    Spec {
        name: "cpu_bound",
        aliases: &[],
        kind: Kind::Words(yes_no, |i| Choice::Yes(i == 0)),
        default_ok: false,
        off: None,
        read: |s| Value::Choice(Choice::Yes(s.work.cpu_bound)),
        write: |s, v| {
            s.work.cpu_bound = yes(v)?;
            Ok(())
        },
        work: false,
        rule: Some(Rule {
            label: "CPU-bound work",
            presets: &[Preset::Bullmq],
            runs_with: |c| Value::Choice(Choice::Yes(c.cpu_bound)),
        }),
        control: None,
    },
    Spec {
        name: "dist",
        aliases: &["shape"],
        kind: Kind::Words(words::<Shape>, pick::<Shape>),
        default_ok: false,
        off: None,
        read: work_read,
        write: work_write,
        work: true,
        rule: None,
        control: None,
    },
    Spec {
        name: "median",
        aliases: &["p50"],
        kind: Kind::MsF { hi: MAX_WORK_MS },
        default_ok: false,
        off: None,
        read: work_read,
        write: work_write,
        work: true,
        rule: None,
        control: Some(Control {
            id: "median",
            label: "Processing time (median)",
            group: Group::Work,
            range: Range::log(FINEST_WORK_MS, MAX_WORK_MS as f64),
            unit: Unit::Ms,
            get: |s| median_p99(&s.work.dist).0,
            value: |_, v| Value::Float(round2(v)),
            applies: always,
            toggle: None,
        }),
    },
    Spec {
        name: "p99",
        aliases: &[],
        kind: Kind::MsF { hi: MAX_WORK_MS },
        default_ok: false,
        off: None,
        read: work_read,
        write: work_write,
        work: true,
        rule: None,
        control: Some(Control {
            id: "p99",
            label: "Processing time (p99)",
            group: Group::Work,
            range: Range::log(FINEST_WORK_MS, MAX_WORK_MS as f64),
            unit: Unit::Ms,
            get: |s| median_p99(&s.work.dist).1,
            // Dragged below the median, the p99 stops at it.
            value: |s, v| Value::Float(round2(v).max(median_p99(&s.work.dist).0)),
            applies: |s| shape(&s.work.dist).has_p99(),
            toggle: None,
        }),
    },
    Spec {
        name: "min",
        aliases: &[],
        kind: Kind::Ms {
            lo: 0,
            hi: MAX_WORK_MS,
        },
        default_ok: false,
        off: None,
        read: work_read,
        write: work_write,
        work: true,
        rule: None,
        control: None,
    },
    Spec {
        name: "max",
        aliases: &[],
        kind: Kind::Ms {
            lo: 1,
            hi: MAX_WORK_MS,
        },
        default_ok: false,
        off: None,
        read: work_read,
        write: work_write,
        work: true,
        rule: None,
        control: None,
    },
    Spec {
        name: "mean",
        aliases: &[],
        kind: Kind::MsF { hi: MAX_WORK_MS },
        default_ok: false,
        off: None,
        read: work_read,
        write: work_write,
        work: true,
        rule: None,
        control: None,
    },
    Spec {
        name: "points",
        aliases: &["percentiles", "quantiles"],
        kind: Kind::Data(DataKind::Points),
        default_ok: false,
        off: None,
        read: work_read,
        write: work_write,
        work: true,
        rule: None,
        control: None,
    },
    Spec {
        name: "samples",
        aliases: &["samples_ms", "durations"],
        kind: Kind::Data(DataKind::Samples),
        default_ok: false,
        off: None,
        read: work_read,
        write: work_write,
        work: true,
        rule: None,
        control: None,
    },
    Spec {
        name: "buckets",
        aliases: &["histogram"],
        kind: Kind::Data(DataKind::Buckets),
        default_ok: false,
        off: None,
        read: work_read,
        write: work_write,
        work: true,
        rule: None,
        control: None,
    },
    Spec {
        name: "jitter",
        aliases: &["attempt_jitter"],
        kind: Kind::Float {
            lo: 0.0,
            hi: MAX_ATTEMPT_JITTER,
            percent: false,
        },
        default_ok: false,
        off: None,
        read: |s| Value::Float(s.work.attempt_jitter),
        write: |s, v| {
            s.work.attempt_jitter = float(v)?;
            Ok(())
        },
        work: false,
        rule: None,
        control: Some(Control {
            id: "jitter",
            label: "Attempt jitter",
            group: Group::Work,
            range: Range::linear(0.0, MAX_ATTEMPT_JITTER),
            unit: Unit::Ratio,
            get: |s| s.work.attempt_jitter,
            value: |_, v| Value::Float((v * 100.0).round() / 100.0),
            applies: always,
            toggle: None,
        }),
    },
    Spec {
        name: "rate",
        aliases: &["rate_per_s"],
        kind: Kind::Rate { hi: MAX_RATE_PER_S },
        default_ok: false,
        off: None,
        read: |s| Value::Float(s.arrivals.rate_per_s),
        write: |s, v| {
            s.arrivals.rate_per_s = float(v)?;
            Ok(())
        },
        work: false,
        rule: None,
        control: Some(Control {
            id: "rate",
            label: "Arrival rate",
            group: Group::Load,
            range: Range::log_from_zero(SLOWEST_RATE_PER_S, MAX_RATE_PER_S),
            unit: Unit::PerSecond,
            get: |s| s.arrivals.rate_per_s,
            value: |_, v| Value::Float(round2(v)),
            applies: always,
            toggle: Some(Toggle {
                id: "no-arrivals",
                label: "No new arrivals",
                get: |s| s.arrivals.rate_per_s == 0.0,
                checked: Value::Float(0.0),
                unchecked: Value::Float(0.5),
                enables: false,
            }),
        }),
    },
    Spec {
        name: "backlog",
        aliases: &[],
        kind: Kind::Count {
            lo: 0,
            hi: MAX_BACKLOG,
        },
        default_ok: false,
        off: None,
        read: |s| Value::Num(s.arrivals.backlog),
        write: |s, v| {
            s.arrivals.backlog = num(v)?;
            Ok(())
        },
        work: false,
        rule: None,
        control: Some(Control {
            id: "backlog",
            label: "Backlog at start",
            group: Group::Load,
            range: Range::log_from_zero(1.0, MAX_BACKLOG as f64),
            unit: Unit::Count,
            get: |s| s.arrivals.backlog as f64,
            value: |_, v| Value::Num(v.round().max(0.0) as u64),
            applies: always,
            toggle: None,
        }),
    },
    Spec {
        name: "process",
        aliases: &["arrivals"],
        kind: Kind::Words(words::<Process>, pick::<Process>),
        default_ok: false,
        off: None,
        read: |s| s.arrivals.process.into(),
        write: |s, v| {
            s.arrivals.process = chosen(v)?;
            Ok(())
        },
        work: false,
        rule: None,
        control: None,
    },
    Spec {
        name: "eta",
        aliases: &["eta_ms", "countdown"],
        kind: Kind::Ms {
            lo: 0,
            hi: MAX_DURATION_MS,
        },
        default_ok: false,
        off: None,
        read: |s| Value::Num(s.arrivals.eta_ms),
        write: |s, v| {
            s.arrivals.eta_ms = num(v)?;
            Ok(())
        },
        work: false,
        rule: Some(Rule {
            label: "ETA countdown",
            presets: &[Preset::CeleryRedis, Preset::CelerySqs],
            runs_with: |c| Value::Num(c.eta_ms),
        }),
        control: None,
    },
    Spec {
        name: "capacity",
        aliases: &["downstream"],
        kind: Kind::Count {
            lo: 1,
            hi: MAX_DOWNSTREAM_CAPACITY as u64,
        },
        default_ok: false,
        off: Some("none"),
        read: |s| {
            s.downstream
                .capacity
                .map_or(Value::Off, |c| Value::Num(u64::from(c)))
        },
        write: |s, v| {
            s.downstream.capacity = match v {
                Value::Off => None,
                v => Some(num_u32(v)?),
            };
            Ok(())
        },
        work: false,
        rule: None,
        control: Some(Control {
            id: "capacity",
            label: "Downstream capacity",
            group: Group::Downstream,
            range: Range::log(1.0, MAX_DOWNSTREAM_CAPACITY as f64),
            unit: Unit::Handlers,
            get: |s| s.downstream.capacity.map_or(1_000.0, f64::from),
            value: |_, v| Value::Num(v.round().max(1.0) as u64),
            applies: always,
            toggle: Some(Toggle {
                id: "unlimited",
                label: "Unlimited",
                get: |s| s.downstream.capacity.is_none(),
                checked: Value::Off,
                unchecked: Value::Num(8),
                enables: false,
            }),
        }),
    },
    Spec {
        name: "fence",
        aliases: &[],
        kind: Kind::Words(words::<Fence>, pick::<Fence>),
        default_ok: false,
        off: None,
        read: |s| s.store.fence.into(),
        write: |s, v| {
            s.store.fence = chosen(v)?;
            Ok(())
        },
        work: false,
        rule: None,
        control: None,
    },
];

/// The field a query parameter (or `--param`) names, by name or alias,
/// ignoring case and `-`/`_`.
pub fn find(name: &str) -> Option<Field> {
    let n = lease_format::units::underscores(&name.trim().to_ascii_lowercase());
    Field::ALL.into_iter().find(|f| {
        let spec = f.spec();
        spec.name == n
            || spec
                .aliases
                .iter()
                .any(|a| lease_format::units::underscores(a) == n)
    })
}

/// One accepted override: the field, its value, and the text it came from.
#[derive(Debug, Clone)]
pub struct Override {
    pub field: Field,
    pub value: Value,
    pub text: String,
}

/// The base with these overrides applied in the table's order, or the first
/// override that cannot apply (a heartbeat setting with the heartbeat off).
pub fn apply(start: &Scenario, overrides: &[Override]) -> Result<Scenario, (Field, String)> {
    let mut s = start.clone();
    let get = |i: Field| overrides.iter().find(|o| o.field == i).map(|o| &o.value);
    let mut work_done = false;
    for i in Field::ALL {
        let f = i.spec();
        if f.work {
            if !work_done {
                work_done = true;
                apply_work(&mut s, &get)?;
            }
            continue;
        }
        if let Some(v) = get(i) {
            (f.write)(&mut s, v).map_err(|why| (i, why))?;
        }
    }
    Ok(s)
}

/// The work distribution: shape first (as the select: same median and p99),
/// then median and p99 together (as the sliders, through `build`), then the
/// exact parameters that median and p99 cannot pin down.
fn apply_work<'a>(
    s: &mut Scenario,
    get: &impl Fn(Field) -> Option<&'a Value>,
) -> Result<(), (Field, String)> {
    let (i_dist, i_median, i_p99) = (Field::Dist, Field::Median, Field::P99);
    let (i_min, i_max, i_mean) = (Field::Min, Field::Max, Field::Mean);
    if let Some(Value::Choice(Choice::Shape(w))) = get(i_dist) {
        if *w != shape(&s.work.dist) {
            let (m, q) = median_p99(&s.work.dist);
            s.work.dist = build(*w, m, q);
        }
    }
    // The data itself sets the shape, before the median scales it.
    for (i, k) in [
        (Field::Points, DataKind::Points),
        (Field::Samples, DataKind::Samples),
        (Field::Buckets, DataKind::Buckets),
    ] {
        if let Some(d) = get(i).and_then(|v| k.dist(v)) {
            s.work.dist = d;
        }
    }
    let current = shape(&s.work.dist);
    let median = get(i_median).and_then(|v| float(v).ok());
    let p99 = get(i_p99).and_then(|v| float(v).ok());
    if p99.is_some() && !current.has_p99() {
        return Err((
            i_p99,
            format!("{current} work has no separate p99: set median (or dist)"),
        ));
    }
    if median.is_some() || p99.is_some() {
        let (m, q) = match (median, p99) {
            (Some(m), Some(q)) => (m, q),
            _ => {
                let (m0, q0) = median_p99(&s.work.dist);
                (median.unwrap_or(m0), p99.unwrap_or(q0))
            }
        };
        if p99.is_some() && q < m {
            return Err((
                i_p99,
                format!("must be at least the median ({})", format_ms_f64(m)),
            ));
        }
        if current.is_data() {
            // Data keeps its shape: the median slider scales all of it.
            let m0 = median_p99(&s.work.dist).0;
            if let Some(d) = scale_data(&s.work.dist, m / m0) {
                s.work.dist = d;
            }
        } else {
            // As the median slider: a median above the p99 drags the p99 with it.
            s.work.dist = build(current, m, q.max(m));
        }
    }
    let min = get(i_min).and_then(|v| num(v).ok());
    let max = get(i_max).and_then(|v| num(v).ok());
    if min.is_some() || max.is_some() {
        let Dist::Uniform { min_ms, max_ms } = &mut s.work.dist else {
            let i = if min.is_some() { i_min } else { i_max };
            return Err((i, "applies only to dist=uniform".into()));
        };
        if let Some(a) = min {
            *min_ms = a;
        }
        if let Some(b) = max {
            *max_ms = b;
        }
    }
    if let Some(mean) = get(i_mean).and_then(|v| float(v).ok()) {
        let Dist::Exponential { mean_ms } = &mut s.work.dist else {
            return Err((i_mean, "applies only to dist=exponential".into()));
        };
        *mean_ms = mean;
    }
    Ok(())
}

/// The overrides that turn `base` into `target`, as `(name, text)`, in the
/// table's order. Best effort: the caller checks that they rebuild `target`
/// exactly and otherwise sends the whole scenario.
pub fn diff(base: &Scenario, target: &Scenario) -> Vec<(&'static str, String)> {
    let mut cur = base.clone();
    let mut out = Vec::new();
    let mut work_done = false;
    for f in FIELDS.iter() {
        if f.work {
            if !work_done {
                work_done = true;
                diff_work(&cur.work.dist, &target.work.dist, &mut out);
                cur.work.dist = target.work.dist.clone();
            }
            continue;
        }
        let want = (f.read)(target);
        if want == Value::Na || want == (f.read)(&cur) {
            continue;
        }
        let Some(text) = f.format(&want) else {
            continue;
        };
        if (f.write)(&mut cur, &want).is_ok() {
            out.push((f.name, text));
        }
    }
    out
}

fn diff_work(cur: &Dist, target: &Dist, out: &mut Vec<(&'static str, String)>) {
    if cur == target {
        return;
    }
    // The data is the whole distribution: no `dist` before it.
    match target {
        Dist::Quantiles { points } => {
            return out.push((
                "points",
                DataKind::Points
                    .format(&Value::Pairs(points.clone()))
                    .unwrap_or_default(),
            ));
        }
        Dist::Empirical { samples_ms } => {
            return out.push((
                "samples",
                DataKind::Samples
                    .format(&Value::List(samples_ms.clone()))
                    .unwrap_or_default(),
            ));
        }
        Dist::Histogram { buckets } => {
            return out.push((
                "buckets",
                DataKind::Buckets
                    .format(&Value::Pairs(buckets.clone()))
                    .unwrap_or_default(),
            ));
        }
        _ => {}
    }
    let to = shape(target);
    let mut cur = cur.clone();
    if shape(&cur) != to {
        out.push(("dist", to.word().to_string()));
        let (m, q) = median_p99(&cur);
        cur = build(to, m, q);
    }
    let ms = |x: f64| format_ms_f64(x);
    match target {
        Dist::Lognormal { median_ms, p99_ms } => {
            let Dist::Lognormal {
                median_ms: m0,
                p99_ms: q0,
            } = cur
            else {
                return;
            };
            if *median_ms != m0 {
                out.push(("median", ms(*median_ms)));
            }
            if *p99_ms != q0 {
                out.push(("p99", ms(*p99_ms)));
            }
        }
        Dist::Constant { ms: w } => out.push(("median", format_ms(*w))),
        Dist::Uniform { min_ms, max_ms } => {
            out.push(("min", format_ms(*min_ms)));
            out.push(("max", format_ms(*max_ms)));
        }
        Dist::Exponential { mean_ms } => {
            // The median reads better; use it when it gives the same mean.
            let m = mean_ms * std::f64::consts::LN_2;
            let exact = [m, m.round()]
                .into_iter()
                .find(|m| build(Shape::Exponential, *m, *m) == *target);
            match exact {
                Some(m) => out.push(("median", ms(m))),
                None => out.push(("mean", ms(*mean_ms))),
            }
        }
        Dist::Mix { fast, slow, .. } => {
            // The page's mix: a log-normal fast part and a constant slow one.
            if let (Dist::Lognormal { median_ms, .. }, Dist::Constant { ms: q }) =
                (fast.as_ref(), slow.as_ref())
            {
                out.push(("median", ms(*median_ms)));
                out.push(("p99", format_ms(*q)));
            }
        }
        Dist::Quantiles { .. } | Dist::Empirical { .. } | Dist::Histogram { .. } => {}
    }
}

/// A control's edit of one field, as a link would make it.
pub fn set(s: &mut Scenario, field: Field, value: &Value) -> Result<(), FieldError> {
    set_all(s, &[(field, value.clone())])
}

/// Edits of several fields, applied together in the table's order (as a
/// link's fields are): a work distribution's median and p99 go together.
pub fn set_all(s: &mut Scenario, sets: &[(Field, Value)]) -> Result<(), FieldError> {
    let edits: Vec<Override> = sets
        .iter()
        .map(|(field, value)| Override {
            field: *field,
            value: value.clone(),
            text: String::new(),
        })
        .collect();
    *s = apply(s, &edits).map_err(|(f, why)| FieldError {
        field: f.name(),
        why,
    })?;
    Ok(())
}

#[cfg(test)]
mod tests;
