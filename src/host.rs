//! The host API (`docs/embedding.md`): what a page that frames the
//! playground may ask of it with `postMessage`, and the events the
//! playground posts back.
//!
//! `static/boot.js` holds the listener: it takes a message only from the
//! framing page (and only from `host_origin=` when the link names one),
//! checks its shape, and hands it here as two strings, its type without the
//! `lease-playground:` prefix and its one argument. It also posts what the
//! page gives it to that page, adding `ready` before the first run and the
//! Embedly-shaped resize beside ours. What a message means is decided
//! here, as commands, and tested natively.

use serde::Serialize;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use yew::prelude::*;

use crate::command::Command;
use crate::url::escape;

/// The command a host's message asks for; `None` for a type the page does
/// not know or an argument it cannot read. `query` is the page's link now:
/// `set` changes it as the visitor would have.
pub fn command(kind: &str, arg: &str, query: &str) -> Option<Command> {
    Some(match kind {
        "set-theme" => match lease_ui::theme::Theme::parse(arg) {
            Ok(t) => Command::Theme(t),
            // `static/boot.js` cuts it to 40 characters.
            Err(why) => Command::Reject(format!(
                "The host's theme \"{arg}\" {why}; the theme stays."
            )),
        },
        "set" => Command::OpenLink(merge(query, arg)),
        "play" => Command::Play,
        "pause" => Command::Pause,
        "seek" => Command::Seek(arg.parse().ok()?),
        _ => return None,
    })
}

/// The link `current` with the fields of `given` (a query string) in place
/// of what it says of the same fields under any of their names: the host's
/// come first and the link's own copies go, so no field is read twice. A
/// field's name with `_ms` takes milliseconds, as JSON hosts write it.
/// Side B's fields (`b.timeout`) are matched by the name as written.
pub fn merge(current: &str, given: &str) -> String {
    let key = |k: &str| {
        let k = k.trim().to_ascii_lowercase();
        let found =
            lease_fields::find(&k).or_else(|| k.strip_suffix("_ms").and_then(lease_fields::find));
        found.map_or(k.clone(), |f| f.name().to_string())
    };
    let mut names: Vec<String> = Vec::new();
    let mut out: Vec<String> = Vec::new();
    for (k, v) in lease_format::query::parse(given.as_bytes()) {
        let name = key(&k);
        out.push(format!("{}={}", escape(&name), escape(&v)));
        names.push(name);
    }
    for (k, v) in
        lease_format::query::parse(current.strip_prefix('?').unwrap_or(current).as_bytes())
    {
        if !names.contains(&key(&k)) {
            out.push(format!("{}={}", escape(&k), escape(&v)));
        }
    }
    out.join("&")
}

/// Calls `window[name](arg)`, a function of `index.html` or `static/boot.js`,
/// when the page has it.
pub fn call(name: &str, arg: &str) {
    let window = gloo::utils::window();
    if let Ok(f) = js_sys::Reflect::get(&window, &name.into()) {
        if let Some(f) = f.dyn_ref::<js_sys::Function>() {
            let _ = f.call1(&window, &arg.into());
        }
    }
}

/// A host's message, as `static/boot.js` leaves it in `window.__leaseMsg`
/// (`[type, argument]`) before it fires `lease-host`: the command it asks
/// for, with the address written at once for a `set`, so that a second one
/// before the page writes the address adds to the first.
pub fn take_message() -> Option<Command> {
    let window = gloo::utils::window();
    let msg = js_sys::Reflect::get(&window, &"__leaseMsg".into())
        .map(|v| js_sys::Array::from(&v))
        .ok()?;
    let query = window.location().search().unwrap_or_default();
    let cmd = command(&msg.get(0).as_string()?, &msg.get(1).as_string()?, &query)?;
    if let (Command::OpenLink(q), Ok(history)) = (&cmd, window.history()) {
        let _ = history.replace_state_with_url(&JsValue::NULL, "", Some(&format!("?{q}")));
    }
    Some(cmd)
}

/// What the host hears of a run shown (`run`, docs/embedding.md).
#[derive(Serialize)]
struct RunTold {
    visibility_timeout_ms: u64,
    totals: TotalsTold,
}

/// The totals the page shows at the run's end, named as the host API names
/// them.
#[derive(Serialize)]
struct TotalsTold {
    delivered: u64,
    acked: u64,
    redeliveries: u64,
    overlapping_runs: u64,
    duplicate_effects: u64,
    dead_lettered_expired: u64,
    dead_lettered_failed: u64,
    /// Past the delivery limit and dropped (`past_limit: drop`).
    dropped: u64,
    /// Past the delivery limit and left in the stream (`past_limit: stay`).
    stayed: u64,
}

/// Tells the host about every run shown, with the totals the page shows at
/// the run's end (`static/boot.js` posts it as `run`, after `ready` before
/// the first); in an embed, also the content's height whenever it changes,
/// so the host can size the iframe (`embed::snippet`), which
/// `static/boot.js` posts in Embedly's shape too.
#[hook]
pub fn use_tell_host(embed: bool, run: Option<crate::run_handle::RunHandle>, page: NodeRef) {
    use_effect_with((embed, run), move |(embed, run)| {
        if let Some(run) = run {
            let t = &run.report.totals;
            let told = RunTold {
                visibility_timeout_ms: run.visibility_timeout_ms,
                totals: TotalsTold {
                    delivered: t.deliveries,
                    acked: t.acks_ok,
                    redeliveries: t.redeliveries,
                    overlapping_runs: t.overlapping_runs,
                    duplicate_effects: t.duplicate_effects,
                    dead_lettered_expired: t.dead_lettered_expired,
                    dead_lettered_failed: t.dead_lettered_failed,
                    dropped: t.dropped,
                    stayed: t.stayed,
                },
            };
            if let Ok(text) = serde_json::to_string(&told) {
                call("__leaseRun", &text);
            }
        }
        let mut keep: Option<(web_sys::ResizeObserver, Closure<dyn Fn()>)> = None;
        if let (true, Some(el)) = (*embed, page.cast::<web_sys::Element>()) {
            let target = el.clone();
            let report = Closure::<dyn Fn()>::new(move || {
                call("__leaseHeight", &target.scroll_height().to_string());
            });
            if let Ok(observer) = web_sys::ResizeObserver::new(report.as_ref().unchecked_ref()) {
                observer.observe(&el);
                keep = Some((observer, report));
            }
        }
        move || {
            if let Some((observer, _report)) = keep {
                observer.disconnect();
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use lease_ui::theme::Theme;

    #[test]
    fn each_message_becomes_the_command_a_button_would_send() {
        assert_eq!(
            command("set-theme", "dark", ""),
            Some(Command::Theme(Theme::Dark))
        );
        assert_eq!(
            command("set-theme", "Auto", ""),
            Some(Command::Theme(Theme::Auto))
        );
        assert_eq!(command("play", "", ""), Some(Command::Play));
        assert_eq!(command("pause", "", ""), Some(Command::Pause));
        assert_eq!(command("seek", "30000", ""), Some(Command::Seek(30_000)));
    }

    #[test]
    fn a_bad_theme_is_said_naming_it() {
        assert_eq!(
            command("set-theme", "sepia", ""),
            Some(Command::Reject(
                "The host's theme \"sepia\" must be one of: auto, light, dark; the theme stays."
                    .into()
            ))
        );
    }

    #[test]
    fn unknown_types_and_unreadable_arguments_are_ignored() {
        for (kind, arg) in [
            ("explode", ""),
            ("", ""),
            ("seek", ""),
            ("seek", "-5"),
            ("seek", "soon"),
            ("seek", "1e400"),
            ("Play", ""),
        ] {
            assert_eq!(command(kind, arg, ""), None, "{kind} {arg}");
        }
    }

    #[test]
    fn set_replaces_the_link_s_own_value_of_a_field_under_any_of_its_names() {
        let merged = merge(
            "?scenario=clip-surge&timeout=30s&hb=10s&b.timeout=40s&embed=1",
            "visibility_timeout_ms=45000&b.Timeout=50s",
        );
        assert_eq!(
            merged,
            "timeout=45000&b.timeout=50s&scenario=clip-surge&hb=10s&embed=1"
        );
    }

    #[test]
    fn a_set_message_changes_the_timeout_and_keeps_the_rest_of_the_link() {
        let st = crate::link::state_from_query("scenario=clip-surge&hb=10s&embed=1");
        let now = crate::url::encode(&crate::link::link_of(&st));
        let Some(Command::OpenLink(query)) = command("set", "visibility_timeout_ms=45000", &now)
        else {
            panic!("set opens the changed link");
        };
        let after = crate::link::state_from_query(&query);
        assert!(after.notices.is_empty(), "{:?}", after.notices);
        assert_eq!(after.a.scenario.broker.visibility_timeout_ms, Some(45_000));
        assert_eq!(after.a.scenario.workers, st.a.scenario.workers);
        assert_eq!(after.loaded.name, "clip-surge");
        assert!(after.embed);
    }

    #[test]
    fn a_set_message_with_a_bad_field_is_a_notice_and_changes_nothing_else() {
        let st = crate::link::state_from_query("scenario=clip-surge&timeout=40s");
        let now = crate::url::encode(&crate::link::link_of(&st));
        let after = crate::link::state_from_query(&merge(&now, "workers=-3"));
        assert_eq!(after.notices.len(), 1, "{:?}", after.notices);
        assert!(
            after.notices[0].starts_with("workers"),
            "{:?}",
            after.notices
        );
        assert_eq!(*after.a.scenario, *st.a.scenario);
    }
}
