//! Checks a scenario before it runs: every field against its stated range, and
//! the whole run against what fits in memory. The page calls this on every
//! slider move, the command line on every file, so each message names the
//! field by its dotted path, the value, and what is allowed:
//! `broker.visibility_timeout_ms = 0: must be from 1 ms to 43,200,000 ms (12 h)`.
//!
//! The limits are `pub const`s so the page can give its sliders the same ends.

use std::mem::size_of;

use crate::fit::{MAX_HISTOGRAM_BUCKETS, MAX_POINTS, MAX_SAMPLES, MIN_POINTS};
use crate::resolve::{
    client_policy, resolve, service_bus_renew_before_ms, ClientPolicy, JETSTREAM_ACK_WAIT_MS,
    RABBITMQ_CONSUMER_TIMEOUT_MS,
};
use crate::run::{Delivery, Event, Mark, MessageRecord};
use crate::scenario::{Dist, ExpiryTakes, Fault, LateAck, Library, Preset, Scenario};
use crate::work::to_ms;
use crate::SimError;
use lease_format::display;

/// SQS's ceiling for a visibility timeout (and for one extension): 12 hours.
pub const MAX_VISIBILITY_TIMEOUT_MS: u64 = 43_200_000;
/// A run longer than a day teaches nothing a day does not.
pub const MAX_DURATION_MS: u64 = 86_400_000;
/// Series buckets per run: a chart wider than this is not readable anyway.
pub const MAX_BUCKETS: u64 = 10_000;
pub const MAX_WORKERS: u32 = 10_000;
pub const MAX_CONCURRENCY: u32 = 1_000;
/// RabbitMQ's `basic.qos` prefetch field tops out here; no broker goes higher.
pub const MAX_PREFETCH: u32 = 65_535;
/// Pub/Sub's client flow control defaults to 1,000 outstanding messages.
pub const MAX_RECEIVE_BATCH: u32 = 1_000;
/// SQS's `maxReceiveCount` range is 1 to 1,000.
pub const MAX_RECEIVE_COUNT: u32 = 1_000;
/// A lease lifetime cap longer than this is the same as none for a one-day run.
pub const MAX_LEASE_LIFETIME_MS: u64 = 30 * 86_400_000;
pub const MAX_RPC_LATENCY_MS: u64 = 60_000;
pub const MAX_RATE_PER_S: f64 = 1_000.0;
pub const MAX_BACKLOG: u64 = 1_000_000;
/// Intrinsic work per message, at full speed.
pub const MAX_WORK_MS: u64 = 86_400_000;
/// Sigma of ln(jitter factor): 3 already spreads attempts by a factor of 1,000.
pub const MAX_ATTEMPT_JITTER: f64 = 3.0;
/// A million: "the dependency stopped answering" (the invisible backlog).
pub const MAX_SLOWDOWN_FACTOR: f64 = 1_000_000.0;
pub const MAX_DOWNSTREAM_CAPACITY: u32 = 10_000_000;
pub const MAX_FAULTS: usize = 1_000;
/// A run override names a delivery up to this number.
pub const MAX_OVERRIDE_RECEIPT: u32 = 1_000_000;
pub const MAX_NAME_CHARS: usize = 200;
/// A retry delay doubles at most this many times (2^62 ms is far past any run).
pub const MAX_RETRY_DOUBLINGS: u32 = 62;
/// JetStream's `BackOff` list: no more steps than this.
pub const MAX_LEASE_STEPS: usize = 100;
/// XAUTOCLAIM's `COUNT`: Redis refuses 0; a sweep of more entries than
/// lease-sim holds messages changes nothing.
pub const MAX_CLAIM_COUNT: u32 = 1_000_000;

/// What a run may hold: beyond these the engine would exhaust a browser tab.
pub const MAX_MESSAGES: u64 = 1_000_000;
pub const MAX_EVENTS: u64 = 20_000_000;
pub const MAX_RUN_BYTES: u64 = 1 << 30;
/// Scheduled steps (clock events, logged or not: calls, replies, ticks,
/// superseded expiries) a run may take per event of its budget. Shipped
/// scenarios take about two; the cap only catches a run that would spin
/// without logging (the engine's side of the work budget, `engine::Budget`).
pub const STEPS_PER_EVENT: u64 = 8;

/// Every field that feeds the event estimate, by its dotted path: what a
/// message about too many events tells the user to reduce.
pub const REDUCE_EVENTS: &str = "duration_ms, arrivals.backlog, arrivals.rate_per_s, \
workers.count or workers.prefetch, or raise workers.heartbeat.interval_ms or \
broker.visibility_timeout_ms, or set broker.max_receive_count";

/// Every rule's check in one pass; the first broken rule is reported.
pub fn validate(s: &Scenario) -> Result<(), SimError> {
    check_top(s)?;
    check_broker(s)?;
    check_workers(s)?;
    check_dist(&s.work.dist, "work")?;
    check_float(
        "work.attempt_jitter",
        s.work.attempt_jitter,
        0.0,
        MAX_ATTEMPT_JITTER,
        "must be a number from 0 (every attempt identical) to 3",
    )?;
    check_downstream(s)?;
    check_arrivals(s)?;
    check_faults(s)?;
    check_size(&estimate(s)).map_err(|e| lead_with_largest(s, e))
}

/// A size refusal names first the field behind the largest part of the
/// estimate (a heartbeat every millisecond, say), then the rest.
fn lead_with_largest(s: &Scenario, e: SimError) -> SimError {
    let SimError::TooLarge {
        what,
        limit,
        reduce,
    } = e
    else {
        return e;
    };
    if what.ends_with(" messages") {
        // Too many messages: the arrivals already lead.
        return SimError::TooLarge {
            what,
            limit,
            reduce,
        };
    }
    let p = estimate_parts(s).1;
    let parts = [
        (p.heartbeats, "workers.heartbeat.interval_ms (raise it)"),
        (
            p.redeliveries.saturating_mul(8),
            "workers.count or workers.prefetch (or raise broker.visibility_timeout_ms)",
        ),
        (
            p.messages.saturating_mul(9),
            "arrivals.backlog or arrivals.rate_per_s",
        ),
        (p.fault_events, "faults (fewer) or workers.count"),
    ];
    let lead = parts
        .iter()
        .max_by_key(|(n, _)| *n)
        .map_or("duration_ms", |(_, f)| f);
    SimError::TooLarge {
        what,
        limit,
        reduce: format!("{lead} first; else {reduce}"),
    }
}

fn invalid(field: impl Into<String>, value: impl ToString, allowed: impl Into<String>) -> SimError {
    SimError::Invalid {
        field: field.into(),
        value: value.to_string(),
        allowed: allowed.into(),
    }
}

fn ms_range(lo: u64, hi: u64) -> String {
    format!(
        "must be from {} ms to {} ms ({})",
        display::count(lo),
        display::count(hi),
        display::duration(hi)
    )
}

fn check_ms(field: &str, v: u64, lo: u64, hi: u64) -> Result<(), SimError> {
    if v < lo || v > hi {
        return Err(invalid(field, v, ms_range(lo, hi)));
    }
    Ok(())
}

fn check_count(field: &str, v: u64, lo: u64, hi: u64) -> Result<(), SimError> {
    if v < lo || v > hi {
        return Err(invalid(
            field,
            v,
            format!(
                "must be from {} to {}",
                display::count(lo),
                display::count(hi)
            ),
        ));
    }
    Ok(())
}

/// NaN and infinities fail here too: `!(v >= lo)` is true for NaN.
fn check_float(field: &str, v: f64, lo: f64, hi: f64, allowed: &str) -> Result<(), SimError> {
    if !v.is_finite() || v < lo || v > hi {
        return Err(invalid(field, v.to_string(), allowed));
    }
    Ok(())
}

fn check_top(s: &Scenario) -> Result<(), SimError> {
    if s.name.chars().count() > MAX_NAME_CHARS {
        return Err(invalid(
            "name",
            format!("{} characters", s.name.chars().count()),
            format!("must be at most {MAX_NAME_CHARS} characters"),
        ));
    }
    check_ms("duration_ms", s.duration_ms, 1, MAX_DURATION_MS)?;
    if s.bucket_ms == 0 {
        return Err(invalid(
            "bucket_ms",
            0,
            "must be at least 1 ms (default 60,000)",
        ));
    }
    let buckets = s.duration_ms.div_ceil(s.bucket_ms);
    if buckets > MAX_BUCKETS {
        return Err(invalid(
            "bucket_ms",
            s.bucket_ms,
            format!(
                "gives {} buckets over duration_ms = {}; must give at most {} (bucket_ms >= {})",
                display::count(buckets),
                display::count(s.duration_ms),
                display::count(MAX_BUCKETS),
                display::count(s.duration_ms.div_ceil(MAX_BUCKETS))
            ),
        ));
    }
    Ok(())
}

/// The preset's visibility timeout (docs/MODEL.md, "Broker presets"): used only to
/// check the effective value when the file leaves the timeout out.
pub fn preset_visibility_timeout_ms(p: Preset) -> u64 {
    match p {
        Preset::Textbook | Preset::SqsStandard | Preset::SqsFifo | Preset::RedisStreams => 30_000,
        Preset::AzureServiceBus => 60_000,
        Preset::GooglePubsub => 10_000,
        Preset::Rabbitmq42 | Preset::Rabbitmq43 => RABBITMQ_CONSUMER_TIMEOUT_MS,
        Preset::NatsJetstream => JETSTREAM_ACK_WAIT_MS,
        Preset::Bullmq => crate::resolve::BULLMQ_LOCK_DURATION_MS,
        Preset::CeleryRedis => crate::resolve::CELERY_REDIS_VISIBILITY_TIMEOUT_MS,
        Preset::CelerySqs => crate::resolve::CELERY_SQS_VISIBILITY_TIMEOUT_MS,
        Preset::TemporalActivity | Preset::CloudTasks | Preset::SidekiqPro => {
            crate::resolve::service_timeout_ms(p)
        }
    }
}

/// The timeout the run will use: the file's value, else the client
/// library's (SQS with Lambda), else the preset's.
pub fn effective_visibility_timeout_ms(s: &Scenario) -> u64 {
    s.broker.visibility_timeout_ms.unwrap_or_else(|| {
        client_policy(s.workers.client.as_ref())
            .visibility_timeout_ms()
            .unwrap_or_else(|| preset_visibility_timeout_ms(s.broker.preset))
    })
}

/// Lambda's longest function timeout: 15 min.
pub const MAX_FUNCTION_TIMEOUT_MS: u64 = 900_000;

/// `workers.client`: each parameter in its range and only under its own
/// library, and no heartbeat beside a library that manages the lease.
fn check_client(s: &Scenario) -> Result<(), SimError> {
    let Some(c) = &s.workers.client else {
        return Ok(());
    };
    let params = [
        (
            "max_lease_ms",
            c.max_lease_ms,
            Library::Pubsub,
            1,
            MAX_DURATION_MS,
        ),
        (
            "max_auto_lock_renewal_ms",
            c.max_auto_lock_renewal_ms,
            Library::ServiceBus,
            0,
            MAX_DURATION_MS,
        ),
        (
            "function_timeout_ms",
            c.function_timeout_ms,
            Library::SqsLambda,
            1,
            MAX_FUNCTION_TIMEOUT_MS,
        ),
    ];
    for (name, v, library, lo, hi) in params {
        let Some(v) = v else { continue };
        let field = format!("workers.client.{name}");
        if c.library != library {
            return Err(invalid(
                field,
                v,
                format!(
                    "applies only to workers.client.library = {} (it is {})",
                    library_name(library),
                    library_name(c.library)
                ),
            ));
        }
        check_ms(&field, v, lo, hi)?;
    }
    if c.library != Library::None {
        if let Some(Some(h)) = &s.workers.heartbeat {
            return Err(invalid(
                "workers.heartbeat",
                format!("interval_ms {}", h.interval_ms),
                format!(
                    "must be null or left out while workers.client.library = {}: the client library manages the lease",
                    library_name(c.library)
                ),
            ));
        }
    }
    Ok(())
}

fn library_name(l: Library) -> &'static str {
    match l {
        Library::None => "none",
        Library::Pubsub => "pubsub",
        Library::ServiceBus => "service_bus",
        Library::SqsLambda => "sqs_lambda",
    }
}

/// Extensions a client library can send per handler slot over the run, and
/// per delivery at most (`None`: no per-delivery bound).
fn client_steps(s: &Scenario) -> Option<(u64, Option<u64>)> {
    let timeout = effective_visibility_timeout_ms(s).max(1);
    match client_policy(s.workers.client.as_ref()) {
        ClientPolicy::None => None,
        // One at the start, then at least 9 s apart (nine tenths of 10 s).
        ClientPolicy::Pubsub { max_lease_ms } => {
            Some((s.duration_ms / 9_000 + 2, Some(max_lease_ms / 9_000 + 2)))
        }
        ClientPolicy::ServiceBus { max_renewal_ms } => {
            let every = (timeout - service_bus_renew_before_ms(timeout)).max(1);
            Some((s.duration_ms / every + 2, Some(max_renewal_ms / every + 2)))
        }
        // The kill is at most one abort per delivery, counted with deliveries.
        ClientPolicy::SqsLambda { .. } => Some((0, Some(0))),
    }
}

fn check_broker(s: &Scenario) -> Result<(), SimError> {
    let b = &s.broker;
    if let Some(t) = b.visibility_timeout_ms {
        check_ms(
            "broker.visibility_timeout_ms",
            t,
            1,
            MAX_VISIBILITY_TIMEOUT_MS,
        )?;
    }
    if let Some(Some(n)) = b.max_receive_count {
        if n == 0 || n > MAX_RECEIVE_COUNT {
            return Err(invalid(
                "broker.max_receive_count",
                n,
                format!(
                    "must be from 1 to {} (SQS's range), or null for no redrive policy",
                    display::count(MAX_RECEIVE_COUNT.into())
                ),
            ));
        }
    }
    if let Some(Some(l)) = b.max_lease_lifetime_ms {
        if l == 0 || l > MAX_LEASE_LIFETIME_MS {
            return Err(invalid(
                "broker.max_lease_lifetime_ms",
                l,
                format!("{}, or null for no cap", ms_range(1, MAX_LEASE_LIFETIME_MS)),
            ));
        }
    }
    if let Some(n) = b.receive_batch {
        check_count(
            "broker.receive_batch",
            n.into(),
            1,
            MAX_RECEIVE_BATCH.into(),
        )?;
    }
    if let Some(l) = b.rpc_latency_ms {
        check_ms("broker.rpc_latency_ms", l, 0, MAX_RPC_LATENCY_MS)?;
    }
    if let Some(Some(p)) = b.expiry_check_ms {
        if p == 0 || p > MAX_DURATION_MS {
            return Err(invalid(
                "broker.expiry_check_ms",
                p,
                format!(
                    "{}, or null to take a lease back at its deadline",
                    ms_range(1, MAX_DURATION_MS)
                ),
            ));
        }
    }
    if let Some(steps) = &b.lease_steps_ms {
        check_lease_steps(s, steps)?;
    }
    if let Some(n) = b.expiry_check_passes {
        if !(1..=2).contains(&n) {
            return Err(invalid(
                "broker.expiry_check_passes",
                n,
                "must be 1 (a check takes back what is past its deadline) or 2 \
                 (BullMQ's stalled checker: marked on one check, moved on the next)",
            ));
        }
        if n == 2 && resolve(s).expiry_check_ms.is_none() {
            return Err(invalid(
                "broker.expiry_check_passes",
                n,
                "needs a periodic check: set broker.expiry_check_ms",
            ));
        }
    }
    if let Some(n) = b.claim_count {
        check_count("broker.claim_count", n.into(), 1, MAX_CLAIM_COUNT.into())?;
    }
    if let Some(Some(n)) = b.max_expiries {
        check_count("broker.max_expiries", n.into(), 0, MAX_RECEIVE_COUNT.into())?;
    }
    check_retry(s)
}

/// The delay before redelivery and the managed services' own limits
/// (docs/MODEL.md "Managed services").
fn check_retry(s: &Scenario) -> Result<(), SimError> {
    let b = &s.broker;
    if let Some(Some(m)) = b.retry_min_ms {
        check_ms("broker.retry_min_ms", m, 1, MAX_DURATION_MS)?;
    }
    if let Some(m) = b.retry_max_ms {
        check_ms("broker.retry_max_ms", m, 1, MAX_DURATION_MS)?;
    }
    if let Some(Some(d)) = b.retry_doublings {
        check_count(
            "broker.retry_doublings",
            d.into(),
            0,
            MAX_RETRY_DOUBLINGS.into(),
        )?;
    }
    if b.receive_order == Some(crate::scenario::ReceiveOrder::Random) && b.preset == Preset::SqsFifo
    {
        return Err(invalid(
            "broker.receive_order",
            "random",
            "must be oldest or left out under sqs_fifo: a FIFO queue's one message group \
             is handed out in order",
        ));
    }
    crate::services::check(s).map_err(|(field, value, allowed)| invalid(field, value, allowed))
}

/// JetStream's `BackOff`: one to a hundred leases, each a valid timeout,
/// no more of them than `MaxDeliver` allows deliveries.
fn check_lease_steps(s: &Scenario, steps: &[u64]) -> Result<(), SimError> {
    let path = "broker.lease_steps_ms";
    if steps.is_empty() || steps.len() > MAX_LEASE_STEPS {
        return Err(invalid(
            path,
            format!("a list of {}", steps.len()),
            format!(
                "must list 1 to {MAX_LEASE_STEPS} leases in ms (JetStream's BackOff), or be left out"
            ),
        ));
    }
    for (i, &t) in steps.iter().enumerate() {
        // JetStream takes any duration (its own docs list 84,000 s): up to a day.
        check_ms(&format!("{path}[{i}]"), t, 1, MAX_DURATION_MS)?;
    }
    if let Some(n) = resolve(s).max_receive_count {
        if steps.len() > n as usize {
            return Err(invalid(
                path,
                format!("a list of {}", steps.len()),
                format!(
                    "must have no more leases than broker.max_receive_count ({n}) allows \
                     deliveries, as JetStream requires MaxDeliver >= len(BackOff)"
                ),
            ));
        }
    }
    Ok(())
}

fn check_workers(s: &Scenario) -> Result<(), SimError> {
    let w = &s.workers;
    check_count("workers.count", w.count.into(), 1, MAX_WORKERS.into())?;
    check_count(
        "workers.concurrency",
        w.concurrency.into(),
        1,
        MAX_CONCURRENCY.into(),
    )?;
    if let Some(p) = w.prefetch {
        if p < w.concurrency || p > MAX_PREFETCH {
            return Err(invalid(
                "workers.prefetch",
                p,
                format!(
                    "must be from workers.concurrency ({}) to {}: a worker holds every message it runs",
                    w.concurrency,
                    display::count(MAX_PREFETCH.into())
                ),
            ));
        }
    }
    check_client(s)?;
    if let Some(Some(h)) = &w.heartbeat {
        check_ms(
            "workers.heartbeat.interval_ms",
            h.interval_ms,
            1,
            MAX_VISIBILITY_TIMEOUT_MS,
        )?;
        if let Some(e) = h.extend_by_ms {
            check_ms(
                "workers.heartbeat.extend_by_ms",
                e,
                1,
                MAX_VISIBILITY_TIMEOUT_MS,
            )?;
        }
    }
    check_float(
        "workers.error_rate",
        w.error_rate,
        0.0,
        1.0,
        "must be a probability from 0 to 1",
    )?;
    check_float(
        "workers.hang_rate",
        w.hang_rate,
        0.0,
        1.0,
        "must be a probability from 0 to 1",
    )?;
    if w.error_rate + w.hang_rate > 1.0 {
        return Err(invalid(
            "workers.hang_rate",
            w.hang_rate.to_string(),
            format!(
                "workers.error_rate + workers.hang_rate must be at most 1 (error_rate is {})",
                w.error_rate
            ),
        ));
    }
    Ok(())
}

/// A work distribution on its own, as `work`: what a share link's `points=`
/// or the page's paste box checks before it changes anything.
pub fn check_work(d: &Dist) -> Result<(), SimError> {
    check_dist(d, "work")
}

fn check_dist(d: &Dist, path: &str) -> Result<(), SimError> {
    let work_range = || {
        format!(
            "must be a number of ms from 0 to {}",
            display::count(MAX_WORK_MS)
        )
    };
    match d {
        Dist::Constant { ms } => check_ms(&format!("{path}.ms"), *ms, 1, MAX_WORK_MS),
        Dist::Uniform { min_ms, max_ms } => {
            check_ms(&format!("{path}.max_ms"), *max_ms, 1, MAX_WORK_MS)?;
            if min_ms > max_ms {
                return Err(invalid(
                    format!("{path}.min_ms"),
                    min_ms,
                    format!("must be at most {path}.max_ms ({max_ms})"),
                ));
            }
            Ok(())
        }
        Dist::Exponential { mean_ms } => {
            let f = format!("{path}.mean_ms");
            check_float(&f, *mean_ms, 0.0, MAX_WORK_MS as f64, &work_range())?;
            if *mean_ms <= 0.0 {
                return Err(invalid(f, (*mean_ms).to_string(), "must be above 0 ms"));
            }
            Ok(())
        }
        Dist::Lognormal { median_ms, p99_ms } => {
            let f = format!("{path}.median_ms");
            check_float(&f, *median_ms, 0.0, MAX_WORK_MS as f64, &work_range())?;
            if *median_ms <= 0.0 {
                return Err(invalid(f, (*median_ms).to_string(), "must be above 0 ms"));
            }
            let f = format!("{path}.p99_ms");
            check_float(&f, *p99_ms, 0.0, MAX_WORK_MS as f64, &work_range())?;
            if p99_ms < median_ms {
                return Err(invalid(
                    f,
                    (*p99_ms).to_string(),
                    format!(
                        "must be at least {path}.median_ms ({}): the tail is above the middle",
                        (*median_ms)
                    ),
                ));
            }
            Ok(())
        }
        Dist::Mix {
            slow_fraction,
            fast,
            slow,
        } => {
            check_float(
                &format!("{path}.slow_fraction"),
                *slow_fraction,
                0.0,
                1.0,
                "must be a fraction from 0 to 1",
            )?;
            check_dist(fast, &format!("{path}.fast"))?;
            check_dist(slow, &format!("{path}.slow"))
        }
        Dist::Quantiles { points } => check_points(points, path),
        Dist::Empirical { samples_ms } => check_samples(samples_ms, path),
        Dist::Histogram { buckets } => check_buckets(buckets, path),
    }
}

/// One column of a list of pairs: how a message names it, what it allows,
/// and whether it must increase down the list.
struct Column {
    singular: &'static str,
    plural: &'static str,
    ok: fn(f64) -> bool,
    allowed: &'static str,
    increase: bool,
}

const POINTS: [Column; 2] = [
    Column {
        singular: "probability",
        plural: "probabilities",
        ok: |p| p > 0.0 && p < 1.0,
        allowed: "above 0 and below 1 (0.99 for a p99)",
        increase: true,
    },
    Column {
        singular: "duration",
        plural: "durations",
        ok: |ms| (1.0..=MAX_WORK_MS as f64).contains(&ms),
        allowed: "a number of ms from 1 to 86,400,000",
        increase: true,
    },
];

const BUCKETS: [Column; 2] = [
    Column {
        singular: "upper bound",
        plural: "upper bounds",
        ok: |up| up > 0.0 && up <= MAX_WORK_MS as f64,
        allowed: "a number of ms above 0 and at most 86,400,000 (the last bucket is finite here)",
        increase: true,
    },
    Column {
        singular: "count",
        plural: "counts",
        ok: |c| c >= 0.0 && c.is_finite(),
        allowed: "0 or more",
        increase: false,
    },
];

/// `points` or `buckets`: from `lo` to `hi` pairs, each column in its range
/// and increasing where it must.
fn check_pairs(
    list: &[[f64; 2]],
    field: &str,
    (lo, hi): (usize, usize),
    (unit, shape): (&str, &str),
    columns: &[Column; 2],
) -> Result<(), SimError> {
    if !(lo..=hi).contains(&list.len()) {
        return Err(invalid(
            field,
            format!("{} {unit}", list.len()),
            format!("must hold {lo} to {hi} {shape} {unit}"),
        ));
    }
    for (i, v) in list.iter().enumerate() {
        let value = || format!("[{}, {}]", (v[0]), (v[1]));
        for (c, col) in columns.iter().enumerate() {
            let x = v[c];
            let why = if !(col.ok)(x) {
                format!("the {} must be {}", col.singular, col.allowed)
            } else if col.increase && i > 0 && x <= list[i - 1][c] {
                format!(
                    "{} must increase: this one must be above {} ({}[{}])",
                    col.plural,
                    (list[i - 1][c]),
                    field,
                    i - 1
                )
            } else {
                continue;
            };
            return Err(invalid(format!("{field}[{i}]"), value(), why));
        }
    }
    Ok(())
}

fn check_points(points: &[[f64; 2]], path: &str) -> Result<(), SimError> {
    let field = format!("{path}.points");
    let n = (MIN_POINTS, MAX_POINTS);
    check_pairs(points, &field, n, ("points", "[probability, ms]"), &POINTS)
}

fn check_samples(samples: &[f64], path: &str) -> Result<(), SimError> {
    if samples.is_empty() || samples.len() > MAX_SAMPLES {
        return Err(invalid(
            format!("{path}.samples_ms"),
            format!("{} durations", display::count(samples.len() as u64)),
            format!(
                "must hold 1 to {} durations",
                display::count(MAX_SAMPLES as u64)
            ),
        ));
    }
    match samples
        .iter()
        .position(|v| !(0.0..=MAX_WORK_MS as f64).contains(v))
    {
        Some(i) => Err(invalid(
            format!("{path}.samples_ms[{i}]"),
            (samples[i]).to_string(),
            "must be a number of ms from 0 to 86,400,000: a duration is not negative",
        )),
        None => Ok(()),
    }
}

fn check_buckets(buckets: &[[f64; 2]], path: &str) -> Result<(), SimError> {
    let field = format!("{path}.buckets");
    let n = (1, MAX_HISTOGRAM_BUCKETS);
    check_pairs(
        buckets,
        &field,
        n,
        ("buckets", "[upper_ms, count]"),
        &BUCKETS,
    )?;
    if buckets.iter().all(|b| b[1] == 0.0) {
        return Err(invalid(
            field,
            "every count 0",
            "must hold at least one count above 0",
        ));
    }
    Ok(())
}

fn check_downstream(s: &Scenario) -> Result<(), SimError> {
    if let Some(c) = s.downstream.capacity {
        if c == 0 || c > MAX_DOWNSTREAM_CAPACITY {
            return Err(invalid(
                "downstream.capacity",
                c,
                format!(
                    "must be from 1 to {} handlers, or null for unlimited",
                    display::count(MAX_DOWNSTREAM_CAPACITY.into())
                ),
            ));
        }
    }
    for (i, sd) in s.downstream.slowdowns.iter().enumerate() {
        let p = format!("downstream.slowdowns[{i}]");
        if sd.from_ms >= sd.to_ms {
            return Err(invalid(
                format!("{p}.to_ms"),
                sd.to_ms,
                format!("must be after {p}.from_ms ({})", sd.from_ms),
            ));
        }
        check_float(
            &format!("{p}.factor"),
            sd.factor,
            0.0,
            MAX_SLOWDOWN_FACTOR,
            "must be above 0 and at most 1,000,000 (2 = the downstream takes twice as long)",
        )?;
        if sd.factor <= 0.0 {
            return Err(invalid(
                format!("{p}.factor"),
                sd.factor.to_string(),
                "must be above 0 and at most 1,000,000 (2 = the downstream takes twice as long)",
            ));
        }
    }
    Ok(())
}

fn check_arrivals(s: &Scenario) -> Result<(), SimError> {
    let a = &s.arrivals;
    check_ms("arrivals.eta_ms", a.eta_ms, 0, MAX_DURATION_MS)?;
    if a.backlog > MAX_BACKLOG {
        return Err(invalid(
            "arrivals.backlog",
            display::count(a.backlog),
            format!(
                "must be from 0 to {} messages: a run holds at most {} messages in memory",
                display::count(MAX_BACKLOG),
                display::count(MAX_MESSAGES)
            ),
        ));
    }
    let rate_allowed = format!(
        "must be a rate from 0 to {} messages per second",
        display::count(MAX_RATE_PER_S as u64)
    );
    check_float(
        "arrivals.rate_per_s",
        a.rate_per_s,
        0.0,
        MAX_RATE_PER_S,
        &rate_allowed,
    )?;
    for (i, sg) in a.surges.iter().enumerate() {
        let p = format!("arrivals.surges[{i}]");
        if sg.from_ms >= sg.to_ms {
            return Err(invalid(
                format!("{p}.to_ms"),
                sg.to_ms,
                format!("must be after {p}.from_ms ({})", sg.from_ms),
            ));
        }
        check_float(
            &format!("{p}.rate_per_s"),
            sg.rate_per_s,
            0.0,
            MAX_RATE_PER_S,
            &rate_allowed,
        )?;
    }
    Ok(())
}

fn check_faults(s: &Scenario) -> Result<(), SimError> {
    if s.faults.len() > MAX_FAULTS {
        return Err(invalid(
            "faults",
            format!("{} faults", s.faults.len()),
            format!(
                "must hold at most {} faults",
                display::count(MAX_FAULTS as u64)
            ),
        ));
    }
    let worker_ok = |i: usize, w: u32| {
        if w >= s.workers.count {
            return Err(invalid(
                format!("faults[{i}].worker"),
                w,
                format!(
                    "must name an existing worker, 0 to {} (workers.count is {})",
                    s.workers.count.saturating_sub(1),
                    s.workers.count
                ),
            ));
        }
        Ok(())
    };
    for (i, f) in s.faults.iter().enumerate() {
        match f {
            Fault::Crash {
                worker,
                restart_after_ms,
                ..
            } => {
                worker_ok(i, *worker)?;
                if let Some(r) = restart_after_ms {
                    check_ms(
                        &format!("faults[{i}].restart_after_ms"),
                        *r,
                        1,
                        MAX_DURATION_MS,
                    )?;
                }
            }
            Fault::RollingDeploy {
                downtime_ms,
                gap_ms,
                ..
            } => {
                check_ms(
                    &format!("faults[{i}].downtime_ms"),
                    *downtime_ms,
                    1,
                    MAX_DURATION_MS,
                )?;
                check_ms(&format!("faults[{i}].gap_ms"), *gap_ms, 0, MAX_DURATION_MS)?;
            }
            Fault::Pause {
                worker,
                duration_ms,
                ..
            } => {
                worker_ok(i, *worker)?;
                check_ms(
                    &format!("faults[{i}].duration_ms"),
                    *duration_ms,
                    1,
                    MAX_DURATION_MS,
                )?;
            }
            Fault::Run {
                message,
                receipt,
                work_ms,
                ..
            } => {
                if let Some(w) = work_ms {
                    check_ms(&format!("faults[{i}].work_ms"), *w, 1, MAX_DURATION_MS)?;
                }
                // The most messages the run can have: backlog and arrivals.
                let most = most_messages(s);
                if u64::from(*message) >= most {
                    return Err(invalid(
                        format!("faults[{i}].message"),
                        message,
                        format!(
                            "must name a message the run can have, 0 to {} (the backlog and the arrivals)",
                            display::count(most.saturating_sub(1))
                        ),
                    ));
                }
                if *receipt == 0 || *receipt > MAX_OVERRIDE_RECEIPT {
                    return Err(invalid(
                        format!("faults[{i}].receipt"),
                        receipt,
                        format!(
                            "must be a delivery number from 1 (the first delivery) to {}",
                            display::count(u64::from(MAX_OVERRIDE_RECEIPT))
                        ),
                    ));
                }
            }
        }
    }
    Ok(())
}

/// How big a run would be, before running it. Upper bounds, not predictions:
/// a run that passes the size check cannot exhaust memory, though most runs
/// are far smaller than their estimate.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Estimate {
    /// Backlog plus the mean number of arrivals over the run, plus six
    /// standard deviations of a Poisson count (so the bound holds for any seed
    /// in practice).
    pub messages: u64,
    /// Deliveries: every message once, plus redeliveries. A redelivery needs
    /// an earlier lease to end by expiry (a timeout long) or release (after at
    /// least the fastest work), and every lease holds a worker's prefetch slot
    /// or a crashed worker's ghost slot, so redeliveries are at most
    /// `slots * duration / cycle`, and at most `messages * (max_receive_count - 1)`.
    pub deliveries: u64,
    /// Log entries: one arrival per message, at most eight per delivery
    /// (receive, start, finish/error/hang, commit, ack, expire, release,
    /// dead-letter), heartbeats of every running slot every interval, and
    /// four per fault per worker (crash, restart, pause, resume).
    pub events: u64,
    /// Memory of the recorded run: events, deliveries, marks (one per
    /// heartbeat, ack, release, commit) and message records, sized by the
    /// compiling target's own `size_of`.
    pub bytes: u64,
}

/// Mean arrivals in `[0, duration)`: the base rate, replaced inside each
/// surge, the later surge winning where surges overlap (docs/MODEL.md).
fn mean_arrivals(s: &Scenario) -> f64 {
    let d = s.duration_ms;
    // Cut the run at every surge edge, then find the rate of each piece.
    let mut cuts: Vec<u64> = vec![0, d];
    for sg in &s.arrivals.surges {
        cuts.push(sg.from_ms.min(d));
        cuts.push(sg.to_ms.min(d));
    }
    cuts.sort_unstable();
    cuts.dedup();
    let mut total = 0.0;
    for w in cuts.windows(2) {
        let (a, b) = (w[0], w[1]);
        let rate = s
            .arrivals
            .surges
            .iter()
            .rev()
            .find(|sg| sg.from_ms <= a && a < sg.to_ms)
            .map_or(s.arrivals.rate_per_s, |sg| sg.rate_per_s);
        total += rate.max(0.0) * (b - a) as f64 / 1000.0;
    }
    total
}

/// The fastest a message's work can be, for the release-cycle bound. Only
/// matters when handlers can error; 1 ms is the engine's floor.
fn work_floor_ms(d: &Dist) -> u64 {
    match d {
        Dist::Constant { ms } => (*ms).max(1),
        Dist::Uniform { min_ms, .. } => (*min_ms).max(1),
        Dist::Mix { fast, slow, .. } => work_floor_ms(fast).min(work_floor_ms(slow)),
        Dist::Empirical { samples_ms } => {
            to_ms(samples_ms.iter().copied().fold(f64::INFINITY, f64::min))
        }
        // Unbounded below: the floor of the rounding rule.
        Dist::Exponential { .. }
        | Dist::Lognormal { .. }
        | Dist::Quantiles { .. }
        | Dist::Histogram { .. } => 1,
    }
}

fn sat(x: f64) -> u64 {
    // `as` saturates for f64 -> u64 and maps NaN to 0: what a bound wants.
    x.ceil() as u64
}

pub fn estimate(s: &Scenario) -> Estimate {
    estimate_parts(s).0
}

/// The largest terms of the event estimate, for naming what to reduce.
struct Parts {
    messages: u64,
    redeliveries: u64,
    heartbeats: u64,
    fault_events: u64,
}

/// The backlog plus the mean number of arrivals and six standard
/// deviations of a Poisson count: more messages than any seed gives.
fn most_messages(s: &Scenario) -> u64 {
    let mean = mean_arrivals(s);
    let arrivals = if mean > 0.0 {
        mean + 6.0 * mean.sqrt() + 1.0
    } else {
        0.0
    };
    s.arrivals.backlog.saturating_add(sat(arrivals))
}

fn estimate_parts(s: &Scenario) -> (Estimate, Parts) {
    let messages = most_messages(s);

    // JetStream's `BackOff`: its shortest step is the shortest lease.
    let timeout = match &s.broker.lease_steps_ms {
        Some(steps) if !steps.is_empty() => steps.iter().copied().min().unwrap_or(1),
        _ => effective_visibility_timeout_ms(s),
    }
    .max(1);
    let cycle = if s.workers.error_rate > 0.0 {
        timeout.min(work_floor_ms(&s.work.dist))
    } else {
        timeout
    };
    let count = u64::from(s.workers.count);
    let concurrency = u64::from(s.workers.concurrency);
    // The resolved prefetch: Celery's presets prefetch four per handler.
    let cfg = resolve(s);
    let prefetch = u64::from(cfg.prefetch);
    // A crash leaves the old leases running while the fresh worker takes new
    // ones: each fault can add one worker's worth of slots for a while.
    // A run override stops no worker: it leaves no ghost slots.
    let worker_faults = s
        .faults
        .iter()
        .filter(|f| !matches!(f, Fault::Run { .. }))
        .count() as u64;
    let ghosts = 1 + worker_faults;
    let slots = count.saturating_mul(prefetch).saturating_mul(ghosts);
    let mut by_slots = slots.saturating_mul(s.duration_ms / cycle + 1);
    // Messages held until their ETA sit outside the prefetch: every
    // message may be delivered again each lease while it waits.
    if cfg.eta_ms > 0 {
        by_slots = by_slots.saturating_add(messages.saturating_mul(s.duration_ms / cycle + 1));
    }
    // A closed channel takes back what its worker holds besides the
    // expired delivery, and a late ack closes it again: allow each slot's
    // deliveries once more (a rough allowance, not a proven bound;
    // the engine's budget stops a run that goes past it).
    if cfg.expiry_takes == ExpiryTakes::Channel || cfg.late_ack == LateAck::ChannelError {
        by_slots = by_slots.saturating_mul(2);
    }
    // An expiry that does not count (RabbitMQ 4.3) leaves the limit no
    // bound on redeliveries.
    let by_count = match s.broker.max_receive_count {
        Some(Some(n)) if cfg.expiry_counts => {
            messages.saturating_mul(u64::from(n.saturating_sub(1)))
        }
        _ => u64::MAX,
    };
    let deliveries = messages.saturating_add(by_slots.min(by_count));

    let heartbeats = match &s.workers.heartbeat {
        _ if client_steps(s).is_some() => {
            let (per_slot, per_delivery) = client_steps(s).unwrap_or((0, None));
            let by_slot = count
                .saturating_mul(concurrency)
                .saturating_mul(ghosts)
                .saturating_mul(per_slot);
            // Each delivery's first step may come early: one more each.
            let by_slot = by_slot.saturating_add(deliveries);
            match per_delivery {
                Some(m) => by_slot.min(deliveries.saturating_mul(m)),
                None => by_slot,
            }
        }
        Some(Some(h)) => {
            let per_slot = s.duration_ms / h.interval_ms.max(1) + 1;
            let by_slot = count
                .saturating_mul(concurrency)
                .saturating_mul(ghosts)
                .saturating_mul(per_slot);
            match h.max_extensions {
                Some(m) => by_slot.min(deliveries.saturating_mul(u64::from(m))),
                None => by_slot,
            }
        }
        // BullMQ's lock renewal, every half lock, when the file has none.
        None if s.broker.preset == Preset::Bullmq => count
            .saturating_mul(concurrency)
            .saturating_mul(ghosts)
            .saturating_mul(s.duration_ms / (cfg.visibility_timeout_ms / 2).max(1) + 1),
        // Pub/Sub's lease manager heartbeats every 5 s when the file has none.
        None if s.broker.preset == Preset::GooglePubsub => count
            .saturating_mul(concurrency)
            .saturating_mul(ghosts)
            .saturating_mul(s.duration_ms / 5_000 + 1),
        _ => 0,
    };
    let fault_events = worker_faults.saturating_mul(count).saturating_mul(4);
    let events = messages
        .saturating_add(deliveries.saturating_mul(8))
        .saturating_add(heartbeats)
        .saturating_add(fault_events);

    let marks = heartbeats.saturating_add(deliveries.saturating_mul(3));
    let bytes = events
        .saturating_mul(size_of::<Event>() as u64)
        .saturating_add(deliveries.saturating_mul(size_of::<Delivery>() as u64 + 4))
        .saturating_add(marks.saturating_mul(size_of::<Mark>() as u64))
        .saturating_add(messages.saturating_mul(size_of::<MessageRecord>() as u64));

    (
        Estimate {
            messages,
            deliveries,
            events,
            bytes,
        },
        Parts {
            messages,
            redeliveries: by_slots.min(by_count),
            heartbeats,
            fault_events,
        },
    )
}

/// Refuses a run whose estimate passes a limit, naming what to reduce.
pub fn check_size(e: &Estimate) -> Result<(), SimError> {
    if e.messages > MAX_MESSAGES {
        return Err(SimError::TooLarge {
            what: format!("up to {} messages", display::count(e.messages)),
            limit: format!("{} messages", display::count(MAX_MESSAGES)),
            reduce: "arrivals.backlog, arrivals.rate_per_s, arrivals.surges or duration_ms".into(),
        });
    }
    if e.events > MAX_EVENTS {
        return Err(SimError::TooLarge {
            what: format!("up to {} events", display::count(e.events)),
            limit: format!("{} events", display::count(MAX_EVENTS)),
            reduce: REDUCE_EVENTS.into(),
        });
    }
    if e.bytes > MAX_RUN_BYTES {
        return Err(SimError::TooLarge {
            what: format!("up to {} bytes of recorded run", display::count(e.bytes)),
            limit: format!("{} bytes", display::count(MAX_RUN_BYTES)),
            reduce: REDUCE_EVENTS.into(),
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::{Heartbeat, OnReject, Slowdown, Surge};

    fn base() -> Scenario {
        Scenario {
            name: "t".into(),
            ..Scenario::default()
        }
    }

    /// The message of the error a broken scenario gives.
    fn err(s: &Scenario) -> String {
        match validate(s) {
            Ok(()) => panic!("expected an error for {s:?}"),
            Err(e) => e.to_string(),
        }
    }

    fn field(s: &Scenario) -> String {
        match validate(s) {
            Err(SimError::Invalid { field, .. }) => field,
            other => panic!("expected Invalid, got {other:?}"),
        }
    }

    #[test]
    fn the_default_scenario_is_valid() {
        assert_eq!(validate(&base()), Ok(()));
    }

    #[test]
    fn zero_timeout_names_the_field_and_the_range() {
        let mut s = base();
        s.broker.visibility_timeout_ms = Some(0);
        assert_eq!(
            err(&s),
            "broker.visibility_timeout_ms = 0: must be from 1 ms to 43,200,000 ms (12 h)"
        );
        s.broker.visibility_timeout_ms = Some(MAX_VISIBILITY_TIMEOUT_MS + 1);
        assert_eq!(field(&s), "broker.visibility_timeout_ms");
        s.broker.visibility_timeout_ms = Some(MAX_VISIBILITY_TIMEOUT_MS);
        assert_eq!(validate(&s), Ok(()));
    }

    #[test]
    fn prefetch_below_concurrency_is_refused() {
        let mut s = base();
        s.workers.concurrency = 4;
        s.workers.prefetch = Some(3);
        assert_eq!(field(&s), "workers.prefetch");
        assert!(err(&s).contains("workers.concurrency (4)"));
        s.workers.prefetch = Some(4);
        assert_eq!(validate(&s), Ok(()));
    }

    #[test]
    fn worker_count_and_concurrency_have_limits() {
        let mut s = base();
        s.workers.count = 0;
        assert_eq!(err(&s), "workers.count = 0: must be from 1 to 10,000");
        s.workers.count = MAX_WORKERS + 1;
        assert_eq!(field(&s), "workers.count");
        s.workers.count = 2;
        s.workers.concurrency = 0;
        assert_eq!(field(&s), "workers.concurrency");
        s.workers.concurrency = MAX_CONCURRENCY + 1;
        assert_eq!(field(&s), "workers.concurrency");
    }

    #[test]
    fn broker_counts_have_limits() {
        let mut s = base();
        s.broker.max_receive_count = Some(Some(0));
        assert_eq!(field(&s), "broker.max_receive_count");
        s.broker.max_receive_count = Some(None);
        assert_eq!(validate(&s), Ok(()));
        s.broker.receive_batch = Some(0);
        assert_eq!(field(&s), "broker.receive_batch");
        s.broker.receive_batch = Some(10);
        s.broker.max_lease_lifetime_ms = Some(Some(0));
        assert_eq!(field(&s), "broker.max_lease_lifetime_ms");
        s.broker.max_lease_lifetime_ms = Some(None);
        s.broker.rpc_latency_ms = Some(MAX_RPC_LATENCY_MS + 1);
        assert_eq!(field(&s), "broker.rpc_latency_ms");
    }

    #[test]
    fn probabilities_stay_in_zero_to_one() {
        let mut s = base();
        s.workers.error_rate = 1.5;
        assert_eq!(field(&s), "workers.error_rate");
        s.workers.error_rate = -0.1;
        assert_eq!(field(&s), "workers.error_rate");
        s.workers.error_rate = 0.6;
        s.workers.hang_rate = 0.5;
        assert_eq!(field(&s), "workers.hang_rate");
        assert!(err(&s).contains("at most 1"));
        s.workers.hang_rate = 0.4;
        assert_eq!(validate(&s), Ok(()));
    }

    #[test]
    fn nan_and_infinity_are_refused() {
        let mut s = base();
        s.workers.hang_rate = f64::NAN;
        assert_eq!(field(&s), "workers.hang_rate");
        let mut s = base();
        s.arrivals.rate_per_s = f64::INFINITY;
        assert_eq!(field(&s), "arrivals.rate_per_s");
        let mut s = base();
        s.work.attempt_jitter = f64::NAN;
        assert_eq!(field(&s), "work.attempt_jitter");
        let mut s = base();
        s.work.dist = Dist::Exponential { mean_ms: f64::NAN };
        assert_eq!(field(&s), "work.mean_ms");
    }

    #[test]
    fn distributions_are_checked_down_to_the_mix() {
        let mut s = base();
        s.work.dist = Dist::Lognormal {
            median_ms: 8000.0,
            p99_ms: 2000.0,
        };
        assert_eq!(field(&s), "work.p99_ms");
        s.work.dist = Dist::Uniform {
            min_ms: 5000,
            max_ms: 1000,
        };
        assert_eq!(field(&s), "work.min_ms");
        s.work.dist = Dist::Constant { ms: 0 };
        assert_eq!(field(&s), "work.ms");
        s.work.dist = Dist::Exponential { mean_ms: 0.0 };
        assert_eq!(field(&s), "work.mean_ms");
        s.work.dist = Dist::Mix {
            slow_fraction: 1.2,
            fast: Box::new(Dist::Constant { ms: 100 }),
            slow: Box::new(Dist::Constant { ms: 1000 }),
        };
        assert_eq!(field(&s), "work.slow_fraction");
        s.work.dist = Dist::Mix {
            slow_fraction: 0.05,
            fast: Box::new(Dist::Constant { ms: 100 }),
            slow: Box::new(Dist::Lognormal {
                median_ms: 0.0,
                p99_ms: 1.0,
            }),
        };
        assert_eq!(field(&s), "work.slow.median_ms");
    }

    fn with(d: Dist) -> Scenario {
        let mut s = base();
        s.work.dist = d;
        s
    }

    fn quantiles(points: &[[f64; 2]]) -> Scenario {
        with(Dist::Quantiles {
            points: points.to_vec(),
        })
    }

    #[test]
    fn the_data_checks_write_the_longest_work_as_it_is() {
        let longest = display::count(MAX_WORK_MS);
        assert!(POINTS[1].allowed.ends_with(&longest));
        assert!(BUCKETS[0].allowed.contains(&format!("at most {longest} (")));
        let mut s = base();
        s.work.dist = Dist::Empirical {
            samples_ms: vec![MAX_WORK_MS as f64 + 1.0],
        };
        assert!(
            err(&s).contains(&format!("from 0 to {longest}:")),
            "{}",
            err(&s)
        );
    }

    #[test]
    fn percentile_points_are_two_to_nine_increasing_pairs() {
        assert_eq!(
            validate(&quantiles(&[[0.5, 2000.0], [0.9, 7000.0], [0.99, 20000.0]])),
            Ok(())
        );
        let one = quantiles(&[[0.5, 2000.0]]);
        assert_eq!(field(&one), "work.points");
        assert!(err(&one).contains("must hold 2 to 9"), "{}", err(&one));
        let ten: Vec<[f64; 2]> = (1..=10)
            .map(|i| [f64::from(i) / 11.0, f64::from(i) * 100.0])
            .collect();
        let ten = quantiles(&ten);
        assert_eq!(field(&ten), "work.points");
        assert!(err(&ten).contains("10 points"), "{}", err(&ten));
        let p_one = quantiles(&[[0.5, 2000.0], [1.0, 7000.0]]);
        assert_eq!(field(&p_one), "work.points[1]");
        assert!(err(&p_one).contains("below 1"), "{}", err(&p_one));
        let p_zero = quantiles(&[[0.0, 2000.0], [0.9, 7000.0]]);
        assert_eq!(field(&p_zero), "work.points[0]");
        let unsorted = quantiles(&[[0.9, 2000.0], [0.5, 7000.0]]);
        assert_eq!(field(&unsorted), "work.points[1]");
        assert!(err(&unsorted).contains("probabilities must increase"));
        let falling = quantiles(&[[0.5, 7000.0], [0.9, 2000.0]]);
        assert_eq!(field(&falling), "work.points[1]");
        assert!(err(&falling).contains("durations must increase"));
        let tiny = quantiles(&[[0.5, 0.5], [0.9, 2000.0]]);
        assert_eq!(field(&tiny), "work.points[0]");
        assert!(err(&tiny).contains("from 1 to"), "{}", err(&tiny));
    }

    #[test]
    fn durations_are_one_to_a_million_numbers_of_at_least_zero() {
        let ok = |v: Vec<f64>| with(Dist::Empirical { samples_ms: v });
        assert_eq!(validate(&ok(vec![0.0, 1200.0, 3.5])), Ok(()));
        let empty = ok(Vec::new());
        assert_eq!(field(&empty), "work.samples_ms");
        assert!(err(&empty).contains("1 to 1,000,000"), "{}", err(&empty));
        let negative = ok(vec![10.0, -4.0]);
        assert_eq!(field(&negative), "work.samples_ms[1]");
        assert!(
            err(&negative).contains("not negative"),
            "{}",
            err(&negative)
        );
        assert_eq!(field(&ok(vec![f64::NAN])), "work.samples_ms[0]");
        let too_many = ok(vec![1.0; MAX_SAMPLES + 1]);
        assert_eq!(field(&too_many), "work.samples_ms");
        assert!(err(&too_many).contains("1,000,001"), "{}", err(&too_many));
    }

    #[test]
    fn histogram_buckets_increase_and_count_something() {
        let h = |b: &[[f64; 2]]| {
            with(Dist::Histogram {
                buckets: b.to_vec(),
            })
        };
        assert_eq!(validate(&h(&[[100.0, 5.0], [1000.0, 0.0]])), Ok(()));
        let unsorted = h(&[[1000.0, 5.0], [100.0, 3.0]]);
        assert_eq!(field(&unsorted), "work.buckets[1]");
        assert!(err(&unsorted).contains("upper bounds must increase"));
        let zero_upper = h(&[[0.0, 5.0]]);
        assert_eq!(field(&zero_upper), "work.buckets[0]");
        let infinite = h(&[[100.0, 5.0], [f64::INFINITY, 1.0]]);
        assert_eq!(field(&infinite), "work.buckets[1]");
        assert!(err(&infinite).contains("finite"), "{}", err(&infinite));
        let negative = h(&[[100.0, -1.0]]);
        assert_eq!(field(&negative), "work.buckets[0]");
        assert!(err(&negative).contains("count must be 0 or more"));
        let empty_counts = h(&[[100.0, 0.0], [200.0, 0.0]]);
        assert_eq!(field(&empty_counts), "work.buckets");
        assert!(err(&empty_counts).contains("at least one count"));
        assert_eq!(field(&h(&[])), "work.buckets");
    }

    #[test]
    fn heartbeat_interval_and_extend_by_must_be_positive() {
        let mut s = base();
        s.workers.heartbeat = Some(Some(Heartbeat {
            interval_ms: 0,
            extend_by_ms: None,
            max_extensions: None,
            on_reject: OnReject::Continue,
        }));
        assert_eq!(field(&s), "workers.heartbeat.interval_ms");
        s.workers.heartbeat = Some(Some(Heartbeat {
            interval_ms: 10_000,
            extend_by_ms: Some(0),
            max_extensions: Some(3),
            on_reject: OnReject::Abort,
        }));
        assert_eq!(field(&s), "workers.heartbeat.extend_by_ms");
    }

    #[test]
    fn slowdowns_need_a_positive_factor_and_an_order() {
        let mut s = base();
        s.downstream.slowdowns = vec![Slowdown {
            from_ms: 10,
            to_ms: 10,
            factor: 3.0,
        }];
        assert_eq!(field(&s), "downstream.slowdowns[0].to_ms");
        s.downstream.slowdowns = vec![
            Slowdown {
                from_ms: 0,
                to_ms: 10,
                factor: 3.0,
            },
            Slowdown {
                from_ms: 0,
                to_ms: 10,
                factor: 0.0,
            },
        ];
        assert_eq!(field(&s), "downstream.slowdowns[1].factor");
        s.downstream.slowdowns.clear();
        s.downstream.capacity = Some(0);
        assert_eq!(field(&s), "downstream.capacity");
    }

    #[test]
    fn surges_and_backlog_have_limits() {
        let mut s = base();
        s.arrivals.surges = vec![Surge {
            from_ms: 500,
            to_ms: 100,
            rate_per_s: 1.0,
        }];
        assert_eq!(field(&s), "arrivals.surges[0].to_ms");
        s.arrivals.surges = vec![Surge {
            from_ms: 0,
            to_ms: 100,
            rate_per_s: MAX_RATE_PER_S * 2.0,
        }];
        assert_eq!(field(&s), "arrivals.surges[0].rate_per_s");
        s.arrivals.surges.clear();
        s.arrivals.backlog = MAX_BACKLOG + 1;
        assert_eq!(field(&s), "arrivals.backlog");
        s.arrivals.backlog = 10_000_000;
        assert_eq!(
            err(&s),
            "arrivals.backlog = 10,000,000: must be from 0 to 1,000,000 messages: a run holds at most 1,000,000 messages in memory"
        );
    }

    #[test]
    fn a_fault_must_name_an_existing_worker() {
        let mut s = base();
        s.workers.count = 3;
        s.faults = vec![Fault::Crash {
            worker: 3,
            at_ms: 1000,
            restart_after_ms: Some(1000),
        }];
        assert_eq!(
            err(&s),
            "faults[0].worker = 3: must name an existing worker, 0 to 2 (workers.count is 3)"
        );
        s.faults = vec![Fault::Pause {
            worker: 2,
            at_ms: 1000,
            duration_ms: 0,
        }];
        assert_eq!(field(&s), "faults[0].duration_ms");
        s.faults = vec![Fault::RollingDeploy {
            at_ms: 0,
            downtime_ms: 0,
            gap_ms: 0,
        }];
        assert_eq!(field(&s), "faults[0].downtime_ms");
    }

    #[test]
    fn a_run_override_names_a_message_the_run_can_have_and_a_delivery_number() {
        use crate::scenario::RunOutcome;
        let mut s = base();
        s.arrivals.backlog = 3;
        s.arrivals.rate_per_s = 0.0;
        let run = |message, receipt| Fault::Run {
            message,
            receipt,
            outcome: Some(RunOutcome::Hang),
            work_ms: None,
        };
        s.faults = vec![run(2, 1)];
        assert!(validate(&s).is_ok());
        s.faults = vec![run(0, 1), run(3, 1)];
        assert_eq!(
            validate(&s).unwrap_err().to_string(),
            "faults[1].message = 3: must name a message the run can have, 0 to 2 (the backlog and the arrivals)"
        );
        s.faults = vec![run(0, 0)];
        assert_eq!(field(&s), "faults[0].receipt");
    }

    #[test]
    fn duration_and_buckets_have_limits() {
        let mut s = base();
        s.duration_ms = 0;
        assert_eq!(field(&s), "duration_ms");
        s.duration_ms = MAX_DURATION_MS + 1;
        assert_eq!(field(&s), "duration_ms");
        s.duration_ms = 600_000;
        s.bucket_ms = 0;
        assert_eq!(field(&s), "bucket_ms");
        s.bucket_ms = 1;
        assert_eq!(field(&s), "bucket_ms");
        assert!(err(&s).contains("bucket_ms >= 60"));
        s.bucket_ms = 60;
        assert_eq!(validate(&s), Ok(()));
    }

    #[test]
    fn a_ten_million_message_run_is_too_large() {
        let mut s = base();
        s.duration_ms = 10_000_000; // 10,000 s at 1,000/s
        s.arrivals.rate_per_s = MAX_RATE_PER_S;
        match validate(&s) {
            Err(SimError::TooLarge { what, reduce, .. }) => {
                assert!(what.contains("10,0"), "{what}");
                assert!(reduce.contains("arrivals.rate_per_s"));
            }
            other => panic!("expected TooLarge, got {other:?}"),
        }
    }

    #[test]
    fn estimate_counts_backlog_and_surges() {
        let mut s = base();
        s.duration_ms = 100_000;
        s.arrivals.backlog = 50;
        s.arrivals.rate_per_s = 1.0;
        s.arrivals.surges = vec![Surge {
            from_ms: 50_000,
            to_ms: 60_000,
            rate_per_s: 11.0,
        }];
        // 50 + 90 s at 1/s + 10 s at 11/s = 250 expected; plus 6 sigma.
        let e = estimate(&s);
        assert!(e.messages >= 250 && e.messages < 250 + 6 * 15 + 2, "{e:?}");
        assert!(e.deliveries >= e.messages);
        assert!(e.events > e.deliveries);
        assert!(e.bytes > e.events * size_of::<Event>() as u64);
    }

    #[test]
    fn a_redrive_limit_bounds_the_deliveries() {
        let mut s = base();
        s.duration_ms = 3_600_000;
        s.broker.visibility_timeout_ms = Some(1_000);
        s.broker.max_receive_count = Some(Some(3));
        let capped = estimate(&s);
        assert!(capped.deliveries <= capped.messages * 3);
        s.broker.max_receive_count = Some(None);
        assert!(estimate(&s).deliveries > capped.deliveries);
    }

    #[test]
    fn thousands_groups_digits() {
        assert_eq!(display::count(0), "0");
        assert_eq!(display::count(999), "999");
        assert_eq!(display::count(1000), "1,000");
        assert_eq!(display::count(43_200_000), "43,200,000");
    }
}
