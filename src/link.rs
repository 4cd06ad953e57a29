//! The page's side of the share link: the state read from `location.search`
//! when the page opens, the query written back with `replaceState` as the
//! visitor works, and page-wide keys. The codec itself (`url`) is pure and
//! tested natively.

use gloo::events::EventListener;
use gloo::timers::callback::Timeout;
use wasm_bindgen::{JsCast, JsValue};
use yew::prelude::*;

use crate::command::Command;
use crate::embed::Parts;
use crate::panel::Panel;
use crate::state::State;
use crate::url::{encode, read_within, Link, LinkView, DEFAULT_BASE};
use lease_ui::theme::Theme;
use lease_view::TimelineView;

/// How long the address bar waits for the hand to stop before it follows.
const WRITE_DELAY_MS: u32 = 250;

/// The state a visitor's link asks for, with notices for what it could not use.
pub fn initial_state() -> State {
    let search = gloo::utils::window()
        .location()
        .search()
        .unwrap_or_default();
    let mut st = State::from_commands(commands_of_query(
        search.strip_prefix('?').unwrap_or(&search),
    ));
    // The first picture is there at once; later runs follow as an effect.
    st.run_now();
    st
}

/// A share link as the commands that rebuild its page: the notices, the
/// shipped scenario it starts from, its whole scenario (`data=`), its
/// fields, then the view. The reducer applies them as any others.
pub fn commands_of_query(query: &str) -> Vec<Command> {
    // The page's own budget, so that a link never opens on a refused run.
    let (read, notices) = read_within(query, &crate::budget::fits);
    let mut cmds = vec![Command::Notices(
        notices.iter().map(|n| n.to_string()).collect(),
    )];
    let base = read
        .as_ref()
        .map_or(crate::catalog::DEFAULT_SCENARIO, |r| r.link.base.as_str());
    let found = crate::catalog::find(base).unwrap_or_default();
    cmds.push(Command::Loaded(Box::new(found)));
    let Some(read) = read else {
        return cmds;
    };
    if let Some(data) = read.data {
        cmds.push(Command::Replace(Box::new(data)));
    }
    if !read.sets.is_empty() {
        cmds.push(Command::SetAll(read.sets));
    }
    // Side B as the visitor made it: a copy of A, then its own edits.
    if let Some(b_sets) = read.b_sets {
        cmds.push(Command::CompareStart);
        if !b_sets.is_empty() {
            cmds.push(Command::SetAll(b_sets));
        }
    }
    let v = read.link.view;
    if v.timeline == Some(TimelineView::Messages) {
        cmds.push(Command::View(TimelineView::Messages));
    }
    if let (Some(a), Some(b)) = (v.from_ms, v.to_ms) {
        if a < b {
            cmds.push(Command::Range(Some((a as f64, b as f64))));
        }
    }
    // Before the playhead: an interview starts at the run's start, unless
    // the link says where.
    if v.interview {
        cmds.push(Command::Interview(true));
    }
    if let Some(t) = v.playhead_ms {
        cmds.push(Command::Seek(t));
    }
    if v.message.is_some() {
        cmds.push(Command::Select(v.message));
    }
    if let Some(p) = v.panel.as_deref().and_then(Panel::from_name) {
        cmds.push(Command::Panel(Some(p)));
    }
    if let Some(t) = v.theme {
        cmds.push(Command::Theme(t));
    }
    if v.palette_cb {
        cmds.push(Command::PaletteCb(true));
    }
    if v.host_origin.is_some() {
        cmds.push(Command::HostOrigin(v.host_origin));
    }
    if v.present {
        cmds.push(Command::Present(true));
    }
    if !v.notes.is_empty() {
        cmds.push(Command::Notes(v.notes));
    }
    if v.embed {
        cmds.push(Command::Embed(Parts::embed(
            v.panels.as_deref().unwrap_or(&[]),
        )));
    }
    cmds
}

#[cfg(test)]
pub fn state_from_query(query: &str) -> State {
    let mut st = State::from_commands(commands_of_query(query));
    st.run_now();
    st
}

/// The link for this state. The playhead is left out while playing, so the
/// address bar is not rewritten sixty times a second.
pub fn link_of(st: &State) -> Link {
    let base = if crate::catalog::entry(&st.loaded.name).is_some() {
        st.loaded.name.clone()
    } else {
        DEFAULT_BASE.to_string()
    };
    let at_end = st.playhead_ms >= st.end_ms();
    Link {
        base,
        scenario: (*st.a.scenario).clone(),
        b: st.b.as_ref().map(|b| (*b.scenario).clone()),
        view: LinkView {
            from_ms: st.range.map(|r| r.0.round() as u64),
            to_ms: st.range.map(|r| r.1.round() as u64),
            message: st.selected,
            // The panels that make links are how the link is shared, not
            // what it shows: the colleague lands on the page, not on them.
            panel: st
                .panel
                .filter(|p| !matches!(p, Panel::Export | Panel::Embed))
                .map(|p| p.name().to_string()),
            timeline: (st.view == TimelineView::Messages).then_some(TimelineView::Messages),
            embed: st.embed,
            panels: st.parts.listed().map(<[_]>::to_vec),
            playhead_ms: (!st.playing && !at_end).then_some(st.playhead_ms),
            // `auto` is left out when the link is written.
            theme: Some(st.theme),
            palette_cb: st.palette_cb,
            host_origin: st.host_origin.clone(),
            present: st.present,
            interview: st.interview.is_some(),
            notes: st.notes.clone(),
        },
    }
}

#[cfg(test)]
pub fn query_of(st: &State) -> String {
    encode(&link_of(st))
}

/// The query for an embed of this state: the run, without this page's own
/// embed settings (theme and host included) or open panel.
pub fn query_without_embed(st: &State) -> String {
    let mut link = link_of(st);
    link.view.embed = false;
    link.view.panels = None;
    link.view.panel = None;
    link.view.theme = None;
    link.view.host_origin = None;
    encode(&link)
}

/// The full playground showing what this embed shows.
pub fn full_page_link(st: &State) -> String {
    absolute(&query_without_embed(st))
}

/// `query` as a whole address on this page's origin and path.
pub fn absolute(query: &str) -> String {
    let location = gloo::utils::window().location();
    let origin = location.origin().unwrap_or_default();
    let path = location.pathname().unwrap_or_else(|_| "/".into());
    if query.is_empty() {
        format!("{origin}{path}")
    } else {
        format!("{origin}{path}?{query}")
    }
}

/// Writes the link to the address bar once the hand has stopped moving.
#[hook]
pub fn use_write_query(link: Link) {
    use_effect_with(link, |link| {
        // The scheme is part of the link: `index.html`'s script puts it on
        // `<html data-theme>` at once (and does nothing if it is the same).
        crate::host::call("__leaseTheme", link.view.theme.map_or("auto", Theme::name));
        crate::host::call(
            "__leasePalette",
            if link.view.palette_cb { "cb" } else { "" },
        );
        let link = link.clone();
        let timeout = Timeout::new(WRITE_DELAY_MS, move || {
            let query = crate::url::encode(&link);
            let window = gloo::utils::window();
            let current = window.location().search().unwrap_or_default();
            let wanted = if query.is_empty() {
                String::new()
            } else {
                format!("?{query}")
            };
            if current != wanted {
                let path = window.location().pathname().unwrap_or_else(|_| "/".into());
                if let Ok(history) = window.history() {
                    let _ = history.replace_state_with_url(
                        &JsValue::NULL,
                        "",
                        Some(&format!("{path}{wanted}")),
                    );
                }
            }
        });
        move || drop(timeout)
    });
}

/// Back and forward move between links the visitor opened on this page:
/// each one is read afresh, with its own notices. A framing page's message
/// (`host.rs`) comes the same way, in the same effect.
#[hook]
pub fn use_follow_history(dispatch: Callback<Command>) {
    use_effect_with((), move |_| {
        let window = gloo::utils::window();
        let to = dispatch.clone();
        let listeners = [
            EventListener::new(&window, "popstate", move |_| {
                let search = gloo::utils::window()
                    .location()
                    .search()
                    .unwrap_or_default();
                let query = search.strip_prefix('?').unwrap_or(&search).to_string();
                to.emit(Command::OpenLink(query));
            }),
            EventListener::new(&window, "lease-host", move |_| {
                if let Some(cmd) = crate::host::take_message() {
                    dispatch.emit(cmd);
                }
            }),
        ];
        move || drop(listeners)
    });
}

/// Page-wide shortcuts (`shortcuts.rs`), ignored while the visitor types in
/// a field, moves a slider or steers the timeline, which have keys of their own.
#[hook]
pub fn use_page_keys(dispatch: Callback<Command>, open: Option<Panel>, present: bool) {
    use_effect_with((open, present), move |&(open, present)| {
        // Not passive: a shortcut's key must not also scroll the page.
        let options = gloo::events::EventListenerOptions::enable_prevent_default();
        let listener = EventListener::new_with_options(
            &gloo::utils::document(),
            "keydown",
            options,
            move |e| {
                let Some(e) = e.dyn_ref::<web_sys::KeyboardEvent>() else {
                    return;
                };
                // Ctrl/⌘+Z undoes the timeline menu's last action, except
                // where a field has an undo of its own.
                if (e.ctrl_key() || e.meta_key()) && e.code() == "KeyZ" && !e.shift_key() {
                    let field = e
                        .target()
                        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
                        .is_some_and(|el| {
                            el.closest("input,textarea,select,[contenteditable]")
                                .ok()
                                .flatten()
                                .is_some()
                        });
                    if !field {
                        e.prevent_default();
                        dispatch.emit(Command::Undo);
                    }
                    return;
                }
                if e.ctrl_key() || e.meta_key() || e.alt_key() || owns_keys(e.target()) {
                    return;
                }
                if let Some(cmd) = crate::shortcuts::page_command(
                    &e.code(),
                    &e.key(),
                    e.shift_key(),
                    open,
                    present,
                ) {
                    e.prevent_default();
                    dispatch.emit(cmd);
                }
            },
        );
        move || drop(listener)
    });
}

/// Form fields, buttons and the timeline canvas handle their own keys.
fn owns_keys(target: Option<web_sys::EventTarget>) -> bool {
    let Some(el) = target.and_then(|t| t.dyn_into::<web_sys::Element>().ok()) else {
        return false;
    };
    matches!(
        el.tag_name().to_ascii_lowercase().as_str(),
        "input" | "select" | "textarea" | "button" | "canvas" | "a" | "summary"
    ) || el.closest("[contenteditable]").ok().flatten().is_some()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::embed::Part;

    #[test]
    fn an_empty_query_is_the_default_page() {
        let st = state_from_query("");
        assert_eq!(st.loaded.name, crate::catalog::DEFAULT_SCENARIO);
        assert!(st.notices.is_empty());
        assert!(!st.embed);
    }

    #[test]
    fn a_link_round_trips_through_the_state() {
        let st = state_from_query(
            "scenario=clip-surge&timeout=45s&hb=10s&cap=20&view=messages&from=60s&to=120s&panel=export&t=30s",
        );
        assert!(st.notices.is_empty(), "{:?}", st.notices);
        assert_eq!(st.loaded.name, "clip-surge");
        assert_eq!(st.view, TimelineView::Messages);
        assert_eq!(st.range, Some((60_000.0, 120_000.0)));
        assert_eq!(st.panel, Some(Panel::Export));
        assert_eq!(st.playhead_ms, 30_000);
        let again = state_from_query(&query_of(&st));
        assert_eq!(again.a.scenario, st.a.scenario);
        assert_eq!(again.range, st.range);
        assert_eq!(again.playhead_ms, st.playhead_ms);
        assert_eq!(
            again.a.run.as_ref().map(|r| r.log_hash()),
            st.a.run.as_ref().map(|r| r.log_hash())
        );
    }

    #[test]
    fn a_scenario_of_one_s_own_comes_back_from_its_link_as_itself() {
        let mut mine = crate::catalog::find("clip-surge").expect("clip-surge");
        mine.name = "checkout-queue".into();
        mine.title = "Checkout queue".into();
        mine.broker.visibility_timeout_ms = Some(45_000);
        let st = State::from_commands(vec![Command::Import(Box::new(mine.clone()), Vec::new())]);
        let query = query_of(&st);
        assert!(query.contains("data="), "{query}");
        let again = state_from_query(&query);
        assert_eq!(again.loaded.name, "checkout-queue");
        assert_eq!(again.loaded.title, "Checkout queue");
        assert_eq!(*again.a.scenario, mine);
        // A shipped scenario's own link keeps its name and story.
        let shipped = state_from_query("scenario=clip-surge&timeout=45s");
        assert_eq!(shipped.loaded.name, "clip-surge");
        assert_ne!(*shipped.loaded, *shipped.a.scenario, "the edit is an edit");
    }

    #[test]
    fn a_link_reads_as_the_commands_a_visitor_would_send() {
        let clip = crate::catalog::find("clip-surge").expect("clip-surge");
        assert_eq!(
            commands_of_query("scenario=clip-surge&timeout=45s&view=messages&panel=export"),
            vec![
                Command::Notices(Vec::new()),
                Command::Loaded(Box::new(clip)),
                Command::SetAll(vec![(
                    lease_fields::Field::Timeout,
                    lease_fields::Value::Num(45_000)
                )]),
                Command::View(TimelineView::Messages),
                Command::Panel(Some(Panel::Export)),
            ]
        );
    }

    #[test]
    fn a_link_runs_its_scenario_once() {
        let st = State::from_commands(commands_of_query(
            "scenario=clip-surge&timeout=45s&hb=10s&cap=20&p99=45s&t=30s&msg=2",
        ));
        assert_eq!(st.runs_wanted().len(), 1);
        assert!(st.a.run.is_none(), "nothing ran while the link was read");
    }

    #[test]
    fn an_embed_link_shows_only_its_parts() {
        let st = state_from_query("scenario=hung-handler&embed=1&panels=timeline,totals");
        assert!(st.embed);
        assert!(st.parts.shows(Part::Timeline) && st.parts.shows(Part::Totals));
        assert!(!st.parts.shows(Part::Controls));
    }

    #[test]
    fn a_bad_link_still_opens_with_notices() {
        let st = state_from_query("scenario=%3Cscript%3E&timeout=NaN&workers=-3&zzz=1");
        assert!(st.a.run.is_some());
        assert!(st.notices.len() >= 3, "{:?}", st.notices);
    }

    #[test]
    fn a_comparison_travels_in_the_link_and_comes_back() {
        let st = state_from_query("scenario=clip-surge&timeout=40s&compare=1&b.timeout=47s");
        assert!(st.notices.is_empty(), "{:?}", st.notices);
        let b = st.b.as_ref().expect("side B");
        assert_eq!(b.scenario.broker.visibility_timeout_ms, Some(47_000));
        assert_eq!(st.a.scenario.broker.visibility_timeout_ms, Some(40_000));
        assert!(b.run.is_some(), "side B ran");
        let q = query_of(&st);
        assert!(q.contains("compare=1&b.timeout=47s"), "{q}");
    }

    #[test]
    fn a_comparison_with_b_equal_to_a_runs_side_b() {
        let st = state_from_query("scenario=clip-surge&compare=1");
        assert!(st.b.as_ref().is_some_and(|b| b.run.is_some()));
    }

    #[test]
    fn the_share_panel_is_not_in_the_link_it_shares() {
        let st = state_from_query("scenario=clip-surge&panel=export");
        assert_eq!(st.panel, Some(Panel::Export), "old links still open it");
        let q = query_of(&st);
        assert!(!q.contains("panel="), "{q}");
        let st = state_from_query("scenario=clip-surge&panel=sweep");
        assert!(query_of(&st).contains("panel=sweep"));
    }

    #[test]
    fn a_link_opens_presenter_mode_with_its_notes_and_keeps_them() {
        let st = state_from_query(
            "scenario=ninety-second-message&present=1&note=60s-90s~w1~worker%201%20starts%20it%20again",
        );
        assert!(st.notices.is_empty(), "{:?}", st.notices);
        assert!(st.present);
        assert_eq!(st.notes.len(), 1);
        assert_eq!(st.notes[0], "60s-90s~w1~worker 1 starts it again");
        let q = query_of(&st);
        assert!(q.contains("present=1"), "{q}");
        assert!(
            q.contains("note=60s-90s~w1~worker%201%20starts%20it%20again"),
            "{q}"
        );
        let st = yew::Reducible::reduce(std::rc::Rc::new(st), Command::Present(false));
        assert!(!query_of(&st).contains("present="));
    }

    #[test]
    fn an_interview_link_opens_the_mode_and_share_keeps_it() {
        let st = state_from_query("scenario=ninety-second-message&mode=interview");
        assert!(st.notices.is_empty(), "{:?}", st.notices);
        assert_eq!(st.interview, Some(0));
        assert_eq!(st.playhead_ms, 0, "the run's future hidden");
        let q = query_of(&st);
        assert!(q.contains("mode=interview"), "{q}");
        let again = state_from_query(&q);
        assert_eq!(again.interview, Some(0));
        assert_eq!(again.playhead_ms, st.playhead_ms);
        let st = yew::Reducible::reduce(std::rc::Rc::new(st), Command::Interview(false));
        assert!(!query_of(&st).contains("mode="));
    }

    #[test]
    fn an_interview_link_keeps_its_playhead() {
        let st = state_from_query("scenario=ninety-second-message&mode=interview&t=45s");
        assert_eq!(st.playhead_ms, 45_000);
        assert!(query_of(&st).contains("t=45s"));
    }

    #[test]
    fn a_mode_the_page_does_not_have_is_named_and_changes_nothing_else() {
        let plain = state_from_query("scenario=clip-surge&timeout=45s");
        let st = state_from_query("scenario=clip-surge&timeout=45s&mode=interveiw");
        assert_eq!(
            st.notices,
            vec!["mode = \"interveiw\": must be one of: interview".to_string()]
        );
        assert_eq!(st.interview, None);
        assert_eq!(st.a.scenario, plain.a.scenario);
        assert_eq!(st.playhead_ms, plain.playhead_ms);
        assert_eq!(query_of(&st), query_of(&plain));
    }

    #[test]
    fn a_range_picked_for_a_note_opens_the_notes_panel_on_it() {
        use yew::Reducible;
        let st = std::rc::Rc::new(state_from_query("scenario=ninety-second-message"));
        let st = st.reduce(Command::NoteAt(60_000, 90_000));
        assert_eq!(st.panel, Some(Panel::Notes));
        assert_eq!(st.note_draft, Some((60_000, 90_000)));
        // Closing the panel forgets the range; the Note… button then opens
        // it on the range on screen.
        let st = st.reduce(Command::Panel(None));
        assert_eq!(st.note_draft, None);
        // An empty range opens nothing.
        let st = std::rc::Rc::new(state_from_query("scenario=ninety-second-message"))
            .reduce(Command::NoteAt(5, 5));
        assert_eq!(st.panel, None);
    }

    #[test]
    fn the_palette_toggle_writes_palette_cb_into_the_link_and_back() {
        let st = std::rc::Rc::new(state_from_query("scenario=clip-surge&palette=cb"));
        assert!(st.palette_cb);
        assert!(query_of(&st).contains("palette=cb"));
        let st = yew::Reducible::reduce(st, Command::PaletteCb(false));
        assert!(!query_of(&st).contains("palette"), "{}", query_of(&st));
    }
}
