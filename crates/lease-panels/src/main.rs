//! What the page loads on demand: the side panels share and export, embed,
//! sweep, tours and the keyboard overlay (`src/panels/`), as a Yew app of their own
//! in a wasm of their own, and the reading of a scenario file dropped on the
//! page. The page (`src/panel_host.rs`) imports this module the first time
//! one of them is wanted, then calls `show` with what to show whenever that
//! changes, `hide` when the panel closes, and `import_file` for a dropped
//! file; the answers go through the function it passes (`close`, `import`,
//! `reject`).
// The shared files also hold what only the page uses; the page's crate
// tests them. Natively this binary does nothing.
#![allow(dead_code)]
#![cfg_attr(not(target_arch = "wasm32"), allow(unused_imports))]

// As the page: talc rather than dlmalloc, for the download.
#[cfg(target_arch = "wasm32")]
#[global_allocator]
static TALC: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

#[path = "../../../src/budget.rs"]
mod budget;
#[cfg(target_arch = "wasm32")]
#[path = "../../../src/crash.rs"]
mod crash;
#[path = "../../../src/download.rs"]
mod download;
#[path = "../../../src/embed.rs"]
mod embed;
#[path = "../../../src/export_job.rs"]
mod export_job;
#[path = "../../../src/export_run.rs"]
mod export_run;
#[path = "../../../src/import.rs"]
mod import;
#[path = "../../../src/import_job.rs"]
mod import_job;
#[path = "../../../src/import_run.rs"]
mod import_run;
#[path = "../../../src/one_job.rs"]
mod one_job;
#[path = "../../../src/panel.rs"]
mod panel;
#[path = "../../../src/panels/mod.rs"]
mod panels;
#[path = "../../../src/run_job.rs"]
mod run_job;
#[path = "../../../src/shortcut_list.rs"]
mod shortcut_list;
#[path = "../../../src/sweep_job.rs"]
mod sweep_job;
#[path = "../../../src/tour_look.rs"]
mod tour_look;
#[path = "../../../src/worker.rs"]
mod worker;

// The page's modules that hold the few helpers the panels use.
#[path = "../../../src/charts"]
mod charts {
    pub mod axis;
}
#[path = "../../../src/controls"]
mod controls {
    pub mod scale;
}

fn main() {
    // A panic in a panel says so over the page, as one in the page does.
    #[cfg(target_arch = "wasm32")]
    crash::install();
}

#[cfg(target_arch = "wasm32")]
mod bridge {
    use std::cell::RefCell;
    use std::rc::Rc;

    use js_sys::Function;
    use lease_sim::Scenario;
    use wasm_bindgen::prelude::*;
    use yew::prelude::*;

    use crate::import_run::{read_scenario_file, FileSlot};
    use crate::panel::{PanelCommand, PanelView};
    use crate::panels::{EmbedPanel, ExportPanel, HelpOverlay, SweepPanel, TourPanel};

    thread_local! {
        static VIEW: RefCell<Option<Rc<PanelView>>> = const { RefCell::new(None) };
        static ON_COMMAND: RefCell<Option<Function>> = const { RefCell::new(None) };
        static SET_VIEW: RefCell<Option<UseStateSetter<Option<Rc<PanelView>>>>> = const { RefCell::new(None) };
        static MOUNTED: RefCell<Option<web_sys::Element>> = const { RefCell::new(None) };
        static DROPPED: crate::import_run::ReaderSlot = Rc::default();
    }

    /// Hands a panel's command to the page.
    fn send(c: PanelCommand) {
        let Some(f) = ON_COMMAND.with(|f| f.borrow().clone()) else {
            return;
        };
        let _ = match c {
            PanelCommand::Close => f.call1(&JsValue::NULL, &"close".into()),
            PanelCommand::Import(s, ignored) => {
                let text = serde_json::to_string(&*s).unwrap_or_default();
                let ignored: js_sys::Array = ignored.iter().map(|i| JsValue::from_str(i)).collect();
                f.call3(&JsValue::NULL, &"import".into(), &text.into(), &ignored)
            }
            PanelCommand::Reject(why) => f.call2(&JsValue::NULL, &"reject".into(), &why.into()),
            PanelCommand::StartTour(id) => f.call2(&JsValue::NULL, &"tour".into(), &id.into()),
            PanelCommand::TourStep(i) => {
                f.call2(&JsValue::NULL, &"step".into(), &(i as f64).into())
            }
            PanelCommand::TourDemo(id, i) => f.call3(
                &JsValue::NULL,
                &"demo".into(),
                &id.into(),
                &(i as f64).into(),
            ),
        };
    }

    #[function_component(Empty)]
    fn empty() -> Html {
        html! {}
    }

    #[function_component(Panels)]
    fn panels() -> Html {
        let view = use_state(|| VIEW.with(|v| v.borrow().clone()));
        {
            let setter = view.setter();
            use_effect_with((), move |_| {
                SET_VIEW.with(|s| *s.borrow_mut() = Some(setter));
            });
        }
        let on_command = use_memo((), |_| Callback::from(send));
        let slot = use_mut_ref(FileSlot::default);
        // A file dropped anywhere on a panel is imported, as on the page.
        let on_drop = {
            let slot = slot.clone();
            Callback::from(move |e: DragEvent| {
                if let Some(file) = crate::panel::dropped_file(&e) {
                    read_scenario_file(file, &slot, Callback::from(imported));
                }
            })
        };
        let on_drag_over = Callback::from(|e: DragEvent| e.prevent_default());
        let Some(v) = (*view).clone() else {
            return html! {};
        };
        let scenario: Rc<Scenario> = Rc::new(v.scenario.clone());
        let on_command = (*on_command).clone();
        let panel = match v.panel.as_str() {
            "export" => html! {
                <ExportPanel run_scenario={Rc::new(v.run_scenario.clone())} {scenario} link={v.link.clone()}
                    by_message={v.by_message} range={v.range} {on_command} />
            },
            "embed" => html! { <EmbedPanel query={v.query.clone()} {on_command} /> },
            "sweep" => html! { <SweepPanel {scenario} {on_command} /> },
            "help" => html! { <HelpOverlay {on_command} /> },
            "tour" => {
                html! { <TourPanel current={v.tour.clone()} done={v.done.clone()} {on_command} /> }
            }
            _ => html! {},
        };
        html! {
            <div class="panel-drop" ondrop={on_drop} ondragover={on_drag_over}>{panel}</div>
        }
    }

    /// The panels' host inside the page's `#panel-slot`, created (again, if
    /// the page has redrawn the slot) and the app mounted on first use.
    fn mount() -> Result<(), JsValue> {
        let document = gloo::utils::document();
        let slot = document
            .get_element_by_id("panel-slot")
            .ok_or_else(|| JsValue::from_str("the page has no #panel-slot"))?;
        if let Some(host) = MOUNTED.with(|m| m.borrow().clone()) {
            if !slot.contains(Some(&host)) {
                slot.append_child(&host)?;
            }
            return Ok(());
        }
        // Yew marks the elements of each of its apps with a number, counted
        // from 1 in each wasm module, and an app's listeners act on events
        // from elements with its own number. The page's app is 1; an app
        // mounted first here, on an element never shown, takes 1 in this
        // module, so that the panels' app is 2 and the page's app leaves
        // the panels' events alone (and they the page's).
        let spare = document.create_element("div")?;
        std::mem::forget(yew::Renderer::<Empty>::with_root(spare).render());
        let host = document.create_element("div")?;
        host.set_id("panel-root");
        slot.append_child(&host)?;
        std::mem::forget(yew::Renderer::<Panels>::with_root(host.clone()).render());
        MOUNTED.with(|m| *m.borrow_mut() = Some(host));
        Ok(())
    }

    /// Shows the panel `view` names (a `PanelViewOf` as JSON); `on_command`
    /// hears the panel's commands.
    #[wasm_bindgen]
    pub fn show(view: &str, on_command: Function) -> Result<(), JsValue> {
        let view: PanelView = serde_json::from_str(view).map_err(|e| {
            JsValue::from_str(&format!("the page sent a panel it cannot read: {e}"))
        })?;
        let view = Some(Rc::new(view));
        ON_COMMAND.with(|f| *f.borrow_mut() = Some(on_command));
        VIEW.with(|v| *v.borrow_mut() = view.clone());
        mount()?;
        if let Some(set) = SET_VIEW.with(|s| s.borrow().clone()) {
            set.set(view);
        }
        Ok(())
    }

    /// Reads a scenario file dropped on the page; the page hears `import`
    /// with the scenario, or `reject` with why not.
    #[wasm_bindgen]
    pub fn import_file(file: web_sys::File, on_command: Function) {
        ON_COMMAND.with(|f| *f.borrow_mut() = Some(on_command));
        DROPPED.with(|slot| read_scenario_file(file, slot, Callback::from(imported)));
    }

    fn imported(r: crate::import::Imported) {
        send(match r {
            Ok((s, ignored)) => PanelCommand::Import(Box::new(s), ignored),
            // The page shows it as a sentence of its own.
            Err(why) => PanelCommand::Reject(format!("The file was not loaded: {why}")),
        })
    }

    /// Closes the panel shown (its worker, if any, ends with it).
    #[wasm_bindgen]
    pub fn hide() {
        VIEW.with(|v| *v.borrow_mut() = None);
        if let Some(set) = SET_VIEW.with(|s| s.borrow().clone()) {
            set.set(None);
        }
    }
}
