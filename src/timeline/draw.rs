//! Painting the timeline on a 2D canvas from the run's columns. Only what is
//! in the visible window and already played is drawn; runs narrower than a
//! pixel are binned into a density strip per row (`strip.rs`), so 100k
//! deliveries cost a few hundred rectangles, not one each.
use lease_sim::run::{DeadLetterCause, Delivery, Effect, LeaseEnd, MarkKind, Run, WorkerMarkKind};
use lease_view::{
    bar_of, message_hue, message_states, past_limit, row_of, ticks, BinWindow, LimitFate,
    MessageRows, Outages, Palette, Row, RunIndex, State, Strip, TimeScale, WorkerLanes,
};
use std::cell::Cell;
use std::sync::OnceLock;

use lease_view::palette::{DEAD_LETTERED_OPACITY, IN_FLIGHT_OPACITY};
use wasm_bindgen::JsValue;
use web_sys::CanvasRenderingContext2d;

use super::bars::{Fills, NarrowBars, Placed};
use super::glyphs::Layer;
use super::strip::Batches;
use super::TimelineView;

pub use lease_view::{AXIS_PX, GUTTER_PX};
/// Above this many runs in view, redelivery arrows and connectors are drawn
/// only for the highlighted message: beyond it they are a grey fog.
const LINK_LIMIT: u32 = 1500;
/// Opacity of the runs of other messages while one is highlighted.
const FADED: f64 = 0.22;

/// The palette's colours (`lease_view::palette`) as the canvas takes them:
/// written once per scheme rather than at every fill of every frame.
pub struct Inks {
    pub background: String,
    pub lane_even: String,
    pub lane_odd: String,
    pub text: String,
    pub muted: String,
    pub grid: String,
    pub overlap: String,
    pub rejected: String,
    pub crash: String,
    pub down: String,
    pub ack: String,
    pub restart: String,
    pub expiry: String,
    /// A lease past its deadline, until the check: the expiry's colour, lighter.
    pub lag: String,
    pub dead_letter: String,
    pub pause: String,
    pub unplayed: String,
    pub cursor: String,
    pub available: String,
    pub deleted: String,
    pub halo: String,
    /// `r,g,b`: the strip's shades set their own opacity.
    pub strip: String,
}

impl Inks {
    fn of(p: &Palette) -> Inks {
        Inks {
            background: p.background.css(),
            lane_even: p.lane_even.css(),
            lane_odd: p.lane_odd.css(),
            text: p.text.css(),
            muted: p.muted.css(),
            grid: p.grid.css(),
            overlap: p.overlap.css(),
            rejected: p.rejected.css(),
            crash: p.crash.css(),
            down: p.down.css(),
            ack: p.ack.css(),
            restart: p.restart.css(),
            expiry: p.expiry.css(),
            lag: format!(
                "rgba({},{})",
                p.expiry.rgb_triple(),
                lease_view::palette::LAG_OPACITY
            ),
            dead_letter: p.dead_letter.css(),
            pause: p.pause.css(),
            unplayed: p.unplayed.css(),
            cursor: p.cursor.css(),
            available: p.available.css(),
            deleted: p.deleted.css(),
            halo: p.halo.css(),
            strip: p.strip.rgb_triple(),
        }
    }

    pub fn of_scheme(dark: bool) -> &'static Inks {
        static INKS: [OnceLock<Inks>; 4] = [const { OnceLock::new() }; 4];
        let cb = colour_blind();
        INKS[usize::from(dark) + 2 * usize::from(cb)]
            .get_or_init(|| Inks::of(Palette::of_cb(dark, cb)))
    }
}

thread_local! {
    /// The palette of the paint under way (`<html data-palette>`), read
    /// from the page once a paint rather than at every fill.
    static COLOUR_BLIND: Cell<bool> = const { Cell::new(false) };
}

/// Reads the page's palette for the paints that follow.
pub fn read_palette() {
    COLOUR_BLIND.with(|c| c.set(lease_ui::theme::colour_blind()));
}

pub fn colour_blind() -> bool {
    COLOUR_BLIND.with(Cell::get)
}

/// Everything one paint needs.
pub struct Frame<'a> {
    pub run: &'a Run,
    pub index: &'a RunIndex,
    /// Time scale over the plot area (the canvas minus the gutter).
    pub scale: TimeScale,
    pub width: f64,
    pub height: f64,
    pub view: TimelineView,
    pub lanes: WorkerLanes,
    pub rows: MessageRows,
    pub playhead: u64,
    /// Hovered or selected message: its runs light up, the others fade.
    pub highlight: Option<u32>,
    pub cursor: Option<u64>,
    pub dark: bool,
    /// Strokes and labels grow by this (presenter mode).
    pub ink: f64,
    pub notes: &'a [String],
    /// A Shift+drag under way, in ms: the range a note is to go on.
    pub marking: Option<(f64, f64)>,
}

/// What was drawn, for the test hook (`TestHook` in mod.rs) and the browser tests.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Drawn {
    pub runs: u32,
    /// Centre of the widest run bar drawn, in CSS pixels of the canvas.
    pub target: Option<(f64, f64)>,
    target_w: f64,
    /// Pixel columns of density strip painted (runs under a pixel wide).
    pub density_columns: u32,
    /// Runs drawn with the red outline of an overlapping pair.
    pub overlap_outlines: u32,
    /// Top and bottom of the highlighted message's drawn runs or row.
    pub lit: Option<(f64, f64)>,
    /// Notes drawn in the range shown.
    pub notes: u32,
    /// The lowest edge of a note's label, in CSS pixels of the canvas.
    pub note_label_bottom: Option<f64>,
    /// Each note's label and each tick's label in the axis strip, as left
    /// and right edges in CSS pixels: no note's covers a tick's.
    pub note_labels: Vec<(f64, f64)>,
    pub tick_labels: Vec<(f64, f64)>,
    /// The widest lane or row label ("worker 15") as drawn, in CSS pixels:
    /// within the gutter left of the runs, which would cover its end.
    pub lane_label_px: f64,
    /// Lags drawn, from the deadline's x to the check's, the first few
    /// (the browser tests read them).
    pub lags: Vec<(f64, f64)>,
}

impl Drawn {
    pub(super) fn lag(&mut self, x0: f64, x1: f64) {
        if self.lags.len() < 16 {
            self.lags.push((x0, x1));
        }
    }

    fn light(&mut self, top: f64, bottom: f64) {
        let (t, b) = self.lit.unwrap_or((top, bottom));
        self.lit = Some((t.min(top), b.max(bottom)));
    }

    pub(super) fn consider(&mut self, x0: f64, x1: f64, y: f64) {
        if x1 - x0 > self.target_w {
            self.target_w = x1 - x0;
            self.target = Some(((x0 + x1) / 2.0, y));
        }
    }
}

pub fn hsla(id: u32, dark: bool, a: f64) -> String {
    super::bars::colour(message_hue(id), dark, a)
}

impl Frame<'_> {
    fn pal(&self) -> &'static Inks {
        Inks::of_scheme(self.dark)
    }
    /// Canvas x of a time.
    pub(super) fn x(&self, t: u64) -> f64 {
        GUTTER_PX + self.scale.x_of(t as f64)
    }
    fn window(&self) -> (u64, u64) {
        let t0 = self.scale.start_ms.max(0.0) as u64;
        let t1 = (self.scale.end_ms.ceil() as u64).min(self.playhead);
        (t0, t1)
    }
    pub(super) fn faded(&self, message: u32) -> bool {
        self.highlight.is_some_and(|h| h != message)
    }
}

/// The gutter's room for a lane's label: from its 6 px inset to 4 px short
/// of where the runs begin.
pub const LABEL_ROOM_PX: f64 = GUTTER_PX - 10.0;

/// The page's font at `px`.
fn font_px(px: u32) -> String {
    format!("{px}px system-ui, -apple-system, 'Segoe UI', sans-serif")
}

/// Sets the font the lane labels are written in, the page's size for the
/// canvas (which presenter mode's ink grows) unless the widest label would
/// then run under the runs, as "worker 10" at a projector's size does: then
/// the largest whole size at which it fits. Returns its width as drawn.
fn fit_labels(ctx: &CanvasRenderingContext2d, f: &Frame, widest: &str) -> f64 {
    let width =
        |ctx: &CanvasRenderingContext2d| ctx.measure_text(widest).map_or(0.0, |m| m.width());
    let mut px = (11.0 * f.ink).round() as u32;
    let mut w = width(ctx);
    while w > LABEL_ROOM_PX && px > 8 {
        px -= 1;
        ctx.set_font(&font_px(px));
        w = width(ctx);
    }
    w
}

pub fn paint(ctx: &CanvasRenderingContext2d, f: &Frame) -> Drawn {
    let p = f.pal();
    ctx.set_fill_style_str(&p.background);
    ctx.fill_rect(0.0, 0.0, f.width, f.height);
    // A whole number of pixels: the canvas's text stays crisp.
    ctx.set_font(&font_px((11.0 * f.ink).round() as u32));
    ctx.set_text_baseline("middle");

    let mut drawn = match f.view {
        TimelineView::Workers => paint_workers(ctx, f),
        TimelineView::Messages => paint_messages(ctx, f),
    };

    if f.view == TimelineView::Workers {
        paint_overrides(ctx, f);
    }
    paint_not_kept(ctx, f);
    paint_unplayed(ctx, f);
    paint_axis(ctx, f);
    let placed = super::notes::paint_notes(ctx, f);
    drawn.notes = placed.count;
    drawn.note_label_bottom = placed.bottom;
    drawn.note_labels = placed.labels;
    drawn.tick_labels = placed.ticks;
    if let Some(c) = f.cursor {
        if (f.scale.start_ms..=f.scale.end_ms).contains(&(c as f64)) {
            let x = f.x(c).round() + 0.5;
            ctx.set_stroke_style_str(&p.cursor);
            ctx.set_line_width(f.ink * 1.0);
            dash(ctx, &[3.0, 3.0]);
            line(ctx, x, AXIS_PX, x, f.height);
            dash(ctx, &[]);
        }
    }
    drawn
}

fn paint_workers(ctx: &CanvasRenderingContext2d, f: &Frame) -> Drawn {
    let p = f.pal();
    let run = f.run;
    let lanes = &f.lanes;
    let (t0, t1) = f.window();
    let mut drawn = Drawn::default();

    // Lanes, labels and faults first: runs are drawn over them.
    let label_px = fit_labels(
        ctx,
        f,
        &format!("worker {}", lanes.workers.saturating_sub(1)),
    );
    drawn.lane_label_px = label_px;
    for w in 0..lanes.workers {
        let top = lanes.lane_top(w);
        let h = lanes.lane_px() - lanes.gap_px;
        if top + h < AXIS_PX || top > f.height {
            continue;
        }
        ctx.set_fill_style_str(if w % 2 == 0 {
            &p.lane_even
        } else {
            &p.lane_odd
        });
        ctx.fill_rect(0.0, top, f.width, h);
        ctx.set_fill_style_str(&p.text);
        ctx.set_text_align("left");
        let _ = ctx.fill_text(&format!("worker {w}"), 6.0, top + lanes.row_px.min(h) / 2.0);
    }
    ctx.set_font(&font_px((11.0 * f.ink).round() as u32));
    paint_worker_faults(ctx, f);
    paint_grid(ctx, f);

    ctx.save();
    ctx.begin_path();
    ctx.rect(GUTTER_PX, AXIS_PX, f.width - GUTTER_PX, f.height - AXIS_PX);
    ctx.clip();

    // Row by row: runs a pixel wide or more become bars, narrower ones are
    // binned into the row's density strip. Strips go under the bars, marks
    // (overlaps, expiries, dead letters) over them, links last.
    let mut strip = Strip::new(&f.scale);
    let mut strips = Batches::default();
    let mut bars: Vec<(u32, Row, f64, f64)> = Vec::new();
    // Every run in view, and whether it went into a strip.
    let mut in_view: Vec<(u32, bool)> = Vec::new();
    let rows: Vec<(Row, f64, f64)> = f
        .index
        .all_rows()
        .map(|row| {
            let (y, h) = lanes.row_span(row);
            (row, y, h)
        })
        .filter(|(_, y, h)| y + h >= AXIS_PX && *y <= f.height)
        .collect();
    // Links need every run in view, binned or not, but only while there are
    // few; past that they are drawn for the highlighted message alone, whose
    // runs are never binned. The index bounds the count without reading runs.
    let bound: usize = rows
        .iter()
        .map(|(row, _, _)| f.index.visible_bound(*row, t0, t1))
        .sum();
    let window = BinWindow {
        scale: f.scale,
        t0,
        t1,
        playhead: f.playhead,
        keep: f.highlight,
    };
    let (mut wide, mut binned) = (Vec::new(), Vec::new());
    for &(row, y, h) in &rows {
        strip.clear();
        wide.clear();
        let keep_binned = (bound <= LINK_LIMIT as usize).then_some(&mut binned);
        drawn.runs += f
            .index
            .bin_row(row, &window, &mut strip, &mut wide, keep_binned);
        for &ix in &wide {
            bars.push((ix, row, y, h));
            in_view.push((ix, false));
        }
        strips.add(&strip, y, h);
    }
    in_view.extend(binned.iter().map(|&ix| (ix, true)));
    let faded = if f.highlight.is_some() { 0.35 } else { 1.0 };
    strips.paint_shades(ctx, &p.strip, 0.85 * faded);
    let mut narrow = NarrowBars::default();
    let mut full = Vec::new();
    for &(ix, row, y, h) in &bars {
        let d = &run.deliveries[ix as usize];
        let placed = Placed { ix, d, row, y, h };
        if !narrow.take(f, &placed, &mut drawn) {
            full.push(placed);
        }
    }
    ctx.set_global_alpha(if f.highlight.is_some() { 0.22 } else { 1.0 });
    narrow.paint_bars(ctx, f.dark, p);
    ctx.set_global_alpha(1.0);
    // Glyphs as they are, and faded while another message is highlighted.
    let mut fills = [Fills::default(), Fills::default()];
    let mut glyphs = [Layer::default(), Layer::default()];
    for placed in &full {
        let faded = usize::from(f.faded(placed.d.message));
        let (fill, layer) = (&mut fills[faded], &mut glyphs[faded]);
        paint_delivery(f, placed, fill, layer, &mut drawn);
    }
    ctx.set_global_alpha(FADED);
    fills[1].paint(ctx, f.dark, p);
    ctx.set_global_alpha(1.0);
    fills[0].paint(ctx, f.dark, p);
    glyphs[1].paint(ctx, p, FADED, f.ink);
    glyphs[0].paint(ctx, p, 1.0, f.ink);
    ctx.set_global_alpha(faded);
    narrow.paint_marks(ctx, p);
    strips.paint_marks(ctx, p);
    ctx.set_global_alpha(1.0);
    drawn.density_columns = strips.columns;

    let few = drawn.runs <= LINK_LIMIT;
    for &(ix, _) in &in_view {
        let d = &run.deliveries[ix as usize];
        if few || f.highlight == Some(d.message) {
            paint_links(ctx, f, ix, d);
        }
    }
    paint_dead_letters(ctx, f, &in_view);
    ctx.restore();
    drawn
}

/// A sub-pixel run into its row's strip, with what went wrong around it.
fn bin(strip: &mut Strip, f: &Frame, ix: u32, d: &Delivery, start: u64, end: u64) {
    let overlap = d.overlaps.is_some() && d.started_at.is_some_and(|s| s <= f.playhead);
    strip.add_run(start, end, overlap);
    if d.lease_end == LeaseEnd::Expired && d.lease_ended_at <= f.playhead {
        strip.add_expiry(d.lease_ended_at);
    }
    if let Some(at) = dead_lettered_at(f, ix, d) {
        strip.add_dead_letter(at);
    }
}

/// When the message of its last delivery `ix` went past its delivery
/// limit (dead-lettered, dropped or left in the stream).
fn dead_lettered_at(f: &Frame, ix: u32, d: &Delivery) -> Option<u64> {
    past_limit_of(f, ix, d).map(|(_, at, _)| at)
}

/// The fate past the limit of the message whose last delivery is `ix`, once
/// the playhead has reached it.
fn past_limit_of(f: &Frame, ix: u32, d: &Delivery) -> Option<(LimitFate, u64, DeadLetterCause)> {
    if f.index.next_of(ix).is_some() {
        return None;
    }
    f.run
        .messages
        .get(d.message as usize)
        .and_then(|m| past_limit(m.fate))
        .filter(|&(_, at, _)| at <= f.playhead)
}

/// The lease band, the run bar, the outlines and the marks of one delivery,
/// into the batches they are painted in with all the others.
fn paint_delivery(f: &Frame, p: &Placed, fills: &mut Fills, layer: &mut Layer, drawn: &mut Drawn) {
    let Placed { ix, d, y, h, .. } = *p;
    let (r, waiting) = fills.delivery(f, p, drawn);
    let (_, by, w, bh) = r;
    if waiting && w > 6.0 && bh > 3.0 {
        // Leased but never started: a dashed outline over the faded bar.
        layer.waiting.push((r, hsla(d.message, f.dark, 0.9)));
    }
    if f.highlight == Some(d.message) {
        layer.lit.push(r);
        drawn.light(by, by + bh);
    }
    // An overlapping run cannot be missed: a red outline and a red flag at its start.
    // Both runs of the pair, as the legend says.
    if f.index.overlapping_by(f.run, ix, f.playhead) {
        layer.overlaps.push(r);
        drawn.overlap_outlines += 1;
    }
    // The expiry: a tick across the row where the lease ran out.
    if d.lease_end == LeaseEnd::Expired && d.lease_ended_at <= f.playhead {
        layer
            .expiries
            .push((f.x(d.lease_ended_at).round() + 0.5, y, h));
    }

    // Marks: heartbeats along the top edge, commit and ack at the middle.
    let mid = by + bh / 2.0;
    let glyph_r = (bh / 2.0).clamp(3.0, 5.0);
    let mut last_x = [f64::NEG_INFINITY; 8];
    for &mi in f.index.marks_of(ix) {
        let Some(m) = f.run.marks.get(mi as usize) else {
            continue;
        };
        if m.t > f.playhead {
            break;
        }
        let x = f.x(m.t);
        if x < GUTTER_PX - 6.0 || x > f.width + 6.0 {
            continue;
        }
        let k = m.kind as usize;
        if x - last_x[k] < 3.0 {
            continue;
        }
        last_x[k] = x;
        match m.kind {
            MarkKind::ExtendOk => layer.heartbeats.push((x, by - 2.0, by + 3.0)),
            MarkKind::ExtendRejected => layer.rejected_heartbeats.push((x, by + 1.0, 3.0)),
            MarkKind::AckOk => layer.acks.push((x, mid, glyph_r)),
            MarkKind::AckRejected => layer.rejected_acks.push((x, mid, glyph_r)),
            MarkKind::AckNoOp => layer.no_op_acks.push((x, mid, glyph_r)),
            MarkKind::Release => layer.releases[0].push((x, mid)),
            MarkKind::ReleaseRejected => layer.releases[1].push((x, mid)),
            MarkKind::Commit => {
                let kind = match d.effect {
                    Effect::Applied => 0,
                    Effect::Duplicate | Effect::LostUpdate => 1,
                    Effect::FenceRejected | Effect::NoCommit => 2,
                };
                layer.commits[kind].push((x, mid));
            }
        }
    }
}

/// A redelivery arrow from an expiry or release to the next delivery, and
/// the connector from an overlapping run to its twin.
fn paint_links(ctx: &CanvasRenderingContext2d, f: &Frame, ix: u32, d: &Delivery) {
    let p = f.pal();
    let run = f.run;
    let slots = f.index.slots;
    let mid = |d: &Delivery| {
        let (y, h) = f.lanes.row_span(row_of(d, slots));
        y + h / 2.0
    };
    let alpha = if f.faded(d.message) { 0.2 } else { 0.9 };
    if let (Some(n), true) = (
        f.index.next_of(ix),
        matches!(d.lease_end, LeaseEnd::Expired | LeaseEnd::Released),
    ) {
        let next = &run.deliveries[n as usize];
        if next.received_at <= f.playhead && d.lease_ended_at <= f.playhead {
            let (ax, ay) = (f.x(d.lease_ended_at), mid(d));
            let (bx, by) = (f.x(next.received_at), mid(next));
            ctx.set_global_alpha(alpha);
            ctx.set_stroke_style_str(&p.muted);
            ctx.set_line_width(f.ink * 1.25);
            dash(ctx, &[4.0, 3.0]);
            ctx.begin_path();
            ctx.move_to(ax, ay);
            let lift = ((by - ay).abs() / 2.0).max(14.0);
            let up = if by >= ay { -lift } else { lift };
            ctx.bezier_curve_to(ax + 20.0, ay + up, bx - 20.0, by + up, bx, by);
            ctx.stroke();
            dash(ctx, &[]);
            arrow_head(ctx, bx, by, bx - 20.0, by + up, &p.muted);
            ctx.set_global_alpha(1.0);
        }
    }
    if let (Some(t), Some(s)) = (d.overlaps, d.started_at) {
        if let Some(twin) = run.deliveries.get(t as usize) {
            if s <= f.playhead {
                let x = f.x(s).round() + 0.5;
                ctx.set_global_alpha(alpha);
                ctx.set_stroke_style_str(&p.overlap);
                ctx.set_line_width(f.ink * 1.5);
                dash(ctx, &[2.0, 2.0]);
                line(ctx, x, mid(d), x, mid(twin));
                dash(ctx, &[]);
                for y in [mid(d), mid(twin)] {
                    ctx.set_fill_style_str(&p.overlap);
                    ctx.begin_path();
                    let _ = ctx.arc(x, y, 2.5, 0.0, std::f64::consts::TAU);
                    ctx.fill();
                }
                ctx.set_global_alpha(1.0);
            }
        }
    }
}

/// "DLQ expired", "dropped (failed)", "stays, advisory (expired)" where the
/// message's last delivery sits. A
/// binned run's dead letter is a mark on its strip instead: labels every
/// 70 px along every lane would bury a zoomed-out view.
fn paint_dead_letters(ctx: &CanvasRenderingContext2d, f: &Frame, in_view: &[(u32, bool)]) {
    let p = f.pal();
    let slots = f.index.slots;
    // Labels already placed, per worker: runs arrive row by row, not in x
    // order, so a label is checked against all of its lane's, not the last.
    let mut placed: Vec<Vec<f64>> = vec![Vec::new(); f.index.workers as usize];
    // Labels go on after every mark, so that no mark cuts through one.
    let mut labels: Vec<(String, f64, f64, f64)> = Vec::new();
    for &(ix, binned) in in_view {
        let d = &f.run.deliveries[ix as usize];
        if binned {
            continue;
        }
        let Some((fate, at, cause)) = past_limit_of(f, ix, d) else {
            continue;
        };
        let (y, h) = f.lanes.row_span(row_of(d, slots));
        let x = f.x(at);
        ctx.set_global_alpha(if f.faded(d.message) { 0.25 } else { 1.0 });
        ctx.set_fill_style_str(&p.dead_letter);
        ctx.fill_rect(x - 1.0, y, 2.5, h);
        let w = d.worker as usize;
        if let Some(lane) = placed.get_mut(w) {
            if lane.iter().all(|l| (x - l).abs() > 70.0) {
                let text = fate.mark(cause);
                let alpha = if f.faded(d.message) { 0.25 } else { 1.0 };
                labels.push((text, x + 3.0, y + h / 2.0, alpha));
                lane.push(x);
            }
        }
        ctx.set_global_alpha(1.0);
    }
    for (text, x, y, alpha) in labels {
        ctx.set_global_alpha(alpha);
        label(ctx, &text, x, y, &p.dead_letter, &p.halo);
    }
    ctx.set_global_alpha(1.0);
}

/// Crashes, restarts and pauses across the worker's whole lane.
fn paint_worker_faults(ctx: &CanvasRenderingContext2d, f: &Frame) {
    let p = f.pal();
    let lanes = &f.lanes;
    let mut outages = Outages::new(lanes.workers);
    let lane_h = lanes.lane_px() - lanes.gap_px;
    let shade = |ctx: &CanvasRenderingContext2d, w: u32, from: u64, to: u64, kind| {
        let to = to.min(f.playhead);
        if to <= from {
            return;
        }
        let x0 = f.x(from).max(GUTTER_PX);
        let x1 = f.x(to).min(f.width);
        if x1 <= x0 {
            return;
        }
        let top = lanes.lane_top(w);
        ctx.set_fill_style_str(if kind == WorkerMarkKind::Pause {
            &p.pause
        } else {
            &p.down
        });
        ctx.fill_rect(x0, top, x1 - x0, lane_h);
        if x1 - x0 > 40.0 {
            let text = if kind == WorkerMarkKind::Pause {
                "paused"
            } else {
                "down"
            };
            ctx.set_fill_style_str(&p.muted);
            ctx.set_text_align("left");
            let _ = ctx.fill_text(text, x0 + 3.0, top + lane_h - 6.0);
        }
    };
    for m in &f.run.worker_marks {
        if m.t > f.playhead {
            break;
        }
        if m.worker >= lanes.workers {
            continue;
        }
        if let Some(o) = outages.mark(m) {
            shade(ctx, o.worker, o.from, o.to, o.kind);
        }
        let x = f.x(m.t);
        if x < GUTTER_PX || x > f.width {
            continue;
        }
        let top = lanes.lane_top(m.worker);
        let (c, text) = match m.kind {
            WorkerMarkKind::Crash => (&p.crash, "crash"),
            WorkerMarkKind::Restart => (&p.restart, "▶ restart"),
            WorkerMarkKind::Pause => (&p.muted, "⏸ pause"),
            WorkerMarkKind::Resume => (&p.muted, "resume"),
        };
        ctx.set_stroke_style_str(c);
        ctx.set_line_width(
            f.ink
                * if m.kind == WorkerMarkKind::Crash {
                    2.5
                } else {
                    1.5
                },
        );
        line(ctx, x, top, x, top + lane_h);
        if m.kind != WorkerMarkKind::Resume {
            label(ctx, text, x + 3.0, top + 7.0, c, &p.halo);
        }
    }
    for o in outages.still_open(f.run.end_ms) {
        shade(ctx, o.worker, o.from, o.to, o.kind);
    }
}

fn paint_messages(ctx: &CanvasRenderingContext2d, f: &Frame) -> Drawn {
    let p = f.pal();
    let run = f.run;
    let rows = &f.rows;
    let (t0, t1) = f.window();
    let mut drawn = Drawn::default();
    paint_grid(ctx, f);
    let mut strip = Strip::new(&f.scale);
    let mut strips = Batches::default();
    let range = rows.visible(AXIS_PX, f.height);
    let base_font = ctx.font();
    drawn.lane_label_px = fit_labels(ctx, f, &format!("msg {}", rows.count.saturating_sub(1)));
    let label_font = ctx.font();
    ctx.set_font(&base_font);
    for m in range {
        let y = rows.row_top(m);
        let h = rows.row_px;
        let Some(msg) = run.messages.get(m as usize) else {
            continue;
        };
        if msg.arrived_at > f.playhead {
            continue;
        }
        let faded = f.faded(m);
        ctx.set_global_alpha(if faded { 0.3 } else { 1.0 });
        if h >= 10.0 {
            ctx.set_fill_style_str(&p.muted);
            ctx.set_text_align("left");
            ctx.set_font(&label_font);
            let _ = ctx.fill_text(&format!("msg {m}"), 6.0, y + h / 2.0);
            ctx.set_font(&base_font);
        }
        ctx.save();
        ctx.begin_path();
        ctx.rect(GUTTER_PX, AXIS_PX, f.width - GUTTER_PX, f.height - AXIS_PX);
        ctx.clip();
        let inner = (h - 1.0).max(1.0);
        strip.clear();
        for s in message_states(run, m, f.playhead) {
            if s.to < t0 || s.from > t1.max(t0) {
                continue;
            }
            let x0 = f.x(s.from);
            let x1 = f.x(s.to).max(x0 + 1.0);
            match s.state {
                State::Available => {
                    ctx.set_fill_style_str(&p.available);
                    ctx.fill_rect(x0, y + inner * 0.3, x1 - x0, inner * 0.4);
                }
                State::InFlight { delivery } => {
                    let d = &run.deliveries[delivery as usize];
                    ctx.set_fill_style_str(&hsla(m, f.dark, IN_FLIGHT_OPACITY));
                    ctx.fill_rect(x0, y, x1 - x0, inner);
                    // The handler's run inside its lease, solid.
                    let bar = bar_of(d, run.end_ms);
                    let end = bar.end.min(f.playhead);
                    let started = d.started_at.filter(|st| *st <= f.playhead);
                    if started.is_some()
                        && f.x(end) - f.x(bar.start) < 1.0
                        && f.highlight != Some(m)
                    {
                        drawn.runs += 1;
                        bin(&mut strip, f, delivery, d, bar.start, end);
                        continue;
                    }
                    if let Some(st) = started {
                        let rx0 = f.x(st);
                        let rx1 = f.x(bar.end.min(f.playhead)).max(rx0 + 1.0);
                        ctx.set_fill_style_str(&hsla(m, f.dark, 1.0));
                        ctx.fill_rect(rx0, y + inner * 0.2, rx1 - rx0, inner * 0.6);
                        drawn.runs += 1;
                        if !faded {
                            drawn.consider(rx0.max(GUTTER_PX), rx1.min(f.width), y + inner / 2.0);
                        }
                        if f.index.overlapping_by(f.run, delivery, f.playhead) {
                            drawn.overlap_outlines += 1;
                            ctx.set_stroke_style_str(&p.overlap);
                            ctx.set_line_width(f.ink * 1.5);
                            ctx.stroke_rect(rx0, y + 0.75, rx1 - rx0, inner - 1.5);
                        }
                    }
                    if d.lease_end == LeaseEnd::Expired && d.lease_ended_at <= f.playhead {
                        ctx.set_fill_style_str(&p.expiry);
                        ctx.fill_rect(f.x(d.lease_ended_at) - 1.0, y, 2.0, inner);
                    }
                }
                State::Deleted => {
                    ctx.set_fill_style_str(&p.deleted);
                    ctx.fill_rect(x0, y + inner / 2.0 - 0.5, x1 - x0, 1.0);
                }
                State::DeadLettered(cause) | State::Stayed(cause) => {
                    // Held still: in the dead-letter queue, or in the
                    // stream that delivers it no more.
                    let fate = match s.state {
                        State::Stayed(_) => LimitFate::Stayed,
                        _ => LimitFate::DeadLettered,
                    };
                    ctx.set_fill_style_str(&p.dead_letter);
                    ctx.set_global_alpha(if faded { 0.15 } else { DEAD_LETTERED_OPACITY });
                    ctx.fill_rect(x0, y, x1 - x0, inner);
                    ctx.set_global_alpha(if faded { 0.3 } else { 1.0 });
                    if h >= 10.0 {
                        label(
                            ctx,
                            &fate.mark(cause),
                            x0.max(GUTTER_PX) + 3.0,
                            y + h / 2.0,
                            &p.dead_letter,
                            &p.halo,
                        );
                    }
                }
                State::Dropped(cause) => {
                    // Gone: drawn as a deleted message is, with its word.
                    ctx.set_fill_style_str(&p.deleted);
                    ctx.fill_rect(x0, y + inner / 2.0 - 0.5, x1 - x0, 1.0);
                    if h >= 10.0 {
                        label(
                            ctx,
                            &LimitFate::Dropped.mark(cause),
                            x0.max(GUTTER_PX) + 3.0,
                            y + h / 2.0,
                            &p.dead_letter,
                            &p.halo,
                        );
                    }
                }
            }
        }
        strips.add(&strip, y + inner * 0.2, inner * 0.6);
        if f.highlight == Some(m) {
            drawn.light(y, y + inner);
            ctx.set_stroke_style_str(&p.text);
            ctx.set_line_width(f.ink * 1.0);
            ctx.stroke_rect(
                GUTTER_PX + 0.5,
                y + 0.5,
                f.width - GUTTER_PX - 1.0,
                inner - 1.0,
            );
        }
        ctx.restore();
        ctx.set_global_alpha(1.0);
    }
    ctx.save();
    ctx.begin_path();
    ctx.rect(GUTTER_PX, AXIS_PX, f.width - GUTTER_PX, f.height - AXIS_PX);
    ctx.clip();
    let faded = if f.highlight.is_some() { 0.35 } else { 1.0 };
    strips.paint_shades(ctx, &p.strip, 0.85 * faded);
    ctx.set_global_alpha(faded);
    strips.paint_marks(ctx, p);
    ctx.restore();
    drawn.density_columns = strips.columns;
    drawn
}

fn paint_grid(ctx: &CanvasRenderingContext2d, f: &Frame) {
    let (_, ticks) = ticks(&f.scale, 90.0);
    ctx.set_stroke_style_str(&f.pal().grid);
    ctx.set_line_width(f.ink * 1.0);
    for (t, _) in &ticks {
        let x = (GUTTER_PX + f.scale.x_of(*t)).round() + 0.5;
        line(ctx, x, AXIS_PX, x, f.height);
    }
}

/// What has not been played yet is veiled, and the playhead is a line.
fn paint_unplayed(ctx: &CanvasRenderingContext2d, f: &Frame) {
    let p = f.pal();
    if f.playhead >= f.run.end_ms {
        return;
    }
    let x = f.x(f.playhead).max(GUTTER_PX);
    if x < f.width {
        ctx.set_fill_style_str(&p.unplayed);
        ctx.fill_rect(x, AXIS_PX, f.width - x, f.height - AXIS_PX);
        ctx.set_stroke_style_str(&p.text);
        ctx.set_line_width(f.ink * 1.5);
        line(ctx, x, AXIS_PX, x, f.height);
    }
}

/// A summarised run keeps its deliveries only up to `kept_until_ms`: past it
/// the lanes are empty because nothing was kept, not because nothing ran.
fn paint_not_kept(ctx: &CanvasRenderingContext2d, f: &Frame) {
    let Some(s) = &f.run.summarised else {
        return;
    };
    if s.kept_until_ms >= f.run.end_ms {
        return;
    }
    let p = f.pal();
    let x = f.x(s.kept_until_ms).max(GUTTER_PX);
    if x >= f.width {
        return;
    }
    ctx.set_fill_style_str(&p.pause);
    ctx.fill_rect(x, AXIS_PX, f.width - x, f.height - AXIS_PX);
    ctx.set_stroke_style_str(&p.muted);
    ctx.set_line_width(f.ink * 1.0);
    dash(ctx, &[4.0, 3.0]);
    line(ctx, x.round() + 0.5, AXIS_PX, x.round() + 0.5, f.height);
    dash(ctx, &[]);
    if f.width - x > 180.0 {
        ctx.set_text_align("left");
        label(
            ctx,
            "runs past here not kept (summarised run)",
            x + 6.0,
            AXIS_PX + 12.0,
            &p.muted,
            &p.halo,
        );
    }
}

/// The time axis's ticks as drawn in the canvas's current font: each
/// tick's x, its label's centre and half width, and the label.
pub(super) fn axis_ticks(
    ctx: &CanvasRenderingContext2d,
    f: &Frame,
) -> Vec<(f64, f64, f64, String)> {
    let (_, ticks) = ticks(&f.scale, 90.0);
    ticks
        .into_iter()
        .map(|(t, text)| {
            let x = (GUTTER_PX + f.scale.x_of(t)).round() + 0.5;
            // Keep the first and last labels inside the canvas.
            let half = ctx.measure_text(&text).map_or(14.0, |m| m.width() / 2.0);
            let tx = x.clamp(
                GUTTER_PX + half,
                (f.width - half - 2.0).max(GUTTER_PX + half),
            );
            (x, tx, half, text)
        })
        .collect()
}

fn paint_axis(ctx: &CanvasRenderingContext2d, f: &Frame) {
    let p = f.pal();
    ctx.set_fill_style_str(&p.background);
    ctx.fill_rect(0.0, 0.0, f.width, AXIS_PX);
    ctx.set_fill_style_str(&p.background);
    ctx.fill_rect(0.0, 0.0, GUTTER_PX - 2.0, AXIS_PX);
    ctx.set_stroke_style_str(&p.muted);
    ctx.set_fill_style_str(&p.text);
    ctx.set_line_width(f.ink * 1.0);
    ctx.set_text_align("center");
    for (x, tx, _, text) in axis_ticks(ctx, f) {
        line(ctx, x, AXIS_PX - 5.0, x, AXIS_PX);
        let _ = ctx.fill_text(&text, tx, AXIS_PX / 2.0 - 1.0);
    }
    line(ctx, GUTTER_PX, AXIS_PX - 0.5, f.width, AXIS_PX - 0.5);
    ctx.set_text_align("left");
    ctx.set_fill_style_str(&p.muted);
    let _ = ctx.fill_text("time", 6.0, AXIS_PX / 2.0 - 1.0);
    if let Some(c) = f.cursor {
        if (f.scale.start_ms..=f.scale.end_ms).contains(&(c as f64)) {
            let text = lease_view::clock(c);
            let x = f.x(c);
            ctx.set_text_align("center");
            label(ctx, &text, x, AXIS_PX / 2.0 - 1.0, &p.text, &p.background);
        }
    }
}

fn line(ctx: &CanvasRenderingContext2d, x0: f64, y0: f64, x1: f64, y1: f64) {
    ctx.begin_path();
    ctx.move_to(x0, y0);
    ctx.line_to(x1, y1);
    ctx.stroke();
}

pub(super) fn dash(ctx: &CanvasRenderingContext2d, segments: &[f64]) {
    let arr = js_sys::Array::new();
    for s in segments {
        arr.push(&JsValue::from_f64(*s));
    }
    let _ = ctx.set_line_dash(&arr);
}

fn arrow_head(ctx: &CanvasRenderingContext2d, x: f64, y: f64, fx: f64, fy: f64, colour: &str) {
    let [left, right] = lease_view::arrow_head((x, y), (fx, fy), 6.0);
    ctx.set_fill_style_str(colour);
    ctx.begin_path();
    ctx.move_to(x, y);
    ctx.line_to(left.0, left.1);
    ctx.line_to(right.0, right.1);
    ctx.close_path();
    ctx.fill();
}

/// Text on a halo so it reads over bars.
/// Half the height of a label's halo.
pub(super) const LABEL_HALF_PX: f64 = 7.0;

pub(super) fn label(
    ctx: &CanvasRenderingContext2d,
    text: &str,
    x: f64,
    y: f64,
    colour: &str,
    halo: &str,
) {
    let w = ctx.measure_text(text).map(|m| m.width()).unwrap_or(0.0);
    let align = ctx.text_align();
    let left = if align == "center" { x - w / 2.0 } else { x };
    ctx.set_fill_style_str(halo);
    ctx.fill_rect(left - 2.0, y - LABEL_HALF_PX, w + 4.0, 2.0 * LABEL_HALF_PX);
    ctx.set_fill_style_str(colour);
    let _ = ctx.fill_text(text, x, y);
}

/// A run override (docs/MODEL.md "Run overrides") as a hollow diamond at
/// the run's end (its start, for a run that hangs, or the first of it in
/// view), named beside it: a shape no other mark has, so that it reads
/// without its colour.
fn paint_overrides(ctx: &CanvasRenderingContext2d, f: &Frame) {
    let p = f.pal();
    let run = f.run;
    for fault in &run.scenario.faults {
        let lease_sim::scenario::Fault::Run {
            message,
            receipt,
            outcome: Some(outcome),
            ..
        } = *fault
        else {
            continue;
        };
        let Some(d) = run
            .messages
            .get(message as usize)
            .into_iter()
            .flat_map(|m| m.deliveries.iter())
            .filter_map(|&ix| run.deliveries.get(ix as usize))
            .find(|d| d.receipt == receipt)
        else {
            continue;
        };
        let Some(t) = d.ended_at.or(d.started_at).filter(|t| *t <= f.playhead) else {
            continue;
        };
        // Kept on the part of the run in view: a hung run's start may be
        // long before it.
        let (from, to) = lease_view::extent_of(d, run.end_ms.min(f.playhead));
        let (left, right) = (f.x(from).max(GUTTER_PX), f.x(to).min(f.width - 4.0));
        let (y, h) = f.lanes.row_span(lease_view::row_of(d, f.index.slots));
        if left > right || y + h < AXIS_PX || y > f.height {
            continue;
        }
        let x = f.x(t).clamp(left, right);
        let (mid, r) = (y + h / 2.0, (h / 2.0).clamp(4.0, 7.0));
        ctx.set_stroke_style_str(&p.crash);
        ctx.set_fill_style_str(&p.halo);
        ctx.set_line_width(2.0);
        ctx.begin_path();
        ctx.move_to(x, mid - r);
        ctx.line_to(x + r, mid);
        ctx.line_to(x, mid + r);
        ctx.line_to(x - r, mid);
        ctx.close_path();
        ctx.fill();
        ctx.stroke();
        let text = match outcome {
            lease_sim::scenario::RunOutcome::Hang => "hang",
            lease_sim::scenario::RunOutcome::Fail => "fail",
            lease_sim::scenario::RunOutcome::LoseAck => "ack lost",
        };
        ctx.set_text_align("left");
        label(ctx, text, x + r + 3.0, mid, &p.crash, &p.halo);
    }
}
