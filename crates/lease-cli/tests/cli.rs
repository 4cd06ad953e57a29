//! The `lease-sim` command as a user runs it.

mod common;

use std::process::{Command, Output};

use common::lease_sim;

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn temp_file(name: &str, text: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("lease-cli-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
fn run_prints_a_readable_summary() {
    let o = lease_sim(&["run", "scenarios/ninety-second-message.json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let s = stdout(&o);
    assert!(s.contains("A 90-second message"), "{s}");
    assert!(s.contains("acks rejected"));
    assert!(
        s.lines()
            .any(|l| l.trim_start().starts_with("acks rejected") && l.trim_end().ends_with(" 4")),
        "{s}"
    );
}

#[test]
fn run_json_is_the_report() {
    let o = lease_sim(&["run", "scenarios/clip-surge.json", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["name"], "clip-surge");
    assert!(v["totals"]["arrived"].as_u64().unwrap() > 500);
    assert!(v["ack_latency_ms"]["p99"].as_u64().is_some());
    assert!(v["receive_counts"]["1"].as_u64().unwrap() > 0);
    assert_eq!(v["series"]["bucket_ms"], 60_000);
    assert_eq!(
        v["series"]["completions_per_min"].as_array().unwrap().len(),
        25
    );
}

#[test]
fn run_counts_acks_of_a_message_already_deleted_as_settling_nothing_in_json_summary_and_events() {
    // JetStream: a redelivery's ack after another worker's late ack settled
    // the message is answered as a success that does nothing.
    let file = "scenarios/the-late-ack-that-settled-someone-else-s-run.json";
    let o = lease_sim(&["run", file, "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let no_op = v["totals"]["acks_no_op"].as_u64().unwrap();
    assert!(no_op > 0, "{}", v["totals"]);
    assert_eq!(v["totals"]["acks_rejected"], 0);

    let o = lease_sim(&["run", file]);
    let s = stdout(&o);
    assert!(
        s.lines()
            .any(|l| l.trim_start().starts_with("acks, nothing to settle")
                && l.trim_end().ends_with(&format!(" {no_op}"))),
        "{s}"
    );

    let out = temp_file("no-op-events.jsonl", "");
    let o = lease_sim(&["run", file, "--events", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let events = std::fs::read_to_string(&out).unwrap();
    let kinds: Vec<serde_json::Value> = events
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["kind"].clone())
        .collect();
    assert_eq!(
        kinds.iter().filter(|k| *k == "ack_no_op").count() as u64,
        no_op
    );
    assert!(!kinds.iter().any(|k| *k == "ack_rejected"));
}

#[test]
fn seed_overrides_the_file() {
    let a = lease_sim(&["run", "clip-surge", "--json", "--seed", "99"]);
    let v: serde_json::Value = serde_json::from_slice(&a.stdout).unwrap();
    assert_eq!(v["seed"], 99);
    let b = lease_sim(&["run", "clip-surge", "--json"]);
    let w: serde_json::Value = serde_json::from_slice(&b.stdout).unwrap();
    assert_eq!(w["seed"], 7);
    assert_ne!(v["totals"], w["totals"]);
}

#[test]
fn events_are_written_one_json_object_per_line() {
    let out = std::env::temp_dir().join(format!("lease-cli-events-{}.jsonl", std::process::id()));
    let o = lease_sim(&[
        "run",
        "order-confirmation-email",
        "--json",
        "--events",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let text = std::fs::read_to_string(&out).unwrap();
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len() as u64, v["totals"]["events"].as_u64().unwrap());
    assert_eq!(lines[0]["kind"], "arrive");
    assert_eq!(lines[0]["message"], 0);
    // An arrival has no worker or receipt yet: null, not a sentinel number.
    assert!(lines[0]["worker"].is_null() && lines[0]["receipt"].is_null());
    assert_eq!(lines[1]["kind"], "receive");
    assert_eq!(lines[1]["receipt"], 1);
    assert!(lines
        .iter()
        .any(|e| e["kind"] == "crash" && e["message"].is_null() && e["worker"] == 0));
}

#[test]
fn until_ms_gives_the_first_minutes() {
    let o = lease_sim(&[
        "run",
        "ninety-second-message",
        "--json",
        "--until-ms",
        "60000",
    ]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["totals"]["end_ms"], 60_000);
    assert_eq!(v["totals"]["deliveries"], 1);
}

#[test]
fn a_negative_timeout_names_the_field_and_exits_2() {
    let p = temp_file(
        "neg.json",
        r#"{"name":"x","broker":{"visibility_timeout_ms":-5}}"#,
    );
    let o = lease_sim(&["run", p.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("broker.visibility_timeout_ms"),
        "{}",
        stderr(&o)
    );
    assert!(stdout(&o).is_empty());
}

#[test]
fn garbage_json_says_where_and_exits_2() {
    let p = temp_file("garbage.json", "{\n  \"name\": \"x\",\n  oops\n}");
    let o = lease_sim(&["validate", p.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let e = stderr(&o);
    assert!(e.contains("line 3"), "{e}");
    assert!(!e.contains("panicked"));
}

#[test]
fn a_missing_file_exits_2() {
    let o = lease_sim(&["run", "no/such/file.json"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("no/such/file.json"));
}

#[test]
fn a_run_too_large_is_refused_with_what_to_reduce() {
    let p = temp_file(
        "big.json",
        r#"{"name":"big","duration_ms":86400000,"arrivals":{"backlog":1000000,"rate_per_s":1000}}"#,
    );
    let o = lease_sim(&["run", p.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let e = stderr(&o);
    assert!(e.contains("too large") && e.contains("reduce"), "{e}");
}

#[test]
fn validate_says_ok_and_list_names_every_shipped_scenario() {
    let o = lease_sim(&["validate", "scenarios/hung-handler.json"]);
    assert!(o.status.success());
    assert_eq!(stdout(&o).trim(), "ok: hung-handler");
    let o = lease_sim(&["list"]);
    let s = stdout(&o);
    assert_eq!(s.lines().count(), lease_sim::shipped::all().len());
    assert!(s.contains("clip-surge-heartbeat") && s.contains("variant of clip-surge"));
}

#[test]
fn a_closed_pipe_is_not_a_panic() {
    use std::io::Read;
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_lease-sim"))
        .args(["run", "invisible-backlog", "--json"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 1];
    child.stdout.take().unwrap().read_exact(&mut first).unwrap();
    // stdout is dropped here: the rest of the write meets a closed pipe.
    let out = child.wait_with_output().unwrap();
    assert!(!String::from_utf8_lossy(&out.stderr).contains("panicked"));
}

/// Exit code 2, the field named on stderr, nothing on stdout, no panic.
fn refused(args: &[&str], field: &str) -> String {
    let o = lease_sim(args);
    let e = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {e}");
    assert!(e.contains(field), "{args:?}: {e}");
    assert!(!e.contains("panicked"), "{e}");
    assert!(stdout(&o).is_empty(), "{args:?}");
    e
}

#[test]
fn a_ten_million_message_backlog_says_how_many_and_the_limit() {
    let p = temp_file(
        "backlog.json",
        r#"{"name":"b","arrivals":{"backlog":10000000}}"#,
    );
    let e = refused(&["run", p.to_str().unwrap()], "arrivals.backlog");
    assert!(e.contains("10,000,000") && e.contains("1,000,000"), "{e}");
}

#[test]
fn an_unknown_fence_lists_the_fences_and_exits_2() {
    let p = temp_file("fence.json", r#"{"name":"f","store":{"fence":"mutex"}}"#);
    let e = refused(&["validate", p.to_str().unwrap()], "store.fence");
    assert!(e.contains("`mutex`") && e.contains("fencing_token"), "{e}");
}

#[test]
fn out_of_range_values_name_field_value_and_range() {
    for (name, json, field, says) in [
        (
            "zero.json",
            r#"{"broker":{"visibility_timeout_ms":0}}"#,
            "broker.visibility_timeout_ms = 0",
            "must be from 1 ms",
        ),
        (
            "prefetch.json",
            r#"{"workers":{"concurrency":4,"prefetch":2}}"#,
            "workers.prefetch = 2",
            "workers.concurrency (4)",
        ),
        (
            "rate.json",
            r#"{"arrivals":{"rate_per_s":5000}}"#,
            "arrivals.rate_per_s = 5000",
            "1,000 messages per second",
        ),
        (
            "float.json",
            r#"{"duration_ms":1.5}"#,
            "duration_ms",
            "expected u64",
        ),
    ] {
        let p = temp_file(name, json);
        let e = refused(&["run", p.to_str().unwrap()], field);
        assert!(e.contains(says), "{e}");
    }
}

#[test]
fn an_array_or_an_empty_file_is_refused_plainly() {
    let p = temp_file("array.json", "[1, 2]");
    let e = refused(&["run", p.to_str().unwrap()], "(top level)");
    assert!(e.contains("JSON object"), "{e}");
    let p = temp_file("empty.json", "");
    refused(&["run", p.to_str().unwrap()], "not valid JSON");
}

#[test]
fn an_unknown_field_is_a_warning_naming_it() {
    let p = temp_file(
        "typo.json",
        r#"{"name":"t","brokr":{"visibility_timeout_ms":5},"arrivals":{"backlog":1,"rate_per_s":0}}"#,
    );
    let o = lease_sim(&["validate", p.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("warning: unknown field `brokr` ignored"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn an_unwritable_events_path_exits_2_naming_it() {
    let e = refused(
        &[
            "run",
            "sub-second-work",
            "--events",
            "/nonexistent-dir/events.jsonl",
        ],
        "/nonexistent-dir/events.jsonl",
    );
    assert!(e.contains("cannot write the event log"), "{e}");
}

#[test]
fn a_scenario_can_come_on_stdin() {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_lease-sim"))
        .args(["run", "-", "--json"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(br#"{"name":"piped","arrivals":{"backlog":3,"rate_per_s":0}}"#)
        .unwrap();
    let o = child.wait_with_output().unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["name"], "piped");
    assert_eq!(v["totals"]["deleted"], 3);
}

/// The CSV's rows as (value, completions per minute, skipped).
fn sweep_rows(csv: &str) -> Vec<(f64, f64, String)> {
    csv.lines()
        .skip(1)
        .map(|l| {
            let f: Vec<&str> = l.splitn(8, ',').collect();
            assert_eq!(f.len(), 8, "{l}");
            (
                f[0].parse().unwrap(),
                f[1].parse().unwrap(),
                f[7].to_string(),
            )
        })
        .collect()
}

#[test]
fn a_timeout_sweep_prints_a_header_and_a_row_per_step() {
    let o = lease_sim(&[
        "sweep",
        "clip-surge",
        "--param",
        "timeout",
        "--from",
        "10s",
        "--to",
        "120s",
        "--steps",
        "12",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let s = stdout(&o);
    assert!(
        s.starts_with("broker.visibility_timeout_ms,completions_per_min,overlapping_runs,"),
        "{s}"
    );
    let rows = sweep_rows(&s);
    assert_eq!(rows.len(), 12, "{s}");
    assert_eq!(rows[0].0, 10_000.0);
    assert_eq!(rows[11].0, 120_000.0);
    assert!(rows.iter().all(|r| r.2.is_empty()), "{s}");
    assert!(rows[11].1 > rows[0].1, "{s}");
}

#[test]
fn short_and_long_param_names_and_units_give_the_same_sweep() {
    let run = |param: &str, from: &str, to: &str| {
        let o = lease_sim(&[
            "sweep",
            "clip-surge",
            "--param",
            param,
            "--from",
            from,
            "--to",
            to,
            "--steps",
            "4",
        ]);
        assert!(o.status.success(), "{param}: {}", stderr(&o));
        stdout(&o)
    };
    let long = run("broker.visibility_timeout_ms", "10000", "120000");
    assert_eq!(run("timeout", "10s", "2min"), long);
    assert_eq!(run("timeout", "10000ms", "120000"), long);
    for (short, path, from, to) in [
        ("heartbeat", "workers.heartbeat.interval_ms", "5s", "20000"),
        ("cap", "workers.heartbeat.max_extensions", "1", "8"),
        ("workers", "workers.count", "2", "10"),
        ("p99", "work.p99_ms", "30000", "1.5min"),
        ("capacity", "downstream.capacity", "5", "40"),
    ] {
        assert_eq!(run(short, from, to), run(path, from, to), "{short}");
    }
}

#[test]
fn a_sweep_point_that_cannot_run_is_a_skipped_row() {
    let o = lease_sim(&[
        "sweep",
        "ninety-second-message",
        "--param",
        "workers",
        "--from",
        "0",
        "--to",
        "2",
        "--steps",
        "3",
        "--seed",
        "5",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let rows = sweep_rows(&stdout(&o));
    assert_eq!(rows.len(), 3);
    assert!(rows[0].2.contains("workers.count"), "{:?}", rows[0]);
    assert!(rows[1].2.is_empty() && rows[2].2.is_empty());
}

/// `lease-sim sweep FILE --param PARAM --from 10s --to 60s --steps 3` with
/// the given flags' values replaced and `extra` appended; FILE is
/// clip-surge unless `set` gives a `FILE`.
fn sweep_args(param: &str, set: &[(&str, &str)], extra: &[&str]) -> Vec<String> {
    let file = set
        .iter()
        .find(|(flag, _)| *flag == "FILE")
        .map_or("clip-surge", |(_, v)| *v);
    let mut args: Vec<String> = [
        "sweep", file, "--param", param, "--from", "10s", "--to", "60s", "--steps", "3",
    ]
    .iter()
    .map(|a| a.to_string())
    .collect();
    for (flag, value) in set.iter().filter(|(flag, _)| *flag != "FILE") {
        let i = args.iter().position(|a| a == flag).unwrap();
        args[i + 1] = value.to_string();
    }
    args.extend(extra.iter().map(|a| a.to_string()));
    args
}

fn sweep_refused(param: &str, set: &[(&str, &str)], extra: &[&str], field: &str) -> String {
    let args = sweep_args(param, set, extra);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    refused(&args, field)
}

#[test]
fn bad_sweep_input_names_the_flag_and_exits_2() {
    let e = sweep_refused("speed", &[], &[], "--param");
    assert!(e.contains("`speed`"), "{e}");
    for (path, short) in [
        ("broker.visibility_timeout_ms", "timeout"),
        ("workers.heartbeat.interval_ms", "heartbeat"),
        ("workers.heartbeat.max_extensions", "cap"),
        ("workers.count", "workers"),
        ("work.p99_ms", "p99"),
        ("downstream.capacity", "capacity"),
    ] {
        assert!(e.contains(path) && e.contains(short), "{e}");
    }
    for (flag, value) in [
        ("--from", "-5s"),
        ("--to", "-1"),
        ("--to", "inf"),
        ("--from", "NaN"),
        ("--to", "1e400"),
        ("--from", "10 parsecs"),
        ("--from", "ten"),
        ("--steps", "0"),
        ("--steps", "201"),
        ("--steps", "-2"),
        ("--steps", "many"),
    ] {
        sweep_refused("timeout", &[(flag, value)], &[], flag);
    }
    let e = sweep_refused("workers", &[("--from", "2s"), ("--to", "4")], &[], "--from");
    assert!(e.contains("workers.count is a count"), "{e}");
    sweep_refused("timeout", &[("--from", "0")], &["--log"], "--log");
    for seeds in ["0", "1001", "-1", "2.5", "many"] {
        let e = sweep_refused("timeout", &[], &["--seeds", seeds], "--seeds");
        assert!(e.contains("1 to 1000"), "{e}");
    }
    let e = sweep_refused(
        "timeout",
        &[("FILE", "no/such/file.json")],
        &[],
        "no/such/file.json",
    );
    assert!(e.contains("cannot read it"), "{e}");
    let p = temp_file(
        "sweep-neg.json",
        r#"{"name":"x","broker":{"visibility_timeout_ms":-5}}"#,
    );
    let p = p.to_str().unwrap();
    sweep_refused(
        "timeout",
        &[("FILE", p)],
        &[],
        "broker.visibility_timeout_ms",
    );
    // No point that can run at all: refused, naming the field.
    sweep_refused(
        "workers",
        &[("--from", "0"), ("--to", "0")],
        &[],
        "workers.count",
    );
}

/// A CSV as its header's names and each row's fields.
fn csv_table(csv: &str) -> (Vec<String>, Vec<Vec<String>>) {
    let mut lines = csv.lines();
    let head = lines.next().unwrap_or_default();
    let names = head.split(',').map(str::to_string).collect();
    let rows = lines
        .map(|l| l.split(',').map(str::to_string).collect())
        .collect();
    (names, rows)
}

#[test]
fn a_sweep_over_three_seeds_has_the_mean_min_and_max_of_three_single_seed_sweeps() {
    let base = [
        "sweep",
        "clip-surge",
        "--param",
        "timeout",
        "--from",
        "20s",
        "--to",
        "90s",
        "--steps",
        "3",
    ];
    let with = |extra: &[&str]| {
        let mut args = base.to_vec();
        args.extend(extra);
        let o = lease_sim(&args);
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
        stdout(&o)
    };
    let seed = lease_sim::shipped::find("clip-surge")
        .unwrap()
        .scenario
        .seed;
    let singles: Vec<(Vec<String>, Vec<Vec<String>>)> = (0..3)
        .map(|k| csv_table(&with(&["--seed", &(seed + k).to_string()])))
        .collect();
    assert_eq!(
        with(&["--seeds", "1"]),
        with(&[]),
        "--seeds 1 is the plain sweep"
    );
    let (names, rows) = csv_table(&with(&["--seeds", "3"]));
    assert_eq!(names[..2], ["broker.visibility_timeout_ms", "seeds"]);
    assert_eq!(names.last().map(String::as_str), Some("skipped_seeds"));
    assert_eq!(rows.len(), 3);
    let column = |names: &[String], name: &str| {
        names
            .iter()
            .position(|n| n == name)
            .unwrap_or_else(|| panic!("no column {name} in {names:?}"))
    };
    let mut differs = false;
    for (metric, single, scale) in [
        ("completions_per_min", "completions_per_min", 1.0),
        ("overlapping_runs", "overlapping_runs", 1.0),
        ("duplicate_effects", "duplicate_effects", 1.0),
        ("dead_lettered", "dead_lettered", 1.0),
        ("recovery_s", "recovery_ms", 1_000.0),
    ] {
        for (i, row) in rows.iter().enumerate() {
            assert_eq!(row[0], singles[0].1[i][0], "the points' values");
            assert_eq!(row[1], "3");
            let xs: Vec<f64> = singles
                .iter()
                .filter_map(|(n, r)| r[i][column(n, single)].parse::<f64>().ok())
                .map(|x| x / scale)
                .collect();
            let got = |suffix: &str| row[column(&names, &format!("{metric}_{suffix}"))].clone();
            if xs.is_empty() {
                assert!(got("mean").is_empty() && got("min").is_empty(), "{metric}");
                continue;
            }
            let mean = xs.iter().sum::<f64>() / xs.len() as f64;
            let lo = xs.iter().copied().fold(f64::INFINITY, f64::min);
            let hi = xs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            differs |= hi > lo;
            for (suffix, want) in [("mean", mean), ("min", lo), ("max", hi)] {
                let v: f64 = got(suffix).parse().unwrap();
                assert!(
                    (v - want).abs() < 1e-3,
                    "{metric}_{suffix} at row {i}: {v} != {want}"
                );
            }
        }
    }
    assert!(differs, "runs over three random seeds should not all agree");
}

#[test]
fn a_sweep_reads_its_scenario_on_stdin_too() {
    use std::io::Write;
    use std::process::Stdio;
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../scenarios/clip-surge.json"
    ))
    .unwrap();
    let args = [
        "--param", "timeout", "--from", "30s", "--to", "90s", "--steps", "3",
    ];
    let mut child = Command::new(env!("CARGO_BIN_EXE_lease-sim"))
        .arg("sweep")
        .arg("-")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(text.as_bytes())
        .unwrap();
    let piped = child.wait_with_output().unwrap();
    assert!(piped.status.success(), "{}", stderr(&piped));
    let mut named = vec!["sweep", "clip-surge"];
    named.extend(args);
    assert_eq!(stdout(&piped), stdout(&lease_sim(&named)));
}

fn json_of(o: &Output) -> serde_json::Value {
    match serde_json::from_str(&stdout(o)) {
        Ok(v) => v,
        Err(e) => panic!("{e}: {}", stdout(o)),
    }
}

#[test]
fn recommend_json_has_the_timeout_the_window_and_each_point() {
    let o = lease_sim(&[
        "recommend",
        "scenarios/dependency-slows-3x.json",
        "--max-redelivery-rate",
        "0.01",
        "--max-recovery",
        "90s",
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v = json_of(&o);
    let t = v["visibility_timeout_ms"].as_u64().unwrap_or(0);
    assert!((30_000..=90_000).contains(&t), "{v}");
    assert_eq!(v["window_ms"][0].as_u64(), Some(t));
    assert_eq!(v["window_ms"][1].as_u64(), Some(90_000));
    assert_eq!(v["seeds"].as_u64(), Some(20));
    assert!(v["heartbeat"].is_null());
    let points = v["points"].as_array().cloned().unwrap_or_default();
    assert!(points.len() >= 4, "{v}");
    for p in &points {
        assert!(p["timeout_ms"].is_u64(), "{p}");
        let (mean, upper) = (
            p["redelivery_rate_mean"].as_f64().unwrap_or(f64::NAN),
            p["redelivery_rate_upper"].as_f64().unwrap_or(f64::NAN),
        );
        assert!(mean <= upper, "{p}");
    }
    assert!(points.iter().any(|p| p["timeout_ms"].as_u64() == Some(t)));
}

#[test]
fn recommend_gives_a_heartbeat_when_the_recovery_target_is_below_every_timeout() {
    let o = lease_sim(&[
        "recommend",
        "clip-surge",
        "--max-redelivery-rate",
        "0.002",
        "--max-recovery",
        "2min",
        "--seeds",
        "10",
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v = json_of(&o);
    assert!(v["window_ms"].is_null(), "{v}");
    assert_eq!(v["visibility_timeout_ms"].as_u64(), Some(120_000));
    assert_eq!(v["heartbeat"]["interval_ms"].as_u64(), Some(40_000));
    assert_eq!(v["heartbeat"]["extend_by_ms"].as_u64(), Some(120_000));
    assert!(v["heartbeat"]["max_extensions"].is_u64(), "{v}");
    assert_eq!(v["seeds"].as_u64(), Some(10));
}

#[test]
fn recommend_prints_the_verdict_window_points_and_rule_of_thumb() {
    let o = lease_sim(&[
        "recommend",
        "dependency-slows-3x",
        "--max-redelivery-rate",
        "0.01",
        "--seeds",
        "5",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("Set the visibility timeout to"), "{out}");
    assert!(out.contains("window: "), "{out}");
    assert!(out.contains("redelivery upper"), "{out}");
    assert!(out.contains("rule of thumb: "), "{out}");
    assert!(out.contains("over 5 seeds"), "{out}");
}

#[test]
fn recommend_refuses_bad_targets_naming_the_flag_with_exit_2() {
    for (args, flag) in [
        (
            &["--max-redelivery-rate", "-0.1"][..],
            "--max-redelivery-rate",
        ),
        (
            &["--max-redelivery-rate", "NaN"][..],
            "--max-redelivery-rate",
        ),
        (
            &["--max-redelivery-rate", "1.5"][..],
            "--max-redelivery-rate",
        ),
        (
            &["--max-redelivery-rate", "lots"][..],
            "--max-redelivery-rate",
        ),
        (
            &["--max-redelivery-rate", "0.01", "--max-duplicate-rate", "2"][..],
            "--max-duplicate-rate",
        ),
        (
            &["--max-redelivery-rate", "0.01", "--max-recovery", "-2min"][..],
            "--max-recovery",
        ),
        (
            &["--max-redelivery-rate", "0.01", "--max-recovery", "0"][..],
            "--max-recovery",
        ),
        (
            &["--max-redelivery-rate", "0.01", "--seeds", "0"][..],
            "--seeds",
        ),
        (
            &["--max-redelivery-rate", "0.01", "--seeds", "-3"][..],
            "--seeds",
        ),
    ] {
        let mut all = vec!["recommend", "clip-surge"];
        all.extend_from_slice(args);
        let o = lease_sim(&all);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = stderr(&o);
        assert!(err.contains(flag), "{args:?}: {err}");
        assert!(stdout(&o).is_empty(), "{args:?}");
    }
}
#[test]
fn run_reads_each_work_shape_built_from_data() {
    let base = r#""name": "own-data", "duration_ms": 600000,
        "arrivals": {"rate_per_s": 1.0}, "workers": {"count": 8},
        "broker": {"visibility_timeout_ms": 30000}"#;
    for (file, work) in [
        (
            "quantiles.json",
            r#"{"dist": "quantiles", "points": [[0.5, 2000], [0.9, 7000], [0.99, 20000]]}"#,
        ),
        (
            "empirical.json",
            r#"{"dist": "empirical", "samples_ms": [800, 1200, 1900, 2500, 4000, 9000, 21000]}"#,
        ),
        (
            "histogram.json",
            r#"{"dist": "histogram", "buckets": [[1000, 40], [5000, 50], [25000, 10]]}"#,
        ),
    ] {
        let p = temp_file(file, &format!("{{{base}, \"work\": {work}}}"));
        let o = lease_sim(&["run", p.to_str().unwrap(), "--json"]);
        assert!(o.status.success(), "{file}: {}", stderr(&o));
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        assert!(
            v["totals"]["deleted"].as_u64().unwrap() > 400,
            "{file}: {v}"
        );
    }
}

#[test]
fn unsorted_histogram_buckets_exit_2_naming_the_bucket() {
    let p = temp_file(
        "unsorted-buckets.json",
        r#"{"name": "x", "work": {"dist": "histogram", "buckets": [[5000, 1], [1000, 2]]}}"#,
    );
    let o = lease_sim(&["run", p.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let e = stderr(&o);
    assert!(e.contains("work.buckets[1]"), "{e}");
    assert!(e.contains("upper bounds must increase"), "{e}");
}

#[test]
fn a_file_with_a_client_library_runs_and_says_which() {
    let p = temp_file(
        "lambda.json",
        r#"{"name":"l","duration_ms":120000,"broker":{"preset":"sqs_standard"},
            "workers":{"client":{"library":"sqs_lambda","function_timeout_ms":5000}}}"#,
    );
    let o = lease_sim(&["run", p.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let s = stdout(&o);
    // Six times the 5 s function timeout.
    assert!(s.contains("visibility timeout 30 s"), "{s}");
    assert!(
        s.contains("SQS with Lambda") && s.contains("5 s kills"),
        "{s}"
    );
    let p = temp_file(
        "pubsub.json",
        r#"{"name":"p","duration_ms":60000,"workers":{"client":{"library":"pubsub"}}}"#,
    );
    let o = lease_sim(&["run", p.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("up to 1 h"), "{}", stdout(&o));
}

#[test]
fn a_client_parameter_out_of_range_or_of_another_library_exits_2() {
    for (name, json, field, says) in [
        (
            "fn.json",
            r#"{"workers":{"client":{"library":"sqs_lambda","function_timeout_ms":1000000}}}"#,
            "workers.client.function_timeout_ms = 1000000",
            "15 min",
        ),
        (
            "other.json",
            r#"{"workers":{"client":{"library":"pubsub","max_auto_lock_renewal_ms":1000}}}"#,
            "workers.client.max_auto_lock_renewal_ms",
            "service_bus",
        ),
        (
            "lib.json",
            r#"{"workers":{"client":{"library":"kafka"}}}"#,
            "workers.client.library",
            "sqs_lambda",
        ),
        (
            "stale.json",
            r#"{"broker":{"stale_delete":"sometimes"}}"#,
            "broker.stale_delete",
            "permissive",
        ),
    ] {
        let p = temp_file(name, json);
        let e = refused(&["validate", p.to_str().unwrap()], field);
        assert!(e.contains(says), "{e}");
    }
}

#[test]
fn recommend_on_the_own_system_example_gives_every_field_of_its_json() {
    let file = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../examples/own-system.json"
    );
    let o = lease_sim(&[
        "recommend",
        file,
        "--max-redelivery-rate",
        "0.002",
        "--seeds",
        "5",
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).is_empty(), "no warning: {}", stderr(&o));
    let v = json_of(&o);
    let timeout = v["visibility_timeout_ms"].as_u64().expect("a timeout");
    let window = v["window_ms"].as_array().expect("a window");
    assert_eq!(window.len(), 2);
    let (lo, hi) = (window[0].as_u64().unwrap(), window[1].as_u64().unwrap());
    assert!(lo <= timeout && timeout <= hi, "{timeout} in [{lo}, {hi}]");
    assert_eq!(v["seeds"], 5);
    let points = v["points"].as_array().expect("points");
    assert!(!points.is_empty());
    for p in points {
        assert!(p["timeout_ms"].as_u64().is_some(), "{p}");
        for rate in ["redelivery_rate_mean", "redelivery_rate_upper"] {
            let r = p[rate].as_f64().unwrap_or(-1.0);
            assert!((0.0..=1.0).contains(&r), "{rate}: {p}");
        }
        assert!(p.get("heartbeat").is_some(), "{p}");
        assert!(p.get("candidate").is_none(), "said once: {p}");
    }
    assert!(v
        .get("heartbeat")
        .is_some_and(|h| h.is_null() || h.is_object()));
    let verdict = v["verdict"].as_str().unwrap_or_default();
    assert!(
        verdict.contains("Pub/Sub's client extends every lease"),
        "{verdict}"
    );
}

/// `lease-sim run` names the preset's own rule (`says`), `sweep` over the
/// timeout from `from` gives three rows, and `recommend` answers with points.
fn runs_sweeps_and_recommends_by_name(preset: &str, says: &str, from: &str) {
    let p = temp_file(
        &format!("{preset}.json"),
        &format!(
            r#"{{"name":"b","duration_ms":600000,"broker":{{"preset":"{preset}",
                "visibility_timeout_ms":20000}},
                "work":{{"dist":"lognormal","median_ms":5000,"p99_ms":40000}}}}"#
        ),
    );
    let file = p.to_str().unwrap();
    let o = lease_sim(&["run", file]);
    assert!(o.status.success(), "{preset}: {}", stderr(&o));
    assert!(stdout(&o).contains(says), "{preset}: {}", stdout(&o));
    let o = lease_sim(&[
        "sweep", file, "--param", "timeout", "--from", from, "--to", "60s", "--steps", "3",
    ]);
    assert!(o.status.success(), "{preset}: {}", stderr(&o));
    assert_eq!(sweep_rows(&stdout(&o)).len(), 3, "{preset}: {}", stdout(&o));
    let o = lease_sim(&[
        "recommend",
        file,
        "--max-redelivery-rate",
        "0.05",
        "--seeds",
        "3",
        "--json",
    ]);
    assert!(o.status.success(), "{preset}: {}", stderr(&o));
    let points = json_of(&o)["points"].as_array().map_or(0, Vec::len);
    if preset == "sidekiq_pro" {
        // No lease: nothing to search.
        assert_eq!(points, 0, "{preset}");
        assert!(json_of(&o)["verdict"]
            .as_str()
            .is_some_and(|v| v.starts_with("There is no lease to choose")));
    } else {
        assert!(points > 0, "{preset}");
    }
}

/// `recommend --preset NAME` runs the file under that preset and answers
/// as the library does for the same scenario.
#[test]
fn recommend_takes_a_preset_by_name_and_answers_as_the_library_does() {
    let text = r#"{"name":"p","duration_ms":600000,
        "work":{"dist":"lognormal","median_ms":5000,"p99_ms":40000}}"#;
    let p = temp_file("preset-flag.json", text);
    let file = p.to_str().unwrap();
    for (name, says) in [
        ("bullmq", "Set lockDuration to"),
        ("nats_jetstream", "Set AckWait to"),
        (
            "celery_redis",
            "Set the visibility_timeout (broker_transport_options) to",
        ),
        ("cloud_tasks", "Set the dispatch deadline to"),
        (
            "sidekiq_pro",
            "There is no lease to choose under Sidekiq Pro",
        ),
    ] {
        let o = lease_sim(&[
            "recommend",
            file,
            "--preset",
            name,
            "--max-redelivery-rate",
            "0.05",
            "--seeds",
            "3",
            "--json",
        ]);
        assert!(o.status.success(), "{name}: {}", stderr(&o));
        let got = json_of(&o);
        let mut s = lease_sim::parse_scenario(text).expect("the file parses");
        s.broker.preset = serde_json::from_value(serde_json::Value::String(name.into()))
            .expect("a preset's name");
        let want = lease_diagnose::recommend(
            &s,
            lease_diagnose::Targets {
                max_redelivery_rate: 0.05,
                max_recovery_ms: None,
                max_duplicate_rate: None,
            },
            3,
        )
        .expect("the library recommends");
        assert_eq!(
            got["verdict"].as_str(),
            Some(want.verdict.as_str()),
            "{name}"
        );
        assert!(want.verdict.starts_with(says), "{name}: {}", want.verdict);
        assert_eq!(
            got["visibility_timeout_ms"].as_u64(),
            want.visibility_timeout_ms,
            "{name}"
        );
        assert_eq!(
            got["points"].as_array().map_or(0, Vec::len),
            want.points.len(),
            "{name}"
        );
        if name == "cloud_tasks" {
            for pt in got["points"].as_array().into_iter().flatten() {
                let t = pt["timeout_ms"].as_u64().unwrap_or(0);
                assert!((15_000..=1_800_000).contains(&t), "{t}");
            }
        }
    }
    let o = lease_sim(&[
        "recommend",
        file,
        "--preset",
        "kafka",
        "--max-redelivery-rate",
        "0.05",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("--preset: `kafka` is not a broker preset (one of textbook"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn run_sweep_and_recommend_take_each_broker_one_runs_by_preset_name() {
    for (preset, says) in [
        ("rabbitmq_4_2", "everything unacked on the worker's channel"),
        (
            "rabbitmq_4_3",
            "an expiry does not count toward the delivery limit",
        ),
        ("nats_jetstream", "a late ack settles the message"),
        ("redis_streams", "no broker timer"),
        ("bullmq", "the stalled checker (every 30 s)"),
        ("celery_redis", "the ack goes as the handler starts"),
        ("celery_sqs", "the ack goes as the handler starts"),
    ] {
        runs_sweeps_and_recommends_by_name(preset, says, "10s");
    }
    // The channel tick is named as the scenario file names it.
    let p = temp_file(
        "tick.json",
        r#"{"broker":{"preset":"rabbitmq_4_2","expiry_check_ms":0}}"#,
    );
    let o = lease_sim(&["run", p.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("broker.expiry_check_ms = 0"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn run_sweep_and_recommend_take_each_managed_service_by_preset_name() {
    for (preset, says) in [
        ("temporal_activity", "the timeout caps each attempt"),
        (
            "cloud_tasks",
            "a redelivery waits 100 ms, 200 ms, 400 ms, 800 ms",
        ),
        ("sidekiq_pro", "no lease while a worker lives"),
    ] {
        // Cloud Tasks' dispatch deadline starts at 15 s.
        runs_sweeps_and_recommends_by_name(preset, says, "20s");
    }
    // Temporal's StartToClose has no default: the file must give it.
    let p = temp_file(
        "no-start-to-close.json",
        r#"{"broker":{"preset":"temporal_activity"}}"#,
    );
    let o = lease_sim(&["run", p.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("StartToClose"), "{}", stderr(&o));
}

/// `lease-sim run` says how many messages went past the limit in the
/// preset's own words: dropped under Cloud Tasks, left in the stream under
/// JetStream, and the JSON report counts them apart from dead letters.
#[test]
fn run_counts_a_task_dropped_or_a_message_left_in_the_stream_past_the_limit() {
    for (preset, line, total) in [
        ("cloud_tasks", "dropped past the limit", "dropped"),
        ("nats_jetstream", "stays in the stream", "stayed"),
    ] {
        // Three 10-minute jobs against a 20 s lease and a limit of 2, with
        // workers enough to take every redelivery while the first runs go on.
        let p = temp_file(
            &format!("past-{preset}.json"),
            &format!(
                r#"{{"name":"past","duration_ms":600000,"broker":{{"preset":"{preset}",
                    "visibility_timeout_ms":20000,"max_receive_count":2,"retry_min_ms":null}},
                    "workers":{{"count":9}},
                    "arrivals":{{"backlog":3,"rate_per_s":0.0}},
                    "work":{{"dist":"constant","ms":600000}}}}"#
            ),
        );
        let file = p.to_str().unwrap();
        let o = lease_sim(&["run", file]);
        assert!(o.status.success(), "{preset}: {}", stderr(&o));
        let out = stdout(&o);
        let row = out
            .lines()
            .find(|l| l.trim_start().starts_with(line))
            .unwrap_or_else(|| panic!("{preset}: no '{line}' in {out}"));
        assert!(row.trim_end().ends_with(" 3"), "{preset}: {row}");
        let o = lease_sim(&["run", file, "--json"]);
        let t = &json_of(&o)["totals"];
        assert_eq!(t[total], 3, "{preset}: {t}");
        assert_eq!(t["dead_lettered_expired"], 0, "{preset}: {t}");
    }
}

/// Each shipped scenario from a team's report, the signature its diagnosis
/// names, and the variant that applies the fix.
const REPORTED: [(&str, &str, &str); 6] = [
    (
        "celery-task-runs-four-times",
        "buffer-expiry",
        "celery-task-runs-four-times-visibility-timeout",
    ),
    (
        "one-slow-consumer-requeues-its-whole-channel",
        "channel-wide-requeue",
        "one-slow-consumer-requeues-its-whole-channel-consumer-timeout",
    ),
    (
        "bullmq-stalled-more-than-allowable-limit",
        "stall-failure",
        "bullmq-stalled-sandboxed-processor",
    ),
    (
        "forty-redeliveries-of-a-message-that-never-left-the-buffer",
        "buffer-expiry",
        "forty-redeliveries-of-a-message-that-never-left-the-buffer-max-ack-pending",
    ),
    (
        "the-late-ack-that-settled-someone-else-s-run",
        "ack-settled-another-run",
        "the-late-ack-that-settled-someone-else-s-run-in-progress",
    ),
    (
        "two-attempts-of-the-same-activity",
        "concurrent-duplicates",
        "two-attempts-of-the-same-activity-heartbeat",
    ),
];

fn finding_ids(v: &serde_json::Value) -> Vec<String> {
    v["findings"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|f| f["id"].as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn diagnose_names_each_reported_signature_with_its_evidence_and_fix_and_nothing_on_its_fix_variant()
{
    for (name, id, fixed) in REPORTED {
        let o = lease_sim(&["diagnose", name]);
        assert!(o.status.success(), "{name}: {}", stderr(&o));
        let text = stdout(&o);
        let o = lease_sim(&["diagnose", name, "--json"]);
        assert!(o.status.success(), "{name}: {}", stderr(&o));
        let v = json_of(&o);
        let f = v["findings"]
            .as_array()
            .and_then(|a| a.iter().find(|f| f["id"] == id))
            .unwrap_or_else(|| panic!("{name}: no {id} in {}", v));
        let title = f["title"].as_str().expect("a title");
        // The text gives the finding as the page lists it: its title, each
        // line of evidence, the fix in words, and the button with the
        // fields it sets.
        let at = text
            .find(&format!("\n{title} [{id}]\n"))
            .unwrap_or_else(|| panic!("{name}: {title} [{id}] in\n{text}"));
        let block = &text[at..];
        let evidence = f["evidence"].as_array().expect("evidence");
        assert!(!evidence.is_empty(), "{name}: {f}");
        for e in evidence {
            let line = format!("  - {}\n", e.as_str().unwrap());
            assert!(block.contains(&line), "{name}: {line} in\n{block}");
        }
        let fix_text = f["fix_text"].as_str().unwrap();
        assert!(
            block.contains(&format!("  Fix: {fix_text}\n")),
            "{name}: {block}"
        );
        let label = f["fix_label"].as_str().expect("a fix the page can apply");
        let fields = f["fix_fields"].as_array().expect("fix_fields");
        assert!(!fields.is_empty(), "{name}: the fix sets a field: {f}");
        let set: Vec<String> = fields
            .iter()
            .map(|c| {
                format!(
                    "{}={}",
                    c["field"].as_str().unwrap(),
                    c["value"].as_str().unwrap()
                )
            })
            .collect();
        assert!(
            block.contains(&format!("  Apply fix: {label} ({})\n", set.join(", "))),
            "{name}: {block}"
        );
        assert!(
            text.starts_with(&format!("{name} (seed 1): Diagnosis: ")),
            "{text}"
        );

        let o = lease_sim(&["diagnose", fixed, "--json"]);
        assert!(o.status.success(), "{fixed}: {}", stderr(&o));
        let ids = finding_ids(&json_of(&o));
        assert!(!ids.iter().any(|x| x == id), "{fixed}: {ids:?}");
        let o = lease_sim(&["diagnose", fixed]);
        assert!(
            !stdout(&o).contains(&format!("[{id}]")),
            "{fixed}: {}",
            stdout(&o)
        );
    }
}

#[test]
fn diagnose_json_is_the_library_s_findings_for_the_seed_asked_with_each_fix_s_fields() {
    let name = "two-attempts-of-the-same-activity";
    let o = lease_sim(&["diagnose", name, "--seed", "3", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v = json_of(&o);
    assert_eq!(v["scenario"], name);
    assert_eq!(v["seed"], 3);
    let mut s = lease_sim::shipped::find(name).expect("shipped").scenario;
    s.seed = 3;
    let run = lease_sim::simulate(&s, &lease_sim::Options::default()).expect("runs");
    let want = lease_diagnose::diagnose(&s, &run);
    let got = v["findings"].as_array().expect("findings");
    assert_eq!(got.len(), want.len(), "{v}");
    for (g, w) in got.iter().zip(&want) {
        let back: lease_diagnose::Finding =
            serde_json::from_value(g.clone()).expect("reads back as a Finding");
        assert_eq!(&back, w);
        assert_eq!(
            g["fix_label"].as_str().map(str::to_string),
            w.fix.as_ref().map(|f| f.label())
        );
        // The fields named, set on the scenario, give what the fix gives.
        if let Some(fix) = &w.fix {
            let mut fixed = s.clone();
            fix.apply(&mut fixed);
            let mut by_fields = s.clone();
            for c in g["fix_fields"].as_array().unwrap() {
                let field = lease_fields::find(c["field"].as_str().unwrap()).expect("a field");
                let value = field
                    .spec()
                    .parse(c["value"].as_str().unwrap())
                    .expect("a value the field reads");
                lease_fields::set(&mut by_fields, field, &value).expect("sets");
            }
            assert_eq!(
                lease_fields::diff(&by_fields, &fixed),
                Vec::<(&str, String)>::new(),
                "{}",
                w.id
            );
        }
    }
    let text = stdout(&lease_sim(&["diagnose", name, "--seed", "3"]));
    assert!(
        text.starts_with(&format!(
            "{name} (seed 3): Diagnosis: {} failure signatures\n",
            want.len()
        )),
        "{text}"
    );
}

#[test]
fn diagnose_of_a_healthy_run_says_so_as_the_page_does() {
    let o = lease_sim(&["diagnose", "sub-second-work-heartbeat", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v = json_of(&o);
    assert_eq!(finding_ids(&v), Vec::<String>::new(), "{v}");
    let text = stdout(&lease_sim(&["diagnose", "sub-second-work-heartbeat"]));
    assert!(text.contains("Diagnosis: no failure signature\n"), "{text}");
    assert!(
        text.contains("this configuration is in the good quadrant"),
        "{text}"
    );
}

#[test]
fn diagnose_refuses_a_missing_file_and_an_unknown_preset_with_exit_2() {
    let o = lease_sim(&["diagnose", "no-such-scenario"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("no-such-scenario: cannot read it")
            && stderr(&o).contains("no shipped scenario has that name"),
        "{}",
        stderr(&o)
    );
    assert!(stdout(&o).is_empty());
    let o = lease_sim(&["diagnose", "clip-surge", "--preset", "kafka"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("--preset: `kafka` is not a broker preset (one of textbook"),
        "{}",
        stderr(&o)
    );
    let p = temp_file(
        "diagnose-bad.json",
        r#"{"broker":{"visibility_timeout_ms":-1}}"#,
    );
    let o = lease_sim(&["diagnose", p.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("visibility_timeout_ms"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn run_and_sweep_take_a_preset_by_name_as_the_file_would_name_it() {
    let text = r#"{"name":"p","duration_ms":600000,
        "work":{"dist":"lognormal","median_ms":5000,"p99_ms":40000}}"#;
    let plain = temp_file("preset-run.json", text);
    let named = temp_file(
        "preset-run-named.json",
        r#"{"name":"p","duration_ms":600000,"broker":{"preset":"bullmq"},
        "work":{"dist":"lognormal","median_ms":5000,"p99_ms":40000}}"#,
    );
    let by_flag = lease_sim(&[
        "run",
        plain.to_str().unwrap(),
        "--preset",
        "bullmq",
        "--json",
    ]);
    assert!(by_flag.status.success(), "{}", stderr(&by_flag));
    let by_file = lease_sim(&["run", named.to_str().unwrap(), "--json"]);
    assert_eq!(json_of(&by_flag), json_of(&by_file));
    let o = lease_sim(&["run", plain.to_str().unwrap(), "--preset", "bullmq"]);
    assert!(
        stdout(&o).contains("the stalled checker (every 30 s)"),
        "{}",
        stdout(&o)
    );
    let sweep = |file: &str, extra: &[&str]| {
        let mut args = vec![
            "sweep", file, "--param", "timeout", "--from", "10s", "--to", "60s", "--steps", "3",
        ];
        args.extend_from_slice(extra);
        let o = lease_sim(&args);
        assert!(o.status.success(), "{}", stderr(&o));
        stdout(&o)
    };
    let a = sweep(plain.to_str().unwrap(), &["--preset", "bullmq"]);
    assert_eq!(a, sweep(named.to_str().unwrap(), &[]));
    assert_ne!(
        a,
        sweep(plain.to_str().unwrap(), &[]),
        "bullmq is not the textbook"
    );
    for cmd in [
        vec!["run", plain.to_str().unwrap(), "--preset", "kafka"],
        vec![
            "sweep",
            plain.to_str().unwrap(),
            "--param",
            "timeout",
            "--from",
            "10s",
            "--to",
            "60s",
            "--steps",
            "3",
            "--preset",
            "kafka",
        ],
    ] {
        let o = lease_sim(&cmd);
        assert_eq!(o.status.code(), Some(2), "{cmd:?}");
        let e = stderr(&o);
        assert!(
            e.contains("--preset: `kafka` is not a broker preset (one of textbook"),
            "{e}"
        );
        for name in [
            "rabbitmq_4_2",
            "nats_jetstream",
            "bullmq",
            "temporal_activity",
        ] {
            assert!(e.contains(name), "{name} in {e}");
        }
    }
}
