//! The sliders, as data: what each reads from the scenario, what it writes,
//! its scale and how it shows its value. The panel, the "what changed" list
//! and the tests all read this one table.

use lease_format::decimal::{fixed, shortest};
use lease_sim::resolve::{resolve, HeartbeatConfig};
use lease_sim::scenario::{Heartbeat, Scenario};
use lease_sim::validate::effective_visibility_timeout_ms;

use super::scale::{fmt_ms, round2, Scale};
use super::work_dist::{build, has_p99, median_p99, shape};

/// A checkbox beside a slider: a special value ("no cap") or a switch.
pub struct Toggle {
    pub id: &'static str,
    pub label: &'static str,
    pub get: fn(&Scenario) -> bool,
    pub set: fn(&mut Scenario, bool),
    /// The slider is live when the box is checked (a switch such as
    /// "Heartbeat on") rather than unchecked (a special value such as "No cap").
    pub enables: bool,
}

pub struct Slider {
    pub id: &'static str,
    pub label: &'static str,
    pub group: &'static str,
    pub scale: Scale,
    pub get: fn(&Scenario) -> f64,
    pub set: fn(&mut Scenario, f64),
    pub show: fn(f64) -> String,
    /// Beyond the toggle: can the slider apply at all (e.g. a heartbeat exists)?
    pub applies: fn(&Scenario) -> bool,
    pub toggle: Option<Toggle>,
}

impl Slider {
    pub fn live(&self, s: &Scenario) -> bool {
        (self.applies)(s) && self.toggle.as_ref().is_none_or(|t| (t.get)(s) == t.enables)
    }

    /// What the control shows: its value, or what the toggle says instead.
    pub fn describe(&self, s: &Scenario) -> String {
        match &self.toggle {
            // A switch that is off ("Heartbeat on", unchecked) says so; a
            // special value that is on ("No cap", checked) names itself.
            Some(t) if (t.get)(s) != t.enables && t.enables => "off".into(),
            Some(t) if (t.get)(s) != t.enables => t.label.to_string(),
            _ if !(self.applies)(s) => "off".into(),
            _ => (self.show)((self.get)(s)),
        }
    }
}

fn always(_: &Scenario) -> bool {
    true
}

fn count(x: f64) -> String {
    shortest(x.round())
}

fn per_s(x: f64) -> String {
    if x == 0.0 {
        "none".into()
    } else if x < 1.0 {
        format!("{} /min", fixed(x * 60.0, 0))
    } else {
        format!("{} /s", shortest(round2(x)))
    }
}

fn percent(x: f64) -> String {
    format!("{}%", fixed(x * 100.0, 0))
}

fn ratio(x: f64) -> String {
    fixed(x, 2)
}

/// The heartbeat the scenario runs with, Pub/Sub's client default included.
pub fn heartbeat(s: &Scenario) -> Option<HeartbeatConfig> {
    resolve(s).heartbeat
}

/// Make the heartbeat explicit in the file so that a slider (or a share
/// link's heartbeat field) can edit it: from what the scenario runs with,
/// Pub/Sub's client default included.
pub(crate) fn heartbeat_mut(s: &mut Scenario) -> Option<&mut Heartbeat> {
    if !matches!(s.workers.heartbeat, Some(Some(_))) {
        let h = heartbeat(s)?;
        s.workers.heartbeat = Some(Some(Heartbeat {
            interval_ms: h.interval_ms,
            extend_by_ms: Some(h.extend_by_ms),
            max_extensions: h.max_extensions,
            on_reject: h.on_reject,
        }));
    }
    match &mut s.workers.heartbeat {
        Some(Some(h)) => Some(h),
        _ => None,
    }
}

/// The "Heartbeat on" checkbox, which a share link's `hb=` replays.
pub(crate) fn set_heartbeat_on(s: &mut Scenario, on: bool) {
    if !on {
        s.workers.heartbeat = Some(None);
    } else if heartbeat(s).is_none() {
        let timeout = effective_visibility_timeout_ms(s) as f64;
        // A third of the lease: two heartbeats can be lost before it expires.
        s.workers.heartbeat = Some(Some(Heartbeat {
            interval_ms: round2(timeout / 3.0).max(1.0) as u64,
            extend_by_ms: None,
            max_extensions: Some(20),
            on_reject: Default::default(),
        }));
    }
}

fn work(s: &Scenario) -> (f64, f64) {
    median_p99(&s.work.dist)
}

// Data, not a function that builds it: a static costs the page's wasm no
// code.
static SLIDERS: &[Slider] = &[
    Slider {
        id: "timeout",
        label: "Visibility timeout",
        group: "Broker",
        scale: Scale::Log {
            min: 1_000.0,
            max: 900_000.0,
        },
        get: |s| effective_visibility_timeout_ms(s) as f64,
        set: |s, v| s.broker.visibility_timeout_ms = Some(round2(v) as u64),
        show: fmt_ms,
        applies: always,
        toggle: None,
    },
    Slider {
        id: "max-receive",
        label: "Max receive count",
        group: "Broker",
        scale: Scale::Linear {
            min: 1.0,
            max: 20.0,
        },
        get: |s| f64::from(resolve(s).max_receive_count.unwrap_or(5)),
        set: |s, v| s.broker.max_receive_count = Some(Some(v.round().max(1.0) as u32)),
        show: count,
        applies: always,
        toggle: Some(Toggle {
            id: "no-redrive",
            label: "No redrive",
            get: |s| resolve(s).max_receive_count.is_none(),
            set: |s, on| {
                s.broker.max_receive_count = Some(if on { None } else { Some(5) });
            },
            enables: false,
        }),
    },
    Slider {
        id: "rpc",
        label: "Broker call latency",
        group: "Broker",
        scale: Scale::Linear {
            min: 0.0,
            max: 2_000.0,
        },
        get: |s| resolve(s).rpc_latency_ms as f64,
        set: |s, v| s.broker.rpc_latency_ms = Some(round2(v.max(0.0)) as u64),
        show: fmt_ms,
        applies: always,
        toggle: None,
    },
    Slider {
        id: "workers",
        label: "Workers",
        group: "Workers",
        scale: Scale::Linear {
            min: 1.0,
            max: 64.0,
        },
        get: |s| f64::from(s.workers.count),
        set: |s, v| s.workers.count = v.round().max(1.0) as u32,
        show: count,
        applies: always,
        toggle: None,
    },
    Slider {
        id: "concurrency",
        label: "Handlers per worker",
        group: "Workers",
        scale: Scale::Linear {
            min: 1.0,
            max: 16.0,
        },
        get: |s| f64::from(s.workers.concurrency),
        set: |s, v| {
            let c = v.round().max(1.0) as u32;
            s.workers.concurrency = c;
            if let Some(p) = &mut s.workers.prefetch {
                *p = (*p).max(c);
            }
        },
        show: count,
        applies: always,
        toggle: None,
    },
    Slider {
        id: "prefetch",
        label: "Prefetch",
        group: "Workers",
        scale: Scale::Log {
            min: 1.0,
            max: 1_000.0,
        },
        get: |s| f64::from(resolve(s).prefetch),
        set: |s, v| {
            s.workers.prefetch = Some((v.round() as u32).max(s.workers.concurrency));
        },
        show: count,
        applies: always,
        toggle: None,
    },
    Slider {
        id: "heartbeat",
        label: "Heartbeat interval",
        group: "Heartbeat",
        scale: Scale::Log {
            min: 100.0,
            max: 300_000.0,
        },
        get: |s| heartbeat(s).map_or(10_000.0, |h| h.interval_ms as f64),
        set: |s, v| {
            if let Some(h) = heartbeat_mut(s) {
                h.interval_ms = round2(v).max(1.0) as u64;
            }
        },
        show: fmt_ms,
        applies: always,
        toggle: Some(Toggle {
            id: "heartbeat-on",
            label: "Heartbeat on",
            get: |s| heartbeat(s).is_some(),
            set: set_heartbeat_on,
            enables: true,
        }),
    },
    Slider {
        id: "extend-by",
        label: "Extend by",
        group: "Heartbeat",
        scale: Scale::Log {
            min: 1_000.0,
            max: 900_000.0,
        },
        get: |s| heartbeat(s).map_or(30_000.0, |h| h.extend_by_ms as f64),
        set: |s, v| {
            if let Some(h) = heartbeat_mut(s) {
                h.extend_by_ms = Some(round2(v) as u64);
            }
        },
        show: fmt_ms,
        applies: |s| heartbeat(s).is_some(),
        toggle: None,
    },
    Slider {
        id: "cap",
        label: "Extension cap",
        group: "Heartbeat",
        scale: Scale::Linear {
            min: 0.0,
            max: 100.0,
        },
        get: |s| {
            heartbeat(s)
                .and_then(|h| h.max_extensions)
                .map_or(20.0, f64::from)
        },
        set: |s, v| {
            if let Some(h) = heartbeat_mut(s) {
                h.max_extensions = Some(v.round().max(0.0) as u32);
            }
        },
        show: count,
        applies: |s| heartbeat(s).is_some(),
        toggle: Some(Toggle {
            id: "no-cap",
            label: "No cap",
            get: |s| heartbeat(s).is_some_and(|h| h.max_extensions.is_none()),
            set: |s, on| {
                if let Some(h) = heartbeat_mut(s) {
                    h.max_extensions = if on { None } else { Some(20) };
                }
            },
            enables: false,
        }),
    },
    Slider {
        id: "median",
        label: "Processing time (median)",
        group: "Work",
        scale: Scale::Log {
            min: 10.0,
            max: 1_800_000.0,
        },
        get: |s| work(s).0,
        set: |s, v| {
            let (_, q) = work(s);
            let m = round2(v);
            s.work.dist = build(shape(&s.work.dist), m, q.max(m));
        },
        show: fmt_ms,
        applies: always,
        toggle: None,
    },
    Slider {
        id: "p99",
        label: "Processing time (p99)",
        group: "Work",
        scale: Scale::Log {
            min: 10.0,
            max: 7_200_000.0,
        },
        get: |s| work(s).1,
        set: |s, v| {
            let (m, _) = work(s);
            s.work.dist = build(shape(&s.work.dist), m, round2(v).max(m));
        },
        show: fmt_ms,
        applies: |s| has_p99(shape(&s.work.dist)),
        toggle: None,
    },
    Slider {
        id: "jitter",
        label: "Attempt jitter",
        group: "Work",
        scale: Scale::Linear { min: 0.0, max: 1.0 },
        get: |s| s.work.attempt_jitter,
        set: |s, v| s.work.attempt_jitter = (v * 100.0).round() / 100.0,
        show: ratio,
        applies: always,
        toggle: None,
    },
    Slider {
        id: "error-rate",
        label: "Handler error rate",
        group: "Work",
        scale: Scale::Linear { min: 0.0, max: 0.5 },
        get: |s| s.workers.error_rate,
        set: |s, v| s.workers.error_rate = (v * 100.0).round() / 100.0,
        show: percent,
        applies: always,
        toggle: None,
    },
    Slider {
        id: "rate",
        label: "Arrival rate",
        group: "Load",
        scale: Scale::Log {
            min: 0.01,
            max: 100.0,
        },
        get: |s| s.arrivals.rate_per_s,
        set: |s, v| s.arrivals.rate_per_s = round2(v),
        show: per_s,
        applies: always,
        toggle: Some(Toggle {
            id: "no-arrivals",
            label: "No new arrivals",
            get: |s| s.arrivals.rate_per_s == 0.0,
            set: |s, on| s.arrivals.rate_per_s = if on { 0.0 } else { 0.5 },
            enables: false,
        }),
    },
    Slider {
        id: "backlog",
        label: "Backlog at start",
        group: "Load",
        scale: Scale::Linear {
            min: 0.0,
            max: 2_000.0,
        },
        get: |s| s.arrivals.backlog as f64,
        set: |s, v| s.arrivals.backlog = v.round().max(0.0) as u64,
        show: count,
        applies: always,
        toggle: None,
    },
    Slider {
        id: "duration",
        label: "Run length",
        group: "Load",
        scale: Scale::Log {
            min: 10_000.0,
            max: 14_400_000.0,
        },
        get: |s| s.duration_ms as f64,
        set: |s, v| s.duration_ms = round2(v) as u64,
        show: fmt_ms,
        applies: always,
        toggle: None,
    },
    Slider {
        id: "capacity",
        label: "Downstream capacity",
        group: "Downstream",
        scale: Scale::Log {
            min: 1.0,
            max: 1_000.0,
        },
        get: |s| s.downstream.capacity.map_or(1_000.0, f64::from),
        set: |s, v| s.downstream.capacity = Some(v.round().max(1.0) as u32),
        show: |x| format!("{} handlers", shortest(x.round())),
        applies: always,
        toggle: Some(Toggle {
            id: "unlimited",
            label: "Unlimited",
            get: |s| s.downstream.capacity.is_none(),
            set: |s, on| s.downstream.capacity = if on { None } else { Some(8) },
            enables: false,
        }),
    },
];

pub fn sliders() -> &'static [Slider] {
    SLIDERS
}

#[cfg(test)]
mod tests {
    use super::*;
    use lease_sim::shipped;

    #[test]
    fn every_slider_writes_what_it_reads_on_every_shipped_scenario() {
        for sc in shipped::all() {
            for sl in sliders() {
                let mut s = sc.scenario.clone();
                if let Some(t) = &sl.toggle {
                    (t.set)(&mut s, t.enables);
                }
                if !(sl.applies)(&s) {
                    continue;
                }
                let target = sl.scale.value(700);
                (sl.set)(&mut s, target);
                let got = (sl.get)(&s);
                let want = round2(target);
                assert!(
                    (got - want).abs() <= want.abs() * 0.05 + 1.0,
                    "{} on {}: set {want}, read {got}",
                    sl.id,
                    sc.name
                );
            }
        }
    }

    #[test]
    fn heartbeat_switch_adds_a_capped_heartbeat_at_a_third_of_the_lease() {
        let mut s = shipped::find("ninety-second-message").unwrap().scenario;
        assert!(heartbeat(&s).is_none());
        set_heartbeat_on(&mut s, true);
        let h = heartbeat(&s).unwrap();
        assert_eq!(h.interval_ms, 20_000);
        assert_eq!(h.max_extensions, Some(20));
        set_heartbeat_on(&mut s, false);
        assert!(heartbeat(&s).is_none());
    }
}
