//! Exports of shipped scenarios: the SVG parses and shows what the canvas
//! shows, and the CSVs agree with the report they were written from.

use lease_sim::run::{Fate, Run};

use super::csv::{DELIVERY_COLUMNS, MESSAGE_COLUMNS, SERIES_COLUMNS};
use super::svg::timeline_svg_capped;
use super::*;
use crate::index::RunIndex;
use crate::view::TimelineView;

fn run_of(name: &str) -> Run {
    let s = lease_sim::shipped::find(name).unwrap_or_else(|| panic!("no shipped {name}"));
    lease_sim::simulate(&s.scenario, &lease_sim::Options::default())
        .unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn parse(svg: &str) -> roxmltree::Document<'_> {
    roxmltree::Document::parse(svg).unwrap_or_else(|e| panic!("not well-formed XML: {e}"))
}

fn has_class(n: &roxmltree::Node, class: &str) -> bool {
    n.attribute("class")
        .is_some_and(|c| c.split(' ').any(|c| c == class))
}

fn count_class(doc: &roxmltree::Document, class: &str) -> usize {
    doc.descendants().filter(|n| has_class(n, class)).count()
}

/// Shapes of the timeline itself, not of the legend.
fn count_drawn(doc: &roxmltree::Document, class: &str) -> usize {
    doc.descendants()
        .filter(|g| has_class(g, "runs"))
        .flat_map(|g| g.descendants())
        .filter(|n| has_class(n, class))
        .count()
}

fn whole(view: TimelineView) -> SvgOptions {
    SvgOptions {
        view,
        ..SvgOptions::default()
    }
}

/// Splits RFC 4180 text into rows of cells (quoted cells included).
fn read_csv(text: &str) -> Vec<Vec<String>> {
    let mut rows = Vec::new();
    let (mut row, mut cell) = (Vec::new(), String::new());
    let mut chars = text.chars().peekable();
    let mut quoted = false;
    while let Some(c) = chars.next() {
        match (quoted, c) {
            (true, '"') if chars.peek() == Some(&'"') => {
                chars.next();
                cell.push('"');
            }
            (true, '"') => quoted = false,
            (true, c) => cell.push(c),
            (false, '"') => quoted = true,
            (false, ',') => row.push(std::mem::take(&mut cell)),
            (false, '\r') => {}
            (false, '\n') => {
                row.push(std::mem::take(&mut cell));
                rows.push(std::mem::take(&mut row));
            }
            (false, c) => cell.push(c),
        }
    }
    assert!(
        cell.is_empty() && row.is_empty(),
        "the last row ends with CRLF"
    );
    rows
}

fn column<'a>(rows: &'a [Vec<String>], name: &str) -> Vec<&'a str> {
    let i = rows[0]
        .iter()
        .position(|h| h == name)
        .unwrap_or_else(|| panic!("no column {name}"));
    rows[1..].iter().map(|r| r[i].as_str()).collect()
}

fn sum(cells: &[&str]) -> u64 {
    cells
        .iter()
        .map(|c| {
            c.parse::<u64>()
                .unwrap_or_else(|_| panic!("not a count: {c:?}"))
        })
        .sum()
}

fn assert_rectangular(rows: &[Vec<String>], width: usize) {
    for (i, r) in rows.iter().enumerate() {
        assert_eq!(r.len(), width, "row {i} has {} cells", r.len());
    }
}

#[test]
fn the_svg_is_well_formed_with_a_lane_per_worker() {
    for name in [
        "ninety-second-message",
        "clip-surge",
        "gc-pause-starves-heartbeat",
        "five-minute-timeout-deploy",
    ] {
        let run = run_of(name);
        for dark in [false, true] {
            let svg = timeline_svg(
                &run,
                &SvgOptions {
                    dark,
                    ..whole(TimelineView::Workers)
                },
            );
            let doc = parse(&svg);
            let root = doc.root_element();
            assert_eq!(root.tag_name().name(), "svg");
            assert_eq!(
                root.tag_name().namespace(),
                Some("http://www.w3.org/2000/svg")
            );
            assert!(root.attribute("viewBox").is_some() && root.attribute("height").is_some());
            let labels: Vec<&str> = doc
                .descendants()
                .filter(|n| has_class(n, "lane-label"))
                .filter_map(|n| n.text())
                .collect();
            let want: Vec<String> = (0..run.worker_count)
                .map(|w| format!("worker {w}"))
                .collect();
            assert_eq!(labels, want, "{name}");
            assert!(count_drawn(&doc, "run") > 0, "{name}: no runs drawn");
            assert!(
                !svg.contains("href"),
                "{name}: no references out of the file"
            );
            assert!(!svg.contains("NaN") && !svg.contains("=\"inf"), "{name}");

            let messages = timeline_svg(
                &run,
                &SvgOptions {
                    dark,
                    ..whole(TimelineView::Messages)
                },
            );
            let doc = parse(&messages);
            assert_eq!(
                count_class(&doc, "msg-label"),
                run.messages.len(),
                "{name}: a row per message"
            );
        }
    }
}

#[test]
fn the_overlapping_run_of_the_ninety_second_message_is_outlined() {
    let run = run_of("ninety-second-message");
    let overlapping = run
        .deliveries
        .iter()
        .filter(|d| d.overlaps.is_some())
        .count();
    assert!(
        overlapping > 0,
        "the scenario's point is an overlapping run"
    );
    // Both runs of each pair are outlined, as on the canvas; the later one
    // carries the flag and the connector.
    let outlined = (0..run.deliveries.len() as u32)
        .filter(|&ix| RunIndex::new(&run).overlapping_by(&run, ix, run.end_ms))
        .count();
    assert!(
        outlined > overlapping,
        "the first run of a pair is outlined too"
    );
    let doc_text = timeline_svg(&run, &whole(TimelineView::Workers));
    let doc = parse(&doc_text);
    assert_eq!(count_drawn(&doc, "overlap"), outlined);
    assert_eq!(count_drawn(&doc, "flag"), overlapping);
    assert_eq!(
        count_drawn(&doc, "twin"),
        overlapping,
        "connector to its twin"
    );
    assert!(
        count_drawn(&doc, "ack-rejected") > 0,
        "the late ack is rejected"
    );
    assert!(count_drawn(&doc, "commit-duplicate") > 0);
    assert!(count_class(&doc, "legend") == 1);
    let messages_text = timeline_svg(&run, &whole(TimelineView::Messages));
    let doc = parse(&messages_text);
    assert_eq!(count_drawn(&doc, "overlap-thin"), outlined);
}

#[test]
fn the_svg_is_painted_in_the_palette_of_its_scheme() {
    let run = run_of("ninety-second-message");
    for dark in [false, true] {
        let p = crate::Palette::of(dark);
        let svg = timeline_svg(
            &run,
            &SvgOptions {
                dark,
                ..whole(TimelineView::Workers)
            },
        );
        let style = parse(&svg)
            .descendants()
            .find(|n| n.has_tag_name("style"))
            .and_then(|n| n.text())
            .map(str::to_string)
            .unwrap_or_default();
        let rules = [
            format!(".bg{{fill:{}}}", p.background.rgb_hex()),
            format!(".lane-a{{fill:{}}}", p.lane_even.rgb_hex()),
            format!(".overlap{{fill:none;stroke:{};", p.overlap.rgb_hex()),
            format!(".ack-rejected{{fill:none;stroke:{};", p.rejected.rgb_hex()),
            format!(".crash{{stroke:{};", p.crash.rgb_hex()),
            format!(".expiry{{stroke:{};", p.expiry.rgb_hex()),
            format!(".dlq{{fill:{}}}", p.dead_letter.rgb_hex()),
            format!(
                ".grid{{stroke:{};stroke-opacity:{}",
                p.grid.rgb_hex(),
                p.grid.alpha
            ),
        ];
        for rule in rules {
            assert!(style.contains(&rule), "dark {dark}: no {rule} in {style}");
        }
    }
}

#[test]
fn the_colour_blind_svg_is_painted_as_the_canvas_paints_with_palette_cb() {
    let run = run_of("ninety-second-message");
    for dark in [false, true] {
        let (plain, cb) = (crate::Palette::of(dark), crate::Palette::of_cb(dark, true));
        let svg = timeline_svg(
            &run,
            &SvgOptions {
                dark,
                colour_blind: true,
                ..whole(TimelineView::Workers)
            },
        );
        let ack = cb.ack.rgb_hex();
        assert_ne!(ack, plain.ack.rgb_hex(), "the palettes differ in the ack");
        assert!(svg.contains(&ack), "dark {dark}: no colour-blind ack {ack}");
        assert!(
            !svg.contains(&plain.ack.rgb_hex()),
            "dark {dark}: the default palette's ack is left"
        );
        // Message 0's bars take the colour-blind hue the canvas gives it.
        let hue = crate::palette::cb_hue(crate::palette::message_hue(0), dark).rgb_hex();
        let doc = parse(&svg);
        assert!(
            doc.descendants()
                .any(|n| has_class(&n, "run") && n.attribute("fill") == Some(hue.as_str())),
            "dark {dark}: no run bar in {hue}"
        );
    }
}

#[test]
fn marks_that_differ_by_colour_differ_by_shape_as_on_the_canvas() {
    let run = run_of("ninety-second-message");
    let svg = timeline_svg(&run, &whole(TimelineView::Workers));
    let doc = parse(&svg);
    // A duplicate effect's diamond is cut across, one line per diamond.
    let duplicates = count_drawn(&doc, "commit-duplicate");
    assert!(
        duplicates > 0,
        "the ninety-second message commits duplicates"
    );
    assert_eq!(count_drawn(&doc, "cut"), duplicates);
    // A commit with no effect is hollow; a rejected release is struck through.
    assert!(svg.contains(".commit-void{fill:none;"), "{svg}");
    let legend: Vec<_> = doc
        .descendants()
        .filter(|g| has_class(g, "legend"))
        .flat_map(|g| g.descendants())
        .collect();
    for (tag, class) in [
        ("line", "cut"),
        ("polygon", "commit-void"),
        ("circle", "release"),
        ("circle", "release-rejected"),
        ("line", "release-rejected"),
    ] {
        assert!(
            legend
                .iter()
                .any(|n| n.has_tag_name(tag) && has_class(n, class)),
            "the legend has no {tag} of class {class}"
        );
    }
}

#[test]
fn faults_are_shaded_on_their_lanes() {
    let paused = parse_owned(&run_of("gc-pause-starves-heartbeat"));
    assert!(paused.contains("class=\"pause\""));
    assert!(paused.contains("‖ pause"));
    let deployed = parse_owned(&run_of("five-minute-timeout-deploy"));
    assert!(deployed.contains("class=\"down\""));
    assert!(deployed.contains(">crash<") && deployed.contains("class=\"restart\""));
    // Zoomed out, the restart label would print over the crash label.
    assert!(!deployed.contains("▶ restart"));
    let zoomed = timeline_svg(
        &run_of("five-minute-timeout-deploy"),
        &SvgOptions {
            from_ms: 230_000.0,
            to_ms: 290_000.0,
            ..whole(TimelineView::Workers)
        },
    );
    assert!(zoomed.contains(">crash<") && zoomed.contains("▶ restart"));
    assert!(deployed.contains("class=\"expiry\""));
}

fn parse_owned(run: &Run) -> String {
    let svg = timeline_svg(run, &whole(TimelineView::Workers));
    parse(&svg);
    svg
}

#[test]
fn data_text_is_escaped() {
    let mut run = run_of("ninety-second-message");
    run.scenario.name = "a&b <c>".into();
    let nasty = "<script>&\"'</script>\u{7}";
    for view in [TimelineView::Workers, TimelineView::Messages] {
        let svg = timeline_svg(
            &run,
            &SvgOptions {
                title: nasty.into(),
                ..whole(view)
            },
        );
        assert!(!svg.contains("<script>"));
        let doc = parse(&svg);
        let title = doc
            .descendants()
            .find(|n| n.has_tag_name("title"))
            .and_then(|n| n.text());
        assert_eq!(title, Some("<script>&\"'</script>\u{FFFD}"));
        assert!(doc
            .descendants()
            .any(|n| n.text().is_some_and(|t| t.starts_with("a&b <c> · seed"))));
    }
    // An empty title falls back to the scenario's.
    run.scenario.title = "Tom & Jerry".into();
    let svg = timeline_svg(&run, &whole(TimelineView::Workers));
    assert!(svg.contains("<title>Tom &amp; Jerry</title>"));
}

#[test]
fn a_narrow_range_draws_fewer_runs() {
    let run = run_of("clip-surge");
    let runs = |from_ms: f64, to_ms: f64| {
        let svg = timeline_svg(
            &run,
            &SvgOptions {
                from_ms,
                to_ms,
                ..whole(TimelineView::Workers)
            },
        );
        count_drawn(&parse(&svg), "run")
    };
    let all = runs(0.0, f64::INFINITY);
    let narrow = runs(400_000.0, 460_000.0);
    assert!(narrow > 0 && narrow < all, "{narrow} of {all}");
    // Reversed, out of the run, or empty: still a picture.
    assert_eq!(runs(460_000.0, 400_000.0), narrow);
    assert_eq!(runs(-5e9, 5e12), all);
    assert!(runs(400_000.0, 400_000.0) > 0);
    assert_eq!(runs(f64::NAN, f64::NAN), all);
}

#[test]
fn the_range_bounds_the_messages_view_too() {
    let run = run_of("clip-surge");
    let rows = |from_ms: f64, to_ms: f64| {
        let svg = timeline_svg(
            &run,
            &SvgOptions {
                from_ms,
                to_ms,
                ..whole(TimelineView::Messages)
            },
        );
        count_class(&parse(&svg), "msg-label")
    };
    let narrow = rows(400_000.0, 460_000.0);
    assert!(narrow > 0 && narrow < run.messages.len());
}

#[test]
fn too_many_runs_leave_a_note_instead() {
    let run = run_of("clip-surge");
    let svg = timeline_svg_capped(&run, &whole(TimelineView::Workers), 100, &[]);
    let doc = parse(&svg);
    assert_eq!(count_drawn(&doc, "run"), 100);
    let note = doc
        .descendants()
        .find(|n| has_class(n, "note"))
        .and_then(|n| n.text())
        .expect("a note");
    assert!(note.ends_with(" runs not drawn; zoom in"), "{note}");
    let left: usize = note.split(' ').next().unwrap().parse().unwrap();
    assert!(left > 0);

    let svg = timeline_svg_capped(&run, &whole(TimelineView::Messages), 100, &[]);
    let doc = parse(&svg);
    assert!(count_drawn(&doc, "run") <= 100);
    assert_eq!(count_class(&doc, "note"), 1);
}

#[test]
fn the_svg_is_deterministic() {
    let run = run_of("gc-pause-starves-heartbeat");
    let opts = SvgOptions {
        title: "same".into(),
        dark: true,
        width_px: 900.0,
        ..SvgOptions::default()
    };
    let a = timeline_svg(&run, &opts);
    let b = timeline_svg(&run_of("gc-pause-starves-heartbeat"), &opts);
    assert_eq!(a, b);
    // Every coordinate has at most two decimals.
    for number in a
        .split(|c: char| !(c.is_ascii_digit() || c == '.'))
        .filter(|s| s.contains('.'))
    {
        let decimals = number.rsplit('.').next().unwrap_or("");
        assert!(decimals.len() <= 2, "{number}");
    }
}

#[test]
fn series_csv_has_a_row_per_bucket_matching_the_report() {
    for name in [
        "clip-surge",
        "five-minute-timeout-deploy",
        "gc-pause-starves-heartbeat",
    ] {
        let run = run_of(name);
        let s = &run.report.series;
        let rows = read_csv(&series_csv(&run));
        let mut header = vec!["bucket_start_ms", "bucket_end_ms"];
        header.extend(SERIES_COLUMNS);
        assert_eq!(rows[0], header);
        assert_eq!(rows.len() - 1, s.arrivals.len(), "{name}");
        assert_rectangular(&rows, header.len());
        let t = &run.report.totals;
        assert_eq!(sum(&column(&rows, "acks")), t.acks_ok, "{name}");
        assert_eq!(sum(&column(&rows, "arrivals")), t.arrived, "{name}");
        assert_eq!(sum(&column(&rows, "expiries")), t.expiries, "{name}");
        assert_eq!(
            sum(&column(&rows, "extensions_ok")),
            t.extensions_ok,
            "{name}"
        );
        let qd: Vec<u64> = column(&rows, "queue_depth")
            .iter()
            .map(|c| c.parse().unwrap())
            .collect();
        assert_eq!(&qd, &s.queue_depth);
        let cpm: Vec<f64> = column(&rows, "completions_per_min")
            .iter()
            .map(|c| c.parse().unwrap())
            .collect();
        assert_eq!(&cpm, &s.completions_per_min, "floats round-trip exactly");
        let ends = column(&rows, "bucket_end_ms");
        assert_eq!(ends.last().copied(), Some(run.end_ms.to_string().as_str()));
        assert_eq!(column(&rows, "bucket_start_ms")[1], s.bucket_ms.to_string());
    }
}

#[test]
fn series_of_unequal_length_leave_blank_cells() {
    let mut run = run_of("ninety-second-message");
    let s = &mut run.report.series;
    let n = s.arrivals.len();
    s.queue_depth.truncate(n - 1);
    s.completions_per_min.push(f64::NAN);
    s.completions_per_min.push(1.5);
    let rows = read_csv(&series_csv(&run));
    assert_eq!(rows.len() - 1, n + 2);
    assert_rectangular(&rows, 2 + SERIES_COLUMNS.len());
    let qd = column(&rows, "queue_depth");
    assert_eq!(qd[n - 1], "");
    let cpm = column(&rows, "completions_per_min");
    assert_eq!((cpm[n], cpm[n + 1]), ("", "1.5"));
    assert_eq!(column(&rows, "arrivals")[n], "");

    run.report = lease_sim::Report::default();
    assert_eq!(read_csv(&series_csv(&run)).len(), 1, "header only");
}

#[test]
fn deliveries_csv_is_the_per_message_history() {
    for name in [
        "ninety-second-message",
        "clip-surge",
        "gc-pause-starves-heartbeat",
        "five-minute-timeout-deploy",
    ] {
        let run = run_of(name);
        let rows = read_csv(&deliveries_csv(&run));
        assert_eq!(rows[0], DELIVERY_COLUMNS);
        assert_eq!(rows.len() - 1, run.deliveries.len(), "{name}");
        assert_eq!(run.deliveries.len() as u64, run.report.totals.deliveries);
        assert_rectangular(&rows, DELIVERY_COLUMNS.len());
        let t = &run.report.totals;
        assert_eq!(sum(&column(&rows, "extensions_ok")), t.extensions_ok);
        assert_eq!(
            sum(&column(&rows, "extensions_rejected")),
            t.extensions_rejected
        );
        let expired = column(&rows, "lease_end")
            .iter()
            .filter(|c| **c == "expired")
            .count() as u64;
        assert_eq!(expired, t.expiries, "{name}");
        let duplicates = column(&rows, "effect")
            .iter()
            .filter(|c| **c == "duplicate" || **c == "lost_update")
            .count() as u64;
        assert_eq!(duplicates, t.duplicate_effects, "{name}");
        let overlaps = column(&rows, "overlaps_delivery")
            .iter()
            .filter(|c| !c.is_empty())
            .count() as u64;
        assert_eq!(overlaps, t.overlapping_runs, "{name}");

        // Enum cells are the engine's serde names.
        for (d, row) in run.deliveries.iter().zip(&rows[1..]) {
            let v = serde_json::to_value(d).unwrap();
            for key in ["lease_end", "outcome", "effect"] {
                let i = DELIVERY_COLUMNS.iter().position(|c| *c == key).unwrap();
                assert_eq!(v[key].as_str(), Some(row[i].as_str()));
            }
            let slot = DELIVERY_COLUMNS.iter().position(|c| *c == "slot").unwrap();
            assert_eq!(row[slot], d.slot.map(|s| s.to_string()).unwrap_or_default());
        }
    }
}

#[test]
fn the_ninety_second_message_reads_as_two_overlapping_deliveries() {
    let run = run_of("ninety-second-message");
    let rows = read_csv(&deliveries_csv(&run));
    let receipts = column(&rows, "receipt");
    let twins = column(&rows, "overlaps_delivery");
    let second = receipts
        .iter()
        .position(|r| *r == "2")
        .expect("a redelivery");
    assert_eq!(twins[second], "1", "the second run overlaps the first");
    let fate = super::fate_parts(run.messages[0].fate).0;
    assert_eq!(column(&rows, "message_fate")[second], fate);
}

#[test]
fn messages_csv_has_a_row_per_message() {
    for name in [
        "clip-surge",
        "five-minute-timeout-deploy",
        "ninety-second-message",
    ] {
        let run = run_of(name);
        let rows = read_csv(&messages_csv(&run));
        assert_eq!(rows[0], MESSAGE_COLUMNS);
        assert_eq!(rows.len() - 1, run.messages.len(), "{name}");
        assert_eq!(run.messages.len() as u64, run.report.totals.arrived);
        assert_rectangular(&rows, MESSAGE_COLUMNS.len());
        let t = &run.report.totals;
        assert_eq!(sum(&column(&rows, "deliveries")), t.deliveries);
        assert_eq!(sum(&column(&rows, "effects")), t.effects, "{name}");
        let fates = column(&rows, "fate");
        let deleted = fates.iter().filter(|f| **f == "deleted").count() as u64;
        assert_eq!(deleted, t.deleted);
        let dead = fates.iter().filter(|f| **f == "dead_lettered").count() as u64;
        assert_eq!(dead, t.dead_lettered_expired + t.dead_lettered_failed);
        for (m, row) in run.messages.iter().zip(&rows[1..]) {
            let v = serde_json::to_value(m.fate).unwrap();
            assert_eq!(v["state"].as_str(), Some(row[6].as_str()));
            let at = match m.fate {
                Fate::Deleted { at } | Fate::DeadLettered { at, .. } => at.to_string(),
                _ => String::new(),
            };
            assert_eq!(row[7], at);
            assert_eq!(v["cause"].as_str().unwrap_or(""), row[8]);
        }
    }
}

#[test]
fn a_report_without_bucket_width_leaves_the_bounds_blank() {
    let mut run = run_of("ninety-second-message");
    run.report.series.bucket_ms = 0;
    let text = series_csv(&run);
    assert!(text.lines().nth(1).unwrap().starts_with(",,"));
    assert!(text.ends_with("\r\n"));
}

#[test]
fn notes_show_in_the_svg_as_labelled_bands_and_in_its_description() {
    use crate::note::{Note, NoteOn};
    let run = run_of("ninety-second-message");
    let notes = [
        Note {
            from_ms: 60_000,
            to_ms: 90_000,
            on: NoteOn::Worker(1),
            text: "worker 1 starts the same message <here> & now".into(),
        },
        Note {
            from_ms: 0,
            to_ms: 10_000,
            on: NoteOn::Timeline,
            text: "the start".into(),
        },
    ];
    for view in [TimelineView::Workers, TimelineView::Messages] {
        let svg = timeline_svg_with_notes(&run, &whole(view), &notes);
        let doc = parse(&svg);
        assert_eq!(count_class(&doc, "lp-note"), 2, "{view:?}");
        let texts: Vec<&str> = doc
            .descendants()
            .filter(|n| has_class(n, "lp-note-text"))
            .filter_map(|n| n.text())
            .collect();
        assert_eq!(
            texts,
            [
                "worker 1: worker 1 starts the same message <here> & now",
                "the start"
            ]
        );
        let desc = doc
            .descendants()
            .find(|n| n.attribute("id") == Some("lp-notes"))
            .and_then(|n| n.text())
            .unwrap_or_default();
        assert!(
            desc.contains("60 s to 90 s, worker 1: worker 1 starts"),
            "{desc}"
        );
    }
    // A note outside the range shown is left out.
    let svg = timeline_svg_with_notes(
        &run,
        &SvgOptions {
            from_ms: 100_000.0,
            to_ms: 120_000.0,
            ..whole(TimelineView::Workers)
        },
        &notes,
    );
    assert_eq!(count_class(&parse(&svg), "lp-note"), 0);
    assert_eq!(
        timeline_svg_with_notes(&run, &whole(TimelineView::Workers), &[]),
        timeline_svg(&run, &whole(TimelineView::Workers)),
        "no notes: the picture as before"
    );
}

/// Two workers under JetStream: worker 0 pauses while it holds receipt 1,
/// worker 1 runs receipt 2, worker 0's late ack deletes the message at
/// 1.3 s and worker 1's ack at 1.8 s finds nothing to settle.
fn ack_with_nothing_to_settle() -> Run {
    let text = serde_json::json!({
        "name": "ack-with-nothing-to-settle",
        "seed": 1,
        "duration_ms": 5000,
        "broker": {"preset": "nats_jetstream", "visibility_timeout_ms": 1000},
        "workers": {"count": 2, "concurrency": 1, "heartbeat": null},
        "work": {"dist": "constant", "ms": 800},
        "arrivals": {"process": "fixed", "rate_per_s": 0.0, "backlog": 1},
        "faults": [{"kind": "pause", "worker": 0, "at_ms": 100, "duration_ms": 500}]
    })
    .to_string();
    let s = lease_sim::parse::parse_scenario(&text).unwrap();
    lease_sim::simulate(&s, &lease_sim::Options::default()).unwrap()
}

#[test]
fn an_ack_with_nothing_to_settle_is_its_own_outcome_in_the_csv_the_svg_and_the_story() {
    let run = ack_with_nothing_to_settle();
    assert_eq!(run.report.totals.acks_no_op, 1);
    let rows = read_csv(&deliveries_csv(&run));
    let outcomes = column(&rows, "outcome");
    assert_eq!(outcomes, vec!["acked", "ack_no_op"]);
    assert_eq!(
        serde_json::to_value(run.deliveries[1].outcome).unwrap(),
        "ack_no_op"
    );

    let svg = timeline_svg(&run, &whole(TimelineView::Workers));
    let doc = parse(&svg);
    assert_eq!(count_drawn(&doc, "ack-no-op"), 1);
    assert_eq!(count_drawn(&doc, "ack-rejected"), 0);
    assert!(svg.contains("ack of a deleted message: nothing to settle"));
    // A run without such an ack keeps the legend it had.
    let plain = timeline_svg(
        &run_of("ninety-second-message"),
        &whole(TimelineView::Workers),
    );
    assert!(!plain.contains("nothing to settle"));

    let index = RunIndex::new(&run);
    let story = crate::message_story(&run, &index, 0, u64::MAX);
    assert!(
        story[2].contains("acked at 0:01.8, already deleted: accepted, nothing to settle"),
        "{story:?}"
    );
    assert!(!story[2].contains("rejected"), "{story:?}");
    assert_eq!(
        crate::story::outcome_word(&run.deliveries[1]),
        "acked, nothing to settle"
    );
}

/// A message that keeps timing out past a limit of 3 under `past_limit`.
fn past_the_limit(past_limit: &str) -> Run {
    let text = format!(
        r#"{{"broker": {{"preset": "textbook", "visibility_timeout_ms": 2000,
                    "max_receive_count": 3, "past_limit": "{past_limit}"}},
            "workers": {{"count": 3}},
            "work": {{"dist": "constant", "ms": 10000}},
            "arrivals": {{"backlog": 1, "rate_per_s": 0.0}},
            "duration_ms": 20000}}"#
    );
    let s = lease_sim::parse_scenario(&text).unwrap();
    lease_sim::simulate(&s, &lease_sim::Options::default()).unwrap()
}

#[test]
fn a_message_dropped_or_left_in_the_stream_is_written_in_its_own_words() {
    for (past, state, mark) in [
        ("dead_letter", "dead_lettered", "DLQ expired"),
        ("drop", "dropped", "dropped (expired)"),
        ("stay", "stayed", "stays, advisory (expired)"),
    ] {
        let run = past_the_limit(past);
        // The third lease ends at 6 s with the count spent.
        let rows = read_csv(&messages_csv(&run));
        assert_eq!(rows[1][6], state, "{past}");
        assert_eq!(rows[1][7], "6000", "{past}");
        assert_eq!(rows[1][8], "expired", "{past}");
        let rows = read_csv(&deliveries_csv(&run));
        assert!(column(&rows, "message_fate").iter().all(|f| *f == state));
        for view in [TimelineView::Workers, TimelineView::Messages] {
            let svg = timeline_svg(&run, &whole(view));
            let doc = parse(&svg);
            let labels: Vec<&str> = doc
                .descendants()
                .filter(|n| has_class(n, "dlq-text"))
                .filter_map(|n| n.text())
                .collect();
            assert!(labels.contains(&mark), "{past} {view:?}: {labels:?}");
        }
        // The hover card's story ends with the fate in its own words.
        let story = crate::story::message_story(&run, &RunIndex::new(&run), 0, u64::MAX);
        let last = story.last().unwrap();
        let start = match past {
            "drop" => "Dropped at 0:06 (expired)",
            "stay" => "Past the delivery limit at 0:06 (expired)",
            _ => "Dead-lettered at 0:06 (expired)",
        };
        assert!(last.starts_with(start), "{past}: {last}");
        if past == "stay" {
            assert!(last.contains("stays in the stream"), "{last}");
        }
    }
}

#[test]
fn the_series_csv_counts_each_fate_past_the_limit_as_the_svg_marks_it() {
    // Four 10 s jobs on twelve workers against a 2 s lease and a limit of
    // 3: each is delivered at 0, 2 and 4 s and past the limit at 6 s, the
    // moment its third lease ends.
    for (past, col, mark) in [
        ("dead_letter", "dead_letter_expired", "DLQ expired"),
        ("drop", "dropped", "dropped (expired)"),
        ("stay", "stayed", "stays, advisory (expired)"),
    ] {
        let text = format!(
            r#"{{"broker": {{"preset": "textbook", "visibility_timeout_ms": 2000,
                        "max_receive_count": 3, "past_limit": "{past}"}},
                "workers": {{"count": 12}},
                "work": {{"dist": "constant", "ms": 10000}},
                "arrivals": {{"backlog": 4, "rate_per_s": 0.0}},
                "duration_ms": 20000, "bucket_ms": 5000}}"#
        );
        let s = lease_sim::parse_scenario(&text).unwrap();
        let run = lease_sim::simulate(&s, &lease_sim::Options::default()).unwrap();
        let rows = read_csv(&series_csv(&run));
        let cells = column(&rows, col);
        // All four in the bucket from 5 to 10 s, none elsewhere.
        assert_eq!(cells.get(1), Some(&"4"), "{past}: {cells:?}");
        assert_eq!(sum(&cells), 4, "{past}: {cells:?}");
        for other in [
            "dead_letter_expired",
            "dead_letter_failed",
            "dropped",
            "stayed",
        ] {
            if other != col {
                assert_eq!(sum(&column(&rows, other)), 0, "{past}: {other}");
            }
        }
        let t = &run.report.totals;
        let total = t.dead_lettered_expired + t.dead_lettered_failed + t.dropped + t.stayed;
        assert_eq!(total, 4, "{past}");
        for view in [TimelineView::Workers, TimelineView::Messages] {
            let svg = timeline_svg(&run, &whole(view));
            let doc = parse(&svg);
            let marked = doc
                .descendants()
                .filter(|n| has_class(n, "dlq-text"))
                .filter(|n| n.text() == Some(mark))
                .count();
            assert_eq!(marked as u64, sum(&cells), "{past} {view:?}");
        }
    }
}

#[test]
fn the_svg_draws_a_lease_s_lag_from_its_deadline_to_the_check_s_expiry_tick() {
    // RabbitMQ 4.2 notices a consumer timeout on the channel's minute tick.
    let run = run_of("one-slow-consumer-requeues-its-whole-channel");
    let lags = run
        .deliveries
        .iter()
        .filter(|d| crate::lanes::lag_of(d, u64::MAX).is_some())
        .count();
    assert!(lags > 0);
    let svg = timeline_svg(&run, &whole(TimelineView::Workers));
    let doc = parse(&svg);
    let num = |n: &roxmltree::Node, a: &str| -> f64 { n.attribute(a).unwrap().parse().unwrap() };
    let drawn = |class: &str| -> Vec<roxmltree::Node> {
        doc.descendants()
            .filter(|g| has_class(g, "runs"))
            .flat_map(|g| g.descendants())
            .filter(|n| has_class(n, class))
            .collect()
    };
    let (bands, deadlines, expiries) = (drawn("lag"), drawn("deadline"), drawn("expiry"));
    assert_eq!(bands.len(), lags);
    assert_eq!(deadlines.len(), lags);
    for band in &bands {
        let (x0, x1) = (num(band, "x"), num(band, "x") + num(band, "width"));
        assert!(
            deadlines.iter().any(|l| (num(l, "x1") - x0).abs() < 0.01),
            "no deadline tick at {x0}"
        );
        assert!(
            expiries.iter().any(|l| (num(l, "x1") - x1).abs() < 0.01),
            "no expiry tick at {x1}"
        );
    }
    let legend = |doc: &roxmltree::Document| {
        doc.descendants()
            .filter(|g| has_class(g, "legend"))
            .flat_map(|g| g.descendants())
            .any(|n| has_class(&n, "lag"))
    };
    assert!(legend(&doc));
    // Expired at the deadline itself: no lag, and no swatch for one.
    let run = run_of("ninety-second-message");
    let svg = timeline_svg(&run, &whole(TimelineView::Workers));
    let doc = parse(&svg);
    assert_eq!(count_drawn(&doc, "lag") + count_drawn(&doc, "deadline"), 0);
    assert!(!legend(&doc));
}
