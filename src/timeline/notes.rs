//! The reader's notes over the timeline: a band over each note's range (its
//! worker's lane or its message's row when it names one and the view has
//! it, else the whole height), its text in a label at the band's top, and
//! the band of a Shift+drag under way. Amber, which no run or mark uses;
//! the label's text is the page's text colour on its background, readable
//! in both schemes, and grows with presenter mode's ink.

use lease_format::decimal::clamp;
use lease_view::note::{Note, NoteOn};
use lease_view::AXIS_PX;
use web_sys::CanvasRenderingContext2d;

use super::draw::{Frame, Inks};
use super::TimelineView;

fn amber(dark: bool) -> (&'static str, &'static str) {
    if dark {
        ("rgba(242,184,75,0.16)", "#f2b84b")
    } else {
        ("rgba(154,91,0,0.13)", "#9a5b00")
    }
}

/// Top and height of a note's band.
fn band(f: &Frame, n: &Note) -> (f64, f64) {
    let whole = (AXIS_PX, f.height - AXIS_PX);
    match (n.on, f.view) {
        (NoteOn::Worker(w), TimelineView::Workers) if w < f.lanes.workers => {
            (f.lanes.lane_top(w), f.lanes.lane_px() - f.lanes.gap_px)
        }
        (NoteOn::Message(m), TimelineView::Messages) if m < f.rows.count => {
            (f.rows.row_top(m), f.rows.row_px)
        }
        _ => whole,
    }
}

/// Paints the notes and a Shift+drag under way; returns how many notes it drew.
pub(super) fn paint_notes(ctx: &CanvasRenderingContext2d, f: &Frame) -> u32 {
    let (fill, edge) = amber(f.dark);
    let ink = f.ink;
    let (t0, t1) = (f.scale.start_ms, f.scale.end_ms);
    // Not `f64::clamp`: its panic message would link the float printer.
    let x_of = |t: f64| f.x(clamp(t, t0, t1).round() as u64);
    if let Some((a, b)) = f.marking {
        let (x0, x1) = (x_of(a.min(b)), x_of(a.max(b)));
        ctx.set_fill_style_str(fill);
        ctx.fill_rect(x0, AXIS_PX, (x1 - x0).max(1.0), f.height - AXIS_PX);
        ctx.set_stroke_style_str(edge);
        ctx.set_line_width(1.5 * ink);
        ctx.stroke_rect(x0, AXIS_PX, (x1 - x0).max(1.0), f.height - AXIS_PX);
    }
    if f.notes.is_empty() {
        return 0;
    }
    let mut drawn = 0;
    let p = Inks::of_scheme(f.dark);
    let size = (12.0 * ink).round() as u32;
    ctx.set_font(&format!(
        "600 {size}px system-ui, -apple-system, 'Segoe UI', sans-serif"
    ));
    let label_h = f64::from(size) + 6.0;
    for n in f.notes {
        let (from, to) = (n.from_ms as f64, n.to_ms as f64);
        if to < t0 || from > t1 {
            continue;
        }
        let (x0, x1) = (x_of(from), x_of(to).max(x_of(from) + 2.0));
        let (top, h) = band(f, n);
        ctx.set_fill_style_str(fill);
        ctx.fill_rect(x0, top, x1 - x0, h);
        ctx.set_stroke_style_str(edge);
        ctx.set_line_width(1.5 * ink);
        super::draw::dash(ctx, &[5.0 * ink, 3.0 * ink]);
        ctx.stroke_rect(x0, top, x1 - x0, h);
        super::draw::dash(ctx, &[]);
        let text = match n.on {
            NoteOn::Timeline => n.text.clone(),
            _ => format!("{}: {}", n.on_words(), n.text),
        };
        let w = ctx.measure_text(&text).map(|m| m.width()).unwrap_or(0.0) + 10.0;
        let left = x0.min(f.width - w - 2.0).max(2.0);
        ctx.set_fill_style_str(&p.background);
        ctx.fill_rect(left, top + 2.0, w, label_h);
        ctx.set_line_width(1.5 * ink);
        ctx.stroke_rect(left, top + 2.0, w, label_h);
        ctx.set_fill_style_str(&p.text);
        let _ = ctx.fill_text(&text, left + 5.0, top + 2.0 + label_h / 2.0);
        drawn += 1;
    }
    ctx.set_font(&format!(
        "{}px system-ui, -apple-system, 'Segoe UI', sans-serif",
        (11.0 * ink).round() as u32
    ));
    drawn
}
