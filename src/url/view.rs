//! The view half of a share link: what the person was looking at (time range,
//! playhead, selected message, open panel, embed layout, colour scheme, the
//! host page an embed answers). None of it changes the run, so a bad value
//! only loses that one piece of the view.

use lease_sim::validate::MAX_DURATION_MS;

use lease_format::units::{format_ms, parse_bool, parse_count, parse_ms, parse_word};
use lease_ui::embed::Part;
use lease_ui::theme::{Theme, PALETTES};
use lease_view::note::{Note, MAX_NOTES};
use lease_view::TimelineView;

/// The panels `panel=` may open.
pub const PANELS: [&str; 10] = [
    "details",
    "diagnosis",
    "compare",
    "sweep",
    "export",
    "embed",
    "help",
    "tour",
    "notes",
    "table",
];

/// The timeline's two layouts (`view=`).
pub const TIMELINES: [&str; 2] = ["workers", "messages"];

/// What an embedded page may show (`panels=timeline,totals`).
pub const EMBED_PANELS: [&str; 6] = [
    "controls", "totals", "timeline", "charts", "playback", "scenario",
];

/// The page's modes (`mode=`): the interviewer's, which hides the figures
/// and the run after the playhead until each is revealed.
pub const MODES: [&str; 1] = ["interview"];

/// The view's parameters, in the order `encode` writes them.
pub const NAMES: [&str; 13] = [
    "from",
    "to",
    "t",
    "msg",
    "view",
    "panel",
    "embed",
    "panels",
    "theme",
    "palette",
    "host_origin",
    "present",
    "mode",
];

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct LinkView {
    /// Visible time range of the timeline, in simulated ms.
    pub from_ms: Option<u64>,
    pub to_ms: Option<u64>,
    /// The selected message's id.
    pub message: Option<u32>,
    /// The open panel, one of `PANELS`.
    pub panel: Option<String>,
    /// The timeline's layout, named by one of `TIMELINES`.
    pub timeline: Option<TimelineView>,
    /// The page is embedded: only `panels` show.
    pub embed: bool,
    /// For an embed: which parts show, each one named in `EMBED_PANELS`.
    pub panels: Option<Vec<Part>>,
    pub playhead_ms: Option<u64>,
    /// The colour scheme, named by one of `lease_ui::theme::THEMES`; `auto`
    /// is not written.
    pub theme: Option<Theme>,
    /// `palette=cb`: the colour-blind-safe palette.
    pub palette_cb: bool,
    /// The only origin whose messages an embed takes, and the one its
    /// events go to (`docs/embedding.md`).
    pub host_origin: Option<String>,
    /// Presenter mode (`present=1`).
    pub present: bool,
    /// The interviewer's mode (`mode=interview`).
    pub interview: bool,
    /// Notes on the timeline, one `note=` field each, in that link form
    /// (`lease_view::note`), each already read once.
    pub notes: Vec<String>,
}

/// The view parameter a query name means, by name or alias.
pub fn find(name: &str) -> Option<&'static str> {
    let n = name.trim().to_ascii_lowercase();
    let n = match n.as_str() {
        "playhead" => "t",
        "message" => "msg",
        "timeline" => "view",
        other => other,
    };
    NAMES.iter().copied().find(|v| *v == n)
}

/// A view parameter that was refused: (name, value, why).
pub type Refusal = (&'static str, String, String);

/// The view from its parameters (first occurrence of each, by name), checked
/// against the run's length. Returns the view and what was refused.
pub fn parse(params: &[(&'static str, String)], duration_ms: u64) -> (LinkView, Vec<Refusal>) {
    let mut view = LinkView::default();
    let mut refused = Vec::new();
    let get = |n: &str| {
        params
            .iter()
            .find(|(k, _)| *k == n)
            .map(|(_, v)| v.as_str())
    };
    let mut time = |name: &'static str| -> Option<u64> {
        let text = get(name)?;
        match parse_ms(text, 0, MAX_DURATION_MS) {
            Ok(t) if t <= duration_ms => Some(t),
            Ok(_) => {
                refused.push((
                    name,
                    text.to_string(),
                    format!(
                        "is past the end of the run ({}); the time is ignored",
                        format_ms(duration_ms)
                    ),
                ));
                None
            }
            Err(why) => {
                refused.push((name, text.to_string(), why));
                None
            }
        }
    };
    view.from_ms = time("from");
    view.to_ms = time("to");
    view.playhead_ms = time("t");
    if let (Some(a), Some(b)) = (view.from_ms, view.to_ms) {
        if b <= a {
            refused.push((
                "to",
                get("to").unwrap_or_default().to_string(),
                format!("must be after from ({})", format_ms(a)),
            ));
            view.to_ms = None;
        }
    }
    if let Some(text) = get("msg") {
        match parse_count(text, 0, u64::from(u32::MAX)) {
            Ok(m) => view.message = u32::try_from(m).ok(),
            Err(why) => refused.push(("msg", text.to_string(), why)),
        }
    }
    if let Some(text) = get("view") {
        match parse_word(text, &TIMELINES) {
            Ok(w) => {
                view.timeline = [TimelineView::Workers, TimelineView::Messages]
                    .into_iter()
                    .find(|v| v.name() == w)
            }
            Err(why) => refused.push(("view", text.to_string(), why)),
        }
    }
    if let Some(text) = get("panel") {
        match parse_word(text, &PANELS) {
            Ok(w) => view.panel = Some(w.to_string()),
            Err(why) => refused.push(("panel", text.to_string(), why)),
        }
    }
    if let Some(text) = get("theme") {
        match Theme::parse(text) {
            Ok(t) => view.theme = Some(t),
            Err(why) => refused.push(("theme", text.to_string(), why)),
        }
    }
    if let Some(text) = get("mode") {
        match parse_word(text, &MODES) {
            Ok(_) => view.interview = true,
            Err(why) => refused.push(("mode", text.to_string(), why)),
        }
    }
    if let Some(text) = get("palette") {
        match parse_word(text, &PALETTES) {
            Ok(w) => view.palette_cb = w == "cb",
            Err(why) => refused.push(("palette", text.to_string(), why)),
        }
    }
    for (name, slot) in [("embed", &mut view.embed), ("present", &mut view.present)] {
        if let Some(text) = get(name) {
            match parse_bool(text) {
                Ok(b) => *slot = b,
                Err(why) => refused.push((name, text.to_string(), why)),
            }
        }
    }
    // Checked where it is used (`static/boot.js`): one that is no origin
    // matches no sender, and no message is taken.
    view.host_origin = get("host_origin").map(str::to_string);
    if let Some(text) = get("panels") {
        let mut list: Vec<Part> = Vec::new();
        for item in text.split([',', ' ']).filter(|i| !i.trim().is_empty()) {
            match parse_word(item, &EMBED_PANELS).map(Part::embedded) {
                Ok(Some(p)) if !list.contains(&p) => list.push(p),
                Ok(_) => {}
                Err(why) => refused.push(("panels", item.to_string(), why)),
            }
        }
        if list.is_empty() {
            refused.push((
                "panels",
                text.to_string(),
                format!(
                    "names no part to show; must list some of: {}",
                    EMBED_PANELS.join(", ")
                ),
            ));
        } else {
            view.panels = Some(list);
        }
    }
    (view, refused)
}

/// The notes of a link's `note=` fields, each read on its own: a bad one or
/// one past `MAX_NOTES` is refused alone. The kept ones stay in their link
/// form, which is how the page holds them. A note past the run's end is
/// kept: the run may be lengthened again, and until then it is not drawn.
pub fn parse_notes(values: &[String]) -> (Vec<String>, Vec<Refusal>) {
    let mut notes = Vec::new();
    let mut refused = Vec::new();
    for v in values {
        let why = match Note::from_field(v) {
            Ok(_) if notes.len() >= MAX_NOTES => {
                "is past the 10 notes a link keeps; it is left out"
            }
            Ok(_) => {
                notes.push(v.clone());
                continue;
            }
            Err(e) => e.says(),
        };
        refused.push(("note", v.clone(), why.to_string()));
    }
    (notes, refused)
}

/// The view's parameters, leaving out what is unset and any word that is not
/// one of the lists (the page would only be told it was ignored).
pub fn encode(view: &LinkView) -> Vec<(&'static str, String)> {
    let mut out = Vec::new();
    let word = |w: &Option<String>, list: &[&str]| {
        w.as_deref()
            .filter(|w| list.contains(w))
            .map(str::to_string)
    };
    let times = [
        ("from", view.from_ms),
        ("to", view.to_ms),
        ("t", view.playhead_ms),
    ];
    for (name, t) in times {
        if let Some(t) = t {
            out.push((name, format_ms(t)));
        }
    }
    if let Some(m) = view.message {
        out.push(("msg", m.to_string()));
    }
    if let Some(v) = view.timeline {
        out.push(("view", v.name().to_string()));
    }
    if let Some(w) = word(&view.panel, &PANELS) {
        out.push(("panel", w));
    }
    if view.embed {
        out.push(("embed", "1".into()));
    }
    if view.present {
        out.push(("present", "1".into()));
    }
    if view.interview {
        out.push(("mode", "interview".into()));
    }
    if let Some(t) = view.theme.filter(|t| *t != Theme::Auto) {
        out.push(("theme", t.name().to_string()));
    }
    if view.palette_cb {
        out.push(("palette", "cb".into()));
    }
    if let Some(o) = &view.host_origin {
        out.push(("host_origin", o.clone()));
    }
    if let Some(list) = &view.panels {
        let known: Vec<&str> = list
            .iter()
            .map(|p| p.name())
            .filter(|p| EMBED_PANELS.contains(p))
            .collect();
        if !known.is_empty() {
            out.push(("panels", known.join(",")));
        }
    }
    for n in &view.notes {
        out.push(("note", n.clone()));
    }
    out
}
