//! The scenario fields of a share link, as one table: each field's name, the
//! form of its value, and how it reads and writes the scenario. Writes do what
//! the page's control does (the broker select resets the preset's fields,
//! "Heartbeat on" adds the page's default heartbeat), so a link replays the
//! same edits; reads return the raw state (`None` versus an explicit value),
//! so that `encode` can make `decode` rebuild the scenario exactly.

use lease_sim::scenario::{
    CountAt, Dist, DlqTiming, Fence, Heartbeat, LateAck, OnError, OnReject, Preset, Process,
    Scenario,
};
use lease_sim::validate::{
    MAX_ATTEMPT_JITTER, MAX_BACKLOG, MAX_CONCURRENCY, MAX_DOWNSTREAM_CAPACITY, MAX_DURATION_MS,
    MAX_LEASE_LIFETIME_MS, MAX_PREFETCH, MAX_RATE_PER_S, MAX_RECEIVE_BATCH, MAX_RECEIVE_COUNT,
    MAX_RPC_LATENCY_MS, MAX_VISIBILITY_TIMEOUT_MS, MAX_WORKERS, MAX_WORK_MS,
};

use crate::controls::spec::{heartbeat_mut, set_heartbeat_on};
use crate::controls::work_dist::{build, has_p99, median_p99, shape};
use crate::controls::{choose_preset, fence_name, preset_name};
use lease_format::units::{
    format_f64, format_ms, format_ms_f64, is_keyword, parse_count, parse_f64, parse_ms,
    parse_ms_f64, parse_rate, parse_word,
};

/// A field's value, parsed, or read from a scenario.
#[derive(Debug, Clone, PartialEq)]
pub enum V {
    /// Left to the broker preset (the file leaves the field out).
    Default,
    /// The switch-off value: no redrive, no cap, heartbeat off, unlimited.
    Off,
    Num(u64),
    Float(f64),
    Word(&'static str),
    /// The field does not apply to this scenario (no explicit heartbeat).
    Na,
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
    Words(&'static [&'static str]),
}

/// The words that switch a field off; the first is what `encode` writes
/// unless the field names its own.
const OFF_WORDS: [&str; 5] = ["off", "none", "unlimited", "no", "null"];
const DEFAULT_WORDS: [&str; 2] = ["default", "preset"];

pub struct Field {
    pub name: &'static str,
    /// The page's slider id and other spellings people may type.
    pub aliases: &'static [&'static str],
    kind: Kind,
    /// `default` is accepted: the field goes back to the broker preset's value.
    default_ok: bool,
    /// The word written for `V::Off`, when the field has an off value.
    off: Option<&'static str>,
    read: fn(&Scenario) -> V,
    write: fn(&mut Scenario, &V) -> Result<(), String>,
    /// Part of the work distribution, applied together by `apply_work`.
    work: bool,
}

impl Field {
    pub fn parse(&self, text: &str) -> Result<V, String> {
        if self.default_ok && is_keyword(text, &DEFAULT_WORDS) {
            return Ok(V::Default);
        }
        if self.off.is_some() && is_keyword(text, &OFF_WORDS) {
            return Ok(V::Off);
        }
        let parsed = match self.kind {
            Kind::Ms { lo, hi } => parse_ms(text, lo, hi).map(V::Num),
            Kind::MsF { hi } => parse_ms_f64(text, hi).map(V::Float),
            Kind::Count { lo, hi } => parse_count(text, lo, hi).map(V::Num),
            Kind::Float { lo, hi, percent } => parse_f64(text, lo, hi, percent).map(V::Float),
            Kind::Rate { hi } => parse_rate(text, hi).map(V::Float),
            Kind::Words(words) => parse_word(text, words).map(V::Word),
        };
        parsed.map_err(|why| {
            let mut why = why;
            if let Some(off) = self.off {
                why.push_str(&format!(", or {off}"));
            }
            if self.default_ok {
                why.push_str(", or default (the broker preset's value)");
            }
            why
        })
    }

    pub fn format(&self, v: &V) -> Option<String> {
        Some(match (v, self.kind) {
            (V::Default, _) if self.default_ok => "default".into(),
            (V::Off, _) => self.off?.into(),
            (V::Num(n), Kind::Ms { .. }) => format_ms(*n),
            (V::Num(n), Kind::Count { .. }) => n.to_string(),
            (V::Float(x), Kind::MsF { .. }) => format_ms_f64(*x),
            (V::Float(x), Kind::Float { .. } | Kind::Rate { .. }) => format_f64(*x),
            (V::Word(w), Kind::Words(_)) => (*w).into(),
            _ => return None,
        })
    }
}

fn opt_num(v: Option<u64>) -> V {
    v.map_or(V::Default, V::Num)
}

fn num(v: &V) -> Result<u64, String> {
    match v {
        V::Num(n) => Ok(*n),
        _ => Err("must be a number".into()),
    }
}

fn num_u32(v: &V) -> Result<u32, String> {
    u32::try_from(num(v)?).map_err(|_| "is too large".into())
}

fn float(v: &V) -> Result<f64, String> {
    match v {
        V::Float(x) => Ok(*x),
        _ => Err("must be a number".into()),
    }
}

fn word(v: &V) -> Result<&'static str, String> {
    match v {
        V::Word(w) => Ok(w),
        _ => Err("must be a word".into()),
    }
}

/// `None` for `default`, else the value: the preset-filled broker fields.
fn defaultable<T>(v: &V, f: impl FnOnce(&V) -> Result<T, String>) -> Result<Option<T>, String> {
    match v {
        V::Default => Ok(None),
        other => f(other).map(Some),
    }
}

/// `Some(None)` for `off`, `None` for `default`: the fields where JSON `null`
/// itself means something.
fn nullable<T>(
    v: &V,
    f: impl FnOnce(&V) -> Result<T, String>,
) -> Result<Option<Option<T>>, String> {
    match v {
        V::Default => Ok(None),
        V::Off => Ok(Some(None)),
        other => f(other).map(|x| Some(Some(x))),
    }
}

fn nullable_read<T: Copy>(v: Option<Option<T>>, f: impl Fn(T) -> u64) -> V {
    match v {
        None => V::Default,
        Some(None) => V::Off,
        Some(Some(x)) => V::Num(f(x)),
    }
}

const PRESETS: [&str; 5] = [
    "textbook",
    "sqs_standard",
    "sqs_fifo",
    "azure_service_bus",
    "google_pubsub",
];
const FENCES: [&str; 4] = [
    "none",
    "check_then_write",
    "unique_constraint",
    "fencing_token",
];
const DLQ_TIMINGS: [&str; 2] = ["on_expiry", "on_next_receive"];
const LATE_ACKS: [&str; 2] = ["rejected", "accepted_if_not_redelivered"];
const COUNT_ATS: [&str; 2] = ["receive", "expiry_or_abandon"];
const ON_ERRORS: [&str; 2] = ["release", "expire"];
const ON_REJECTS: [&str; 2] = ["continue", "abort"];
const PROCESSES: [&str; 2] = ["poisson", "fixed"];
const DISTS: [&str; 5] = ["lognormal", "constant", "uniform", "exponential", "mix"];

fn dlq_name(d: DlqTiming) -> &'static str {
    match d {
        DlqTiming::OnExpiry => "on_expiry",
        DlqTiming::OnNextReceive => "on_next_receive",
    }
}

fn late_name(l: LateAck) -> &'static str {
    match l {
        LateAck::Rejected => "rejected",
        LateAck::AcceptedIfNotRedelivered => "accepted_if_not_redelivered",
    }
}

fn count_at_name(c: CountAt) -> &'static str {
    match c {
        CountAt::Receive => "receive",
        CountAt::ExpiryOrAbandon => "expiry_or_abandon",
    }
}

fn on_error_name(e: OnError) -> &'static str {
    match e {
        OnError::Release => "release",
        OnError::Expire => "expire",
    }
}

fn on_reject_name(r: OnReject) -> &'static str {
    match r {
        OnReject::Continue => "continue",
        OnReject::Abort => "abort",
    }
}

fn process_name(p: Process) -> &'static str {
    match p {
        Process::Poisson => "poisson",
        Process::Fixed => "fixed",
    }
}

const NO_HEARTBEAT: &str = "applies only while the heartbeat is on (set hb first)";

fn explicit_read(s: &Scenario, f: impl Fn(&Heartbeat) -> V) -> V {
    match &s.workers.heartbeat {
        Some(Some(h)) => f(h),
        _ => V::Na,
    }
}

fn work_read(_: &Scenario) -> V {
    V::Na
}

fn work_write(_: &mut Scenario, _: &V) -> Result<(), String> {
    Ok(())
}

/// Every scenario field, in the order `decode` applies them: a field's write
/// may depend only on fields before it (the broker select before the timeout,
/// the timeout before "Heartbeat on", handlers before prefetch).
pub static FIELDS: [Field; 33] = [
    Field {
        name: "seed",
        aliases: &[],
        kind: Kind::Count {
            lo: 0,
            hi: u64::MAX,
        },
        default_ok: false,
        off: None,
        read: |s| V::Num(s.seed),
        write: |s, v| {
            s.seed = num(v)?;
            Ok(())
        },
        work: false,
    },
    Field {
        name: "duration",
        aliases: &["length"],
        kind: Kind::Ms {
            lo: 1,
            hi: MAX_DURATION_MS,
        },
        default_ok: false,
        off: None,
        read: |s| V::Num(s.duration_ms),
        write: |s, v| {
            s.duration_ms = num(v)?;
            Ok(())
        },
        work: false,
    },
    Field {
        name: "broker",
        aliases: &["preset"],
        kind: Kind::Words(&PRESETS),
        default_ok: false,
        off: None,
        read: |s| V::Word(preset_name(s.broker.preset)),
        write: |s, v| {
            let w = word(v)?;
            let p = Preset::ALL
                .into_iter()
                .find(|p| preset_name(*p) == w)
                .ok_or("is not a broker preset")?;
            // What the page's broker select does: the preset brings its own defaults.
            choose_preset(s, p);
            Ok(())
        },
        work: false,
    },
    Field {
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
    },
    Field {
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
    },
    Field {
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
    },
    Field {
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
    },
    Field {
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
    },
    Field {
        name: "dlq",
        aliases: &["dlq_timing"],
        kind: Kind::Words(&DLQ_TIMINGS),
        default_ok: true,
        off: None,
        read: |s| {
            s.broker
                .dlq_timing
                .map_or(V::Default, |d| V::Word(dlq_name(d)))
        },
        write: |s, v| {
            s.broker.dlq_timing = defaultable(v, |v| {
                Ok(match word(v)? {
                    "on_next_receive" => DlqTiming::OnNextReceive,
                    _ => DlqTiming::OnExpiry,
                })
            })?;
            Ok(())
        },
        work: false,
    },
    Field {
        name: "late_ack",
        aliases: &["late"],
        kind: Kind::Words(&LATE_ACKS),
        default_ok: true,
        off: None,
        read: |s| {
            s.broker
                .late_ack
                .map_or(V::Default, |l| V::Word(late_name(l)))
        },
        write: |s, v| {
            s.broker.late_ack = defaultable(v, |v| {
                Ok(match word(v)? {
                    "accepted_if_not_redelivered" => LateAck::AcceptedIfNotRedelivered,
                    _ => LateAck::Rejected,
                })
            })?;
            Ok(())
        },
        work: false,
    },
    Field {
        name: "count_at",
        aliases: &[],
        kind: Kind::Words(&COUNT_ATS),
        default_ok: true,
        off: None,
        read: |s| {
            s.broker
                .count_at
                .map_or(V::Default, |c| V::Word(count_at_name(c)))
        },
        write: |s, v| {
            s.broker.count_at = defaultable(v, |v| {
                Ok(match word(v)? {
                    "expiry_or_abandon" => CountAt::ExpiryOrAbandon,
                    _ => CountAt::Receive,
                })
            })?;
            Ok(())
        },
        work: false,
    },
    Field {
        name: "workers",
        aliases: &["count"],
        kind: Kind::Count {
            lo: 1,
            hi: MAX_WORKERS as u64,
        },
        default_ok: false,
        off: None,
        read: |s| V::Num(s.workers.count.into()),
        write: |s, v| {
            s.workers.count = num_u32(v)?;
            Ok(())
        },
        work: false,
    },
    Field {
        name: "conc",
        aliases: &["concurrency", "handlers"],
        kind: Kind::Count {
            lo: 1,
            hi: MAX_CONCURRENCY as u64,
        },
        default_ok: false,
        off: None,
        read: |s| V::Num(s.workers.concurrency.into()),
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
    },
    Field {
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
    },
    Field {
        name: "hb",
        aliases: &["heartbeat"],
        kind: Kind::Ms {
            lo: 1,
            hi: MAX_VISIBILITY_TIMEOUT_MS,
        },
        default_ok: true,
        off: Some("off"),
        read: |s| match &s.workers.heartbeat {
            None => V::Default,
            Some(None) => V::Off,
            Some(Some(h)) => V::Num(h.interval_ms),
        },
        write: |s, v| {
            match v {
                V::Default => s.workers.heartbeat = None,
                V::Off => s.workers.heartbeat = Some(None),
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
    },
    Field {
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
    },
    Field {
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
                h.max_extensions.map_or(V::Off, |n| V::Num(u64::from(n)))
            })
        },
        write: |s, v| {
            let cap = match v {
                V::Off => None,
                v => Some(num_u32(v)?),
            };
            heartbeat_mut(s).ok_or(NO_HEARTBEAT)?.max_extensions = cap;
            Ok(())
        },
        work: false,
    },
    Field {
        name: "on_reject",
        aliases: &["reject"],
        kind: Kind::Words(&ON_REJECTS),
        default_ok: false,
        off: None,
        read: |s| explicit_read(s, |h| V::Word(on_reject_name(h.on_reject))),
        write: |s, v| {
            let r = match word(v)? {
                "abort" => OnReject::Abort,
                _ => OnReject::Continue,
            };
            heartbeat_mut(s).ok_or(NO_HEARTBEAT)?.on_reject = r;
            Ok(())
        },
        work: false,
    },
    Field {
        name: "err",
        aliases: &["error-rate", "error_rate"],
        kind: Kind::Float {
            lo: 0.0,
            hi: 1.0,
            percent: true,
        },
        default_ok: false,
        off: None,
        read: |s| V::Float(s.workers.error_rate),
        write: |s, v| {
            s.workers.error_rate = float(v)?;
            Ok(())
        },
        work: false,
    },
    Field {
        name: "hang",
        aliases: &["hang_rate"],
        kind: Kind::Float {
            lo: 0.0,
            hi: 1.0,
            percent: true,
        },
        default_ok: false,
        off: None,
        read: |s| V::Float(s.workers.hang_rate),
        write: |s, v| {
            s.workers.hang_rate = float(v)?;
            Ok(())
        },
        work: false,
    },
    Field {
        name: "on_error",
        aliases: &[],
        kind: Kind::Words(&ON_ERRORS),
        default_ok: false,
        off: None,
        read: |s| V::Word(on_error_name(s.workers.on_error)),
        write: |s, v| {
            s.workers.on_error = match word(v)? {
                "expire" => OnError::Expire,
                _ => OnError::Release,
            };
            Ok(())
        },
        work: false,
    },
    Field {
        name: "dist",
        aliases: &["shape"],
        kind: Kind::Words(&DISTS),
        default_ok: false,
        off: None,
        read: work_read,
        write: work_write,
        work: true,
    },
    Field {
        name: "median",
        aliases: &["p50"],
        kind: Kind::MsF { hi: MAX_WORK_MS },
        default_ok: false,
        off: None,
        read: work_read,
        write: work_write,
        work: true,
    },
    Field {
        name: "p99",
        aliases: &[],
        kind: Kind::MsF { hi: MAX_WORK_MS },
        default_ok: false,
        off: None,
        read: work_read,
        write: work_write,
        work: true,
    },
    Field {
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
    },
    Field {
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
    },
    Field {
        name: "mean",
        aliases: &[],
        kind: Kind::MsF { hi: MAX_WORK_MS },
        default_ok: false,
        off: None,
        read: work_read,
        write: work_write,
        work: true,
    },
    Field {
        name: "jitter",
        aliases: &["attempt_jitter"],
        kind: Kind::Float {
            lo: 0.0,
            hi: MAX_ATTEMPT_JITTER,
            percent: false,
        },
        default_ok: false,
        off: None,
        read: |s| V::Float(s.work.attempt_jitter),
        write: |s, v| {
            s.work.attempt_jitter = float(v)?;
            Ok(())
        },
        work: false,
    },
    Field {
        name: "rate",
        aliases: &["rate_per_s"],
        kind: Kind::Rate { hi: MAX_RATE_PER_S },
        default_ok: false,
        off: None,
        read: |s| V::Float(s.arrivals.rate_per_s),
        write: |s, v| {
            s.arrivals.rate_per_s = float(v)?;
            Ok(())
        },
        work: false,
    },
    Field {
        name: "backlog",
        aliases: &[],
        kind: Kind::Count {
            lo: 0,
            hi: MAX_BACKLOG,
        },
        default_ok: false,
        off: None,
        read: |s| V::Num(s.arrivals.backlog),
        write: |s, v| {
            s.arrivals.backlog = num(v)?;
            Ok(())
        },
        work: false,
    },
    Field {
        name: "process",
        aliases: &["arrivals"],
        kind: Kind::Words(&PROCESSES),
        default_ok: false,
        off: None,
        read: |s| V::Word(process_name(s.arrivals.process)),
        write: |s, v| {
            s.arrivals.process = match word(v)? {
                "fixed" => Process::Fixed,
                _ => Process::Poisson,
            };
            Ok(())
        },
        work: false,
    },
    Field {
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
                .map_or(V::Off, |c| V::Num(u64::from(c)))
        },
        write: |s, v| {
            s.downstream.capacity = match v {
                V::Off => None,
                v => Some(num_u32(v)?),
            };
            Ok(())
        },
        work: false,
    },
    Field {
        name: "fence",
        aliases: &[],
        kind: Kind::Words(&FENCES),
        default_ok: false,
        off: None,
        read: |s| V::Word(fence_name(s.store.fence)),
        write: |s, v| {
            let w = word(v)?;
            s.store.fence = Fence::ALL
                .into_iter()
                .find(|f| fence_name(*f) == w)
                .ok_or("is not a fence")?;
            Ok(())
        },
        work: false,
    },
];

/// The field a query parameter names, by name or alias, ignoring case and `-`/`_`.
pub fn find(name: &str) -> Option<usize> {
    let n = name.trim().to_ascii_lowercase().replace('-', "_");
    FIELDS
        .iter()
        .position(|f| f.name == n || f.aliases.iter().any(|a| a.replace('-', "_") == n))
}

fn index(name: &str) -> usize {
    FIELDS.iter().position(|f| f.name == name).unwrap_or(0)
}

/// One accepted override: the field, its value, and the text it came from.
#[derive(Debug, Clone)]
pub struct Override {
    pub field: usize,
    pub value: V,
    pub text: String,
}

/// The base with these overrides applied in the table's order, or the first
/// override that cannot apply (a heartbeat setting with the heartbeat off).
pub fn apply(start: &Scenario, overrides: &[Override]) -> Result<Scenario, (usize, String)> {
    let mut s = start.clone();
    let get = |i: usize| overrides.iter().find(|o| o.field == i).map(|o| &o.value);
    let mut work_done = false;
    for (i, f) in FIELDS.iter().enumerate() {
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
    get: &impl Fn(usize) -> Option<&'a V>,
) -> Result<(), (usize, String)> {
    let (i_dist, i_median, i_p99) = (index("dist"), index("median"), index("p99"));
    let (i_min, i_max, i_mean) = (index("min"), index("max"), index("mean"));
    if let Some(V::Word(w)) = get(i_dist) {
        if *w != shape(&s.work.dist) {
            let (m, q) = median_p99(&s.work.dist);
            s.work.dist = build(w, m, q);
        }
    }
    let current = shape(&s.work.dist);
    let median = get(i_median).and_then(|v| float(v).ok());
    let p99 = get(i_p99).and_then(|v| float(v).ok());
    if p99.is_some() && !has_p99(current) {
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
        // As the median slider: a median above the p99 drags the p99 with it.
        s.work.dist = build(current, m, q.max(m));
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
        if want == V::Na || want == (f.read)(&cur) {
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
    let to = shape(target);
    let mut cur = cur.clone();
    if shape(&cur) != to {
        out.push(("dist", to.to_string()));
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
                .find(|m| build("exponential", *m, *m) == *target);
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
    }
}

/// The `dist=` words: the page's shape select, which the tests hold us to.
#[cfg(test)]
pub fn dist_words() -> &'static [&'static str] {
    &DISTS
}
