//! Recommend: the window of visibility timeouts that meets a person's
//! targets (a redelivery rate, a recovery time after a worker crash, a
//! duplicate-effect rate), found by `lease_diagnose::recommend::Search`,
//! which this panel keeps while a pool of background workers runs each
//! candidate over many seeds (`lease_jobs::SeedsJob`). It draws the curve of
//! the redelivery rate against the timeout with its upper bound and the
//! window, says the verdict beside the rule of thumb, and "Apply" sets the
//! timeout (and the heartbeat) through the page's own commands.

use std::ops::ControlFlow;
use std::rc::Rc;

use lease_diagnose::recommend::{
    Candidate, Point, Recommendation, Search, SeedResult, Targets, MIN_SEEDS,
};
use lease_format::display::duration_about;
use lease_format::units::{format_ms, parse_count, parse_f64, parse_ms};
use lease_jobs::{pool_size, share_of, Job, Reply, SeedsJob, WorkerPool};
use lease_sim::Scenario;
use lease_ui::panel::PanelCommand;
use yew::prelude::*;

use super::panel_head;

/// Seeds a recommendation may run every candidate over, in the page: a
/// smaller cap than the command line's, each seed a whole run in a worker.
pub const MAX_SEEDS: u64 = 200;
/// The longest recovery target the panel takes: a day.
const MAX_RECOVERY_MS: u64 = 86_400_000;

/// The targets as typed, each as its field shows it.
#[derive(Clone, PartialEq)]
struct Form {
    rate: String,
    recovery: String,
    duplicates: String,
    seeds: String,
    /// The person says their client has no call that extends the lease.
    cannot_extend: bool,
}

impl Default for Form {
    fn default() -> Self {
        Form {
            rate: "0.2%".into(),
            recovery: "2min".into(),
            duplicates: String::new(),
            seeds: "20".into(),
            cannot_extend: false,
        }
    }
}

/// Reads the form, or names the target that is wrong and what it must be.
fn targets_of(f: &Form) -> Result<(Targets, u32), String> {
    let rate = parse_f64(&f.rate, 0.0, 1.0, true)
        .map_err(|why| format!("Max redelivery rate: {why} (0.002 is 0.2%)."))?;
    let recovery = match f.recovery.trim() {
        "" => None,
        t => Some(
            parse_ms(t, 1, MAX_RECOVERY_MS)
                .map_err(|why| format!("Max recovery after a worker crash: {why}."))?,
        ),
    };
    let duplicates = match f.duplicates.trim() {
        "" => None,
        t => Some(
            parse_f64(t, 0.0, 1.0, true)
                .map_err(|why| format!("Max duplicate-effect rate: {why}, or empty for none."))?,
        ),
    };
    let seeds = parse_count(&f.seeds, u64::from(MIN_SEEDS), MAX_SEEDS)
        .map_err(|why| format!("Seeds: {why}."))? as u32;
    Ok((
        Targets {
            max_redelivery_rate: rate,
            max_recovery_ms: recovery,
            max_duplicate_rate: duplicates,
        },
        seeds,
    ))
}

#[derive(Properties, PartialEq)]
pub struct RecommendProps {
    pub scenario: Rc<Scenario>,
    pub on_command: Callback<PanelCommand>,
}

#[derive(Clone, PartialEq, Default)]
struct Progress {
    /// Candidates tried so far, the one under way included.
    candidate: usize,
    seeds_done: usize,
    seeds: usize,
    workers: usize,
    running: bool,
    result: Option<Recommendation>,
    target_rate: f64,
    error: Option<String>,
    started_ms: f64,
    took_ms: Option<f64>,
}

/// The search under way, kept between candidates.
struct Run {
    search: Search,
    scenario: Scenario,
    /// The id of the candidate under way; replies to another are late.
    id: u32,
    candidate: Option<Candidate>,
    seeds: Vec<u64>,
    results: Vec<SeedResult>,
    progress: Progress,
}

fn now_ms() -> f64 {
    gloo::utils::window().performance().map_or(0.0, |p| p.now())
}

/// Posts the search's next candidate, its seeds spread across the pool, or
/// ends the run when the search is done.
fn next(run: &mut Run, pool: &WorkerPool) {
    run.progress.result = Some(run.search.result());
    let Some(candidate) = run.search.next_candidate() else {
        run.candidate = None;
        run.progress.running = false;
        run.progress.took_ms = Some(now_ms() - run.progress.started_ms);
        return;
    };
    run.id = run.id.wrapping_add(1);
    run.seeds = run.search.seeds_of();
    run.results.clear();
    run.progress.candidate += 1;
    run.progress.seeds_done = 0;
    run.progress.seeds = run.seeds.len();
    let n = pool.len();
    for k in 0..n {
        let seeds: Vec<u64> = share_of(run.seeds.len(), k, n)
            .map(|i| run.seeds[i])
            .collect();
        if seeds.is_empty() {
            continue;
        }
        pool.post(
            k,
            &Job::Seeds(SeedsJob {
                id: run.id,
                scenario: run.scenario.clone(),
                candidate: candidate.clone(),
                seeds,
            }),
        );
    }
    run.candidate = Some(candidate);
}

/// Hands the candidate's results to the search in the order of its seeds,
/// whichever worker ran them.
fn in_seed_order(seeds: &[u64], mut results: Vec<SeedResult>) -> Vec<SeedResult> {
    results.sort_by_key(|r| {
        seeds
            .iter()
            .position(|&s| s == r.seed)
            .unwrap_or(usize::MAX)
    });
    results
}

#[function_component(RecommendPanel)]
pub fn recommend_panel(p: &RecommendProps) -> Html {
    // Opened by a button beside a control, which on a narrow screen is far
    // below where the panels show: the panel comes to the reader.
    use_effect_with((), |_| {
        lease_ui::scroll::bring_selector_into_view("#recommend-panel")
    });
    let form = use_state(Form::default);
    let progress = use_state(Progress::default);
    let pool = use_mut_ref(|| None::<WorkerPool>);
    let run = use_mut_ref(|| None::<Run>);
    // The workers go when the panel closes.
    {
        let pool = pool.clone();
        use_effect_with((), move |_| move || drop(pool.borrow_mut().take()));
    }
    let edit = |set: fn(&mut Form, String)| {
        let form = form.clone();
        Callback::from(move |e: Event| {
            let mut f = (*form).clone();
            set(
                &mut f,
                e.target_unchecked_into::<web_sys::HtmlInputElement>()
                    .value(),
            );
            form.set(f);
        })
    };
    let start = {
        let (form, progress, pool, run) =
            (form.clone(), progress.clone(), pool.clone(), run.clone());
        let scenario = p.scenario.clone();
        Callback::from(move |_: MouseEvent| {
            pool.borrow_mut().take();
            run.borrow_mut().take();
            let (targets, seeds) = match targets_of(&form) {
                Ok(t) => t,
                Err(why) => {
                    progress.set(Progress {
                        error: Some(why),
                        ..Default::default()
                    });
                    return;
                }
            };
            let target_rate = targets.max_redelivery_rate;
            let search = match Search::new(&scenario, targets, seeds) {
                Ok(s) if form.cannot_extend => s.with_a_client_that_cannot_extend(),
                Ok(s) => s,
                Err(why) => {
                    progress.set(Progress {
                        error: Some(format!("{why}.")),
                        ..Default::default()
                    });
                    return;
                }
            };
            let workers = pool_size().min(seeds as usize).max(1);
            *run.borrow_mut() = Some(Run {
                search,
                scenario: (*scenario).clone(),
                id: 0,
                candidate: None,
                seeds: Vec::new(),
                results: Vec::new(),
                progress: Progress {
                    running: true,
                    workers,
                    target_rate,
                    started_ms: now_ms(),
                    ..Default::default()
                },
            });
            // The pool is ended from a task of its own: a worker's listener
            // cannot drop the worker it is running in.
            let end_pool = {
                let pool = pool.clone();
                move || {
                    let pool = pool.clone();
                    gloo::timers::callback::Timeout::new(0, move || drop(pool.borrow_mut().take()))
                        .forget()
                }
            };
            let on_reply = {
                let (progress, run, pool, end_pool) = (
                    progress.clone(),
                    run.clone(),
                    pool.clone(),
                    end_pool.clone(),
                );
                move |_k: usize, reply, _| {
                    let Ok(mut slot) = run.try_borrow_mut() else {
                        return ControlFlow::Continue(());
                    };
                    let Some(r) = slot.as_mut().filter(|r| r.progress.running) else {
                        return ControlFlow::Break(());
                    };
                    match reply {
                        Reply::SeedResults { id, results } if id == r.id => {
                            r.results.extend(results);
                            r.progress.seeds_done = r.results.len();
                            if r.results.len() >= r.seeds.len() {
                                let results =
                                    in_seed_order(&r.seeds, std::mem::take(&mut r.results));
                                r.search.feed(results);
                                match pool.try_borrow() {
                                    Ok(p) => match p.as_ref() {
                                        Some(p) => next(r, p),
                                        None => r.progress.running = false,
                                    },
                                    Err(_) => r.progress.running = false,
                                }
                                if !r.progress.running {
                                    end_pool();
                                }
                            }
                        }
                        Reply::Failed { id, why } if id == r.id || id == 0 => {
                            r.progress.running = false;
                            r.progress.error = Some(why);
                            end_pool();
                        }
                        _ => return ControlFlow::Continue(()),
                    }
                    progress.set(r.progress.clone());
                    ControlFlow::Continue(())
                }
            };
            let on_error = {
                let (progress, run, end_pool) = (progress.clone(), run.clone(), end_pool.clone());
                // A worker that failed holds seeds the search waits for: the
                // run stops and says so, with what it found so far.
                move |k: usize| {
                    let Ok(mut slot) = run.try_borrow_mut() else {
                        return;
                    };
                    let Some(r) = slot.as_mut().filter(|r| r.progress.running) else {
                        return;
                    };
                    r.progress.running = false;
                    r.progress.error = Some(format!(
                        "Background worker {} of {} failed to load or stopped; the recommendation stopped at candidate {}. “Recommend” starts it again.",
                        k + 1,
                        r.progress.workers,
                        r.progress.candidate
                    ));
                    progress.set(r.progress.clone());
                    end_pool();
                }
            };
            match WorkerPool::spawn(workers, on_reply, on_error) {
                Ok(p) => {
                    let mut slot = run.borrow_mut();
                    if let Some(r) = slot.as_mut() {
                        next(r, &p);
                        progress.set(r.progress.clone());
                    }
                    *pool.borrow_mut() = Some(p);
                }
                Err(e) => progress.set(Progress {
                    error: Some(e),
                    ..Default::default()
                }),
            }
        })
    };
    let cancel = {
        let (progress, pool, run) = (progress.clone(), pool.clone(), run.clone());
        Callback::from(move |_: MouseEvent| {
            pool.borrow_mut().take();
            run.borrow_mut().take();
            let mut p = (*progress).clone();
            p.running = false;
            p.error = Some("Cancelled.".into());
            progress.set(p);
        })
    };
    let result = progress.result.as_ref().filter(|_| !progress.running);
    let renewing = lease_sim::resolve::resolve(&p.scenario).heartbeat.is_some();
    let apply = result.and_then(|r| {
        let timeout = r.visibility_timeout_ms?;
        let heartbeat = r.heartbeat.clone();
        let on_command = p.on_command.clone();
        Some(Callback::from(move |_: MouseEvent| {
            for (field, value) in apply_commands(timeout, heartbeat.as_ref(), renewing) {
                on_command.emit(PanelCommand::Set { field, value });
            }
        }))
    });
    let f = &*form;
    let pr = &*progress;
    // Where the preset or the client library is known to have no extend
    // call, the box says so and cannot be unticked.
    let known = lease_diagnose::extend::cannot_extend(&p.scenario);
    let tick = {
        let form = form.clone();
        Callback::from(move |e: Event| {
            let mut f = (*form).clone();
            f.cannot_extend = e
                .target_unchecked_into::<web_sys::HtmlInputElement>()
                .checked();
            form.set(f);
        })
    };
    let extend_why = match known {
        Some(why) => {
            let mut c = why.chars();
            let first = c.next().map(|f| f.to_uppercase().to_string());
            format!("{}{}.", first.unwrap_or_default(), c.as_str())
        }
        None => "Ticked, no heartbeat is tried: only the timeout.".to_string(),
    };
    html! {
        <section class="panel" id="recommend-panel" aria-labelledby="recommend-title">
            { panel_head("recommend-title", "Recommend a visibility timeout", "Close Recommend", p.on_command.reform(|_: MouseEvent| PanelCommand::Close)) }
            <p class="muted">{"Give your targets; each candidate timeout runs over many seeds in background workers, and is judged by the upper bound of its redelivery rate, not only its mean."}</p>
            <div class="panel-row rec-targets">
                <label for="rec-rate">{"Max redelivery rate (per arrived message)"}</label>
                <input id="rec-rate" type="text" inputmode="decimal" value={f.rate.clone()} onchange={edit(|f, v| f.rate = v)}
                    aria-describedby="rec-rate-hint" />
                <span class="muted" id="rec-rate-hint">{"0.002 or 0.2%"}</span>
                <label for="rec-recovery">{"Max recovery after a worker crash"}</label>
                <input id="rec-recovery" type="text" value={f.recovery.clone()} onchange={edit(|f, v| f.recovery = v)}
                    aria-describedby="rec-recovery-hint" />
                <span class="muted" id="rec-recovery-hint">{"how long a crashed worker's message stays invisible, like 2min or 90s"}</span>
                <label for="rec-duplicates">{"Max duplicate-effect rate (optional)"}</label>
                <input id="rec-duplicates" type="text" inputmode="decimal" value={f.duplicates.clone()} onchange={edit(|f, v| f.duplicates = v)} />
                <label for="rec-seeds">{"Seeds"}</label>
                <input id="rec-seeds" type="number" min={MIN_SEEDS.to_string()} max={MAX_SEEDS.to_string()} value={f.seeds.clone()} onchange={edit(|f, v| f.seeds = v)} />
            </div>
            <div class="panel-row">
                <label class="toggle" for="rec-cannot-extend">
                    <input id="rec-cannot-extend" type="checkbox" checked={known.is_some() || f.cannot_extend}
                        disabled={known.is_some()} onchange={tick} aria-describedby="rec-extend-why" />
                    {"My client cannot extend the lease"}
                </label>
                <span class="muted" id="rec-extend-why">{extend_why}</span>
            </div>
            <div class="panel-row">
                <button type="button" id="rec-run" onclick={start} disabled={pr.running}>{"Recommend"}</button>
                if pr.running {
                    <button type="button" id="rec-cancel" onclick={cancel}>{"Cancel"}</button>
                }
                <progress id="rec-progress" aria-label="Seeds of this candidate done" max={pr.seeds.max(1).to_string()} value={pr.seeds_done.to_string()}></progress>
                <span id="rec-status" role="status">{ status_text(pr) }</span>
            </div>
            if let Some(e) = &pr.error {
                <p class="status bad" role="alert" id="rec-error">{e.clone()}</p>
            }
            if let Some(r) = pr.result.as_ref().filter(|r| !r.points.is_empty()) {
                { curve(r, pr.target_rate) }
            }
            if let Some(r) = result {
                <div class="rec-verdict">
                    <p id="rec-verdict"><strong>{ r.verdict.clone() }</strong></p>
                    // Nothing searched (no lease to choose): no rule to hold it to.
                    if !r.points.is_empty() {
                        <p id="rec-rule" class="muted">
                            { r.rule_of_thumb.words.clone() }
                            { if r.rule_of_thumb.agrees { " The recommendation agrees with it." } else { " The recommendation differs from it." } }
                        </p>
                    }
                    if let Some(apply) = apply {
                        <button type="button" id="rec-apply" onclick={apply}>
                            { apply_label(r) }
                        </button>
                    }
                </div>
                { levers(r, &p.scenario, &p.on_command) }
            }
        </section>
    }
}

/// What "Apply" sets, as a share link writes each field: the timeout, and
/// the heartbeat's interval, extension and cap when one is recommended. A
/// static timeout was judged with renewal off, so a scenario that renews
/// now (`renewing`, its own heartbeat or its client's) has it turned off.
fn apply_commands(
    timeout_ms: u64,
    heartbeat: Option<&lease_sim::scenario::Heartbeat>,
    renewing: bool,
) -> Vec<(String, String)> {
    let mut out = vec![("timeout".to_string(), format_ms(timeout_ms))];
    if heartbeat.is_none() && renewing {
        out.push(("hb".into(), "off".into()));
    }
    if let Some(h) = heartbeat {
        out.push(("hb".into(), format_ms(h.interval_ms)));
        if let Some(ext) = h.extend_by_ms {
            out.push(("ext".into(), format_ms(ext)));
        }
        out.push((
            "cap".into(),
            h.max_extensions.map_or("none".into(), |n| n.to_string()),
        ));
    }
    out
}

/// What a JetStream lever's "Apply" sets: its AckWait, its `BackOff` list
/// or none (a list in the scenario is dropped, as the lever was run
/// without one), and its in-progress acks as the heartbeat or none.
fn lever_commands(c: &Candidate, renewing: bool, has_steps: bool) -> Vec<(String, String)> {
    let mut out = apply_commands(c.timeout_ms, c.heartbeat.as_ref(), renewing);
    match &c.lease_steps_ms {
        Some(steps) => out.push((
            "lease_steps".into(),
            steps
                .iter()
                .map(|&ms| format_ms(ms))
                .collect::<Vec<_>>()
                .join(","),
        )),
        None if has_steps => out.push(("lease_steps".into(), "default".into())),
        None => {}
    }
    out
}

/// A JetStream lever as its row names it, with its figures.
fn lever_words(c: &Candidate) -> (String, String) {
    let d = |ms: u64| duration_about(ms as f64);
    match (&c.lease_steps_ms, &c.heartbeat) {
        (Some(steps), _) => (
            "BackOff list".into(),
            format!(
                "BackOff [{}]",
                steps.iter().map(|&ms| d(ms)).collect::<Vec<_>>().join(", ")
            ),
        ),
        (None, Some(h)) => (
            "In-progress acks".into(),
            format!(
                "AckWait {}, InProgress() every {}",
                d(c.timeout_ms),
                d(h.interval_ms)
            ),
        ),
        (None, None) => ("AckWait".into(), format!("AckWait {}", d(c.timeout_ms))),
    }
}

/// JetStream's other levers, each run over the same seeds: a row with its
/// figures, and an "Apply" that sets it.
fn levers(r: &Recommendation, scenario: &Scenario, on_command: &Callback<PanelCommand>) -> Html {
    if r.alternatives.is_empty() {
        return html! {};
    }
    let renewing = lease_sim::resolve::resolve(scenario).heartbeat.is_some();
    let has_steps = scenario.broker.lease_steps_ms.is_some();
    // On a phone the table scrolls in its own box, not the page.
    html! {
        <div class="table-scroll" id="rec-levers-box">
        <table class="rec-points" id="rec-levers">
            <caption>{format!("JetStream's other levers, each over {} seeds", r.seeds)}</caption>
            <thead><tr><th scope="col">{"Lever"}</th><th scope="col">{"Settings"}</th><th scope="col">{"Redelivery rate (mean)"}</th><th scope="col">{"Upper bound"}</th><th scope="col">{"Meets the targets"}</th><th scope="col">{"Set it"}</th></tr></thead>
            <tbody>
                { for r.alternatives.iter().enumerate().map(|(i, p)| {
                    let (lever, figures) = lever_words(&p.candidate);
                    let set = lever_commands(&p.candidate, renewing, has_steps);
                    let on_command = on_command.clone();
                    let apply = Callback::from(move |_: MouseEvent| {
                        for (field, value) in set.clone() {
                            on_command.emit(PanelCommand::Set { field, value });
                        }
                    });
                    html! {
                        <tr id={format!("rec-lever-{i}")}>
                            <th scope="row">{lever.clone()}</th>
                            <td>{figures}</td>
                            <td>{pct(p.redelivery_rate_mean)}</td>
                            <td>{pct(p.redelivery_rate_upper)}</td>
                            <td>{ if p.meets { "yes" } else { "no" } }</td>
                            <td><button type="button" id={format!("rec-apply-lever-{i}")} onclick={apply}>{format!("Apply: {lever}")}</button></td>
                        </tr>
                    }
                }) }
            </tbody>
        </table>
        </div>
    }
}

fn apply_label(r: &Recommendation) -> String {
    let t = r
        .visibility_timeout_ms
        .map_or(String::new(), |ms| duration_about(ms as f64));
    match &r.heartbeat {
        Some(h) => format!(
            "Apply: timeout {t}, heartbeat every {}",
            duration_about(h.interval_ms as f64)
        ),
        None => format!("Apply: timeout {t}"),
    }
}

fn status_text(p: &Progress) -> String {
    let workers = match p.workers {
        0 | 1 => String::new(),
        n => format!(" on {n} workers"),
    };
    match (p.running, p.took_ms) {
        (true, _) => format!(
            "Candidate {}: {} of {} seeds{workers}",
            p.candidate, p.seeds_done, p.seeds
        ),
        (false, Some(ms)) => format!(
            "{} candidates in {:.2} s{workers}",
            p.candidate,
            ms / 1000.0
        ),
        (false, None) if p.candidate == 0 => "Not run yet.".into(),
        (false, None) => format!("Stopped after {} candidates.", p.candidate),
    }
}

const W: f64 = 900.0;
const H: f64 = 280.0;
const LEFT: f64 = 80.0;
const RIGHT: f64 = 24.0;
const BOTTOM: f64 = 44.0;
const TOP: f64 = 12.0;

/// The static timeouts tried, by timeout (the search visits them out of
/// order); heartbeat candidates are listed in the table only.
fn static_points(r: &Recommendation) -> Vec<&Point> {
    let mut pts: Vec<&Point> = r
        .points
        .iter()
        .filter(|p| p.candidate.heartbeat.is_none())
        .collect();
    pts.sort_by_key(|p| p.candidate.timeout_ms);
    pts
}

/// A rate as a percentage, with fewer decimals the larger it is: a short
/// timeout redelivers each message many times over, and "20000.00%" reads
/// as noise.
fn pct(x: f64) -> String {
    let p = x * 100.0;
    let places = if p >= 100.0 {
        0
    } else if p >= 10.0 {
        1
    } else {
        2
    };
    format!("{p:.places$}%")
}

/// A candidate's heartbeat as its row says it: the interval, the
/// extension and the cap, which is what the fallback's candidates differ in.
fn heartbeat_words(p: &Point) -> String {
    p.candidate
        .heartbeat
        .as_ref()
        .map_or("none".to_string(), |h| {
            format!(
                "every {}, extending by {}, {}",
                duration_about(h.interval_ms as f64),
                duration_about(h.extend_by_ms.unwrap_or(p.candidate.timeout_ms) as f64),
                h.max_extensions
                    .map_or("no cap".to_string(), |c| format!("at most {c} extensions")),
            )
        })
}

/// The log-scale ticks between `lo` and `hi`: each power of ten, and 2 and
/// 5 times it, with the ends, at most `n` of them.
fn log_ticks(lo: f64, hi: f64, n: usize) -> Vec<f64> {
    let mut v = vec![lo];
    let mut decade = 10f64.powf(lo.max(1.0).log10().floor());
    while decade <= hi {
        for k in [1.0, 2.0, 5.0] {
            let t = decade * k;
            // Clear of the ends, whose labels would overlap a tick's.
            if t > lo * 1.6 && t < hi / 1.6 {
                v.push(t);
            }
        }
        decade *= 10.0;
    }
    v.push(hi);
    if v.len() > n {
        // Keep the ends and every other tick between.
        let inner: Vec<f64> = v[1..v.len() - 1].iter().step_by(2).copied().collect();
        v = std::iter::once(lo).chain(inner).chain([hi]).collect();
    }
    v
}

/// The redelivery rate against the timeout: the mean's line, a band up to
/// the upper bound, the target as a dashed line and the window shaded; then
/// every candidate in a table.
fn curve(r: &Recommendation, target: f64) -> Html {
    let pts = static_points(r);
    let table = html! {
        <table class="rec-points" id="rec-points">
            <caption>{format!("Candidates, each over {} seeds", r.seeds)}</caption>
            <thead><tr><th scope="col">{"Timeout"}</th><th scope="col">{"Heartbeat"}</th><th scope="col">{"Redelivery rate (mean)"}</th><th scope="col">{"Upper bound"}</th><th scope="col">{"Meets the targets"}</th></tr></thead>
            <tbody>
                { for r.points.iter().map(|p| html! {
                    <tr>
                        <td>{duration_about(p.candidate.timeout_ms as f64)}</td>
                        <td>{ heartbeat_words(p) }</td>
                        <td>{pct(p.redelivery_rate_mean)}</td>
                        <td>{pct(p.redelivery_rate_upper)}</td>
                        <td>{ if p.meets { "yes" } else { "no" } }</td>
                    </tr>
                }) }
            </tbody>
        </table>
    };
    if pts.is_empty() {
        return table;
    }
    let lo = pts
        .first()
        .map_or(1.0, |p| p.candidate.timeout_ms as f64)
        .max(1.0);
    let mut hi = pts.last().map_or(1.0, |p| p.candidate.timeout_ms as f64);
    if let Some([_, w]) = r.window_ms {
        hi = hi.max(w as f64);
    }
    let hi = hi.max(lo * 1.01);
    let x = move |v: f64| {
        LEFT + (W - LEFT - RIGHT)
            * ((v.max(1.0).ln() - lo.ln()) / (hi.ln() - lo.ln())).clamp(0.0, 1.0)
    };
    let top = pts
        .iter()
        .map(|p| p.redelivery_rate_upper)
        .fold(target * 1.5, f64::max);
    let max = lease_ui::axis::nice_max(top.max(1e-6));
    let y = move |v: f64| TOP + (H - TOP - BOTTOM) * (1.0 - (v / max).clamp(0.0, 1.0));
    let xy = |t: u64, v: f64| format!("{:.1},{:.1}", x(t as f64), y(v));
    let mean: Vec<String> = pts
        .iter()
        .map(|p| xy(p.candidate.timeout_ms, p.redelivery_rate_mean))
        .collect();
    let band: Vec<String> = pts
        .iter()
        .map(|p| xy(p.candidate.timeout_ms, p.redelivery_rate_upper))
        .chain(
            pts.iter()
                .rev()
                .map(|p| xy(p.candidate.timeout_ms, p.redelivery_rate_mean)),
        )
        .collect();
    let window = r.window_ms.map(|[a, b]| {
        let (xa, xb) = (x(a as f64), x(b as f64));
        html! { <rect class="rec-window" id="rec-window" x={format!("{xa:.1}")} y={TOP.to_string()} width={format!("{:.1}", (xb - xa).max(2.0))} height={(H - TOP - BOTTOM).to_string()} /> }
    });
    let ty = y(target);
    let label = format!(
        "Redelivery rate against the visibility timeout, {} candidates from {} to {}",
        pts.len(),
        duration_about(lo),
        duration_about(hi)
    );
    html! {
        <>
        <figure class="chart rec-chart" id="rec-curve">
            <figcaption>{"Redelivery rate per arrived message against the visibility timeout"}</figcaption>
            <svg viewBox={format!("0 0 {} {}", W, H)} role="img" aria-label={label}>
                {window}
                // The rate axis: 0, a quarter steps and the top, each with its grid line.
                { for (0..=4).map(|k| {
                    let v = max * f64::from(k) / 4.0;
                    let yy = y(v);
                    html! {
                        <>
                        <line class="grid" x1={LEFT.to_string()} x2={(W - RIGHT).to_string()} y1={format!("{yy:.1}")} y2={format!("{yy:.1}")} />
                        <text class="axis-label rec-y-tick" text-anchor="end" x={(LEFT - 4.0).to_string()} y={format!("{:.1}", yy + 4.0)}>{ if k == 0 { "0".to_string() } else { pct(v) } }</text>
                        </>
                    }
                }) }
                <line class="axis" x1={LEFT.to_string()} x2={(W - RIGHT).to_string()} y1={(H - BOTTOM).to_string()} y2={(H - BOTTOM).to_string()} />
                // The timeout axis, on a log scale: its ends and the round values between.
                { for log_ticks(lo, hi, 8).into_iter().map(|t| {
                    let xx = x(t);
                    let anchor = if (xx - LEFT).abs() < 1.0 { "start" } else if (W - RIGHT - xx).abs() < 1.0 { "end" } else { "middle" };
                    html! {
                        <>
                        <line class="axis" x1={format!("{xx:.1}")} x2={format!("{xx:.1}")} y1={(H - BOTTOM).to_string()} y2={(H - BOTTOM + 4.0).to_string()} />
                        <text class="axis-label rec-x-tick" text-anchor={anchor} x={format!("{xx:.1}")} y={(H - BOTTOM + 16.0).to_string()}>{duration_about(t)}</text>
                        </>
                    }
                }) }
                <text class="axis-label" text-anchor="middle" x={format!("{:.1}", (LEFT + W - RIGHT) / 2.0)} y={(H - 4.0).to_string()}>{"timeout (log scale)"}</text>
                <polygon class="rec-band" id="rec-band" points={band.join(" ")} />
                <polyline class="series s-depth" points={mean.join(" ")} />
                <line class="rec-target" x1={LEFT.to_string()} x2={(W - RIGHT).to_string()} y1={format!("{ty:.1}")} y2={format!("{ty:.1}")} />
                { for pts.iter().map(|p| html! {
                    <circle class={classes!("dot", (!p.meets).then_some("rec-miss"))} cx={format!(
                        "{:.1}",
                        x(p.candidate.timeout_ms as f64),
                    )} cy={format!("{:.1}", y(p.redelivery_rate_mean))} r="2.5">
                        <title>{format!(
                            "{}: mean {}, upper bound {}",
                            duration_about(p.candidate.timeout_ms as f64),
                            pct(p.redelivery_rate_mean),
                            pct(p.redelivery_rate_upper),
                        )}</title>
                    </circle>
                }) }
            </svg>
            <p class="muted" id="rec-legend">
                {format!(
                    "Line: the mean over {} seeds; band: up to the one-sided 95% upper bound (mean + t·s/√n); dashed: the target, {}; shaded: the window of timeouts that meets the targets.",
                    r.seeds,
                    pct(target),
                )}
            </p>
        </figure>
        {table}
        </>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn form(rate: &str, recovery: &str, duplicates: &str, seeds: &str) -> Form {
        Form {
            rate: rate.into(),
            recovery: recovery.into(),
            duplicates: duplicates.into(),
            seeds: seeds.into(),
            cannot_extend: false,
        }
    }

    #[test]
    fn the_default_targets_are_a_fifth_of_a_percent_two_minutes_and_twenty_seeds() {
        let (t, seeds) = targets_of(&Form::default()).unwrap();
        assert_eq!(t.max_redelivery_rate, 0.002);
        assert_eq!(t.max_recovery_ms, Some(120_000));
        assert_eq!(t.max_duplicate_rate, None);
        assert_eq!(seeds, 20);
        let (t, _) = targets_of(&form("0.01", "", "1%", "5")).unwrap();
        assert_eq!(
            (
                t.max_redelivery_rate,
                t.max_recovery_ms,
                t.max_duplicate_rate
            ),
            (0.01, None, Some(0.01))
        );
    }

    #[test]
    fn a_bad_target_is_named_in_its_message() {
        for (f, names) in [
            (form("-1", "2min", "", "20"), "Max redelivery rate"),
            (form("150%", "2min", "", "20"), "Max redelivery rate"),
            (form("lots", "2min", "", "20"), "Max redelivery rate"),
            (
                form("0.2%", "soon", "", "20"),
                "Max recovery after a worker crash",
            ),
            (form("0.2%", "2min", "2", "20"), "Max duplicate-effect rate"),
            (form("0.2%", "2min", "", "1"), "Seeds"),
            (form("0.2%", "2min", "", "1000"), "Seeds"),
        ] {
            let why = targets_of(&f).err().unwrap_or_default();
            assert!(why.starts_with(names), "{}: {why}", f.rate);
        }
    }

    #[test]
    fn apply_sets_the_timeout_and_a_recommended_heartbeat_as_a_link_writes_them() {
        let set = |f: &str, v: &str| (f.to_string(), v.to_string());
        assert_eq!(
            apply_commands(45_000, None, false),
            vec![set("timeout", "45s")]
        );
        assert_eq!(
            apply_commands(45_000, None, true),
            vec![set("timeout", "45s"), set("hb", "off")],
            "a static timeout turns the scenario's renewal off, as it was judged"
        );
        let h = lease_sim::scenario::Heartbeat {
            interval_ms: 40_000,
            extend_by_ms: Some(120_000),
            max_extensions: Some(30),
            on_reject: Default::default(),
        };
        let set = apply_commands(120_000, Some(&h), true);
        let fields: Vec<&str> = set.iter().map(|(f, _)| f.as_str()).collect();
        assert_eq!(fields, ["timeout", "hb", "ext", "cap"]);
        assert_eq!(set[1].1, "40s");
        assert_eq!(set[3].1, "30");
    }

    #[test]
    fn a_jetstream_lever_s_apply_sets_its_backoff_list_or_its_in_progress_acks() {
        let set = |f: &str, v: &str| (f.to_string(), v.to_string());
        let backoff = Candidate {
            timeout_ms: 20_000,
            heartbeat: None,
            lease_steps_ms: Some(vec![20_000, 40_000, 80_000]),
        };
        assert_eq!(
            lever_commands(&backoff, false, false),
            vec![set("timeout", "20s"), set("lease_steps", "20s,40s,80s")]
        );
        let h = lease_sim::scenario::Heartbeat {
            interval_ms: 10_000,
            extend_by_ms: Some(30_000),
            max_extensions: None,
            on_reject: Default::default(),
        };
        let in_progress = Candidate {
            timeout_ms: 30_000,
            heartbeat: Some(h),
            lease_steps_ms: None,
        };
        assert_eq!(
            lever_commands(&in_progress, false, true),
            vec![
                set("timeout", "30s"),
                set("hb", "10s"),
                set("ext", "30s"),
                set("cap", "none"),
                set("lease_steps", "default")
            ],
            "a list in the scenario is dropped: the lever ran without one"
        );
        assert_eq!(lever_words(&backoff).0, "BackOff list");
        assert!(lever_words(&in_progress)
            .1
            .contains("InProgress() every 10 s"));
    }

    /// The fallback's heartbeats differ in their cap: each row says it, so
    /// no two rows of the table read the same.
    #[test]
    fn each_heartbeat_row_says_its_cap_and_no_two_rows_read_the_same() {
        let s = lease_sim::shipped::find("clip-surge")
            .expect("shipped")
            .scenario;
        let mut search = Search::new(
            &s,
            Targets {
                max_redelivery_rate: 0.0,
                max_recovery_ms: Some(1_000),
                max_duplicate_rate: None,
            },
            2,
        )
        .expect("a search");
        // Every candidate fails: the search walks the static timeouts,
        // then every heartbeat of the fallback.
        while search.next_candidate().is_some() {
            let fail = search
                .seeds_of()
                .into_iter()
                .map(|seed| SeedResult {
                    seed,
                    arrived: 10,
                    redeliveries: 10,
                    duplicate_effects: 0,
                    recovery_ms: 0,
                })
                .collect();
            search.feed(fail);
        }
        let r = search.result();
        let beats: Vec<String> = r
            .points
            .iter()
            .filter(|p| p.candidate.heartbeat.is_some())
            .map(heartbeat_words)
            .collect();
        assert!(beats.len() >= 2, "{beats:?}");
        for (i, b) in beats.iter().enumerate() {
            assert!(b.contains("at most"), "{b}");
            assert!(!beats[..i].contains(b), "{b} twice");
        }
    }

    #[test]
    fn the_timeout_axis_has_its_ends_and_round_values_between() {
        let t = log_ticks(1_000.0, 600_000.0, 8);
        assert_eq!(t.first(), Some(&1_000.0));
        assert_eq!(t.last(), Some(&600_000.0));
        assert!(t.len() >= 4 && t.len() <= 8, "{t:?}");
        assert!(t.windows(2).all(|w| w[0] < w[1]), "{t:?}");
    }

    #[test]
    fn results_reach_the_search_in_the_order_of_its_seeds() {
        let r = |seed| SeedResult {
            seed,
            arrived: 1,
            redeliveries: 0,
            duplicate_effects: 0,
            recovery_ms: 0,
        };
        let got = in_seed_order(&[7, 3, 9], vec![r(9), r(7), r(3)]);
        assert_eq!(
            got.iter().map(|r| r.seed).collect::<Vec<_>>(),
            vec![7, 3, 9]
        );
    }
}
