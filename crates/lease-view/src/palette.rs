//! The timeline's colours, light and dark: the one table the page's canvas,
//! the SVG export and the page's CSS read. The CSS holds a block written from
//! it (`css_block`; `cargo run -p lease-view --example palette-css` rewrites
//! it, and a test fails while the two differ).
//!
//! Red is reserved for what went wrong: overlapping runs, rejected calls,
//! crashes. Message colours come from `message_hsl`, which skips reds.

/// An sRGB colour and its opacity.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Colour {
    pub r: u8,
    pub g: u8,
    pub b: u8,
    /// 0 (transparent) to 1 (opaque).
    pub alpha: f64,
}

impl Colour {
    /// An opaque colour from `0xrrggbb`.
    pub const fn hex(rgb: u32) -> Colour {
        Colour {
            r: (rgb >> 16) as u8,
            g: (rgb >> 8) as u8,
            b: rgb as u8,
            alpha: 1.0,
        }
    }

    pub const fn rgba(r: u8, g: u8, b: u8, alpha: f64) -> Colour {
        Colour { r, g, b, alpha }
    }

    /// `#rrggbb`, without the opacity: SVG 1.1 has no `rgba()`, so the SVG
    /// export writes the opacity apart.
    pub fn rgb_hex(&self) -> String {
        format!("#{:02x}{:02x}{:02x}", self.r, self.g, self.b)
    }

    /// `r,g,b`, for `rgba()` at an opacity of the caller's choosing (the
    /// density strip's shades, the CSS legend's swatches).
    pub fn rgb_triple(&self) -> String {
        format!("{},{},{}", self.r, self.g, self.b)
    }

    /// As CSS and the canvas take it: `#rrggbb` when opaque, else `rgba()`.
    pub fn css(&self) -> String {
        if self.alpha >= 1.0 {
            self.rgb_hex()
        } else {
            format!("rgba({},{})", self.rgb_triple(), self.alpha)
        }
    }
}

/// The timeline's colours by what they mean.
#[derive(Debug, Clone, PartialEq)]
pub struct Palette {
    /// Behind everything: the canvas, the axis, the toolbar buttons.
    pub background: Colour,
    /// Worker lanes alternate between these two.
    pub lane_even: Colour,
    pub lane_odd: Colour,
    /// Labels, heartbeat ticks, commits, the playhead line.
    pub text: Colour,
    /// Axis ticks, redelivery arrows, releases, pauses, secondary text.
    pub muted: Colour,
    /// Vertical lines at each tick.
    pub grid: Colour,
    /// Around the canvas, the hover card and the details panel.
    pub border: Colour,
    /// The hover card's and the details panel's ground.
    pub card: Colour,
    /// A pressed toolbar button (Workers / Messages).
    pub pressed: Colour,
    /// A run in the legend. On the canvas each message has its own colour
    /// (`message_hsl`); this is one of them, as a sample.
    pub run: Colour,
    /// An overlapping run's outline and flag, the dashed link to its twin,
    /// and a strip pixel that holds an overlapping run.
    pub overlap: Colour,
    /// A rejected heartbeat, ack or release (✕, ✗), and a duplicate commit.
    pub rejected: Colour,
    /// A worker's crash line and its label.
    pub crash: Colour,
    /// A lane while its worker is down after a crash.
    pub down: Colour,
    /// An accepted ack (✓).
    pub ack: Colour,
    /// A worker's restart line.
    pub restart: Colour,
    /// Where a lease ran out.
    pub expiry: Colour,
    /// A dead letter's mark and label, and the dead-lettered state.
    pub dead_letter: Colour,
    /// A lane while its worker is paused; the part of a summarised run not kept.
    pub pause: Colour,
    /// The veil over what playback has not reached yet.
    pub unplayed: Colour,
    /// The time under the pointer, shared with the charts.
    pub cursor: Colour,
    /// A message waiting in the queue (Messages view).
    pub available: Colour,
    /// A message after its delete (Messages view).
    pub deleted: Colour,
    /// Behind text drawn over bars, so that it reads.
    pub halo: Colour,
    /// The density strip's ink (runs under a pixel wide), drawn at
    /// opacities by how much run time a pixel holds: a neutral slate, since
    /// one pixel holds runs of many messages.
    pub strip: Colour,
}

/// Opacity of a lease band behind its run (message colour).
pub const LEASE_OPACITY: f64 = 0.45;
/// Opacity of a lease's stretch past its deadline, until the broker's
/// periodic check took it back (expiry colour).
pub const LAG_OPACITY: f64 = 0.7;
/// Opacity of a run leased but waiting in the worker's buffer.
pub const BUFFERED_OPACITY: f64 = 0.35;
/// Opacity of a message's in-flight span (Messages view).
pub const IN_FLIGHT_OPACITY: f64 = 0.4;
/// Opacity of a message's dead-lettered span (Messages view).
pub const DEAD_LETTERED_OPACITY: f64 = 0.45;

pub const LIGHT: Palette = Palette {
    background: Colour::hex(0xffffff),
    lane_even: Colour::hex(0xf6f7f9),
    lane_odd: Colour::hex(0xeef0f4),
    text: Colour::hex(0x1d2330),
    muted: Colour::hex(0x5b6475),
    grid: Colour::rgba(30, 40, 60, 0.08),
    border: Colour::hex(0xd5d9e2),
    card: Colour::hex(0xffffff),
    pressed: Colour::hex(0xe3e8f2),
    run: Colour::hex(0x2562b1),
    overlap: Colour::hex(0xd11a2a),
    rejected: Colour::hex(0xd11a2a),
    crash: Colour::hex(0xd11a2a),
    down: Colour::rgba(209, 26, 42, 0.10),
    ack: Colour::hex(0x16813a),
    restart: Colour::hex(0x16813a),
    expiry: Colour::hex(0xb35c00),
    dead_letter: Colour::hex(0x6b2fb3),
    pause: Colour::rgba(90, 100, 120, 0.18),
    unplayed: Colour::rgba(240, 242, 246, 0.85),
    cursor: Colour::hex(0x1d2330),
    available: Colour::rgba(179, 92, 0, 0.35),
    deleted: Colour::rgba(22, 129, 58, 0.45),
    halo: Colour::rgba(255, 255, 255, 0.85),
    strip: Colour::hex(0x34405c),
};

pub const DARK: Palette = Palette {
    background: Colour::hex(0x14171d),
    lane_even: Colour::hex(0x1b1f27),
    lane_odd: Colour::hex(0x20252f),
    text: Colour::hex(0xe6e9ef),
    muted: Colour::hex(0x9aa3b5),
    grid: Colour::rgba(220, 230, 255, 0.08),
    border: Colour::hex(0x343b48),
    card: Colour::hex(0x1f242d),
    pressed: Colour::hex(0x2c3441),
    run: Colour::hex(0x679de4),
    overlap: Colour::hex(0xff5c6a),
    rejected: Colour::hex(0xff5c6a),
    crash: Colour::hex(0xff5c6a),
    down: Colour::rgba(255, 92, 106, 0.14),
    ack: Colour::hex(0x4cd07d),
    restart: Colour::hex(0x4cd07d),
    expiry: Colour::hex(0xffad4d),
    dead_letter: Colour::hex(0xb98cff),
    pause: Colour::rgba(160, 170, 190, 0.20),
    unplayed: Colour::rgba(20, 23, 29, 0.80),
    cursor: Colour::hex(0xe6e9ef),
    available: Colour::rgba(255, 173, 77, 0.35),
    deleted: Colour::rgba(76, 208, 125, 0.45),
    halo: Colour::rgba(20, 23, 29, 0.85),
    strip: Colour::hex(0xaab8d4),
};

/// The colour-blind-safe palette (`palette=cb`), light: Okabe and Ito's
/// colours, darkened where they would not reach 3:1 on the lanes. Red and
/// green never tell two things apart: an accepted ack is blue, what went
/// wrong vermillion. What it does not change is `LIGHT`'s.
pub const CB_LIGHT: Palette = Palette {
    run: Colour::hex(0x0072b2),
    overlap: Colour::hex(0xb34a00),
    rejected: Colour::hex(0xb34a00),
    crash: Colour::hex(0xb34a00),
    down: Colour::rgba(179, 74, 0, 0.10),
    ack: Colour::hex(0x0072b2),
    restart: Colour::hex(0x0072b2),
    expiry: Colour::hex(0xa86a00),
    dead_letter: Colour::hex(0xa8558a),
    // Opaque: in the Messages view these are a state's only mark.
    available: Colour::hex(0xa86a00),
    deleted: Colour::hex(0x0072b2),
    ..LIGHT
};

pub const CB_DARK: Palette = Palette {
    run: Colour::hex(0x56b4e9),
    overlap: Colour::hex(0xf07a3a),
    rejected: Colour::hex(0xf07a3a),
    crash: Colour::hex(0xf07a3a),
    down: Colour::rgba(240, 122, 58, 0.14),
    ack: Colour::hex(0x56b4e9),
    restart: Colour::hex(0x56b4e9),
    expiry: Colour::hex(0xe69f00),
    dead_letter: Colour::hex(0xcc79a7),
    available: Colour::hex(0xe69f00),
    deleted: Colour::hex(0x56b4e9),
    ..DARK
};

/// Message colours of the colour-blind-safe palette, light then dark: six
/// of Okabe and Ito's hues (vermillion left for what went wrong). Four
/// neighbouring `message_hue`s share one, so neighbouring ids still differ.
pub const CB_MESSAGES: [[Colour; 6]; 2] = [
    [
        Colour::hex(0x0072b2),
        Colour::hex(0xa86a00),
        Colour::hex(0x007a5a),
        Colour::hex(0xa8558a),
        Colour::hex(0x2f80b8),
        Colour::hex(0x7f7300),
    ],
    [
        Colour::hex(0x56b4e9),
        Colour::hex(0xe69f00),
        Colour::hex(0x1fb58a),
        Colour::hex(0xcc79a7),
        Colour::hex(0x7fa6ff),
        Colour::hex(0xf0e442),
    ],
];

/// Message hue `index`'s colour in the colour-blind-safe palette.
pub fn cb_hue(index: usize, dark: bool) -> Colour {
    CB_MESSAGES[usize::from(dark)][index.min(MESSAGE_HUES - 1) * 6 / MESSAGE_HUES]
}

impl Palette {
    pub fn of(dark: bool) -> &'static Palette {
        Palette::of_cb(dark, false)
    }

    /// The scheme's palette, colour-blind-safe or not.
    pub fn of_cb(dark: bool, cb: bool) -> &'static Palette {
        match (dark, cb) {
            (false, false) => &LIGHT,
            (true, false) => &DARK,
            (false, true) => &CB_LIGHT,
            (true, true) => &CB_DARK,
        }
    }

    /// Every colour with its name in the CSS (`--tl-NAME`).
    pub fn roles(&self) -> [(&'static str, Colour); 25] {
        [
            ("background", self.background),
            ("lane-even", self.lane_even),
            ("lane-odd", self.lane_odd),
            ("text", self.text),
            ("muted", self.muted),
            ("grid", self.grid),
            ("border", self.border),
            ("card", self.card),
            ("pressed", self.pressed),
            ("run", self.run),
            ("overlap", self.overlap),
            ("rejected", self.rejected),
            ("crash", self.crash),
            ("down", self.down),
            ("ack", self.ack),
            ("restart", self.restart),
            ("expiry", self.expiry),
            ("dead-letter", self.dead_letter),
            ("pause", self.pause),
            ("unplayed", self.unplayed),
            ("cursor", self.cursor),
            ("available", self.available),
            ("deleted", self.deleted),
            ("halo", self.halo),
            ("strip", self.strip),
        ]
    }

    /// `--tl-NAME` (the colour as the canvas paints it) and, for the
    /// `RGB_ROLES`, `--tl-NAME-rgb` (its `r, g, b`, for an opacity of the
    /// stylesheet's own), one role a line; only the roles that differ from
    /// `base`'s, if given.
    fn custom_properties(&self, indent: &str, base: Option<&Palette>) -> String {
        let mut out = String::new();
        let base = base.map(Palette::roles);
        for (i, (name, c)) in self.roles().into_iter().enumerate() {
            if base.is_some_and(|b| b[i].1 == c) {
                continue;
            }
            out.push_str(&format!("{indent}--tl-{name}: {};", c.css()));
            if RGB_ROLES.contains(&name) {
                out.push_str(&format!(" --tl-{name}-rgb: {}, {}, {};", c.r, c.g, c.b));
            }
            out.push('\n');
        }
        out
    }
}

/// The roles the stylesheet takes at an opacity of its own
/// (`rgba(var(--tl-NAME-rgb), …)`): only these are written with their
/// `r, g, b`, since no other role is drawn at an opacity of its own.
pub const RGB_ROLES: [&str; 6] = [
    "run",
    "pause",
    "available",
    "dead-letter",
    "deleted",
    "strip",
];

/// The first and last lines of the palette's block in `static/style.css`.
pub const CSS_BEGIN: &str = "/* palette: begin (written by `cargo run -p lease-view --example palette-css`; edit crates/lease-view/src/palette.rs) */";
pub const CSS_END: &str = "/* palette: end */";

/// The stylesheet's block: the timeline's custom properties for both
/// schemes, then what the colour-blind-safe palette (`<html
/// data-palette="cb">`) changes in each, with its first and last lines.
pub fn css_block() -> String {
    let opacity = |name: &str, v: f64| format!("  --tl-{name}-opacity: {};\n", v);
    format!(
        "{CSS_BEGIN}\n:root {{\n{}{}{}{}{}}}\n:root[data-theme=dark] {{\n{}}}\n\
         :root[data-palette=cb] {{\n{}}}\n:root[data-palette=cb][data-theme=dark] {{\n{}}}\n{CSS_END}",
        LIGHT.custom_properties("  ", None),
        opacity("lease", LEASE_OPACITY),
        opacity("buffered", BUFFERED_OPACITY),
        opacity("in-flight", IN_FLIGHT_OPACITY),
        opacity("dead-lettered", DEAD_LETTERED_OPACITY),
        DARK.custom_properties("  ", None),
        CB_LIGHT.custom_properties("  ", Some(&LIGHT)),
        CB_DARK.custom_properties("  ", Some(&DARK)),
    )
}

/// The stylesheet has no palette block to replace.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NoPaletteBlock;

impl std::fmt::Display for NoPaletteBlock {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the stylesheet has no line `{CSS_BEGIN}` followed by a line `{CSS_END}`"
        )
    }
}

impl std::error::Error for NoPaletteBlock {}

/// The palette's block as `stylesheet` holds it, first and last lines included.
pub fn css_block_in(stylesheet: &str) -> Result<&str, NoPaletteBlock> {
    let start = stylesheet.find(CSS_BEGIN).ok_or(NoPaletteBlock)?;
    let len = stylesheet[start..].find(CSS_END).ok_or(NoPaletteBlock)?;
    Ok(&stylesheet[start..start + len + CSS_END.len()])
}

/// `stylesheet` with its palette block written anew from the palette.
pub fn with_css_block(stylesheet: &str) -> Result<String, NoPaletteBlock> {
    let old = css_block_in(stylesheet)?;
    let start = old.as_ptr() as usize - stylesheet.as_ptr() as usize;
    let mut out = String::with_capacity(stylesheet.len() + 256);
    out.push_str(&stylesheet[..start]);
    out.push_str(&css_block());
    out.push_str(&stylesheet[start + old.len()..]);
    Ok(out)
}

/// How many hues message colours are drawn from: few enough that the
/// timeline fills every run of a hue at once (one fill per hue), while
/// golden-ratio steps still give neighbouring ids distant hues.
pub const MESSAGE_HUES: usize = 24;

/// A stable colour per message id: golden-ratio hues spread neighbouring ids
/// far apart, skipping reds (red marks overlapping runs), rounded to one of
/// `MESSAGE_HUES`, so the canvas and the SVG export agree. Lighter in dark
/// mode.
pub fn message_hsl(id: u32, dark: bool) -> (f64, f64, f64) {
    hue_hsl(message_hue(id), dark)
}

/// Which of the `MESSAGE_HUES` hues message `id` is drawn in.
pub fn message_hue(id: u32) -> usize {
    let frac = (id as f64 * 0.618_033_988_749_895).fract();
    (frac * (MESSAGE_HUES - 1) as f64).round() as usize
}

/// Hue number `index` (of `MESSAGE_HUES`), as hue, saturation and lightness.
pub fn hue_hsl(index: usize, dark: bool) -> (f64, f64, f64) {
    let hue = 35.0 + index.min(MESSAGE_HUES - 1) as f64 / (MESSAGE_HUES - 1) as f64 * 290.0;
    if dark {
        (hue, 70.0, 65.0)
    } else {
        (hue, 65.0, 42.0)
    }
}

/// An opaque colour from hue (degrees), saturation and lightness (percent):
/// SVG 1.1 predates `hsl()`.
pub fn hsl_colour(h: f64, s: f64, l: f64) -> Colour {
    let (s, l) = (s / 100.0, l / 100.0);
    let c = (1.0 - (2.0 * l - 1.0).abs()) * s;
    let hp = (h.rem_euclid(360.0)) / 60.0;
    let x = c * (1.0 - (hp % 2.0 - 1.0).abs());
    let (r, g, b) = match hp as u32 {
        0 => (c, x, 0.0),
        1 => (x, c, 0.0),
        2 => (0.0, c, x),
        3 => (0.0, x, c),
        4 => (x, 0.0, c),
        _ => (c, 0.0, x),
    };
    let m = l - c / 2.0;
    // `as` saturates to 0..=255 (and takes NaN to 0).
    let byte = |v: f64| ((v + m) * 255.0).round() as u8;
    Colour::rgba(byte(r), byte(g), byte(b), 1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn neighbouring_ids_get_distant_hues() {
        assert_eq!(message_hsl(0, false), (35.0, 65.0, 42.0));
        // Id 1 is 0.618 of the way along: hue 14 of the 23 steps.
        assert_eq!(message_hue(1), 14);
        let (h1, _, _) = message_hsl(1, true);
        assert!((h1 - (35.0 + 14.0 / 23.0 * 290.0)).abs() < 1e-9);
        // The next ids land far from it and from each other.
        let hues: Vec<usize> = (0..6).map(message_hue).collect();
        assert!(
            hues.windows(2).all(|w| w[0].abs_diff(w[1]) >= 4),
            "{hues:?}"
        );
    }

    #[test]
    fn colours_are_written_as_css_and_the_canvas_take_them() {
        assert_eq!(LIGHT.background.css(), "#ffffff");
        assert_eq!(LIGHT.grid.css(), "rgba(30,40,60,0.08)");
        assert_eq!(DARK.pause.css(), "rgba(160,170,190,0.2)");
        assert_eq!(DARK.strip.rgb_triple(), "170,184,212");
        assert_eq!(LIGHT.grid.rgb_hex(), "#1e283c");
    }

    #[test]
    fn the_legend_run_is_a_message_colour_of_its_scheme() {
        // Lightness and saturation of the scheme's message colours, at 214°.
        for dark in [false, true] {
            let (_, s, l) = hue_hsl(0, dark);
            assert_eq!(hsl_colour(214.0, s, l), Palette::of(dark).run);
        }
    }

    #[test]
    fn red_is_for_what_went_wrong_and_no_message_is_red() {
        let red = |c: Colour| u16::from(c.r) > 2 * u16::from(c.g.max(c.b));
        for dark in [false, true] {
            let p = Palette::of(dark);
            for (name, c) in [
                ("overlap", p.overlap),
                ("rejected", p.rejected),
                ("crash", p.crash),
            ] {
                assert!(red(c), "{name} is {}", c.css());
            }
            for hue in 0..MESSAGE_HUES {
                let (h, s, l) = hue_hsl(hue, dark);
                assert!(!red(hsl_colour(h, s, l)), "message hue {hue} ({h}°) is red");
            }
        }
    }

    #[test]
    fn the_block_has_every_role_in_both_schemes() {
        let block = css_block();
        for (name, c) in LIGHT.roles() {
            assert!(
                block.contains(&format!("--tl-{name}: {};", c.css())),
                "{name}"
            );
        }
        let dark = &block[block.find(":root[data-theme=dark]").expect("a dark block")..];
        for (name, c) in DARK.roles() {
            assert!(
                dark.contains(&format!("--tl-{name}: {};", c.css())),
                "{name}"
            );
        }
        assert!(block.starts_with(CSS_BEGIN) && block.ends_with(CSS_END));
    }

    #[test]
    fn the_block_is_replaced_and_the_rest_of_the_sheet_kept() {
        let sheet = format!("a {{ }}\n{CSS_BEGIN}\nold\n{CSS_END}\nb {{ }}\n");
        let new = with_css_block(&sheet).unwrap_or_default();
        assert!(new.starts_with("a { }\n") && new.ends_with("\nb { }\n"));
        assert_eq!(css_block_in(&new), Ok(css_block().as_str()));
        assert_eq!(css_block_in("a { }"), Err(NoPaletteBlock));
    }
}
