//! The page's side panels, one open at a time: share and export, embed, and
//! the keyboard overlay. Which one is open is part of the share link.

mod embed;
mod export;
mod help;
mod sweep;
mod tour;

pub use embed::EmbedPanel;
pub use export::{read_scenario_file, ExportPanel};
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
