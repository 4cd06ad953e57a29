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

use super::draw::{axis_ticks, label, Frame, Inks, GUTTER_PX, LABEL_HALF_PX};
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
pub(super) fn paint_notes(ctx: &CanvasRenderingContext2d, f: &Frame) -> Placed {
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
    let mut drawn = Placed::default();
    // The axis's strip, above every lane and row: a label there covers no
    // run, whichever lane or row the note is on; and between the ticks'
    // labels, which it would otherwise hide.
    let y = AXIS_PX / 2.0;
    let ticks: Vec<(f64, f64)> = axis_ticks(ctx, f)
        .into_iter()
        .map(|(_, tx, half, _)| (tx - half, tx + half))
        .collect();
    for n in f.notes.iter().filter_map(|n| Note::from_field(n).ok()) {
        let (from, to) = (n.from_ms as f64, n.to_ms as f64);
        if to < t0 || from > t1 {
            continue;
        }
        let at = band(f, n.on);
        let x0 = shade(from, to, at);
        let width = |t: &str| ctx.measure_text(t).map_or(0.0, |m| m.width());
        let (x, room) = clear_of_ticks(x0 + 4.0, &ticks, GUTTER_PX, f.width);
        let text = fitted(&n.text, room, width);
        label(ctx, &text, x, y, &p.text, &p.background);
        drawn.labels.push((x - 2.0, x + width(&text) + 2.0));
        drawn.bottom = Some(y + LABEL_HALF_PX);
        drawn.count += 1;
    }
    drawn.ticks = ticks;
    drawn
}

/// The notes as drawn, for the test hook.
#[derive(Default)]
pub(super) struct Placed {
    pub count: u32,
    pub bottom: Option<f64>,
    pub labels: Vec<(f64, f64)>,
    pub ticks: Vec<(f64, f64)>,
}

/// Space kept between a note's label (its halo) and a tick's label.
const CLEAR_PX: f64 = 4.0;

/// Where a note's label goes in the axis strip, wanted at `x` (just inside
/// its band): there if that is clear of the tick labels (`ticks`: their
/// left and right edges, in order), else just past the tick label it would
/// cover, so that it stays by its band. Returns its x and the room it has
/// before the next tick label (or `right`, the canvas's edge); a gap too
/// narrow for a word and an ellipsis is passed for the next. `left` is
/// where the runs begin.
pub(super) fn clear_of_ticks(x: f64, ticks: &[(f64, f64)], left: f64, right: f64) -> (f64, f64) {
    let mut gaps = Vec::with_capacity(ticks.len() + 1);
    let mut from = left + CLEAR_PX;
    for &(a, b) in ticks {
        gaps.push((from, a - CLEAR_PX - 2.0));
        from = b + CLEAR_PX + 2.0;
    }
    gaps.push((from, right - 2.0));
    gaps.into_iter()
        .map(|(a, b)| (x.max(a), b - x.max(a)))
        .find(|&(_, room)| room >= MIN_ROOM_PX)
        .unwrap_or((x, (right - 2.0 - x).max(0.0)))
}

/// The least room worth a label: a short word and an ellipsis.
const MIN_ROOM_PX: f64 = 28.0;

/// `text`, or as much of it as fits in `room` with an ellipsis (the whole
/// note is in the canvas's accessible name and the Notes panel).
fn fitted(text: &str, room: f64, width: impl Fn(&str) -> f64) -> String {
    if width(text) <= room {
        return text.to_string();
    }
    let chars: Vec<char> = text.chars().collect();
    let mut n = chars.len();
    while n > 0 {
        n -= 1;
        let cut: String = chars[..n].iter().collect::<String>().trim_end().to_string() + "…";
        if width(&cut) <= room {
            return cut;
        }
    }
    String::new()
}

#[cfg(test)]
mod tests {
    use super::clear_of_ticks;

    #[test]
    fn a_notes_label_goes_just_past_the_tick_label_it_would_cover() {
        // Tick labels at 100-130 and 200-230; a label wanted at 104 (a note
        // that starts on the tick at 115).
        let ticks = [(100.0, 130.0), (200.0, 230.0)];
        assert_eq!(
            clear_of_ticks(104.0, &ticks, 72.0, 600.0),
            (136.0, 200.0 - 6.0 - 136.0)
        );
        // Where it covers none, it stays at its band's start.
        assert_eq!(
            clear_of_ticks(140.0, &ticks, 72.0, 600.0),
            (140.0, 200.0 - 6.0 - 140.0)
        );
        // Past the last tick label, its room runs to the canvas's edge.
        assert_eq!(
            clear_of_ticks(240.0, &ticks, 72.0, 600.0),
            (240.0, 598.0 - 240.0)
        );
    }

    #[test]
    fn a_gap_too_narrow_for_a_word_passes_the_label_to_the_next() {
        // Wanted at 180: 14 px before the tick label at 200.
        let ticks = [(100.0, 130.0), (200.0, 230.0)];
        assert_eq!(clear_of_ticks(180.0, &ticks, 72.0, 600.0).0, 236.0);
    }
}
