//! Which side panel is open (part of the share link), and what the page and
//! a panel loaded on demand tell each other. Shared by the page and the
//! panels it loads on demand (`crates/lease-panels`).

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
        ]
        .into_iter()
        .find(|p| p.name() == name)
    }
}

/// What a panel loaded on demand asks of the page.
// Built in crates/lease-panels; the page reads it from JavaScript arguments.
#[allow(dead_code)]
pub enum PanelCommand {
    /// Close the open panel.
    Close,
    /// A scenario file was read: it becomes the scenario edits start from
    /// (the strings name the fields the file had that the page ignored).
    Import(Box<Scenario>, Vec<String>),
    /// A file dropped on the panel could not be read, and why.
    Reject(String),
    /// Start the tour of that id (its scenario loads, at its first step).
    StartTour(String),
    TourStep(usize),
    /// Apply the demonstration of that tour's step.
    TourDemo(String, usize),
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
}

/// `PanelViewOf` as the panel reads it (in crates/lease-panels).
#[allow(dead_code)]
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
            }
        );
    }
}
