//! The page's side panels, one open at a time: share and export, embed, and
//! the keyboard overlay. Which one is open is part of the share link.

mod embed;
mod export;
mod help;
mod sweep;

pub use embed::EmbedPanel;
pub use export::{read_scenario_file, ExportPanel};
pub use help::HelpOverlay;
pub use sweep::SweepPanel;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Panel {
    Export,
    Embed,
    Help,
    Sweep,
}

impl Panel {
    /// The name a share link uses (`panel=export`).
    pub fn name(self) -> &'static str {
        match self {
            Panel::Export => "export",
            Panel::Embed => "embed",
            Panel::Help => "help",
            Panel::Sweep => "sweep",
        }
    }

    pub fn from_name(name: &str) -> Option<Panel> {
        [Panel::Export, Panel::Embed, Panel::Help, Panel::Sweep]
            .into_iter()
            .find(|p| p.name() == name)
    }
}
