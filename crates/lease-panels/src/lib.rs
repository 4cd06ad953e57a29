//! What the page loads on demand: the side panels share and export, embed,
//! sweep, Recommend, tours, the keyboard overlay (with how the broker presets
//! differ) and your latency data (`panels`), as a Yew app of their
//! own in a wasm of their own, and the reading of a scenario file dropped on
//! the page (`import`, `import_run`). The page (`src/panel_host.rs`) imports
//! this module the first time one of them is wanted, then calls `show` with
//! a `lease_ui::panel::PanelView` whenever that changes, `hide` when the
//! panel closes, and `import_file` for a dropped file; the module answers
//! through the function the page passes, with a `PanelCommand` as JSON.
//! Exports, sweeps and a recommendation's seeds go to background workers
//! (`lease_jobs`).

pub mod download;
pub mod durations_file;
pub mod export_run;
pub mod import;
pub mod import_run;
pub mod panels;
pub mod share_qr;
pub mod shortcut_list;
pub mod tour_look;

/// What the binary does at start: a panic in a panel says so over the
/// page, as one in the page does, and the panels' own rules join the page's
/// stylesheet.
pub fn start() {
    #[cfg(target_arch = "wasm32")]
    {
        lease_ui::crash::install();
        add_style();
    }
}

/// The panels' rules, in the page's head before the first panel is drawn:
/// they ride in this module, not in the page's first-load stylesheet.
#[cfg(target_arch = "wasm32")]
fn add_style() {
    let document = gloo::utils::document();
    let (Ok(style), Some(head)) = (document.create_element("style"), document.head()) else {
        return;
    };
    style.set_text_content(Some(include_str!("panels.css")));
    let _ = head.append_child(&style);
}

#[cfg(target_arch = "wasm32")]
mod bridge {
    use std::cell::RefCell;
    use std::rc::Rc;

    use js_sys::Function;
    use lease_sim::Scenario;
    use wasm_bindgen::prelude::*;
    use yew::prelude::*;

    use lease_ui::panel::{dropped_file, PanelCommand, PanelView};

    use crate::import_run::{read_scenario_file, FileSlot};
    use crate::panels::{
        EmbedPanel, ExportPanel, HelpOverlay, InterviewBar, LatencyPanel, NotesPanel, PresenterBar,
        RecommendPanel, RulesPanel, SweepPanel, TablePanel, TimelineMenu, TourPanel,
    };

    thread_local! {
        static VIEW: RefCell<Option<Rc<PanelView>>> = const { RefCell::new(None) };
        static ON_COMMAND: RefCell<Option<Function>> = const { RefCell::new(None) };
        static SET_VIEW: RefCell<Option<UseStateSetter<Option<Rc<PanelView>>>>> = const { RefCell::new(None) };
        static MOUNTED: RefCell<Option<web_sys::Element>> = const { RefCell::new(None) };
        static DROPPED: crate::import_run::ReaderSlot = Rc::default();
    }

    /// Hands a panel's command to the page, as JSON.
    fn send(c: PanelCommand) {
        if let Some(f) = ON_COMMAND.with(|f| f.borrow().clone()) {
            let _ = f.call1(&JsValue::NULL, &c.to_json().into());
        }
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
                if let Some(file) = dropped_file(&e) {
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
                    by_message={v.by_message} range={v.range} notes={v.notes.clone()} {on_command} />
            },
            "embed" => html! { <EmbedPanel query={v.query.clone()} {on_command} /> },
            "sweep" => html! { <SweepPanel {scenario} {on_command} /> },
            "recommend" => html! { <RecommendPanel {scenario} {on_command} /> },
            "latency" => html! { <LatencyPanel {scenario} {on_command} /> },
            "rules" => html! { <RulesPanel {scenario} {on_command} /> },
            "help" | "presets" => {
                html! { <HelpOverlay {on_command} presets={v.panel == "presets"} /> }
            }
            "notes" => html! {
                <NotesPanel notes={v.notes.clone()} draft={v.draft} range={v.range}
                    end_ms={v.run_scenario.duration_ms} workers={v.scenario.workers.count} {on_command} />
            },
            "interview" => match v.interview {
                Some((shown, playhead)) => html! {
                    <InterviewBar run_scenario={Rc::new(v.run_scenario.clone())} {shown} {playhead} {on_command} />
                },
                None => html! {},
            },
            "tour" if v.present => html! {
                <PresenterBar current={v.tour.clone()} scenario={v.scenario.name.clone()} {on_command} />
            },
            "table" => {
                html! { <TablePanel run_scenario={Rc::new(v.run_scenario.clone())} {on_command} /> }
            }
            "menu" => match v.at.clone() {
                Some(at) => html! { <TimelineMenu {scenario} {at} {on_command} /> },
                None => html! {},
            },
            "tour" => {
                html! { <TourPanel current={v.tour.clone()} done={v.done.clone()} earned={v.earned.clone()} {on_command} /> }
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

    /// Shows the panel `view` names (a `PanelView` as JSON); `on_command`
    /// hears the panel's commands (`PanelCommand` as JSON).
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

    /// Reads a scenario file dropped on the page; the page hears
    /// `PanelCommand::Import` with the scenario, or `Reject` with why not.
    #[wasm_bindgen]
    pub fn import_file(file: web_sys::File, on_command: Function) {
        ON_COMMAND.with(|f| *f.borrow_mut() = Some(on_command));
        DROPPED.with(|slot| read_scenario_file(file, slot, Callback::from(imported)));
    }

    fn imported(r: crate::import::Imported) {
        send(match r {
            Ok((s, ignored)) => PanelCommand::Import {
                scenario: serde_json::to_string(&s).unwrap_or_default(),
                ignored,
            },
            // The page shows it as a sentence of its own.
            Err(why) => PanelCommand::Reject(format!("The file was not loaded: {why}")),
        })
    }

    /// Closes the panel shown (its worker, if any, ends with it).
    #[wasm_bindgen]
    pub fn hide() {
        crate::durations_file::stop();
        VIEW.with(|v| *v.borrow_mut() = None);
        if let Some(set) = SET_VIEW.with(|s| s.borrow().clone()) {
            set.set(None);
        }
    }
}
