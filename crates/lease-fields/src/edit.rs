//! Edits that change more than one field of the file, as the page's controls
//! make them and the share link replays them: choosing a broker preset,
//! switching the heartbeat on, editing a heartbeat the preset implies.

use lease_sim::resolve::{resolve, HeartbeatConfig};
use lease_sim::scenario::{Client, Heartbeat, Library, Preset, Scenario};
use lease_sim::validate::effective_visibility_timeout_ms;

/// Round to two significant figures so a slider lands on readable values
/// (1.2 s, 45 s, 3.5 min) instead of 44,873 ms.
pub fn round2(x: f64) -> f64 {
    if !x.is_finite() || x <= 0.0 {
        return x;
    }
    on_grid(x, figure(x) - 1, f64::round)
}

/// The power of ten of `x`'s first significant figure (`x` > 0).
pub fn figure(x: f64) -> i32 {
    x.log10().floor() as i32
}

/// `x` on the grid of multiples of `10^e`, the multiple chosen by `pick`.
/// A power of ten below 1 is not exact in binary (0.1 × 19 is
/// 1.9000000000000001), so a fine grid divides by its exact inverse
/// instead: the result is the double nearest the decimal, which prints as it.
pub fn on_grid(x: f64, e: i32, pick: impl Fn(f64) -> f64) -> f64 {
    if e >= 0 {
        let p = 10f64.powi(e);
        pick(near_whole(x / p)) * p
    } else {
        let p = 10f64.powi(-e);
        pick(near_whole(x * p)) / p
    }
}

/// Scaling leaves noise (0.07 × 100 is 7.000000000000001); a value that
/// close to a whole number is that number, so `floor` and `ceil` step from it.
fn near_whole(t: f64) -> f64 {
    let r = t.round();
    if (t - r).abs() < 1e-9 * r.abs().max(1.0) {
        r
    } else {
        t
    }
}

/// The heartbeat the scenario runs with, Pub/Sub's client default included,
/// at the interval the file asks: under Temporal the SDK's throttle
/// (docs/MODEL.md "Managed services") is the engine's, not the slider's.
pub fn heartbeat(s: &Scenario) -> Option<HeartbeatConfig> {
    let mut h = resolve(s).heartbeat?;
    if let Some(Some(asked)) = &s.workers.heartbeat {
        h.interval_ms = asked.interval_ms.max(1);
    }
    Some(h)
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
    if on {
        // The heartbeat takes the lease back from a client library.
        s.workers.client = None;
    }
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
    let timeout_before = effective_visibility_timeout_ms(s);
    s.broker.preset = p;
    s.broker.visibility_timeout_ms = None;
    s.broker.max_receive_count = None;
    s.broker.max_lease_lifetime_ms = None;
    s.broker.dlq_timing = None;
    s.broker.late_ack = None;
    s.broker.count_at = None;
    s.broker.stale_delete = None;
    s.broker.expiry_takes = None;
    s.broker.expiry_check_ms = None;
    s.broker.expiry_counts = None;
    s.broker.lease_steps_ms = None;
    s.broker.expiry_check_passes = None;
    s.broker.claim_count = None;
    s.broker.max_expiries = None;
    s.workers.renewal = None;
    s.workers.ack_at = None;
    choose_service(s, p, timeout_before);
}

/// The managed services' own part of choosing them (docs/MODEL.md
/// "Managed services"): their retry delay is the preset's again; Temporal
/// has no default StartToClose, so the timeout the person had stays as
/// it; Cloud Tasks and Sidekiq Pro have no call that extends a lease, so a
/// heartbeat goes.
fn choose_service(s: &mut Scenario, p: Preset, timeout_before: u64) {
    s.broker.retry_min_ms = None;
    s.broker.retry_max_ms = None;
    s.broker.retry_doublings = None;
    s.broker.retry_on = None;
    s.broker.past_limit = None;
    s.broker.receive_order = None;
    if p == Preset::TemporalActivity {
        s.broker.visibility_timeout_ms = Some(timeout_before);
    }
    if !lease_sim::services::has_renewal(p) && matches!(s.workers.heartbeat, Some(Some(_))) {
        s.workers.heartbeat = None;
    }
}

/// Choosing a client library (docs/MODEL.md "Client libraries"): the
/// library manages the lease, so a heartbeat in the file goes; SQS with
/// Lambda brings its visibility timeout (six times the function timeout),
/// so the timeout goes back to that default. `none` removes the field.
pub fn choose_client(s: &mut Scenario, library: Library) {
    if library == Library::None {
        s.workers.client = None;
        return;
    }
    if s.workers.client.as_ref().map(|c| c.library) != Some(library) {
        s.workers.client = Some(Client {
            library,
            ..Client::default()
        });
    }
    if matches!(s.workers.heartbeat, Some(Some(_))) {
        s.workers.heartbeat = None;
    }
    if library == Library::SqsLambda {
        // A Lambda function's SQS event source reads an SQS queue, standard
        // or FIFO: the broker it runs on is SQS, not the textbook's.
        if !matches!(s.broker.preset, Preset::SqsStandard | Preset::SqsFifo) {
            choose_preset(s, Preset::SqsStandard);
        }
        s.broker.visibility_timeout_ms = None;
    }
}

/// The library the scenario runs with (`none` without the field).
pub fn library(s: &Scenario) -> Library {
    s.workers
        .client
        .as_ref()
        .map_or(Library::None, |c| c.library)
}

/// The client's parameters, when the library is `want`.
pub fn client_mut(s: &mut Scenario, want: Library) -> Result<&mut Client, String> {
    match &mut s.workers.client {
        Some(c) if c.library == want => Ok(c),
        _ => Err(format!(
            "applies only while client={} (set client first)",
            crate::names::name(&want)
        )),
    }
}

/// Choosing a broker on the page: the preset brings its own rules, and
/// keeps the timeout, redrive and lease lifetime the person set (those that
/// differ from `loaded`, the scenario as it was opened); the others go back
/// to the new preset's defaults. A share link replays the choice as
/// `choose_preset` followed by the kept values, which it writes explicitly.
pub fn choose_preset_keeping(s: &mut Scenario, p: Preset, loaded: &Scenario) {
    let before = s.broker.clone();
    choose_preset(s, p);
    if before.visibility_timeout_ms != loaded.broker.visibility_timeout_ms {
        s.broker.visibility_timeout_ms = before.visibility_timeout_ms;
    }
    if before.max_receive_count != loaded.broker.max_receive_count {
        s.broker.max_receive_count = before.max_receive_count;
    }
    if before.max_lease_lifetime_ms != loaded.broker.max_lease_lifetime_ms {
        s.broker.max_lease_lifetime_ms = before.max_lease_lifetime_ms;
    }
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
    fn a_preset_keeps_the_timeout_and_redrive_the_person_set() {
        let loaded = shipped::find("ninety-second-message").unwrap().scenario;
        let mut s = loaded.clone();
        s.broker.visibility_timeout_ms = Some(45_000);
        s.broker.max_receive_count = Some(Some(5));
        choose_preset_keeping(&mut s, Preset::SqsStandard, &loaded);
        assert_eq!(s.broker.preset, Preset::SqsStandard);
        assert_eq!(s.broker.visibility_timeout_ms, Some(45_000));
        assert_eq!(s.broker.max_receive_count, Some(Some(5)));
        assert_eq!(
            s.broker.max_lease_lifetime_ms, None,
            "not edited: the preset's"
        );
    }

    #[test]
    fn a_preset_fills_what_the_person_did_not_change() {
        let loaded = shipped::find("ninety-second-message").unwrap().scenario;
        let mut s = loaded.clone();
        s.broker.visibility_timeout_ms = Some(45_000);
        choose_preset_keeping(&mut s, Preset::AzureServiceBus, &loaded);
        assert_eq!(s.broker.visibility_timeout_ms, Some(45_000));
        assert_eq!(s.broker.max_receive_count, None);
        assert_eq!(s.broker.late_ack, None);
    }

    #[test]
    fn choosing_the_lambda_client_runs_it_on_sqs() {
        let mut s = shipped::find("ninety-second-message").unwrap().scenario;
        assert_eq!(s.broker.preset, Preset::Textbook);
        choose_client(&mut s, Library::SqsLambda);
        assert_eq!(s.broker.preset, Preset::SqsStandard);
        assert_eq!(
            effective_visibility_timeout_ms(&s),
            6 * lease_sim::scenario::LAMBDA_FUNCTION_TIMEOUT_MS,
            "six times the function timeout, AWS's advice"
        );
        // FIFO is an SQS queue Lambda reads too: it stays.
        let mut fifo = shipped::find("ninety-second-message").unwrap().scenario;
        choose_preset(&mut fifo, Preset::SqsFifo);
        choose_client(&mut fifo, Library::SqsLambda);
        assert_eq!(fifo.broker.preset, Preset::SqsFifo);
        // Another client leaves the broker as it is.
        let mut pubsub = shipped::find("ninety-second-message").unwrap().scenario;
        choose_client(&mut pubsub, Library::Pubsub);
        assert_eq!(pubsub.broker.preset, Preset::Textbook);
    }

    #[test]
    fn slider_values_round_to_two_significant_figures() {
        assert_eq!(round2(44_873.0), 45_000.0);
        assert_eq!(round2(1_234.0), 1_200.0);
        assert_eq!(round2(0.0), 0.0);
    }

    #[test]
    fn rounded_fractions_are_the_decimals_they_print_as() {
        assert_eq!(round2(1.93), 1.9);
        assert_eq!(round2(1.17), 1.2);
        assert_eq!(round2(1.93).to_string(), "1.9");
        assert_eq!(round2(0.0123).to_string(), "0.012");
    }

    #[test]
    fn choosing_temporal_keeps_the_timeout_as_its_start_to_close() {
        // Temporal has no default StartToClose: the timeout the scenario
        // ran with stays, explicit, and the scenario still runs.
        let mut s = shipped::find("ninety-second-message").unwrap().scenario;
        let before = effective_visibility_timeout_ms(&s);
        choose_preset(&mut s, Preset::TemporalActivity);
        assert_eq!(s.broker.visibility_timeout_ms, Some(before));
        assert!(lease_sim::validate(&s).is_ok());
    }

    #[test]
    fn choosing_a_service_without_a_lease_call_drops_the_heartbeat() {
        let mut s = shipped::find("clip-surge-heartbeat").unwrap().scenario;
        assert!(heartbeat(&s).is_some());
        choose_preset(&mut s, Preset::CloudTasks);
        assert_eq!(s.workers.heartbeat, None);
        assert!(lease_sim::validate(&s).is_ok());
    }
}
