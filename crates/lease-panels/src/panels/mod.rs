//! The side panels the page loads on demand, in a wasm of their own
//! (`crates/lease-panels`): share and export, embed, sweep, Recommend, tours
//! the keyboard overlay and the timeline as a table, loaded the first time
//! one is wanted; see `src/panel_host.rs`.

mod embed;
mod export;
mod help;
pub mod interview;
mod latency;
pub mod menu;
mod notes;
mod presenter;
mod preset_questions;
mod recommend;
mod rules;
mod sweep;
mod table;
mod tour;

pub use embed::EmbedPanel;
pub use export::ExportPanel;
pub use help::HelpOverlay;
pub use interview::InterviewBar;
pub use latency::LatencyPanel;
pub use menu::TimelineMenu;
pub use notes::NotesPanel;
pub use presenter::PresenterBar;
pub use recommend::RecommendPanel;
pub use rules::RulesPanel;
pub use sweep::SweepPanel;
pub use table::TablePanel;
pub use tour::TourPanel;

use yew::prelude::*;

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
