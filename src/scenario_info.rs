//! What the loaded scenario shows, what to look for, and which controls it
//! sets (or the person has changed since).

use std::rc::Rc;

use lease_sim::scenario::Scenario;
use yew::prelude::*;

use lease_fields::names::name;
use lease_fields::work::shape;
use lease_fields::{Field, CONTROLS};

use crate::command::Command;
use crate::controls::describe;

#[derive(PartialEq)]
pub struct ScenarioInfoProps {
    pub scenario: Rc<Scenario>,
    pub loaded: Rc<Scenario>,
    pub on_command: Callback<Command>,
    /// A guided tour is under way: its steps move the settings on purpose
    /// and say what to look for, so the card does not call the run stale.
    pub touring: bool,
}

/// (control label, value in `a`, value in `b`) for every control that differs.
pub fn differences(a: &Scenario, b: &Scenario) -> Vec<(String, String, String)> {
    let mut out = Vec::new();
    for sl in CONTROLS.iter().filter_map(|f| f.control()) {
        let (x, y) = (describe(sl, a), describe(sl, b));
        if x != y {
            out.push((sl.label.to_string(), x, y));
        }
    }
    let mut other = |label: &str, x: String, y: String| {
        if x != y {
            out.push((label.to_string(), x, y));
        }
    };
    other(
        "Broker",
        name(&a.broker.preset).into(),
        name(&b.broker.preset).into(),
    );
    other(
        "Store fence",
        name(&a.store.fence).into(),
        name(&b.store.fence).into(),
    );
    other(
        "Distribution",
        shape(&a.work.dist).word().into(),
        shape(&b.work.dist).word().into(),
    );
    // The broker rules the person set, as the group shows them; a new
    // broker's own rules come with the broker and are not listed one by one.
    let same_broker = a.broker.preset == b.broker.preset;
    for f in Field::ALL.into_iter().filter(|_| same_broker) {
        if let (Some(r), Some(x), Some(y)) = (
            f.spec().rule.as_ref(),
            f.spec().runs_with(a),
            f.spec().runs_with(b),
        ) {
            other(r.label, x, y);
        }
    }
    other("Seed", a.seed.to_string(), b.seed.to_string());
    other(
        "Faults",
        a.faults.len().to_string(),
        b.faults.len().to_string(),
    );
    out
}

/// The scenario's title as a figure shows it: a title quotes the shipped
/// settings ("against a 60-second timeout"), so a run with other settings
/// names what it changed after it.
pub fn shown_title(loaded: &Scenario, scenario: &Scenario) -> String {
    let title = if loaded.title.is_empty() {
        loaded.name.clone()
    } else {
        loaded.title.clone()
    };
    let changed: Vec<String> = differences(loaded, scenario)
        .into_iter()
        .map(|(label, _, now)| format!("{label} {now}"))
        .collect();
    if changed.is_empty() {
        title
    } else {
        format!("{title}, changed: {}", changed.join(", "))
    }
}

fn diff_list(items: Vec<(String, String, String)>) -> Html {
    html! {
        <ul class="diff">
            { for items.into_iter().map(|(l, a, b)| html! { <li><strong>{l}</strong>{format!(": {a} → {b}")}</li> }) }
        </ul>
    }
}

pub fn scenario_info(p: &ScenarioInfoProps) -> Html {
    let loaded = &*p.loaded;
    let base = if loaded.variant_of.is_empty() {
        None
    } else {
        crate::catalog::find(&loaded.variant_of)
    };
    let sets = match &base {
        Some(main) => html! {
            <details class="sets" open=true>
                <summary>{format!("What this fix changes from “{}”", main.title)}</summary>
                {diff_list(differences(main, loaded))}
            </details>
        },
        None => html! {
            <details class="sets">
                <summary>{"What this scenario sets (against the playground's defaults)"}</summary>
                {diff_list(differences(&Scenario::default(), loaded))}
            </details>
        },
    };
    let yours = differences(loaded, &p.scenario);
    let reset = {
        let cb = p.on_command.clone();
        let l = p.loaded.clone();
        Callback::from(move |_: MouseEvent| cb.emit(Command::Replace(Box::new((*l).clone()))))
    };
    // The story is written for the shipped settings; a new seed or run length
    // keeps it, any other edit may not.
    let moved = yours
        .iter()
        .any(|(label, _, _)| label != "Seed" && label != "Run length");
    let stale = moved && !p.touring && !loaded.look_for.is_empty();
    let your_system = {
        let cb = p.on_command.clone();
        let current = p.scenario.clone();
        let from = loaded.title.clone();
        Callback::from(move |_: MouseEvent| {
            let mut mine = (*current).clone();
            mine.name = "your-system".into();
            mine.title = "Your system".into();
            mine.explanation = format!(
                "Your own settings, started from “{from}”. The totals, the charts and the diagnosis describe this run."
            );
            mine.look_for.clear();
            mine.variant_of.clear();
            cb.emit(Command::Import(Box::new(mine), Vec::new()));
        })
    };
    let faults = loaded.faults.len();
    html! {
        <section class="scenario-info" aria-label="About this scenario">
            <h2 id="scenario-title">{ if loaded.title.is_empty() { loaded.name.clone() } else { loaded.title.clone() } }</h2>
            <p class="explanation">{loaded.explanation.clone()}</p>
            if !loaded.look_for.is_empty() {
                <p class="look-for"><strong>{"Look for: "}</strong>{loaded.look_for.clone()}</p>
            }
            if faults > 0 {
                <p class="faults-note">{format!("{faults} scheduled fault{} (crashes, deploys or pauses) are marked on the worker lanes.", if faults == 1 { "" } else { "s" })}</p>
            }
            if stale {
                <p class="story-stale" id="story-stale" role="status">
                    {"Your edits have moved this run away from the story above: it was written for the shipped settings, so what it says to look for may no longer hold. "}
                    <button type="button" id="your-system" onclick={your_system}>{"Make it your system"}</button>
                </p>
            }
            {sets}
            if !yours.is_empty() {
                <div class="yours" id="your-changes">
                    <strong>{"You changed: "}</strong>
                    {diff_list(yours)}
                    <button type="button" id="reset-scenario" onclick={reset}>{"Back to the scenario as shipped"}</button>
                </div>
            }
        </section>
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use lease_fields::Value;
    use lease_sim::scenario::Preset;
    use lease_sim::shipped;

    #[test]
    fn a_broker_rule_the_person_sets_is_listed_among_their_changes_and_a_new_broker_s_are_not() {
        let loaded = shipped::find("bullmq-stalled-more-than-allowable-limit")
            .unwrap()
            .scenario;
        let mut mine = loaded.clone();
        lease_fields::set(&mut mine, Field::MaxExpiries, &Value::Num(5)).unwrap();
        let listed = differences(&loaded, &mine);
        assert_eq!(
            listed,
            vec![("Max stalled count".into(), "1".into(), "5".into())]
        );
        // Another broker brings its own rules: the broker is the change listed.
        let mut other = loaded.clone();
        lease_fields::set(&mut other, Field::Broker, &Preset::NatsJetstream.into()).unwrap();
        let listed = differences(&loaded, &other);
        assert!(listed.iter().any(|(l, _, _)| l == "Broker"), "{listed:?}");
        assert!(
            !listed.iter().any(|(l, _, _)| l == "Max stalled count"),
            "{listed:?}"
        );
    }
}
