//! The readable summary of a run: what `lease-sim run` prints without `--json`.

use std::fmt::Write;

use lease_sim::scenario::PastLimit;
use lease_sim::Run;

use lease_format::display::duration;

/// The client library's lease policy in words (docs/MODEL.md "Client libraries").
fn client_line(s: &lease_sim::Scenario) -> Option<String> {
    use lease_sim::resolve::{client_policy, ClientPolicy};
    Some(match client_policy(s.workers.client.as_ref()) {
        ClientPolicy::None => return None,
        ClientPolicy::Pubsub { max_lease_ms } => format!(
            "client library: Pub/Sub lease management, extending by the p99 of ack delays (10 s to 10 min) for up to {} after the receive",
            duration(max_lease_ms)
        ),
        ClientPolicy::ServiceBus { max_renewal_ms } => format!(
            "client library: Service Bus automatic lock renewal, for up to {} after the receive",
            duration(max_renewal_ms)
        ),
        ClientPolicy::SqsLambda {
            function_timeout_ms,
        } => format!(
            "client library: SQS with Lambda, the function timeout of {} kills the handler",
            duration(function_timeout_ms)
        ),
    })
}

/// The brokers' own rules the run has, in words (docs/MODEL.md "The
/// brokers one runs"); none under the cloud presets' defaults.
fn broker_line(s: &lease_sim::Scenario) -> Option<String> {
    use lease_sim::resolve::resolve;
    use lease_sim::scenario::{AckAt, ExpiryTakes, LateAck, Renewal};
    let c = resolve(s);
    let mut parts: Vec<String> = Vec::new();
    match c.expiry_check_ms {
        // Under `orphans` the check is the orphan check, said below.
        _ if c.expiry_takes == ExpiryTakes::Orphans => {}
        Some(p) if c.expiry_check_passes >= 2 => parts.push(format!(
            "a lock ends at its deadline and the stalled checker (every {}) moves it back \
             on the check after the one that marked it",
            duration(p)
        )),
        Some(p) => parts.push(format!(
            "an expired lease is taken back on a check every {}",
            duration(p)
        )),
        None => {}
    }
    if let Some(n) = c.max_expiries {
        parts.push(format!(
            "stalled more than {n} time{}, a message fails outright",
            if n == 1 { "" } else { "s" }
        ));
    }
    if c.renewal == Renewal::EventLoop {
        parts.push(if c.cpu_bound {
            "renewal runs on the worker's event loop, which CPU-bound work blocks".into()
        } else {
            "renewal runs on the worker's event loop".into()
        });
    }
    if c.ack_at == AckAt::BeforeWork {
        parts.push("the ack goes as the handler starts (at most once)".into());
    }
    if c.eta_ms > 0 {
        parts.push(format!(
            "each message waits for an ETA {} after it arrives, held by the worker",
            duration(c.eta_ms)
        ));
    }
    match c.expiry_takes {
        ExpiryTakes::Channel => {
            parts.push("an expiry takes back everything unacked on the worker's channel".into())
        }
        ExpiryTakes::Nothing => {
            parts.push("no broker timer: a delivery stays pending until it is acked".into())
        }
        ExpiryTakes::Orphans => parts.push(format!(
            "no lease while a worker lives: a crashed worker's deliveries come back at a later \
             worker start, once its heartbeat has expired ({} after the crash) and the orphan \
             check is due ({})",
            duration(c.visibility_timeout_ms),
            c.expiry_check_ms
                .map_or("at every start".into(), |p| format!(
                    "at most once every {}",
                    duration(p)
                ))
        )),
        ExpiryTakes::Claim => parts.push(
            "an expiry is a claim: the claimed copy goes to the next receive and runs even if a \
             late ack settles the message first"
                .into(),
        ),
        ExpiryTakes::Delivery => {}
    }
    match c.late_ack {
        LateAck::AcceptedAlways => {
            parts.push("a late ack settles the message, whoever runs it now".into())
        }
        LateAck::ChannelError => {
            parts.push("a late ack is a channel error that closes the channel again".into())
        }
        LateAck::Rejected | LateAck::AcceptedIfNotRedelivered => {}
    }
    if !c.expiry_counts {
        parts.push("an expiry does not count toward the delivery limit".into());
    }
    if !c.lease_steps_ms.is_empty() {
        let steps: Vec<String> = c.lease_steps_ms.iter().map(|&t| duration(t)).collect();
        parts.push(format!(
            "leases by delivery {}, the last repeating",
            steps.join(", ")
        ));
    }
    if let Some(r) = c.retry {
        parts.push(retry_words(&r));
    }
    if c.attempt_cap {
        parts.push("the timeout caps each attempt, whatever its heartbeats".into());
    }
    (!parts.is_empty()).then(|| format!("broker: {}", parts.join("; ")))
}

/// The delay before redelivery in words: its first retries and its cap.
fn retry_words(r: &lease_sim::resolve::RetryDelay) -> String {
    let first: Vec<String> = (0..4).map(|k| duration(r.delay_ms(k))).collect();
    let cap = r
        .max_ms
        .map_or("no cap".to_string(), |m| format!("at most {}", duration(m)));
    format!("a redelivery waits {}, ... ({cap})", first.join(", "))
}

pub fn render(run: &Run) -> String {
    let r = &run.report;
    let t = &r.totals;
    let mut o = String::new();
    let title = if run.scenario.title.is_empty() {
        &r.name
    } else {
        &run.scenario.title
    };
    let _ = writeln!(o, "{title}");
    let _ = writeln!(
        o,
        "  scenario {}, seed {}, ran {} of {}; visibility timeout {}; {} workers x {}",
        r.name,
        r.seed,
        duration(t.end_ms),
        duration(run.scenario.duration_ms),
        duration(run.visibility_timeout_ms),
        run.worker_count,
        run.concurrency
    );
    if let Some(line) = client_line(&run.scenario) {
        let _ = writeln!(o, "  {line}");
    }
    if let Some(line) = broker_line(&run.scenario) {
        let _ = writeln!(o, "  {line}");
    }
    if let Some(why) = run.stopped() {
        let _ = writeln!(o, "  {why}");
    }
    let _ = writeln!(o, "\nmessages");
    let past = lease_sim::resolve::resolve(&run.scenario).past_limit;
    let rows: [(&str, u64, bool); 7] = [
        ("arrived", t.arrived, true),
        ("deleted", t.deleted, true),
        ("dead-lettered (expired)", t.dead_lettered_expired, true),
        ("dead-lettered (failed)", t.dead_lettered_failed, true),
        // Past the limit under a preset that keeps no dead-letter queue.
        (
            "dropped past the limit",
            t.dropped,
            past == PastLimit::Drop || t.dropped > 0,
        ),
        (
            "stays in the stream",
            t.stayed,
            past == PastLimit::Stay || t.stayed > 0,
        ),
        (
            "still queued / in flight",
            t.still_available + t.still_in_flight,
            true,
        ),
    ];
    for (k, v, shown) in rows {
        if shown {
            let _ = writeln!(o, "  {k:<28} {v:>10}");
        }
    }
    let _ = writeln!(o, "\ndeliveries");
    let rows: [(&str, u64); 10] = [
        ("deliveries", t.deliveries),
        ("redeliveries", t.redeliveries),
        ("lease expiries", t.expiries),
        ("acks accepted", t.acks_ok),
        ("acks rejected", t.acks_rejected),
        ("acks, nothing to settle", t.acks_no_op),
        ("extensions accepted", t.extensions_ok),
        ("extensions rejected", t.extensions_rejected),
        ("handler errors", t.errors),
        ("hung handlers", t.hangs),
    ];
    for (k, v) in rows {
        let _ = writeln!(o, "  {k:<28} {v:>10}");
    }
    let _ = writeln!(o, "\neffects in the store");
    let rows: [(&str, u64); 6] = [
        ("effects", t.effects),
        ("duplicate effects", t.duplicate_effects),
        ("lost updates", t.lost_updates),
        ("rejected by the fence", t.fence_rejections),
        ("overlapping runs", t.overlapping_runs),
        ("sequential duplicate runs", t.sequential_duplicate_runs),
    ];
    for (k, v) in rows {
        let _ = writeln!(o, "  {k:<28} {v:>10}");
    }
    let _ = writeln!(
        o,
        "  {:<28} {:>10}\n  {:<28} {:>10}",
        "useful work",
        duration(t.useful_work_ms),
        "wasted work",
        duration(t.wasted_work_ms)
    );
    let a = &r.ack_latency_ms;
    let _ = writeln!(o, "\nack latency (receive to accepted ack)");
    match (a.p50, a.p99, a.p99_over_timeout, a.p99_of_lease) {
        (Some(p50), Some(p99), Some(ratio), Some(share)) => {
            let _ = writeln!(
                o,
                "  p50 {}, p99 {}, p99 / timeout {ratio:.2}, p99 of its lease {:.0}%",
                duration(p50),
                duration(p99),
                share * 100.0
            );
            // Against the lease each ack had: renewal may carry work past
            // the timeout with room to spare.
            if share >= 0.8 {
                let _ = writeln!(
                    o,
                    "  acks come close to or past the end of their lease: the lease is mis-sized"
                );
            }
        }
        _ => {
            let _ = writeln!(o, "  no ack was accepted");
        }
    }
    let _ = writeln!(o, "\nreceive count per message");
    let mut counts: Vec<(u64, u64)> = r
        .receive_counts
        .iter()
        .filter_map(|(k, v)| k.parse().ok().map(|k| (k, *v)))
        .collect();
    counts.sort_unstable();
    for (k, v) in counts {
        let _ = writeln!(o, "  {k:>4} x {v}");
    }
    let _ = writeln!(o, "\n{} events", t.events);
    let _ = writeln!(o, "{}", memory(run));
    o
}

/// What the stored run takes (`Run::footprint`): the figure issue "Scale and
/// speed" asks us to report, per event and per message.
fn memory(run: &Run) -> String {
    let f = run.footprint();
    format!(
        "memory: {:.1} MB stored, {:.1} B per event, {:.0} B per message (events {:.1} B each)",
        f.total() as f64 / 1e6,
        f.bytes_per_event(),
        f.bytes_per_message(),
        f.event_bytes_each()
    )
}

#[cfg(test)]
mod tests {
    use lease_format::display::duration;

    /// The command line's summary says the visibility timeout and the run's
    /// length as the page, the SVG export and the story say them.
    #[test]
    fn a_duration_reads_the_same_on_the_command_line_as_on_the_page() {
        let mut s = lease_sim::shipped::find("clip-surge").unwrap().scenario;
        s.broker.visibility_timeout_ms = Some(150_000);
        let run = lease_sim::simulate(&s, &lease_sim::Options::default()).unwrap();
        let timeout = duration(150_000);
        assert_eq!(timeout, "2.5 min");
        let printed = super::render(&run);
        assert!(
            printed.contains(&format!("visibility timeout {timeout};")),
            "{printed}"
        );
        assert!(
            printed.contains(&format!("ran {} of", duration(run.end_ms))),
            "{printed}"
        );
        let svg =
            lease_view::export::timeline_svg(&run, &lease_view::export::SvgOptions::default());
        assert!(
            svg.contains(&format!("visibility timeout {timeout}")),
            "the SVG export"
        );
        let index = lease_view::RunIndex::new(&run);
        let story = lease_view::story::message_story(&run, &index, 0, run.end_ms);
        let work = duration(run.messages[0].work_ms);
        assert!(
            story[0].contains(&format!("needs {work} of work")),
            "{story:?}"
        );
    }
}
