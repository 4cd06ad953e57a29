//! The embed-code generator: choose the size and the parts, see a live
//! preview, copy the snippet.

use yew::prelude::*;

use super::panel_head;
use crate::command::Command;
use crate::embed::{snippet, DEFAULT_EMBED_PARTS, EMBED_PARTS};

#[derive(Properties, PartialEq)]
pub struct EmbedProps {
    /// The share link's query (without `embed` and `panels`).
    pub query: String,
    pub on_command: Callback<Command>,
}

#[function_component(EmbedPanel)]
pub fn embed_panel(p: &EmbedProps) -> Html {
    let parts = use_state(|| {
        DEFAULT_EMBED_PARTS
            .iter()
            .map(|s| s.to_string())
            .collect::<Vec<_>>()
    });
    let width = use_state(|| 640u32);
    let height = use_state(|| 520u32);
    let copied = use_state(|| None::<bool>);

    let location = gloo::utils::window().location();
    let base = format!(
        "{}{}",
        location.origin().unwrap_or_default(),
        location.pathname().unwrap_or_else(|_| "/".into())
    );
    let src = format!(
        "{base}?{}{}embed=1&panels={}",
        p.query,
        if p.query.is_empty() { "" } else { "&" },
        parts.join(",")
    );
    let code = snippet(&src, *height, "Lease Playground");

    let toggle = |name: &'static str| {
        let parts = parts.clone();
        Callback::from(move |_: Event| {
            let on = |p: &str| (p == name) != parts.iter().any(|q| q == p);
            // In page order, so the link reads the same whatever the clicks.
            let v: Vec<String> = EMBED_PARTS
                .iter()
                .filter(|(p, _)| on(p))
                .map(|(p, _)| p.to_string())
                .collect();
            parts.set(v);
        })
    };
    let number = |state: UseStateHandle<u32>, lo: u32, hi: u32| {
        Callback::from(move |e: Event| {
            let v: u32 = e
                .target_unchecked_into::<web_sys::HtmlInputElement>()
                .value()
                .parse()
                .unwrap_or(*state);
            state.set(v.clamp(lo, hi));
        })
    };
    let copy = {
        let copied = copied.clone();
        let code = code.clone();
        Callback::from(move |_: MouseEvent| {
            let promise = gloo::utils::window()
                .navigator()
                .clipboard()
                .write_text(&code);
            let copied = copied.clone();
            wasm_bindgen_futures::spawn_local(async move {
                copied.set(Some(
                    wasm_bindgen_futures::JsFuture::from(promise).await.is_ok(),
                ));
            });
        })
    };
    html! {
        <section class="panel" id="embed-panel" aria-labelledby="embed-title">
            { panel_head("embed-title", "Embed this playground", "Close Embed", &p.on_command) }
            <fieldset class="panel-row">
                <legend>{"Show"}</legend>
                { for EMBED_PARTS.iter().map(|(name, label)| html! {
                    <label class="toggle">
                        <input type="checkbox" id={format!("embed-part-{name}")} checked={parts.contains(&name.to_string())}
                            onchange={toggle(name)} />
                        {*label}
                    </label>
                }) }
            </fieldset>
            <div class="panel-row">
                <label for="embed-width">{"Preview width (px)"}</label>
                <input id="embed-width" type="number" min="320" max="1600" value={width.to_string()} onchange={number(width.clone(), 320, 1600)} />
                <label for="embed-height">{"Height (px)"}</label>
                <input id="embed-height" type="number" min="200" max="4000" value={height.to_string()} onchange={number(height.clone(), 200, 4000)} />
            </div>
            <label for="embed-code">{"Paste this into your page"}</label>
            <textarea id="embed-code" readonly=true rows="9" value={code} />
            <div class="panel-row">
                <button type="button" id="copy-embed" onclick={copy}>{"Copy embed code"}</button>
                { match *copied {
                    Some(true) => html! { <span class="status ok" role="status">{"Copied."}</span> },
                    Some(false) => html! { <span class="status bad" role="alert">{"The browser would not copy; select the code and copy it by hand."}</span> },
                    None => html! {},
                } }
            </div>
            <p class="muted">{"Live preview, at the chosen width:"}</p>
            <div class="embed-preview">
                <iframe id="embed-preview" src={src} title="Preview of the embedded playground"
                    width={width.to_string()} height={height.to_string()} style="border:1px solid var(--border);max-width:100%"></iframe>
            </div>
        </section>
    }
}
