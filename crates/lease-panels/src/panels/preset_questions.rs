//! "How the broker presets differ" as the questions a design review asks
//! of each system, every answer written from the preset's own resolved
//! configuration (`lease_sim::resolve`) and its service rules
//! (`lease_sim::services`), so that a changed default changes the table.

use lease_format::display::duration;
use lease_sim::resolve::{resolve, ClientPolicy, Config};
use lease_sim::scenario::{
    AckAt, DlqTiming, ExpiryTakes, LateAck, OnReject, PastLimit, Preset, Renewal, Scenario,
};
use lease_sim::services;

/// The questions, in the table's column order.
pub const QUESTIONS: [&str; 7] = [
    "What expiry takes back",
    "Who keeps running",
    "What a late ack does",
    "Does expiry count toward the limit, and past it?",
    "Delay before redelivery",
    "Does renewal survive a busy handler?",
    "Default lease",
];

/// A preset's scenario with nothing else set: every field its default.
pub fn preset_scenario(p: Preset) -> Scenario {
    let mut s = Scenario::default();
    s.broker.preset = p;
    s
}

/// The answers for one preset, in `QUESTIONS`' order.
pub fn answers(p: Preset) -> [String; 7] {
    let s = preset_scenario(p);
    let c = resolve(&s);
    [
        takes_back(&c),
        keeps_running(&c),
        late_ack(&c),
        limit(p, &c),
        delay(&c),
        renewal(&s, &c),
        default_lease(&s, &c),
    ]
}

fn check_grid(c: &Config) -> String {
    match c.expiry_check_ms {
        Some(ms) if c.expiry_check_passes >= 2 => {
            format!("on a check every {}, in two passes", duration(ms))
        }
        Some(ms) => format!("on a check every {}", duration(ms)),
        None => "at its deadline".into(),
    }
}

fn takes_back(c: &Config) -> String {
    let mut a = match c.expiry_takes {
        ExpiryTakes::Delivery => format!("The expired delivery alone, {}", check_grid(c)),
        ExpiryTakes::Channel => format!(
            "Everything unacked on the worker's channel, prefetched messages too, {}",
            check_grid(c)
        ),
        ExpiryTakes::Nothing => {
            "Nothing: no broker timer; a claimer takes an entry idle past its min-idle-time"
                .into()
        }
        ExpiryTakes::Claim => format!(
            "The expired delivery alone, claimed {} and handed to the next receive ahead of the queue",
            check_grid(c)
        ),
        ExpiryTakes::Orphans => match c.expiry_check_ms {
            Some(ms) => format!(
                "Nothing while the process lives; a dead process's jobs at a later process start, checked every {}",
                duration(ms)
            ),
            None => "Nothing while the process lives; a dead process's jobs at a later process start".into(),
        },
    };
    if c.attempt_cap {
        a.push_str("; the timeout ends each attempt whatever its heartbeats");
    }
    a.push('.');
    a
}

fn keeps_running(c: &Config) -> String {
    let stops_at_reject = c
        .heartbeat
        .as_ref()
        .is_some_and(|h| h.on_reject == OnReject::Abort);
    let mut a = match c.client {
        ClientPolicy::SqsLambda { .. } => {
            "The function timeout stops the first handler".to_string()
        }
        _ if matches!(c.expiry_takes, ExpiryTakes::Nothing | ExpiryTakes::Orphans) => {
            "The first worker: nothing is taken from it while it lives".into()
        }
        _ if stops_at_reject => "The first worker stops at its first rejected heartbeat".into(),
        _ => "The first worker keeps running, and its effects land".into(),
    };
    if c.ack_at == AckAt::BeforeWork {
        a.push_str("; it acks as it starts, so a crash loses the task");
    }
    a.push('.');
    a
}

fn late_ack(c: &Config) -> String {
    if c.expiry_takes == ExpiryTakes::Orphans {
        return "No lease to be late for.".into();
    }
    if c.expiry_takes == ExpiryTakes::Claim && c.late_ack == LateAck::AcceptedAlways {
        return "Accepted whenever: it settles the message, but a claimed copy still runs, and its own ack finds nothing.".into();
    }
    match c.late_ack {
        LateAck::Rejected => "Rejected.".into(),
        LateAck::AcceptedIfNotRedelivered => {
            "Accepted unless the message was handed out again since.".into()
        }
        LateAck::AcceptedAlways => {
            "Accepted whenever: it settles the message, even the copy another worker is running."
                .into()
        }
        LateAck::ChannelError => {
            "A channel error: the channel closes and everything it holds goes back.".into()
        }
    }
}

fn limit(p: Preset, c: &Config) -> String {
    // Where a message goes past its limit, as the resolved `past_limit`
    // says: Cloud Tasks deletes the task, a quorum queue without a
    // dead-letter exchange drops it, JetStream leaves it in the stream.
    let gone = match c.past_limit {
        PastLimit::DeadLetter => "dead-lettered",
        PastLimit::Drop if p == Preset::CloudTasks => "deleted",
        PastLimit::Drop => "dropped (no dead-letter exchange)",
        PastLimit::Stay => "left in the stream with an advisory",
    };
    if matches!(c.expiry_takes, ExpiryTakes::Nothing | ExpiryTakes::Orphans) {
        return match c.max_receive_count {
            Some(n) => format!("Nothing expires; {n} deliveries, then {gone}."),
            None => "Nothing expires to count; no limit.".into(),
        };
    }
    let when = match c.dlq_timing {
        DlqTiming::OnExpiry => "",
        DlqTiming::OnNextReceive => " at the next receive",
    };
    if let Some(k) = c.max_expiries {
        let attempts = c
            .max_receive_count
            .map_or("no limit".to_string(), |n| n.to_string());
        return format!(
            "Counted apart from the attempts ({attempts}, for thrown errors): past {k}, the message fails outright, skipping its retries."
        );
    }
    let mut a = match (c.expiry_counts, c.max_receive_count) {
        (true, Some(n)) => format!("Counted: after {n} deliveries, {gone}{when}"),
        (true, None) => "Counted, but no limit unless you set one: it comes back for ever".into(),
        (false, Some(n)) => format!(
            "Not counted: the limit ({n}) counts other returns, so a message that keeps timing out is never {gone}"
        ),
        (false, None) => "Not counted, and no limit".into(),
    };
    a.push('.');
    a
}

fn delay(c: &Config) -> String {
    match c.expiry_takes {
        ExpiryTakes::Nothing => return "The claimer's own schedule.".into(),
        ExpiryTakes::Orphans => return "Until a later process starts.".into(),
        _ => {}
    }
    if !c.lease_steps_ms.is_empty() {
        let steps: Vec<String> = c.lease_steps_ms.iter().map(|&ms| duration(ms)).collect();
        return format!(
            "Leases from a list, {}, the last repeating.",
            steps.join(", ")
        );
    }
    match c.retry {
        None => "None: handed out again at once.".into(),
        Some(r) => {
            let mut a = duration(r.min_ms);
            match r.doublings {
                Some(0) => a.push_str(", growing linearly"),
                Some(d) => a.push_str(&format!(", doubling {d} times, then growing linearly")),
                None => a.push_str(", doubling"),
            }
            if let Some(m) = r.max_ms {
                a.push_str(&format!(", at most {}", duration(m)));
            }
            a.push('.');
            a
        }
    }
}

fn renewal(s: &Scenario, c: &Config) -> String {
    if let Some(why) = lease_diagnose::extend::cannot_extend(s) {
        return format!("No renewal: {why}.");
    }
    let mut a = renewal_kind(c);
    if let Some(cap) = c.max_lease_lifetime_ms {
        a.pop();
        a.push_str(&format!(
            ", for at most {} after the receive.",
            duration(cap)
        ));
    }
    a
}

fn renewal_kind(c: &Config) -> String {
    let Some(h) = &c.heartbeat else {
        return match c.client {
            ClientPolicy::None if c.attempt_cap => "No heartbeat by default; one you add runs on its own thread, but never past the attempt's timeout.".into(),
            ClientPolicy::None => "No renewal by default; a heartbeat you add runs on its own thread and survives.".into(),
            _ => "The client library renews on its own thread: yes.".into(),
        };
    };
    let every = duration(h.interval_ms);
    match c.renewal {
        Renewal::EventLoop => format!(
            "No: renewed every {every} on the worker's event loop, which a CPU-bound handler blocks."
        ),
        Renewal::Background if c.attempt_cap => format!(
            "Yes, on its own thread every {every}, but never past the attempt's timeout."
        ),
        Renewal::Background => format!("Yes: renewed every {every} on its own thread."),
    }
}

fn default_lease(s: &Scenario, c: &Config) -> String {
    if let Err((field, _, _)) = services::check(s) {
        if field == "broker.visibility_timeout_ms" {
            return "None: you must set it.".into();
        }
    }
    let t = duration(c.visibility_timeout_ms);
    match c.expiry_takes {
        ExpiryTakes::Nothing => format!("No lease; a claimer's min-idle-time of {t}."),
        ExpiryTakes::Orphans => format!("No lease; a process heartbeat that expires after {t}."),
        _ => format!("{t}."),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(p: Preset) -> [String; 7] {
        answers(p)
    }

    /// Each cell is a sentence, and no two presets give the same row (SQS
    /// FIFO differs from Textbook rules by its 12 h cap on renewal).
    #[test]
    fn each_preset_answers_every_question_with_a_sentence_of_its_own() {
        let rows: Vec<[String; 7]> = Preset::ALL.into_iter().map(row).collect();
        for (p, r) in Preset::ALL.iter().zip(&rows) {
            for cell in r {
                assert!(cell.ends_with('.'), "{p:?}: {cell}");
                assert!(cell.len() > 3, "{p:?}: {cell}");
            }
        }
        for (i, a) in rows.iter().enumerate() {
            for b in &rows[i + 1..] {
                assert_ne!(a, b);
            }
        }
    }

    /// The answers follow the resolved fields: the default lease is the
    /// resolved timeout, the limit the resolved delivery count.
    #[test]
    fn the_default_lease_and_the_limit_are_the_resolved_ones() {
        for p in Preset::ALL {
            let c = resolve(&preset_scenario(p));
            let r = row(p);
            if p != Preset::TemporalActivity {
                assert!(
                    r[6].contains(&duration(c.visibility_timeout_ms)),
                    "{p:?}: {}",
                    r[6]
                );
            }
            if let Some(n) = c.max_receive_count {
                assert!(r[3].contains(&format!("{n}")), "{p:?}: {}", r[3]);
            }
        }
    }

    /// What the research states of the systems, read off the table.
    #[test]
    fn the_table_states_each_system_s_documented_difference() {
        let r = row(Preset::Rabbitmq42);
        assert!(r[0].starts_with("Everything unacked on the worker's channel"));
        let tick = duration(lease_sim::resolve::RABBITMQ_CHANNEL_TICK_MS);
        assert!(
            r[0].contains(&format!("on a check every {tick}")),
            "{}",
            r[0]
        );
        assert_eq!(r[6], "30 min.");
        let r = row(Preset::Rabbitmq43);
        assert!(r[0].starts_with("The expired delivery alone, at its deadline"));
        assert!(r[3].starts_with("Not counted"), "{}", r[3]);
        assert!(row(Preset::NatsJetstream)[2].contains("another worker"));
        assert!(row(Preset::RedisStreams)[0].starts_with("Nothing: no broker timer"));
        let r = row(Preset::Bullmq);
        assert!(r[5].starts_with("No: renewed every 15 s on the worker's event loop"));
        assert!(
            r[3].contains("past 1, the message fails outright"),
            "{}",
            r[3]
        );
        assert!(r[0].contains("in two passes"));
        assert!(row(Preset::CeleryRedis)[1].contains("acks as it starts"));
        let r = row(Preset::CeleryRedis);
        assert!(
            r[0].starts_with("The expired delivery alone, claimed on a check every"),
            "{}",
            r[0]
        );
        assert!(r[2].contains("a claimed copy still runs"), "{}", r[2]);
        let r = row(Preset::TemporalActivity);
        assert_eq!(r[6], "None: you must set it.");
        assert_eq!(r[4], "1 s, doubling, at most 100 s.");
        let r = row(Preset::CloudTasks);
        assert!(r[3].contains("100 deliveries, deleted"), "{}", r[3]);
        // Past the limit a quorum queue without a dead-letter exchange
        // drops; JetStream, given a MaxDeliver, leaves it in the stream.
        let q = row(Preset::Rabbitmq42);
        assert!(
            q[3].contains("20 deliveries, dropped (no dead-letter exchange)"),
            "{}",
            q[3]
        );
        let mut s = lease_sim::Scenario::default();
        s.broker.preset = Preset::NatsJetstream;
        s.broker.max_receive_count = Some(Some(5));
        let c = lease_sim::resolve::resolve(&s);
        assert_eq!(
            limit(Preset::NatsJetstream, &c),
            "Counted: after 5 deliveries, left in the stream with an advisory."
        );
        assert!(r[4].contains("doubling 16 times"), "{}", r[4]);
        assert!(r[5].starts_with("No renewal"));
        assert!(row(Preset::SidekiqPro)[6].starts_with("No lease"));
        assert!(row(Preset::CeleryRedis)[5].starts_with("No renewal: Celery"));
        assert!(row(Preset::Rabbitmq42)[5].starts_with("No renewal: RabbitMQ"));
        assert!(row(Preset::GooglePubsub)[5].starts_with("Yes: renewed every 5 s"));
        assert_eq!(
            row(Preset::SqsStandard)[4],
            "None: handed out again at once."
        );
    }
}
