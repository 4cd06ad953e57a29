//! Which side panel is open (part of the share link), and what the page and
//! the panels module (`crates/lease-panels`) tell each other: the page sends
//! a `PanelView` (which panel, with what), the module answers with a
//! `PanelCommand`, both as JSON.

use lease_sim::Scenario;
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Panel {
    Export,
    Embed,
    Help,
    Sweep,
    Tour,
    Compare,
    Recommend,
    /// "Your latency data": percentiles, durations or a histogram read into
    /// the scenario's work.
    Latency,
    /// Notes on the timeline: write, edit and delete them.
    Notes,
    /// Every delivery of the run on screen as a table, sorted and paged.
    Table,
    /// The timeline's context menu, at `PanelViewOf::at`; not in links.
    Menu,
    /// The help overlay opened at "How the broker presets differ", from the
    /// button under the Broker select; not in links.
    Presets,
}

impl Panel {
    /// Whether the panel is loaded on demand (`crates/lease-panels`) rather
    /// than part of the page's own wasm.
    pub fn on_demand(self) -> bool {
        // The comparison is drawn with the page's own timeline and charts.
        !matches!(self, Panel::Compare)
    }

    /// The name a share link uses (`panel=export`).
    pub fn name(self) -> &'static str {
        match self {
            Panel::Export => "export",
            Panel::Embed => "embed",
            Panel::Help => "help",
            Panel::Sweep => "sweep",
            Panel::Tour => "tour",
            Panel::Compare => "compare",
            Panel::Recommend => "recommend",
            Panel::Latency => "latency",
            Panel::Notes => "notes",
            Panel::Table => "table",
            Panel::Menu => "menu",
            Panel::Presets => "presets",
        }
    }

    pub fn from_name(name: &str) -> Option<Panel> {
        [
            Panel::Export,
            Panel::Embed,
            Panel::Help,
            Panel::Sweep,
            Panel::Tour,
            Panel::Compare,
            Panel::Recommend,
            Panel::Latency,
            Panel::Notes,
            Panel::Table,
        ]
        .into_iter()
        .find(|p| p.name() == name)
    }
}

/// What the panels module asks of the page.
#[derive(Serialize, Debug, Clone, PartialEq)]
#[serde(rename_all = "snake_case")]
pub enum PanelCommand {
    /// Close the open panel.
    Close,
    /// A scenario file was read: it becomes the scenario edits start from.
    Import {
        /// The scenario as JSON, which the page reads and checks with the
        /// reader it has for files and links (`parse_scenario_without_path`).
        scenario: String,
        /// The fields the file had that the page ignored.
        ignored: Vec<String>,
    },
    /// A file dropped on the page or a panel could not be read, and why.
    Reject(String),
    /// Start the tour of that id (its scenario loads, at its first step).
    StartTour(String),
    TourStep(usize),
    /// Set a scenario field, named and written as a share link writes it
    /// (`timeout`, `45s`): a sweep's point chosen.
    Set {
        field: String,
        value: String,
    },
    /// Apply the demonstration of that tour's step.
    TourDemo {
        tour: String,
        step: usize,
    },
    /// The scenario on screen with its work replaced (latency data put to
    /// use), as JSON: the page reads and checks it as it reads a link's.
    UseWork(String),
    /// Enter or leave presenter mode (the presenter bar's own button).
    Present(bool),
    /// The notes on the timeline, all of them, each in its link form
    /// (`lease_view::note`): the page reads them as it reads a link's.
    Notes(Vec<String>),
    /// Select that message on the timeline (a row of the table shown).
    Select(u32),
    /// The timeline's menu acted: the scenario on screen with a fault added
    /// or removed (as JSON, read as a link's), and what was done, in words.
    Replace {
        scenario: String,
        said: String,
    },
    /// The same, as a fork: compared, side B with the change.
    Fork {
        scenario: String,
    },
}

impl PanelCommand {
    pub fn to_json(&self) -> String {
        // Plain data; it always serialises.
        serde_json::to_string(self).unwrap_or_default()
    }

    /// Reads a command as `to_json` writes it, or says which it could not
    /// read. Through `serde_json::Value`, whose reader the page carries for
    /// share links anyway, rather than a derived reader (docs/ARCHITECTURE.md,
    /// the download budget).
    pub fn from_json(text: &str) -> Result<PanelCommand, String> {
        use serde_json::Value;
        let value: Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
        if value.as_str() == Some("close") {
            return Ok(PanelCommand::Close);
        }
        let Some((tag, v)) = value
            .as_object()
            .filter(|o| o.len() == 1)
            .and_then(|o| o.iter().next())
        else {
            return Err("a message that is not a panel command".into());
        };
        let text_of = |v: &Value| v.as_str().map(str::to_string);
        let index_of = |v: &Value| v.as_u64().and_then(|n| usize::try_from(n).ok());
        let read = match tag.as_str() {
            "import" => (|| {
                let ignored = v.get("ignored")?.as_array()?;
                Some(PanelCommand::Import {
                    scenario: text_of(v.get("scenario")?)?,
                    ignored: ignored.iter().map(text_of).collect::<Option<_>>()?,
                })
            })(),
            "reject" => text_of(v).map(PanelCommand::Reject),
            "use_work" => text_of(v).map(PanelCommand::UseWork),
            "select" => v
                .as_u64()
                .and_then(|n| u32::try_from(n).ok())
                .map(PanelCommand::Select),
            "start_tour" => text_of(v).map(PanelCommand::StartTour),
            "tour_step" => index_of(v).map(PanelCommand::TourStep),
            "present" => v.as_bool().map(PanelCommand::Present),
            // A loop, not a `collect` into an `Option`: that adapter is
            // code of its own in the page's download.
            "notes" => v.as_array().and_then(|list| {
                let mut notes = Vec::with_capacity(list.len());
                for n in list {
                    notes.push(text_of(n)?);
                }
                Some(PanelCommand::Notes(notes))
            }),
            "tour_demo" => (|| {
                Some(PanelCommand::TourDemo {
                    tour: text_of(v.get("tour")?)?,
                    step: index_of(v.get("step")?)?,
                })
            })(),
            "replace" => (|| {
                Some(PanelCommand::Replace {
                    scenario: text_of(v.get("scenario")?)?,
                    said: text_of(v.get("said")?)?,
                })
            })(),
            "fork" => (|| {
                Some(PanelCommand::Fork {
                    scenario: text_of(v.get("scenario")?)?,
                })
            })(),
            "set" => (|| {
                Some(PanelCommand::Set {
                    field: text_of(v.get("field")?)?,
                    value: text_of(v.get("value")?)?,
                })
            })(),
            _ => return Err(format!("an unknown panel command \"{tag}\"")),
        };
        read.ok_or_else(|| format!("the panel command \"{tag}\" without its fields"))
    }
}

/// What the page tells a panel loaded on demand, as JSON: which panel, and
/// the props the panel had when it was part of the page.
#[derive(Serialize)]
pub struct PanelViewOf<'a> {
    pub panel: &'static str,
    pub scenario: &'a Scenario,
    /// The scenario of the run on screen (export's timeline files).
    pub run_scenario: &'a Scenario,
    /// The share link of what is on screen.
    pub link: &'a str,
    pub by_message: bool,
    pub range: Option<(u64, u64)>,
    /// The share link's query without `embed` and `panels` (the embed generator).
    pub query: &'a str,
    /// The tour under way and its step.
    pub tour: Option<(&'a str, usize)>,
    /// Whether each step of that tour holds in the run on screen.
    pub done: Option<Vec<bool>>,
    /// Whether the person earned each step's tick (the page's `tour_earned`):
    /// a step that holds but was not earned is one to look at.
    pub earned: &'a [bool],
    /// Presenter mode: the tours' panel is the presenter bar.
    pub present: bool,
    /// The notes on the timeline, in their link form.
    pub notes: &'a [String],
    /// The range a new note starts on (a Shift+drag on the timeline).
    pub draft: Option<(u64, u64)>,
    /// Where the timeline's menu opened (`Panel::Menu`).
    pub at: Option<&'a MenuAt>,
}

/// Where the timeline's menu opened: the moment, what lies under it, and
/// where on the screen the menu goes.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Default)]
pub struct MenuAt {
    pub t_ms: u64,
    /// The worker lane under the pointer.
    pub worker: Option<u32>,
    /// The run under the pointer: its message, receipt and end (its
    /// finish, or the end of the run on screen).
    pub message: Option<u32>,
    pub receipt: Option<u32>,
    pub run_end_ms: Option<u64>,
    /// How many ms a few pixels span at the timeline's zoom: how near a
    /// fault's mark the pointer must be to be on it.
    pub near_ms: u64,
    /// The pointer, in CSS pixels of the viewport.
    pub x: f64,
    pub y: f64,
}

/// `PanelViewOf` as the panel reads it (in crates/lease-panels).
#[derive(Deserialize, Debug, PartialEq)]
pub struct PanelView {
    pub panel: String,
    pub scenario: Scenario,
    pub run_scenario: Scenario,
    pub link: String,
    pub by_message: bool,
    pub range: Option<(u64, u64)>,
    pub query: String,
    pub tour: Option<(String, usize)>,
    pub done: Option<Vec<bool>>,
    pub earned: Vec<bool>,
    #[serde(default)]
    pub present: bool,
    #[serde(default)]
    pub notes: Vec<String>,
    #[serde(default)]
    pub draft: Option<(u64, u64)>,
    pub at: Option<MenuAt>,
}

/// The first file of a drop (the page and the panels import it), with the
/// browser's default (opening the file) prevented.
pub fn dropped_file(e: &web_sys::DragEvent) -> Option<web_sys::File> {
    e.prevent_default();
    e.data_transfer()
        .and_then(|d| d.files())
        .and_then(|f| f.get(0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_panel_command_reads_back_as_the_panel_wrote_it() {
        let scenario = lease_sim::shipped::find("clip-surge").unwrap().scenario;
        for c in [
            PanelCommand::Close,
            PanelCommand::Import {
                scenario: serde_json::to_string(&scenario).unwrap(),
                ignored: vec!["brokr".into(), "x\"y".into()],
            },
            PanelCommand::Import {
                scenario: "{}".into(),
                ignored: vec![],
            },
            PanelCommand::Reject("The file was not loaded: \"x\"".into()),
            PanelCommand::StartTour("not-a-lock".into()),
            PanelCommand::TourStep(3),
            PanelCommand::TourDemo {
                tour: "not-a-lock".into(),
                step: 2,
            },
            PanelCommand::Set {
                field: "timeout".into(),
                value: "45s".into(),
            },
            PanelCommand::UseWork(serde_json::to_string(&scenario).unwrap()),
            PanelCommand::Present(false),
            PanelCommand::Notes(vec!["60s-90s~w1~a ~ & \"note\"".into()]),
            PanelCommand::Notes(vec![]),
            PanelCommand::Select(7),
            PanelCommand::Replace {
                scenario: serde_json::to_string(&scenario).unwrap(),
                said: "Crashed worker 2 at 1:01.".into(),
            },
            PanelCommand::Fork {
                scenario: serde_json::to_string(&scenario).unwrap(),
            },
        ] {
            assert_eq!(PanelCommand::from_json(&c.to_json()), Ok(c));
        }
    }

    #[test]
    fn a_message_that_is_not_a_panel_command_says_what_it_lacks() {
        for (text, says) in [
            ("not json", "expected"),
            (r#""open""#, "not a panel command"),
            (r#"{"close":1,"reject":"x"}"#, "not a panel command"),
            (r#"{"dance":"x"}"#, "unknown panel command \"dance\""),
            (r#"{"tour_step":-1}"#, "\"tour_step\" without its fields"),
            (
                r#"{"tour_demo":{"tour":"t"}}"#,
                "\"tour_demo\" without its fields",
            ),
            (
                r#"{"import":{"scenario":"{}","ignored":[3]}}"#,
                "\"import\" without",
            ),
            (r#"{"reject":null}"#, "\"reject\" without its fields"),
            (r#"{"present":"yes"}"#, "\"present\" without its fields"),
            (r#"{"notes":["a",3]}"#, "\"notes\" without its fields"),
            (r#"{"select":-2}"#, "\"select\" without its fields"),
            (r#"{"replace":{"scenario":"{}"}}"#, "\"replace\" without"),
            (r#"{"fork":{}}"#, "\"fork\" without its fields"),
        ] {
            let e = PanelCommand::from_json(text).unwrap_err();
            assert!(e.contains(says), "{text}: {e}");
        }
    }

    #[test]
    fn what_the_page_tells_a_panel_reads_back_whole() {
        let scenario = lease_sim::shipped::find("clip-surge").unwrap().scenario;
        let run_scenario = Scenario {
            seed: 7,
            ..Scenario::default()
        };
        let of = PanelViewOf {
            panel: Panel::Export.name(),
            scenario: &scenario,
            run_scenario: &run_scenario,
            link: "http://x/?scenario=clip-surge",
            by_message: true,
            range: Some((5, 9)),
            query: "scenario=clip-surge",
            tour: Some(("not-a-lock", 2)),
            done: Some(vec![true, false]),
            earned: &[false, true],
            present: true,
            notes: &["1s-2s~~x".into()],
            draft: Some((1, 2)),
            at: Some(&MenuAt {
                t_ms: 61_000,
                worker: Some(2),
                message: Some(7),
                receipt: Some(1),
                run_end_ms: Some(70_000),
                near_ms: 250,
                x: 10.5,
                y: 20.0,
            }),
        };
        let back: PanelView = serde_json::from_str(&serde_json::to_string(&of).unwrap()).unwrap();
        assert_eq!(
            back,
            PanelView {
                panel: "export".into(),
                scenario: scenario.clone(),
                run_scenario: run_scenario.clone(),
                link: of.link.into(),
                by_message: true,
                range: Some((5, 9)),
                query: of.query.into(),
                tour: Some(("not-a-lock".into(), 2)),
                done: Some(vec![true, false]),
                earned: vec![false, true],
                present: true,
                notes: vec!["1s-2s~~x".into()],
                draft: Some((1, 2)),
                at: of.at.cloned(),
            }
        );
    }
}
