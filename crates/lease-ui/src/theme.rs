//! The colour scheme (`theme=light|dark|auto` in a link, or a host's
//! `lease-playground:set-theme`). A small script in `index.html`'s head
//! resolves it to `<html data-theme="light|dark">` before the page paints:
//! the stylesheet's dark rules hang on that attribute, and the canvases and
//! exports read it here, so every part of the page agrees on one scheme.
//! The palette (`palette=cb`) goes the same way, on `<html data-palette>`.
//! When either changes, the script fires `resize` on `window`, on which every
//! canvas already repaints.

use lease_format::units::parse_word;

/// The values `theme=` takes; `auto` follows the operating system.
pub const THEMES: [&str; 3] = ["auto", "light", "dark"];

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Theme {
    /// Follow the operating system's scheme (`prefers-color-scheme`).
    #[default]
    Auto,
    Light,
    Dark,
}

impl Theme {
    /// A theme by name; the error says what is allowed.
    pub fn parse(text: &str) -> Result<Theme, String> {
        Ok(match parse_word(text, &THEMES)? {
            "light" => Theme::Light,
            "dark" => Theme::Dark,
            _ => Theme::Auto,
        })
    }

    pub fn name(self) -> &'static str {
        match self {
            Theme::Auto => "auto",
            Theme::Light => "light",
            Theme::Dark => "dark",
        }
    }
}

/// Whether the page is dark now, as the stylesheet sees it.
pub fn dark() -> bool {
    root_says("data-theme", "dark")
}

/// The values `palette=` takes: `cb` is colour-blind-safe (`index.html`'s
/// script puts it on `<html data-palette>`, as it does the scheme).
pub const PALETTES: [&str; 2] = ["default", "cb"];

/// Whether the page shows the colour-blind-safe palette now.
pub fn colour_blind() -> bool {
    root_says("data-palette", "cb")
}

fn root_says(attribute: &str, value: &str) -> bool {
    document()
        .and_then(|d| d.document_element())
        .and_then(|e| e.get_attribute(attribute))
        .is_some_and(|t| t == value)
}

fn document() -> Option<web_sys::Document> {
    web_sys::window().and_then(|w| w.document())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_theme_reads_back_from_its_name() {
        for name in THEMES {
            assert_eq!(Theme::parse(name).map(Theme::name), Ok(name));
        }
        assert_eq!(Theme::parse(" Dark "), Ok(Theme::Dark));
    }

    #[test]
    fn an_unknown_theme_names_the_allowed_ones() {
        let why = Theme::parse("sepia").unwrap_err();
        assert_eq!(why, "must be one of: auto, light, dark");
    }
}
