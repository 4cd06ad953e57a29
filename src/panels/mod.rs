//! The page's side panels, one open at a time: share and export, embed, and
//! the keyboard overlay. Which one is open is part of the share link.

mod embed;
mod export;
mod help;
mod sweep;
mod tour;

use yew::prelude::*;

use crate::command::Command;

pub use embed::EmbedPanel;
pub use export::{read_scenario_file, ExportPanel, FileSlot};
pub use help::HelpOverlay;
pub use sweep::SweepPanel;
pub use tour::TourPanel;

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

/// A side panel's heading and its Close button, which closes the open panel.
fn panel_head(
    title_id: &'static str,
    title: &'static str,
    close_label: &'static str,
    on_command: &Callback<Command>,
) -> Html {
    let close = on_command.reform(|_: MouseEvent| Command::Panel(None));
    html! {
        <div class="panel-head">
            <h2 id={title_id}>{ title }</h2>
            <button type="button" class="panel-close" onclick={close} aria-label={close_label}>{"Close"}</button>
        </div>
    }
}
