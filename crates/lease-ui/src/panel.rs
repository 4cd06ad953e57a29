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
    /// The timeline's context menu, at `PanelView::at`; not in links.
    Menu,
    /// The help overlay opened at "How the broker presets differ", from the
    /// button under the Broker select; not in links.
    Presets,
    /// The broker rules the chosen preset sets, each a control, from the
    /// button under the Broker select.
    Rules,
    /// The interviewer's bar: steps the run event by event and reveals its
    /// figures (`mode=interview` in a link, not `panel=`).
    Interview,
}

/// The figures the interviewer's mode hides until each is revealed, one
/// bit each in the page's mask: the run totals in the order the page shows
/// them, then the diagnosis. A candidate predicts each before it shows.
pub const FIGURES: u32 = 10;
/// The diagnosis's bit among `FIGURES`.
pub const DIAGNOSIS_FIGURE: u32 = 9;

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
            Panel::Rules => "rules",
            Panel::Interview => "interview",
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
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
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
    /// Go back to that step of the tour under way, with the scenario it
    /// last showed (a presenter's PageUp).
    TourReturn(usize),
    /// Move the playhead to this moment of the run, in ms (a presenter's
    /// step that talks about one).
    Seek(u64),
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
    /// Enter or leave the interviewer's mode (the bar's own button, Escape).
    Interview(bool),
    /// Reveal that figure (`FIGURES`) in the interviewer's mode.
    Reveal(u32),
}

impl PanelCommand {
    pub fn to_json(&self) -> String {
        // Plain data; it always serialises.
        serde_json::to_string(self).unwrap_or_default()
    }

    /// Reads a command as `to_json` writes it, or says why it could not.
    pub fn from_json(text: &str) -> Result<PanelCommand, String> {
        serde_json::from_str(text).map_err(|e| e.to_string())
    }
}

/// What the page tells a panel loaded on demand, as JSON: which panel, and
/// the props the panel had when it was part of the page.
#[derive(Serialize, Deserialize, Debug, PartialEq)]
pub struct PanelView {
    /// The panel's name (`Panel::name`).
    pub panel: String,
    pub scenario: Scenario,
    /// The scenario of the run on screen (export's timeline files).
    pub run_scenario: Scenario,
    /// The share link of what is on screen.
    pub link: String,
    pub by_message: bool,
    pub range: Option<(u64, u64)>,
    /// The share link's query without `embed` and `panels` (the embed generator).
    pub query: String,
    /// The tour under way and its step.
    pub tour: Option<(String, usize)>,
    /// Whether each step of that tour holds in the run on screen.
    pub done: Option<Vec<bool>>,
    /// Whether the person earned each step's tick (the page's `tour_earned`):
    /// a step that holds but was not earned is one to look at.
    pub earned: Vec<bool>,
    /// Presenter mode: the tours' panel is the presenter bar.
    #[serde(default)]
    pub present: bool,
    /// The notes on the timeline, in their link form.
    #[serde(default)]
    pub notes: Vec<String>,
    /// The range a new note starts on (a Shift+drag on the timeline).
    #[serde(default)]
    pub draft: Option<(u64, u64)>,
    /// Where the timeline's menu opened (`Panel::Menu`).
    pub at: Option<MenuAt>,
    /// The interviewer's mode: which figures are revealed (`FIGURES`, one
    /// bit each), and the playhead the bar describes the event at.
    #[serde(default)]
    pub interview: Option<(u64, u64)>,
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

    /// Which variant `c` is, by its place in `PanelCommand`. The match names
    /// every variant: a new one does not compile until it has a case here,
    /// and then the round trip below fails until it has an example.
    fn command_case(c: &PanelCommand) -> usize {
        match c {
            PanelCommand::Close => 0,
            PanelCommand::Import { .. } => 1,
            PanelCommand::Reject(_) => 2,
            PanelCommand::StartTour(_) => 3,
            PanelCommand::TourStep(_) => 4,
            PanelCommand::Set { .. } => 5,
            PanelCommand::TourDemo { .. } => 6,
            PanelCommand::UseWork(_) => 7,
            PanelCommand::Present(_) => 8,
            PanelCommand::Notes(_) => 9,
            PanelCommand::Select(_) => 10,
            PanelCommand::Replace { .. } => 11,
            PanelCommand::Fork { .. } => 12,
            PanelCommand::TourReturn(_) => 13,
            PanelCommand::Seek(_) => 14,
            PanelCommand::Interview(_) => 15,
            PanelCommand::Reveal(_) => 16,
        }
    }
    const COMMAND_CASES: usize = 17;

    #[test]
    fn every_panel_command_reads_back_as_the_panel_wrote_it() {
        let scenario = lease_sim::shipped::find("clip-surge").unwrap().scenario;
        let commands = [
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
            PanelCommand::TourReturn(2),
            PanelCommand::Seek(60_000),
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
            PanelCommand::Interview(true),
            PanelCommand::Reveal(DIAGNOSIS_FIGURE),
        ];
        let mut cases: Vec<usize> = commands.iter().map(command_case).collect();
        cases.sort_unstable();
        cases.dedup();
        assert_eq!(
            cases,
            (0..COMMAND_CASES).collect::<Vec<_>>(),
            "an example of every command"
        );
        for c in commands {
            assert_eq!(PanelCommand::from_json(&c.to_json()), Ok(c));
        }
    }

    #[test]
    fn a_message_that_is_not_a_panel_command_says_why() {
        for (text, says) in [
            ("not json", "expected"),
            (r#""open""#, "unknown variant `open`"),
            (r#"{"close":1,"reject":"x"}"#, "expected unit"),
            (r#"{"dance":"x"}"#, "unknown variant `dance`"),
            (r#"{"tour_step":-1}"#, "-1"),
            (r#"{"tour_demo":{"tour":"t"}}"#, "missing field `step`"),
            (
                r#"{"import":{"scenario":"{}","ignored":[3]}}"#,
                "integer `3`",
            ),
            (r#"{"reject":null}"#, "null"),
            (r#"{"present":"yes"}"#, "string \"yes\""),
            (r#"{"notes":["a",3]}"#, "integer `3`"),
            (r#"{"select":-2}"#, "-2"),
            (r#"{"replace":{"scenario":"{}"}}"#, "missing field `said`"),
            (r#"{"fork":{}}"#, "missing field `scenario`"),
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
        let view = PanelView {
            panel: Panel::Export.name().into(),
            scenario,
            run_scenario,
            link: "http://x/?scenario=clip-surge".into(),
            by_message: true,
            range: Some((5, 9)),
            query: "scenario=clip-surge".into(),
            tour: Some(("not-a-lock".into(), 2)),
            done: Some(vec![true, false]),
            earned: vec![false, true],
            present: true,
            notes: vec!["1s-2s~~x".into()],
            draft: Some((1, 2)),
            at: Some(MenuAt {
                t_ms: 61_000,
                worker: Some(2),
                message: Some(7),
                receipt: Some(1),
                run_end_ms: Some(70_000),
                near_ms: 250,
                x: 10.5,
                y: 20.0,
            }),
            interview: Some((0b10_0000_0001, 90_000)),
        };
        let back: PanelView = serde_json::from_str(&serde_json::to_string(&view).unwrap()).unwrap();
        assert_eq!(back, view);
    }
}
