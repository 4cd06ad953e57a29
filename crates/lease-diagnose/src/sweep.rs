//! Sweep one setting across a range and measure what a timeout table
//! compares: throughput, spurious concurrency, duplicate effects, dead
//! letters, redeliveries and recovery after a crash. "Lower the timeout
//! until the feedback loop starts; note the throughput curve on the way
//! down" is one call.

use lease_sim::resolve::resolve;
use lease_sim::scenario::{Dist, Fault, Scenario};
use lease_sim::validate::effective_visibility_timeout_ms;
use lease_sim::{run_totals, validate, Report};
use serde::{Deserialize, Serialize};

use crate::fix::heartbeat_or_default;
use crate::stats::{scale_dist, work_p99_ms};

/// Most points one sweep may ask for: each is a whole simulation.
pub const MAX_SWEEP_STEPS: usize = 200;
/// Completions per bucket back to at least this share of the pre-fault mean
/// count as recovered.
pub const RECOVERY_SHARE: f64 = 0.5;

/// A setting a sweep can vary.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Param {
    Timeout,
    HeartbeatInterval,
    ExtensionCap,
    Workers,
    ProcessingP99,
    DownstreamCapacity,
}

impl Param {
    pub const ALL: [Param; 6] = [
        Param::Timeout,
        Param::HeartbeatInterval,
        Param::ExtensionCap,
        Param::Workers,
        Param::ProcessingP99,
        Param::DownstreamCapacity,
    ];

    /// The scenario field's dotted path (the same names validation errors use).
    pub fn path(&self) -> &'static str {
        match self {
            Param::Timeout => "broker.visibility_timeout_ms",
            Param::HeartbeatInterval => "workers.heartbeat.interval_ms",
            Param::ExtensionCap => "workers.heartbeat.max_extensions",
            Param::Workers => "workers.count",
            Param::ProcessingP99 => "work.p99_ms",
            Param::DownstreamCapacity => "downstream.capacity",
        }
    }

    /// The inverse of `path`, for share links and the command line.
    pub fn from_path(path: &str) -> Option<Param> {
        Param::ALL.into_iter().find(|p| p.path() == path)
    }

    /// The value the scenario runs with now (presets and defaults applied);
    /// `None` when the setting is off (no heartbeat, no cap, unlimited
    /// capacity).
    pub fn current(&self, s: &Scenario) -> Option<f64> {
        match self {
            Param::Timeout => Some(effective_visibility_timeout_ms(s) as f64),
            Param::HeartbeatInterval => resolve(s).heartbeat.map(|h| h.interval_ms as f64),
            Param::ExtensionCap => resolve(s)
                .heartbeat
                .and_then(|h| h.max_extensions)
                .map(f64::from),
            Param::Workers => Some(f64::from(s.workers.count)),
            Param::ProcessingP99 => Some(work_p99_ms(&s.work.dist)),
            Param::DownstreamCapacity => s.downstream.capacity.map(f64::from),
        }
    }

    /// Set the value (rounded to whole ms or a whole count). Values outside
    /// the field's range are set as given, so that validation names them.
    /// - Heartbeat settings turn a heartbeat on if none runs: every third of
    ///   the lease, extending by the lease, with a cap sized to the work's
    ///   tail (a preset's client-library heartbeat is made explicit first).
    /// - The timeout carries an explicit `extend_by_ms` that equalled the old
    ///   timeout along with it ("extend by the lease"), else leaves it.
    /// - The p99 keeps the median and the shape where it can: a log-normal
    ///   keeps its median (lowered to the p99 if the p99 goes below it), a
    ///   uniform keeps its minimum, a constant becomes the value, an
    ///   exponential's mean follows, and a mix is scaled as a whole.
    pub fn set(&self, s: &mut Scenario, value: f64) {
        match self {
            Param::Timeout => {
                let old = effective_visibility_timeout_ms(s);
                let new = to_u64(value);
                s.broker.visibility_timeout_ms = Some(new);
                if let Some(Some(h)) = &mut s.workers.heartbeat {
                    if h.extend_by_ms == Some(old) {
                        h.extend_by_ms = Some(new);
                    }
                }
            }
            Param::HeartbeatInterval => {
                let mut h = heartbeat_or_default(s);
                h.interval_ms = to_u64(value);
                // A heartbeat swept takes the lease back from a client library.
                s.workers.client = None;
                s.workers.heartbeat = Some(Some(h));
            }
            Param::ExtensionCap => {
                let mut h = heartbeat_or_default(s);
                h.max_extensions = Some(to_u32(value));
                s.workers.client = None;
                s.workers.heartbeat = Some(Some(h));
            }
            Param::Workers => s.workers.count = to_u32(value),
            Param::ProcessingP99 => s.work.dist = with_p99(&s.work.dist, value),
            Param::DownstreamCapacity => s.downstream.capacity = Some(to_u32(value)),
        }
    }
}

/// NaN and negatives become 0 (which validation then rejects where 0 is
/// not allowed); large values saturate.
fn to_u64(v: f64) -> u64 {
    if v.is_finite() && v > 0.0 {
        v.round() as u64
    } else {
        0
    }
}

fn to_u32(v: f64) -> u32 {
    to_u64(v).min(u64::from(u32::MAX)) as u32
}

fn with_p99(d: &Dist, v: f64) -> Dist {
    let v = if v.is_finite() { v.max(0.0) } else { 0.0 };
    match d {
        Dist::Constant { .. } => Dist::Constant { ms: to_u64(v) },
        Dist::Lognormal { median_ms, .. } => Dist::Lognormal {
            median_ms: median_ms.min(v),
            p99_ms: v,
        },
        Dist::Uniform { min_ms, max_ms } if v >= *min_ms as f64 => {
            // p99 = min + 0.99 (max - min)
            let max = *min_ms as f64 + (v - *min_ms as f64) / 0.99;
            Dist::Uniform {
                min_ms: *min_ms,
                max_ms: to_u64(max).max(*min_ms),
            }
        }
        Dist::Exponential { .. } => Dist::Exponential {
            mean_ms: v / 100f64.ln(),
        },
        other => {
            let p = work_p99_ms(other);
            if p > 0.0 {
                scale_dist(other, v / p)
            } else {
                other.clone()
            }
        }
    }
}

/// One point of a sweep.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SweepRow {
    pub value: f64,
    /// Accepted acks per minute, over the whole run.
    pub completions_per_min: f64,
    pub overlapping_runs: u64,
    pub duplicate_effects: u64,
    /// Dead-lettered by either cause.
    pub dead_lettered: u64,
    pub redeliveries: u64,
    /// See `recovery_ms`; `None` when the scenario has no crash or deploy.
    pub recovery_ms: Option<u64>,
    /// Why the point did not run (invalid or too large); the numbers are
    /// then zero.
    pub skipped: Option<String>,
}

impl SweepRow {
    fn skipped(value: f64, reason: String) -> Self {
        SweepRow {
            value,
            completions_per_min: 0.0,
            overlapping_runs: 0,
            duplicate_effects: 0,
            dead_lettered: 0,
            redeliveries: 0,
            recovery_ms: None,
            skipped: Some(reason),
        }
    }
}

/// `steps` values from `from` to `to` (both included), evenly spaced, or
/// geometrically when `log` (both ends must then be above 0, else the grid
/// is linear). Values are whole numbers (every parameter is in ms or a
/// count) and repeats after rounding are dropped. The scenario is not
/// consulted today; it is in the signature so that a grid may later snap to
/// what a field allows.
pub fn sweep_points(
    _scenario: &Scenario,
    _param: Param,
    from: f64,
    to: f64,
    steps: usize,
    log: bool,
) -> Vec<f64> {
    if !from.is_finite() || !to.is_finite() || steps == 0 {
        return Vec::new();
    }
    if steps == 1 {
        return vec![from.round()];
    }
    let log = log && from > 0.0 && to > 0.0;
    let n = (steps - 1) as f64;
    let mut v: Vec<f64> = (0..steps)
        .map(|i| {
            let f = i as f64 / n;
            let x = if log {
                (from.ln() + f * (to.ln() - from.ln())).exp()
            } else {
                from + f * (to - from)
            };
            x.round()
        })
        .collect();
    v.dedup();
    v
}

/// Simulate the scenario with the parameter set to `value` and measure it.
pub fn sweep_one(scenario: &Scenario, param: Param, value: f64) -> SweepRow {
    let mut s = scenario.clone();
    param.set(&mut s, value);
    if let Err(e) = validate(&s) {
        return SweepRow::skipped(value, e.to_string());
    }
    // Totals and series only: the counters-only run (docs/MODEL.md).
    let report = match run_totals(&s) {
        Ok(r) => r,
        Err(e) => return SweepRow::skipped(value, e.to_string()),
    };
    let t = &report.totals;
    SweepRow {
        value,
        completions_per_min: t.acks_ok as f64 * 60_000.0 / t.end_ms.max(1) as f64,
        overlapping_runs: t.overlapping_runs,
        duplicate_effects: t.duplicate_effects,
        dead_lettered: t.dead_lettered_expired + t.dead_lettered_failed,
        redeliveries: t.redeliveries,
        recovery_ms: recovery_ms(&s, &report),
        skipped: None,
    }
}

/// Sweep `param` over `sweep_points(...)`. Points that do not validate are
/// kept as rows with `skipped` set. Errors: a bad range or step count, or
/// no point that runs at all.
pub fn sweep(
    scenario: &Scenario,
    param: Param,
    from: f64,
    to: f64,
    steps: usize,
    log: bool,
) -> Result<Vec<SweepRow>, String> {
    let rows = sweep_seeds(scenario, param, from, to, steps, log, 1)?;
    Ok(rows.into_iter().flatten().collect())
}

/// Most seeds a sweep may run every point over on the command line.
pub const MAX_SWEEP_SEEDS: u32 = 1_000;

/// The seed of a sweep's `k`th run of every point: the scenario's, then the
/// next ones up, as the recommendation's search takes them.
pub fn seed_at(scenario: &Scenario, k: u32) -> u64 {
    scenario.seed.wrapping_add(u64::from(k))
}

/// `sweep` with every point run over `seeds` seeds (`seed_at`, 1 to
/// `MAX_SWEEP_SEEDS`): each point's rows, the scenario's seed first, in the
/// points' order. Natively every run of every point shares the cores.
#[allow(clippy::too_many_arguments)]
pub fn sweep_seeds(
    scenario: &Scenario,
    param: Param,
    from: f64,
    to: f64,
    steps: usize,
    log: bool,
    seeds: u32,
) -> Result<Vec<Vec<SweepRow>>, String> {
    check_range(param, from, to, steps, log)?;
    if seeds == 0 || seeds > MAX_SWEEP_SEEDS {
        return Err(format!(
            "seeds = {seeds}: a sweep runs every point over 1 to {MAX_SWEEP_SEEDS} seeds"
        ));
    }
    let points = sweep_points(scenario, param, from, to, steps, log);
    let runs: Vec<(f64, u32)> = points
        .iter()
        .flat_map(|&v| (0..seeds).map(move |k| (v, k)))
        .collect();
    let rows = run_seeded(scenario, param, &runs);
    all_skipped(&rows)?;
    let mut rows = rows.into_iter();
    Ok(points
        .iter()
        .map(|_| rows.by_ref().take(seeds as usize).collect())
        .collect())
}

fn check_range(param: Param, from: f64, to: f64, steps: usize, log: bool) -> Result<(), String> {
    if !from.is_finite() || !to.is_finite() {
        return Err(format!(
            "{}: the range {} to {} must be finite numbers",
            param.path(),
            from,
            to
        ));
    }
    if steps == 0 || steps > MAX_SWEEP_STEPS {
        return Err(format!(
            "steps = {steps}: must be from 1 to {MAX_SWEEP_STEPS} (each point is a whole simulation)"
        ));
    }
    if log && (from <= 0.0 || to <= 0.0) {
        return Err(format!(
            "{}: a logarithmic sweep needs both ends above 0 (got {} to {})",
            param.path(),
            from,
            to
        ));
    }
    Ok(())
}

fn all_skipped(rows: &[SweepRow]) -> Result<(), String> {
    if rows.iter().all(|r| r.skipped.is_some()) {
        let reason = rows
            .first()
            .and_then(|r| r.skipped.clone())
            .unwrap_or_default();
        return Err(format!("no point of the sweep can run: {reason}"));
    }
    Ok(())
}

fn run_one_seeded(scenario: &Scenario, param: Param, (value, k): (f64, u32)) -> SweepRow {
    let mut s = scenario.clone();
    s.seed = seed_at(scenario, k);
    sweep_one(&s, param, value)
}

#[cfg(not(target_arch = "wasm32"))]
fn run_seeded(scenario: &Scenario, param: Param, runs: &[(f64, u32)]) -> Vec<SweepRow> {
    use rayon::prelude::*;
    runs.par_iter()
        .map(|&r| run_one_seeded(scenario, param, r))
        .collect()
}

#[cfg(target_arch = "wasm32")]
fn run_seeded(scenario: &Scenario, param: Param, runs: &[(f64, u32)]) -> Vec<SweepRow> {
    runs.iter()
        .map(|&r| run_one_seeded(scenario, param, r))
        .collect()
}

/// Recovery after a crash or deploy: from the first crash or rolling-deploy
/// fault after which completions per bucket fall below `RECOVERY_SHARE` of
/// the mean before the first such fault (in the fault's bucket or the
/// next), the time until a bucket is back at or above it (the run's end if
/// never). `Some(0)` when no fault dents the drain rate; `None` when the
/// scenario has no crash or deploy, or no whole bucket before it to compare
/// with.
pub fn recovery_ms(scenario: &Scenario, report: &Report) -> Option<u64> {
    let end_ms = report.totals.end_ms;
    let mut faults: Vec<u64> = scenario
        .faults
        .iter()
        .filter_map(|f| match f {
            Fault::Crash { at_ms, .. } | Fault::RollingDeploy { at_ms, .. } => Some(*at_ms),
            Fault::Pause { .. } | Fault::Run { .. } => None,
        })
        .filter(|&t| t < end_ms)
        .collect();
    faults.sort_unstable();
    let first = *faults.first()?;
    let cpm = &report.series.completions_per_min;
    let bucket = report.series.bucket_ms.max(1);
    let before = ((first / bucket) as usize).min(cpm.len());
    if before == 0 {
        return None;
    }
    let half = RECOVERY_SHARE * cpm[..before].iter().sum::<f64>() / before as f64;
    for t in faults {
        let k = (t / bucket) as usize;
        let Some(dip) = (k..=k + 1).find(|&i| cpm.get(i).is_some_and(|&x| x < half)) else {
            continue;
        };
        return Some(match (dip + 1..cpm.len()).find(|&i| cpm[i] >= half) {
            Some(i) => (i as u64 * bucket).saturating_sub(t),
            None => end_ms.saturating_sub(t),
        });
    }
    Some(0)
}

/// The rows as CSV, one header line; a skipped row carries its reason,
/// quoted.
pub fn sweep_csv(param: Param, rows: &[SweepRow]) -> String {
    // The swept column is named by its field's path, which carries its unit
    // (`broker.visibility_timeout_ms`): the form may speak seconds, the file
    // is in the scenario's own units.
    let mut out = format!(
        "{},completions_per_min,overlapping_runs,duplicate_effects,dead_lettered,redeliveries,recovery_ms,skipped\n",
        param.path()
    );
    for r in rows {
        let recovery = r.recovery_ms.map_or(String::new(), |v| v.to_string());
        let skipped = r
            .skipped
            .as_ref()
            .map_or(String::new(), |s| format!("\"{}\"", s.replace('"', "\"\"")));
        out.push_str(&format!(
            "{},{:.3},{},{},{},{},{},{}\n",
            r.value,
            r.completions_per_min,
            r.overlapping_runs,
            r.duplicate_effects,
            r.dead_lettered,
            r.redeliveries,
            recovery,
            skipped
        ));
    }
    out
}

/// A metric over every seed of one point: mean, lowest and highest.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Band {
    pub mean: f64,
    pub min: f64,
    pub max: f64,
}

/// One point's metric over its runs (skipped rows left out);
/// `None` when no seed's run has it.
pub fn band(rows: &[SweepRow], value: fn(&SweepRow) -> Option<f64>) -> Option<Band> {
    let xs: Vec<f64> = rows
        .iter()
        .filter(|r| r.skipped.is_none())
        .filter_map(value)
        .collect();
    if xs.is_empty() {
        return None;
    }
    Some(Band {
        mean: xs.iter().sum::<f64>() / xs.len() as f64,
        min: xs.iter().copied().fold(f64::INFINITY, f64::min),
        max: xs.iter().copied().fold(f64::NEG_INFINITY, f64::max),
    })
}

/// A metric a sweep over several seeds reports per point.
#[derive(Clone, Copy)]
pub struct SweepMetric {
    /// The CSV column's name (`_mean`, `_min`, `_max` follow), as
    /// `sweep_csv` names it over one seed.
    pub csv: &'static str,
    pub value: fn(&SweepRow) -> Option<f64>,
}

/// The metrics of a sweep over several seeds, in the CSV's order.
pub const SWEEP_METRICS: [SweepMetric; 5] = [
    SweepMetric {
        csv: "completions_per_min",
        value: |r| Some(r.completions_per_min),
    },
    SweepMetric {
        csv: "overlapping_runs",
        value: |r| Some(r.overlapping_runs as f64),
    },
    SweepMetric {
        csv: "duplicate_effects",
        value: |r| Some(r.duplicate_effects as f64),
    },
    SweepMetric {
        csv: "dead_lettered",
        value: |r| Some(r.dead_lettered as f64),
    },
    SweepMetric {
        csv: "recovery_s",
        value: |r| r.recovery_ms.map(|ms| ms as f64 / 1000.0),
    },
];

/// A sweep as CSV, the page's file and the command line's alike: over one
/// seed, `sweep_csv`; over several, the swept value, the seed count, then
/// each metric's mean, lowest and highest over its seeds, and how many
/// seeds' runs were skipped.
pub fn sweep_band_csv(param: Param, points: &[Vec<SweepRow>]) -> String {
    if points.iter().all(|rows| rows.len() <= 1) {
        let rows: Vec<SweepRow> = points.iter().flatten().cloned().collect();
        return sweep_csv(param, &rows);
    }
    let mut out = format!("{},seeds", param.path());
    for m in &SWEEP_METRICS {
        let name = m.csv;
        out.push_str(&format!(",{name}_mean,{name}_min,{name}_max"));
    }
    out.push_str(",skipped_seeds\n");
    for rows in points {
        let Some(first) = rows.first() else { continue };
        out.push_str(&format!("{},{}", first.value, rows.len()));
        for m in &SWEEP_METRICS {
            match band(rows, m.value) {
                Some(b) => out.push_str(&format!(",{:.3},{},{}", b.mean, b.min, b.max)),
                None => out.push_str(",,,"),
            }
        }
        let skipped = rows.iter().filter(|r| r.skipped.is_some()).count();
        out.push_str(&format!(",{skipped}\n"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::shipped_scenario as scenario;

    #[test]
    fn points_are_whole_and_include_both_ends() {
        let s = scenario("clip-surge");
        let p = sweep_points(&s, Param::Timeout, 120_000.0, 10_000.0, 12, false);
        assert_eq!(p.len(), 12);
        assert_eq!(p.first(), Some(&120_000.0));
        assert_eq!(p.last(), Some(&10_000.0));
        let l = sweep_points(&s, Param::Timeout, 1_000.0, 100_000.0, 3, true);
        assert_eq!(l, vec![1_000.0, 10_000.0, 100_000.0]);
        // Rounding repeats are dropped.
        assert_eq!(
            sweep_points(&s, Param::Workers, 1.0, 2.0, 5, false),
            vec![1.0, 2.0]
        );
        assert!(sweep_points(&s, Param::Workers, f64::NAN, 2.0, 5, false).is_empty());
    }

    #[test]
    fn a_sweep_over_seeds_runs_each_point_on_the_scenarios_seed_and_the_ones_after() {
        let s = scenario("clip-surge");
        let points = sweep_seeds(&s, Param::Timeout, 20_000.0, 60_000.0, 2, false, 3).unwrap();
        assert_eq!(points.len(), 2);
        for rows in &points {
            assert_eq!(rows.len(), 3);
            for (k, row) in rows.iter().enumerate() {
                let mut next = s.clone();
                next.seed = s.seed + k as u64;
                assert_eq!(*row, sweep_one(&next, Param::Timeout, row.value));
            }
        }
        for bad in [0, MAX_SWEEP_SEEDS + 1] {
            let e = sweep_seeds(&s, Param::Timeout, 20_000.0, 60_000.0, 2, false, bad).unwrap_err();
            assert!(
                e.contains(&format!("seeds = {bad}")) && e.contains("1 to 1000"),
                "{e}"
            );
        }
    }

    #[test]
    fn paths_round_trip() {
        for p in Param::ALL {
            assert_eq!(Param::from_path(p.path()), Some(p));
        }
    }

    #[test]
    fn set_changes_what_current_reads() {
        let mut s = scenario("clip-surge");
        for (p, v) in [
            (Param::Timeout, 45_000.0),
            (Param::HeartbeatInterval, 5_000.0),
            (Param::ExtensionCap, 12.0),
            (Param::Workers, 9.0),
            (Param::ProcessingP99, 50_000.0),
            (Param::DownstreamCapacity, 20.0),
        ] {
            p.set(&mut s, v);
            let got = p.current(&s).unwrap_or(f64::NAN);
            assert!((got - v).abs() < 1.0, "{}: {got} != {v}", p.path());
        }
        assert!(validate(&s).is_ok());
    }

    #[test]
    fn a_heartbeat_swept_under_a_client_library_takes_the_lease_back() {
        use lease_sim::scenario::{Client, Library};
        for (p, v) in [
            (Param::HeartbeatInterval, 5_000.0),
            (Param::ExtensionCap, 12.0),
        ] {
            let mut s = scenario("clip-surge");
            s.workers.heartbeat = None;
            s.workers.client = Some(Client {
                library: Library::ServiceBus,
                ..Client::default()
            });
            p.set(&mut s, v);
            assert_eq!(s.workers.client, None, "{}", p.path());
            assert!(validate(&s).is_ok(), "{}", p.path());
        }
    }

    #[test]
    fn p99_keeps_the_median_of_a_lognormal_and_the_min_of_a_uniform() {
        let d = with_p99(
            &Dist::Lognormal {
                median_ms: 8_000.0,
                p99_ms: 30_000.0,
            },
            45_000.0,
        );
        assert_eq!(
            d,
            Dist::Lognormal {
                median_ms: 8_000.0,
                p99_ms: 45_000.0
            }
        );
        let u = with_p99(
            &Dist::Uniform {
                min_ms: 1_000,
                max_ms: 2_000,
            },
            2_980.0,
        );
        assert_eq!(
            u,
            Dist::Uniform {
                min_ms: 1_000,
                max_ms: 3_000
            }
        );
        let mix = Dist::Mix {
            slow_fraction: 0.05,
            fast: Box::new(Dist::Constant { ms: 100 }),
            slow: Box::new(Dist::Constant { ms: 60_000 }),
        };
        assert!((work_p99_ms(&with_p99(&mix, 30_000.0)) - 30_000.0).abs() < 1.0);
    }

    #[test]
    fn heartbeat_params_turn_a_capped_heartbeat_on() {
        let mut s = scenario("ninety-second-message");
        Param::HeartbeatInterval.set(&mut s, 20_000.0);
        let h = resolve(&s).heartbeat;
        assert_eq!(h.as_ref().map(|h| h.interval_ms), Some(20_000));
        assert!(h.and_then(|h| h.max_extensions).is_some());
    }

    #[test]
    fn invalid_points_are_skipped_with_the_field_named() {
        let s = scenario("ninety-second-message");
        let row = sweep_one(&s, Param::Workers, 0.0);
        let reason = row.skipped.unwrap_or_default();
        assert!(reason.contains("workers.count"), "{reason}");
        assert!(sweep(&s, Param::Workers, 0.0, 0.0, 1, false).is_err());
        assert!(sweep(&s, Param::Timeout, 0.0, 10.0, 3, true).is_err());
        assert!(sweep(&s, Param::Timeout, 1.0, 10.0, 0, false).is_err());
    }

    #[test]
    fn recovery_is_none_without_faults_and_about_the_timeout_after_a_deploy() {
        let s = scenario("ninety-second-message");
        assert_eq!(sweep_one(&s, Param::Timeout, 60_000.0).recovery_ms, None);
        let d = scenario("five-minute-timeout-deploy");
        let long = sweep_one(&d, Param::Timeout, 300_000.0);
        let short = sweep_one(&d, Param::Timeout, 30_000.0);
        let (Some(l), Some(s)) = (long.recovery_ms, short.recovery_ms) else {
            panic!("a deploy scenario has a recovery: {long:?} {short:?}");
        };
        assert!((240_000..=360_000).contains(&l), "{l}");
        assert!(s < l / 2, "{s} vs {l}");
    }

    #[test]
    fn csv_has_a_header_and_one_line_per_row() {
        let s = scenario("ninety-second-message");
        let rows = vec![
            sweep_one(&s, Param::Timeout, 60_000.0),
            sweep_one(&s, Param::Workers, 0.0),
        ];
        let csv = sweep_csv(Param::Timeout, &rows);
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(lines.len(), 3);
        assert!(lines[0].starts_with("broker.visibility_timeout_ms,completions_per_min"));
        assert!(lines[2].contains("\"workers.count"), "{}", lines[2]);
    }

    fn row(value: f64, duplicates: u64, recovery_ms: Option<u64>) -> SweepRow {
        SweepRow {
            value,
            completions_per_min: 10.0,
            overlapping_runs: 0,
            duplicate_effects: duplicates,
            dead_lettered: 0,
            redeliveries: 0,
            recovery_ms,
            skipped: None,
        }
    }

    #[test]
    fn a_band_is_the_mean_lowest_and_highest_over_the_random_seeds_that_ran() {
        let mut skipped = row(1.0, 100, None);
        skipped.skipped = Some("too large".into());
        let rows = [
            row(1.0, 2, None),
            row(1.0, 6, None),
            row(1.0, 1, None),
            skipped,
        ];
        let b = band(&rows, |r| Some(r.duplicate_effects as f64)).unwrap();
        assert_eq!(
            b,
            Band {
                mean: 3.0,
                min: 1.0,
                max: 6.0
            }
        );
        assert_eq!(band(&rows, |r| r.recovery_ms.map(|v| v as f64)), None);
    }

    #[test]
    fn a_csv_over_several_seeds_has_each_metrics_mean_min_and_max() {
        let points = vec![
            vec![row(5_000.0, 2, Some(1_000)), row(5_000.0, 4, Some(3_000))],
            vec![row(9_000.0, 0, None), row(9_000.0, 0, None)],
        ];
        let csv = sweep_band_csv(Param::Timeout, &points);
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(lines.len(), 3, "{csv}");
        assert!(
            lines[0].starts_with("broker.visibility_timeout_ms,seeds,completions_per_min_mean,"),
            "{}",
            lines[0]
        );
        assert!(
            lines[0]
                .contains(",duplicate_effects_mean,duplicate_effects_min,duplicate_effects_max,"),
            "{}",
            lines[0]
        );
        assert!(
            lines[0].ends_with(",recovery_s_mean,recovery_s_min,recovery_s_max,skipped_seeds"),
            "{}",
            lines[0]
        );
        assert!(lines[1].starts_with("5000,2,10.000,10,10,"), "{}", lines[1]);
        assert!(lines[1].contains(",3.000,2,4,"), "{}", lines[1]);
        assert!(lines[1].ends_with(",2.000,1,3,0"), "{}", lines[1]);
        assert!(lines[2].ends_with(",,,,0"), "{}", lines[2]);
        // Over one seed the file is the command line's.
        let one = vec![vec![row(5_000.0, 2, None)]];
        assert_eq!(
            sweep_band_csv(Param::Timeout, &one),
            sweep_csv(Param::Timeout, &one[0])
        );
    }
}
