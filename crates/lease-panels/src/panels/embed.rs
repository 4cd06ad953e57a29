//! The embed-code generator: choose the size, the parts and the theme, see
//! a live preview, copy the snippet.

use std::rc::Rc;

use lease_ui::embed::{
    figure_snippet, Figure, Part, DEFAULT_EMBED_PARTS, EMBED_PARTS, SNIPPET_KINDS,
};
use lease_ui::panel::PanelCommand;
use lease_ui::theme::THEMES;
use yew::prelude::*;

use super::panel_head;

#[derive(Properties, PartialEq)]
pub struct EmbedProps {
    /// The share link's query (without `embed` and `panels`).
    pub query: String,
    pub on_command: Callback<PanelCommand>,
}

/// The generator's choices in one reducer: a single state type, changed
/// by one action at a time.
#[derive(Clone, PartialEq)]
struct Choices {
    parts: Vec<Part>,
    width: u32,
    /// The height the reader typed; until then, the figure's by its parts
    /// (`figure_height_px`), comparison or not.
    typed_height: Option<u32>,
    /// Which snippet: an id of `SNIPPET_KINDS`.
    kind: &'static str,
    /// One of `THEMES`: `auto` follows the reader's OS, the others the host's look.
    theme: &'static str,
    /// Whether the last copy worked, once one was tried.
    copied: Option<bool>,
}

enum Choose {
    Toggle(Part),
    Width(u32),
    Height(u32),
    Kind(String),
    Theme(&'static str),
    Copied(bool),
}

impl Reducible for Choices {
    type Action = Choose;

    fn reduce(self: Rc<Self>, action: Choose) -> Rc<Self> {
        let mut c = (*self).clone();
        match action {
            Choose::Toggle(part) => {
                let on = |p: Part| (p == part) != c.parts.contains(&p);
                // In page order, so the link reads the same whatever the clicks.
                c.parts = EMBED_PARTS
                    .iter()
                    .map(|(p, _)| *p)
                    .filter(|p| on(*p))
                    .collect();
            }
            Choose::Width(w) => c.width = w.clamp(320, 1600),
            Choose::Height(h) => c.typed_height = Some(h.clamp(200, 4000)),
            Choose::Kind(id) => {
                if let Some((k, _)) = SNIPPET_KINDS.iter().find(|(k, _)| *k == id) {
                    c.kind = k;
                }
            }
            Choose::Theme(t) => c.theme = t,
            Choose::Copied(ok) => c.copied = Some(ok),
        }
        Rc::new(c)
    }
}

#[function_component(EmbedPanel)]
pub fn embed_panel(p: &EmbedProps) -> Html {
    let choices = use_reducer(|| Choices {
        parts: DEFAULT_EMBED_PARTS.to_vec(),
        width: 640,
        typed_height: None,
        kind: SNIPPET_KINDS[0].0,
        theme: THEMES[0],
        copied: None,
    });

    let location = gloo::utils::window().location();
    let base = format!(
        "{}{}",
        location.origin().unwrap_or_default(),
        location.pathname().unwrap_or_else(|_| "/".into())
    );
    // The theme is a link field like any other: the iframe's address and
    // the element's attributes carry it, and `auto` is the link's default.
    let query = if choices.theme == THEMES[0] {
        p.query.clone()
    } else if p.query.is_empty() {
        format!("theme={}", choices.theme)
    } else {
        format!("{}&theme={}", p.query, choices.theme)
    };
    let height = choices.typed_height.unwrap_or_else(|| {
        lease_ui::embed::figure_height_px(&choices.parts, lease_ui::embed::compares(&query))
    });
    let figure = Figure {
        page: &base,
        query: &query,
        parts: &choices.parts,
        height_px: height,
    };
    let src = figure.src();
    let code = figure_snippet(choices.kind, &figure, "Lease Playground");

    let toggle = |part: Part| {
        let choices = choices.dispatcher();
        Callback::from(move |_: Event| choices.dispatch(Choose::Toggle(part)))
    };
    let number = |make: fn(u32) -> Choose, now: u32| {
        let choices = choices.dispatcher();
        Callback::from(move |e: Event| {
            let v: u32 = e
                .target_unchecked_into::<web_sys::HtmlInputElement>()
                .value()
                .parse()
                .unwrap_or(now);
            choices.dispatch(make(v));
        })
    };
    let kind = {
        let choices = choices.dispatcher();
        Callback::from(move |e: Event| {
            let id = e
                .target_unchecked_into::<web_sys::HtmlSelectElement>()
                .value();
            choices.dispatch(Choose::Kind(id));
        })
    };
    let theme = {
        let choices = choices.dispatcher();
        Callback::from(move |e: Event| {
            let v = e
                .target_unchecked_into::<web_sys::HtmlSelectElement>()
                .value();
            if let Some(t) = THEMES.iter().find(|t| **t == v) {
                choices.dispatch(Choose::Theme(t));
            }
        })
    };
    let copy = {
        let copied = choices.dispatcher();
        let code = code.clone();
        Callback::from(move |_: MouseEvent| {
            let promise = gloo::utils::window()
                .navigator()
                .clipboard()
                .write_text(&code);
            let copied = copied.clone();
            wasm_bindgen_futures::spawn_local(async move {
                copied.dispatch(Choose::Copied(
                    wasm_bindgen_futures::JsFuture::from(promise).await.is_ok(),
                ));
            });
        })
    };
    html! {
        <section class="panel" id="embed-panel" aria-labelledby="embed-title">
            { panel_head("embed-title", "Embed this playground", "Close Embed", p.on_command.reform(|_: MouseEvent| PanelCommand::Close)) }
            <fieldset class="panel-row">
                <legend>{"Show"}</legend>
                { for EMBED_PARTS.iter().map(|&(part, label)| html! {
                    <label class="toggle">
                        <input type="checkbox" id={format!("embed-part-{}", part.name())} checked={choices.parts.contains(&part)}
                            onchange={toggle(part)} />
                        {label}
                    </label>
                }) }
            </fieldset>
            <div class="panel-row">
                <label for="embed-width">{"Preview width (px)"}</label>
                <input id="embed-width" type="number" min="320" max="1600" value={choices.width.to_string()} onchange={number(Choose::Width, choices.width)} />
                <label for="embed-height">{"Height (px)"}</label>
                <input id="embed-height" type="number" min="200" max="4000" value={height.to_string()} onchange={number(Choose::Height, height)} />
                <label for="embed-theme">{"Theme"}</label>
                <select id="embed-theme" onchange={theme}>
                    { for THEMES.iter().map(|t| html! {
                        <option value={*t} selected={choices.theme == *t}>{ if *t == THEMES[0] { "auto (your page's dark-mode switch, else the reader's OS)" } else { *t } }</option>
                    }) }
                </select>
            </div>
            <div class="panel-row">
                <label for="embed-kind">{"Snippet for"}</label>
                <select id="embed-kind" onchange={kind}>
                    { for SNIPPET_KINDS.iter().map(|(id, label)| html! {
                        <option value={*id} selected={*id == choices.kind}>{*label}</option>
                    }) }
                </select>
            </div>
            <label for="embed-code">{"Paste this into your page"}</label>
            <textarea id="embed-code" readonly=true rows="9" value={code} />
            <div class="panel-row">
                <button type="button" id="copy-embed" onclick={copy}>{"Copy embed code"}</button>
                { match choices.copied {
                    Some(true) => html! { <span class="status ok" role="status">{"Copied."}</span> },
                    Some(false) => html! { <span class="status bad" role="alert">{"The browser would not copy; select the code and copy it by hand."}</span> },
                    None => html! {},
                } }
            </div>
            <p class="muted">{"Live preview, at the chosen width:"}</p>
            <div class="embed-preview">
                <iframe id="embed-preview" src={src} title="Preview of the embedded playground"
                    width={choices.width.to_string()} height={height.to_string()} style="border:1px solid var(--border);max-width:100%"></iframe>
            </div>
        </section>
    }
}
