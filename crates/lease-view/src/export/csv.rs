//! CSV in RFC 4180's dialect: CRLF line ends, a header row, a text cell
//! quoted only when it holds a comma, a quote or a line break. A missing
//! value (`None`, or a series shorter than the others) is an empty cell, so
//! every row has the header's column count.
use lease_sim::report::Series;
use lease_sim::run::Run;

use super::{cause_name, effect_name, fate_parts, lease_end_name, outcome_name};

/// The columns of `series_csv` after the two bucket bounds, in `Series`
/// field order, by their serde names.
pub const SERIES_COLUMNS: [&str; 18] = [
    "arrivals",
    "acks",
    "completions_per_min",
    "useful_completions_per_min",
    "duplicate_completions_per_min",
    "redeliveries",
    "expiries",
    "dead_letter_expired",
    "dead_letter_failed",
    "dropped",
    "stayed",
    "extensions_ok",
    "extensions_rejected",
    "queue_depth",
    "in_flight",
    "running_handlers",
    "oldest_in_flight_age_ms",
    "oldest_message_age_ms",
];

pub const DELIVERY_COLUMNS: [&str; 22] = [
    "message",
    "arrived_at_ms",
    "work_ms",
    "receipt",
    "worker",
    "slot",
    "received_at_ms",
    "started_at_ms",
    "ended_at_ms",
    "lease_ended_at_ms",
    "lease_end",
    "outcome",
    "effect",
    "committed_at_ms",
    "work_done_ms",
    "work_needed_ms",
    "overlaps_delivery",
    "extensions_ok",
    "extensions_rejected",
    "message_fate",
    "message_fate_at_ms",
    "dead_letter_cause",
];

pub const MESSAGE_COLUMNS: [&str; 9] = [
    "id",
    "arrived_at_ms",
    "work_ms",
    "receive_count",
    "deliveries",
    "effects",
    "fate",
    "fate_at_ms",
    "cause",
];

/// Cells of one row, joined and quoted when the row is finished.
struct Table {
    out: String,
    row: Vec<String>,
}

impl Table {
    fn new(header: &[&str]) -> Self {
        let mut t = Table {
            out: String::new(),
            row: Vec::with_capacity(header.len()),
        };
        for h in header {
            t.text(h);
        }
        t.end_row();
        t
    }
    fn text(&mut self, s: &str) {
        if s.contains([',', '"', '\r', '\n']) {
            self.row.push(format!("\"{}\"", s.replace('"', "\"\"")));
        } else {
            self.row.push(s.to_owned());
        }
    }
    fn num<T: ToString>(&mut self, v: T) {
        self.row.push(v.to_string());
    }
    fn opt<T: ToString>(&mut self, v: Option<T>) {
        self.row.push(v.map(|v| v.to_string()).unwrap_or_default());
    }
    /// Rust's shortest round-trip form, so a reader gets the report's exact
    /// value back; NaN and infinities have no CSV spelling and stay blank.
    fn float(&mut self, v: Option<f64>) {
        let cell = v.filter(|v| v.is_finite()).map(|v| v.to_string());
        self.row.push(cell.unwrap_or_default());
    }
    fn end_row(&mut self) {
        self.out.push_str(&self.row.join(","));
        self.out.push_str("\r\n");
        self.row.clear();
    }
}

/// One row per bucket of the report's series: its bounds (the last bucket
/// ends with the run) and every series at that bucket. Series of unequal
/// length give as many rows as the longest, with blank cells where a
/// shorter one has no value.
pub fn series_csv(run: &Run) -> String {
    let s = &run.report.series;
    // The engine's one list of the series columns; the CSV's order
    // (`SERIES_COLUMNS`) puts the three rates after arrivals and acks.
    let whole = Series::u64_columns(s);
    let (counters, rest) = whole.split_at(2);
    let rates = Series::f64_columns(s);
    let rows = counters
        .iter()
        .chain(rest.iter())
        .map(|v| v.len())
        .chain(rates.iter().map(|v| v.len()))
        .max()
        .unwrap_or(0);

    let mut header = vec!["bucket_start_ms", "bucket_end_ms"];
    header.extend(SERIES_COLUMNS);
    let mut t = Table::new(&header);
    for i in 0..rows {
        // A zero bucket width (a hand-made report) has no bounds to give.
        let bucket = (s.bucket_ms > 0).then_some(s.bucket_ms);
        let start = bucket.and_then(|b| b.checked_mul(i as u64));
        let end = bucket.zip(start).map(|(b, from)| {
            let to = from.saturating_add(b);
            // The engine's last bucket stops at the run's end; a bucket past
            // the end (a longer series than the run) keeps its full width.
            if run.end_ms > from {
                to.min(run.end_ms)
            } else {
                to
            }
        });
        t.opt(start);
        t.opt(end);
        for v in counters {
            t.opt(v.get(i));
        }
        for v in rates {
            t.float(v.get(i).copied());
        }
        for v in rest {
            t.opt(v.get(i));
        }
        t.end_row();
    }
    t.out
}

/// The per-message history, one row per delivery in the run's delivery
/// order, with its message's arrival, work and fate repeated on each row so
/// a spreadsheet can filter by any of them. `overlaps_delivery` is the
/// receipt of the other run of the same message that was executing when
/// this one started.
pub fn deliveries_csv(run: &Run) -> String {
    let mut t = Table::new(&DELIVERY_COLUMNS);
    for d in &run.deliveries {
        let msg = run.messages.get(d.message as usize);
        t.num(d.message);
        t.opt(msg.map(|m| m.arrived_at));
        t.opt(msg.map(|m| m.work_ms));
        t.num(d.receipt);
        t.num(d.worker);
        t.opt(d.slot);
        t.num(d.received_at);
        t.opt(d.started_at);
        t.opt(d.ended_at);
        t.num(d.lease_ended_at);
        t.text(lease_end_name(d.lease_end));
        t.text(outcome_name(d.outcome));
        t.text(effect_name(d.effect));
        t.opt(d.committed_at);
        t.num(d.work_done_ms);
        t.num(d.work_needed_ms);
        t.opt(
            d.overlaps
                .and_then(|o| run.deliveries.get(o as usize))
                .map(|twin| twin.receipt),
        );
        t.num(d.extensions_ok);
        t.num(d.extensions_rejected);
        match msg.map(|m| fate_parts(m.fate)) {
            Some((fate, at, cause)) => {
                t.text(fate);
                t.opt(at);
                t.text(cause.map(cause_name).unwrap_or(""));
            }
            None => {
                t.text("");
                t.text("");
                t.text("");
            }
        }
        t.end_row();
    }
    t.out
}

/// One row per message, in id order.
pub fn messages_csv(run: &Run) -> String {
    let mut t = Table::new(&MESSAGE_COLUMNS);
    for (id, m) in run.messages.iter().enumerate() {
        let (fate, at, cause) = fate_parts(m.fate);
        t.num(id);
        t.num(m.arrived_at);
        t.num(m.work_ms);
        t.num(m.receive_count);
        t.num(m.deliveries.len());
        t.num(m.effects);
        t.text(fate);
        t.opt(at);
        t.text(cause.map(cause_name).unwrap_or(""));
        t.end_row();
    }
    t.out
}

#[cfg(test)]
mod unit {
    use super::*;

    #[test]
    fn text_cells_are_quoted_per_rfc_4180() {
        let mut t = Table::new(&["a", "b,c"]);
        t.text("plain");
        t.text("say \"hi\"\r\nbye");
        t.opt(None::<u64>);
        t.end_row();
        assert_eq!(t.out, "a,\"b,c\"\r\nplain,\"say \"\"hi\"\"\r\nbye\",\r\n");
    }
}
