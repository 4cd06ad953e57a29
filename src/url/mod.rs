//! The share link: the page's whole state in the query string, with short
//! readable names, `?scenario=clip-surge&timeout=30s&hb=10s&cap=20&p99=45s`.
//! The names and values of the scenario's fields are the field table's
//! (`lease_fields`), the one the page's controls use.
//!
//! `encode` writes the shipped scenario the edits start from and only the
//! fields that differ from it; whatever the short fields cannot say (an
//! imported file's faults, surges, a custom mix) goes whole into `data=`.
//! Either way `decode(encode(link))` rebuilds the very same `Scenario`, so the
//! run is the same event for event; the one exception is a list of
//! durations longer than 256 or not in whole ms, which travels as its
//! compact quantiles (docs/MODEL.md "The compact form").
//!
//! `decode` is tolerant field by field: a bad value keeps the base's value and
//! yields a `Notice` naming the field, the value and what is allowed; fields
//! that are each fine but together cannot run are dropped one by one until
//! the scenario validates and fits the run-size budget. A hostile link (ten
//! thousand parameters, huge numbers, NaN, markup, broken escapes) is cut to
//! size first and can only produce notices, never a panic.
//!
//! Pure Rust, no web API: the page reads and writes `location.search` and
//! calls these two functions.

mod view;

#[cfg(test)]
mod tests;

use std::fmt;

use lease_fields::{Field, Override, Value};
use lease_format::base64url;
use lease_sim::scenario::Scenario;
use lease_sim::{parse_scenario_without_path, validate};

use crate::catalog;

// The page builds its panel menus from these lists; until it does, only tests read them.
#[allow(unused_imports)]
pub use view::{LinkView, EMBED_PANELS, PANELS, TIMELINES};

/// The scenario a link starts from when it names none (the page's default).
pub const DEFAULT_BASE: &str = "ninety-second-message";
/// Longer links are cut at the last whole parameter before this length.
pub const MAX_QUERY_BYTES: usize = 8 * 1024;
/// Parameters beyond these are counted, not read.
pub const MAX_PARAMS: usize = 200;
/// Notices beyond these are summed up in one last notice.
pub const MAX_NOTICES: usize = 20;
/// A notice quotes at most this much of the value it ignored.
pub const MAX_VALUE_CHARS: usize = 60;
/// `data=` longer than this is refused (it would not fit in the link anyway).
pub const MAX_DATA_CHARS: usize = 8_000;
const MAX_WHY_CHARS: usize = 300;

/// The page's state as a link carries it.
#[derive(Debug, Clone, PartialEq)]
pub struct Link {
    /// The shipped scenario the edits start from (`?scenario=`).
    pub base: String,
    /// The scenario to run: the base with the link's edits.
    pub scenario: Scenario,
    /// Side B of a comparison: the scenario, as `b.` fields that differ
    /// from side A (`compare=1&b.timeout=45s`).
    pub b: Option<Scenario>,
    pub view: LinkView,
}

/// A link as the edits that rebuild it: the shipped scenario it starts from,
/// the whole scenario of `data=` if it has one, then its fields in the
/// table's order (only those that together can run).
#[derive(Debug, Clone, PartialEq)]
pub struct Read {
    pub link: Link,
    pub data: Option<Scenario>,
    pub sets: Vec<(Field, Value)>,
    /// Side B's edits of side A, when the link compares.
    pub b_sets: Option<Vec<(Field, Value)>>,
}

/// The prefix of side B's fields in a link: `b.timeout=45s`.
pub const B_PREFIX: &str = "b.";

/// A parameter the link had but the page did not use, and why. Plain text:
/// the page must escape it like any other text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Notice {
    /// The parameter's name (`timeout`), or `(link)` for the link as a whole.
    pub field: String,
    /// The value as given, cut to `MAX_VALUE_CHARS` characters.
    pub value: String,
    /// What was wrong, and what is allowed.
    pub why: String,
}

impl Notice {
    fn new(field: &str, value: &str, why: &str) -> Notice {
        Notice {
            field: clip(field, MAX_VALUE_CHARS),
            value: clip(value, MAX_VALUE_CHARS),
            why: clip(why, MAX_WHY_CHARS),
        }
    }
}

impl fmt::Display for Notice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.value.is_empty() {
            write!(f, "{}: {}", self.field, self.why)
        } else {
            write!(f, "{} = \"{}\": {}", self.field, self.value, self.why)
        }
    }
}

/// At most `max` characters, control characters shown as U+FFFD so that a
/// notice cannot carry line breaks or terminal escapes into the page.
fn clip(text: &str, max: usize) -> String {
    let mut out: String = text
        .chars()
        .take(max)
        .map(|c| if c.is_control() { '\u{FFFD}' } else { c })
        .collect();
    if text.chars().nth(max).is_some() {
        out.push('…');
    }
    out
}

/// Collects notices up to `MAX_NOTICES`, then only counts them.
#[derive(Default)]
struct Notices {
    list: Vec<Notice>,
    more: usize,
}

impl Notices {
    fn push(&mut self, field: &str, value: &str, why: &str) {
        if self.list.len() < MAX_NOTICES {
            self.list.push(Notice::new(field, value, why));
        } else {
            self.more += 1;
        }
    }

    fn finish(mut self) -> Vec<Notice> {
        if self.more > 0 {
            self.list.push(Notice::new(
                "(link)",
                "",
                &format!("and {} more ignored parameters or values", self.more),
            ));
        }
        self.list
    }
}

/// The text fields that do not change the run, as `data=` carries them: a
/// field left out is the base's, which keeps a link to an edited shipped
/// scenario short; a field given, even empty, is the link's own.
#[derive(Debug, Default, serde::Deserialize, serde::Serialize)]
struct Prose {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    title: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    explanation: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    look_for: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    variant_of: Option<String>,
}

/// The scenario's prose fields, in `Prose`'s order.
fn prose_of(s: &mut Scenario) -> [&mut String; 4] {
    [
        &mut s.title,
        &mut s.explanation,
        &mut s.look_for,
        &mut s.variant_of,
    ]
}

impl Prose {
    fn fields(&mut self) -> [&mut Option<String>; 4] {
        [
            &mut self.title,
            &mut self.explanation,
            &mut self.look_for,
            &mut self.variant_of,
        ]
    }
}

/// What `data=` holds: the run's fields (the scenario with its prose
/// emptied, which it leaves out) and the prose the base does not give.
#[derive(serde::Serialize)]
struct Data<'a> {
    #[serde(flatten)]
    run: &'a Scenario,
    #[serde(flatten)]
    prose: Prose,
}

fn decode_data(
    text: &str,
    base: &Scenario,
    budget: &dyn Fn(&Scenario) -> Result<(), String>,
) -> Result<Scenario, String> {
    if text.len() > MAX_DATA_CHARS {
        return Err(format!(
            "is {} characters long; at most {MAX_DATA_CHARS} are read",
            text.len()
        ));
    }
    // With or without padding: links pass through tools that add it.
    let bytes = base64url::decode(text.trim())
        .ok_or_else(|| "is not base64url text (A-Z, a-z, 0-9, - and _)".to_string())?;
    let json = String::from_utf8(bytes).map_err(|_| "does not decode to UTF-8 text".to_string())?;
    let given = serde_json::from_str::<Prose>(&json);
    if let Err(e) = &given {
        if !e.is_data() {
            return Err(format!("is not a JSON scenario: {e}"));
        }
    }
    let cannot_run = |e: &dyn std::fmt::Display| format!("is not a scenario that can run: {e}");
    let mut s = parse_scenario_without_path(&json).map_err(|e| cannot_run(&e))?;
    let mut given = given.map_err(|e| cannot_run(&e))?;
    let mut from_base = base.clone();
    for ((mine, given), base) in prose_of(&mut s)
        .into_iter()
        .zip(given.fields())
        .zip(prose_of(&mut from_base))
    {
        *mine = given.take().unwrap_or_else(|| std::mem::take(base));
    }
    budget(&s).map_err(|e| format!("is too large a run for this page: {e}"))?;
    Ok(s)
}

/// The whole scenario as `data=`. Prose equal to the base's is left out; if
/// the result is still too long for a link, prose is blanked (the run does
/// not depend on it).
fn encode_data(base: &Scenario, target: &Scenario) -> String {
    let write = |blank: bool| {
        let mut run = target.clone();
        let mut base = base.clone();
        let mut prose = Prose::default();
        for ((mine, base), field) in prose_of(&mut run)
            .into_iter()
            .zip(prose_of(&mut base))
            .zip(prose.fields())
        {
            let mine = std::mem::take(mine);
            if blank {
                *field = Some(String::new());
            } else if mine != *base {
                *field = Some(mine);
            }
        }
        let data = Data { run: &run, prose };
        base64url::encode(serde_json::to_string(&data).unwrap_or_default())
    };
    let text = write(false);
    if text.len() <= MAX_DATA_CHARS {
        return text;
    }
    write(true)
}

/// The query cut at the last whole parameter within `MAX_QUERY_BYTES`.
fn cut_to_size<'a>(query: &'a str, notes: &mut Notices) -> &'a str {
    if query.len() <= MAX_QUERY_BYTES {
        return query;
    }
    notes.push(
        "(link)",
        &format!("{} bytes", query.len()),
        &format!("is too long: only the first {MAX_QUERY_BYTES} bytes are read"),
    );
    // `&` is ASCII, so its index is a character boundary.
    let head = query.as_bytes().get(..MAX_QUERY_BYTES).unwrap_or_default();
    let end = head.iter().rposition(|b| *b == b'&').unwrap_or(0);
    query.get(..end).unwrap_or_default()
}

/// The shipped scenario named, or the default one (with a notice).
fn base_of(name: Option<&str>, notes: &mut Notices) -> (String, Scenario) {
    let found = name.and_then(|n| catalog::find(n.trim()));
    if let (Some(n), None) = (name, &found) {
        let why = match catalog::failure(n.trim()) {
            Some(why) => format!("could not be loaded ({why})"),
            None => "is not a shipped scenario".to_string(),
        };
        notes.push(
            "scenario",
            n,
            &format!("{why}; the link starts from {DEFAULT_BASE}"),
        );
    }
    match found.or_else(|| catalog::find(DEFAULT_BASE)) {
        Some(s) => (s.name.clone(), s),
        None => (DEFAULT_BASE.to_string(), Scenario::default()),
    }
}

/// The shipped scenario a link starts from (`scenario=`), as `decode_within`
/// reads it: the page fetches it before it reads the link (`catalog`).
pub fn base_name(query: &str) -> Option<String> {
    let query = query.strip_prefix('?').unwrap_or(query);
    lease_format::query::parse(query.as_bytes())
        .take(MAX_PARAMS)
        .find(|(k, _)| k.trim().eq_ignore_ascii_case("scenario"))
        .map(|(_, v)| v.trim().to_string())
}

/// Read a share link's query (with or without the leading `?`). `None` when
/// it names nothing the page knows (the page then shows its default); the
/// notices list every parameter or value that was ignored, and why. The
/// scenario always validates, the engine's run-size limits included.
pub fn decode(query: &str) -> (Option<Link>, Vec<Notice>) {
    decode_within(query, &|_| Ok(()))
}

/// `decode`, with a further limit the scenario must meet (the page's own,
/// smaller run-size budget): overrides that pass it are dropped like those
/// that fail `validate`, and so is a `data=` scenario. `Err` says why.
pub fn decode_within(
    query: &str,
    budget: &dyn Fn(&Scenario) -> Result<(), String>,
) -> (Option<Link>, Vec<Notice>) {
    let (read, notices) = read_within(query, budget);
    (read.map(|r| r.link), notices)
}

/// `decode_within`, as the edits that rebuild the scenario.
pub fn read_within(
    query: &str,
    budget: &dyn Fn(&Scenario) -> Result<(), String>,
) -> (Option<Read>, Vec<Notice>) {
    let mut notes = Notices::default();
    let query = query.strip_prefix('?').unwrap_or(query);
    let query = cut_to_size(query, &mut notes);

    let mut pairs = lease_format::query::parse(query.as_bytes());
    let params: Vec<(String, String)> = pairs
        .by_ref()
        .take(MAX_PARAMS)
        .map(|(k, v)| (k.into_owned(), v.into_owned()))
        .collect();
    let rest = pairs.count();
    if rest > 0 {
        notes.push(
            "(link)",
            &format!("{} parameters", MAX_PARAMS + rest),
            &format!("has too many parameters: only the first {MAX_PARAMS} are read"),
        );
    }

    let mut seen: Vec<&'static str> = Vec::new();
    let mut base_name: Option<String> = None;
    let mut data: Option<String> = None;
    // By field, so they apply in the table's order (a name is read once).
    // Side B's fields (`b.` in the link) follow side A's in the same vector.
    let n = Field::ALL.len();
    let mut by_field: Vec<Option<Override>> = vec![None; 2 * n];
    let mut view_params: Vec<(&'static str, String)> = Vec::new();
    let mut known = false;
    let mut compare: Option<bool> = None;
    let mut note_values: Vec<String> = Vec::new();
    for (key, value) in &params {
        let lower = key.trim().to_ascii_lowercase();
        // The one field a link repeats: one note each.
        if lower == "note" {
            known = true;
            note_values.push(value.clone());
            continue;
        }
        if let Some(rest) = lower.strip_prefix(B_PREFIX) {
            known = true;
            read_b_field(rest, key, value, &mut by_field[n..], &mut notes);
            continue;
        }
        let name: Option<&'static str> = match lower.as_str() {
            "scenario" => Some("scenario"),
            "data" => Some("data"),
            "compare" => Some("compare"),
            k => lease_fields::find(k)
                .map(Field::name)
                .or_else(|| view::find(k)),
        };
        let Some(name) = name else {
            notes.push(key, value, "is not a setting of this page; it is ignored");
            continue;
        };
        known = true;
        if seen.contains(&name) {
            notes.push(
                key,
                value,
                "is given more than once; the first value is used",
            );
            continue;
        }
        seen.push(name);
        match name {
            "scenario" => base_name = Some(value.clone()),
            "data" => data = Some(value.clone()),
            "compare" => match lease_format::units::parse_bool(value) {
                Ok(on) => compare = Some(on),
                Err(why) => notes.push(name, value, &format!("{why}; the link does not compare")),
            },
            _ => match lease_fields::find(name) {
                Some(i) => match i.spec().parse(value) {
                    Ok(v) => {
                        by_field[i as usize] = Some(Override {
                            field: i,
                            value: v,
                            text: value.clone(),
                        })
                    }
                    Err(why) => {
                        notes.push(name, value, &format!("{why}; the scenario's value is kept"))
                    }
                },
                None => view_params.push((name, value.clone())),
            },
        }
    }

    let (base, base_scenario) = base_of(base_name.as_deref(), &mut notes);
    let data = data.and_then(|text| {
        decode_data(&text, &base_scenario, budget)
            .map_err(|why| {
                notes.push(
                    "data",
                    &text,
                    &format!("{why}; the link starts from {base}"),
                )
            })
            .ok()
    });
    let start = data.as_ref().unwrap_or(&base_scenario);
    let b_fields = by_field.split_off(n);
    let overrides: Vec<Override> = by_field.into_iter().flatten().collect();
    let (scenario, kept) = apply_runnable(start, &overrides, budget, &mut notes);
    let b_overrides: Vec<Override> = b_fields.into_iter().flatten().collect();
    let b = match compare {
        Some(true) => {
            let (b, b_kept) =
                apply_runnable_named(&scenario, &b_overrides, budget, &mut notes, B_PREFIX);
            Some((b, b_kept))
        }
        _ => {
            if let Some(o) = b_overrides.first() {
                notes.push(
                    &format!("{B_PREFIX}{}", o.field.name()),
                    &o.text,
                    "is side B of a comparison, but the link has no compare=1; it is ignored",
                );
            }
            None
        }
    };

    let (mut view, mut refused) = view::parse(&view_params, scenario.duration_ms);
    let (kept_notes, bad_notes) = view::parse_notes(&note_values);
    view.notes = kept_notes;
    refused.extend(bad_notes);
    for (name, value, why) in refused {
        notes.push(name, &value, &why);
    }
    let read = known.then(|| Read {
        link: Link {
            base,
            scenario,
            b: b.as_ref().map(|(s, _)| s.clone()),
            view,
        },
        data,
        sets: kept.into_iter().map(|o| (o.field, o.value)).collect(),
        b_sets: b.map(|(_, kept)| kept.into_iter().map(|o| (o.field, o.value)).collect()),
    });
    (read, notes.finish())
}

/// All the overrides if together they can run; otherwise each in turn,
/// keeping those that still leave a scenario that validates and fits. The
/// scenario, and the overrides kept.
fn apply_runnable(
    start: &Scenario,
    overrides: &[Override],
    budget: &dyn Fn(&Scenario) -> Result<(), String>,
    notes: &mut Notices,
) -> (Scenario, Vec<Override>) {
    apply_runnable_named(start, overrides, budget, notes, "")
}

/// Side B's field from a `b.NAME` parameter, read as side A's are; a notice
/// names it with its prefix.
fn read_b_field(
    rest: &str,
    key: &str,
    value: &str,
    slots: &mut [Option<Override>],
    notes: &mut Notices,
) {
    let Some(field) = lease_fields::find(rest) else {
        notes.push(key, value, "is not a setting of this page; it is ignored");
        return;
    };
    let name = format!("{B_PREFIX}{}", field.name());
    let Some(slot) = slots.get_mut(field as usize) else {
        return;
    };
    if slot.is_some() {
        notes.push(
            &name,
            value,
            "is given more than once; the first value is used",
        );
        return;
    }
    match field.spec().parse(value) {
        Ok(v) => {
            *slot = Some(Override {
                field,
                value: v,
                text: value.to_string(),
            })
        }
        Err(why) => notes.push(&name, value, &format!("{why}; side A's value is kept")),
    }
}

/// `apply_runnable`, its notices naming each field with `prefix`.
fn apply_runnable_named(
    start: &Scenario,
    overrides: &[Override],
    budget: &dyn Fn(&Scenario) -> Result<(), String>,
    notes: &mut Notices,
    prefix: &str,
) -> (Scenario, Vec<Override>) {
    let runs = |s: &Scenario| {
        validate(s)
            .map_err(|e| e.to_string())
            .and_then(|()| budget(s))
    };
    if let Ok(s) = lease_fields::apply(start, overrides) {
        if runs(&s).is_ok() {
            return (s, overrides.to_vec());
        }
    }
    let mut kept: Vec<Override> = Vec::new();
    let mut scenario = start.clone();
    for o in overrides {
        kept.push(o.clone());
        let name = o.field.name();
        let why = match lease_fields::apply(start, &kept) {
            Ok(s) => match runs(&s) {
                Ok(()) => {
                    scenario = s;
                    continue;
                }
                Err(e) => format!("cannot run with the link's other settings: {e}"),
            },
            Err((i, why)) if i == o.field => why,
            Err((i, why)) => format!("conflicts with {}: {why}", i.name()),
        };
        kept.pop();
        notes.push(
            &format!("{prefix}{name}"),
            &o.text,
            &format!("{why}; the scenario's value is kept"),
        );
    }
    (scenario, kept)
}

/// Characters a query value may carry as they are; the rest is %-escaped.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~' | b',') {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

fn join(parts: &[(&str, String)]) -> String {
    parts
        .iter()
        .map(|(k, v)| format!("{k}={}", escape(v)))
        .collect::<Vec<_>>()
        .join("&")
}

/// The link's query string, without `?`: `scenario=NAME`, then the fields
/// that differ from that shipped scenario (or `data=` with the whole
/// scenario when the fields cannot say it exactly), then the view.
pub fn encode(link: &Link) -> String {
    let (base, base_scenario) = match catalog::find(&link.base) {
        Some(s) => (s.name.clone(), s),
        None => base_of(None, &mut Notices::default()),
    };
    // A long list of durations travels as its compact form, never whole.
    let compact;
    let scenario = match lease_fields::work::link_form(&link.scenario.work.dist) {
        Some(d) => {
            let mut s = link.scenario.clone();
            s.work.dist = d;
            compact = s;
            &compact
        }
        None => &link.scenario,
    };
    let rebuilds = |parts: &[(&str, String)]| {
        decode(&join(parts)).0.map(|l| l.scenario).as_ref() == Some(scenario)
    };
    let mut parts: Vec<(&str, String)> = vec![("scenario", base.clone())];
    parts.extend(lease_fields::diff(&base_scenario, scenario));
    if !rebuilds(&parts) {
        let whole = vec![
            ("scenario", base.clone()),
            ("data", encode_data(&base_scenario, scenario)),
        ];
        // A scenario that cannot run rebuilds from neither; keep the fields then.
        if rebuilds(&whole) {
            parts = whole;
        }
    }
    let mut query = join(&parts);
    if let Some(b) = &link.b {
        query += "&compare=1";
        for (k, v) in lease_fields::diff(scenario, b) {
            query += "&";
            query += B_PREFIX;
            query += k;
            query.push('=');
            query += &escape(&v);
        }
    }
    let view = view::encode(&link.view);
    if !view.is_empty() {
        query.push('&');
        query += &join(&view);
    }
    query
}
