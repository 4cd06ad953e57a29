//! The author's check (`lease-sim lesson check`): walk the lesson from its
//! start, applying each step's demonstration in order, and fail a goal the
//! demonstration does not meet, a goal that holds before the student does
//! anything, a text whose claims the run contradicts, and a question whose
//! answer the run contradicts.

use lease_sim::run::Run;
use lease_sim::scenario::Scenario;
use lease_sim::{simulate, Options};

use crate::{Condition, Lesson, Question, Step, StepKind};

/// What the check found at one step.
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    /// The step's number, from 1.
    pub step: usize,
    /// The line of the step's block.
    pub line: usize,
    pub ok: bool,
    /// What held, or what did not and what the run shows instead.
    pub says: String,
}

impl std::fmt::Display for Outcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mark = if self.ok { "ok  " } else { "FAIL" };
        write!(
            f,
            "{mark} step {} (line {}): {}",
            self.step, self.line, self.says
        )
    }
}

fn run_of(s: &Scenario) -> Result<Run, String> {
    simulate(s, &Options::default()).map_err(|e| format!("the scenario does not run: {e}"))
}

/// The conditions that do not hold, each with what the run shows.
fn unmet(conds: &[Condition], s: &Scenario, run: &Run) -> Vec<String> {
    conds
        .iter()
        .filter(|c| !c.holds(s, run))
        .map(|c| format!("`{c}` ({})", c.observed(s, run)))
        .collect()
}

fn listed(conds: &[Condition]) -> String {
    conds
        .iter()
        .map(|c| format!("`{c}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The scenario each step is shown on: the start with the demonstrations of
/// the steps before it applied (a step's own demonstration comes after).
pub fn scenarios_before_each_step(lesson: &Lesson) -> Result<Vec<Scenario>, (usize, String)> {
    let mut s = lesson.start.scenario.clone();
    let mut out = Vec::new();
    for (i, step) in lesson.steps.iter().enumerate() {
        out.push(s.clone());
        apply_demo(step, &mut s).map_err(|e| (i, e))?;
    }
    Ok(out)
}

/// A step's demonstration, applied as a share link applies its fields.
pub fn apply_demo(step: &Step, s: &mut Scenario) -> Result<(), String> {
    if let StepKind::Do { demo, .. } = &step.kind {
        let sets: Vec<_> = demo.iter().map(|e| (e.field, e.value.clone())).collect();
        lease_fields::set_all(s, &sets)
            .map_err(|e| format!("the demo cannot set {}: {}", e.field, e.why))?;
    }
    Ok(())
}

/// Each step's outcome, in order. The lesson passes when every one is ok.
pub fn check(lesson: &Lesson) -> Vec<Outcome> {
    let mut s = lesson.start.scenario.clone();
    let mut out = Vec::new();
    for (i, step) in lesson.steps.iter().enumerate() {
        let outcome = |ok: bool, says: String| Outcome {
            step: i + 1,
            line: step.line,
            ok,
            says,
        };
        let result = check_step(step, &mut s);
        out.push(match result {
            Ok(says) => outcome(true, says),
            Err(says) => outcome(false, says),
        });
    }
    out
}

/// A step's moment, range and highlighted messages lie within the run.
fn within_the_run(step: &Step, s: &Scenario) -> Result<(), String> {
    let end = s.duration_ms;
    let ms = lease_format::units::format_ms;
    if let Some(at) = step.at_ms.filter(|&at| at > end) {
        return Err(format!(
            "at {} is after the run's end at {}",
            ms(at),
            ms(end)
        ));
    }
    if let Some([_, to]) = step.fit.filter(|[_, to]| *to > end) {
        return Err(format!(
            "fit ends at {}, after the run's end at {}",
            ms(to),
            ms(end)
        ));
    }
    if !step.highlight.is_empty() {
        let run = run_of(s)?;
        let count = run.messages.len();
        if let Some(m) = step.highlight.iter().find(|&&m| m as usize >= count) {
            return Err(format!(
                "highlight names message {m}, but the run has {count} messages (ids 0 to {})",
                count.saturating_sub(1)
            ));
        }
    }
    Ok(())
}

fn check_step(step: &Step, s: &mut Scenario) -> Result<String, String> {
    within_the_run(step, s)?;
    match &step.kind {
        StepKind::Text { holds } if holds.is_empty() => Ok("text, to read".into()),
        StepKind::Text { holds } => {
            let run = run_of(s)?;
            let bad = unmet(holds, s, &run);
            if bad.is_empty() {
                Ok(format!("text; the run shows {}", listed(holds)))
            } else {
                Err(format!(
                    "the text claims what the run does not show: {}",
                    bad.join(", ")
                ))
            }
        }
        StepKind::Do { goal, demo } => {
            let before = run_of(s)?;
            if unmet(goal, s, &before).is_empty() {
                return Err(format!(
                    "the goal {} holds before the student does anything",
                    listed(goal)
                ));
            }
            apply_demo(step, s)?;
            let after = run_of(s)?;
            let bad = unmet(goal, s, &after);
            let change = demo
                .iter()
                .map(|e| format!("{}={}", e.field.name(), e.text))
                .collect::<Vec<_>>()
                .join(" ");
            if bad.is_empty() {
                Ok(format!(
                    "do; the goal {} holds after {change}",
                    listed(goal)
                ))
            } else {
                Err(format!(
                    "the goal is not met after the demo {change}: {}",
                    bad.join(", ")
                ))
            }
        }
        StepKind::Predict {
            stop_ms, question, ..
        } => {
            let run = run_of(s)?;
            if *stop_ms > s.duration_ms {
                return Err(format!(
                    "the stop at {} is after the run's end at {}",
                    lease_format::units::format_ms(*stop_ms),
                    lease_format::units::format_ms(s.duration_ms)
                ));
            }
            match question {
                Question::Choice {
                    choices,
                    answer,
                    holds,
                } => {
                    let bad = unmet(holds, s, &run);
                    if bad.is_empty() {
                        Ok(format!(
                            "predict; answer {answer} (\"{}\") agrees with the run: {}",
                            choices[answer - 1],
                            listed(holds)
                        ))
                    } else {
                        Err(format!(
                            "the run contradicts answer {answer} (\"{}\"): {}",
                            choices[answer - 1],
                            bad.join(", ")
                        ))
                    }
                }
                Question::Number {
                    figure,
                    answer,
                    tolerance,
                } => {
                    let probe = Condition {
                        text: String::new(),
                        lhs: figure.clone(),
                        op: crate::Op::Eq,
                        rhs: crate::Operand::Number(*answer),
                    };
                    let seen = probe.number(s, &run);
                    match seen {
                        Some(v) if (v - answer).abs() <= *tolerance => Ok(format!(
                            "predict; the answer {answer} (within {tolerance}) agrees with the run: {}",
                            probe.observed(s, &run)
                        )),
                        _ => Err(format!(
                            "the run contradicts the answer {answer} (within {tolerance}): {}",
                            probe.observed(s, &run)
                        )),
                    }
                }
                Question::NextRun { message, worker } => {
                    let next = run
                        .deliveries
                        .iter()
                        .filter(|d| d.received_at >= *stop_ms)
                        .min_by_key(|d| d.received_at);
                    match next {
                        Some(d) if d.message == *message && d.worker == *worker => Ok(format!(
                            "predict; the next run after the stop is message {message} on worker {worker}, at {}",
                            lease_format::units::format_ms(d.received_at)
                        )),
                        Some(d) => Err(format!(
                            "the run contradicts the answer: the next run after the stop is message {} on worker {} at {}, not message {message} on worker {worker}",
                            d.message,
                            d.worker,
                            lease_format::units::format_ms(d.received_at)
                        )),
                        None => Err("the run contradicts the answer: no run starts after the stop".into()),
                    }
                }
            }
        }
    }
}
