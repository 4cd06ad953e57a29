//! The page's stylesheet carries the timeline's palette as custom
//! properties: the legend, the hover card and the toolbar must show the
//! colours the canvas paints.

use lease_view::palette::{css_block, css_block_in, RGB_ROLES};

const STYLESHEET: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../static/style.css");

#[test]
fn the_stylesheet_holds_the_palette_as_written_from_it() {
    let sheet =
        std::fs::read_to_string(STYLESHEET).unwrap_or_else(|e| panic!("reading {STYLESHEET}: {e}"));
    let held = css_block_in(&sheet).unwrap_or_else(|e| panic!("{STYLESHEET}: {e}"));
    assert!(
        held == css_block(),
        "static/style.css's palette block differs from crates/lease-view/src/palette.rs: \
         run `cargo run -p lease-view --example palette-css` to write it anew.\n\
         --- held ---\n{held}\n--- from the palette ---\n{}",
        css_block()
    );
}

/// A colour written out (`#rrggbb`, `hsl(…)`, `rgb(12, …)`) rather than read
/// from a custom property. Black shadows are not the palette's business.
fn colour_literal(line: &str) -> bool {
    let line = line.replace("rgba(0, 0, 0,", "");
    let after = |pat: &str, ok: fn(char) -> bool| {
        line.match_indices(pat)
            .any(|(i, _)| line[i + pat.len()..].chars().next().is_some_and(ok))
    };
    line.contains("hsl")
        || after("#", |c| c.is_ascii_hexdigit())
        || after("rgb(", |c| c.is_ascii_digit())
        || after("rgba(", |c| c.is_ascii_digit())
}

#[test]
fn a_colour_literal_is_seen() {
    assert!(colour_literal(".a { color: #d11a2a; }"));
    assert!(colour_literal(
        ".a { background: rgba(90, 100, 120, 0.25); }"
    ));
    assert!(colour_literal(".a { background: hsl(214, 65%, 42%); }"));
    assert!(!colour_literal(
        ".a { background: rgba(var(--tl-run-rgb), 0.4); }"
    ));
    assert!(!colour_literal(
        ".a { box-shadow: 0 4px 16px rgba(0, 0, 0, 0.18); }"
    ));
}

#[test]
fn the_timeline_rules_name_no_colour_of_their_own() {
    let sheet =
        std::fs::read_to_string(STYLESHEET).unwrap_or_else(|e| panic!("reading {STYLESHEET}: {e}"));
    let held = css_block_in(&sheet).unwrap_or_else(|e| panic!("{STYLESHEET}: {e}"));
    let start = sheet
        .find("/* The timeline")
        .unwrap_or_else(|| panic!("no timeline section in {STYLESHEET}"));
    let rules = sheet[start..].replace(held, "");
    let stray: Vec<&str> = rules.lines().filter(|l| colour_literal(l)).collect();
    assert!(
        stray.is_empty(),
        "timeline colours written out in the stylesheet, not read from the palette: {stray:?}"
    );
}

#[test]
fn every_rgb_triple_the_stylesheet_reads_is_written() {
    let sheet =
        std::fs::read_to_string(STYLESHEET).unwrap_or_else(|e| panic!("reading {STYLESHEET}: {e}"));
    let read: Vec<&str> = sheet
        .match_indices("var(--tl-")
        .filter_map(|(i, _)| sheet[i + "var(--tl-".len()..].split(')').next())
        .filter_map(|name| name.strip_suffix("-rgb"))
        .collect();
    assert!(!read.is_empty(), "the stylesheet reads no --tl-*-rgb");
    for name in read {
        assert!(
            RGB_ROLES.contains(&name),
            "static/style.css reads --tl-{name}-rgb, which the palette does not write: add {name} to RGB_ROLES"
        );
    }
}
