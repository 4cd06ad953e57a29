//! Share and export: the link, the timeline as PNG or SVG, the series and
//! the per-message history as CSV, the scenario as JSON; and import of a
//! scenario file by picker or drop, with errors that name the field.

use std::cell::RefCell;
use std::rc::Rc;

use gloo::file::callbacks::FileReader;
use lease_sim::Scenario;
use lease_view::export::{
    deliveries_csv, messages_csv, series_csv, timeline_svg, SvgOptions, SvgView,
};
use wasm_bindgen::JsCast;
use web_sys::{HtmlCanvasElement, HtmlInputElement};
use yew::prelude::*;

use super::panel_head;
use crate::command::Command;
use crate::download::{file_stem, save_data_url, save_text};
use crate::import::{import_text, shorten, Imported, MAX_IMPORT_BYTES};
use crate::run_handle::RunHandle;
use crate::timeline::TimelineView;

#[derive(Properties, PartialEq)]
pub struct ExportProps {
    pub run: RunHandle,
    pub scenario: Rc<Scenario>,
    /// The share link of what is on screen.
    pub link: String,
    pub view: TimelineView,
    /// The visible time range of the timeline, for the SVG.
    pub range: Option<(u64, u64)>,
    pub on_command: Callback<Command>,
}

/// Keeps a file read alive until it finishes (dropping it cancels the read).
pub type ReaderSlot = Rc<RefCell<Option<FileReader>>>;

/// Reads `file` as text and hands the parsed scenario, or why not, to `done`.
pub fn read_scenario_file(file: web_sys::File, slot: &ReaderSlot, done: Callback<Imported>) {
    let name = file.name();
    if file.size() > MAX_IMPORT_BYTES {
        done.emit(Err(format!(
            "{}: {:.0} KB is too large for a scenario file (at most 1 MB)",
            shorten(&name),
            file.size() / 1024.0
        )));
        return;
    }
    let file = gloo::file::File::from(file);
    let reader = gloo::file::callbacks::read_as_text(&file, move |text| {
        done.emit(match text {
            Ok(text) => import_text(&name, &text),
            Err(e) => Err(format!(
                "{}: the browser could not read it ({e})",
                shorten(&name)
            )),
        });
    });
    *slot.borrow_mut() = Some(reader);
}

/// What the last action said: a plain sentence, never HTML.
#[derive(Clone, PartialEq)]
enum Status {
    Idle,
    Done(String),
    Failed(String),
}

#[function_component(ExportPanel)]
pub fn export_panel(p: &ExportProps) -> Html {
    let status = use_state(|| Status::Idle);
    let slot: ReaderSlot = use_mut_ref(|| None).clone();
    let stem = file_stem(&p.scenario.name, p.scenario.seed);

    let report = {
        let status = status.clone();
        move |what: &str, r: Result<(), String>| {
            status.set(match r {
                Ok(()) => Status::Done(format!("Saved {what}.")),
                Err(e) => Status::Failed(format!("Could not save {what}: {e}.")),
            })
        }
    };
    let button = |id: &'static str, text: &'static str, f: Rc<dyn Fn()>| {
        let onclick = Callback::from(move |_: MouseEvent| f());
        html! { <button type="button" id={id} {onclick}>{text}</button> }
    };

    let png = {
        let report = report.clone();
        let name = format!("{stem}-timeline.png");
        Rc::new(move || {
            let canvas = gloo::utils::document()
                .query_selector(".timeline-canvas")
                .ok()
                .flatten()
                .and_then(|e| e.dyn_into::<HtmlCanvasElement>().ok());
            let r = match canvas.map(|c| c.to_data_url()) {
                Some(Ok(url)) => save_data_url(&name, &url),
                _ => Err("the timeline is not on the page".into()),
            };
            report(&name, r);
        })
    };
    let svg = {
        let report = report.clone();
        let run = p.run.clone();
        let (view, range) = (p.view, p.range);
        let title = p.scenario.title.clone();
        let name = format!("{stem}-timeline.svg");
        Rc::new(move || {
            let (from, to) = range.unwrap_or((0, run.end_ms));
            let dark = gloo::utils::window()
                .match_media("(prefers-color-scheme: dark)")
                .ok()
                .flatten()
                .is_some_and(|m| m.matches());
            let opts = SvgOptions {
                width_px: 1200.0,
                from_ms: from as f64,
                to_ms: to as f64,
                dark,
                view: match view {
                    TimelineView::Workers => SvgView::Workers,
                    TimelineView::Messages => SvgView::Messages,
                },
                title: title.clone(),
            };
            let text = timeline_svg(&run, &opts);
            report(&name, save_text(&name, "image/svg+xml", &text));
        })
    };
    let csv = |suffix: &'static str, f: fn(&lease_sim::Run) -> String| {
        let report = report.clone();
        let run = p.run.clone();
        let name = format!("{stem}-{suffix}.csv");
        Rc::new(move || report(&name, save_text(&name, "text/csv", &f(&run)))) as Rc<dyn Fn()>
    };
    let json = {
        let report = report.clone();
        let scenario = p.scenario.clone();
        let name = format!("{stem}.json");
        Rc::new(move || {
            let r = serde_json::to_string_pretty(&*scenario)
                .map_err(|e| e.to_string())
                .and_then(|text| save_text(&name, "application/json", &text));
            report(&name, r);
        })
    };
    let copy = {
        let status = status.clone();
        let link = p.link.clone();
        Callback::from(move |_: MouseEvent| {
            let clipboard = gloo::utils::window().navigator().clipboard();
            let promise = clipboard.write_text(&link);
            let status = status.clone();
            wasm_bindgen_futures::spawn_local(async move {
                status.set(match wasm_bindgen_futures::JsFuture::from(promise).await {
                    Ok(_) => Status::Done("Copied the link.".into()),
                    Err(_) => Status::Failed(
                        "The browser would not copy; select the link and copy it by hand.".into(),
                    ),
                });
            });
        })
    };
    let imported = {
        let status = status.clone();
        let cb = p.on_command.clone();
        Callback::from(move |r: Imported| match r {
            Ok((scenario, ignored)) => {
                status.set(Status::Done(format!(
                    "Imported “{}”.",
                    shorten(if scenario.title.is_empty() {
                        &scenario.name
                    } else {
                        &scenario.title
                    })
                )));
                cb.emit(Command::Import(Box::new(scenario), ignored));
            }
            Err(e) => status.set(Status::Failed(e)),
        })
    };
    let on_file = {
        let slot = slot.clone();
        let imported = imported.clone();
        Callback::from(move |e: Event| {
            let input: HtmlInputElement = e.target_unchecked_into();
            if let Some(file) = input.files().and_then(|f| f.get(0)) {
                read_scenario_file(file, &slot, imported.clone());
            }
            // Picking the same file again must fire again.
            input.set_value("");
        })
    };
    let on_drop = {
        let slot = slot.clone();
        let imported = imported.clone();
        Callback::from(move |e: DragEvent| {
            e.prevent_default();
            e.stop_propagation();
            if let Some(file) = e
                .data_transfer()
                .and_then(|d| d.files())
                .and_then(|f| f.get(0))
            {
                read_scenario_file(file, &slot, imported.clone());
            }
        })
    };
    let on_drag_over = Callback::from(|e: DragEvent| e.prevent_default());

    html! {
        <section class="panel" id="export-panel" aria-labelledby="export-title">
            { panel_head("export-title", "Share and export", "Close Share and export", &p.on_command) }
            <div class="panel-row">
                <label for="share-link">{"Link to exactly this run"}</label>
                <input id="share-link" type="text" readonly=true value={p.link.clone()} />
                <button type="button" id="copy-link" onclick={copy}>{"Copy link"}</button>
            </div>
            <div class="panel-row buttons" role="group" aria-label="Export">
                {button("export-png", "Timeline as PNG", png)}
                {button("export-svg", "Timeline as SVG", svg)}
                {button("export-series", "Series as CSV", csv("series", series_csv))}
                {button("export-deliveries", "Deliveries as CSV", csv("deliveries", deliveries_csv))}
                {button("export-messages", "Messages as CSV", csv("messages", messages_csv))}
                {button("export-json", "Scenario as JSON", json)}
            </div>
            <div class="dropzone" ondrop={on_drop} ondragover={on_drag_over}>
                <label for="import-file">{"Import a scenario file (JSON): pick one, or drop it anywhere on the page"}</label>
                <input id="import-file" type="file" accept=".json,application/json" onchange={on_file} />
            </div>
            { match &*status {
                Status::Idle => html! {},
                Status::Done(t) => html! { <p class="status ok" role="status" id="export-status">{t.clone()}</p> },
                Status::Failed(t) => html! { <p class="status bad" role="alert" id="export-status">{t.clone()}</p> },
            } }
        </section>
    }
}
