//! The control panel: every slider and select, each labelled, showing its
//! value with units, each change a `Command::Edit` that re-simulates at once.

pub mod scale;
pub mod spec;
pub mod work_dist;

use std::rc::Rc;

use lease_sim::scenario::{Fence, OnReject, Preset, Scenario};
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use crate::command::Command;
use scale::STEPS;
use spec::{heartbeat, sliders, Slider};
use work_dist::{build, median_p99, shape, SHAPES};

#[derive(PartialEq)]
pub struct ControlsProps {
    pub scenario: Rc<Scenario>,
    pub loaded: Rc<Scenario>,
    pub on_command: Callback<Command>,
}

/// What the broker select does: the preset brings its broker's own defaults
/// (timeout, redrive, switches), so the fields it sets are reset. A share
/// link's `broker=` replays this.
pub(crate) fn choose_preset(s: &mut Scenario, p: Preset) {
    s.broker.preset = p;
    s.broker.visibility_timeout_ms = None;
    s.broker.max_receive_count = None;
    s.broker.max_lease_lifetime_ms = None;
    s.broker.dlq_timing = None;
    s.broker.late_ack = None;
    s.broker.count_at = None;
}

pub fn preset_name(p: Preset) -> &'static str {
    match p {
        Preset::Textbook => "textbook",
        Preset::SqsStandard => "sqs_standard",
        Preset::SqsFifo => "sqs_fifo",
        Preset::AzureServiceBus => "azure_service_bus",
        Preset::GooglePubsub => "google_pubsub",
    }
}

fn preset_label(p: Preset) -> &'static str {
    match p {
        Preset::Textbook => "Textbook rules",
        Preset::SqsStandard => "Amazon SQS standard",
        Preset::SqsFifo => "Amazon SQS FIFO (one group)",
        Preset::AzureServiceBus => "Azure Service Bus",
        Preset::GooglePubsub => "Google Pub/Sub",
    }
}

pub fn fence_name(f: Fence) -> &'static str {
    match f {
        Fence::None => "none",
        Fence::CheckThenWrite => "check_then_write",
        Fence::UniqueConstraint => "unique_constraint",
        Fence::FencingToken => "fencing_token",
    }
}

fn fence_label(f: Fence) -> &'static str {
    match f {
        Fence::None => "None: every run applies its effect",
        Fence::CheckThenWrite => "Check, then write",
        Fence::UniqueConstraint => "Unique constraint (one effect)",
        Fence::FencingToken => "Fencing token (receipt)",
    }
}

fn edit(cb: &Callback<Command>, f: impl Fn(&mut Scenario) + 'static) {
    cb.emit(Command::Edit(Rc::new(f)));
}

fn slider_view(sl: &Slider, s: &Scenario, cb: &Callback<Command>) -> Html {
    let live = sl.live(s);
    let pos = sl.scale.pos((sl.get)(s));
    let oninput = {
        let cb = cb.clone();
        let scale = sl.scale;
        let set = sl.set;
        Callback::from(move |e: InputEvent| {
            let v: u32 = e
                .target_unchecked_into::<HtmlInputElement>()
                .value()
                .parse()
                .unwrap_or(0);
            let value = scale.value(v);
            edit(&cb, move |s| set(s, value));
        })
    };
    let toggle = sl.toggle.as_ref().map(|t| {
        let checked = (t.get)(s);
        let set = t.set;
        let cb = cb.clone();
        let onchange = Callback::from(move |e: Event| {
            let on = e.target_unchecked_into::<HtmlInputElement>().checked();
            edit(&cb, move |s| set(s, on));
        });
        html! {
            <label class="toggle" for={t.id}>
                <input type="checkbox" id={t.id} checked={checked} {onchange} />
                {t.label}
            </label>
        }
    });
    let id = format!("ctl-{}", sl.id);
    html! {
        <div class={classes!("control", (!live).then_some("control-off"))}>
            <div class="control-row">
                <label for={id.clone()}>{sl.label}</label>
                <output for={id.clone()} id={format!("out-{}", sl.id)}>{sl.describe(s)}</output>
            </div>
            <input type="range" id={id} min="0" max={STEPS.to_string()} step="1"
                value={pos.to_string()} disabled={!live} {oninput} />
            {toggle}
        </div>
    }
}

fn select_view(
    id: &'static str,
    label: &'static str,
    options: Vec<(String, String)>,
    current: &str,
    onchange: Callback<String>,
) -> Html {
    let onchange = Callback::from(move |e: Event| {
        onchange.emit(e.target_unchecked_into::<HtmlSelectElement>().value());
    });
    html! {
        <div class="control">
            <label for={id}>{label}</label>
            <select id={id} {onchange}>
                { for options.into_iter().map(|(v, text)| html! {
                    <option value={v.clone()} selected={v == current}>{text}</option>
                }) }
            </select>
        </div>
    }
}

fn scenario_select(loaded: &Scenario, cb: &Callback<Command>) -> Html {
    let all = crate::catalog::ENTRIES;
    let cb = cb.clone();
    let shown = loaded.name.clone();
    let onchange = Callback::from(move |e: Event| {
        let select = e.target_unchecked_into::<HtmlSelectElement>();
        let name = select.value();
        // The menu names the scenario the page shows until the chosen one
        // has loaded (it may be fetched first, `catalog`), or if it cannot.
        select.set_value(&shown);
        cb.emit(Command::Load(name));
    });
    let mains: Vec<_> = all.iter().filter(|s| s.variant_of.is_none()).collect();
    html! {
        <div class="control">
            <label for="ctl-scenario">{"Scenario"}</label>
            // `selected` sets the first choice; the property follows every
            // later one, which an attribute no longer does once a visitor
            // has used the menu.
            <select id="ctl-scenario" {onchange} ~value={loaded.name.clone()}>
                { for mains.iter().enumerate().map(|(i, m)| {
                    let variants: Vec<_> = all.iter().filter(|v| v.variant_of == Some(m.name)).collect();
                    html! {
                        <optgroup label={format!("{}. {}", i + 1, m.title)}>
                            <option value={m.name} selected={loaded.name == m.name}>{m.title}</option>
                            { for variants.iter().map(|v| html! {
                                <option value={v.name} selected={loaded.name == v.name}>{format!("Fix or compare: {}", v.title)}</option>
                            }) }
                        </optgroup>
                    }
                }) }
            </select>
        </div>
    }
}

fn seed_input(props: &ControlsProps) -> Html {
    let cb = props.on_command.clone();
    let seed = props.scenario.seed;
    let onchange = {
        let cb = cb.clone();
        Callback::from(move |e: Event| {
            let input = e.target_unchecked_into::<HtmlInputElement>();
            let text = input.value();
            match text.trim().parse::<u64>() {
                Ok(n) => edit(&cb, move |s| s.seed = n),
                Err(_) => {
                    input.set_value(&seed.to_string());
                    cb.emit(Command::Reject(format!(
                        "Seed {:?} is not a whole number from 0 to {}; the seed stays {seed}.",
                        text.chars().take(40).collect::<String>(),
                        u64::MAX
                    )));
                }
            }
        })
    };
    let new_seed = Callback::from(move |_: MouseEvent| {
        // Any other seed will do; derive it so that the page stays deterministic.
        let next = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407)
            >> 16;
        edit(&cb, move |s| s.seed = next);
    });
    html! {
        <div class="control">
            <label for="ctl-seed">{"Seed"}</label>
            <div class="seed-row">
                <input type="text" inputmode="numeric" id="ctl-seed" value={seed.to_string()} {onchange} />
                <button type="button" id="new-seed" onclick={new_seed}>{"New seed"}</button>
            </div>
        </div>
    }
}

pub fn controls(props: &ControlsProps) -> Html {
    let s = &*props.scenario;
    let cb = &props.on_command;
    let all = sliders();
    let mut groups: Vec<(&'static str, Vec<Html>)> = Vec::new();
    for sl in all {
        let g = sl.group;
        let view = slider_view(sl, s, cb);
        match groups.iter_mut().find(|(name, _)| *name == g) {
            Some((_, v)) => v.push(view),
            None => groups.push((g, vec![view])),
        }
    }

    let preset = {
        let cb = cb.clone();
        select_view(
            "ctl-broker",
            "Broker",
            Preset::ALL
                .iter()
                .map(|p| (preset_name(*p).to_string(), preset_label(*p).to_string()))
                .collect(),
            preset_name(s.broker.preset),
            Callback::from(move |v: String| {
                let Some(p) = Preset::ALL.iter().copied().find(|p| preset_name(*p) == v) else {
                    return;
                };
                edit(&cb, move |s| choose_preset(s, p));
            }),
        )
    };
    let fence = {
        let cb = cb.clone();
        select_view(
            "ctl-fence",
            "Store fence",
            Fence::ALL
                .iter()
                .map(|f| (fence_name(*f).to_string(), fence_label(*f).to_string()))
                .collect(),
            fence_name(s.store.fence),
            Callback::from(move |v: String| {
                if let Some(f) = Fence::ALL.iter().copied().find(|f| fence_name(*f) == v) {
                    edit(&cb, move |s| s.store.fence = f);
                }
            }),
        )
    };
    let dist = {
        let cb = cb.clone();
        let (m, q) = median_p99(&s.work.dist);
        select_view(
            "ctl-dist",
            "Distribution",
            SHAPES
                .iter()
                .map(|(v, t)| (v.to_string(), t.to_string()))
                .collect(),
            shape(&s.work.dist),
            Callback::from(move |v: String| {
                edit(&cb, move |s| s.work.dist = build(&v, m, q));
            }),
        )
    };
    let on_reject = {
        let cb = cb.clone();
        let current = heartbeat(s).map_or(OnReject::Continue, |h| h.on_reject);
        let mut v = select_view(
            "ctl-on-reject",
            "On a rejected extension",
            vec![
                (
                    "continue".into(),
                    "Keep working (believes it holds the lease)".into(),
                ),
                ("abort".into(), "Abort the handler".into()),
            ],
            if current == OnReject::Abort {
                "abort"
            } else {
                "continue"
            },
            Callback::from(move |v: String| {
                let r = if v == "abort" {
                    OnReject::Abort
                } else {
                    OnReject::Continue
                };
                edit(&cb, move |s| {
                    if let Some(Some(h)) = &mut s.workers.heartbeat {
                        h.on_reject = r;
                    }
                });
            }),
        );
        if heartbeat(s).is_none() || !matches!(s.workers.heartbeat, Some(Some(_))) {
            v = html! {};
        }
        v
    };
    let (m, q) = median_p99(&s.work.dist);
    html! {
        <form class="controls" aria-label="Scenario controls" onsubmit={Callback::from(|e: SubmitEvent| e.prevent_default())}>
            {scenario_select(&props.loaded, cb)}
            { seed_input(props) }
            { for groups.into_iter().map(|(name, items)| html! {
                <fieldset class="group">
                    <legend>{name}</legend>
                    if name == "Broker" { {preset.clone()} }
                    if name == "Work" {
                        {dist.clone()}
                        <p class="dist-summary" id="dist-summary">{format!("p50 {}, p99 {}", scale::fmt_ms(m), scale::fmt_ms(q))}</p>
                    }
                    { for items }
                    if name == "Heartbeat" { {on_reject.clone()} }
                    if name == "Downstream" { {fence.clone()} }
                </fieldset>
            }) }
        </form>
    }
}
