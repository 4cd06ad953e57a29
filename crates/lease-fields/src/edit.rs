//! Edits that change more than one field of the file, as the page's controls
//! make them and the share link replays them: choosing a broker preset,
//! switching the heartbeat on, editing a heartbeat the preset implies.

use lease_sim::resolve::{resolve, HeartbeatConfig};
use lease_sim::scenario::{Heartbeat, Preset, Scenario};
use lease_sim::validate::effective_visibility_timeout_ms;

/// Round to two significant figures so a slider lands on readable values
/// (1.2 s, 45 s, 3.5 min) instead of 44,873 ms.
pub fn round2(x: f64) -> f64 {
    if !x.is_finite() || x <= 0.0 {
        return x;
    }
    let p = 10f64.powf(x.log10().floor() - 1.0);
    (x / p).round() * p
}

/// The heartbeat the scenario runs with, Pub/Sub's client default included.
pub fn heartbeat(s: &Scenario) -> Option<HeartbeatConfig> {
    resolve(s).heartbeat
}

/// Make the heartbeat explicit in the file so that a slider (or a share
/// link's heartbeat field) can edit it: from what the scenario runs with,
/// Pub/Sub's client default included.
pub fn heartbeat_mut(s: &mut Scenario) -> Option<&mut Heartbeat> {
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

/// The "Heartbeat on" switch: off removes it; on keeps the heartbeat the
/// scenario has, or adds one at a third of the lease with a cap of 20.
pub fn set_heartbeat_on(s: &mut Scenario, on: bool) {
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

/// Choosing a broker: the preset brings its broker's own defaults (timeout,
/// redrive, switches), so the fields it fills are reset.
pub fn choose_preset(s: &mut Scenario, p: Preset) {
    s.broker.preset = p;
    s.broker.visibility_timeout_ms = None;
    s.broker.max_receive_count = None;
    s.broker.max_lease_lifetime_ms = None;
    s.broker.dlq_timing = None;
    s.broker.late_ack = None;
    s.broker.count_at = None;
}

#[cfg(test)]
mod tests {
    use super::*;
    use lease_sim::shipped;

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

    #[test]
    fn slider_values_round_to_two_significant_figures() {
        assert_eq!(round2(44_873.0), 45_000.0);
        assert_eq!(round2(1_234.0), 1_200.0);
        assert_eq!(round2(0.0), 0.0);
    }
}
