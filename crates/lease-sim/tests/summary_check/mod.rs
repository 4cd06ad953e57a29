//! What `Run::summarise` and the wire format promise, checked on one run:
//! used by the property test in `invariants.rs` and by `scale.rs`.
#![allow(dead_code)]

use lease_sim::run::Run;
use lease_sim::summarise::fate_code;
use lease_sim::SummaryLimits;
use lease_wire as wire;

/// Summarise a copy of `full` with `limits` and check it; `Err` says what broke.
pub fn check(full: &Run, limits: SummaryLimits) -> Result<Run, String> {
    let mut s = full.clone();
    s.summarise(limits);
    let fail = |what: String| Err(format!("{what} (limits {limits:?})"));
    if !full
        .deliveries
        .windows(2)
        .all(|w| w[0].received_at <= w[1].received_at)
    {
        return fail("deliveries are not in receive order".into());
    }
    let within = full.deliveries.len() <= limits.deliveries
        && full.events.len() <= limits.events
        && full.events.dropped() == 0;
    if within {
        if s != *full || s.summarised.is_some() {
            return fail("summarising within the limits changed the run".into());
        }
        return Ok(s);
    }
    let Some(sum) = s.summarised.clone() else {
        return fail("a run over the limits was not summarised".into());
    };
    let until = sum.kept_until_ms;
    // The whole run's description is untouched.
    if s.report != full.report || s.end_ms != full.end_ms || s.scenario != full.scenario {
        return fail("the report, end_ms or scenario changed".into());
    }
    if s.deliveries.len() > limits.deliveries || s.events.len() > limits.events {
        return fail(format!(
            "kept {} deliveries and {} events",
            s.deliveries.len(),
            s.events.len()
        ));
    }
    // Kept parts are prefixes of the whole run, cut at one instant.
    let k = s.deliveries.len();
    // A prefix, but for links to a twin that was cut (see `summarise`).
    let unlinked = full.deliveries[..k].iter().map(|d| {
        let mut d = d.clone();
        d.overlaps = d.overlaps.filter(|&o| (o as usize) < k);
        d
    });
    if !s.deliveries.iter().cloned().eq(unlinked) {
        return fail("deliveries are not a prefix".into());
    }
    if full.deliveries[..k].iter().any(|d| d.received_at >= until)
        || full.deliveries[k..].iter().any(|d| d.received_at < until)
    {
        return fail(format!("deliveries not cut at {until}"));
    }
    if s.marks[..] != full.marks[..s.marks.len()]
        || full.marks[s.marks.len()..].iter().any(|m| m.t < until)
        || s.marks.iter().any(|m| m.t >= until)
    {
        return fail("marks are not the prefix before the cut".into());
    }
    if s.worker_marks[..] != full.worker_marks[..s.worker_marks.len()]
        || full.worker_marks[s.worker_marks.len()..]
            .iter()
            .any(|m| m.t < until)
        || s.worker_marks.iter().any(|m| m.t >= until)
    {
        return fail("worker marks are not the prefix before the cut".into());
    }
    // The log before the cut, less the entries of messages not kept.
    let kept_messages = s.messages.len() as u32;
    let want = full
        .events
        .iter()
        .take_while(|e| e.t < until)
        .filter(|e| e.message == lease_sim::run::NONE || e.message < kept_messages);
    if !s.events.iter().eq(want) {
        return fail("events are not the log before the cut, of the kept messages".into());
    }
    if s.events.total() != full.events.total() {
        return fail("the log's total count changed".into());
    }
    for (i, m) in s.messages.iter().enumerate() {
        let f = &full.messages[i];
        if m.arrived_at >= until {
            return fail(format!("message {i} arrived after the cut"));
        }
        if m.deliveries[..] != f.deliveries[..m.deliveries.len()]
            || f.deliveries[m.deliveries.len()..]
                .iter()
                .any(|&d| (d as usize) < k)
            || (m.fate, m.receive_count, m.effects, m.work_ms)
                != (f.fate, f.receive_count, f.effects, f.work_ms)
        {
            return fail(format!("message {i} differs from the whole run's"));
        }
    }
    // Messages are kept through the highest one a kept delivery names (a
    // backlog's million arrive at t = 0; the page needs only those it draws).
    let named = s.deliveries.iter().map(|d| d.message as usize + 1).max();
    if s.messages.len() != named.unwrap_or(0) {
        return fail(format!(
            "kept {} messages, the kept deliveries name messages up to {named:?}",
            s.messages.len()
        ));
    }
    if s.deliveries
        .iter()
        .any(|d| d.message as usize >= s.messages.len())
    {
        return fail("a kept delivery's message was not kept".into());
    }
    if sum.messages_kept + sum.dropped_messages() != full.messages.len() as u64 {
        return fail("kept and dropped messages do not add up".into());
    }
    // Indices stay valid.
    if s.messages
        .iter()
        .flat_map(|m| &m.deliveries)
        .any(|&d| d as usize >= k)
        || s.marks.iter().any(|m| m.delivery as usize >= k)
        || s.deliveries.iter().enumerate().any(|(i, d)| {
            d.overlaps
                .is_some_and(|o| o as usize >= k || o as usize == i)
        })
    {
        return fail("an index points outside the kept deliveries".into());
    }
    // The summary's counts and outcome columns.
    let want = (
        full.events.total(),
        full.deliveries.len() as u64,
        full.marks.len() as u64,
        full.worker_marks.len() as u64,
        full.messages.len() as u64,
    );
    let got = (
        sum.events_total,
        sum.deliveries_total,
        sum.marks_total,
        sum.worker_marks_total,
        sum.messages_total,
    );
    if want != got || sum.events_total != full.report.totals.events {
        return fail(format!("totals {got:?}, want {want:?}"));
    }
    let kept = (
        s.events.len() as u64,
        s.deliveries.len() as u64,
        s.marks.len() as u64,
        s.worker_marks.len() as u64,
        s.messages.len() as u64,
    );
    if kept
        != (
            sum.events_kept,
            sum.deliveries_kept,
            sum.marks_kept,
            sum.worker_marks_kept,
            sum.messages_kept,
        )
    {
        return fail("kept counts disagree with the run".into());
    }
    let fates: Vec<u8> = full.messages.iter().map(|m| fate_code(&m.fate)).collect();
    let counts: Vec<u32> = full.messages.iter().map(|m| m.receive_count).collect();
    if sum.fates != fates || sum.receive_counts != counts {
        return fail("per-message outcome columns differ".into());
    }
    if sum.dropped_deliveries() != full.deliveries.len() as u64 - k as u64 {
        return fail("dropped_deliveries is wrong".into());
    }
    // Summarising again with the same limits changes nothing.
    let mut again = s.clone();
    again.summarise(limits);
    if again != s {
        return fail("summarising twice cut more".into());
    }
    round_trip(&s)?;
    Ok(s)
}

/// `decode(encode(run)) == run`.
pub fn round_trip(run: &Run) -> Result<(), String> {
    match wire::decode(&wire::encode(run)) {
        Ok(back) if back == *run => Ok(()),
        Ok(_) => Err(format!("{}: the decoded run differs", run.scenario.name)),
        Err(e) => Err(format!("{}: {e}", run.scenario.name)),
    }
}
