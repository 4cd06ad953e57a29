//! The colour-blind-safe palette reads on both backgrounds: every mark
//! at 3:1 or more against the canvas and both lane colours (WCAG 2.1,
//! 1.4.11 non-text contrast), every colour text is drawn in at 4.5:1 or
//! more against the canvas (1.4.3; labels on the canvas sit on a halo of
//! the canvas's colour). The colours are read from the palette's table
//! (`lease_view::palette::{CB_LIGHT, CB_DARK, CB_MESSAGES}`).

use lease_view::palette::{Colour, Palette, CB_DARK, CB_LIGHT, CB_MESSAGES};

/// Roles drawn as text (labels, the axis, the playhead's time).
const TEXT: [&str; 6] = ["text", "muted", "cursor", "crash", "restart", "dead-letter"];
/// Roles drawn as marks a reader must tell from the lane under them.
const MARKS: [&str; 8] = [
    "run",
    "overlap",
    "rejected",
    "ack",
    "expiry",
    "strip",
    "available",
    "deleted",
];
/// Grounds and tints: the lanes themselves, and shades behind a mark that
/// carries the meaning (a crash line over `down`, a pause line over `pause`),
/// or that sit under text (`halo`) or over what has not been played.
const GROUNDS: [&str; 11] = [
    "background",
    "lane-even",
    "lane-odd",
    "grid",
    "border",
    "card",
    "pressed",
    "down",
    "pause",
    "unplayed",
    "halo",
];

fn luminance(c: Colour) -> f64 {
    let lin = |v: u8| {
        let v = f64::from(v) / 255.0;
        if v <= 0.04045 {
            v / 12.92
        } else {
            ((v + 0.055) / 1.055).powf(2.4)
        }
    };
    0.2126 * lin(c.r) + 0.7152 * lin(c.g) + 0.0722 * lin(c.b)
}

/// WCAG 2.1's contrast ratio of two opaque colours.
fn contrast(a: Colour, b: Colour) -> f64 {
    let (la, lb) = (luminance(a), luminance(b));
    (la.max(lb) + 0.05) / (la.min(lb) + 0.05)
}

fn schemes() -> [(&'static str, &'static Palette, usize); 2] {
    [("light", &CB_LIGHT, 0), ("dark", &CB_DARK, 1)]
}

fn role(p: &Palette, name: &str) -> Colour {
    p.roles()
        .into_iter()
        .find(|(n, _)| *n == name)
        .map(|(_, c)| c)
        .unwrap_or_else(|| panic!("the palette has no role {name}"))
}

#[test]
fn every_role_is_text_a_mark_or_a_ground() {
    for (name, _) in CB_LIGHT.roles() {
        let classes = [
            TEXT.contains(&name),
            MARKS.contains(&name),
            GROUNDS.contains(&name),
        ];
        assert_eq!(
            classes.iter().filter(|c| **c).count(),
            1,
            "{name} must be in exactly one of TEXT, MARKS, GROUNDS"
        );
    }
}

#[test]
fn marks_of_the_colour_blind_palette_reach_three_to_one_on_the_canvas_and_lanes() {
    let mut failures = Vec::new();
    for (scheme, p, i) in schemes() {
        let named = MARKS.iter().map(|n| (n.to_string(), role(p, n)));
        let messages = CB_MESSAGES[i]
            .iter()
            .enumerate()
            .map(|(k, c)| (format!("message colour {k}"), *c));
        for (name, c) in named.chain(messages) {
            assert_eq!(
                c.alpha, 1.0,
                "{scheme} {name} must be opaque to be measured"
            );
            for (ground, g) in [
                ("background", p.background),
                ("lane-even", p.lane_even),
                ("lane-odd", p.lane_odd),
            ] {
                let ratio = contrast(c, g);
                if ratio < 3.0 {
                    failures.push(format!(
                        "{scheme} {name} {} on {ground}: {ratio:.2}:1",
                        c.css()
                    ));
                }
            }
        }
    }
    assert!(failures.is_empty(), "under 3:1: {failures:#?}");
}

#[test]
fn text_of_the_colour_blind_palette_reaches_four_and_a_half_to_one() {
    let mut failures = Vec::new();
    for (scheme, p, _) in schemes() {
        for name in TEXT {
            let c = role(p, name);
            let ratio = contrast(c, p.background);
            if ratio < 4.5 {
                failures.push(format!("{scheme} {name} {}: {ratio:.2}:1", c.css()));
            }
        }
    }
    assert!(failures.is_empty(), "under 4.5:1: {failures:#?}");
}

#[test]
fn red_and_green_never_tell_an_accepted_call_from_a_rejected_one() {
    // Told apart by a protan or deutan eye: blue against vermillion, not
    // green against red.
    for (scheme, p, _) in schemes() {
        let (ack, bad) = (p.ack, p.rejected);
        assert!(
            ack.b > ack.r && ack.b > ack.g,
            "{scheme} ack {} is not blue",
            ack.css()
        );
        assert!(
            bad.r > bad.g && bad.r > bad.b,
            "{scheme} rejected {} is not vermillion",
            bad.css()
        );
    }
}

#[test]
fn the_contrast_measure_is_wcags() {
    assert!((contrast(Colour::hex(0x000000), Colour::hex(0xffffff)) - 21.0).abs() < 1e-9);
    // #767676 on white is the usual 4.54:1.
    assert!((contrast(Colour::hex(0x767676), Colour::hex(0xffffff)) - 4.54).abs() < 0.01);
}
