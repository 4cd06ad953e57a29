//! The `?` overlay: every keyboard shortcut, by the physical key that
//! triggers it (a French AZERTY keyboard presses the same places).

use lease_ui::panel::PanelCommand;
use yew::prelude::*;

use crate::shortcut_list::SHORTCUTS;

#[derive(Properties, PartialEq)]
pub struct HelpProps {
    pub on_command: Callback<PanelCommand>,
}

#[function_component(HelpOverlay)]
pub fn help_overlay(p: &HelpProps) -> Html {
    let close = p.on_command.reform(|_: MouseEvent| PanelCommand::Close);
    let node = use_node_ref();
    {
        // Focus moves into the dialog so that Escape and Tab work at once.
        let node = node.clone();
        use_effect_with((), move |_| {
            if let Some(el) = node.cast::<web_sys::HtmlElement>() {
                let _ = el.focus();
            }
        });
    }
    html! {
        <div class="overlay" role="dialog" aria-modal="true" aria-labelledby="help-title" id="help-overlay">
            <div class="overlay-card" tabindex="-1" ref={node}>
                <h2 id="help-title">{"Keyboard shortcuts"}</h2>
                <p class="muted">{"Keys are named as on a US keyboard; on another layout press the key in the same place. Page keys work when the focus is not in a text field or slider; timeline keys work when the timeline has the focus (click it or Tab to it)."}</p>
                <table class="shortcuts">
                    <thead><tr><th>{"Key"}</th><th>{"Where"}</th><th>{"What it does"}</th></tr></thead>
                    <tbody>
                        { for SHORTCUTS.iter().map(|s| html! {
                            <tr><td><kbd>{s.keys}</kbd></td><td>{s.scope}</td><td>{s.what}</td></tr>
                        }) }
                    </tbody>
                </table>
                <button type="button" onclick={close}>{"Close"}</button>
            </div>
        </div>
    }
}
