//! Embed mode (`?embed=1`): the playground inside someone else's page. Which
//! parts show (`panels=`), the snippet that embeds it, and the height the
//! frame reports to its parent so that the parent can size the iframe.

/// A part of the page. An embed shows the ones its link's `panels=` names
/// (`EMBED_PARTS`); the diagnosis only shows on the full page.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Part {
    Scenario,
    Controls,
    Totals,
    Playback,
    Timeline,
    Charts,
    Diagnosis,
}

/// The parts an embed can show, in page order, with their labels.
pub const EMBED_PARTS: &[(Part, &str)] = &[
    (Part::Scenario, "Scenario notes"),
    (Part::Controls, "Controls"),
    (Part::Totals, "Totals"),
    (Part::Playback, "Playback"),
    (Part::Timeline, "Timeline"),
    (Part::Charts, "Charts"),
];

/// What an embed shows when the link names no parts.
pub const DEFAULT_EMBED_PARTS: &[Part] = &[Part::Controls, Part::Totals, Part::Timeline];

impl Part {
    /// The name links and the embed's snippet use.
    pub fn name(self) -> &'static str {
        match self {
            Part::Scenario => "scenario",
            Part::Controls => "controls",
            Part::Totals => "totals",
            Part::Playback => "playback",
            Part::Timeline => "timeline",
            Part::Charts => "charts",
            Part::Diagnosis => "diagnosis",
        }
    }

    /// The part an embed's link names; `None` for a word that names none
    /// an embed can show.
    pub fn embedded(name: &str) -> Option<Part> {
        EMBED_PARTS
            .iter()
            .map(|(p, _)| *p)
            .find(|p| p.name() == name)
    }
}

/// The timeline's canvas in a figure, in CSS pixels, whatever the run (its
/// lanes scroll inside it). Every part of a figure has a fixed height (the
/// rest are `.embedded` rules in `static/style.css`; the controls, the
/// charts, the scenario's notes and the timeline's key are disclosures), so
/// that `embed/embed.js` can reserve the figure's height, the sum of its
/// parts', before the playground loads: a reader scrolling past a figure
/// never sees the text below it move.
pub const FIGURE_TIMELINE_PX: f64 = 300.0;

/// Each part's height in a figure, in CSS pixels (`static/style.css`,
/// "Embed mode"): the timeline is its toolbar, canvas and key; the
/// controls, the charts and the scenario's notes a closed disclosure.
pub fn figure_part_px(part: Part) -> u32 {
    match part {
        Part::Scenario | Part::Controls | Part::Charts => 44,
        Part::Totals => 76,
        Part::Playback => 60,
        Part::Timeline => 44 + 6 + FIGURE_TIMELINE_PX as u32 + 6 + 44,
        Part::Diagnosis => 0,
    }
}

/// A figure's padding (each side), header with its margin, and the gap
/// between two parts, in CSS pixels.
pub const FIGURE_PAD_PX: u32 = 6;
pub const FIGURE_HEAD_PX: u32 = 26;
pub const FIGURE_GAP_PX: u32 = 8;

/// The border `embed/embed.js` draws around a figure, each side: the box a
/// host reserves is the page's height and this twice.
pub const FIGURE_BORDER_PX: u32 = 1;

/// A comparison's part of a figure (`compare=1`, side B in `b.` fields),
/// under side A's timeline: a 44 px disclosure holding the totals of A and
/// B and their charts, then B's timeline as A's is drawn (its toolbar, its
/// canvas and its key), with a gap between.
pub fn figure_compare_px() -> u32 {
    44 + FIGURE_GAP_PX + figure_part_px(Part::Timeline)
}

/// Whether a share link's query (`a=1&b=2`) compares two sides, as the page
/// reads its `compare` field (`lease_format::units::parse_bool`): a value it
/// cannot read compares nothing.
pub fn compares(query: &str) -> bool {
    query.split('&').any(|pair| {
        let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
        percent_decode(k).trim().eq_ignore_ascii_case("compare")
            && lease_format::units::parse_bool(&percent_decode(v)) == Ok(true)
    })
}

/// The height of a figure showing `parts`, before anything in it is opened:
/// what the page inside reports, and so what `embed/embed.js` reserves
/// (the same rule, written there for a page with no wasm) and the Embed
/// panel's snippets give the iframe. A comparison shows side B's part
/// under the timeline, with it only.
pub fn figure_height_px(parts: &[Part], compares: bool) -> u32 {
    let shown = Parts::embed(parts);
    let listed = shown.listed().unwrap_or(DEFAULT_EMBED_PARTS);
    let sum: u32 = listed.iter().map(|p| figure_part_px(*p)).sum();
    let b = if compares && listed.contains(&Part::Timeline) {
        FIGURE_GAP_PX + figure_compare_px()
    } else {
        0
    };
    2 * FIGURE_PAD_PX
        + FIGURE_HEAD_PX
        + sum
        + FIGURE_GAP_PX * (listed.len() as u32).saturating_sub(1)
        + b
}

/// The message type the frame posts to its parent with its height.
pub const HEIGHT_MESSAGE: &str = "lease-playground:height";

/// Which parts show: all of them outside embed mode.
#[derive(Clone, PartialEq, Debug)]
pub struct Parts(Option<Vec<Part>>);

impl Parts {
    pub fn all() -> Self {
        Parts(None)
    }

    /// Keeps the parts an embed can show, in page order; none means the
    /// default.
    pub fn embed(parts: &[Part]) -> Self {
        let known: Vec<Part> = EMBED_PARTS
            .iter()
            .map(|(p, _)| *p)
            .filter(|p| parts.contains(p))
            .collect();
        if known.is_empty() {
            Parts(Some(DEFAULT_EMBED_PARTS.to_vec()))
        } else {
            Parts(Some(known))
        }
    }

    pub fn shows(&self, part: Part) -> bool {
        self.0.as_ref().is_none_or(|v| v.contains(&part))
    }

    /// The parts an embed shows; `None` outside embed mode.
    pub fn listed(&self) -> Option<&[Part]> {
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

/// The snippets the Embed panel writes, in its menu's order: the id its
/// `<select>` uses, and the label it shows.
pub const SNIPPET_KINDS: &[(&str, &str)] = &[
    ("iframe", "Plain HTML: an iframe"),
    ("element", "Plain HTML: one line with embed.js"),
    ("mdbook", "mdBook (Markdown)"),
    ("docusaurus", "Docusaurus (MDX)"),
];

/// One figure as the Embed panel describes it.
pub struct Figure<'a> {
    /// The playground's page: its folder, or its `index.html`.
    pub page: &'a str,
    /// The share link's query (without `?`, `embed` and `panels`).
    pub query: &'a str,
    pub parts: &'a [Part],
    pub height_px: u32,
}

impl Figure<'_> {
    /// The iframe's address.
    pub fn src(&self) -> String {
        format!(
            "{}?{}{}embed=1&panels={}",
            self.page,
            self.query,
            if self.query.is_empty() { "" } else { "&" },
            self.part_names()
        )
    }

    /// The parts as `panels=` and the element's `parts` write them.
    fn part_names(&self) -> String {
        let names: Vec<&str> = self.parts.iter().map(|p| p.name()).collect();
        names.join(",")
    }

    /// `embed.js` beside the page.
    fn script(&self) -> String {
        let folder = self.page.rfind('/').map_or("", |i| &self.page[..=i]);
        format!("{folder}embed.js")
    }

    /// Whether the figure compares two sides (its link's `compare`).
    pub fn compares(&self) -> bool {
        compares(self.query)
    }

    /// The element's box in the host page, border included: what
    /// `embed/embed.js` reserves (its parts' height by the page's rule and
    /// the border, or the `height` asked for where that is more), written in
    /// the element's own style so that the host lays it out at that height
    /// before the script has run, deferred or late.
    pub fn box_px(&self) -> u32 {
        (figure_height_px(self.parts, self.compares()) + 2 * FIGURE_BORDER_PX).max(self.height_px)
    }

    /// The element's attributes: the link's fields, decoded (the element
    /// encodes them again), then the parts and the height.
    fn attributes(&self) -> Vec<(String, String)> {
        let mut out: Vec<(String, String)> = self
            .query
            .split('&')
            .filter_map(|pair| {
                let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
                (!k.is_empty()).then(|| (percent_decode(k), percent_decode(v)))
            })
            .collect();
        out.push(("parts".into(), self.part_names()));
        out.push(("height".into(), self.height_px.to_string()));
        out
    }

    /// `<lease-playground ...></lease-playground>`; in JSX a name that is not
    /// a JSX attribute name (`b.timeout`) goes in a spread object.
    fn element(&self, jsx: bool) -> String {
        let mut tag = String::from("<lease-playground");
        let mut spread = Vec::new();
        for (k, v) in self.attributes() {
            let plain = k.starts_with(|c: char| c.is_ascii_alphabetic())
                && k.chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
            if jsx && !plain {
                spread.push(format!("{}: {}", js_string(&k), js_string(&v)));
            } else {
                tag += &format!(" {}=\"{}\"", attr_escape(&k), attr_escape(&v));
            }
        }
        // A custom element is inline, and of no height, until its script
        // defines it: a block of its height from the first paint on.
        let height = format!("{}px", self.box_px());
        if jsx {
            tag += &format!(
                " style={{{{display: \"block\", height: {}}}}}",
                js_string(&height)
            );
        } else {
            tag += &format!(" style=\"display:block;height:{height}\"");
        }
        if !spread.is_empty() {
            tag += &format!(" {{...{{{}}}}}", spread.join(", "));
        }
        tag + "></lease-playground>"
    }
}

/// What decides a figure's colour scheme, in words for the snippet's
/// comment: a docs site's reader flips its dark-mode switch and expects the
/// figure to follow. `embed.js` follows the host page's own scheme on
/// `<html>`; a plain iframe cannot see its host page.
fn theme_words(kind: &str, f: &Figure) -> String {
    let pinned = f.query.split('&').find_map(|pair| {
        pair.strip_prefix("theme=")
            .filter(|t| *t != "auto" && !t.is_empty())
    });
    match (pinned, kind) {
        (Some(t), "iframe" | "") => format!(
            "Dark mode: theme={t} in src keeps this figure {t} whatever your page or the reader's system shows; without it, the figure follows the reader's system."
        ),
        (Some(t), _) => format!(
            "Dark mode: theme=\"{t}\" keeps this figure {t} whatever your page shows; without it, the figure follows your page's dark-mode switch."
        ),
        (None, "element" | "mdbook" | "docusaurus") => "Dark mode: the figure follows your page's switch where it writes data-theme=\"dark\" or a dark class on <html> (Docusaurus, mdBook and most themes do), and the reader's system where the page says nothing; a theme attribute of \"light\" or \"dark\" pins it.".to_string(),
        (None, _) => "Dark mode: a plain iframe follows the reader's system, not your page's switch; to follow the switch, use the embed.js snippet, or have your switch set the theme field of src to dark or light.".to_string(),
    }
}

/// The snippet of `kind` (an id of `SNIPPET_KINDS`; another is the iframe).
pub fn figure_snippet(kind: &str, f: &Figure, title: &str) -> String {
    let script = attr_escape(&f.script());
    // An HTML comment ends at the first "--".
    let theme = theme_words(kind, f).replace("--", "- -");
    match kind {
        "element" => format!(
            "<!-- {theme} -->\n<script src=\"{script}\" defer></script>\n{}\n",
            f.element(false)
        ),
        // A <div> line opens a raw HTML block in Markdown (CommonMark, as
        // mdBook reads it): what follows, to the blank line, goes through as
        // it is, rather than in a paragraph.
        "mdbook" => format!(
            "<div class=\"lease-figure\">\n<!-- {theme} -->\n<script src=\"{script}\" defer></script>\n{}\n</div>\n",
            f.element(false)
        ),
        // React does not run a <script> it renders: Docusaurus loads it on
        // every page from its config instead.
        "docusaurus" => format!(
            "// docusaurus.config.js: load embed.js on every page\n\
             scripts: [{{ src: {}, defer: true }}],\n\n\
             {{/* In the .mdx page, where the figure goes. {} */}}\n{}\n",
            js_string(&f.script()),
            theme.replace("*/", "* /"),
            f.element(true)
        ),
        _ => format!("<!-- {theme} -->\n{}", snippet(&f.src(), f.height_px, title)),
    }
}

/// `%XX` and `+` of a query's name or value, as the browser reads them.
fn percent_decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let hex = |c: u8| (c as char).to_digit(16);
        match b[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < b.len() => match (hex(b[i + 1]), hex(b[i + 2])) {
                (Some(h), Some(l)) => {
                    out.push((h * 16 + l) as u8);
                    i += 2;
                }
                _ => out.push(b'%'),
            },
            c => out.push(c),
        }
        i += 1;
    }
    // Not UTF-8 once decoded: the text as written, which the element
    // decodes the same way the link would.
    String::from_utf8(out).unwrap_or_else(|_| s.to_string())
}

/// A JavaScript string literal of `s`. Link values are short ASCII; a
/// quote, a backslash or a line break is escaped all the same.
fn js_string(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '<' => out.push_str("\\u003c"),
            c => out.push(c),
        }
    }
    out.push('"');
    out
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
    fn embed_js_reserves_a_figures_height_by_the_pages_own_rule() {
        let js = include_str!("../../../embed/embed.js");
        let table = js
            .split("var PART_PX = {")
            .nth(1)
            .and_then(|t| t.split('}').next())
            .expect("embed.js has its PART_PX table");
        for (part, _) in EMBED_PARTS {
            let entry = format!("{}: {}", part.name(), figure_part_px(*part));
            assert!(
                table.contains(&entry),
                "embed.js's PART_PX says {table}, not {entry}"
            );
        }
        assert_eq!(table.matches(':').count(), EMBED_PARTS.len());
        let consts = format!(
            "var PAD_PX = {FIGURE_PAD_PX}, HEAD_PX = {FIGURE_HEAD_PX}, GAP_PX = {FIGURE_GAP_PX};"
        );
        assert!(js.contains(&consts), "embed.js lacks {consts}");
        let defaults: Vec<String> = DEFAULT_EMBED_PARTS
            .iter()
            .map(|p| format!("'{}'", p.name()))
            .collect();
        assert!(js.contains(&format!("var DEFAULT_PARTS = [{}];", defaults.join(", "))));
        // A comparison's part, and the border the box adds.
        let compare = format!("var COMPARE_PX = {};", figure_compare_px());
        assert!(js.contains(&compare), "embed.js lacks {compare}");
        let border =
            format!(":host{{display:block;box-sizing:border-box;border:{FIGURE_BORDER_PX}px solid");
        assert!(js.contains(&border), "embed.js's figure box lacks {border}");
        // The link's `compare` read as the page reads it.
        assert!(js.contains("var YES = ['', '1', 'true', 'yes', 'on'];"));
        for yes in ["", "1", "true", "yes", "on"] {
            assert_eq!(lease_format::units::parse_bool(yes), Ok(true), "{yes}");
        }
    }

    #[test]
    fn a_figures_height_is_its_parts_with_padding_header_and_gaps() {
        // controls 44, totals 76, timeline 400; 6 + 26 + 520 + 2 gaps + 6.
        assert_eq!(figure_height_px(DEFAULT_EMBED_PARTS, false), 574);
        assert_eq!(figure_height_px(&[Part::Timeline], false), 438);
        // A part no figure shows counts for nothing: the default instead.
        assert_eq!(figure_height_px(&[Part::Diagnosis], false), 574);
    }

    #[test]
    fn a_comparison_figure_adds_side_bs_disclosure_and_timeline_under_the_timeline() {
        // 44 px of A and B's totals and charts, a gap, B's timeline of 400.
        assert_eq!(figure_compare_px(), 452);
        assert_eq!(figure_height_px(DEFAULT_EMBED_PARTS, true), 574 + 8 + 452);
        assert_eq!(figure_height_px(&[Part::Timeline], true), 438 + 8 + 452);
        // Without the timeline a comparison shows nothing of B.
        assert_eq!(figure_height_px(&[Part::Totals], true), 6 + 26 + 76 + 6);
    }

    #[test]
    fn a_link_compares_as_the_page_reads_its_compare_field() {
        for yes in [
            "compare=1",
            "scenario=x&compare=true&b.timeout=45s",
            "COMPARE=on",
            "compare",
            "compare=%20yes",
        ] {
            assert!(compares(yes), "{yes}");
        }
        for no in [
            "",
            "compare=0",
            "compare=maybe",
            "scenario=compare",
            "b.timeout=45s",
            "compared=1",
        ] {
            assert!(!compares(no), "{no}");
        }
    }

    #[test]
    fn no_part_an_embed_can_show_falls_back_to_the_default() {
        for asked in [&[][..], &[Part::Diagnosis][..]] {
            let p = Parts::embed(asked);
            assert_eq!(p.listed(), Some(DEFAULT_EMBED_PARTS));
            assert!(!p.shows(Part::Charts) && !p.shows(Part::Diagnosis));
        }
        assert!(Parts::all().shows(Part::Charts) && Parts::all().shows(Part::Diagnosis));
    }

    #[test]
    fn parts_keep_page_order() {
        let p = Parts::embed(&[Part::Timeline, Part::Totals]);
        assert_eq!(p.listed(), Some(&[Part::Totals, Part::Timeline][..]));
    }

    #[test]
    fn a_link_names_each_part_an_embed_shows_and_not_the_diagnosis() {
        for (part, _) in EMBED_PARTS {
            assert_eq!(Part::embedded(part.name()), Some(*part));
        }
        assert_eq!(Part::embedded("diagnosis"), None);
        assert_eq!(Part::embedded("Timeline"), None);
    }

    fn figure<'a>(query: &'a str, parts: &'a [Part]) -> Figure<'a> {
        Figure {
            page: "https://docs.example.org/lease/",
            query,
            parts,
            height_px: 480,
        }
    }

    #[test]
    fn the_one_line_embed_loads_embed_js_beside_the_page_and_passes_the_fields() {
        let parts = [Part::Totals, Part::Timeline];
        let s = figure_snippet(
            "element",
            &figure("scenario=clip-surge&timeout=45s&note=a%20b%26c", &parts),
            "T",
        );
        let (comment, s) = s.split_once('\n').unwrap();
        assert!(
            comment.starts_with("<!-- Dark mode: ") && comment.ends_with(" -->"),
            "{comment}"
        );
        assert_eq!(
            s,
            "<script src=\"https://docs.example.org/lease/embed.js\" defer></script>\n\
             <lease-playground scenario=\"clip-surge\" timeout=\"45s\" note=\"a b&amp;c\" \
             parts=\"totals,timeline\" height=\"480\" style=\"display:block;height:524px\"></lease-playground>\n"
        );
    }

    #[test]
    fn embed_js_sits_in_the_folder_of_a_page_named_by_its_file() {
        let parts = [Part::Timeline];
        let f = Figure {
            page: "https://x.org/a/index.html",
            ..figure("scenario=hung-handler", &parts)
        };
        assert!(figure_snippet("mdbook", &f, "T").contains("src=\"https://x.org/a/embed.js\""));
    }

    #[test]
    fn the_mdbook_snippet_is_one_raw_html_block() {
        let parts = [Part::Timeline];
        let s = figure_snippet("mdbook", &figure("scenario=hung-handler", &parts), "T");
        assert!(s.starts_with("<div class=\"lease-figure\">\n"), "{s}");
        assert!(s.ends_with("</div>\n"), "{s}");
        assert!(
            !s.trim_end().contains("\n\n"),
            "a blank line would end the HTML block: {s}"
        );
    }

    #[test]
    fn the_docusaurus_snippet_spreads_names_jsx_cannot_write() {
        let parts = [Part::Timeline];
        let s = figure_snippet(
            "docusaurus",
            &figure("scenario=clip-surge&compare=1&b.timeout=45s", &parts),
            "T",
        );
        assert!(
            s.contains(
                "scripts: [{ src: \"https://docs.example.org/lease/embed.js\", defer: true }],"
            ),
            "{s}"
        );
        assert!(
            s.contains("<lease-playground scenario=\"clip-surge\" compare=\"1\" parts=\"timeline\" height=\"480\" style={{display: \"block\", height: \"900px\"}} {...{\"b.timeout\": \"45s\"}}></lease-playground>"),
            "{s}"
        );
    }

    #[test]
    fn the_iframe_snippet_is_the_default_and_keeps_its_address() {
        let parts = [Part::Timeline];
        let f = figure("scenario=clip-surge", &parts);
        assert_eq!(
            f.src(),
            "https://docs.example.org/lease/?scenario=clip-surge&embed=1&panels=timeline"
        );
        let iframe = figure_snippet("iframe", &f, "T");
        assert!(iframe.ends_with(&snippet(&f.src(), 480, "T")), "{iframe}");
        assert_eq!(SNIPPET_KINDS[0].0, "iframe");
    }

    #[test]
    fn each_snippet_says_how_the_figure_follows_the_host_pages_dark_mode() {
        let parts = [Part::Timeline];
        for (id, _) in SNIPPET_KINDS {
            let auto = figure_snippet(id, &figure("scenario=clip-surge", &parts), "T");
            let pinned = figure_snippet(id, &figure("scenario=clip-surge&theme=dark", &parts), "T");
            assert!(auto.contains("Dark mode: "), "{id}: {auto}");
            if *id == "iframe" {
                // A frame cannot see its host page: the snippet says so and
                // points at the one that can.
                assert!(
                    auto.contains("reader's system, not your page's switch"),
                    "{auto}"
                );
                assert!(auto.contains("embed.js snippet"), "{auto}");
            } else {
                assert!(
                    auto.contains("data-theme=\"dark\" or a dark class on <html>"),
                    "{id}: {auto}"
                );
                assert!(
                    auto.contains("a theme attribute of \"light\" or \"dark\" pins it"),
                    "{id}: {auto}"
                );
            }
            // The page's Embed panel leaves `auto` out of the frame's address.
            if *id == "iframe" {
                assert!(!auto.contains("theme="), "{auto}");
            }
            assert!(pinned.contains("keeps this figure dark"), "{id}: {pinned}");
            assert!(!pinned.contains("data-theme"), "{id}: {pinned}");
        }
    }

    #[test]
    fn js_strings_escape_quotes_backslashes_line_breaks_and_tags() {
        assert_eq!(js_string("a\"b\\c\nd</x>"), "\"a\\\"b\\\\c\\nd\\u003c/x>\"");
    }

    #[test]
    fn percent_decoding_leaves_a_broken_escape_as_it_is() {
        assert_eq!(percent_decode("a%2Cb+c%zz%4"), "a,b c%zz%4");
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
