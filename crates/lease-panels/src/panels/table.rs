//! "As a table": every delivery of the run on screen in a real table, for a
//! reader the canvas cannot serve (a screen reader, a search, a copy). The
//! rows come a page at a time from a background worker
//! (`lease_jobs::deliveries_job`), sorted there, so that a large run does
//! not hold the tab.

use std::cell::RefCell;
use std::ops::ControlFlow;
use std::rc::Rc;

use lease_format::display::count;
use lease_jobs::deliveries_job::{Column, DeliveriesJob, DeliveriesPage};
use lease_jobs::{Job, Reply, WorkerClient};
use lease_sim::Scenario;
use lease_ui::panel::PanelCommand;
use lease_view::clock;
use yew::prelude::*;

use super::panel_head;

/// Rows a page.
pub const PAGE_ROWS: usize = 50;

const COLUMNS: [(Column, &str); 7] = [
    (Column::Message, "Message"),
    (Column::Worker, "Worker"),
    (Column::Receipt, "Receipt"),
    (Column::Start, "Start"),
    (Column::End, "End"),
    (Column::Outcome, "Outcome"),
    (Column::Overlap, "Overlap with"),
];

#[derive(Properties, PartialEq)]
pub struct TableProps {
    /// The scenario of the run on screen: its rows are computed again in a worker.
    pub run_scenario: Rc<Scenario>,
    pub on_command: Callback<PanelCommand>,
}

#[derive(Clone, PartialEq)]
enum Rows {
    Reading,
    Read(Rc<DeliveriesPage>),
    Failed(String),
}

/// "rows 51–100 of 3,214"
pub fn rows_note(offset: usize, shown: usize, total: usize) -> String {
    if total == 0 {
        return "No deliveries in this run.".into();
    }
    format!(
        "rows {}–{} of {}",
        count((offset + 1) as u64),
        count((offset + shown) as u64),
        count(total as u64)
    )
}

#[function_component(TablePanel)]
pub fn table_panel(p: &TableProps) -> Html {
    // Opened from beside the timeline, below where the panels show: the
    // panel comes to the reader.
    use_effect_with((), |_| {
        lease_ui::scroll::bring_selector_into_view("#table-panel")
    });
    let sort = use_state(|| (Column::Start, false));
    let offset = use_state(|| 0usize);
    let rows = use_state(|| Rows::Reading);
    // The worker reading the page asked for last: a newer ask drops it,
    // which ends it, and so does closing the panel.
    let client = use_mut_ref(|| None::<WorkerClient>);
    {
        let (rows, client) = (rows.clone(), client.clone());
        use_effect_with(
            (p.run_scenario.clone(), *sort, *offset),
            move |(scenario, (column, descending), offset)| {
                rows.set(Rows::Reading);
                let job = Job::Deliveries(DeliveriesJob {
                    id: 1,
                    scenario: (**scenario).clone(),
                    sort: *column,
                    descending: *descending,
                    offset: *offset,
                    limit: PAGE_ROWS,
                });
                let (failed, unstarted) = (rows.clone(), rows.clone());
                let started = WorkerClient::spawn(
                    move |reply, _| {
                        match reply {
                            Reply::Deliveries { page, .. } => rows.set(Rows::Read(Rc::new(page))),
                            Reply::Failed { why, .. } => rows.set(Rows::Failed(why)),
                            _ => return ControlFlow::Continue(()),
                        }
                        ControlFlow::Break(())
                    },
                    move || {
                        failed.set(Rows::Failed(
                            "the background worker failed to load or stopped".into(),
                        ))
                    },
                );
                let slot: Rc<RefCell<Option<WorkerClient>>> = client;
                *slot.borrow_mut() = match started {
                    Ok(c) => {
                        c.post(&job);
                        Some(c)
                    }
                    Err(why) => {
                        unstarted.set(Rows::Failed(why));
                        None
                    }
                };
            },
        );
    }
    let close = p.on_command.reform(|_: MouseEvent| PanelCommand::Close);
    let (column, descending) = *sort;
    let header = |(c, name): &(Column, &'static str)| {
        let c = *c;
        let this = c == column;
        let aria_sort = match (this, descending) {
            (false, _) => "none",
            (true, false) => "ascending",
            (true, true) => "descending",
        };
        let (sort, offset) = (sort.clone(), offset.clone());
        let onclick = Callback::from(move |_: MouseEvent| {
            sort.set((c, this && !descending));
            offset.set(0);
        });
        let arrow = match (this, descending) {
            (false, _) => "",
            (true, false) => " ▲",
            (true, true) => " ▼",
        };
        html! {
            <th scope="col" aria-sort={aria_sort}>
                <button type="button" class="table-sort" {onclick}>{ *name }<span aria-hidden="true">{ arrow }</span></button>
            </th>
        }
    };
    let when = |t: Option<u64>| t.map_or_else(|| "–".to_string(), clock);
    let body = match &*rows {
        Rows::Read(page) => {
            let rows = page.rows.iter().map(|r| {
                let m = r.message;
                let on_command = p.on_command.clone();
                // The panel stays open; the timeline comes into view with
                // the message's runs lit and its deliveries listed below it.
                let show = Callback::from(move |_: MouseEvent| {
                    on_command.emit(PanelCommand::Select(m));
                    lease_ui::scroll::bring_selector_into_view("#timeline");
                });
                html! {
                    <tr class={classes!(r.overlaps.is_some().then_some("overlapping"))}>
                        <th scope="row">{ r.message }</th>
                        <td>{ r.worker }</td>
                        <td>{ r.receipt }</td>
                        <td>{ when(r.start_ms) }</td>
                        <td>{ when(r.end_ms) }</td>
                        <td>{ match &r.past_limit {
                            Some(fate) => format!("{}; then {fate}", r.outcome),
                            None => r.outcome.clone(),
                        } }</td>
                        <td>{ r.overlaps.map_or_else(|| "–".to_string(), |(receipt, worker)| format!("receipt {receipt} on worker {worker}")) }</td>
                        <td><button type="button" class="table-show" onclick={show}
                            aria-label={format!("Show message {m} on the timeline")}>{ "Show" }</button></td>
                    </tr>
                }
            });
            html! { <tbody>{ for rows }</tbody> }
        }
        _ => html! { <tbody></tbody> },
    };
    let (note, total) = match &*rows {
        Rows::Reading => ("reading the run…".to_string(), None),
        Rows::Read(page) => (
            rows_note(*offset, page.rows.len(), page.total),
            Some(page.total),
        ),
        Rows::Failed(why) => (format!("The table could not be read: {why}."), None),
    };
    let pages = total.map_or(0, |t| t.div_ceil(PAGE_ROWS));
    let at = *offset / PAGE_ROWS;
    let go = |page: usize| {
        let offset = offset.clone();
        Callback::from(move |_: MouseEvent| offset.set(page * PAGE_ROWS))
    };
    let busy = (*rows == Rows::Reading).to_string();
    html! {
        <section class="panel" id="table-panel" aria-labelledby="table-title">
            { panel_head("table-title", "The timeline as a table", "Close the table", close) }
            <p class="muted">{ "Every delivery of the run on screen, as the timeline draws it. Sort by a column with its header; Show selects that message on the timeline." }</p>
            <p id="table-status" role="status" aria-live="polite" aria-busy={busy.clone()}>{ note }</p>
            <div class="table-scroll">
                <table id="deliveries-table" aria-busy={busy}>
                    <caption>{ "Deliveries: message, worker, receipt, when the handler started and ended, its outcome, and the run of the same message it overlapped" }</caption>
                    <thead><tr>
                        { for COLUMNS.iter().map(header) }
                        <th scope="col"><span class="sr-only">{ "On the timeline" }</span></th>
                    </tr></thead>
                    { body }
                </table>
            </div>
            if pages > 1 {
                <nav class="table-pages" aria-label="Pages of the table">
                    <button type="button" id="table-previous" disabled={at == 0} onclick={go(at.saturating_sub(1))}>{ "Previous page" }</button>
                    <span>{ format!("page {} of {}", at + 1, pages) }</span>
                    <button type="button" id="table-next" disabled={at + 1 >= pages} onclick={go(at + 1)}>{ "Next page" }</button>
                </nav>
            }
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rows_note_counts_from_one_with_thousands_count() {
        assert_eq!(rows_note(50, 50, 3214), "rows 51–100 of 3,214");
        assert_eq!(rows_note(0, 7, 7), "rows 1–7 of 7");
        assert_eq!(rows_note(0, 0, 0), "No deliveries in this run.");
        assert_eq!(count(1_000_000), "1,000,000");
    }
}
