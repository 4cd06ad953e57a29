//! `lease-sim`: run and validate Lease Playground scenario files from the
//! command line. Bad input ends with a message on stderr and exit code 2.

mod diagnose;
mod previews;
mod recommend;
mod summary;
mod sweep;

use std::io::{self, BufWriter, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use lease_sim::{shipped, simulate, Options, Run, Scenario};

#[derive(Parser)]
#[command(
    name = "lease-sim",
    version,
    about = "Simulate message leases (visibility timeouts) from a scenario file"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum LessonCommand {
    /// Read a lesson, then walk it from its start applying each step's
    /// demo: fail on a goal the demo does not meet, a goal that holds
    /// before the student does anything, or words or an answer the run
    /// contradicts. Prints a line per step; exit 1 when a step fails, 2
    /// when the lesson does not read.
    Check {
        /// A lesson file (Markdown with TOML front matter), or `-` for stdin.
        file: String,
    },
}

#[derive(Subcommand)]
enum Command {
    /// Run a scenario and print a summary (or the report as JSON).
    Run {
        /// A scenario file, `-` for stdin, or the name of a shipped scenario.
        file: String,
        /// Override the file's seed.
        #[arg(long)]
        seed: Option<u64>,
        /// Stop at this time (ms) if earlier than the scenario's duration.
        #[arg(long)]
        until_ms: Option<u64>,
        /// Print the report as JSON (docs/MODEL.md "The report").
        #[arg(long)]
        json: bool,
        /// Write the event log here, one JSON object per line.
        #[arg(long, value_name = "OUT.jsonl")]
        events: Option<PathBuf>,
        /// Run the scenario under this broker preset, named as a scenario
        /// file names it (`bullmq`, `celery_redis`, `cloud_tasks`, ...); the
        /// preset fills only the fields the file leaves out.
        #[arg(long, value_name = "NAME")]
        preset: Option<String>,
    },
    /// Run a scenario and print its diagnosis as the page's Diagnosis panel
    /// gives it: each failure signature with its evidence, the fix in
    /// words, and the fix's button with the fields it sets.
    #[command(after_help = DIAGNOSE_HELP)]
    Diagnose {
        /// A scenario file, `-` for stdin, or the name of a shipped scenario.
        file: String,
        /// Override the file's seed.
        #[arg(long)]
        seed: Option<u64>,
        /// Run the scenario under this broker preset, named as a scenario
        /// file names it (`bullmq`, `celery_redis`, `cloud_tasks`, ...); the
        /// preset fills only the fields the file leaves out.
        #[arg(long, value_name = "NAME")]
        preset: Option<String>,
        /// Print one JSON object instead of the text.
        #[arg(long)]
        json: bool,
    },
    /// Lessons (docs/lessons.md): check one as its author would.
    #[command(subcommand)]
    Lesson(LessonCommand),
    /// Check a scenario file and say what is wrong with it.
    Validate {
        /// A scenario file, `-` for stdin, or the name of a shipped scenario.
        file: String,
    },
    /// Vary one setting over a range, simulate each point and print a CSV
    /// row per point (points that cannot run have `skipped` filled).
    #[command(after_help = SWEEP_HELP)]
    Sweep {
        /// A scenario file, `-` for stdin, or the name of a shipped scenario.
        file: String,
        /// The setting to vary: a scenario path or its short name (see below).
        #[arg(long, value_name = "PATH")]
        param: String,
        /// First value: a count, or for a duration ms or `500ms`, `10s`, `2min`, `1h`.
        #[arg(long, value_name = "A", allow_hyphen_values = true)]
        from: String,
        /// Last value (included), as for --from.
        #[arg(long, value_name = "B", allow_hyphen_values = true)]
        to: String,
        /// How many points, from 1 to 200 (each is a whole simulation).
        #[arg(long, value_name = "N", allow_hyphen_values = true)]
        steps: String,
        /// Space the points geometrically (both ends must be above 0).
        #[arg(long)]
        log: bool,
        /// Override the file's seed.
        #[arg(long)]
        seed: Option<u64>,
        /// Run every point over this many seeds (the file's seed and the
        /// ones after it), from 1 to 1000; over more than one, each
        /// metric's mean, min and max.
        #[arg(
            long,
            value_name = "N",
            default_value = "1",
            allow_hyphen_values = true
        )]
        seeds: String,
        /// Run the scenario under this broker preset, named as a scenario
        /// file names it (`bullmq`, `celery_redis`, `cloud_tasks`, ...); the
        /// preset fills only the fields the file leaves out.
        #[arg(long, value_name = "NAME")]
        preset: Option<String>,
    },
    /// Find the visibility timeouts that meet the targets, each judged over
    /// many seeds, and say what to set (or which heartbeat, when no static
    /// timeout meets both targets).
    #[command(after_help = RECOMMEND_HELP)]
    Recommend {
        /// A scenario file, `-` for stdin, or the name of a shipped scenario.
        file: String,
        /// Most redeliveries per arrived message, from 0 to 1 (as 0.002).
        #[arg(long, value_name = "RATE", allow_hyphen_values = true)]
        max_redelivery_rate: String,
        /// Longest a crashed worker's message may stay invisible: ms or
        /// `500ms`, `10s`, `2min`, `1h`.
        #[arg(long, value_name = "DURATION", allow_hyphen_values = true)]
        max_recovery: Option<String>,
        /// Most duplicate effects per arrived message, from 0 to 1.
        #[arg(long, value_name = "RATE", allow_hyphen_values = true)]
        max_duplicate_rate: Option<String>,
        /// Seeds each candidate runs over, from 2 to 1000.
        #[arg(
            long,
            value_name = "N",
            default_value = "20",
            allow_hyphen_values = true
        )]
        seeds: String,
        /// Run the scenario under this broker preset, named as a scenario
        /// file names it (`bullmq`, `celery_redis`, `cloud_tasks`, ...); the
        /// preset fills only the fields the file leaves out.
        #[arg(long, value_name = "NAME")]
        preset: Option<String>,
        /// Print one JSON object instead of the text.
        #[arg(long)]
        json: bool,
    },
    /// List the shipped scenarios.
    List,
    /// Write each shipped scenario's timeline as SVG pictures, light and
    /// dark, for the still first view of embedded playgrounds (embed.js).
    Previews {
        /// The folder to write NAME.svg, NAME.dark.svg and titles.json to.
        dir: PathBuf,
        /// Width of each picture in px, from 400 to 2000.
        #[arg(long, default_value_t = 720, value_name = "PX")]
        width: u32,
    },
}

const SWEEP_HELP: &str = "\
Settings (--param, path or short name):
  broker.visibility_timeout_ms     timeout    (duration)
  workers.heartbeat.interval_ms    heartbeat  (duration)
  workers.heartbeat.max_extensions cap        (count)
  workers.count                    workers    (count)
  work.p99_ms                      p99        (duration)
  downstream.capacity              capacity   (count)

Columns: the swept field's path (its unit in the name, as
broker.visibility_timeout_ms), completions_per_min, overlapping_runs,
duplicate_effects, dead_lettered, redeliveries, recovery_ms, skipped.
With --seeds above 1 (the page's sweep CSV): the swept field's path,
seeds, then the mean, min and max of completions_per_min,
overlapping_runs, duplicate_effects, dead_lettered and recovery_s
(as completions_per_min_mean, completions_per_min_min, ...), then
skipped_seeds.

Example: lease-sim sweep clip-surge --param timeout --from 10s --to 120s --steps 12 --seeds 5";

const DIAGNOSE_HELP: &str = "\
Exit code 0 whether or not a signature is found; 2 when the scenario or a
flag does not read.

JSON (--json): scenario, seed, findings (each: id, title, evidence,
measure, at_ms, until_ms, message, fix_text, fix (the change as data, or
null), fix_label (the page's button, or null), fix_fields (each: field,
value; the fields the fix sets, named as a share link names them)).

Example: lease-sim diagnose two-attempts-of-the-same-activity --seed 3";

const RECOMMEND_HELP: &str = "\
Each candidate timeout runs over the same seeds (the file's seed and the
ones after it), counting redeliveries and duplicate effects per arrived
message; it meets a target when the one-sided 95% upper bound of its rate
does. The search doubles the timeout from the work's median until the
rates meet their targets, then bisects to the lowest that does. A crashed
worker's message stays invisible for the timeout: when the lowest timeout
is above --max-recovery, a heartbeat is searched instead (docs/MODEL.md,
\"The recommendation\").

JSON (--json): visibility_timeout_ms (or null), window_ms ([lo, hi] or
null), seeds, points (timeout_ms, heartbeat, redelivery_rate_mean,
redelivery_rate_upper, duplicate_rate_mean, duplicate_rate_upper,
recovery_ms, meets), heartbeat (or null), rule_of_thumb, verdict.

Example: lease-sim recommend clip-surge --max-redelivery-rate 0.002 --max-recovery 2min";

/// What ends the program early: a message for stderr and an exit code.
struct Failure {
    code: u8,
    message: String,
}

fn bad_input(message: String) -> Failure {
    Failure { code: 2, message }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match dispatch(cli.command) {
        Ok(()) => ExitCode::SUCCESS,
        Err(f) => {
            let _ = writeln!(io::stderr(), "lease-sim: {}", f.message);
            ExitCode::from(f.code)
        }
    }
}

fn dispatch(command: Command) -> Result<(), Failure> {
    match command {
        Command::Run {
            file,
            seed,
            until_ms,
            json,
            events,
            preset,
        } => {
            let scenario = load_under(&file, preset.as_deref(), seed)?;
            let run = simulate(
                &scenario,
                &Options {
                    until_ms,
                    ..Options::default()
                },
            )
            .map_err(|e| bad_input(format!("{file}: {e}")))?;
            if let Some(path) = events {
                write_events(&run, &path)?;
            }
            let out = if json {
                serde_json::to_string_pretty(&run.report).expect("a report always serializes")
                    + "\n"
            } else {
                summary::render(&run)
            };
            print(&out)
        }
        Command::Diagnose {
            file,
            seed,
            preset,
            json,
        } => {
            let scenario = load_under(&file, preset.as_deref(), seed)?;
            let run = simulate(&scenario, &Options::default())
                .map_err(|e| bad_input(format!("{file}: {e}")))?;
            let findings = lease_diagnose::diagnose(&scenario, &run);
            let d = diagnose::diagnosis(&scenario, &findings);
            print(&if json {
                diagnose::json(&d)
            } else {
                diagnose::render(&d, &run)
            })
        }
        Command::Lesson(LessonCommand::Check { file }) => lesson_check(&file),
        Command::Validate { file } => {
            let s = load(&file)?;
            print(&format!("ok: {}\n", s.name))
        }
        Command::Sweep {
            file,
            param,
            from,
            to,
            steps,
            log,
            seed,
            seeds,
            preset,
        } => {
            let param = sweep::parse_param(&param).map_err(bad_input)?;
            let from = sweep::parse_end("--from", param, &from).map_err(bad_input)?;
            let to = sweep::parse_end("--to", param, &to).map_err(bad_input)?;
            let steps = sweep::parse_steps(&steps).map_err(bad_input)?;
            let seeds = sweep::parse_seeds(&seeds).map_err(bad_input)?;
            if log && (from <= 0.0 || to <= 0.0) {
                return Err(bad_input(format!(
                    "--log: a logarithmic sweep needs --from and --to above 0 (got {from} to {to})"
                )));
            }
            let scenario = load_under(&file, preset.as_deref(), seed)?;
            let points = lease_diagnose::sweep_seeds(&scenario, param, from, to, steps, log, seeds)
                .map_err(|e| bad_input(format!("{file}: {e}")))?;
            print(&lease_diagnose::sweep_band_csv(param, &points))
        }
        Command::Recommend {
            file,
            max_redelivery_rate,
            max_recovery,
            max_duplicate_rate,
            seeds,
            preset,
            json,
        } => {
            let (targets, seeds) = recommend::parse(&recommend::Flags {
                max_redelivery_rate: &max_redelivery_rate,
                max_recovery: max_recovery.as_deref(),
                max_duplicate_rate: max_duplicate_rate.as_deref(),
                seeds: &seeds,
            })
            .map_err(bad_input)?;
            let scenario = load_under(&file, preset.as_deref(), None)?;
            let rec = lease_diagnose::recommend(&scenario, targets.clone(), seeds)
                .map_err(|e| bad_input(recommend::target_message(&file, &e)))?;
            let out = if json {
                recommend::json(&rec)
            } else {
                recommend::render(&scenario.name, &targets, &rec)
            };
            print(&out)
        }
        Command::List => {
            let mut out = String::new();
            for s in shipped::all() {
                match &s.variant_of {
                    None => out.push_str(&format!("{:<42} {}\n", s.name, s.title)),
                    Some(main) => out.push_str(&format!(
                        "  {:<40} {} (variant of {main})\n",
                        s.name, s.title
                    )),
                }
            }
            print(&out)
        }
        Command::Previews { dir, width } => {
            let written = previews::write_all(&dir, width).map_err(|e| Failure {
                code: e.code(),
                message: e.to_string(),
            })?;
            print(&format!("{written} previews in {}\n", dir.display()))
        }
    }
}

/// `lesson check FILE`: every problem of the file with its line, or a line
/// per step of the walk.
fn lesson_check(file: &str) -> Result<(), Failure> {
    let text = read_text(file)?;
    let lesson = lease_lesson::parse(&text).map_err(|errors| {
        let lines: Vec<String> = errors.0.iter().map(|e| format!("{file}:{e}")).collect();
        bad_input(format!(
            "{file} does not read as a lesson:\n{}",
            lines.join("\n")
        ))
    })?;
    let outcomes = lease_lesson::check::check(&lesson);
    let mut out = format!("{file}: {}\n", lesson.title);
    for o in &outcomes {
        out.push_str(&format!("{o}\n"));
    }
    let failed = outcomes.iter().filter(|o| !o.ok).count();
    if failed == 0 {
        out.push_str(&format!("ok: {} steps\n", outcomes.len()));
        print(&out)
    } else {
        print(&out)?;
        Err(Failure {
            code: 1,
            message: format!("{file}: {failed} of {} steps failed", outcomes.len()),
        })
    }
}

/// A file's text, or stdin's for `-`.
fn read_text(file: &str) -> Result<String, Failure> {
    if file == "-" {
        let mut t = String::new();
        io::stdin()
            .read_to_string(&mut t)
            .map_err(|e| bad_input(format!("stdin: {e}")))?;
        return Ok(t);
    }
    std::fs::read_to_string(file).map_err(|e| bad_input(format!("{file}: cannot read it ({e})")))
}

/// `load`, then the preset `--preset` names in place of the file's (the
/// preset fills only the fields the file leaves out). The name is read
/// before the file, so a bad name is refused whatever the file holds.
fn load_under(file: &str, preset: Option<&str>, seed: Option<u64>) -> Result<Scenario, Failure> {
    let preset = preset
        .map(recommend::preset_named)
        .transpose()
        .map_err(bad_input)?;
    let mut scenario = load(file)?;
    if let Some(p) = preset {
        scenario.broker.preset = p;
    }
    if let Some(seed) = seed {
        scenario.seed = seed;
    }
    Ok(scenario)
}

/// Read and validate a scenario: a path, `-` for stdin, or a shipped name.
fn load(file: &str) -> Result<Scenario, Failure> {
    let text = if file == "-" {
        let mut t = String::new();
        io::stdin()
            .read_to_string(&mut t)
            .map_err(|e| bad_input(format!("stdin: {e}")))?;
        t
    } else {
        match std::fs::read_to_string(file) {
            Ok(t) => t,
            Err(e) => match shipped::find(file) {
                Some(s) => s.text.to_string(),
                None => return Err(bad_input(format!("{file}: cannot read it ({e}), and no shipped scenario has that name (see `lease-sim list`)"))),
            },
        }
    };
    let scenario =
        lease_sim::parse_scenario(&text).map_err(|e| bad_input(format!("{file}: {e}")))?;
    // Not an error: a file from a later version may carry fields this one
    // lacks. But a misspelt field silently keeps its default, so say so.
    for field in lease_sim::parse::unknown_fields(&text, &scenario) {
        let _ = writeln!(
            io::stderr(),
            "lease-sim: {file}: warning: unknown field `{field}` ignored"
        );
    }
    Ok(scenario)
}

fn write_events(run: &Run, path: &PathBuf) -> Result<(), Failure> {
    let fail = |e: io::Error| {
        bad_input(format!(
            "{}: cannot write the event log ({e})",
            path.display()
        ))
    };
    /// One line of the log. The engine marks "no message / worker /
    /// receipt" with `u32::MAX`; a reader of the file should see `null`.
    #[derive(serde::Serialize)]
    struct Line {
        t: u64,
        kind: lease_sim::run::EventKind,
        message: Option<u32>,
        worker: Option<u32>,
        receipt: Option<u32>,
    }
    let some = |x: u32| (x != lease_sim::run::NONE).then_some(x);
    let f = std::fs::File::create(path).map_err(fail)?;
    let mut w = BufWriter::new(f);
    for e in &run.events {
        let line = Line {
            t: e.t,
            kind: e.kind,
            message: some(e.message),
            worker: some(e.worker),
            receipt: some(e.receipt),
        };
        serde_json::to_writer(&mut w, &line).map_err(|e| fail(e.into()))?;
        w.write_all(b"\n").map_err(fail)?;
    }
    w.flush().map_err(fail)
}

/// Write to stdout; a closed pipe (`| head`) ends quietly, not with a panic.
fn print(s: &str) -> Result<(), Failure> {
    let mut out = io::stdout().lock();
    match out.write_all(s.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(Failure {
            code: 1,
            message: format!("stdout: {e}"),
        }),
    }
}
