//! Painting density strips: the binning is `lease_view::Strip`'s; this
//! batches every row's spans by shade so that a zoomed-out 100k-run frame is
//! a handful of fills (one per shade and one per kind of mark), not a fill
//! per pixel. Overlapping runs stay red, expiries orange and dead letters
//! purple, so a teacher zoomed out still sees where the duplicates are.
use lease_view::Strip;
use web_sys::CanvasRenderingContext2d;

use super::draw::{Inks, GUTTER_PX};

/// Shades of the strip: few enough that neighbouring columns merge.
pub const LEVELS: u8 = 5;

type Rect = (f64, f64, f64, f64);

/// Every strip of one frame, waiting to be painted together.
#[derive(Default)]
pub struct Batches {
    shades: [Vec<Rect>; LEVELS as usize],
    overlaps: Vec<Rect>,
    expiries: Vec<Rect>,
    dead_letters: Vec<Rect>,
    /// Pixel columns with something in them, over all rows (the test hook's `densityColumns`).
    pub columns: u32,
}

impl Batches {
    /// One row's strip, at `y` with height `h` in canvas pixels.
    pub fn add(&mut self, strip: &Strip, y: f64, h: f64) {
        let painted = strip.painted();
        if painted == 0 {
            return;
        }
        self.columns += painted;
        let x = |c: u32| GUTTER_PX + c as f64;
        for s in strip.spans(LEVELS) {
            self.shades[s.level as usize - 1].push((x(s.from), y, (s.to - s.from) as f64, h));
        }
        // Marks are at least two pixels wide: one red pixel among grey ones
        // is easy to miss on a laptop screen.
        let notch = (h * 0.35).clamp(2.0, 4.0);
        for (a, b) in strip.marked(|c| c.overlaps > 0) {
            self.overlaps.push((x(a) - 0.5, y, (b - a) as f64 + 1.0, h));
        }
        for (a, b) in strip.marked(|c| c.expiries > 0) {
            self.expiries
                .push((x(a) - 0.5, y, (b - a) as f64 + 1.0, notch));
        }
        for (a, b) in strip.marked(|c| c.dead_letters > 0) {
            self.dead_letters
                .push((x(a) - 0.5, y + h - notch, (b - a) as f64 + 1.0, notch));
        }
    }

    /// The shades, in `ink` (an `r,g,b` triple) at up to `alpha`.
    pub fn paint_shades(&self, ctx: &CanvasRenderingContext2d, ink: &str, alpha: f64) {
        for (i, rects) in self.shades.iter().enumerate() {
            if rects.is_empty() {
                continue;
            }
            // The faintest shade is a fifth of the darkest: a lone short
            // run in a wide pixel must still show.
            let a = alpha * (i + 1) as f64 / LEVELS as f64;
            fill_all(ctx, &format!("rgba({ink},{a:.3})"), rects);
        }
    }

    /// Overlaps, expiries and dead letters, over the shades and the bars.
    pub fn paint_marks(&self, ctx: &CanvasRenderingContext2d, p: &Inks) {
        fill_all(ctx, &p.overlap, &self.overlaps);
        fill_all(ctx, &p.halo, &super::bars::striped(&self.overlaps));
        fill_all(ctx, &p.expiry, &self.expiries);
        fill_all(ctx, &p.dead_letter, &self.dead_letters);
    }
}

/// One path, one fill: a canvas call per rectangle but a single raster pass.
pub(super) fn fill_all(ctx: &CanvasRenderingContext2d, colour: &str, rects: &[Rect]) {
    if rects.is_empty() {
        return;
    }
    ctx.set_fill_style_str(colour);
    ctx.begin_path();
    for &(x, y, w, h) in rects {
        ctx.rect(x, y, w, h);
    }
    ctx.fill();
}

/// A legend swatch of the density strip, painted by the strip's own code:
/// every shade from the faintest to the darkest, with `mark` (an overlap,
/// an expiry or a dead letter) in the middle, as a row of the canvas shows it.
pub fn swatch(ctx: &CanvasRenderingContext2d, p: &Inks, mark: Option<StripMark>, w: f64, h: f64) {
    let mut b = Batches::default();
    let step = w / LEVELS as f64;
    for (i, shade) in b.shades.iter_mut().enumerate() {
        // With a mark, the strip under it is a middling shade, as a busy row's is.
        let at = if mark.is_some() { 2 } else { i };
        if mark.is_none() || i == at {
            let (x, width) = if mark.is_some() {
                (0.0, w)
            } else {
                (i as f64 * step, step)
            };
            shade.push((x, 0.0, width, h));
        }
    }
    let notch = (h * 0.35).clamp(2.0, 4.0);
    let middle = (w / 2.0 - 2.0, 4.0);
    match mark {
        None => {}
        Some(StripMark::Overlap) => b.overlaps.push((middle.0, 0.0, middle.1, h)),
        Some(StripMark::Expiry) => b.expiries.push((middle.0, 0.0, middle.1, notch)),
        Some(StripMark::DeadLetter) => b.dead_letters.push((middle.0, h - notch, middle.1, notch)),
    }
    b.paint_shades(ctx, &p.strip, 0.85);
    b.paint_marks(ctx, p);
}

/// What a pixel of the strip is marked with.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum StripMark {
    Overlap,
    Expiry,
    DeadLetter,
}
