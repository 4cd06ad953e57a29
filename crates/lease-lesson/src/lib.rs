//! A lesson is a document a teacher writes in a text editor: Markdown, with
//! TOML front matter between `+++` lines (title, question, where it starts)
//! and one fenced block of TOML per step (```` ```step ````), the step's
//! words being the Markdown that follows its block. docs/lessons.md is the
//! format's reference.
//!
//! `parse` reads a lesson into typed steps, checking every figure, field,
//! detector and scenario it names against the tables the page and the
//! report use; `check::check` walks each step's demonstration on the
//! engine, as `lease-sim lesson check` does. No page dependency: the page,
//! the command line and the tests read the same crate.

pub mod check;
pub mod error;
pub mod goal;

use std::ops::Range;

use pulldown_cmark::{CodeBlockKind, Event, MetadataBlockKind, Options, Parser, Tag, TagEnd};
use serde::Deserialize;
use toml::Spanned;

use lease_fields::{Field, Value};
use lease_format::units::parse_ms;
use lease_sim::scenario::Scenario;

pub use error::{LessonError, LessonErrors, Problem};
pub use goal::{Condition, Figure, Op, Operand, Quantity, Unit};

/// A lesson as the page and the check read it.
#[derive(Debug, Clone, PartialEq)]
pub struct Lesson {
    pub title: String,
    /// The exercise or interview question, as asked.
    pub question: String,
    /// The Markdown between the front matter and the first step.
    pub intro: String,
    pub start: Start,
    pub steps: Vec<Step>,
}

/// Where a lesson starts: the scenario, and what it was written as.
#[derive(Debug, Clone, PartialEq)]
pub struct Start {
    pub scenario: Scenario,
    pub from: StartFrom,
}

#[derive(Debug, Clone, PartialEq)]
pub enum StartFrom {
    /// A shipped scenario, by name.
    Shipped(String),
    /// A scenario file inline, in a ```` ```scenario ```` block.
    File,
    /// A share link's fields, on top of the shipped scenario it names.
    Link(String),
}

/// One step: its words, where it points, and what kind of step it is.
#[derive(Debug, Clone, PartialEq)]
pub struct Step {
    /// The line of the step's block.
    pub line: usize,
    /// The Markdown after the block: what the step says.
    pub text: String,
    /// Where to look: "timeline", "totals", "charts", "diagnosis", "sweep",
    /// or a control's id ("timeout", "heartbeat", "max_extensions", ...).
    pub look_at: Option<String>,
    /// The moment of the run the step talks about, where a presenter's
    /// playhead goes.
    pub at_ms: Option<u64>,
    /// The timeline fitted to this range of the run, in ms.
    pub fit: Option<[u64; 2]>,
    /// Messages to highlight, by id.
    pub highlight: Vec<u32>,
    pub kind: StepKind,
}

#[derive(Debug, Clone, PartialEq)]
pub enum StepKind {
    /// To read; `holds` is what the words say of the run (the page ticks
    /// the step when they hold, and the check fails a lesson whose words
    /// the run contradicts). Empty: done once shown.
    Text { holds: Vec<Condition> },
    /// A change the student makes, with the goal checked after every run
    /// and `demo`, the documented way to reach it.
    Do {
        goal: Vec<Condition>,
        demo: Vec<Edit>,
    },
    /// A question asked with the playback stopped at `stop_ms` and what
    /// follows hidden; `why` is the reveal's sentence.
    Predict {
        stop_ms: u64,
        question: Question,
        why: String,
    },
}

/// A demonstration's edit of one field, as a share link writes it.
#[derive(Debug, Clone, PartialEq)]
pub struct Edit {
    pub line: usize,
    pub field: Field,
    pub value: Value,
    /// The value as written.
    pub text: String,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Question {
    /// Multiple choice; `answer` counts from 1, and `holds` is what the run
    /// shows when that answer is right.
    Choice {
        choices: Vec<String>,
        answer: usize,
        holds: Vec<Condition>,
    },
    /// A figure's value, right within `tolerance`.
    Number {
        figure: Quantity,
        answer: f64,
        tolerance: f64,
    },
    /// "Click the run that happens next": the first delivery at or after
    /// the stop, by message and worker.
    NextRun { message: u32, worker: u32 },
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFront {
    title: String,
    #[serde(default)]
    question: String,
    scenario: Option<Spanned<String>>,
    link: Option<Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawNextRun {
    message: u32,
    worker: u32,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawStep {
    kind: Spanned<String>,
    look_at: Option<Spanned<String>>,
    at: Option<Spanned<String>>,
    fit: Option<Spanned<Vec<String>>>,
    #[serde(default)]
    highlight: Vec<u32>,
    holds: Option<Vec<Spanned<String>>>,
    goal: Option<Vec<Spanned<String>>>,
    demo: Option<Spanned<toml::Table>>,
    stop: Option<Spanned<String>>,
    choices: Option<Vec<String>>,
    answer: Option<Spanned<toml::Value>>,
    tolerance: Option<Spanned<toml::Value>>,
    figure: Option<Spanned<String>>,
    next_run: Option<RawNextRun>,
    why: Option<String>,
}

/// A fenced block the lesson format reads, and where it is.
struct Block {
    info: String,
    /// The whole block, fences included.
    whole: Range<usize>,
    /// Its content.
    body: Range<usize>,
}

/// The line (from 1) of a byte offset.
fn line_at(src: &str, offset: usize) -> usize {
    src[..offset.min(src.len())].matches('\n').count() + 1
}

/// Reads TOML at `at` in `src`, with a bad key or value on its own line.
fn from_toml<T: for<'de> Deserialize<'de>>(
    src: &str,
    body: &Range<usize>,
) -> Result<T, LessonError> {
    toml::from_str(&src[body.clone()]).map_err(|e| LessonError {
        line: line_at(src, body.start + e.span().map_or(0, |s| s.start)),
        problem: Problem::Format(e.message().to_string()),
    })
}

/// A lesson's problems, gathered as they are found.
struct Errors<'a> {
    src: &'a str,
    found: Vec<LessonError>,
}

impl Errors<'_> {
    fn at(&mut self, offset: usize, problem: Problem) {
        let line = line_at(self.src, offset);
        self.found.push(LessonError { line, problem });
    }
}

/// Read a lesson, or every problem it has, each on its line.
pub fn parse(src: &str) -> Result<Lesson, LessonErrors> {
    let mut front: Option<Range<usize>> = None;
    let mut blocks: Vec<Block> = Vec::new();
    let mut open: Option<Block> = None;
    let mut in_front = false;
    let parser = Parser::new_ext(src, Options::ENABLE_PLUSES_DELIMITED_METADATA_BLOCKS);
    for (event, range) in parser.into_offset_iter() {
        match event {
            Event::Start(Tag::MetadataBlock(MetadataBlockKind::PlusesStyle)) => {
                in_front = true;
                front = Some(range.start..range.start);
            }
            Event::End(TagEnd::MetadataBlock(_)) => in_front = false,
            Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced(info))) => {
                let info = info.trim().to_string();
                if info == "step" || info == "scenario" {
                    open = Some(Block {
                        info,
                        whole: range.clone(),
                        body: range.end..range.end,
                    });
                }
            }
            Event::End(TagEnd::CodeBlock) => {
                if let Some(mut b) = open.take() {
                    // An empty block: its problems are on its first line.
                    if b.body.start == b.whole.end {
                        b.body = b.whole.start..b.whole.start;
                    }
                    b.whole.end = range.end;
                    blocks.push(b);
                }
            }
            Event::Text(_) => {
                if in_front {
                    if let Some(f) = &mut front {
                        if f.start == f.end {
                            *f = range.clone();
                        } else {
                            f.end = range.end;
                        }
                    }
                } else if let Some(b) = &mut open {
                    if b.body.start == b.whole.end {
                        b.body = range.clone();
                    } else {
                        b.body.end = range.end;
                    }
                }
            }
            _ => {}
        }
    }
    let mut errs = Errors {
        src,
        found: Vec::new(),
    };
    let Some(front) = front else {
        errs.at(
            0,
            Problem::Format(
                "a lesson starts with its front matter: a line +++, then title = \"...\" and scenario = \"...\", then a line +++".into(),
            ),
        );
        return Err(LessonErrors(errs.found));
    };
    let front_raw: Option<RawFront> = match from_toml(src, &front) {
        Ok(f) => Some(f),
        Err(e) => {
            errs.found.push(e);
            None
        }
    };
    let front_end = src[front.end..]
        .find("+++")
        .map_or(front.end, |i| front.end + i + 3);

    // The prose that follows each block, up to the next one.
    let prose_after = |i: usize| -> String {
        let from = blocks[i].whole.end;
        let to = blocks.get(i + 1).map_or(src.len(), |b| b.whole.start);
        src[from..to.max(from)].trim().to_string()
    };
    let intro_end = blocks.first().map_or(src.len(), |b| b.whole.start);
    let intro = src[front_end.min(intro_end)..intro_end].trim().to_string();

    let inline: Vec<usize> = (0..blocks.len())
        .filter(|&i| blocks[i].info == "scenario")
        .collect();
    let start = front_raw.as_ref().and_then(|f| {
        read_start(
            src,
            f,
            &inline.iter().map(|&i| &blocks[i]).collect::<Vec<_>>(),
            front.start,
            &mut errs,
        )
    });

    let mut steps = Vec::new();
    for (i, b) in blocks.iter().enumerate() {
        if b.info != "step" {
            continue;
        }
        let raw: RawStep = match from_toml(src, &b.body) {
            Ok(r) => r,
            Err(e) => {
                errs.found.push(e);
                continue;
            }
        };
        if let Some(step) = read_step(src, b, raw, prose_after(i), &mut errs) {
            steps.push(step);
        }
    }
    if steps.is_empty() && errs.found.is_empty() {
        errs.at(
            front_end,
            Problem::Format("a lesson has at least one step: a block ```step with kind = \"text\", \"do\" or \"predict\"".into()),
        );
    }
    if !errs.found.is_empty() {
        errs.found.sort_by_key(|e| e.line);
        return Err(LessonErrors(errs.found));
    }
    let (Some(front_raw), Some(start)) = (front_raw, start) else {
        unreachable!("a lesson without its front matter or start has an error");
    };
    Ok(Lesson {
        title: front_raw.title,
        question: front_raw.question,
        intro,
        start,
        steps,
    })
}

fn read_start(
    src: &str,
    f: &RawFront,
    inline: &[&Block],
    front_at: usize,
    errs: &mut Errors,
) -> Option<Start> {
    let named = usize::from(f.scenario.is_some()) + usize::from(f.link.is_some()) + inline.len();
    if named != 1 {
        errs.at(
            front_at,
            Problem::Format(format!(
                "a lesson starts from exactly one of: scenario = \"NAME\" (a shipped one), link = \"scenario=NAME&timeout=30s...\" (a share link's fields), or a ```scenario block with a scenario file; this one gives {named}"
            )),
        );
        return None;
    }
    if let Some(name) = &f.scenario {
        let at = front_at + name.span().start;
        return match lease_sim::shipped::find(name.get_ref()) {
            Some(s) => Some(Start {
                scenario: s.scenario,
                from: StartFrom::Shipped(name.get_ref().clone()),
            }),
            None => {
                errs.at(at, Problem::UnknownScenario(name.get_ref().clone()));
                None
            }
        };
    }
    if let Some(link) = &f.link {
        let at = front_at + link.span().start;
        return read_link(link.get_ref()).map_err(|p| errs.at(at, p)).ok();
    }
    let b = inline[0];
    let json = &src[b.body.clone()];
    match lease_sim::parse::parse_scenario(json) {
        Ok(scenario) => {
            // A misspelt key would leave its default in place unseen: in a
            // lesson handed to a class, that is an error, not a warning.
            let unknown = lease_sim::parse::unknown_fields(json, &scenario);
            if let Some(key) = unknown.first() {
                errs.at(
                    b.body.start,
                    Problem::BadScenario(format!("unknown field `{key}`")),
                );
                return None;
            }
            Some(Start {
                scenario,
                from: StartFrom::File,
            })
        }
        Err(e) => {
            let line_in = match &e {
                lease_sim::parse::ParseError::Syntax { line, .. }
                | lease_sim::parse::ParseError::Value { line, .. }
                | lease_sim::parse::ParseError::Field { line, .. } => line.saturating_sub(1),
                _ => 0,
            };
            let line = line_at(src, b.body.start) + line_in;
            errs.found.push(LessonError {
                line,
                problem: Problem::BadScenario(e.to_string()),
            });
            None
        }
    }
}

/// A share link's query (or the whole link): the shipped scenario it names,
/// with its fields applied as the page applies them.
fn read_link(link: &str) -> Result<Start, Problem> {
    let query = link.split_once('?').map_or(link, |(_, q)| q);
    let query = query.split_once('#').map_or(query, |(q, _)| q);
    let mut base = None;
    let mut overrides = Vec::new();
    for (k, v) in lease_format::query::parse(query.as_bytes()) {
        if k.trim().eq_ignore_ascii_case("scenario") {
            base = Some(v.to_string());
            continue;
        }
        let field = lease_fields::find(&k).ok_or_else(|| Problem::BadField {
            field: k.to_string(),
            why: "is not a field of the share link".into(),
        })?;
        let value = field.spec().parse(&v).map_err(|why| Problem::BadField {
            field: field.name().into(),
            why,
        })?;
        overrides.push(lease_fields::Override {
            field,
            value,
            text: v.to_string(),
        });
    }
    let base = base.ok_or_else(|| {
        Problem::Format("the link names no scenario: it needs scenario=NAME".into())
    })?;
    let shipped =
        lease_sim::shipped::find(&base).ok_or_else(|| Problem::UnknownScenario(base.clone()))?;
    let scenario = lease_fields::apply(&shipped.scenario, &overrides).map_err(|(f, why)| {
        Problem::BadField {
            field: f.name().into(),
            why,
        }
    })?;
    Ok(Start {
        scenario,
        from: StartFrom::Link(link.to_string()),
    })
}

fn duration_at(s: &Spanned<String>, key: &str, body_at: usize, errs: &mut Errors) -> Option<u64> {
    parse_ms(s.get_ref(), 0, u64::MAX)
        .map_err(|why| {
            errs.at(
                body_at + s.span().start,
                Problem::BadUnit {
                    text: s.get_ref().clone(),
                    why: format!("{key} is a moment of the run that {why}"),
                },
            )
        })
        .ok()
}

fn conditions(list: &[Spanned<String>], body_at: usize, errs: &mut Errors) -> Vec<Condition> {
    let mut out = Vec::new();
    for c in list {
        match Condition::parse(c.get_ref()) {
            Ok(cond) => out.push(cond),
            Err(p) => errs.at(body_at + c.span().start, p),
        }
    }
    out
}

/// The words a step's keys may carry per kind, for "`goal` belongs to a do step".
fn stray(raw: &RawStep, kind: &str) -> Option<&'static str> {
    let given = [
        ("holds", raw.holds.is_some(), &["text", "predict"][..]),
        ("goal", raw.goal.is_some(), &["do"][..]),
        ("demo", raw.demo.is_some(), &["do"][..]),
        ("stop", raw.stop.is_some(), &["predict"][..]),
        ("choices", raw.choices.is_some(), &["predict"][..]),
        ("answer", raw.answer.is_some(), &["predict"][..]),
        ("tolerance", raw.tolerance.is_some(), &["predict"][..]),
        ("figure", raw.figure.is_some(), &["predict"][..]),
        ("next_run", raw.next_run.is_some(), &["predict"][..]),
        ("why", raw.why.is_some(), &["predict"][..]),
    ];
    given
        .iter()
        .find(|(_, set, kinds)| *set && !kinds.contains(&kind))
        .map(|(k, _, _)| *k)
}

fn read_step(src: &str, b: &Block, raw: RawStep, text: String, errs: &mut Errors) -> Option<Step> {
    let at0 = b.body.start;
    let line = line_at(src, b.whole.start);
    let before = errs.found.len();
    let kind_word = raw.kind.get_ref().as_str();
    let kind_at = at0 + raw.kind.span().start;
    if let Some(k) =
        stray(&raw, kind_word).filter(|_| matches!(kind_word, "text" | "do" | "predict"))
    {
        errs.at(
            kind_at,
            Problem::Format(format!("`{k}` does not belong to a {kind_word} step")),
        );
    }
    if let Some(look) = &raw.look_at {
        if !look_at_known(look.get_ref()) {
            errs.at(
                at0 + look.span().start,
                Problem::Format(format!(
                    "unknown look_at `{}`: one of {}",
                    look.get_ref(),
                    look_at_words().join(", ")
                )),
            );
        }
    }
    let at_ms = raw
        .at
        .as_ref()
        .and_then(|a| duration_at(a, "at", at0, errs));
    let fit = raw.fit.as_ref().and_then(|f| {
        let at = at0 + f.span().start;
        let ms: Vec<Option<u64>> = f
            .get_ref()
            .iter()
            .map(|t| parse_ms(t, 0, u64::MAX).ok())
            .collect();
        match ms[..] {
            [Some(a), Some(b)] if a < b => Some([a, b]),
            _ => {
                errs.at(
                    at,
                    Problem::BadUnit {
                        text: format!("{:?}", f.get_ref()),
                        why: "fit is a range of the run, two durations from earlier to later, like [\"0s\", \"2min\"]".into(),
                    },
                );
                None
            }
        }
    });
    let kind = match kind_word {
        "text" => StepKind::Text {
            holds: conditions(raw.holds.as_deref().unwrap_or(&[]), at0, errs),
        },
        "do" => {
            let goal = match &raw.goal {
                Some(g) if !g.is_empty() => conditions(g, at0, errs),
                _ => {
                    errs.at(
                        kind_at,
                        Problem::Format(
                            "a do step needs its goal: goal = [\"duplicate_effects == 0\", ...]"
                                .into(),
                        ),
                    );
                    Vec::new()
                }
            };
            let demo = match &raw.demo {
                Some(d) if !d.get_ref().is_empty() => edits(d, at0, errs),
                _ => {
                    errs.at(kind_at, Problem::Format("a do step needs its demo, the change that reaches the goal: demo = { timeout = \"135s\" }".into()));
                    Vec::new()
                }
            };
            StepKind::Do { goal, demo }
        }
        "predict" => read_predict(&raw, at0, kind_at, errs)?,
        other => {
            errs.at(
                kind_at,
                Problem::Format(format!(
                    "unknown step kind `{other}`: a step is \"text\", \"do\" or \"predict\""
                )),
            );
            return None;
        }
    };
    if errs.found.len() > before {
        return None;
    }
    Some(Step {
        line,
        text,
        look_at: raw.look_at.map(Spanned::into_inner),
        at_ms,
        fit,
        highlight: raw.highlight,
        kind,
    })
}

/// The parts of the page a step can point at besides its controls.
const LOOK_AT_PARTS: [&str; 7] = [
    "timeline",
    "totals",
    "charts",
    "diagnosis",
    "sweep",
    "fence",
    "max_extensions",
];

/// Every word `look_at` takes: the page's parts, and each slider's id in
/// the field table.
pub fn look_at_words() -> Vec<&'static str> {
    let controls = lease_fields::CONTROLS
        .iter()
        .filter_map(|f| f.control())
        .map(|c| c.id);
    LOOK_AT_PARTS.iter().copied().chain(controls).collect()
}

fn look_at_known(word: &str) -> bool {
    look_at_words().contains(&word)
}

fn edits(d: &Spanned<toml::Table>, at0: usize, errs: &mut Errors) -> Vec<Edit> {
    let at = at0 + d.span().start;
    let mut out = Vec::new();
    for (k, v) in d.get_ref() {
        let text = match v {
            toml::Value::String(s) => s.clone(),
            toml::Value::Integer(i) => i.to_string(),
            toml::Value::Float(x) => x.to_string(),
            toml::Value::Boolean(b) => b.to_string(),
            _ => {
                errs.at(at, Problem::BadField { field: k.clone(), why: "takes a value as a link writes it, like \"30s\", 16 or \"fencing_token\"".into() });
                continue;
            }
        };
        let Some(field) = lease_fields::find(k) else {
            errs.at(at, Problem::BadField { field: k.clone(), why: "is not a field of the field table (the share link's names: timeout, workers, hb, ext, cap, mrc, fence, ...)".into() });
            continue;
        };
        match field.spec().parse(&text) {
            Ok(value) => out.push(Edit {
                line: line_at(errs.src, at),
                field,
                value,
                text,
            }),
            Err(why) => errs.at(
                at,
                Problem::BadField {
                    field: field.name().into(),
                    why,
                },
            ),
        }
    }
    out
}

fn read_predict(raw: &RawStep, at0: usize, kind_at: usize, errs: &mut Errors) -> Option<StepKind> {
    let Some(stop) = &raw.stop else {
        errs.at(
            kind_at,
            Problem::Format(
                "a predict step needs its stop, the moment the playback stops at: stop = \"60s\""
                    .into(),
            ),
        );
        return None;
    };
    let stop_ms = duration_at(stop, "stop", at0, errs)?;
    let Some(why) = raw.why.clone().filter(|w| !w.trim().is_empty()) else {
        errs.at(
            kind_at,
            Problem::Format(
                "a predict step needs its why, the reveal's sentence: why = \"...\"".into(),
            ),
        );
        return None;
    };
    let asked = usize::from(raw.choices.is_some())
        + usize::from(raw.figure.is_some())
        + usize::from(raw.next_run.is_some());
    if asked != 1 {
        errs.at(kind_at, Problem::Format(format!("a predict step asks one question: choices = [...] with answer and holds, figure = \"...\" with answer and tolerance, or next_run = {{ message = 0, worker = 1 }}; this one gives {asked}")));
        return None;
    }
    // Each question's own keys: another question's key would be ignored.
    let foreign: &[(&str, bool)] = if raw.choices.is_some() {
        &[("tolerance", raw.tolerance.is_some())]
    } else if raw.figure.is_some() {
        &[("holds", raw.holds.is_some())]
    } else {
        &[
            ("answer", raw.answer.is_some()),
            ("tolerance", raw.tolerance.is_some()),
            ("holds", raw.holds.is_some()),
        ]
    };
    if let Some((key, _)) = foreign.iter().find(|(_, given)| *given) {
        let asked = if raw.choices.is_some() {
            "multiple-choice"
        } else if raw.figure.is_some() {
            "number"
        } else {
            "next-run"
        };
        errs.at(
            kind_at,
            Problem::Format(format!("`{key}` does not belong to a {asked} question")),
        );
        return None;
    }
    let question = if let Some(choices) = &raw.choices {
        let answer = match raw.answer.as_ref().map(|a| (a.get_ref(), a.span().start)) {
            Some((toml::Value::Integer(n), _)) if *n >= 1 && (*n as usize) <= choices.len() => {
                *n as usize
            }
            Some((_, at)) => {
                errs.at(
                    at0 + at,
                    Problem::Format(format!(
                        "answer is the right choice's number, from 1 to {}",
                        choices.len()
                    )),
                );
                return None;
            }
            None => {
                errs.at(
                    kind_at,
                    Problem::Format(
                        "a multiple-choice question needs its answer: answer = 2 (counting from 1)"
                            .into(),
                    ),
                );
                return None;
            }
        };
        let holds = match &raw.holds {
            Some(h) if !h.is_empty() => conditions(h, at0, errs),
            _ => {
                errs.at(kind_at, Problem::Format("a multiple-choice question needs holds, what the run shows when the answer is right: holds = [\"overlapping_runs >= 1\"]".into()));
                return None;
            }
        };
        Question::Choice {
            choices: choices.clone(),
            answer,
            holds,
        }
    } else if let Some(fig) = &raw.figure {
        let fat = at0 + fig.span().start;
        let figure = match goal::quantity_named(fig.get_ref()) {
            Some(q) if goal::unit_of(&q).is_some() => q,
            _ => {
                errs.at(fat, Problem::UnknownName(fig.get_ref().clone()));
                return None;
            }
        };
        let is_ms = matches!(&figure, Quantity::Figure(f) if f.unit == Unit::Ms)
            || matches!(&figure, Quantity::Field(f) if f.spec().is_duration());
        let amount = |v: &Spanned<toml::Value>, key: &str, errs: &mut Errors| -> Option<f64> {
            let at = at0 + v.span().start;
            let got = match (v.get_ref(), is_ms) {
                (toml::Value::String(t), true) => parse_ms(t, 0, u64::MAX).ok().map(|ms| ms as f64),
                (toml::Value::Integer(n), false) if *n >= 0 => Some(*n as f64),
                (toml::Value::Float(x), false) if x.is_finite() && *x >= 0.0 => Some(*x),
                _ => None,
            };
            if got.is_none() {
                errs.at(
                    at,
                    Problem::BadUnit {
                        text: written(v.get_ref()),
                        why: if is_ms {
                            format!(
                                "{key} of {} is a duration, written like \"90s\"",
                                fig.get_ref()
                            )
                        } else {
                            format!(
                                "{key} of {} is a number, written without a unit",
                                fig.get_ref()
                            )
                        },
                    },
                );
            }
            got
        };
        let Some(a) = &raw.answer else {
            errs.at(
                kind_at,
                Problem::Format("a number question needs its answer: answer = 3".into()),
            );
            return None;
        };
        let answer = amount(a, "answer", errs)?;
        let tolerance = match &raw.tolerance {
            Some(t) => amount(t, "tolerance", errs)?,
            None => 0.0,
        };
        Question::Number {
            figure,
            answer,
            tolerance,
        }
    } else {
        let n = raw.next_run.as_ref()?;
        Question::NextRun {
            message: n.message,
            worker: n.worker,
        }
    };
    Some(StepKind::Predict {
        stop_ms,
        question,
        why,
    })
}

/// A TOML value as the lesson wrote it, for an error.
fn written(v: &toml::Value) -> String {
    match v {
        toml::Value::String(s) => format!("\"{s}\""),
        toml::Value::Integer(i) => i.to_string(),
        toml::Value::Float(x) => x.to_string(),
        toml::Value::Boolean(b) => b.to_string(),
        other => format!("{other:?}"),
    }
}
