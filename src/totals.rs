//! The strip of run totals, always visible. Counted up to the playhead, so
//! that playback shows them grow; at the end of the run they are the report's.
use lease_sim::run::EventKind as K;
use lease_sim::scenario::PastLimit;
use yew::prelude::*;

use crate::run_handle::RunHandle;

#[derive(PartialEq)]
pub struct TotalsProps {
    pub run: RunHandle,
    pub playhead_ms: u64,
    /// The figures the interviewer's mode hides, one bit each
    /// (`lease_ui::panel::FIGURES`); the interviewer's bar reveals them.
    pub hidden: u16,
}

#[derive(Default, Debug, PartialEq)]
pub struct Counts {
    /// Messages that have arrived (the backlog at the start included).
    pub arrived: u64,
    /// Messages waiting in the queue: arrived, or back from a lease, and not
    /// handed out again.
    pub waiting: u64,
    pub delivered: u64,
    pub acked: u64,
    pub redeliveries: u64,
    pub overlapping: u64,
    pub duplicates: u64,
    pub dlq_expired: u64,
    pub dlq_failed: u64,
    /// Past the delivery limit and dropped (`past_limit: drop`).
    pub dropped: u64,
    /// Past the delivery limit and left in the stream (`past_limit: stay`).
    pub stayed: u64,
}

/// Totals up to `t` (inclusive), from the event log and the deliveries. A
/// summarised run keeps its log only up to `kept_until_ms`: from there on
/// the totals are the whole run's (the notice above the picture says so).
pub fn counts_until(run: &lease_sim::Run, t: u64) -> Counts {
    if t >= run.end_ms || past_the_kept_log(run, t) {
        let r = &run.report.totals;
        return Counts {
            arrived: r.arrived,
            waiting: r.still_available,
            delivered: r.deliveries,
            acked: r.acks_ok,
            redeliveries: r.redeliveries,
            overlapping: r.overlapping_runs,
            duplicates: r.duplicate_effects,
            dlq_expired: r.dead_lettered_expired,
            dlq_failed: r.dead_lettered_failed,
            dropped: r.dropped,
            stayed: r.stayed,
        };
    }
    counted(run, run.events.partition_point_t(|e| e <= t), t)
}

/// Totals from the first `n` events of the log, at time `t`.
fn counted(run: &lease_sim::Run, n: usize, t: u64) -> Counts {
    let mut c = Counts::default();
    // The queue's depth: what comes in (an arrival, a lease that ran out or
    // was released) less what goes out (a receive, or the message's end
    // past the delivery limit, which takes it from the queue whether it is
    // set aside at its expiry or at the receive that finds its count spent).
    // A late ack accepted whatever the receipt (JetStream, Redis `XACK`)
    // can delete a message waiting in the queue after its lease ran out:
    // which messages wait now tells that ack from one that settles a lease.
    let mut waits = vec![false; run.messages.len()];
    let mut waiting: i64 = 0;
    for e in run.events.iter().take(n) {
        let m = e.message as usize;
        if m >= waits.len() {
            // Grown rather than indexed past, whatever a summarised run kept.
            waits.resize(m + 1, false);
        }
        match e.kind {
            K::Arrive => {
                c.arrived += 1;
                waiting += 1;
                waits[m] = true;
            }
            K::Expire | K::Release => {
                waiting += 1;
                waits[m] = true;
            }
            K::Receive => {
                waiting -= 1;
                waits[m] = false;
                c.delivered += 1;
                if e.receipt > 1 {
                    c.redeliveries += 1;
                }
            }
            K::AckOk => {
                c.acked += 1;
                if std::mem::take(&mut waits[m]) {
                    waiting -= 1;
                }
            }
            K::CommitDuplicate | K::CommitLostUpdate => c.duplicates += 1,
            K::DeadLetterExpired => {
                waiting -= 1;
                waits[m] = false;
                c.dlq_expired += 1;
            }
            K::DeadLetterFailed => {
                waiting -= 1;
                waits[m] = false;
                c.dlq_failed += 1;
            }
            K::Dropped => {
                waiting -= 1;
                waits[m] = false;
                c.dropped += 1;
            }
            K::MaxDeliveries => {
                waiting -= 1;
                waits[m] = false;
                c.stayed += 1;
            }
            _ => {}
        }
    }
    c.waiting = waiting.max(0) as u64;
    c.overlapping = run
        .deliveries
        .iter()
        .filter(|d| d.overlaps.is_some() && d.started_at.is_some_and(|s| s <= t))
        .count() as u64;
    c
}

/// Whether `t` is past what a summarised run kept of its log.
pub fn past_the_kept_log(run: &lease_sim::Run, t: u64) -> bool {
    run.summarised
        .as_ref()
        .is_some_and(|s| t >= s.kept_until_ms)
}

pub fn totals(props: &TotalsProps) -> Html {
    let run = &props.run;
    let c = counts_until(run, props.playhead_ms);
    // Each ack against the lease it had (extensions included), so renewal
    // that lets work outlast the timeout reads as the room it gives.
    let share = run.report.ack_latency_ms.p99_of_lease;
    let ratio = share.map_or_else(|| "no acks".into(), percent);
    let ratio_bad = match share {
        Some(r) => r >= ACK_SHARE_LIMIT,
        None => run.report.totals.deliveries > 0,
    };
    let ratio_title = "Ack latency p99, each ack as a share of the lease it had when it was acked (the timeout, or where its last heartbeat moved the deadline), for the whole run: from 80%, acks come too close to or past the lease's end";
    let mut figure = 0;
    let mut item =
        |id: &'static str, label: &'static str, value: String, bad: bool, title: &'static str| {
            // An interview hides each figure until the candidate has predicted
            // it and the interviewer reveals it.
            let hide = props.hidden >> figure & 1 == 1;
            figure += 1;
            let (value, bad) = if hide {
                ("?".into(), false)
            } else {
                (value, bad)
            };
            html! {
                <div class={classes!("total", bad.then_some("total-bad"))} title={title}>
                    <span class="total-label" id={format!("{id}-label")}>{label}</span>
                    // Not live: a total changes with every run and every
                    // step of the playhead; the run's summary speaks once.
                    <span class="value" id={id}>{value}</span>
                </div>
            }
        };
    let whole = past_the_kept_log(run, props.playhead_ms) && props.playhead_ms < run.end_ms;
    html! {
        <section class="totals" id="totals" aria-label="Run totals">
            if whole {
                <p class="totals-whole" id="totals-whole">{"Whole run (past the summarised log):"}</p>
            }
            {item("total-arrived", "Arrived", c.arrived.to_string(), false, "Messages that have arrived in the queue, the backlog at the start included")}
            {item("total-waiting", "Waiting", c.waiting.to_string(), c.waiting > 0 && c.waiting * 10 >= c.arrived.max(1), "Messages in the queue that no worker holds: arrived or back from a lease, not yet handed out")}
            {item("total-delivered", "Delivered", c.delivered.to_string(), false, "Deliveries: each hands a message out with a new lease and receipt")}
            {item("total-acked", "Acked", c.acked.to_string(), false, "Acks the broker accepted (the message is deleted)")}
            {item("total-redeliveries", "Redeliveries", c.redeliveries.to_string(), c.redeliveries > 0, "Deliveries after the first, of the same message")}
            {item("total-overlapping", "Overlapping runs", c.overlapping.to_string(), c.overlapping > 0, "Handler starts while another run of the same message was still executing")}
            {item("total-duplicates", "Duplicate effects", c.duplicates.to_string(), c.duplicates > 0, "Commits that applied an effect a message already had (lost updates included)")}
            {match lease_sim::resolve::resolve(&run.scenario).past_limit {
                PastLimit::DeadLetter => item("total-dead-lettered", "Dead-lettered (expired / failed)", format!(
                    "{} / {}",
                    c.dlq_expired,
                    c.dlq_failed,
                ), c.dlq_expired + c.dlq_failed > 0, "Moved to the dead-letter queue by lease expiry / after handler errors"),
                PastLimit::Drop => item("total-dropped", "Dropped past the limit", c.dropped.to_string(), c.dropped > 0, "Messages past the delivery limit that the broker dropped: no dead-letter queue holds them"),
                PastLimit::Stay => item("total-stayed", "Stays in the stream (advisory)", c.stayed.to_string(), c.stayed > 0, "Messages past the delivery limit, left in the stream and delivered no more; the broker published an advisory for each"),
            }}
            {item("total-ack-ratio", "Ack p99, % of its lease", ratio, ratio_bad, ratio_title)}
        </section>
    }
}

/// From this share of its lease an ack comes too close to the lease's end
/// (or past it): a missed heartbeat or a slower call and it is lost.
const ACK_SHARE_LIMIT: f64 = 0.8;

/// A share as whole percent: 0.7822 is "78%".
fn percent(share: f64) -> String {
    format!("{:.0}%", share * 100.0)
}

/// The run in one paragraph, for screen readers: the canvas and the charts
/// are pictures, and this says what they show.
pub fn run_summary(run: &lease_sim::Run) -> Html {
    html! {
        <p class="sr-only" id="run-summary" aria-live="polite">{summary_text(run)}</p>
    }
}

pub fn summary_text(run: &lease_sim::Run) -> String {
    use lease_format::display::{count, duration};
    let t = &run.report.totals;
    let ratio = match run.report.ack_latency_ms.p99_of_lease {
        Some(r) => format!(
            "ack latency p99 is {} of the lease each ack had",
            percent(r)
        ),
        None => "no ack was accepted".to_string(),
    };
    // "1 message arrived", "2 messages arrived": each count with its own noun.
    let n =
        |k: u64, one: &str, many: &str| format!("{} {}", count(k), if k == 1 { one } else { many });
    // Past the limit a message dropped or left in the stream is no dead
    // letter: said apart, where there are any.
    let past = match (t.dropped, t.stayed) {
        (0, 0) => String::new(),
        (d, 0) => format!(
            " {} dropped past the delivery limit.",
            n(d, "message was", "messages were")
        ),
        (0, s) => format!(
            " {} left in the stream past the delivery limit, with an advisory.",
            n(s, "message was", "messages were")
        ),
        (d, s) => format!(
            " Past the delivery limit {} dropped and {} left in the stream.",
            count(d),
            count(s)
        ),
    };
    format!(
        "The run lasted {} with {} and a visibility timeout of {}. \
         {} arrived; {} deleted after an accepted ack; {} dead-lettered by expiry \
         and {} after failures. There {} {}, {} of them redeliveries; {} overlapped \
         another run of the same message; {} rejected; {} duplicates; {ratio}.{past}",
        duration(run.end_ms),
        n(u64::from(run.worker_count), "worker", "workers"),
        duration(run.visibility_timeout_ms),
        n(t.arrived, "message", "messages"),
        n(t.deleted, "was", "were"),
        n(t.dead_lettered_expired, "was", "were"),
        count(t.dead_lettered_failed),
        if t.deliveries == 1 { "was" } else { "were" },
        n(t.deliveries, "delivery", "deliveries"),
        count(t.redeliveries),
        n(t.overlapping_runs, "run", "runs"),
        n(t.acks_rejected, "ack was", "acks were"),
        n(t.duplicate_effects, "effect was", "effects were"),
    ) + &no_op_acks(t.acks_no_op)
}

/// Acks of a message already deleted that the broker answered as a
/// success doing nothing: said only where the run has them, as few
/// brokers answer so.
fn no_op_acks(k: u64) -> String {
    match k {
        0 => String::new(),
        1 => " 1 ack came after its message was deleted and settled nothing.".into(),
        _ => format!(
            " {} acks came after their message was deleted and settled nothing.",
            lease_format::display::count(k)
        ),
    }
}

#[cfg(test)]
mod tests {
    use lease_format::display::duration;

    #[test]
    fn one_of_a_kind_is_said_in_the_singular() {
        let s = lease_sim::shipped::find("ninety-second-message")
            .unwrap()
            .scenario;
        let run = lease_sim::simulate(&s, &lease_sim::Options::default()).unwrap();
        assert_eq!(run.report.totals.arrived, 1);
        let told = super::summary_text(&run);
        assert!(told.contains("1 message arrived;"), "{told}");
        assert!(!told.contains("1 messages"), "{told}");
        assert!(told.contains("with 2 workers"), "{told}");
    }

    #[test]
    fn arrived_and_waiting_counted_from_the_log_agree_with_the_report_at_the_end() {
        for shipped in lease_sim::shipped::all() {
            let s = &shipped.scenario;
            let run = lease_sim::simulate(s, &lease_sim::Options::default()).unwrap();
            if run.summarised.is_some() {
                continue;
            }
            let c = super::counted(&run, run.events.len(), run.end_ms);
            let t = &run.report.totals;
            assert_eq!(c.arrived, t.arrived, "{}: arrived", s.name);
            assert_eq!(c.waiting, t.still_available, "{}: waiting", s.name);
            assert_eq!(c.delivered, t.deliveries, "{}: delivered", s.name);
        }
    }

    #[test]
    fn a_message_dropped_or_left_in_the_stream_is_counted_and_told_in_its_own_words() {
        use lease_sim::scenario::PastLimit;
        for (past, said) in [
            (PastLimit::Drop, "dropped past the delivery limit"),
            (
                PastLimit::Stay,
                "left in the stream past the delivery limit",
            ),
        ] {
            let mut s = lease_sim::shipped::find("ninety-second-message")
                .unwrap()
                .scenario;
            s.broker.max_receive_count = Some(Some(1));
            s.broker.past_limit = Some(past);
            let run = lease_sim::simulate(&s, &lease_sim::Options::default()).unwrap();
            let t = &run.report.totals;
            let c = super::counted(&run, run.events.len(), run.end_ms);
            assert_eq!((c.dropped, c.stayed), (t.dropped, t.stayed), "{past:?}");
            assert_eq!(c.dropped + c.stayed, 1, "{past:?}");
            assert_eq!(c.dlq_expired + c.dlq_failed, 0, "{past:?}");
            assert_eq!(c.waiting, t.still_available, "{past:?}");
            let told = super::summary_text(&run);
            assert!(told.contains(&format!("1 message was {said}")), "{told}");
        }
    }

    /// A scenario whose visibility timeout is 150,000 ms, and its run.
    fn run_of_150_000_ms() -> (lease_sim::Scenario, lease_sim::Run) {
        let mut s = lease_sim::shipped::find("clip-surge").unwrap().scenario;
        s.broker.visibility_timeout_ms = Some(150_000);
        let run = lease_sim::simulate(&s, &lease_sim::Options::default()).unwrap();
        (s, run)
    }

    #[test]
    fn a_duration_reads_the_same_wherever_the_page_shows_it() {
        let (s, run) = run_of_150_000_ms();
        let timeout = duration(150_000);
        assert_eq!(timeout, "2.5 min");
        let control = lease_fields::Field::Timeout.control().unwrap();
        assert_eq!(
            crate::controls::describe(control, &s),
            timeout,
            "beside the slider"
        );
        let told = super::summary_text(&run);
        assert!(
            told.contains(&format!("a visibility timeout of {timeout}.")),
            "{told}"
        );
        assert!(
            told.contains(&format!("The run lasted {} ", duration(run.end_ms))),
            "{told}"
        );
        assert_eq!(
            crate::run_status::time_left(Some(150.0)),
            format!("about {timeout} left"),
            "a large run's time left"
        );
        let ticks = crate::charts::time_labels(300_000);
        assert!(
            ticks
                .iter()
                .any(|(t, label)| *t == 300_000 && *label == duration(300_000)),
            "a chart's axis: {ticks:?}"
        );
        let canvas = crate::timeline::summary(&crate::run_handle::RunHandle::new(run.clone()));
        assert!(canvas.contains(&duration(run.end_ms)), "{canvas}");
        let svg =
            lease_view::export::timeline_svg(&run, &lease_view::export::SvgOptions::default());
        assert!(
            svg.contains(&format!("visibility timeout {timeout}")),
            "the SVG export"
        );
    }
}
