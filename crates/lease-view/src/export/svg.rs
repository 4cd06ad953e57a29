//! The timeline as a standalone SVG 1.1 file: the canvas's picture (see the
//! page's `timeline/draw.rs`) redrawn as vector shapes over a chosen time
//! range, at full run length (no playhead veil, no highlight). It opens in a
//! browser, an editor or a slide deck with nothing else beside it: styles
//! are embedded, fonts are the system's, and there is no link outside the
//! file. Its colours are the canvas's (`crate::palette`), each `rgba()`
//! written as a colour and an opacity since SVG 1.1 has no `rgba()`.

use lease_sim::run::{Delivery, Effect, Fate, LeaseEnd, MarkKind, Run, WorkerMarkKind};
use std::fmt::{self, Write};

use crate::format::clock;
use crate::index::RunIndex;
use crate::lanes::{bar_of, extent_of, lag_of, row_of, Row, WorkerLanes, BUFFER_PX, LANE_GAP_PX};
use crate::lanes::{AXIS_PX, GUTTER_PX};
use crate::limit::{past_limit, LimitFate};
use crate::note::{Note, NoteOn};
use crate::outages::Outages;
use crate::palette::{
    hsl_colour, message_hsl, Palette, BUFFERED_OPACITY, DEAD_LETTERED_OPACITY, IN_FLIGHT_OPACITY,
    LEASE_OPACITY,
};
use crate::scale::TimeScale;
use crate::states::{message_states, State};
use crate::ticks::ticks;
use crate::view::TimelineView;
use lease_format::display::duration;

#[derive(Debug, Clone, PartialEq)]
pub struct SvgOptions {
    /// Width of the whole picture, labels included.
    pub width_px: f64,
    /// The visible range in ms of the run. Clamped to the run; swapped when
    /// reversed; widened to `MIN_SPAN_MS` when narrower. A non-finite
    /// `from_ms` means the start, a non-finite `to_ms` the end.
    pub from_ms: f64,
    pub to_ms: f64,
    pub dark: bool,
    /// The colour-blind-safe palette (`palette=cb`), as the canvas paints it.
    pub colour_blind: bool,
    pub view: TimelineView,
    /// Heading and `<title>`; empty: the scenario's title, else its name.
    pub title: String,
}

impl Default for SvgOptions {
    fn default() -> Self {
        SvgOptions {
            width_px: 1200.0,
            from_ms: 0.0,
            to_ms: f64::INFINITY,
            dark: false,
            colour_blind: false,
            view: TimelineView::Workers,
            title: String::new(),
        }
    }
}

/// More run bars than this and the file grows past tens of megabytes while
/// the picture is already a solid smear: the rest are left out and a note
/// asks for a narrower range.
pub const MAX_RUNS: usize = 50_000;
/// The Messages view's own limit: a row per message makes the file tall
/// even when each message ran once.
pub const MAX_MESSAGE_ROWS: usize = 20_000;
/// As on the canvas: above this many runs, redelivery arrows and twin
/// connectors are a grey fog, so they are left out.
const LINK_LIMIT: usize = 1_500;
/// Hover titles on each run cost ~100 bytes apiece: only for small pictures.
const TOOLTIP_LIMIT: usize = 2_000;

const HEAD_PX: f64 = 44.0;
const RIGHT_PX: f64 = 10.0;
const ROW_PX: f64 = 16.0;
const MESSAGE_ROW_PX: f64 = 14.0;
const LEGEND_ROW_PX: f64 = 18.0;
/// Text is measured by the viewer, not here: an average 11 px glyph width
/// is close enough to place halos and wrap the legend.
const CHAR_PX: f64 = 6.2;

fn style(p: &Palette) -> String {
    format!(
        "text{{font-family:system-ui,-apple-system,'Segoe UI',Helvetica,Arial,sans-serif;\
font-size:11px;fill:{text}}}\
.title{{font-size:14px;font-weight:600}}\
.sub,.muted,.msg-label{{fill:{muted}}}\
.bg{{fill:{bg}}}.lane-a{{fill:{lane_a}}}.lane-b{{fill:{lane_b}}}\
.grid{{stroke:{grid};stroke-opacity:{grid_a};stroke-width:1}}\
.axis{{stroke:{muted};stroke-width:1}}\
.lease{{fill-opacity:{lease_a}}}.in-flight{{fill-opacity:{in_flight_a}}}.buffered{{fill-opacity:{buffered_a}}}\
.buffered-edge{{fill:none;stroke-width:1;stroke-dasharray:2 2;stroke-opacity:0.9}}\
.overlap{{fill:none;stroke:{overlap};stroke-width:2}}\
.overlap-thin{{fill:none;stroke:{overlap};stroke-width:1.5}}\
.flag,.twin-end{{fill:{overlap}}}\
.twin{{stroke:{overlap};stroke-width:1.5;stroke-dasharray:2 2;stroke-opacity:0.9}}\
.redelivery{{fill:none;stroke:{muted};stroke-width:1.25;stroke-dasharray:4 3;stroke-opacity:0.9}}\
.arrow{{fill:{muted};fill-opacity:0.9}}\
.expiry{{stroke:{expiry};stroke-width:2}}.expiry-fill{{fill:{expiry}}}\
.lag{{fill:{expiry};fill-opacity:{lag_a}}}.deadline{{stroke:{expiry};stroke-width:1}}\
.hb{{stroke:{text};stroke-width:1}}\
.hb-rejected{{fill:none;stroke:{rejected};stroke-width:1.5}}\
.ack{{fill:none;stroke:{ack};stroke-width:2}}\
.ack-rejected{{fill:none;stroke:{rejected};stroke-width:2}}\
.ack-no-op{{fill:none;stroke:{ack};stroke-width:1.5;stroke-dasharray:2 1.5}}\
.ack-halo{{fill:none;stroke:{halo};stroke-opacity:{halo_a};stroke-width:4}}\
.release{{fill:none;stroke:{muted};stroke-width:1.5}}\
.release-rejected{{fill:none;stroke:{rejected};stroke-width:1.5}}\
.commit,.commit-duplicate{{stroke:{halo};stroke-width:1}}\
.commit{{fill:{text}}}.commit-duplicate{{fill:{rejected}}}.commit-void{{fill:none;stroke:{muted};stroke-width:1.5}}\
.cut{{stroke:{halo};stroke-width:1.5}}\
.dlq{{fill:{dlq}}}.dlq-band{{fill:{dlq};fill-opacity:{dead_lettered_a}}}.dlq-text{{fill:{dlq}}}\
.halo{{fill:{halo};fill-opacity:{halo_a}}}\
.pause{{fill:{pause};fill-opacity:{pause_a}}}.down{{fill:{down};fill-opacity:{down_a}}}\
.crash{{stroke:{crash};stroke-width:2.5}}.restart{{stroke:{restart};stroke-width:1.5}}\
.pause-line{{stroke:{muted};stroke-width:1.5}}\
.bad-text{{fill:{crash}}}.note{{fill:{rejected}}}.ok-text{{fill:{restart}}}.note{{font-weight:600}}\
.available{{fill:{available};fill-opacity:{available_a}}}\
.deleted{{fill:{deleted};fill-opacity:{deleted_a}}}\
.lp-note{{fill:{note};fill-opacity:0.16;stroke:{note};stroke-width:1.5;stroke-dasharray:5 3}}\
.lp-note-label{{fill:{bg};stroke:{note};stroke-width:1.5}}.lp-note-text{{font-weight:600}}",
        text = p.text.rgb_hex(),
        muted = p.muted.rgb_hex(),
        bg = p.background.rgb_hex(),
        lane_a = p.lane_even.rgb_hex(),
        lane_b = p.lane_odd.rgb_hex(),
        grid = p.grid.rgb_hex(),
        grid_a = N(p.grid.alpha),
        overlap = p.overlap.rgb_hex(),
        rejected = p.rejected.rgb_hex(),
        crash = p.crash.rgb_hex(),
        ack = p.ack.rgb_hex(),
        restart = p.restart.rgb_hex(),
        expiry = p.expiry.rgb_hex(),
        lag_a = N(crate::palette::LAG_OPACITY),
        dlq = p.dead_letter.rgb_hex(),
        halo = p.halo.rgb_hex(),
        halo_a = N(p.halo.alpha),
        pause = p.pause.rgb_hex(),
        pause_a = N(p.pause.alpha),
        down = p.down.rgb_hex(),
        down_a = N(p.down.alpha),
        available = p.available.rgb_hex(),
        available_a = N(p.available.alpha),
        deleted = p.deleted.rgb_hex(),
        deleted_a = N(p.deleted.alpha),
        note = note_hex(p),
        lease_a = N(LEASE_OPACITY),
        in_flight_a = N(IN_FLIGHT_OPACITY),
        buffered_a = N(BUFFERED_OPACITY),
        dead_lettered_a = N(DEAD_LETTERED_OPACITY),
    )
}

/// A coordinate or size: at most two decimals, no trailing zeros, no "-0",
/// and 0 for NaN or infinities so the document always parses.
#[derive(Clone, Copy)]
struct N(f64);

impl fmt::Display for N {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let r = (self.0 * 100.0).round() / 100.0;
        if !r.is_finite() || r == 0.0 {
            return f.write_str("0");
        }
        let s = format!("{r:.2}");
        f.write_str(s.trim_end_matches('0').trim_end_matches('.'))
    }
}

/// Text for XML content and attribute values. Characters XML 1.0 forbids
/// (most C0 controls) would make the file unreadable, so they become U+FFFD.
pub fn xml_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' | '\n' | '\r' => out.push(c),
            c if (c as u32) < 0x20 || c == '\u{FFFE}' || c == '\u{FFFF}' => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

/// The message colour of the canvas, as hex: SVG 1.1 predates `hsl()`.
fn message_hex(id: u32, dark: bool, colour_blind: bool) -> String {
    if colour_blind {
        return crate::palette::cb_hue(crate::palette::message_hue(id), dark).rgb_hex();
    }
    let (h, s, l) = message_hsl(id, dark);
    hsl_colour(h, s, l).rgb_hex()
}

/// Writing to a `String` cannot fail.
macro_rules! put {
    ($out:expr, $($arg:tt)*) => {{
        let _ = write!($out, $($arg)*);
    }};
}

/// The timeline over `[opts.from_ms, opts.to_ms]` as an SVG document.
/// Same run and options: the same bytes.
pub fn timeline_svg(run: &Run, opts: &SvgOptions) -> String {
    timeline_svg_capped(run, opts, MAX_RUNS, &[])
}

/// `timeline_svg` with the reader's notes over it (`crate::note`): a band
/// over each one's range, on its worker's lane if it names one, labelled
/// with its text, and listed in the picture's description.
pub fn timeline_svg_with_notes(run: &Run, opts: &SvgOptions, notes: &[Note]) -> String {
    timeline_svg_capped(run, opts, MAX_RUNS, notes)
}

pub(crate) fn timeline_svg_capped(
    run: &Run,
    opts: &SvgOptions,
    max_runs: usize,
    notes: &[Note],
) -> String {
    let width = if opts.width_px.is_finite() {
        opts.width_px.clamp(GUTTER_PX + 120.0, 50_000.0)
    } else {
        1200.0
    };
    let scale = visible_scale(run, opts, width - GUTTER_PX - RIGHT_PX);
    let p = Palette::of_cb(opts.dark, opts.colour_blind);
    let mut c = Canvas {
        run,
        dark: opts.dark,
        colour_blind: opts.colour_blind,
        scale,
        width,
        t0: scale.start_ms.floor().max(0.0) as u64,
        t1: scale.end_ms.ceil().max(0.0) as u64,
        top: HEAD_PX + AXIS_PX + 4.0,
        out: String::new(),
    };

    // The body is drawn first: the document's height depends on what it held.
    let (content_px, note) = match opts.view {
        TimelineView::Workers => c.workers(max_runs),
        TimelineView::Messages => c.messages(max_runs),
    };
    c.notes(notes, opts.view, content_px);
    let body = std::mem::take(&mut c.out);

    let legend_top = c.top + content_px + 10.0;
    let legend = c.legend(opts.view, legend_top);
    let note_px = if note.is_some() { LEGEND_ROW_PX } else { 0.0 };
    let height = (legend_top + legend.1 + note_px + 6.0).ceil();

    let title = [&opts.title, &run.scenario.title, &run.scenario.name]
        .into_iter()
        .map(|s| s.trim())
        .find(|s| !s.is_empty())
        .unwrap_or("Lease Playground run");
    let title = xml_escape(title);

    let mut out = String::with_capacity(body.len() + legend.0.len() + 8192);
    out.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    put!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"{w}\" height=\"{h}\" \
viewBox=\"0 0 {w} {h}\">\n",
        w = N(width),
        h = N(height)
    );
    put!(out, "<title>{title}</title>\n");
    put!(
        out,
        "<desc>Lease Playground timeline ({}), generated from the run.</desc>\n",
        match opts.view {
            TimelineView::Workers => "workers view",
            TimelineView::Messages => "messages view",
        }
    );
    if !notes.is_empty() {
        put!(out, "<desc id=\"lp-notes\">Notes: ");
        for n in notes {
            put!(out, "{}. ", xml_escape(&n.describe()));
        }
        out.push_str("</desc>\n");
    }
    put!(out, "<style type=\"text/css\">{}</style>\n", style(p));
    put!(
        out,
        "<defs><clipPath id=\"lp-plot\"><rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"/>\
</clipPath></defs>\n",
        N(GUTTER_PX),
        N(HEAD_PX + AXIS_PX),
        N(width - GUTTER_PX),
        N(c.top + content_px - HEAD_PX - AXIS_PX)
    );
    put!(
        out,
        "<rect class=\"bg\" x=\"0\" y=\"0\" width=\"{}\" height=\"{}\"/>\n",
        N(width),
        N(height)
    );
    put!(
        out,
        "<text class=\"title\" x=\"6\" y=\"18\">{title}</text>\n<text class=\"sub\" x=\"6\" y=\"35\">{}</text>\n",
        xml_escape(&subtitle(run, &scale))
    );
    out.push_str(&body);
    c.axis(&mut out);
    out.push_str(&legend.0);
    if let Some(note) = note {
        put!(
            out,
            "<text class=\"note\" x=\"6\" y=\"{}\">{}</text>\n",
            N(legend_top + legend.1 + 12.0),
            xml_escape(&note)
        );
    }
    out.push_str("</svg>\n");
    out
}

/// The requested range as a time scale over the plot width, kept inside
/// the run the way the page keeps its own view.
fn visible_scale(run: &Run, opts: &SvgOptions, plot_px: f64) -> TimeScale {
    let mut scale = TimeScale::fit(run.end_ms as f64, plot_px);
    let from = if opts.from_ms.is_finite() {
        opts.from_ms
    } else {
        0.0
    };
    let to = if opts.to_ms.is_finite() {
        opts.to_ms
    } else {
        scale.limit_ms
    };
    let (from, to) = if from <= to { (from, to) } else { (to, from) };
    let (from, to) = (
        from.clamp(0.0, scale.limit_ms),
        to.clamp(0.0, scale.limit_ms),
    );
    scale.start_ms = from;
    scale.end_ms = to;
    if to - from < crate::scale::MIN_SPAN_MS {
        // Widen about the middle rather than only to the right.
        let mid = (from + to) / 2.0;
        scale.start_ms = mid - crate::scale::MIN_SPAN_MS / 2.0;
        scale.end_ms = mid + crate::scale::MIN_SPAN_MS / 2.0;
    }
    scale.clamp();
    scale
}

fn subtitle(run: &Run, scale: &TimeScale) -> String {
    let name = if run.scenario.name.is_empty() {
        "run".to_string()
    } else {
        run.scenario.name.clone()
    };
    format!(
        "{name} · seed {} · {} worker{} × {} · visibility timeout {} · {} to {} of {}",
        run.report.seed,
        run.worker_count,
        if run.worker_count == 1 { "" } else { "s" },
        run.concurrency,
        duration(run.visibility_timeout_ms),
        clock(scale.start_ms.max(0.0).round() as u64),
        clock(scale.end_ms.max(0.0).round() as u64),
        clock(run.end_ms),
    )
}

struct Canvas<'a> {
    run: &'a Run,
    dark: bool,
    colour_blind: bool,
    scale: TimeScale,
    width: f64,
    /// The visible range in whole ms, for the index's window queries.
    t0: u64,
    t1: u64,
    /// Top of the lanes or message rows.
    top: f64,
    out: String,
}

/// The notes' ink: amber, which no run or mark uses, darker on light.
fn note_hex(p: &Palette) -> &'static str {
    if p.background.rgb_hex() == Palette::of(true).background.rgb_hex() {
        "#f2b84b"
    } else {
        "#9a5b00"
    }
}

impl Canvas<'_> {
    /// Each note in the visible range: a band over its range (its worker's
    /// lane in the Workers view, else the whole height) and its text in a
    /// label at the band's top.
    fn notes(&mut self, notes: &[Note], view: TimelineView, content_px: f64) {
        let lanes = (view == TimelineView::Workers).then(|| self.lanes(&RunIndex::new(self.run)));
        for n in notes {
            if n.to_ms < self.t0 || n.from_ms > self.t1 {
                continue;
            }
            let x0 = self.x(n.from_ms.max(self.t0));
            let x1 = self.x(n.to_ms.min(self.t1)).max(x0 + 2.0);
            let (y0, h) = match (n.on, &lanes) {
                (NoteOn::Worker(w), Some(l)) if w < l.workers => {
                    (l.lane_top(w), l.lane_px() - l.gap_px)
                }
                _ => (self.top, content_px),
            };
            put!(
                self.out,
                "<rect class=\"lp-note\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"/>\n",
                N(x0),
                N(y0),
                N(x1 - x0),
                N(h)
            );
            let label = match n.on {
                NoteOn::Timeline => n.text.clone(),
                _ => format!("{}: {}", n.on_words(), n.text),
            };
            let w = label.chars().count() as f64 * CHAR_PX + 10.0;
            let lx = x0.min(self.width - RIGHT_PX - w).max(GUTTER_PX);
            put!(
                self.out,
                "<rect class=\"lp-note-label\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"16\" rx=\"3\"/>\n\
<text class=\"lp-note-text\" x=\"{}\" y=\"{}\">{}</text>\n",
                N(lx),
                N(y0 + 2.0),
                N(w),
                N(lx + 5.0),
                N(y0 + 14.0),
                xml_escape(&label)
            );
        }
    }

    fn x(&self, t: u64) -> f64 {
        GUTTER_PX + self.scale.x_of(t as f64)
    }
    /// Keeps shapes that reach far outside the plot to a sane size: the
    /// clip hides the rest anyway.
    fn clamp_x(&self, x: f64) -> f64 {
        x.clamp(GUTTER_PX - 20.0, self.width + 20.0)
    }
    fn in_range(&self, t: u64) -> bool {
        (self.t0..=self.t1).contains(&t)
    }
    fn text_px(text: &str) -> f64 {
        text.chars().count() as f64 * CHAR_PX
    }
    /// Text on a halo so it reads over bars, as the canvas's `label`.
    fn label(&mut self, text: &str, x: f64, y_mid: f64, class: &str) {
        let w = Self::text_px(text);
        put!(
            self.out,
            "<rect class=\"halo\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"14\"/>\
<text class=\"{class}\" x=\"{}\" y=\"{}\">{}</text>\n",
            N(x - 2.0),
            N(y_mid - 7.0),
            N(w + 4.0),
            N(x),
            N(y_mid + 4.0),
            xml_escape(text)
        );
    }
    /// A rectangle on the plot, from time-derived x to x.
    fn rect(&mut self, class: &str, fill: Option<&str>, x0: f64, y: f64, x1: f64, h: f64) {
        let (x0, x1) = (self.clamp_x(x0), self.clamp_x(x1));
        self.rect_raw(class, fill, x0, y, x1, h);
    }
    /// A rectangle anywhere, the legend's included.
    fn rect_raw(&mut self, class: &str, fill: Option<&str>, x0: f64, y: f64, x1: f64, h: f64) {
        put!(
            self.out,
            "<rect class=\"{class}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"",
            N(x0),
            N(y),
            N((x1 - x0).max(0.0)),
            N(h.max(0.0))
        );
        if let Some(fill) = fill {
            put!(self.out, " fill=\"{fill}\"");
        }
        self.out.push_str("/>\n");
    }
    fn line(&mut self, class: &str, x0: f64, y0: f64, x1: f64, y1: f64) {
        put!(
            self.out,
            "<line class=\"{class}\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/>\n",
            N(x0),
            N(y0),
            N(x1),
            N(y1)
        );
    }
    fn polygon(&mut self, class: &str, pts: &[(f64, f64)]) {
        put!(self.out, "<polygon class=\"{class}\" points=\"");
        for (i, (x, y)) in pts.iter().enumerate() {
            if i > 0 {
                self.out.push(' ');
            }
            put!(self.out, "{},{}", N(*x), N(*y));
        }
        self.out.push_str("\"/>\n");
    }
    fn cross(&mut self, class: &str, x: f64, y: f64, r: f64) {
        put!(
            self.out,
            "<path class=\"{class}\" d=\"M{} {}L{} {}M{} {}L{} {}\"/>\n",
            N(x - r),
            N(y - r),
            N(x + r),
            N(y + r),
            N(x + r),
            N(y - r),
            N(x - r),
            N(y + r)
        );
    }
    fn check(&mut self, class: &str, x: f64, y: f64, r: f64) {
        put!(
            self.out,
            "<path class=\"{class}\" d=\"M{} {}L{} {}L{} {}\"/>\n",
            N(x - r),
            N(y),
            N(x - r / 3.0),
            N(y + r * 0.7),
            N(x + r),
            N(y - r * 0.8)
        );
    }
    fn diamond(&mut self, class: &str, x: f64, y: f64, r: f64) {
        self.polygon(class, &[(x, y - r), (x + r, y), (x, y + r), (x - r, y)]);
    }
    /// As the canvas draws them, so that neither is told by colour alone: a
    /// commit that did harm is cut across (and one with no effect is hollow,
    /// by its class); a rejected release's ring is struck through.
    fn commit_duplicate(&mut self, x: f64, y: f64) {
        self.diamond("commit-duplicate", x, y, 3.5);
        self.line("cut", x - 3.5, y, x + 3.5, y);
    }
    fn release_rejected(&mut self, x: f64, y: f64) {
        self.circle("release-rejected", x, y, 3.0);
        self.line("release-rejected", x - 3.0, y + 3.0, x + 3.0, y - 3.0);
    }
    fn circle(&mut self, class: &str, x: f64, y: f64, r: f64) {
        put!(
            self.out,
            "<circle class=\"{class}\" cx=\"{}\" cy=\"{}\" r=\"{}\"/>\n",
            N(x),
            N(y),
            N(r)
        );
    }

    // ---- Workers view ----

    /// The worker lanes as the canvas lays them out, under the heading.
    fn lanes(&self, index: &RunIndex) -> WorkerLanes {
        WorkerLanes {
            top_px: self.top,
            row_px: ROW_PX,
            buffer_px: BUFFER_PX,
            gap_px: LANE_GAP_PX,
            workers: index.workers,
            slots: index.slots,
        }
    }

    /// Lanes, faults, runs, links and dead letters; returns the content
    /// height and the note about runs left out.
    fn workers(&mut self, max_runs: usize) -> (f64, Option<String>) {
        let run = self.run;
        let index = RunIndex::new(run);
        let lanes = self.lanes(&index);

        // What to draw, row by row in receive order, as the canvas does.
        // Runs narrower than a pixel on a pixel already painted add nothing
        // visible; unlike the canvas, a sub-pixel run keeps its shape when
        // it overlaps or its lease expired, because those marks matter.
        let mut chosen: Vec<(Row, u32)> = Vec::new();
        for row in index.all_rows() {
            let mut last_px = f64::NEG_INFINITY;
            for ix in index.visible(row, self.t0, self.t1) {
                let d = &run.deliveries[ix as usize];
                let (s, e) = extent_of(d, run.end_ms);
                let (x0, x1) = (self.x(s), self.x(e));
                let plain = d.overlaps.is_none() && d.lease_end != LeaseEnd::Expired;
                if plain && x1 - x0 < 1.0 && x0.floor() <= last_px {
                    continue;
                }
                last_px = last_px.max(x1.floor());
                chosen.push((row, ix));
            }
        }
        let mut note = None;
        if chosen.len() > max_runs {
            // Keep the earliest runs so the picture is whole up to a time,
            // rather than whole for the first lanes and empty below.
            let mut by_time: Vec<u32> = chosen.iter().map(|(_, ix)| *ix).collect();
            crate::index::by_receive_time(run, &mut by_time);
            let mut keep = vec![false; run.deliveries.len()];
            for ix in &by_time[..max_runs] {
                keep[*ix as usize] = true;
            }
            let left_out = chosen.len() - max_runs;
            chosen.retain(|(_, ix)| keep[*ix as usize]);
            note = Some(format!("{left_out} runs not drawn; zoom in"));
        }

        self.out.push_str("<g class=\"lanes\">\n");
        for w in 0..lanes.workers {
            let top = lanes.lane_top(w);
            let h = lanes.lane_px() - lanes.gap_px;
            put!(
                self.out,
                "<rect class=\"{}\" x=\"0\" y=\"{}\" width=\"{}\" height=\"{}\"/>\n\
<text class=\"lane-label\" x=\"6\" y=\"{}\">worker {w}</text>\n",
                if w % 2 == 0 { "lane-a" } else { "lane-b" },
                N(top),
                N(self.width),
                N(h),
                N(top + lanes.row_px.min(h) / 2.0 + 4.0),
            );
        }
        self.out
            .push_str("</g>\n<g class=\"faults\" clip-path=\"url(#lp-plot)\">\n");
        self.fault_shading(&lanes);
        self.out.push_str("</g>\n");
        self.grid(self.top + lanes.content_px());

        self.out
            .push_str("<g class=\"runs\" clip-path=\"url(#lp-plot)\">\n");
        let tooltips = chosen.len() <= TOOLTIP_LIMIT;
        for &(row, ix) in &chosen {
            let (y, h) = lanes.row_span(row);
            self.delivery(&index, ix, row, y, h, tooltips);
        }
        if chosen.len() <= LINK_LIMIT {
            for &(_, ix) in &chosen {
                self.links(&index, &lanes, ix);
            }
        }
        self.dead_letters(&index, &lanes, &chosen);
        self.out.push_str("</g>\n");
        // Over the runs, unlike the canvas: a crash label under a run bar
        // is lost in a static picture that cannot be hovered.
        self.out
            .push_str("<g class=\"fault-marks\" clip-path=\"url(#lp-plot)\">\n");
        self.fault_marks(&lanes);
        self.out.push_str("</g>\n");
        (lanes.content_px(), note)
    }

    /// The lease band, the run bar, the overlap outline, the expiry and the
    /// marks of one delivery, placed as `paint_delivery` places them.
    fn delivery(&mut self, index: &RunIndex, ix: u32, row: Row, y: f64, h: f64, tooltip: bool) {
        let run = self.run;
        let d = &run.deliveries[ix as usize];
        let colour = message_hex(d.message, self.dark, self.colour_blind);
        let bar = bar_of(d, run.end_ms);
        let buffered = matches!(row, Row::Buffer { .. });

        let band_h = if buffered {
            h
        } else {
            (h * 0.18).clamp(2.0, 4.0)
        };
        if !buffered {
            let lx0 = self.x(d.received_at);
            let lx1 = self.x(d.lease_ended_at).max(lx0 + 1.0);
            self.rect(
                "lease",
                Some(&colour),
                lx0,
                y + h - band_h - 1.0,
                lx1,
                band_h,
            );
        }

        let x0 = self.x(bar.start);
        let x1 = self.x(bar.end).max(x0 + 1.0);
        let (by, bh) = if buffered {
            (y, h - 1.0)
        } else {
            (y + 2.0, (h - band_h - 4.0).max(2.0))
        };
        let class = if bar.buffered { "run buffered" } else { "run" };
        let (cx0, cx1) = (self.clamp_x(x0), self.clamp_x(x1));
        put!(
            self.out,
            "<rect class=\"{class}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{colour}\"",
            N(cx0),
            N(by),
            N(cx1 - cx0),
            N(bh)
        );
        if tooltip {
            put!(
                self.out,
                "><title>{}</title></rect>\n",
                xml_escape(&run_title(run, d))
            );
        } else {
            self.out.push_str("/>\n");
        }
        if bar.buffered && x1 - x0 > 6.0 && bh > 3.0 {
            put!(
                self.out,
                "<rect class=\"buffered-edge\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" stroke=\"{colour}\"/>\n",
                N(cx0 + 0.5),
                N(by + 0.5),
                N(cx1 - cx0 - 1.0),
                N(bh - 1.0)
            );
        }
        // An overlapping run cannot be missed: both runs of the pair are
        // outlined in red, as on the canvas, and the later one carries a flag.
        if d.started_at.is_some() && index.overlapping_by(run, ix, run.end_ms) {
            self.rect(
                "overlap",
                None,
                x0 + 1.0,
                by + 1.0,
                x0 + 1.0 + (x1 - x0 - 2.0).max(1.0),
                bh - 2.0,
            );
        }
        if d.overlaps.is_some() && d.started_at.is_some() {
            self.polygon(
                "flag",
                &[(x0, by - 1.0), (x0 + 7.0, by - 1.0), (x0, by + 6.0)],
            );
        }
        // Past the deadline until the broker's check noticed: the band's
        // stretch in the expiry's colour, a thin tick at the deadline.
        if let Some((deadline, end)) = lag_of(d, run.end_ms) {
            let (gx0, gx1) = (self.x(deadline), self.x(end));
            // Taller than the band it overlays, as on the canvas.
            let (top, lh) = if buffered {
                (y, h)
            } else {
                (y + h - band_h - 2.0, band_h + 2.0)
            };
            self.rect("lag", None, gx0, top, gx1.max(gx0 + 1.0), lh);
            if self.in_range(deadline) {
                self.line("deadline", gx0, y, gx0, y + h);
            }
        }
        if d.lease_end == LeaseEnd::Expired && self.in_range(d.lease_ended_at) {
            let ex = self.x(d.lease_ended_at);
            self.line("expiry", ex, y, ex, y + h);
            self.polygon(
                "expiry-head",
                &[(ex - 4.0, y), (ex + 4.0, y), (ex, y + 5.0)],
            );
        }

        let mid = by + bh / 2.0;
        let r = (bh / 2.0).clamp(3.0, 5.0);
        let mut last_x = [f64::NEG_INFINITY; 8];
        for &mi in index.marks_of(ix) {
            let Some(m) = run.marks.get(mi as usize) else {
                continue;
            };
            if !self.in_range(m.t) {
                continue;
            }
            let x = self.x(m.t);
            // Marks closer than 3 px to the last of their kind would print
            // over it: the canvas skips them too.
            let k = m.kind as usize;
            if x - last_x[k] < 3.0 {
                continue;
            }
            last_x[k] = x;
            match m.kind {
                MarkKind::ExtendOk => self.line("hb", x, by - 2.0, x, by + 3.0),
                MarkKind::ExtendRejected => self.cross("hb-rejected", x, by + 1.0, 3.0),
                MarkKind::AckOk => self.check("ack", x, mid, r),
                MarkKind::AckNoOp => self.check("ack-no-op", x, mid, r),
                MarkKind::AckRejected => {
                    self.cross("ack-halo", x, mid, r + 1.0);
                    self.cross("ack-rejected", x, mid, r);
                }
                MarkKind::Release => self.circle("release", x, mid, 3.0),
                MarkKind::ReleaseRejected => self.release_rejected(x, mid),
                MarkKind::Commit => match d.effect {
                    Effect::Applied => self.diamond("commit", x, mid, 3.5),
                    Effect::Duplicate | Effect::LostUpdate => self.commit_duplicate(x, mid),
                    Effect::FenceRejected | Effect::NoCommit => {
                        self.diamond("commit-void", x, mid, 3.5)
                    }
                },
            }
        }
    }

    /// A redelivery arrow from an expiry or release to the next delivery,
    /// and the connector from an overlapping run to its twin.
    fn links(&mut self, index: &RunIndex, lanes: &WorkerLanes, ix: u32) {
        let run = self.run;
        let d = &run.deliveries[ix as usize];
        let mid = |d: &Delivery| {
            let (y, h) = lanes.row_span(row_of(d, lanes.slots));
            y + h / 2.0
        };
        if let (Some(n), true) = (
            index.next_of(ix),
            matches!(d.lease_end, LeaseEnd::Expired | LeaseEnd::Released),
        ) {
            let next = &run.deliveries[n as usize];
            let (ax, ay) = (self.x(d.lease_ended_at), mid(d));
            let (bx, by) = (self.x(next.received_at), mid(next));
            let lift = ((by - ay).abs() / 2.0).max(14.0);
            let up = if by >= ay { -lift } else { lift };
            put!(
                self.out,
                "<path class=\"redelivery\" d=\"M{} {}C{} {} {} {} {} {}\"/>\n",
                N(ax),
                N(ay),
                N(ax + 20.0),
                N(ay + up),
                N(bx - 20.0),
                N(by + up),
                N(bx),
                N(by)
            );
            // The curve arrives along its last control point's direction.
            let [left, right] = crate::arrow_head((bx, by), (bx - 20.0, by + up), 6.0);
            self.polygon("arrow", &[(bx, by), left, right]);
        }
        if let (Some(t), Some(s)) = (d.overlaps, d.started_at) {
            if let Some(twin) = run.deliveries.get(t as usize) {
                let x = self.x(s);
                let (ya, yb) = (mid(d), mid(twin));
                self.line("twin", x, ya, x, yb);
                self.circle("twin-end", x, ya, 2.5);
                self.circle("twin-end", x, yb, 2.5);
            }
        }
    }

    /// "DLQ expired", "dropped (failed)", "stays, advisory (expired)" where
    /// the message's last delivery sits.
    fn dead_letters(&mut self, index: &RunIndex, lanes: &WorkerLanes, chosen: &[(Row, u32)]) {
        let run = self.run;
        let mut last_label = vec![f64::NEG_INFINITY; lanes.workers as usize];
        for &(row, ix) in chosen {
            if index.next_of(ix).is_some() {
                continue;
            }
            let d = &run.deliveries[ix as usize];
            let Some((fate, at, cause)) = run
                .messages
                .get(d.message as usize)
                .and_then(|m| past_limit(m.fate))
            else {
                continue;
            };
            if !self.in_range(at) {
                continue;
            }
            let (y, h) = lanes.row_span(row);
            let x = self.x(at);
            self.rect("dlq", None, x - 1.0, y, x + 1.5, h);
            if let Some(last) = last_label.get_mut(d.worker as usize) {
                if x - *last > 70.0 {
                    *last = x;
                    self.label(&fate.mark(cause), x + 3.0, y + h / 2.0, "dlq-text");
                }
            }
        }
    }

    /// Down and paused spans across each worker's lane.
    fn fault_shading(&mut self, lanes: &WorkerLanes) {
        let run = self.run;
        let lane_h = lanes.lane_px() - lanes.gap_px;
        let mut outages = Outages::new(lanes.workers);
        let plot_end = self.width - RIGHT_PX;
        let shade = |c: &mut Self, w: u32, from: u64, to: u64, kind: WorkerMarkKind| {
            if to <= from || to < c.t0 || from > c.t1 {
                return;
            }
            let x0 = c.x(from).max(GUTTER_PX);
            let x1 = c.x(to).min(plot_end);
            if x1 <= x0 {
                return;
            }
            let top = lanes.lane_top(w);
            let pause = kind == WorkerMarkKind::Pause;
            c.rect(
                if pause { "pause" } else { "down" },
                None,
                x0,
                top,
                x1,
                lane_h,
            );
            // In a one-row lane the word would sit on the start mark's
            // label: it moves to the span's right end, if there is room.
            let (tx, anchor) = if lane_h >= 30.0 && x1 - x0 > 40.0 {
                (x0 + 3.0, "start")
            } else if x1 - x0 > 110.0 {
                (x1 - 3.0, "end")
            } else {
                return;
            };
            put!(
                c.out,
                "<text class=\"muted\" x=\"{}\" y=\"{}\" text-anchor=\"{anchor}\">{}</text>\n",
                N(tx),
                N(top + lane_h - 3.0),
                if pause { "paused" } else { "down" }
            );
        };
        for m in &run.worker_marks {
            if let Some(o) = outages.mark(m) {
                shade(self, o.worker, o.from, o.to, o.kind);
            }
        }
        for o in outages.still_open(run.end_ms) {
            shade(self, o.worker, o.from, o.to, o.kind);
        }
    }

    /// Crash, restart, pause and resume lines, labelled where a label fits
    /// after the last one on its lane (a deploy's crash and restart are
    /// often a few pixels apart).
    fn fault_marks(&mut self, lanes: &WorkerLanes) {
        let run = self.run;
        let lane_h = lanes.lane_px() - lanes.gap_px;
        let mut label_end = vec![f64::NEG_INFINITY; lanes.workers as usize];
        for m in &run.worker_marks {
            if m.worker >= lanes.workers || !self.in_range(m.t) {
                continue;
            }
            let x = self.x(m.t);
            let top = lanes.lane_top(m.worker);
            // The canvas's "⏸" is missing from many fonts that SVG viewers
            // fall back to; "‖" is in nearly all of them.
            let (class, text_class, text) = match m.kind {
                WorkerMarkKind::Crash => ("crash", "bad-text", "crash"),
                WorkerMarkKind::Restart => ("restart", "ok-text", "▶ restart"),
                WorkerMarkKind::Pause => ("pause-line", "muted", "‖ pause"),
                WorkerMarkKind::Resume => ("pause-line", "muted", ""),
            };
            self.line(class, x, top, x, top + lane_h);
            let end = &mut label_end[m.worker as usize];
            if !text.is_empty() && x + 3.0 > *end + 4.0 {
                *end = x + 3.0 + Self::text_px(text);
                self.label(text, x + 3.0, top + 7.0, text_class);
            }
        }
    }

    // ---- Messages view ----

    /// One row per message active in the range, in id order, packed: a
    /// message that had come and gone before the range takes no row.
    fn messages(&mut self, max_runs: usize) -> (f64, Option<String>) {
        let run = self.run;
        let mut rows: Vec<u32> = Vec::new();
        let mut runs = 0usize;
        let (mut left_rows, mut left_runs) = (0usize, 0usize);
        for (m, msg) in run.messages.iter().enumerate() {
            let settled = match msg.fate {
                Fate::Deleted { at }
                | Fate::DeadLettered { at, .. }
                | Fate::Dropped { at, .. }
                | Fate::Stayed { at, .. } => at,
                Fate::Available | Fate::InFlight => run.end_ms,
            };
            if msg.arrived_at > self.t1 || settled < self.t0 {
                continue;
            }
            let n = msg.deliveries.len();
            if left_rows > 0 || rows.len() >= MAX_MESSAGE_ROWS || runs + n > max_runs {
                left_rows += 1;
                left_runs += n;
                continue;
            }
            runs += n;
            rows.push(m as u32);
        }
        let note = (left_rows > 0)
            .then(|| format!("{left_runs} runs not drawn ({left_rows} messages); zoom in"));

        self.grid(self.top + rows.len() as f64 * MESSAGE_ROW_PX);
        let tooltips = runs <= TOOLTIP_LIMIT;
        self.out.push_str("<g class=\"labels\">\n");
        for (i, &m) in rows.iter().enumerate() {
            let y = self.top + i as f64 * MESSAGE_ROW_PX;
            put!(
                self.out,
                "<text class=\"msg-label\" x=\"6\" y=\"{}\">msg {m}</text>\n",
                N(y + MESSAGE_ROW_PX / 2.0 + 4.0)
            );
        }
        self.out
            .push_str("</g>\n<g class=\"runs\" clip-path=\"url(#lp-plot)\">\n");
        let index = RunIndex::new(run);
        for (i, &m) in rows.iter().enumerate() {
            let y = self.top + i as f64 * MESSAGE_ROW_PX;
            self.message_row(&index, m, y, tooltips);
        }
        self.out.push_str("</g>\n");
        (rows.len() as f64 * MESSAGE_ROW_PX, note)
    }

    fn message_row(&mut self, index: &RunIndex, m: u32, y: f64, tooltip: bool) {
        let run = self.run;
        let inner = MESSAGE_ROW_PX - 1.0;
        let colour = message_hex(m, self.dark, self.colour_blind);
        for s in message_states(run, m, u64::MAX) {
            if s.to < self.t0 || s.from > self.t1 {
                continue;
            }
            let x0 = self.x(s.from);
            let x1 = self.x(s.to).max(x0 + 1.0);
            match s.state {
                State::Available => {
                    self.rect("available", None, x0, y + inner * 0.3, x1, inner * 0.4)
                }
                State::InFlight { delivery } => {
                    let d = &run.deliveries[delivery as usize];
                    self.rect("in-flight", Some(&colour), x0, y, x1, inner);
                    if let Some(st) = d.started_at {
                        let bar = bar_of(d, run.end_ms);
                        let rx0 = self.x(st);
                        let rx1 = self.x(bar.end).max(rx0 + 1.0);
                        let (cx0, cx1) = (self.clamp_x(rx0), self.clamp_x(rx1));
                        put!(
                            self.out,
                            "<rect class=\"run\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{colour}\"",
                            N(cx0),
                            N(y + inner * 0.2),
                            N(cx1 - cx0),
                            N(inner * 0.6)
                        );
                        if tooltip {
                            put!(
                                self.out,
                                "><title>{}</title></rect>\n",
                                xml_escape(&run_title(run, d))
                            );
                        } else {
                            self.out.push_str("/>\n");
                        }
                        if index.overlapping_by(run, delivery, run.end_ms) {
                            self.rect("overlap-thin", None, rx0, y + 0.75, rx1, inner - 1.5);
                        }
                    }
                    if d.lease_end == LeaseEnd::Expired && self.in_range(d.lease_ended_at) {
                        let ex = self.x(d.lease_ended_at);
                        self.rect("expiry-fill", None, ex - 1.0, y, ex + 1.0, inner);
                    }
                }
                State::Deleted => {
                    self.rect("deleted", None, x0, y + inner / 2.0 - 0.5, x1, 1.0);
                }
                State::DeadLettered(cause) | State::Stayed(cause) => {
                    // Held somewhere still: the dead-letter queue, or the
                    // stream that delivers it no more.
                    let fate = match s.state {
                        State::Stayed(_) => LimitFate::Stayed,
                        _ => LimitFate::DeadLettered,
                    };
                    self.rect("dlq-band", None, x0, y, x1, inner);
                    self.label(
                        &fate.mark(cause),
                        x0.max(GUTTER_PX) + 3.0,
                        y + MESSAGE_ROW_PX / 2.0,
                        "dlq-text",
                    );
                }
                State::Dropped(cause) => {
                    // Gone: drawn as a deleted message is, with its word.
                    self.rect("deleted", None, x0, y + inner / 2.0 - 0.5, x1, 1.0);
                    self.label(
                        &LimitFate::Dropped.mark(cause),
                        x0.max(GUTTER_PX) + 3.0,
                        y + MESSAGE_ROW_PX / 2.0,
                        "dlq-text",
                    );
                }
            }
        }
    }

    // ---- Axis, grid and legend ----

    fn grid(&mut self, bottom: f64) {
        let (_, ticks) = ticks(&self.scale, 90.0);
        self.out.push_str("<g class=\"grid-lines\">\n");
        for (t, _) in &ticks {
            let x = GUTTER_PX + self.scale.x_of(*t);
            self.line("grid", x, HEAD_PX + AXIS_PX, x, bottom);
        }
        self.out.push_str("</g>\n");
    }

    fn axis(&self, out: &mut String) {
        let (_, ticks) = ticks(&self.scale, 90.0);
        let base = HEAD_PX + AXIS_PX;
        out.push_str("<g class=\"time-axis\">\n");
        put!(
            out,
            "<text class=\"muted\" x=\"6\" y=\"{}\">time</text>\n",
            N(base - AXIS_PX / 2.0 + 3.0)
        );
        for (t, text) in &ticks {
            let x = GUTTER_PX + self.scale.x_of(*t);
            put!(
                out,
                "<line class=\"axis\" x1=\"{x}\" y1=\"{}\" x2=\"{x}\" y2=\"{}\"/>\n",
                N(base - 5.0),
                N(base),
                x = N(x)
            );
            // Keep the first and last labels inside the picture.
            let half = Self::text_px(text) / 2.0;
            let tx = x.clamp(
                GUTTER_PX + half,
                (self.width - half - 2.0).max(GUTTER_PX + half),
            );
            put!(
                out,
                "<text class=\"tick\" x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n",
                N(tx),
                N(base - AXIS_PX / 2.0 + 3.0),
                xml_escape(text)
            );
        }
        put!(
            out,
            "<line class=\"axis\" x1=\"{}\" y1=\"{y}\" x2=\"{}\" y2=\"{y}\"/>\n</g>\n",
            N(GUTTER_PX),
            N(self.width - RIGHT_PX),
            y = N(base - 0.5)
        );
    }

    /// The legend, flowed left to right and wrapped; returns it and its height.
    fn legend(&mut self, view: TimelineView, top: f64) -> (String, f64) {
        use Swatch::*;
        let items: &[(Swatch, &str)] = match view {
            TimelineView::Workers => &[
                (Run, "run (colour: message)"),
                (Lease, "lease"),
                (Overlap, "overlapping run"),
                (Heartbeat, "heartbeat"),
                (HeartbeatRejected, "heartbeat rejected"),
                (Ack, "ack"),
                (AckRejected, "ack rejected"),
                (AckNoOp, "ack of a deleted message: nothing to settle"),
                (Commit, "commit"),
                (CommitDuplicate, "duplicate effect"),
                (CommitVoid, "commit with no effect"),
                (Release, "release"),
                (ReleaseRejected, "release rejected"),
                (Expiry, "lease expired"),
                (Lag, "past the deadline until the broker's check"),
                (Dlq, "past the limit: dead-lettered, dropped or stays"),
                (Down, "worker down"),
                (Paused, "worker paused"),
            ],
            TimelineView::Messages => &[
                (Available, "available"),
                (InFlight, "in flight (leased)"),
                (Run, "handler run"),
                (Overlap, "overlapping run"),
                (ExpiryFill, "lease expired"),
                (Deleted, "deleted"),
                (DlqBand, "dead-lettered or stays in the stream"),
            ],
        };
        let saved = std::mem::take(&mut self.out);
        self.out.push_str("<g class=\"legend\">\n");
        let (mut x, mut y) = (6.0, top);
        // Most brokers reject an ack of a deleted message; the legend names
        // the no-op ack only where the run has one.
        let no_op = self.run.marks.iter().any(|m| m.kind == MarkKind::AckNoOp);
        // The lag, only where a periodic check took a lease back late.
        let lag = (self.run.deliveries.iter()).any(|d| lag_of(d, u64::MAX).is_some());
        for (swatch, text) in items {
            if matches!(swatch, AckNoOp) && !no_op || matches!(swatch, Lag) && !lag {
                continue;
            }
            let w = 18.0 + Self::text_px(text) + 14.0;
            if x + w > self.width - RIGHT_PX && x > 6.0 {
                x = 6.0;
                y += LEGEND_ROW_PX;
            }
            self.swatch(*swatch, x, y + LEGEND_ROW_PX / 2.0);
            put!(
                self.out,
                "<text x=\"{}\" y=\"{}\">{}</text>\n",
                N(x + 18.0),
                N(y + LEGEND_ROW_PX / 2.0 + 4.0),
                xml_escape(text)
            );
            x += w;
        }
        self.out.push_str("</g>\n");
        let legend = std::mem::replace(&mut self.out, saved);
        (legend, y + LEGEND_ROW_PX - top)
    }

    fn swatch(&mut self, s: Swatch, x: f64, mid: f64) {
        let colour = message_hex(0, self.dark, self.colour_blind);
        let (x0, x1) = (x, x + 14.0);
        match s {
            Swatch::Run => self.rect_raw("run", Some(&colour), x0, mid - 4.0, x1, 8.0),
            Swatch::Lease => self.rect_raw("lease", Some(&colour), x0, mid - 1.5, x1, 3.0),
            Swatch::Overlap => {
                self.rect_raw("run", Some(&colour), x0, mid - 4.0, x1, 8.0);
                self.rect_raw("overlap", None, x0 + 1.0, mid - 3.0, x1 - 1.0, 6.0);
            }
            Swatch::Heartbeat => self.line("hb", x + 7.0, mid - 4.0, x + 7.0, mid + 4.0),
            Swatch::HeartbeatRejected => self.cross("hb-rejected", x + 7.0, mid, 3.0),
            Swatch::Ack => self.check("ack", x + 7.0, mid, 4.0),
            Swatch::AckNoOp => self.check("ack-no-op", x + 7.0, mid, 4.0),
            Swatch::AckRejected => self.cross("ack-rejected", x + 7.0, mid, 4.0),
            Swatch::Commit => self.diamond("commit", x + 7.0, mid, 3.5),
            Swatch::CommitDuplicate => self.commit_duplicate(x + 7.0, mid),
            Swatch::CommitVoid => self.diamond("commit-void", x + 7.0, mid, 3.5),
            Swatch::Release => self.circle("release", x + 7.0, mid, 3.0),
            Swatch::ReleaseRejected => self.release_rejected(x + 7.0, mid),
            Swatch::Expiry => self.line("expiry", x + 7.0, mid - 6.0, x + 7.0, mid + 6.0),
            Swatch::Lag => {
                self.rect_raw("lease", Some(&colour), x0, mid - 1.5, x0 + 5.0, 3.0);
                self.rect_raw("lag", None, x0 + 5.0, mid - 1.5, x1, 3.0);
                self.line("deadline", x0 + 5.0, mid - 6.0, x0 + 5.0, mid + 6.0);
                self.line("expiry", x1, mid - 6.0, x1, mid + 6.0);
            }
            Swatch::ExpiryFill => {
                self.rect_raw("expiry-fill", None, x + 6.0, mid - 6.0, x + 8.0, 12.0)
            }
            Swatch::Dlq => self.rect_raw("dlq", None, x + 6.0, mid - 6.0, x + 8.5, 12.0),
            Swatch::DlqBand => self.rect_raw("dlq-band", None, x0, mid - 6.0, x1, 12.0),
            Swatch::Down => self.rect_raw("down", None, x0, mid - 6.0, x1, 12.0),
            Swatch::Paused => self.rect_raw("pause", None, x0, mid - 6.0, x1, 12.0),
            Swatch::Available => self.rect_raw("available", None, x0, mid - 2.0, x1, 4.0),
            Swatch::InFlight => self.rect_raw("in-flight", Some(&colour), x0, mid - 6.0, x1, 12.0),
            Swatch::Deleted => self.rect_raw("deleted", None, x0, mid - 0.5, x1, 1.0),
        }
    }
}

#[derive(Debug, Clone, Copy)]
enum Swatch {
    Run,
    Lease,
    Overlap,
    Heartbeat,
    HeartbeatRejected,
    Ack,
    AckRejected,
    AckNoOp,
    Commit,
    CommitDuplicate,
    CommitVoid,
    Release,
    ReleaseRejected,
    Expiry,
    Lag,
    ExpiryFill,
    Dlq,
    DlqBand,
    Down,
    Paused,
    Available,
    InFlight,
    Deleted,
}

/// The hover title of a run bar.
fn run_title(run: &Run, d: &Delivery) -> String {
    let bar = bar_of(d, run.end_ms);
    let mut s = format!(
        "message {} · delivery {} · worker {} · {}–{} · {}",
        d.message,
        d.receipt,
        d.worker,
        clock(bar.start),
        clock(bar.end),
        super::outcome_name(d.outcome).replace('_', " "),
    );
    if d.effect != Effect::NoCommit {
        s.push_str(" · ");
        s.push_str(&super::effect_name(d.effect).replace('_', " "));
    }
    if let Some(twin) = d.overlaps.and_then(|t| run.deliveries.get(t as usize)) {
        s.push_str(&format!(" · overlaps delivery {}", twin.receipt));
    }
    s
}

#[cfg(test)]
mod unit {
    use super::*;

    #[test]
    fn numbers_have_at_most_two_decimals() {
        let f = |x: f64| N(x).to_string();
        assert_eq!(f(1.0), "1");
        assert_eq!(f(1.005_1), "1.01");
        assert_eq!(f(2.5), "2.5");
        assert_eq!(f(-0.001), "0");
        assert_eq!(f(-1.23456), "-1.23");
        assert_eq!(f(f64::NAN), "0");
        assert_eq!(f(123_456.0), "123456");
    }

    #[test]
    fn markup_and_controls_are_escaped() {
        assert_eq!(
            xml_escape("<script>&\"'\u{1}"),
            "&lt;script&gt;&amp;&quot;&apos;\u{FFFD}"
        );
    }

    #[test]
    fn message_colours_match_the_canvas_hues() {
        // hsl(35, 65%, 42%): the canvas's colour for message 0 in light mode.
        assert_eq!(message_hex(0, false, false), "#b17725");
    }
}
