//! The reader's notes over the timeline: a band over each note's range (its
//! worker's lane or its message's row when it names one and the view has
//! it, else the whole height) with its text on a halo in the time axis's
//! strip over the band's start, clear of the runs the note is about, and
//! the band of a Shift+drag under way. Amber, which no run or mark
//! uses; the text is the page's text colour on its background, readable in
//! both schemes, and grows with presenter mode's ink as every label does.
use lease_view::note::{Note, NoteOn};
use lease_view::AXIS_PX;
use web_sys::CanvasRenderingContext2d;

use super::draw::{label, Frame, Inks, LABEL_HALF_PX};
use super::TimelineView;

/// Top and height of a note's band.
fn band(f: &Frame, on: NoteOn) -> (f64, f64) {
    match (on, f.view) {
        (NoteOn::Worker(w), TimelineView::Workers) if w < f.lanes.workers => {
            (f.lanes.lane_top(w), f.lanes.lane_px() - f.lanes.gap_px)
        }
        (NoteOn::Message(m), TimelineView::Messages) if m < f.rows.count => {
            (f.rows.row_top(m), f.rows.row_px)
        }
        _ => (AXIS_PX, f.height - AXIS_PX),
    }
}

/// Paints the notes and a Shift+drag under way; returns how many notes it
/// drew and the lowest edge of their labels.
pub(super) fn paint_notes(ctx: &CanvasRenderingContext2d, f: &Frame) -> (u32, Option<f64>) {
    let (fill, edge) = if f.dark {
        ("rgba(242,184,75,0.16)", "#f2b84b")
    } else {
        ("rgba(154,91,0,0.13)", "#9a5b00")
    };
    let (t0, t1) = (f.scale.start_ms, f.scale.end_ms);
    let x_of = |t: f64| f.x(t.clamp(t0, t1).round() as u64);
    let shade = |from: f64, to: f64, (top, h): (f64, f64)| {
        let (x0, x1) = (x_of(from), x_of(to).max(x_of(from) + 2.0));
        ctx.set_fill_style_str(fill);
        ctx.fill_rect(x0, top, x1 - x0, h);
        ctx.set_stroke_style_str(edge);
        ctx.set_line_width(1.5 * f.ink);
        ctx.stroke_rect(x0, top, x1 - x0, h);
        x0
    };
    if let Some((a, b)) = f.marking {
        shade(a.min(b), a.max(b), band(f, NoteOn::Timeline));
    }
    let p = Inks::of_scheme(f.dark);
    ctx.set_text_align("left");
    let mut drawn = 0;
    let mut bottom = None;
    // The axis's strip, above every lane and row: a label there covers no
    // run, whichever lane or row the note is on.
    let y = AXIS_PX / 2.0;
    for n in f.notes.iter().filter_map(|n| Note::from_field(n).ok()) {
        let (from, to) = (n.from_ms as f64, n.to_ms as f64);
        if to < t0 || from > t1 {
            continue;
        }
        let at = band(f, n.on);
        let x0 = shade(from, to, at);
        label(ctx, &n.text, x0 + 4.0, y, &p.text, &p.background);
        bottom = Some(y + LABEL_HALF_PX);
        drawn += 1;
    }
    (drawn, bottom)
}
