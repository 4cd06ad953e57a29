//! The details panel of a clicked message: every delivery in a table. It
//! stays until its Close button (or Escape, or a click on empty canvas).

use lease_sim::run::Delivery;
use lease_view::{clock, story, RunIndex};
use yew::prelude::*;

use crate::run_handle::RunHandle;

pub fn panel(
    run: &RunHandle,
    index: &RunIndex,
    m: u32,
    upto: u64,
    on_close: Callback<MouseEvent>,
) -> Html {
    let Some(msg) = run.messages.get(m as usize) else {
        return html! {};
    };
    let upto = upto.min(run.end_ms);
    let shown = story::received_by(run, msg, upto);
    let later = msg.deliveries.len() - shown.len();
    let when = |t: Option<u64>| match t {
        Some(t) if t <= upto => clock(t),
        _ => "–".to_string(),
    };
    let rows = shown.iter().map(|ix| {
        let d = &run.deliveries[*ix as usize];
        let overlap = d.overlaps.and_then(|t| run.deliveries.get(t as usize));
        let done = d.ended_at.is_some_and(|e| e <= upto) || d.lease_ended_at <= upto;
        let class = classes!(overlap.is_some().then_some("overlapping"));
        html! {
            <tr {class}>
                <td>{ d.worker }</td>
                <td>{ d.receipt }</td>
                <td>{ clock(d.received_at) }</td>
                <td>{ when(d.started_at) }</td>
                <td>{ when(d.ended_at) }</td>
                <td>{ lease_cell(d, upto) }</td>
                <td>{ if done { story::outcome_word_in(run, d) } else { "running" } }
                    { for overlap.map(|t| html! { <span class="timeline-overlap-note">{ format!(" (overlaps receipt {})", t.receipt) }</span> }) }
                </td>
                <td>{ if d.committed_at.is_some_and(|c| c <= upto) || done { story::effect_word(d.effect) } else { "–" } }</td>
            </tr>
        }
    });
    let lines = lease_view::message_story(run, index, m, upto);
    html! {
        <section id="delivery-details" class="timeline-details" tabindex="-1" aria-label={format!("Deliveries of message {m}")}>
            <header>
                <h3>{ format!("Message {m}: {} of {} deliveries so far", shown.len(), msg.deliveries.len()) }</h3>
                <button type="button" class="timeline-details-close" onclick={on_close}>{ "Close" }</button>
            </header>
            <table>
                <thead><tr>
                    <th scope="col">{ "Worker" }</th>
                    <th scope="col">{ "Receipt" }</th>
                    <th scope="col">{ "Received" }</th>
                    <th scope="col">{ "Start" }</th>
                    <th scope="col">{ "End" }</th>
                    <th scope="col">{ "Lease" }</th>
                    <th scope="col">{ "Outcome" }</th>
                    <th scope="col">{ "Effect" }</th>
                </tr></thead>
                <tbody>{ for rows }</tbody>
            </table>
            if later > 0 {
                <p class="timeline-details-later">{ format!("{later} later deliveries are past the playhead.") }</p>
            }
            <ul class="timeline-details-story">{ for lines.into_iter().skip(1).map(|l| html! { <li>{ l }</li> }) }</ul>
        </section>
    }
}

/// The lease's end as the details table tells it: "expired at 31:00
/// (deadline 30:10)" where a periodic check took it back after its deadline.
fn lease_cell(d: &Delivery, upto: u64) -> String {
    if d.lease_ended_at > upto {
        return "held".into();
    }
    let mut s = format!(
        "{} at {}",
        story::lease_word(d.lease_end),
        clock(d.lease_ended_at)
    );
    if let Some((t, _)) = lease_view::lag_of(d, upto) {
        s += &format!(" (deadline {})", clock(t));
    }
    s
}
