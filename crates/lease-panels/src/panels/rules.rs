//! "Broker rules": each rule of `lease_fields`' table that matters under
//! the chosen preset (the stall check and `maxStalledCount` under BullMQ,
//! the claimer under Redis Streams, the BackOff list under JetStream), as a
//! select of its words or a box that reads a link's spelling, showing what
//! the scenario runs with: the preset's own value until the person puts in
//! theirs. A change goes to the page as the link's field and value, which
//! the page reads as it reads a link's (`PanelCommand::Set`).

use std::rc::Rc;

use lease_fields::{rules_for, Field, Value};
use lease_sim::Scenario;
use lease_ui::panel::PanelCommand;
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use super::panel_head;

#[derive(Properties, PartialEq)]
pub struct RulesProps {
    pub scenario: Rc<Scenario>,
    pub on_command: Callback<PanelCommand>,
}

#[function_component(RulesPanel)]
pub fn rules_panel(p: &RulesProps) -> Html {
    let s = &*p.scenario;
    let fields: Vec<Field> = rules_for(s.broker.preset).collect();
    let close = p.on_command.reform(|_: MouseEvent| PanelCommand::Close);
    html! {
        <section class="panel" id="rules-panel" aria-labelledby="rules-title">
            { panel_head("rules-title", "Broker rules", "Close Broker rules", close) }
            if fields.is_empty() {
                <p class="panel-note">{"This broker has no rules beyond the controls' own."}</p>
            } else {
                <p class="panel-note">{"What the preset sets, with its own values until you put in yours; each change re-runs the scenario and goes into the link."}</p>
                <div class="rules">
                    { for fields.into_iter().map(|f| rule_view(f, s, &p.on_command)) }
                </div>
            }
        </section>
    }
}

fn rule_view(field: Field, s: &Scenario, cb: &Callback<PanelCommand>) -> Html {
    let spec = field.spec();
    let Some(rule) = spec.rule.as_ref() else {
        return html! {};
    };
    let shown = spec.runs_with(s).unwrap_or_default();
    let id = format!("rule-{}", spec.name);
    // The preset's own value, or one the scenario sets (its file, its
    // link, or the person here).
    let whose = if spec.read(s) == Value::Default {
        "preset's"
    } else {
        "scenario's"
    };
    let label = rule.label;
    let set = {
        let (cb, shown) = (cb.clone(), shown.clone());
        move |text: String| -> bool {
            // Read here first, so that a refused value is named with the
            // rule's label and the box shows the rule in force again.
            match spec.parse(&text) {
                Ok(_) => {
                    cb.emit(PanelCommand::Set {
                        field: spec.name.into(),
                        value: text,
                    });
                    true
                }
                Err(why) => {
                    cb.emit(PanelCommand::Reject(format!(
                        "{label} \"{}\": {why}. It stays {}.",
                        text.chars().take(60).collect::<String>(),
                        if shown.is_empty() { "none" } else { &shown },
                    )));
                    false
                }
            }
        }
    };
    let input = match spec.words() {
        Some(words) => {
            let onchange = Callback::from(move |e: Event| {
                set(e.target_unchecked_into::<HtmlSelectElement>().value());
            });
            html! {
                <select id={id.clone()} {onchange}>
                    { for words.iter().map(|w| html! {
                        <option value={*w} selected={*w == shown}>{*w}</option>
                    }) }
                </select>
            }
        }
        None => {
            let before = shown.clone();
            let onchange = Callback::from(move |e: Event| {
                let input = e.target_unchecked_into::<HtmlInputElement>();
                if !set(input.value()) {
                    input.set_value(&before);
                }
            });
            html! {
                <input type="text" id={id.clone()} value={shown.clone()}
                    placeholder="none" {onchange} />
            }
        }
    };
    html! {
        <div class="rule">
            <div class="rule-row">
                <label for={id}>{label}</label>
                <span class="rule-whose">{whose}</span>
            </div>
            {input}
        </div>
    }
}
