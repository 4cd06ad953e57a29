//! Narrow bars in bulk. Between the density strip (under a pixel) and a bar
//! wide enough to carry its marks, a zoom level shows thousands of bars a
//! few pixels wide; painted one by one (a colour string, a fill, glyphs for
//! every heartbeat and ack) they cost a quarter of a second per frame on a
//! 100k-run timeline. Here they are batched by hue (message colours are
//! drawn from 24, `lease_view::MESSAGE_HUES`), and a batch is one fill; wide
//! bars are filled the same way. What went
//! wrong stays visible: an overlapping run is filled red, an expiry is an
//! orange tick, and a rejected call or a duplicate commit a red dot where
//! its glyph would be (the glyphs cost a path each and would not fit).
use lease_sim::run::{Delivery, Effect, LeaseEnd, MarkKind};
use lease_view::palette::{BUFFERED_OPACITY, LEASE_OPACITY};
use lease_view::{bar_of, hue_hsl, lag_of, message_hue, Row, MESSAGE_HUES as HUES};
use web_sys::CanvasRenderingContext2d;

use super::draw::{Drawn, Frame, Inks, GUTTER_PX};
use super::strip::fill_all;

/// Narrower than this, a bar's glyphs (heartbeat ticks, ✓, ◆) would overlap.
pub const DETAIL_PX: f64 = 12.0;

pub type Rect = (f64, f64, f64, f64);

/// A delivery placed on the timeline: which one, and the row it is drawn in,
/// at `y` and `h` high. What the batches and the full paint all take.
#[derive(Clone, Copy)]
pub struct Placed<'a> {
    pub ix: u32,
    pub d: &'a Delivery,
    pub row: Row,
    pub y: f64,
    pub h: f64,
}

/// Run bars, lease bands and bars of runs that never started, by hue: each
/// batch is one fill. Wide runs are batched the same way (`draw.rs`).
pub struct Fills {
    solid: Vec<Vec<Rect>>,
    band: Vec<Vec<Rect>>,
    waiting: Vec<Vec<Rect>>,
    /// The lease held past its deadline until the broker's check noticed:
    /// the band's stretch from the deadline to the check, in the expiry's
    /// colour, and a thin tick across the row at the deadline.
    lag: Vec<Rect>,
    deadlines: Vec<Rect>,
}

impl Default for Fills {
    fn default() -> Self {
        Fills {
            solid: vec![Vec::new(); HUES],
            band: vec![Vec::new(); HUES],
            waiting: vec![Vec::new(); HUES],
            lag: Vec::new(),
            deadlines: Vec::new(),
        }
    }
}

impl Fills {
    /// Files delivery `d`'s lease band and run bar, in a row at `y` and `h`
    /// high; returns the bar and whether the run was leased but never
    /// started.
    pub fn delivery(&mut self, f: &Frame, p: &Placed, drawn: &mut Drawn) -> (Rect, bool) {
        let Placed { d, row, y, h, .. } = *p;
        let bar = bar_of(d, f.run.end_ms);
        let buffered = matches!(row, Row::Buffer { .. });
        // The lease behind the run: a thin band from the receive to its end
        // (in a buffer row the whole row is the lease).
        let band_h = if buffered {
            h
        } else {
            (h * 0.18).clamp(2.0, 4.0)
        };
        if !buffered {
            let lx0 = f.x(d.received_at);
            let lx1 = f.x(d.lease_ended_at.min(f.playhead)).max(lx0 + 1.0);
            self.band[message_hue(d.message)].push((lx0, y + h - band_h - 1.0, lx1 - lx0, band_h));
        }
        if let Some((deadline, end)) = lag_of(d, f.playhead) {
            let (gx0, gx1) = (f.x(deadline), f.x(end));
            // Taller than the band it overlays (the gap above it and the
            // row's last pixel), so it reads apart from any message's hue.
            let (top, lh) = if buffered {
                (y, h)
            } else {
                (y + h - band_h - 2.0, band_h + 2.0)
            };
            self.lag.push((gx0, top, (gx1 - gx0).max(1.0), lh));
            self.deadlines.push((gx0.round(), y, 1.0, h));
            drawn.lag(gx0, gx1);
        }
        let x0 = f.x(bar.start);
        let x1 = f.x(bar.end.min(f.playhead)).max(x0 + 1.0);
        let (by, bh) = if buffered {
            (y, h - 1.0)
        } else {
            (y + 2.0, (h - band_h - 4.0).max(2.0))
        };
        let r = (x0, by, x1 - x0, bh);
        if bar.buffered {
            self.waiting[message_hue(d.message)].push(r);
        } else {
            self.solid[message_hue(d.message)].push(r);
            if !f.faded(d.message) {
                drawn.consider(x0.max(GUTTER_PX), x1.min(f.width), by + bh / 2.0);
            }
        }
        (r, bar.buffered)
    }

    /// Bands, then the bars over them, then the lags.
    pub fn paint(&self, ctx: &CanvasRenderingContext2d, dark: bool, p: &Inks) {
        for (hue, rects) in self.band.iter().enumerate() {
            fill_all(ctx, &colour(hue, dark, LEASE_OPACITY), rects);
        }
        for (hue, rects) in self.waiting.iter().enumerate() {
            fill_all(ctx, &colour(hue, dark, BUFFERED_OPACITY), rects);
        }
        for (hue, rects) in self.solid.iter().enumerate() {
            fill_all(ctx, &colour(hue, dark, 1.0), rects);
        }
        fill_all(ctx, &p.lag, &self.lag);
        fill_all(ctx, &p.expiry, &self.deadlines);
    }
}

#[derive(Default)]
pub struct NarrowBars {
    fills: Fills,
    overlaps: Vec<Rect>,
    expiries: Vec<Rect>,
    rejected: Vec<Rect>,
}

impl NarrowBars {
    /// Takes the delivery if its bar is narrow and plain enough to batch;
    /// `false`: paint it in full.
    pub fn take(&mut self, f: &Frame, p: &Placed, drawn: &mut Drawn) -> bool {
        let Placed { ix, d, y, h, .. } = *p;
        let bar = bar_of(d, f.run.end_ms);
        let x0 = f.x(bar.start);
        let x1 = f.x(bar.end.min(f.playhead)).max(x0 + 1.0);
        if x1 - x0 >= DETAIL_PX || f.highlight == Some(d.message) {
            return false;
        }
        let (r, _) = self.fills.delivery(f, p, drawn);
        let (by, bh) = (r.1, r.3);
        if d.overlaps.is_some() && d.started_at.is_some_and(|s| s <= f.playhead) {
            self.overlaps.push(r);
        }
        if d.lease_end == LeaseEnd::Expired && d.lease_ended_at <= f.playhead {
            let ex = f.x(d.lease_ended_at).round();
            self.expiries.push((ex - 0.5, y, 2.0, h));
        }
        let mid = by + bh / 2.0;
        for t in bad_marks(f, ix, d) {
            self.rejected.push((f.x(t) - 1.5, mid - 1.5, 3.0, 3.0));
        }
        true
    }

    /// Bands and bars, under the fully painted ones.
    pub fn paint_bars(&self, ctx: &CanvasRenderingContext2d, dark: bool, p: &Inks) {
        self.fills.paint(ctx, dark, p);
    }

    /// Overlaps and expiries, over every bar.
    pub fn paint_marks(&self, ctx: &CanvasRenderingContext2d, p: &Inks) {
        fill_all(ctx, &p.overlap, &self.overlaps);
        fill_all(ctx, &p.halo, &striped(&self.overlaps));
        fill_all(ctx, &p.expiry, &self.expiries);
        fill_all(ctx, &p.halo, &grown(&self.rejected));
        fill_all(ctx, &p.rejected, &self.rejected);
    }
}

/// Times of a rejected heartbeat, ack or release, or of a commit that did
/// harm (a duplicate, a lost update): what the glyphs would have said.
fn bad_marks<'a>(f: &'a Frame, ix: u32, d: &'a Delivery) -> impl Iterator<Item = u64> + 'a {
    let harm = matches!(d.effect, Effect::Duplicate | Effect::LostUpdate);
    f.index.marks_of(ix).iter().filter_map(move |&mi| {
        let m = f.run.marks.get(mi as usize)?;
        let bad = match m.kind {
            MarkKind::ExtendRejected | MarkKind::AckRejected | MarkKind::ReleaseRejected => true,
            MarkKind::Commit => harm,
            _ => false,
        };
        (bad && m.t <= f.playhead).then_some(m.t)
    })
}

/// A line of halo along the middle of each overlap: told from a plain bar
/// by its stripe, not by its colour alone.
pub(super) fn striped(rects: &[Rect]) -> Vec<Rect> {
    rects
        .iter()
        .map(|&(x, y, w, h)| (x, y + h / 2.0 - 0.5, w, 1.0))
        .collect()
}

/// A halo a pixel around each dot, so red reads over a red-filled bar.
fn grown(rects: &[Rect]) -> Vec<Rect> {
    rects
        .iter()
        .map(|&(x, y, w, h)| (x - 1.0, y - 1.0, w + 2.0, h + 2.0))
        .collect()
}

/// Message hue `hue` at opacity `a`, in the page's palette.
pub fn colour(hue: usize, dark: bool, a: f64) -> String {
    if super::draw::colour_blind() {
        let c = lease_view::palette::cb_hue(hue, dark);
        return format!("rgba({},{})", c.rgb_triple(), a);
    }
    let (h, s, l) = hue_hsl(hue, dark);
    let (h, s, l, a) = (
        format!("{h:.1}"),
        s.to_string(),
        l.to_string(),
        a.to_string(),
    );
    format!("hsla({h},{s}%,{l}%,{a})")
}
