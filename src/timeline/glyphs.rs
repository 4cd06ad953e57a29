//! The glyphs of fully painted runs, in bulk (their bars are batched by hue
//! with the narrow ones, `bars.rs`). A run wide enough to carry its marks
//! has a tick per heartbeat, a ✓ or ✗ at its ack, a ◆ at its commit,
//! an outline and a flag if it overlaps, a tick where its lease ran out.
//! Drawn one path each, with their own colour and line width, the calls
//! alone took most of a slider move's frame on a timeline of a few thousand
//! such runs. Here glyphs of a kind share a path, stroked or filled once;
//! the picture is the same, since the glyphs of different runs do not
//! overlap. A path holds at most `PER_PATH` glyphs: Chromium's software
//! raster fills one path of a thousand small closed shapes several times
//! slower than twenty paths of fifty (measured in the headless browser the
//! benchmark runs).

use web_sys::CanvasRenderingContext2d;

use super::draw::{dash, hsla, Inks};
use super::strip::{self, StripMark};

type Rect = (f64, f64, f64, f64);

/// The glyphs of one opacity: the runs of every message, or (while one
/// message is highlighted) those of the others, faded.
#[derive(Default)]
pub struct Layer {
    /// Accepted heartbeats: short upright ticks, `(x, y0, y1)`.
    pub heartbeats: Vec<(f64, f64, f64)>,
    /// Rejected heartbeats: small crosses, `(x, y, r)`.
    pub rejected_heartbeats: Vec<(f64, f64, f64)>,
    /// Accepted acks: ticks, `(x, y, r)`.
    pub acks: Vec<(f64, f64, f64)>,
    /// Rejected acks: crosses on a halo, `(x, y, r)`.
    pub rejected_acks: Vec<(f64, f64, f64)>,
    /// Acks of a message already deleted, answered with nothing to settle:
    /// dashed ticks, `(x, y, r)`.
    pub no_op_acks: Vec<(f64, f64, f64)>,
    /// Releases, accepted then rejected: rings, `(x, y)`.
    pub releases: [Vec<(f64, f64)>; 2],
    /// Commits by what they did (applied, did harm, had no effect): diamonds.
    pub commits: [Vec<(f64, f64)>; 3],
    /// Overlapping runs: a red outline and a flag at the start.
    pub overlaps: Vec<Rect>,
    /// Lease expiries: a line across the row and a head on top, `(x, y, h)`.
    pub expiries: Vec<(f64, f64, f64)>,
    /// Runs leased but never started: a dashed outline in the message's colour.
    pub waiting: Vec<(Rect, String)>,
    /// Runs of the highlighted message: an outline in the text colour.
    pub lit: Vec<Rect>,
}

const RING_R: f64 = 3.0;
const PER_PATH: usize = 48;
const DIAMOND_R: f64 = 3.5;

impl Layer {
    /// Paints the layer at `alpha` (overlap outlines at least half opaque,
    /// so that they read even on a faded run).
    pub fn paint(&self, ctx: &CanvasRenderingContext2d, p: &Inks, alpha: f64, ink: f64) {
        ctx.set_global_alpha(alpha);
        if !self.waiting.is_empty() {
            ctx.set_line_width(ink);
            dash(ctx, &[2.0, 2.0]);
            for ((x, y, w, h), colour) in &self.waiting {
                ctx.set_stroke_style_str(colour);
                ctx.stroke_rect(x + 0.5, y + 0.5, w - 1.0, h - 1.0);
            }
            dash(ctx, &[]);
        }
        stroke(ctx, &p.text, ink, &self.heartbeats, |ctx, &(x, y0, y1)| {
            let x = x.round() + 0.5;
            ctx.move_to(x, y0);
            ctx.line_to(x, y1);
        });
        stroke(
            ctx,
            &p.rejected,
            ink * 1.5,
            &self.rejected_heartbeats,
            |ctx, &c| cross(ctx, c, 0.0),
        );
        stroke(ctx, &p.ack, ink * 2.0, &self.acks, |ctx, &(x, y, r)| {
            ctx.move_to(x - r, y);
            ctx.line_to(x - r / 3.0, y + r * 0.7);
            ctx.line_to(x + r, y - r * 0.8);
        });
        if !self.no_op_acks.is_empty() {
            // Not by colour alone: the tick of an ack that settled nothing
            // is dashed and thinner than one that deleted the message.
            dash(ctx, &[2.0, 1.5]);
            stroke(
                ctx,
                &p.ack,
                ink * 1.5,
                &self.no_op_acks,
                |ctx, &(x, y, r)| {
                    ctx.move_to(x - r, y);
                    ctx.line_to(x - r / 3.0, y + r * 0.7);
                    ctx.line_to(x + r, y - r * 0.8);
                },
            );
            dash(ctx, &[]);
        }
        stroke(ctx, &p.halo, ink * 4.0, &self.rejected_acks, |ctx, &c| {
            cross(ctx, c, 1.0)
        });
        stroke(
            ctx,
            &p.rejected,
            ink * 2.0,
            &self.rejected_acks,
            |ctx, &c| cross(ctx, c, 0.0),
        );
        for (rings, colour) in self.releases.iter().zip([&p.muted, &p.rejected]) {
            stroke(ctx, colour, ink * 1.5, rings, |ctx, &(x, y)| {
                ctx.move_to(x + RING_R, y);
                let _ = ctx.arc(x, y, RING_R, 0.0, std::f64::consts::TAU);
            });
        }
        // Not by colour alone: a rejected release's ring is struck through.
        stroke(ctx, &p.rejected, 1.5, &self.releases[1], |ctx, &(x, y)| {
            ctx.move_to(x - RING_R, y + RING_R);
            ctx.line_to(x + RING_R, y - RING_R);
        });
        for (i, (diamonds, colour)) in self
            .commits
            .iter()
            .zip([&p.text, &p.rejected, &p.muted])
            .enumerate()
        {
            // Filled, then ringed with the halo so that a diamond reads over
            // a bar of any colour; one with no effect is hollow, one that did
            // harm is cut across, so that neither is told by colour alone.
            if i == 2 {
                stroke(ctx, &p.halo, 3.0, diamonds, diamond);
                stroke(ctx, colour, 1.5, diamonds, diamond);
                continue;
            }
            fill(ctx, colour, diamonds, diamond);
            stroke(ctx, &p.halo, ink, diamonds, diamond);
        }
        stroke(ctx, &p.halo, 1.5, &self.commits[1], |ctx, &(x, y)| {
            ctx.move_to(x - DIAMOND_R, y);
            ctx.line_to(x + DIAMOND_R, y);
        });

        stroke(ctx, &p.text, ink * 1.5, &self.lit, |ctx, &(x, y, w, h)| {
            ctx.rect(x - 0.75, y - 0.75, w + 1.5, h + 1.5);
        });

        ctx.set_global_alpha(alpha.max(0.5));
        stroke(
            ctx,
            &p.overlap,
            ink * 2.0,
            &self.overlaps,
            |ctx, &(x, y, w, h)| {
                ctx.rect(x + 1.0, y + 1.0, (w - 2.0).max(1.0), h - 2.0);
            },
        );
        fill(ctx, &p.overlap, &self.overlaps, |ctx, &(x, y, _, _)| {
            ctx.move_to(x, y - 1.0);
            ctx.line_to(x + 7.0, y - 1.0);
            ctx.line_to(x, y + 6.0);
            ctx.close_path();
        });

        ctx.set_global_alpha(alpha);
        stroke(
            ctx,
            &p.expiry,
            ink * 2.0,
            &self.expiries,
            |ctx, &(x, y, h)| {
                ctx.move_to(x, y);
                ctx.line_to(x, y + h);
            },
        );
        fill(ctx, &p.expiry, &self.expiries, |ctx, &(x, y, _)| {
            ctx.move_to(x - 4.0, y);
            ctx.line_to(x + 4.0, y);
            ctx.line_to(x, y + 5.0);
            ctx.close_path();
        });
        ctx.set_global_alpha(1.0);
    }
}

/// Both diagonals of a cross at `(x, y)`, `grow` pixels longer at each end.
fn cross(ctx: &CanvasRenderingContext2d, (x, y, r): (f64, f64, f64), grow: f64) {
    let r = r + grow;
    ctx.move_to(x - r, y - r);
    ctx.line_to(x + r, y + r);
    ctx.move_to(x + r, y - r);
    ctx.line_to(x - r, y + r);
}

fn diamond(ctx: &CanvasRenderingContext2d, &(x, y): &(f64, f64)) {
    let r = DIAMOND_R;
    ctx.move_to(x, y - r);
    ctx.line_to(x + r, y);
    ctx.line_to(x, y + r);
    ctx.line_to(x - r, y);
    ctx.close_path();
}

/// The items in paths of `PER_PATH`, each stroked once.
fn stroke<T>(
    ctx: &CanvasRenderingContext2d,
    colour: &str,
    width: f64,
    items: &[T],
    trace: impl Fn(&CanvasRenderingContext2d, &T),
) {
    if !items.is_empty() {
        ctx.set_stroke_style_str(colour);
        ctx.set_line_width(width);
        in_paths(ctx, items, trace, CanvasRenderingContext2d::stroke);
    }
}

/// The items in paths of `PER_PATH`, each filled once.
fn fill<T>(
    ctx: &CanvasRenderingContext2d,
    colour: &str,
    items: &[T],
    trace: impl Fn(&CanvasRenderingContext2d, &T),
) {
    if !items.is_empty() {
        ctx.set_fill_style_str(colour);
        in_paths(ctx, items, trace, CanvasRenderingContext2d::fill);
    }
}

fn in_paths<T>(
    ctx: &CanvasRenderingContext2d,
    items: &[T],
    trace: impl Fn(&CanvasRenderingContext2d, &T),
    finish: impl Fn(&CanvasRenderingContext2d),
) {
    for some in items.chunks(PER_PATH) {
        ctx.begin_path();
        for item in some {
            trace(ctx, item);
        }
        finish(ctx);
    }
}

/// The legend's swatches, drawn by the glyph code and the palette of the
/// canvas itself, so that the legend cannot read otherwise than the picture.
pub const SWATCH_W: f64 = 22.0;
pub const SWATCH_H: f64 = 12.0;

/// What a swatch of the legend shows; its name is the legend canvas's
/// `data-swatch`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Swatch {
    Run,
    Buffered,
    Lease,
    Expiry,
    Lag,
    Overlap,
    Heartbeat,
    HeartbeatRejected,
    Ack,
    AckRejected,
    AckNoOp,
    Commit,
    Release,
    Crash,
    Strip,
    StripOverlap,
    StripExpiry,
    StripDeadLetter,
}

impl Swatch {
    const ALL: [Swatch; 18] = [
        Swatch::Run,
        Swatch::Buffered,
        Swatch::Lease,
        Swatch::Expiry,
        Swatch::Lag,
        Swatch::Overlap,
        Swatch::Heartbeat,
        Swatch::HeartbeatRejected,
        Swatch::Ack,
        Swatch::AckRejected,
        Swatch::AckNoOp,
        Swatch::Commit,
        Swatch::Release,
        Swatch::Crash,
        Swatch::Strip,
        Swatch::StripOverlap,
        Swatch::StripExpiry,
        Swatch::StripDeadLetter,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Swatch::Run => "run",
            Swatch::Buffered => "buffered",
            Swatch::Lease => "lease",
            Swatch::Expiry => "expiry",
            Swatch::Lag => "lag",
            Swatch::Overlap => "overlap",
            Swatch::Heartbeat => "heartbeat",
            Swatch::HeartbeatRejected => "heartbeat-rejected",
            Swatch::Ack => "ack",
            Swatch::AckRejected => "ack-rejected",
            Swatch::AckNoOp => "ack-no-op",
            Swatch::Commit => "commit",
            Swatch::Release => "release",
            Swatch::Crash => "crash",
            Swatch::Strip => "strip",
            Swatch::StripOverlap => "strip-overlap",
            Swatch::StripExpiry => "strip-expiry",
            Swatch::StripDeadLetter => "strip-dead-letter",
        }
    }

    /// The swatch a legend canvas names.
    pub fn from_name(name: &str) -> Option<Swatch> {
        Swatch::ALL.into_iter().find(|s| s.name() == name)
    }
}

pub fn swatch(ctx: &CanvasRenderingContext2d, kind: Swatch, dark: bool) {
    let p = Inks::of_scheme(dark);
    ctx.clear_rect(0.0, 0.0, SWATCH_W, SWATCH_H);
    let (mx, my) = (SWATCH_W / 2.0, SWATCH_H / 2.0);
    let bar = (1.0, 3.0, SWATCH_W - 2.0, 6.0);
    let run = |id: u32, (x, y, w, h): (f64, f64, f64, f64)| {
        ctx.set_fill_style_str(&hsla(id, dark, 1.0));
        ctx.fill_rect(x, y, w, h);
    };
    let mut layer = Layer::default();
    match kind {
        Swatch::Run => {
            // Three messages, three hues in either palette.
            for (i, id) in [0, 1, 2].into_iter().enumerate() {
                run(id, (1.0 + i as f64 * 7.0, 3.0, 6.0, 6.0));
            }
        }
        Swatch::Lease => {
            ctx.set_fill_style_str(&hsla(0, dark, lease_view::palette::LEASE_OPACITY));
            ctx.fill_rect(0.0, 4.0, SWATCH_W, 4.0);
        }
        Swatch::Buffered => {
            ctx.set_fill_style_str(&hsla(0, dark, lease_view::palette::BUFFERED_OPACITY));
            ctx.fill_rect(bar.0, bar.1, bar.2, bar.3);
            layer.waiting.push((bar, hsla(0, dark, 0.9)));
        }
        Swatch::Overlap => {
            run(0, bar);
            layer.overlaps.push(bar);
        }
        Swatch::Expiry => layer.expiries.push((mx, 1.0, SWATCH_H - 2.0)),
        // The band's stretch past the deadline (thin tick) up to the
        // check's expiry tick.
        Swatch::Lag => {
            ctx.set_fill_style_str(&p.lag);
            ctx.fill_rect(2.0, 6.0, SWATCH_W - 5.0, 4.0);
            ctx.set_fill_style_str(&p.expiry);
            ctx.fill_rect(2.0, 1.0, 1.0, SWATCH_H - 2.0);
            layer.expiries.push((SWATCH_W - 3.0, 1.0, SWATCH_H - 2.0));
        }
        Swatch::Heartbeat => layer.heartbeats.push((mx, 2.0, SWATCH_H - 2.0)),
        Swatch::HeartbeatRejected => layer.rejected_heartbeats.push((mx, my, 3.0)),
        Swatch::Ack => layer.acks.push((mx, my, 4.0)),
        Swatch::AckRejected => layer.rejected_acks.push((mx, my, 3.5)),
        Swatch::AckNoOp => layer.no_op_acks.push((mx, my, 4.0)),
        // Side by side, as the legend names them: applied, duplicate, no effect.
        Swatch::Commit => {
            for (kind, x) in [4.0, 11.0, 18.0].into_iter().enumerate() {
                layer.commits[kind].push((x, my));
            }
        }
        // Accepted, then rejected.
        Swatch::Release => {
            layer.releases[0].push((5.0, my));
            layer.releases[1].push((16.0, my));
        }
        Swatch::Crash => crash(ctx, p, mx, 0.0, SWATCH_H, SWATCH_W - mx),
        Swatch::Strip => strip::swatch(ctx, p, None, SWATCH_W, SWATCH_H),
        Swatch::StripOverlap => strip::swatch(ctx, p, Some(StripMark::Overlap), SWATCH_W, SWATCH_H),
        Swatch::StripExpiry => strip::swatch(ctx, p, Some(StripMark::Expiry), SWATCH_W, SWATCH_H),
        Swatch::StripDeadLetter => {
            strip::swatch(ctx, p, Some(StripMark::DeadLetter), SWATCH_W, SWATCH_H)
        }
    }
    layer.paint(ctx, p, 1.0, 1.0);
}

/// A crash: a heavy line across the lane and the lane shaded while the
/// worker is down. A line, not a cross: a cross is a rejected heartbeat.
pub fn crash(ctx: &CanvasRenderingContext2d, p: &Inks, x: f64, top: f64, h: f64, down_w: f64) {
    ctx.set_fill_style_str(&p.down);
    ctx.fill_rect(x, top, down_w, h);
    ctx.set_stroke_style_str(&p.crash);
    ctx.set_line_width(2.5);
    ctx.begin_path();
    ctx.move_to(x, top);
    ctx.line_to(x, top + h);
    ctx.stroke();
}
