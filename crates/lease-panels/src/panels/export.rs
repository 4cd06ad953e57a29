//! Share and export: the link, the timeline as PNG or SVG, the series and
//! the per-message history as CSV, the scenario as JSON; and import of a
//! scenario file by picker or drop, with errors that name the field.

use std::rc::Rc;

use lease_jobs::export_job::{ExportJob, ExportKind, SvgSettings};
use lease_sim::Scenario;
use lease_ui::panel::PanelCommand;
use wasm_bindgen::JsCast;
use web_sys::{HtmlCanvasElement, HtmlInputElement};
use yew::prelude::*;

use super::panel_head;
use crate::download::{file_stem, save_data_url, save_text};
use crate::export_run::ExportRun;
use crate::import::{shorten, Imported};
use crate::import_run::{read_scenario_file, FileSlot, ReaderSlot};
use crate::share_qr::qr_picture;

#[derive(Properties, PartialEq)]
pub struct ExportProps {
    /// The scenario of the run on screen: the SVG and the CSVs are of that
    /// run, computed again in a worker.
    pub run_scenario: Rc<Scenario>,
    pub scenario: Rc<Scenario>,
    /// The share link of what is on screen.
    pub link: String,
    /// Whether the timeline shows a lane per message (else per worker).
    pub by_message: bool,
    /// The visible time range of the timeline, for the SVG.
    pub range: Option<(u64, u64)>,
    /// The notes on the timeline, in their link form, for the SVG.
    #[prop_or_default]
    pub notes: Vec<String>,
    pub on_command: Callback<PanelCommand>,
}

/// What the last action said: a plain sentence, never HTML.
#[derive(Clone, PartialEq)]
enum Status {
    Idle,
    /// A worker is writing a file.
    Working(String),
    Done(String),
    Failed(String),
}

#[function_component(ExportPanel)]
pub fn export_panel(p: &ExportProps) -> Html {
    let status = use_state(|| Status::Idle);
    let slot: ReaderSlot = use_mut_ref(FileSlot::default).clone();
    // The export under way: dropped with the panel, which ends its worker.
    let job_slot = use_mut_ref(|| None::<ExportRun>);
    let stem = file_stem(&p.scenario.name, p.scenario.seed);
    // The timeline's files are of the run on screen, which may be older than
    // the scenario (a newer setting still computing, or one that cannot run).
    let run_stem = file_stem(&p.run_scenario.name, p.run_scenario.seed);

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
        let name = format!("{run_stem}-timeline.png");
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
    // The SVG and the CSVs are written by a worker (`lease_jobs::export_job`): a
    // large run's files are megabytes, too long to write on the page's thread.
    let in_worker = |id: &'static str, text: &'static str, kind: ExportKind| {
        let (status, job_slot) = (status.clone(), job_slot.clone());
        let scenario = p.run_scenario.clone();
        let (by_message, range, notes) = (p.by_message, p.range, p.notes.clone());
        let name = format!("{run_stem}-{}", kind.suffix());
        let onclick = Callback::from(move |_: MouseEvent| {
            let dark = lease_ui::theme::dark();
            let job = ExportJob {
                id: 1,
                scenario: (*scenario).clone(),
                kind,
                svg: SvgSettings {
                    range,
                    dark,
                    colour_blind: lease_ui::theme::colour_blind(),
                    by_message,
                    notes: notes.clone(),
                },
            };
            let done = {
                let (status, name) = (status.clone(), name.clone());
                Callback::from(move |r: Result<(), String>| {
                    status.set(match r {
                        Ok(()) => Status::Done(format!("Saved {name}.")),
                        Err(e) => Status::Failed(format!("Could not save {name}: {e}.")),
                    })
                })
            };
            // A newer export replaces one under way (its worker ends).
            *job_slot.borrow_mut() = None;
            match crate::export_run::start(job, name.clone(), done) {
                Ok(run) => {
                    *job_slot.borrow_mut() = Some(run);
                    status.set(Status::Working(format!("Writing {name}…")));
                }
                Err(e) => status.set(Status::Failed(format!("Could not save {name}: {e}."))),
            }
        });
        html! { <button type="button" id={id} {onclick}>{text}</button> }
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
                cb.emit(PanelCommand::Import {
                    scenario: serde_json::to_string(&scenario).unwrap_or_default(),
                    ignored,
                });
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
            e.stop_propagation();
            if let Some(file) = lease_ui::panel::dropped_file(&e) {
                read_scenario_file(file, &slot, imported.clone());
            }
        })
    };
    let on_drag_over = Callback::from(|e: DragEvent| e.prevent_default());

    // A room of phones opens the link from the projector: the QR code is
    // drawn when asked for.
    let qr_shown = use_state(|| false);
    let toggle_qr = {
        let qr_shown = qr_shown.clone();
        Callback::from(move |_: MouseEvent| qr_shown.set(!*qr_shown))
    };

    html! {
        <section class="panel" id="export-panel" aria-labelledby="export-title">
            { panel_head("export-title", "Share and export", "Close Share and export", p.on_command.reform(|_: MouseEvent| PanelCommand::Close)) }
            <div class="panel-row">
                <label for="share-link">{"Link to exactly this run"}</label>
                <input id="share-link" type="text" readonly=true value={p.link.clone()} />
                <button type="button" id="copy-link" onclick={copy}>{"Copy link"}</button>
                <button type="button" id="show-qr" aria-expanded={qr_shown.to_string()} aria-controls="share-qr"
                    onclick={toggle_qr}>{"QR code for phones"}</button>
            </div>
            if *qr_shown {
                <div id="share-qr">{ qr_view(&p.link) }</div>
            }
            <div class="panel-row buttons" role="group" aria-label="Export">
                {button("export-png", "Timeline as PNG", png)}
                {in_worker("export-svg", "Timeline as SVG", ExportKind::TimelineSvg)}
                {in_worker("export-series", "Series as CSV", ExportKind::SeriesCsv)}
                {in_worker("export-deliveries", "Deliveries as CSV", ExportKind::DeliveriesCsv)}
                {in_worker("export-messages", "Messages as CSV", ExportKind::MessagesCsv)}
                {button("export-json", "Scenario as JSON", json)}
            </div>
            <div class="dropzone" ondrop={on_drop} ondragover={on_drag_over}>
                <label for="import-file">{"Import a scenario file (JSON): pick one, or drop it anywhere on the page"}</label>
                <input id="import-file" type="file" accept=".json,application/json" onchange={on_file} />
            </div>
            { match &*status {
                Status::Idle => html! {},
                Status::Working(t) => html! { <p class="status" role="status" id="export-status">{t.clone()}</p> },
                Status::Done(t) => html! { <p class="status ok" role="status" id="export-status">{t.clone()}</p> },
                Status::Failed(t) => html! { <p class="status bad" role="alert" id="export-status">{t.clone()}</p> },
            } }
        </section>
    }
}

/// The link as a QR code, dark on white whatever the page's theme (a
/// phone's camera reads dark modules on a light ground), or why not.
fn qr_view(link: &str) -> Html {
    match qr_picture(link) {
        Ok(pic) => {
            let side = pic.side.to_string();
            html! {
                <svg role="img" aria-label={format!("QR code of the link to this run ({} characters)", link.chars().count())}
                    viewBox={format!("0 0 {side} {side}")} width="240" height="240" shape-rendering="crispEdges">
                    <rect width={side.clone()} height={side} fill="#fff" />
                    <path d={pic.path} fill="#000" />
                </svg>
            }
        }
        Err(why) => html! { <p class="status bad" role="alert">{why}</p> },
    }
}
