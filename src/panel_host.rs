//! What the page loads on demand: share and export, embed, sweep, the
//! keyboard overlay, and the reading of a scenario file dropped on the page
//! live in a wasm of their own (`crates/lease-panels`), fetched the first
//! time one of them is wanted (docs/ARCHITECTURE.md, what the first view
//! holds).
//!
//! The page tells the loaded module which panel to show and with what (a
//! `PanelView` as JSON) whenever that changes, or hands it a dropped file;
//! the module answers with a `PanelCommand` as JSON: close, a scenario file
//! it read, why it refused one, a tour's step. Both are Yew apps; the
//! panels' app mounts into `#panel-slot`, which the page renders empty.

use std::cell::RefCell;
use std::rc::Rc;

use js_sys::{Function, Object, Promise, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use yew::prelude::*;

use crate::command::Command;
use crate::panel::PanelCommand;

/// Where the panels' module stands.
#[derive(Clone, PartialEq)]
pub enum Load {
    Idle,
    Loading,
    Ready,
    /// It could not load, and why; closing the panel and opening it again
    /// tries again.
    Failed(String),
}

type OnCommand = Closure<dyn Fn(String)>;

#[derive(Default)]
struct Host {
    module: Option<JsValue>,
    loading: bool,
    /// What to show once the module has loaded (the newest).
    latest: Option<String>,
    /// A file dropped on the page while the module loads.
    dropped: Option<web_sys::File>,
    on_command: Option<Rc<OnCommand>>,
}

async fn load_module() -> Result<JsValue, JsValue> {
    let module = JsFuture::from(crate::browser::import_module(
        &crate::browser::beside_page("lease-panels.js"),
    )?)
    .await?;
    let init: Function = Reflect::get(&module, &"default".into())?.dyn_into()?;
    let opts = Object::new();
    Reflect::set(
        &opts,
        &"module_or_path".into(),
        &crate::browser::beside_page("lease-panels_bg.wasm").into(),
    )?;
    JsFuture::from(init.call1(&JsValue::NULL, &opts)?.dyn_into::<Promise>()?).await?;
    Ok(module)
}

fn call(module: &JsValue, name: &str, args: &[&JsValue]) -> Result<(), JsValue> {
    let f: Function = Reflect::get(module, &name.into())?.dyn_into()?;
    match args {
        [a, b] => f.call2(module, a, b),
        _ => f.call0(module),
    }
    .map(|_| ())
}

fn explain(e: &JsValue) -> String {
    e.dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| e.as_string())
        .unwrap_or_else(|| "the browser gave no reason".into())
}

/// The page's command for what a panel sent (`PanelCommand` as JSON).
fn command_of(text: &str) -> Command {
    let c = match PanelCommand::from_json(text) {
        Ok(c) => c,
        Err(e) => {
            return Command::Reject(format!(
                "The panel sent a message the page cannot read: {e}"
            ))
        }
    };
    match c {
        PanelCommand::Close => Command::Panel(None),
        PanelCommand::Import { scenario, ignored } => {
            match lease_sim::parse_scenario_without_path(&scenario) {
                Ok(s) => Command::Import(Box::new(s), ignored),
                Err(e) => {
                    Command::Reject(format!("The imported scenario did not arrive whole: {e}"))
                }
            }
        }
        PanelCommand::Reject(why) => Command::Reject(why),
        // An edit of the scenario on screen, run and linked as a control's.
        PanelCommand::UseWork(scenario) => {
            match lease_sim::parse_scenario_without_path(&scenario) {
                Ok(s) => Command::Replace(Box::new(s)),
                Err(e) => Command::Reject(format!("The latency data did not arrive whole: {e}")),
            }
        }
        // The timeline menu's change, read and checked as a link's scenario.
        PanelCommand::Replace { scenario, said } => {
            match lease_sim::parse_scenario_without_path(&scenario) {
                Ok(s) => Command::Act(Box::new(s), said),
                Err(e) => Command::Reject(format!("The change did not arrive whole: {e}")),
            }
        }
        PanelCommand::Fork { scenario } => {
            match lease_sim::parse_scenario_without_path(&scenario) {
                Ok(s) => Command::Fork(Box::new(s)),
                Err(e) => Command::Reject(format!("The fork did not arrive whole: {e}")),
            }
        }
        PanelCommand::StartTour(id) => Command::StartTour(id),
        PanelCommand::Present(on) => Command::Present(on),
        PanelCommand::Interview(on) => Command::Interview(on),
        PanelCommand::Reveal(figure) => Command::Reveal(figure),
        // The notes panel writes only notes that read; the page keeps their
        // link form, and a link that carries them reads each one again.
        PanelCommand::Notes(list) => Command::Notes(list),
        PanelCommand::Select(m) => Command::Select(Some(m)),
        PanelCommand::TourStep(i) => Command::TourStep(i),
        PanelCommand::TourReturn(i) => Command::TourReturn(i),
        PanelCommand::Seek(ms) => Command::Seek(ms),
        // Read as a link's field is, so a panel cannot set what a link could not.
        PanelCommand::Set { field, value } => match lease_fields::find(&field) {
            Some(f) => match f.spec().parse(&value) {
                Ok(v) => Command::Set(f, v),
                Err(why) => Command::Reject(format!("The setting {field} = \"{value}\" {why}.")),
            },
            None => Command::Reject(format!("The page has no setting named \"{field}\".")),
        },
        PanelCommand::TourDemo { tour, step } => {
            let fixes = lease_diagnose::tour(&tour)
                .and_then(|t| t.steps.get(step))
                .map_or(&[][..], |s| s.demo);
            Command::Fix(fixes.to_vec())
        }
    }
}

fn on_command(host: &Host) -> JsValue {
    host.on_command
        .as_ref()
        .map_or(JsValue::NULL, |c| c.as_ref().as_ref().clone())
}

fn show(module: &JsValue, host: &Host, view: &str) -> Result<(), JsValue> {
    call(module, "show", &[&view.into(), &on_command(host)])
}

fn read_file(module: &JsValue, host: &Host, file: &web_sys::File) -> Result<(), JsValue> {
    call(module, "import_file", &[file.as_ref(), &on_command(host)])
}

/// The panels' module as the page uses it.
pub struct PanelHost {
    pub load: Load,
    /// Reads a scenario file dropped on the page, loading the module first
    /// if need be; the module answers with `Command::Import` or `Reject`.
    pub import: Callback<web_sys::File>,
    /// Starts loading the module, if it is not there, as the pointer or the
    /// focus reaches the buttons that open the panels: the fetch then starts
    /// some way before the click.
    pub warm: Callback<()>,
}

/// Shows `view` (a `PanelView` as JSON) in the panels' module, loading it
/// first if need be; `None` hides the panel.
#[hook]
pub fn use_panel_host(view: Option<String>, dispatch: Callback<Command>) -> PanelHost {
    let load = use_state(|| Load::Idle);
    let host = use_mut_ref(Host::default);
    if host.borrow().on_command.is_none() {
        let dispatch = dispatch.clone();
        host.borrow_mut().on_command = Some(Rc::new(Closure::new(move |text: String| {
            dispatch.emit(command_of(&text))
        })));
    }
    let import = {
        let (load, host, dispatch) = (load.clone(), host.clone(), dispatch.clone());
        Callback::from(move |file: web_sys::File| {
            let module = host.borrow().module.clone();
            match module {
                Some(m) => {
                    if let Err(e) = read_file(&m, &host.borrow(), &file) {
                        dispatch.emit(Command::Reject(format!(
                            "The file could not be read: {}",
                            explain(&e)
                        )));
                    }
                }
                None => {
                    host.borrow_mut().dropped = Some(file);
                    start_loading(host.clone(), load.clone(), dispatch.clone());
                }
            }
        })
    };
    let warm = {
        let (load, host, dispatch) = (load.clone(), host.clone(), dispatch.clone());
        Callback::from(move |()| {
            if host.borrow().module.is_none() {
                start_loading(host.clone(), load.clone(), dispatch.clone());
            }
        })
    };
    {
        let (load, host) = (load.clone(), host.clone());
        let dispatch = dispatch.clone();
        use_effect_with(view, move |view| {
            host.borrow_mut().latest = view.clone();
            let module = host.borrow().module.clone();
            match (module, view) {
                (Some(m), Some(v)) => {
                    if let Err(e) = show(&m, &host.borrow(), v) {
                        load.set(Load::Failed(explain(&e)));
                    }
                }
                (Some(m), None) => {
                    let _ = call(&m, "hide", &[]);
                }
                (None, Some(_)) => start_loading(host, load, dispatch),
                (None, None) => {
                    if matches!(*load, Load::Failed(_)) {
                        load.set(Load::Idle);
                    }
                }
            }
        });
    }
    PanelHost {
        load: (*load).clone(),
        import,
        warm,
    }
}

fn start_loading(host: Rc<RefCell<Host>>, load: UseStateHandle<Load>, dispatch: Callback<Command>) {
    if std::mem::replace(&mut host.borrow_mut().loading, true) {
        return;
    }
    load.set(Load::Loading);
    wasm_bindgen_futures::spawn_local(async move {
        let loaded = load_module().await;
        let mut h = host.borrow_mut();
        h.loading = false;
        let dropped = h.dropped.take();
        match loaded {
            Ok(m) => {
                let shown = match &h.latest {
                    Some(v) => show(&m, &h, v),
                    None => Ok(()),
                };
                let read = dropped.map_or(Ok(()), |f| read_file(&m, &h, &f));
                h.module = Some(m);
                load.set(match shown {
                    Ok(()) => Load::Ready,
                    Err(e) => Load::Failed(explain(&e)),
                });
                if let Err(e) = read {
                    dispatch.emit(Command::Reject(format!(
                        "The file could not be read: {}",
                        explain(&e)
                    )));
                }
            }
            Err(e) => {
                let why = explain(&e);
                if dropped.is_some() {
                    dispatch.emit(Command::Reject(format!(
                        "The file could not be read: the part of the page that reads files did not load ({why}). Drop it again to try again."
                    )));
                }
                load.set(Load::Failed(why));
            }
        }
    });
}

/// `why` as a sentence of its own: the browser's messages often lack the stop.
fn sentence(why: &str) -> String {
    if why.ends_with('.') {
        why.to_string()
    } else {
        format!("{why}.")
    }
}

/// Where the panels' module draws, and what the page says while it loads or
/// if it cannot.
pub fn slot(load: &Load, dispatch: &Callback<Command>) -> Html {
    let close = dispatch.reform(|_: MouseEvent| Command::Panel(None));
    html! {
        <>
            <div id="panel-slot"></div>
            { match load {
                Load::Loading => html! { <p class="status panel-loading" role="status" id="panel-loading">{"Loading the panel…"}</p> },
                Load::Failed(why) => html! {
                    <div class="error" role="alert" id="panel-failed">
                        <strong>{"This panel could not load: "}</strong>{sentence(why)}
                        <span class="error-note">{" Close it and open it again to try again."}</span>
                        <button type="button" onclick={close}>{"Close"}</button>
                    </div>
                },
                _ => html! {},
            } }
        </>
    }
}
