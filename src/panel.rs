//! Which side panel is open (part of the share link), the head every panel
//! opens with, and what a panel asks of the page. Shared by the page and the
//! panels it loads on demand (`crates/lease-panels`).

use lease_sim::Scenario;
use serde::{Deserialize, Serialize};
use yew::prelude::*;

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
        matches!(
            self,
            Panel::Export | Panel::Embed | Panel::Sweep | Panel::Help
        )
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
}

/// A side panel's heading and its Close button, which closes the open panel.
pub fn panel_head(
    title_id: &'static str,
    title: &'static str,
    close_label: &'static str,
    close: Callback<MouseEvent>,
) -> Html {
    html! {
        <div class="panel-head">
            <h2 id={title_id}>{ title }</h2>
            <button type="button" class="panel-close" onclick={close} aria-label={close_label}>{"Close"}</button>
        </div>
    }
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
            }
        );
    }
}
