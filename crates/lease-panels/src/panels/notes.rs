//! Notes on the timeline: write one on a time range (from a Shift+drag on
//! the timeline, the range on screen, or typed), on a worker's lane or a
//! message if it is about one; edit and delete them. The page keeps them
//! and writes them into the share link as `note=` fields
//! (`lease_view::note`); this panel sends the whole list back each time.

use lease_format::display::duration;
use lease_ui::panel::PanelCommand;
use lease_view::note::{Note, NoteOn, MAX_NOTES, MAX_NOTE_CHARS};
use yew::prelude::*;

use super::panel_head;

#[derive(Properties, PartialEq)]
pub struct NotesProps {
    /// The notes as the link writes them.
    pub notes: Vec<String>,
    /// The range to start a note on (a Shift+drag, the Note… button).
    pub draft: Option<(u64, u64)>,
    /// The timeline's range on screen; `None`: the whole run.
    pub range: Option<(u64, u64)>,
    /// The run's length: a note ends within it.
    pub end_ms: u64,
    pub workers: u32,
    pub on_command: Callback<PanelCommand>,
}

/// The form as typed.
#[derive(Clone, PartialEq, Default)]
struct Form {
    from: String,
    to: String,
    /// `""`, `w1` or `m` (a message, its id in `message`).
    on: String,
    message: String,
    text: String,
    /// The index of the note being edited; `None`: a new one.
    editing: Option<usize>,
}

impl Form {
    fn on_range((from, to): (u64, u64)) -> Form {
        Form {
            from: duration(from),
            to: duration(to),
            ..Form::default()
        }
    }

    fn of(note: &Note, index: usize) -> Form {
        let (on, message) = match note.on {
            NoteOn::Timeline => (String::new(), String::new()),
            NoteOn::Worker(w) => (format!("w{w}"), String::new()),
            NoteOn::Message(m) => ("m".into(), m.to_string()),
        };
        Form {
            from: duration(note.from_ms),
            to: duration(note.to_ms),
            on,
            message,
            text: note.text.clone(),
            editing: Some(index),
        }
    }

    /// The note the form says, read as a link's is, or why not.
    fn note(&self, end_ms: u64) -> Result<Note, String> {
        let on = if self.on == "m" {
            format!("m{}", self.message.trim())
        } else {
            self.on.clone()
        };
        // One line: a pasted line break becomes a space.
        let text: String = self
            .text
            .chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .collect();
        // Read as the page writes a duration ("1,500 ms"), or as a link does.
        let time = |t: &str| t.trim().replace(',', "");
        let field = format!("{}-{}~{on}~{text}", time(&self.from), time(&self.to));
        let note = Note::from_field(&field).map_err(|e| format!("This note {e}."))?;
        if note.to_ms > end_ms {
            return Err(format!(
                "This note ends after the run does ({}).",
                duration(end_ms)
            ));
        }
        Ok(note)
    }
}

fn text_of(e: &InputEvent) -> String {
    use wasm_bindgen::JsCast;
    let target = e.target();
    if let Some(t) = target
        .as_ref()
        .and_then(|t| t.dyn_ref::<web_sys::HtmlTextAreaElement>())
    {
        return t.value();
    }
    target
        .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
        .map(|i| i.value())
        .unwrap_or_default()
}

#[function_component(NotesPanel)]
pub fn notes_panel(p: &NotesProps) -> Html {
    let cb = p.on_command.clone();
    let notes: Vec<Note> = p
        .notes
        .iter()
        .filter_map(|n| Note::from_field(n).ok())
        .collect();
    let start = p.draft.or(p.range).unwrap_or((0, p.end_ms));
    let form = use_state(|| Form::on_range(start));
    let error = use_state(|| None::<String>);
    let text_box = use_node_ref();
    {
        // A new range picked on the timeline starts a new note on it, and
        // the hand that picked it goes on to write it. The panel opened
        // above the timeline: the page shows the text box and the timeline
        // together, so that the next Shift+drag finds the timeline in view
        // rather than pushed below the window.
        let (form, error, text_box) = (form.clone(), error.clone(), text_box.clone());
        use_effect_with(p.draft, move |draft| {
            if let Some(d) = draft {
                form.set(Form::on_range(*d));
                error.set(None);
                if let Some(el) = text_box.cast::<web_sys::HtmlElement>() {
                    let keep_still = web_sys::FocusOptions::new();
                    keep_still.set_prevent_scroll(true);
                    let _ = el.focus_with_options(&keep_still);
                    let timeline = gloo::utils::document()
                        .query_selector("#timeline .timeline-canvas")
                        .ok()
                        .flatten();
                    match timeline {
                        Some(t) => lease_ui::scroll::show_together(&el, &t),
                        None => lease_ui::scroll::bring_into_view(&el),
                    }
                }
            }
        });
    }
    let edit = |f: fn(&mut Form, String)| {
        let form = form.clone();
        Callback::from(move |e: InputEvent| {
            let mut next = (*form).clone();
            f(&mut next, text_of(&e));
            form.set(next);
        })
    };
    let on_pick = {
        let form = form.clone();
        Callback::from(move |e: Event| {
            let mut next = (*form).clone();
            next.on = e
                .target_unchecked_into::<web_sys::HtmlSelectElement>()
                .value();
            form.set(next);
        })
    };
    let send = {
        let cb = cb.clone();
        move |list: Vec<Note>| {
            cb.emit(PanelCommand::Notes(
                list.iter().map(Note::to_field).collect(),
            ))
        }
    };
    let on_submit = {
        let (form, error, notes, send) = (form.clone(), error.clone(), notes.clone(), send.clone());
        let end_ms = p.end_ms;
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            match form.note(end_ms) {
                Ok(note) => {
                    let mut list = notes.clone();
                    match form.editing.filter(|&i| i < list.len()) {
                        Some(i) => list[i] = note,
                        None if list.len() < MAX_NOTES => list.push(note),
                        None => {
                            error.set(Some(format!(
                                "A link keeps at most {MAX_NOTES} notes: delete one first."
                            )));
                            return;
                        }
                    }
                    send(list);
                    error.set(None);
                    form.set(Form {
                        text: String::new(),
                        editing: None,
                        ..(*form).clone()
                    });
                }
                Err(why) => error.set(Some(why)),
            }
        })
    };
    let take_view = {
        let form = form.clone();
        let range = p.range.unwrap_or((0, p.end_ms));
        Callback::from(move |_: MouseEvent| {
            let mut next = (*form).clone();
            let fresh = Form::on_range(range);
            next.from = fresh.from;
            next.to = fresh.to;
            form.set(next);
        })
    };
    let cancel = {
        let form = form.clone();
        Callback::from(move |_: MouseEvent| {
            form.set(Form {
                editing: None,
                text: String::new(),
                ..(*form).clone()
            })
        })
    };
    let full = notes.len() >= MAX_NOTES && form.editing.is_none();
    let count = form.text.chars().count();
    html! {
        <section class="panel" id="notes-panel" aria-labelledby="notes-title">
            { panel_head("notes-title", "Notes on the timeline", "Close Notes", cb.reform(|_: MouseEvent| PanelCommand::Close)) }
            <p class="muted">{"Shift+drag across the timeline to pick a time range, or use the range on screen. Notes travel in the share link."}</p>
            <form id="note-form" onsubmit={on_submit}>
                <div class="panel-row">
                    <label for="note-from">{"From"}</label>
                    <input type="text" id="note-from" class="note-time" value={form.from.clone()} oninput={edit(|f, v| f.from = v)} />
                    <label for="note-to">{"to"}</label>
                    <input type="text" id="note-to" class="note-time" value={form.to.clone()} oninput={edit(|f, v| f.to = v)} />
                    <button type="button" id="note-take-view" onclick={take_view}>{"Use the range on screen"}</button>
                </div>
                <div class="panel-row">
                    <label for="note-on">{"On"}</label>
                    <select id="note-on" onchange={on_pick}>
                        <option value="" selected={form.on.is_empty()}>{"the whole timeline"}</option>
                        { for (0..p.workers.min(64)).map(|w| {
                            let v = format!("w{w}");
                            html! { <option value={v.clone()} selected={form.on == v}>{format!("worker {w}'s lane")}</option> }
                        }) }
                        <option value="m" selected={form.on == "m"}>{"a message…"}</option>
                    </select>
                    if form.on == "m" {
                        <label for="note-message">{"Message"}</label>
                        <input type="number" id="note-message" min="0" value={form.message.clone()} oninput={edit(|f, v| f.message = v)} />
                    }
                </div>
                <label for="note-text">{"Note"}</label>
                <textarea id="note-text" ref={text_box} rows="2" maxlength={MAX_NOTE_CHARS.to_string()} value={form.text.clone()} oninput={edit(|f, v| f.text = v)}
                    aria-describedby="note-count" />
                <span class="muted" id="note-count">{format!("{count} of {MAX_NOTE_CHARS} characters")}</span>
                if let Some(why) = &*error {
                    <p class="status bad" role="alert" id="note-error">{why.clone()}</p>
                }
                <div class="panel-row">
                    <button type="submit" id="note-save" disabled={full}>{ if form.editing.is_some() { "Save the note" } else { "Add the note" } }</button>
                    if form.editing.is_some() {
                        <button type="button" id="note-cancel" onclick={cancel}>{"Cancel the edit"}</button>
                    }
                    if full {
                        <span class="muted">{format!("A link keeps at most {MAX_NOTES} notes.")}</span>
                    }
                </div>
            </form>
            if !notes.is_empty() {
                <h3 class="notes-head">{format!("Notes ({} of {MAX_NOTES})", notes.len())}</h3>
                <ol class="note-list" id="note-list">
                    { for notes.iter().enumerate().map(|(i, n)| {
                        let on_edit = {
                            let (form, n) = (form.clone(), n.clone());
                            Callback::from(move |_: MouseEvent| form.set(Form::of(&n, i)))
                        };
                        let on_delete = {
                            let (notes, send) = (notes.clone(), send.clone());
                            Callback::from(move |_: MouseEvent| {
                                let mut list = notes.clone();
                                list.remove(i);
                                send(list);
                            })
                        };
                        html! {
                            <li id={format!("note-{i}")}>
                                <span class="note-words">{n.describe()}</span>
                                <button type="button" class="note-edit" onclick={on_edit} aria-label={format!("Edit note {}", i + 1)}>{"Edit"}</button>
                                <button type="button" class="note-delete" onclick={on_delete} aria-label={format!("Delete note {}", i + 1)}>{"Delete"}</button>
                            </li>
                        }
                    }) }
                </ol>
            }
        </section>
    }
}
