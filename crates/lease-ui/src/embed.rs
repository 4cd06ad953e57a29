//! Embed mode (`?embed=1`): the playground inside someone else's page. Which
//! parts show (`panels=`), the snippet that embeds it, and the height the
//! frame reports to its parent so that the parent can size the iframe.

/// The parts an embed can show, in page order, with the names links use.
pub const EMBED_PARTS: &[(&str, &str)] = &[
    ("scenario", "Scenario notes"),
    ("controls", "Controls"),
    ("totals", "Totals"),
    ("playback", "Playback"),
    ("timeline", "Timeline"),
    ("charts", "Charts"),
];

/// What an embed shows when the link names no parts.
pub const DEFAULT_EMBED_PARTS: &[&str] = &["controls", "totals", "timeline"];

/// The message type the frame posts to its parent with its height.
pub const HEIGHT_MESSAGE: &str = "lease-playground:height";

/// Which parts show: all of them outside embed mode.
#[derive(Clone, PartialEq, Debug)]
pub struct Parts(Option<Vec<String>>);

impl Parts {
    pub fn all() -> Self {
        Parts(None)
    }

    /// Keeps the known names, in page order; none known means the default.
    pub fn embed(names: &[String]) -> Self {
        let known: Vec<String> = EMBED_PARTS
            .iter()
            .filter(|(n, _)| names.iter().any(|m| m == n))
            .map(|(n, _)| n.to_string())
            .collect();
        if known.is_empty() {
            Parts(Some(
                DEFAULT_EMBED_PARTS.iter().map(|s| s.to_string()).collect(),
            ))
        } else {
            Parts(Some(known))
        }
    }

    pub fn shows(&self, part: &str) -> bool {
        self.0.as_ref().is_none_or(|v| v.iter().any(|p| p == part))
    }

    pub fn names(&self) -> Option<&[String]> {
        self.0.as_deref()
    }
}

/// The HTML a docs page pastes: an iframe plus the few lines that let it
/// take the height the playground reports. `src` is the full embed URL.
pub fn snippet(src: &str, height_px: u32, title: &str) -> String {
    let src = attr_escape(src);
    let title = attr_escape(title);
    format!(
        "<iframe src=\"{src}\" title=\"{title}\" width=\"100%\" height=\"{height_px}\" \
         style=\"border:0;max-width:100%\" loading=\"lazy\"></iframe>\n\
         <script>\n\
         // Lease Playground frames report their height; size each one to fit.\n\
         addEventListener(\"message\", function (e) {{\n\
         \x20 if (!e.data || e.data.type !== \"{HEIGHT_MESSAGE}\") return;\n\
         \x20 document.querySelectorAll(\"iframe\").forEach(function (f) {{\n\
         \x20   if (f.contentWindow === e.source) f.style.height = e.data.height + \"px\";\n\
         \x20 }});\n\
         }});\n\
         </script>\n"
    )
}

fn attr_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('"', "&quot;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_parts_fall_back_to_the_default() {
        let p = Parts::embed(&["bogus".into()]);
        assert_eq!(p.names().unwrap(), DEFAULT_EMBED_PARTS);
        assert!(!p.shows("charts"));
        assert!(Parts::all().shows("charts"));
    }

    #[test]
    fn parts_keep_page_order() {
        let p = Parts::embed(&["timeline".into(), "totals".into()]);
        assert_eq!(p.names().unwrap(), ["totals", "timeline"]);
    }

    #[test]
    fn the_snippet_escapes_what_it_quotes() {
        let s = snippet("https://x/?a=1&b=\"<x>", 400, "T\"");
        assert!(
            s.contains("src=\"https://x/?a=1&amp;b=&quot;&lt;x&gt;\""),
            "{s}"
        );
        assert!(s.contains("title=\"T&quot;\""), "{s}");
        assert!(s.contains(HEIGHT_MESSAGE));
    }
}
