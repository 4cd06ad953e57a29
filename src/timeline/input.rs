//! Keys and pointers -> view commands. Keys go by `KeyboardEvent.code` (the
//! physical key) for W/A/S/D, so they sit under the left hand on AZERTY and
//! Dvorak keyboards too; `+`/`-` go by the character typed. The arrow keys
//! move between runs (`keys.rs`), not the view.

/// One way to change the view: buttons, keys, wheel and pinch all become one
/// of these, and `Timeline::apply` is the only place that moves the view.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ViewCommand {
    /// Zoom by `factor` (> 1 zooms in) about a canvas x in plot pixels; `None`: the centre.
    Zoom {
        factor: f64,
        at_px: Option<f64>,
    },
    /// Pan the time axis by plot pixels (positive: content moves right).
    Pan {
        dx_px: f64,
    },
    /// Scroll the lanes by pixels (positive: content moves down).
    Scroll {
        dy_px: f64,
    },
    Fit,
    /// Escape: drop the selection.
    Deselect,
}

/// A key step pans a tenth of the view and zooms by 1.5.
pub const KEY_ZOOM: f64 = 1.5;
const KEY_PAN_FRACTION: f64 = 0.1;
const KEY_SCROLL_PX: f64 = 40.0;

pub fn key_command(code: &str, key: &str, plot_width: f64) -> Option<ViewCommand> {
    let pan = plot_width * KEY_PAN_FRACTION;
    Some(match (code, key) {
        ("KeyA", _) => ViewCommand::Pan { dx_px: pan },
        ("KeyD", _) => ViewCommand::Pan { dx_px: -pan },
        ("KeyW", _) => ViewCommand::Scroll {
            dy_px: KEY_SCROLL_PX,
        },
        ("KeyS", _) => ViewCommand::Scroll {
            dy_px: -KEY_SCROLL_PX,
        },
        ("KeyF", _) => ViewCommand::Fit,
        ("Escape", _) => ViewCommand::Deselect,
        (_, "+" | "=") | ("NumpadAdd", _) => ViewCommand::Zoom {
            factor: KEY_ZOOM,
            at_px: None,
        },
        (_, "-" | "_") | ("NumpadSubtract", _) => ViewCommand::Zoom {
            factor: 1.0 / KEY_ZOOM,
            at_px: None,
        },
        _ => return None,
    })
}

/// Wheel: zoom about the pointer. A horizontal wheel (or shift + wheel)
/// pans. `delta_mode` 1 counts lines, 2 pages.
pub fn wheel_command(dx: f64, dy: f64, delta_mode: u32, shift: bool, at_px: f64) -> ViewCommand {
    let unit = match delta_mode {
        1 => 16.0,
        2 => 400.0,
        _ => 1.0,
    };
    let (dx, dy) = (dx * unit, dy * unit);
    if shift || dx.abs() > dy.abs() {
        let d = if shift && dx == 0.0 { dy } else { dx };
        ViewCommand::Pan { dx_px: -d }
    } else {
        ViewCommand::Zoom {
            factor: (-dy * 0.002).exp(),
            at_px: Some(at_px),
        }
    }
}

/// The pointers down on the canvas: one drags, two pinch.
#[derive(Debug, Default, Clone)]
pub struct Pointers {
    down: Vec<(i32, f64, f64)>,
    /// Total distance moved since the first pointer went down: a press
    /// that moved less than a few pixels is a click.
    travel: f64,
    /// How far a press may move and still be a click: a fingertip wobbles
    /// more than a mouse.
    slop: f64,
}

pub const CLICK_SLOP_PX: f64 = 4.0;
pub const TAP_SLOP_PX: f64 = 12.0;

impl Pointers {
    pub fn is_empty(&self) -> bool {
        self.down.is_empty()
    }
    /// Pointer `id` went down at `x`, `y`; `touch`: a finger.
    pub fn press(&mut self, id: i32, x: f64, y: f64, touch: bool) {
        if self.down.is_empty() {
            self.travel = 0.0;
            self.slop = if touch { TAP_SLOP_PX } else { CLICK_SLOP_PX };
        }
        self.down.retain(|p| p.0 != id);
        self.down.push((id, x, y));
    }
    /// Commands for a move of pointer `id`; empty when it is not down.
    pub fn moved(&mut self, id: i32, x: f64, y: f64) -> Vec<ViewCommand> {
        let Some(i) = self.down.iter().position(|p| p.0 == id) else {
            return Vec::new();
        };
        let (_, px, py) = self.down[i];
        self.travel += (x - px).abs() + (y - py).abs();
        let out = match self.down.len() {
            1 => vec![
                ViewCommand::Pan { dx_px: x - px },
                ViewCommand::Scroll { dy_px: y - py },
            ],
            2 => {
                let (_, ox, oy) = self.down[1 - i];
                let before = ((px - ox).powi(2) + (py - oy).powi(2)).sqrt();
                let after = ((x - ox).powi(2) + (y - oy).powi(2)).sqrt();
                // The pair's middle moves half as far as this finger. On a
                // touch screen one finger's vertical swipe scrolls the page
                // (`touch-action: pan-y`), so two fingers move the lanes.
                let mut out = vec![
                    ViewCommand::Pan {
                        dx_px: (x - px) / 2.0,
                    },
                    ViewCommand::Scroll {
                        dy_px: (y - py) / 2.0,
                    },
                ];
                if before > 1.0 && after > 1.0 {
                    out.push(ViewCommand::Zoom {
                        factor: after / before,
                        at_px: Some((x + ox) / 2.0),
                    });
                }
                out
            }
            _ => Vec::new(),
        };
        self.down[i] = (id, x, y);
        out
    }
    /// True when this release ends a click (one pointer, barely moved).
    pub fn release(&mut self, id: i32) -> bool {
        let was_single = self.down.len() == 1;
        self.down.retain(|p| p.0 != id);
        was_single && self.down.is_empty() && self.travel < self.slop
    }

    /// Moved far enough that this press is no longer a click or a tap.
    pub fn dragging(&self) -> bool {
        self.travel >= self.slop
    }
    pub fn clear(&mut self) {
        self.down.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn total(cmds: &[ViewCommand]) -> (f64, f64, f64) {
        cmds.iter()
            .fold((0.0, 0.0, 1.0), |(dx, dy, z), c| match *c {
                ViewCommand::Pan { dx_px } => (dx + dx_px, dy, z),
                ViewCommand::Scroll { dy_px } => (dx, dy + dy_px, z),
                ViewCommand::Zoom { factor, .. } => (dx, dy, z * factor),
                _ => (dx, dy, z),
            })
    }

    #[test]
    fn a_finger_that_wobbles_a_few_pixels_still_taps_but_a_mouse_that_does_drags() {
        for (touch, tapped) in [(true, true), (false, false)] {
            let mut p = Pointers::default();
            p.press(1, 100.0, 100.0, touch);
            p.moved(1, 104.0, 103.0);
            assert_eq!(p.release(1), tapped, "touch: {touch}");
        }
        let mut p = Pointers::default();
        p.press(1, 100.0, 100.0, true);
        p.moved(1, 130.0, 100.0);
        assert!(p.dragging());
        assert!(!p.release(1), "a swipe is no tap");
    }

    #[test]
    fn one_finger_sideways_pans_the_time_axis() {
        let mut p = Pointers::default();
        p.press(1, 100.0, 200.0, true);
        let (dx, dy, zoom) = total(&p.moved(1, 160.0, 200.0));
        assert_eq!((dx, dy), (60.0, 0.0));
        assert!((zoom - 1.0).abs() < 1e-9);
    }

    #[test]
    fn two_fingers_dragged_together_scroll_the_lanes_without_zooming() {
        let mut p = Pointers::default();
        p.press(1, 100.0, 200.0, true);
        p.press(2, 180.0, 200.0, true);
        let mut cmds = p.moved(1, 100.0, 160.0);
        cmds.extend(p.moved(2, 180.0, 160.0));
        let (dx, dy, zoom) = total(&cmds);
        assert_eq!((dx, dy), (0.0, -40.0));
        assert!((zoom - 1.0).abs() < 1e-9, "zoomed by {zoom}");
    }

    #[test]
    fn two_fingers_spread_apart_zoom_in_and_do_not_pan() {
        let mut p = Pointers::default();
        p.press(1, 100.0, 200.0, true);
        p.press(2, 180.0, 200.0, true);
        let mut cmds = p.moved(1, 60.0, 200.0);
        cmds.extend(p.moved(2, 220.0, 200.0));
        let (dx, dy, zoom) = total(&cmds);
        assert_eq!((dx, dy), (0.0, 0.0));
        assert!((zoom - 2.0).abs() < 1e-9, "zoomed by {zoom}");
    }
}
