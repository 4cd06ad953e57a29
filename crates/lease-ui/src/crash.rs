//! When the app panics, the page says so instead of freezing: a message over
//! the page with the link that led there, a way back to the default
//! playground, and a reload. Built with plain DOM calls, since the Yew app
//! is gone by then (the release build aborts on a panic).

use wasm_bindgen::prelude::*;

pub fn install() {
    // Yew installs its own hook when it renders unless told of ours.
    yew::set_custom_panic_hook(Box::new(|info| {
        console_error_panic_hook::hook(info);
        show(&info.to_string());
    }));
}

/// Lets the browser tests check the crash message by forcing a panic.
#[wasm_bindgen(js_name = forcePanicForTests)]
pub fn force_panic_for_tests() {
    panic!("a panic forced by the browser tests");
}

fn show(what: &str) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let Some(doc) = window.document() else {
        return;
    };
    let Some(body) = doc.body() else {
        return;
    };
    let href = window.location().href().unwrap_or_default();
    let path = window.location().pathname().unwrap_or_else(|_| "./".into());
    let el = |tag: &str, text: &str| {
        let e = doc.create_element(tag).ok()?;
        e.set_text_content(Some(text));
        Some(e)
    };
    let Some(card) = doc.create_element("div").ok() else {
        return;
    };
    card.set_id("crash");
    let _ = card.set_attribute("role", "alert");
    let _ = card.set_attribute("class", "crash");
    let detail: String = what.chars().take(300).collect();
    let parts = [
        el("h2", "The playground stopped"),
        el(
            "p",
            &format!("Something inside the page went wrong ({detail}). Nothing was sent anywhere; the settings are in the link below."),
        ),
        el("p", "The link that led here:"),
    ];
    for p in parts.into_iter().flatten() {
        let _ = card.append_child(&p);
    }
    if let Ok(input) = doc.create_element("input") {
        let _ = input.set_attribute("readonly", "");
        let _ = input.set_attribute("value", &href);
        let _ = input.set_attribute("aria-label", "The link that led here");
        let _ = card.append_child(&input);
    }
    let actions = doc.create_element("p").ok();
    for (id, text, to) in [
        (
            "crash-reset",
            "Reset to the default playground",
            path.as_str(),
        ),
        ("crash-reload", "Reload this link", href.as_str()),
    ] {
        if let (Some(a), Some(actions)) = (el("a", text), &actions) {
            a.set_id(id);
            let _ = a.set_attribute("href", to);
            let _ = actions.append_child(&a);
            let _ = actions.append_child(&doc.create_text_node(" "));
        }
    }
    if let Some(actions) = actions {
        let _ = card.append_child(&actions);
    }
    let _ = body.append_child(&card);
}
