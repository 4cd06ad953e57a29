//! The side panels the page loads on demand, in a wasm of their own
//! (`crates/lease-panels`): share and export, embed, sweep, and the keyboard
//! overlay. The page's
//! download is smaller by what they hold; see `src/panel_host.rs`.

mod embed;
mod export;
mod help;
mod sweep;

pub use embed::EmbedPanel;
pub use export::ExportPanel;
pub use help::HelpOverlay;
pub use sweep::SweepPanel;
