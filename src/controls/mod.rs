//! The control panel: every slider and select, each labelled, showing its
//! value with units, each change one field of `lease_fields`' table.

pub use lease_ui::scale;
mod work_chart;

use std::rc::Rc;

use lease_fields::edit::heartbeat;

use lease_fields::work::{median_p99, shape, Shape};
use lease_fields::{Control, Field, Group, Range, Step, Unit, Value, CONTROLS};
use lease_format::display;
use lease_sim::scenario::{Fence, Library, Named, OnReject, Preset, Scenario};
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use crate::command::Command;
use crate::panel::Panel;
use scale::{Scale, STEPS};

#[derive(PartialEq)]
pub struct ControlsProps {
    pub scenario: Rc<Scenario>,
    pub loaded: Rc<Scenario>,
    pub on_command: Callback<Command>,
}

// The selects' labels, in each enum's `Named` order (the scenario file's
// words; `labels_follow_the_words_order` holds them to it): the select
// pairs each word with the label at its place.
// Short enough for the side column's select at any width the page is laid
// out for; what each system is, and its lease, is said under the select
// (`PRESET_NAMES`).
const PRESET_LABELS: [&str; 15] = [
    "Textbook rules",
    "SQS standard",
    "SQS FIFO",
    "Service Bus",
    "Pub/Sub",
    "RabbitMQ to 4.2",
    "RabbitMQ 4.3+",
    "NATS JetStream",
    "Redis Streams",
    "BullMQ",
    "Celery on Redis",
    "Celery on SQS",
    "Temporal activity",
    "Cloud Tasks",
    "Sidekiq Pro",
];

/// Each preset's whole name, said under the broker select (what its short
/// label leaves out) and in the note a change of broker writes.
const PRESET_NAMES: [&str; 15] = [
    "Textbook rules (no broker)",
    "Amazon SQS standard",
    "Amazon SQS FIFO (one group)",
    "Azure Service Bus",
    "Google Pub/Sub",
    "RabbitMQ 3.x to 4.2",
    "RabbitMQ 4.3 and later (quorum queues)",
    "NATS JetStream consumer",
    "Redis Streams consumer group",
    "BullMQ on Redis",
    "Celery, Redis transport",
    "Celery, SQS transport",
    "Temporal activity (StartToClose)",
    "Google Cloud Tasks (HTTP target)",
    "Sidekiq Pro (super_fetch)",
];

const CLIENT_LABELS: [&str; 4] = [
    "No client help",
    "Google Pub/Sub client",
    "Azure Service Bus processor",
    "AWS Lambda on SQS",
];

// Short enough for the side column's select at any width the page is laid
// out for; what each does is said under the select (`FENCE_SUMMARIES`).
const FENCE_LABELS: [&str; 4] = [
    "None",
    "Check, then write",
    "Unique constraint",
    "Fencing token",
];

/// What each fence does, as docs/MODEL.md's "destination store" says it.
const FENCE_SUMMARIES: [&str; 4] = [
    "Every completed run applies its effect.",
    "A processed-ids check at start, a separate write at commit: stops sequential duplicates, not overlapping ones.",
    "The id and the effect are written in one transaction: exactly one effect.",
    "The store rejects a receipt lower than one it applied: stops the stale holder that commits late.",
];

// Short enough for the side column's select; the field's label says when
// each applies ("On a rejected extension").
const ON_REJECT_LABELS: [&str; 2] = ["Keep working", "Abort the handler"];

fn preset_label(p: Preset) -> &'static str {
    PRESET_LABELS[p.index()]
}

fn preset_name(p: Preset) -> &'static str {
    PRESET_NAMES[p.index()]
}

/// The broker select's groups, by who runs the lease: Textbook rules on
/// their own, then the services a cloud runs for you, the brokers you run
/// yourself, and the job frameworks whose own workers hold the lease.
const PRESET_GROUPS: [(&str, &[Preset]); 3] = [
    (
        "Cloud services",
        &[
            Preset::SqsStandard,
            Preset::SqsFifo,
            Preset::AzureServiceBus,
            Preset::GooglePubsub,
            Preset::CloudTasks,
        ],
    ),
    (
        "Brokers you run",
        &[
            Preset::Rabbitmq42,
            Preset::Rabbitmq43,
            Preset::NatsJetstream,
            Preset::RedisStreams,
        ],
    ),
    (
        "Job frameworks",
        &[
            Preset::Bullmq,
            Preset::CeleryRedis,
            Preset::CelerySqs,
            Preset::TemporalActivity,
            Preset::SidekiqPro,
        ],
    ),
];

/// The broker select: Textbook rules first, then each group under its
/// `<optgroup>` label, which a screen reader announces with the option.
fn preset_select(s: &Scenario, cb: &Callback<Command>) -> Html {
    let current = s.broker.preset;
    let option = |p: Preset| {
        let word = Preset::WORDS[p.index()];
        html! { <option value={word} selected={p == current}>{preset_label(p)}</option> }
    };
    let cb = cb.clone();
    // The broker's choice keeps the person's own timeout and redrive.
    let onchange = Callback::from(move |e: Event| {
        let v = e.target_unchecked_into::<HtmlSelectElement>().value();
        if let Some(i) = Preset::WORDS.iter().position(|w| *w == v) {
            cb.emit(Command::ChoosePreset(Preset::NAMES[i].0));
        }
    });
    html! {
        <div class="control">
            <label for="ctl-broker">{"Broker"}</label>
            <select id="ctl-broker" aria-describedby="broker-summary" {onchange}>
                {option(Preset::Textbook)}
                { for PRESET_GROUPS.iter().map(|(label, presets)| html! {
                    <optgroup label={*label}>
                        { for presets.iter().map(|p| option(*p)) }
                    </optgroup>
                }) }
            </select>
            <p class="dist-summary" id="broker-summary" data-preset={Preset::WORDS[current.index()]}>
                {preset_name(current)}
            </p>
        </div>
    }
}

/// Under the client select: what the chosen library does to the lease
/// (docs/MODEL.md, "Client libraries").
fn client_note(s: &Scenario) -> Html {
    use lease_sim::resolve::{client_policy, ClientPolicy};
    let note = match client_policy(s.workers.client.as_ref()) {
        ClientPolicy::None => "The heartbeat settings extend the lease.".to_string(),
        ClientPolicy::Pubsub { max_lease_ms } => format!(
            "Extends by the p99 of this worker's ack delays (10 s to 10 min), for up to {} after the receive.",
            display::duration_about(max_lease_ms as f64)
        ),
        ClientPolicy::ServiceBus { max_renewal_ms } => format!(
            "Renews the lock before it expires, for up to {} after the receive; then the lock is lost.",
            display::duration_about(max_renewal_ms as f64)
        ),
        ClientPolicy::SqsLambda { function_timeout_ms } => format!(
            "The function timeout ({}) kills the handler: no ack. Choosing it sets the visibility timeout to 6 × the function timeout (AWS's advice).",
            display::duration_about(function_timeout_ms as f64)
        ),
    };
    html! { <p class="dist-summary" id="client-note">{note}</p> }
}

/// The slider's positions for a field's range.
pub fn slider_scale(r: Range) -> Scale {
    if r.log && r.zero {
        Scale::LogFromZero {
            min: r.min,
            max: r.max,
        }
    } else if r.log {
        Scale::Log {
            min: r.min,
            max: r.max,
        }
    } else {
        Scale::Linear {
            min: r.min,
            max: r.max,
        }
    }
}

/// A slider's value as the page shows it beside the slider.
fn show(unit: Unit, x: f64) -> String {
    match unit {
        // Exact, as the link writes it: 135 s, not 2.2 min.
        Unit::Ms if x.is_finite() && x >= 0.0 => display::duration(x.round() as u64),
        Unit::Ms => display::duration_about(x),
        Unit::Count => x.round().to_string(),
        Unit::Ratio => format!("{x:.2}"),
        Unit::Percent => format!("{:.0}%", x * 100.0),
        Unit::PerSecond => display::rate(x),
        Unit::Handlers => format!("{} handlers", x.round()),
    }
}

/// What the control shows: its value, or what the toggle says instead.
pub fn describe(c: &Control, s: &Scenario) -> String {
    match &c.toggle {
        // A switch that is off ("Heartbeat on", unchecked) says so; a
        // special value that is on ("No cap", checked) names itself.
        Some(t) if (t.get)(s) != t.enables && t.enables => "off".into(),
        Some(t) if (t.get)(s) != t.enables => t.label.to_string(),
        _ if !(c.applies)(s) => "off".into(),
        _ => show(c.unit, (c.get)(s)),
    }
}

/// Under the broker select once another broker is chosen: which of the
/// broker's sliders keep the person's values, and what the preset set.
fn preset_note(s: &Scenario, loaded: &Scenario) -> Html {
    if s.broker.preset == loaded.broker.preset {
        return html! {};
    }
    let (b, l) = (&s.broker, &loaded.broker);
    let mine = [
        b.visibility_timeout_ms.is_some() && b.visibility_timeout_ms != l.visibility_timeout_ms,
        b.max_receive_count.is_some() && b.max_receive_count != l.max_receive_count,
    ];
    let (mut set, mut kept) = (String::new(), String::new());
    for (field, mine) in [Field::Timeout, Field::Mrc].into_iter().zip(mine) {
        if let Some(c) = field.control() {
            let list = if mine { &mut kept } else { &mut set };
            *list += if list.is_empty() { " " } else { "; " };
            *list += c.label;
            *list += ": ";
            *list += &describe(c, s);
        }
    }
    let mut note = preset_name(b.preset).to_string();
    note += " has its own ack and redrive rules.";
    if !set.is_empty() {
        note += " It sets";
        note += &set;
        note.push('.');
    }
    if !kept.is_empty() {
        note += " Kept as you set them:";
        note += &kept;
        note.push('.');
    }
    html! { <p class="dist-summary" id="preset-note" role="status">{note}</p> }
}

fn send(cb: &Callback<Command>, field: Field, value: Value) {
    cb.emit(Command::Set(field, value));
}

fn slider_view(
    field: Field,
    c: &'static Control,
    scenario: &Rc<Scenario>,
    cb: &Callback<Command>,
) -> Html {
    let s = &**scenario;
    let live = c.live(s);
    let scale = slider_scale(c.range);
    let pos = scale.pos((c.get)(s));
    let oninput = {
        let cb = cb.clone();
        let current = scenario.clone();
        Callback::from(move |e: InputEvent| {
            let v: u32 = e
                .target_unchecked_into::<HtmlInputElement>()
                .value()
                .parse()
                .unwrap_or(0);
            send(&cb, field, c.at(&current, scale.value(v)));
        })
    };
    // A native range steps by one of its thousand positions, which the
    // value's rounding undoes; the keys step by the control's precision.
    let onkeydown = {
        let cb = cb.clone();
        let current = scenario.clone();
        Callback::from(move |e: KeyboardEvent| {
            if e.ctrl_key() || e.meta_key() || e.alt_key() {
                return;
            }
            let Some(step) = Step::of_key(&e.key()) else {
                return;
            };
            e.prevent_default();
            let next = c.step((c.get)(&current), step);
            send(&cb, field, c.at(&current, next));
        })
    };
    let entry = {
        let cb = cb.clone();
        let shown = describe(c, s);
        Callback::from(move |e: Event| {
            let input = e.target_unchecked_into::<HtmlInputElement>();
            let text = input.value();
            input.set_value("");
            if text.trim().is_empty() {
                return;
            }
            match field.spec().parse(&text) {
                Ok(v) => send(&cb, field, v),
                Err(why) => cb.emit(Command::Reject(format!(
                    "{} \"{}\": {why}. It stays {shown}.",
                    c.label,
                    text.chars().take(40).collect::<String>(),
                ))),
            }
        })
    };
    let toggle = c.toggle.as_ref().map(|t| {
        let checked = (t.get)(s);
        let cb = cb.clone();
        let onchange = Callback::from(move |e: Event| {
            let on = e.target_unchecked_into::<HtmlInputElement>().checked();
            send(&cb, field, if on { t.checked.clone() } else { t.unchecked.clone() });
        });
        html! {
            <label class="toggle" for={t.id}>
                <input type="checkbox" id={t.id} checked={checked} disabled={!(c.applies)(s)} {onchange} />
                {t.label}
            </label>
        }
    });
    // A control its own checkbox greys says so, in words by the control and
    // as the slider's and the box's description.
    let why_off = c.toggle.as_ref().and_then(|t| {
        let checked = (t.get)(s);
        ((c.applies)(s) && checked != t.enables).then(|| {
            let state = if checked { "checked" } else { "unchecked" };
            format!("Off while \"{}\" is {state}.", t.label)
        })
    });
    let why_id = format!("why-off-{}", c.id);
    let described_by = why_off.as_ref().map(|_| why_id.clone());
    let id = format!("ctl-{}", c.id);
    let shown = describe(c, s);
    // The slider's position is a step of a thousand; a screen reader says
    // the value, in words and units, as the page shows it beside the slider.
    let said = display::spoken(&shown);
    html! {
        <div class={classes!("control", (!live).then_some("control-off"))}>
            <div class="control-row">
                <label for={id.clone()}>{c.label}</label>
                // Not live: the slider itself says its value to the person
                // moving it, and the run's summary says what changed.
                <span class="value" id={format!("out-{}", c.id)}>{shown}</span>
                <input type="text" class="entry" id={format!("in-{}", c.id)} size="6"
                    placeholder="type" aria-label={format!("Type a value for {}, now {said}", c.label)}
                    title="Type a value, as in a share link: 135s, 2.5min, 5%" disabled={!live}
                    aria-describedby={described_by.clone()} onchange={entry} />
            </div>
            <input type="range" id={id} min="0" max={STEPS.to_string()} step="1"
                value={pos.to_string()} aria-valuetext={said} disabled={!live}
                aria-describedby={described_by} {oninput} {onkeydown} />
            {toggle}
            if let Some(why) = why_off {
                <span class="why-off" id={why_id}>{why}</span>
            }
        </div>
    }
}

/// A button that opens a panel loaded on demand: one closure type for
/// every such button of the controls.
fn open_button(cb: &Callback<Command>, id: &'static str, panel: Panel, text: &'static str) -> Html {
    let onclick = cb.reform(move |_: MouseEvent| Command::Panel(Some(panel)));
    html! { <button type="button" {id} {onclick}>{text}</button> }
}

fn select_view(
    id: &'static str,
    label: &'static str,
    options: Vec<(String, String)>,
    current: &str,
    onchange: Callback<String>,
    described_by: Option<&'static str>,
) -> Html {
    let onchange = Callback::from(move |e: Event| {
        onchange.emit(e.target_unchecked_into::<HtmlSelectElement>().value());
    });
    html! {
        <div class="control">
            <label for={id}>{label}</label>
            <select id={id} {onchange} aria-describedby={described_by}>
                { for options.into_iter().map(|(v, text)| html! {
                    <option value={v.clone()} selected={v == current}>{text}</option>
                }) }
            </select>
        </div>
    }
}

fn own_title(s: &Scenario) -> String {
    if s.title.is_empty() {
        s.name.clone()
    } else {
        s.title.clone()
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
                // A scenario of one's own (a file, a link's data, "your
                // system") is named rather than leaving the menu blank.
                if !all.iter().any(|e| e.name == loaded.name) {
                    <option value={loaded.name.clone()} selected=true disabled=true>{own_title(loaded)}</option>
                }
                { for mains.iter().enumerate().map(|(i, m)| {
                    let variants: Vec<_> = all.iter().filter(|v| v.variant_of == Some(m.name)).collect();
                    html! {
                        <optgroup label={format!("{}. {}", i + 1, m.menu)}>
                            <option value={m.name} title={m.title} selected={loaded.name == m.name}>{m.menu}</option>
                            { for variants.iter().map(|v| html! {
                                <option value={v.name} title={v.title} selected={loaded.name == v.name}>{v.menu}</option>
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
                Ok(n) => send(&cb, Field::Seed, Value::Num(n)),
                Err(_) => {
                    input.set_value(&seed.to_string());
                    cb.emit(Command::Reject(format!(
                        "Seed \"{}\" is not a whole number from 0 to {}; the seed stays {seed}.",
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
        send(&cb, Field::Seed, Value::Num(next));
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

/// A select of an enum's words (the scenario file's names), each with its
/// label; `pick` gets the chosen word's place in the enum's table.
#[allow(clippy::too_many_arguments)]
fn words_select(
    id: &'static str,
    label: &'static str,
    pick: fn(usize) -> Command,
    words: &'static [&'static str],
    labels: &[&'static str],
    current: usize,
    cb: &Callback<Command>,
    described_by: Option<&'static str>,
) -> Html {
    let options = words
        .iter()
        .zip(labels)
        .map(|(w, l)| (w.to_string(), l.to_string()))
        .collect();
    let cb = cb.clone();
    select_view(
        id,
        label,
        options,
        words.get(current).copied().unwrap_or(""),
        Callback::from(move |v: String| {
            if let Some(i) = words.iter().position(|w| *w == v) {
                cb.emit(pick(i));
            }
        }),
        described_by,
    )
}

pub fn controls(props: &ControlsProps) -> Html {
    crate::memo::count_render("controls");
    let s = &*props.scenario;
    let cb = &props.on_command;
    let mut groups: Vec<(Group, Vec<Html>)> = Vec::new();
    for field in CONTROLS {
        let Some(c) = field.control() else { continue };
        // The function timeout is the Lambda client's own setting.
        if c.id == "function-timeout" && !(c.applies)(s) {
            continue;
        }
        let g = c.group;
        let mut view = slider_view(field, c, &props.scenario, cb);
        if c.id == "timeout" {
            // The Recommend panel (loaded on demand) answers what to set here.
            view = html! {
                <>
                {view}
                {open_button(cb, "open-recommend", Panel::Recommend, "Recommend a timeout…")}
                </>
            };
        }
        match groups.iter_mut().find(|(name, _)| *name == g) {
            Some((_, v)) => v.push(view),
            None => groups.push((g, vec![view])),
        }
    }

    let preset = preset_select(s, cb);
    let client = words_select(
        "ctl-client",
        "Client library",
        |i| Command::Set(Field::Client, Library::NAMES[i].0.into()),
        Library::WORDS,
        &CLIENT_LABELS,
        lease_fields::edit::library(s).index(),
        cb,
        None,
    );
    let fence = words_select(
        "ctl-fence",
        "Store fence",
        |i| Command::Set(Field::Fence, Fence::NAMES[i].0.into()),
        Fence::WORDS,
        &FENCE_LABELS,
        s.store.fence.index(),
        cb,
        Some("fence-summary"),
    );
    let fence_summary = html! {
        <p class="dist-summary" id="fence-summary" data-fence={Fence::WORDS[s.store.fence.index()]}>
            {FENCE_SUMMARIES[s.store.fence.index()]}
        </p>
    };
    let dist = {
        let cb = cb.clone();
        select_view(
            "ctl-dist",
            "Distribution",
            Shape::ALL
                .iter()
                .map(|v| (v.word().to_string(), v.label().to_string()))
                .collect(),
            shape(&s.work.dist).word(),
            Callback::from(move |v: String| {
                if let Some(w) = Shape::ALL.into_iter().find(|w| w.word() == v) {
                    send(&cb, Field::Dist, w.into());
                }
            }),
            None,
        )
    };
    // Offered only for a heartbeat in the file (not a preset's client default).
    let on_reject = if matches!(s.workers.heartbeat, Some(Some(_))) && heartbeat(s).is_some() {
        let current = heartbeat(s).map_or(OnReject::Continue, |h| h.on_reject);
        words_select(
            "ctl-on-reject",
            "On a rejected extension",
            |i| Command::Set(Field::OnReject, OnReject::NAMES[i].0.into()),
            OnReject::WORDS,
            &ON_REJECT_LABELS,
            current.index(),
            cb,
            None,
        )
    } else {
        html! {}
    };
    let (m, q) = median_p99(&s.work.dist);
    let config = lease_sim::resolve::resolve(s);
    let chart = crate::memo::memo(
        work_chart::WorkChart {
            dist: s.work.dist.clone(),
            timeout_ms: config.visibility_timeout_ms,
            heartbeat: config.heartbeat.map(|h| (h.interval_ms, h.max_extensions)),
        },
        work_chart::view,
    );
    html! {
        <form class="controls" aria-label="Scenario controls" onsubmit={Callback::from(|e: SubmitEvent| e.prevent_default())}>
            {scenario_select(&props.loaded, cb)}
            { seed_input(props) }
            { for groups.into_iter().map(|(name, items)| html! {
                <fieldset class="group">
                    <legend>{name.label()}</legend>
                    if name == Group::Broker { {preset.clone()} {preset_note(s, &props.loaded)} {client.clone()} {client_note(s)}
                        // The comparison itself is in the panels module, loaded when opened.
                        {open_button(cb, "broker-rules", Panel::Presets, "How the presets differ")}
                        if lease_fields::rules_for(s.broker.preset).next().is_some() {
                            {open_button(cb, "open-rules", Panel::Rules, "Broker rules…")}
                        }
                    }
                    if name == Group::Work {
                        {dist.clone()}
                        <p class="dist-summary" id="dist-summary">{format!(
                            "p50 {}, p99 {}",
                            display::duration_about(m),
                            display::duration_about(q),
                        )}</p>
                        {open_button(cb, "open-latency", Panel::Latency, "Use your data…")}
                    }
                    { for items }
                    if name == Group::Work { {chart.clone()} }
                    if name == Group::Heartbeat { {on_reject.clone()} }
                    if name == Group::Downstream { {fence.clone()} {fence_summary.clone()} }
                </fieldset>
            }) }
        </form>
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use lease_sim::shipped;
    use proptest::prelude::*;

    /// Each label sits at its variant's place in the words' order, and
    /// there is one label a word.
    fn same_order<T: lease_sim::scenario::Named>(labels: &[&str], pairs: &[(T, &str)]) {
        assert_eq!(labels.len(), T::WORDS.len());
        for (v, label) in pairs {
            assert_eq!(labels[v.index()], *label);
        }
    }

    #[test]
    fn labels_follow_the_words_order() {
        let presets = [
            (Preset::Textbook, "Textbook rules"),
            (Preset::SqsStandard, "SQS standard"),
            (Preset::SqsFifo, "SQS FIFO"),
            (Preset::AzureServiceBus, "Service Bus"),
            (Preset::GooglePubsub, "Pub/Sub"),
            (Preset::Rabbitmq42, "RabbitMQ to 4.2"),
            (Preset::Rabbitmq43, "RabbitMQ 4.3+"),
            (Preset::NatsJetstream, "NATS JetStream"),
            (Preset::RedisStreams, "Redis Streams"),
            (Preset::Bullmq, "BullMQ"),
            (Preset::CeleryRedis, "Celery on Redis"),
            (Preset::CelerySqs, "Celery on SQS"),
            (Preset::TemporalActivity, "Temporal activity"),
            (Preset::CloudTasks, "Cloud Tasks"),
            (Preset::SidekiqPro, "Sidekiq Pro"),
        ];
        same_order(&PRESET_LABELS, &presets);
        let names = [
            (Preset::Rabbitmq43, "RabbitMQ 4.3 and later (quorum queues)"),
            (Preset::CloudTasks, "Google Cloud Tasks (HTTP target)"),
            (Preset::SidekiqPro, "Sidekiq Pro (super_fetch)"),
        ];
        same_order(&PRESET_NAMES, &names);
        for p in Preset::ALL {
            assert_ne!(
                preset_name(p),
                preset_label(p),
                "{p:?} says more under the select"
            );
        }
        let clients = [
            (Library::None, "No client help"),
            (Library::Pubsub, "Google Pub/Sub client"),
            (Library::ServiceBus, "Azure Service Bus processor"),
            (Library::SqsLambda, "AWS Lambda on SQS"),
        ];
        same_order(&CLIENT_LABELS, &clients);
        let fences = [
            (Fence::None, "None"),
            (Fence::CheckThenWrite, "Check, then write"),
            (Fence::UniqueConstraint, "Unique constraint"),
            (Fence::FencingToken, "Fencing token"),
        ];
        same_order(&FENCE_LABELS, &fences);
        let summaries = [
            (Fence::None, "Every completed run applies its effect."),
            (
                Fence::UniqueConstraint,
                "The id and the effect are written in one transaction: exactly one effect.",
            ),
        ];
        same_order(&FENCE_SUMMARIES, &summaries);
        let on_reject = [
            (OnReject::Continue, "Keep working"),
            (OnReject::Abort, "Abort the handler"),
        ];
        same_order(&ON_REJECT_LABELS, &on_reject);
    }

    /// Every preset is offered once: Textbook rules on its own, each
    /// other in exactly one group.
    #[test]
    fn the_broker_select_offers_each_preset_once_in_its_group() {
        let mut seen = vec![Preset::Textbook];
        for (_, presets) in PRESET_GROUPS {
            assert!(!presets.is_empty());
            seen.extend_from_slice(presets);
        }
        assert_eq!(seen.len(), Preset::ALL.len());
        for p in Preset::ALL {
            assert_eq!(seen.iter().filter(|q| **q == p).count(), 1, "{p:?}");
        }
        let brokers = PRESET_GROUPS[1].1;
        assert_eq!(brokers[0], Preset::Rabbitmq42);
        assert!(preset_name(Preset::Rabbitmq42).contains("3.x to 4.2"));
        assert!(preset_name(Preset::Rabbitmq43).contains("4.3 and later"));
    }

    /// The numbers in a text, as written.
    fn numbers(text: &str) -> Vec<&str> {
        text.split(|c: char| !(c.is_ascii_digit() || c == '.'))
            .filter(|n| n.bytes().any(|b| b.is_ascii_digit()))
            .collect()
    }

    fn significant(n: &str) -> usize {
        let digits: String = n.chars().filter(char::is_ascii_digit).collect();
        digits.trim_start_matches('0').trim_end_matches('0').len()
    }

    fn decimals(n: &str) -> usize {
        n.split_once('.').map_or(0, |(_, f)| f.len())
    }

    /// No float noise in a text: no number with more than three decimal
    /// places (a rate of 0.012 /s is the finest a control sets).
    fn clean(c: &Control, text: &str) -> Result<(), String> {
        places(c, text, 3)
    }

    /// A label rounds further: one decimal of a duration, two of a ratio.
    fn label(c: &Control, text: &str) -> Result<(), String> {
        places(c, text, 2)
    }

    fn places(c: &Control, text: &str, most: usize) -> Result<(), String> {
        match numbers(text).into_iter().find(|n| decimals(n) > most) {
            Some(n) => Err(format!("{}: {n} in \"{text}\"", c.id)),
            None => Ok(()),
        }
    }

    /// The value itself within the control's precision: a log slider's
    /// duration or rate keeps two significant figures.
    fn within_precision(c: &Control, x: f64) -> Result<(), String> {
        let text = x.to_string();
        clean(c, &text)?;
        let two_figures = c.range.log && !matches!(c.unit, Unit::Count | Unit::Handlers);
        if two_figures && significant(&text) > 2 {
            return Err(format!("{}: {text} has more than two figures", c.id));
        }
        Ok(())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]
        #[test]
        fn no_slider_position_shows_more_than_its_control_s_precision(
            which in 0..CONTROLS.len(),
            pos in 0..=STEPS,
            scenario in 0..shipped::all().len(),
        ) {
            let field = CONTROLS[which];
            let c = field.control().unwrap();
            let base = shipped::all()[scenario].scenario.clone();
            prop_assume!(c.live(&base));
            let sent = (c.value)(&base, slider_scale(c.range).value(pos));
            let mut s = base.clone();
            prop_assume!(lease_fields::set(&mut s, field, &sent).is_ok());
            let x = (c.get)(&s);
            // The p99 slider holds p99 at the median, which a file may set to any value.
            if !(field == Field::P99 && x == median_p99(&s.work.dist).0) {
                within_precision(c, x).map_err(TestCaseError::fail)?;
            }

            // The label beside the slider.
            label(c, &describe(c, &s)).map_err(TestCaseError::fail)?;
            // The share link.
            for (name, text) in lease_fields::diff(&base, &s) {
                if name == field.name() {
                    clean(c, &text).map_err(TestCaseError::fail)?;
                }
            }
            // The exported scenario file, read back.
            let json = serde_json::to_string(&s).unwrap();
            clean(c, &json).map_err(TestCaseError::fail)?;
            let back: Scenario = serde_json::from_str(&json).unwrap();
            prop_assert_eq!((c.get)(&back), x);
        }

        #[test]
        fn no_link_field_shows_noise_in_its_label(
            which in 0..CONTROLS.len(),
            whole in 0u32..2_000,
            frac in 0u32..1_000,
            unit in prop::sample::select(vec!["", "ms", "s", "min", "%", "/s", "/min"]),
        ) {
            let field = CONTROLS[which];
            let c = field.control().unwrap();
            let base = shipped::find("ninety-second-message").unwrap().scenario;
            let text = format!("{whole}.{frac:03}{unit}");
            let Ok(v) = field.spec().parse(&text) else { return Ok(()) };
            let mut s = base.clone();
            prop_assume!(lease_fields::set(&mut s, field, &v).is_ok());
            label(c, &describe(c, &s)).map_err(TestCaseError::fail)?;
        }
    }
}
