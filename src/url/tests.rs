use std::time::{Duration, Instant};

use lease_sim::scenario::{Dist, Fault, Fence, Heartbeat, OnReject, Preset, Surge};
use lease_sim::{estimate, shipped, validate};
use proptest::prelude::*;

use lease_fields::edit::heartbeat;
use lease_fields::names::name;
use lease_fields::work::Shape;
use lease_fields::{set, Field, Value, CONTROLS};

use super::*;
use crate::controls::scale::STEPS;
use crate::controls::slider_scale;
use crate::embed::Part;
use lease_format::units::{format_ms, format_ms_f64, parse_ms, parse_ms_f64};
use lease_ui::theme::Theme;
use lease_view::TimelineView;

fn shipped_scenario(name: &str) -> Scenario {
    shipped::find(name)
        .map(|s| s.scenario)
        .unwrap_or_else(|| panic!("no shipped scenario {name}"))
}

fn link(base: &str, scenario: Scenario) -> Link {
    Link {
        base: base.to_string(),
        scenario,
        b: None,
        view: LinkView::default(),
    }
}

/// Encode, decode, and insist on the same scenario with nothing ignored.
fn round_trip(l: &Link) -> String {
    let q = encode(l);
    let (back, notices) = decode(&q);
    assert!(notices.is_empty(), "{q}: {notices:?}");
    let back = back.unwrap_or_else(|| panic!("{q}: no link"));
    assert_eq!(back.scenario, l.scenario, "{q}");
    assert_eq!(back.view, l.view, "{q}");
    assert_eq!(back.b, l.b, "{q}");
    q
}

/// Every edit the page's controls can make, as the `Set` each one sends.
#[derive(Debug, Clone)]
enum Edit {
    Slider(usize, u32),
    Toggle(usize, bool),
    Preset(usize),
    Fence(usize),
    Shape(usize),
    Abort(bool),
    Seed(u64),
}

fn apply_edit(s: &mut Scenario, e: &Edit) {
    let (field, value) = match e {
        Edit::Slider(i, pos) => {
            let f = CONTROLS[i % CONTROLS.len()];
            let Some(c) = f.control() else { return };
            // A control that is not live is disabled on the page.
            if !c.live(s) {
                return;
            }
            (f, (c.value)(s, slider_scale(c.range).value(*pos)))
        }
        Edit::Toggle(i, on) => {
            let f = CONTROLS[i % CONTROLS.len()];
            let Some(c) = f.control() else { return };
            match (&c.toggle, (c.applies)(s)) {
                (Some(t), true) => (
                    f,
                    if *on {
                        t.checked.clone()
                    } else {
                        t.unchecked.clone()
                    },
                ),
                _ => return,
            }
        }
        Edit::Preset(i) => (Field::Broker, Preset::ALL[i % Preset::ALL.len()].into()),
        Edit::Fence(i) => (Field::Fence, Fence::ALL[i % Fence::ALL.len()].into()),
        Edit::Shape(i) => (Field::Dist, Shape::ALL[i % Shape::ALL.len()].into()),
        Edit::Abort(abort) => {
            // The page offers the choice only for a heartbeat in the file.
            if !matches!(s.workers.heartbeat, Some(Some(_))) {
                return;
            }
            (
                Field::OnReject,
                if *abort {
                    OnReject::Abort
                } else {
                    OnReject::Continue
                }
                .into(),
            )
        }
        Edit::Seed(n) => (Field::Seed, Value::Num(*n)),
    };
    set(s, field, &value).unwrap_or_else(|e| panic!("{e:?} refused: {e}"));
}

#[test]
fn the_short_link_example_reads_with_no_notices() {
    let (l, notices) = decode("?scenario=clip-surge&timeout=30s&hb=10s&cap=20&p99=45s");
    assert!(notices.is_empty(), "{notices:?}");
    let l = l.expect("a link");
    assert_eq!(l.base, "clip-surge");
    let mut want = shipped_scenario("clip-surge");
    want.broker.visibility_timeout_ms = Some(30_000);
    // Ticking "Heartbeat on" gives a third of the lease and the default cap.
    want.workers.heartbeat = Some(Some(Heartbeat {
        interval_ms: 10_000,
        extend_by_ms: None,
        max_extensions: Some(20),
        on_reject: OnReject::Continue,
    }));
    want.work.dist = Dist::Lognormal {
        median_ms: 8_000.0,
        p99_ms: 45_000.0,
    };
    assert_eq!(l.scenario, want);
    assert_eq!(l.view, LinkView::default());
    // And it writes back to the short form (the timeout and cap are already so).
    assert_eq!(encode(&l), "scenario=clip-surge&hb=10s&p99=45s");
}

#[test]
fn every_shipped_scenario_is_just_its_name() {
    for s in shipped::all() {
        let q = round_trip(&link(s.name, s.scenario.clone()));
        assert_eq!(q, format!("scenario={}", s.name));
    }
}

#[test]
fn every_slider_position_round_trips_on_every_shipped_scenario() {
    let positions = [0, 1, 137, 250, 333, 500, 618, 700, 999, STEPS];
    let mut checked = 0;
    for sc in shipped::all() {
        for (i, f) in CONTROLS.iter().enumerate() {
            let Some(sl) = f.control() else { continue };
            let toggle_states: Vec<Option<bool>> = match &sl.toggle {
                Some(_) => vec![None, Some(true), Some(false)],
                None => vec![None],
            };
            for toggle in toggle_states {
                let mut s = sc.scenario.clone();
                if let Some(on) = toggle {
                    apply_edit(&mut s, &Edit::Toggle(i, on));
                    if validate(&s).is_ok() {
                        round_trip(&link(sc.name, s.clone()));
                    }
                }
                for pos in positions {
                    let mut e = s.clone();
                    apply_edit(&mut e, &Edit::Slider(i, pos));
                    if validate(&e).is_err() {
                        continue;
                    }
                    let q = round_trip(&link(sc.name, e));
                    assert!(!q.contains("data="), "{} {}: {q}", sc.name, sl.id);
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 2_000, "only {checked} edits could run");
}

#[test]
fn every_select_round_trips_on_every_shipped_scenario() {
    for sc in shipped::all() {
        let mut edits: Vec<Edit> = Vec::new();
        edits.extend((0..Preset::ALL.len()).map(Edit::Preset));
        edits.extend((0..Fence::ALL.len()).map(Edit::Fence));
        edits.extend((0..Shape::ALL.len()).map(Edit::Shape));
        edits.extend([
            Edit::Abort(true),
            Edit::Seed(0),
            Edit::Seed(u64::MAX),
            Edit::Seed(42),
        ]);
        for e in &edits {
            let mut s = sc.scenario.clone();
            apply_edit(&mut s, e);
            if validate(&s).is_err() {
                continue;
            }
            let q = round_trip(&link(sc.name, s));
            assert!(!q.contains("data="), "{} {e:?}: {q}", sc.name);
        }
    }
}

fn edit_strategy() -> impl Strategy<Value = Edit> {
    prop_oneof![
        6 => (0..64usize, 0..=STEPS).prop_map(|(i, p)| Edit::Slider(i, p)),
        2 => (0..64usize, any::<bool>()).prop_map(|(i, on)| Edit::Toggle(i, on)),
        1 => (0..8usize).prop_map(Edit::Preset),
        1 => (0..8usize).prop_map(Edit::Fence),
        1 => (0..8usize).prop_map(Edit::Shape),
        1 => any::<bool>().prop_map(Edit::Abort),
        1 => any::<u64>().prop_map(Edit::Seed),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Whatever a person does with the controls, the short link rebuilds the
    /// scenario exactly, so the run is the same event for event.
    #[test]
    fn any_sequence_of_page_edits_round_trips_exactly(
        base in 0..64usize,
        edits in prop::collection::vec(edit_strategy(), 0..10),
    ) {
        let all = shipped::all();
        let sc = &all[base % all.len()];
        let mut s = sc.scenario.clone();
        for e in &edits {
            apply_edit(&mut s, e);
        }
        prop_assume!(validate(&s).is_ok());
        let q = round_trip(&link(sc.name, s));
        prop_assert!(!q.contains("data="), "{}: {:?}: {}", sc.name, edits, q);
    }
}

#[test]
fn what_the_fields_cannot_say_goes_whole_into_data() {
    let mut s = shipped_scenario("clip-surge");
    s.arrivals.surges.push(Surge {
        from_ms: 1_000_000,
        to_ms: 1_100_000,
        rate_per_s: 0.75,
    });
    s.faults.push(Fault::Crash {
        worker: 3,
        at_ms: 5_000,
        restart_after_ms: None,
    });
    let q = round_trip(&link("clip-surge", s.clone()));
    assert!(q.starts_with("scenario=clip-surge&data="), "{q}");
    // The base's prose is not repeated in the link.
    assert!(q.len() < 1_000, "{} characters", q.len());
    // The timeline menu's run override goes with them.
    s.faults.push(Fault::Run {
        message: 7,
        receipt: 2,
        outcome: Some(lease_sim::scenario::RunOutcome::LoseAck),
        work_ms: None,
    });
    let q = round_trip(&link("clip-surge", s));
    assert!(q.starts_with("scenario=clip-surge&data="), "{q}");

    // An imported file: its own name and words, and a nested mix.
    let mut s = shipped_scenario("sub-second-work");
    s.name = "imported <b>file</b>".into();
    s.title = String::new();
    s.explanation = "Mine & not yours: 100% \"quoted\"".into();
    s.work.dist = Dist::Mix {
        slow_fraction: 0.125,
        fast: Box::new(Dist::Exponential { mean_ms: 123.456 }),
        slow: Box::new(Dist::Uniform {
            min_ms: 900,
            max_ms: 1_900,
        }),
    };
    let q = round_trip(&link("sub-second-work", s));
    assert!(q.contains("data="), "{q}");
}

#[test]
fn each_data_shape_writes_its_data_in_short_fields() {
    let with = |d: Dist| {
        let mut s = shipped_scenario("clip-surge");
        s.work.dist = d;
        round_trip(&link("clip-surge", s))
    };
    let q = with(Dist::Quantiles {
        points: vec![[0.5, 2000.0], [0.9, 7000.0], [0.99, 20000.0]],
    });
    assert_eq!(
        q,
        "scenario=clip-surge&points=0.5%3A2000,0.9%3A7000,0.99%3A20000"
    );
    let q = with(Dist::Empirical {
        samples_ms: vec![120.0, 340.0, 2000.0],
    });
    assert_eq!(q, "scenario=clip-surge&samples=120,340,2000");
    let q = with(Dist::Histogram {
        buckets: vec![[100.0, 3.0], [1000.0, 0.0], [5000.0, 1.5]],
    });
    assert_eq!(q, "scenario=clip-surge&buckets=100%3A3,1000%3A0,5000%3A1.5");
    // Typed by hand, with a plain colon.
    let (l, notices) = decode("scenario=clip-surge&points=0.5:2000,0.99:20000");
    assert!(notices.is_empty(), "{notices:?}");
    assert_eq!(
        l.expect("a link").scenario.work.dist,
        Dist::Quantiles {
            points: vec![[0.5, 2000.0], [0.99, 20000.0]]
        }
    );
}

#[test]
fn a_long_list_of_durations_is_written_as_its_compact_quantiles() {
    let mut s = shipped_scenario("clip-surge");
    s.work.dist = Dist::Empirical {
        samples_ms: (0..100_000).map(|i| f64::from(i) * 0.37).collect(),
    };
    let q = encode(&link("clip-surge", s));
    assert!(!q.contains("data="), "{q}");
    let samples = q
        .split('&')
        .find_map(|p| p.strip_prefix("samples="))
        .expect("a samples field");
    let values: Vec<&str> = samples.split(',').collect();
    assert_eq!(values.len(), 256);
    assert!(
        values.iter().all(|v| v.bytes().all(|b| b.is_ascii_digit())),
        "{samples}"
    );
    assert!(q.len() < 2000, "{} bytes", q.len());
}

#[test]
fn a_list_of_durations_that_would_fit_whole_still_travels_compact() {
    let mut s = shipped_scenario("clip-surge");
    s.work.dist = Dist::Empirical {
        samples_ms: (0..300).map(|i| f64::from(i) * 10.0 + 0.25).collect(),
    };
    let q = encode(&link("clip-surge", s));
    assert!(!q.contains("data="), "{q}");
    let (back, notices) = decode(&q);
    assert!(notices.is_empty(), "{notices:?}");
    let Dist::Empirical { samples_ms } = back.expect("a link").scenario.work.dist else {
        panic!("not durations: {q}")
    };
    assert_eq!(samples_ms.len(), 256);
    assert!(
        samples_ms.iter().all(|v| v.fract() == 0.0),
        "{samples_ms:?}"
    );
}

#[test]
fn bad_data_in_a_link_is_a_notice_naming_its_field_and_changes_nothing_else() {
    for (field, value, why) in [
        ("points", "0.9:2000,0.5:7000", "probabilities must increase"),
        ("points", "0.5:2000", "must hold 2 to 9"),
        ("points", "0.5-2000,0.9:7000", "must be a pair"),
        ("samples", "100,-5", "`-5` must be a number, 0 or more"),
        ("samples", "100,abc", "must be a number"),
        ("buckets", "1000:3,100:5", "upper bounds must increase"),
        ("buckets", "100:0,200:0", "at least one count"),
    ] {
        let (l, notices) = decode(&format!("scenario=clip-surge&timeout=45s&{field}={value}"));
        let mut want = shipped_scenario("clip-surge");
        want.broker.visibility_timeout_ms = Some(45_000);
        assert_eq!(l.expect("a link").scenario, want, "{field}={value}");
        assert_eq!(notices.len(), 1, "{notices:?}");
        assert_eq!(notices[0].field, field);
        assert!(
            notices[0].why.contains(why),
            "{field}={value}: {}",
            notices[0].why
        );
    }
}

#[test]
fn an_unknown_base_starts_from_the_default() {
    let s = shipped_scenario("hung-handler");
    let q = round_trip(&link("no-such-thing", s));
    assert!(q.starts_with(&format!("scenario={DEFAULT_BASE}&")), "{q}");
}

#[test]
fn a_scenario_that_cannot_run_still_encodes_and_decodes_to_one_that_can() {
    let mut s = shipped_scenario("clip-surge");
    s.workers.count = 10_000;
    s.workers.concurrency = 1_000;
    s.arrivals.rate_per_s = 1_000.0;
    s.duration_ms = 86_400_000;
    assert!(validate(&s).is_err());
    let q = encode(&link("clip-surge", s));
    let (l, notices) = decode(&q);
    let l = l.expect("a link");
    assert!(validate(&l.scenario).is_ok());
    assert!(!notices.is_empty(), "{q}");

    // Numbers no page control makes: encode must still not panic.
    let mut s = shipped_scenario("clip-surge");
    s.arrivals.rate_per_s = f64::NAN;
    s.workers.error_rate = f64::INFINITY;
    s.work.dist = Dist::Lognormal {
        median_ms: -1.0,
        p99_ms: f64::MAX,
    };
    let (l, _) = decode(&encode(&link("clip-surge", s)));
    assert!(validate(&l.expect("a link").scenario).is_ok());
}

#[test]
fn the_view_round_trips() {
    let s = shipped_scenario("clip-surge");
    let views = [
        LinkView {
            from_ms: Some(300_000),
            to_ms: Some(900_500),
            message: Some(17),
            panel: Some("diagnosis".into()),
            timeline: Some(TimelineView::Messages),
            embed: true,
            panels: Some(vec![Part::Timeline, Part::Totals]),
            playhead_ms: Some(61_234),
            theme: Some(Theme::Dark),
            palette_cb: true,
            host_origin: Some("https://docs.example.com".into()),
            present: true,
            interview: true,
            notes: vec!["5min-6min~m17~the surge starts".into()],
        },
        LinkView {
            from_ms: Some(0),
            message: Some(u32::MAX),
            ..LinkView::default()
        },
        LinkView {
            to_ms: Some(s.duration_ms),
            playhead_ms: Some(0),
            panel: Some("help".into()),
            ..LinkView::default()
        },
    ];
    for view in views {
        let l = Link {
            base: "clip-surge".into(),
            scenario: s.clone(),
            b: None,
            view,
        };
        round_trip(&l);
    }
    let q = encode(&Link {
        base: "clip-surge".into(),
        scenario: s.clone(),
        b: None,
        view: LinkView {
            from_ms: Some(300_000),
            to_ms: Some(900_000),
            message: Some(3),
            panel: Some("compare".into()),
            timeline: Some(TimelineView::Workers),
            embed: true,
            panels: Some(vec![Part::Timeline, Part::Totals]),
            playhead_ms: Some(450_000),
            ..LinkView::default()
        },
    });
    assert_eq!(
        q,
        "scenario=clip-surge&from=5min&to=15min&t=7.5min&msg=3&view=workers&panel=compare&embed=1&panels=timeline,totals"
    );
}

#[test]
fn a_link_carries_its_theme_and_host_origin_but_not_auto() {
    let (l, notices) =
        decode("scenario=clip-surge&embed=1&theme=DARK&host_origin=https://docs.example.com:8443");
    assert!(notices.is_empty(), "{notices:?}");
    let l = l.expect("a link");
    assert_eq!(l.view.theme, Some(Theme::Dark));
    assert_eq!(
        l.view.host_origin.as_deref(),
        Some("https://docs.example.com:8443")
    );
    assert_eq!(
        encode(&l),
        "scenario=clip-surge&embed=1&theme=dark&host_origin=https%3A%2F%2Fdocs.example.com%3A8443"
    );
    let (auto, _) = decode("scenario=clip-surge&theme=auto");
    let auto = auto.expect("a link");
    assert_eq!(auto.view.theme, Some(Theme::Auto));
    assert_eq!(encode(&auto), "scenario=clip-surge", "auto is not written");
}

#[test]
fn a_link_carries_the_colour_blind_palette_and_not_the_default() {
    let (l, notices) = decode("scenario=clip-surge&palette=CB&theme=dark");
    assert!(notices.is_empty(), "{notices:?}");
    let l = l.expect("a link");
    assert!(l.view.palette_cb);
    assert_eq!(encode(&l), "scenario=clip-surge&theme=dark&palette=cb");
    let (plain, _) = decode("scenario=clip-surge&palette=default");
    let plain = plain.expect("a link");
    assert!(!plain.view.palette_cb);
    assert_eq!(
        encode(&plain),
        "scenario=clip-surge",
        "the default is not written"
    );
}

#[test]
fn a_bad_palette_is_a_notice_naming_it() {
    let (l, notices) = decode("scenario=clip-surge&timeout=45s&palette=sepia");
    let l = l.expect("a link");
    let said: Vec<String> = notices.iter().map(|n| n.to_string()).collect();
    assert_eq!(said, ["palette = \"sepia\": must be one of: default, cb"]);
    assert!(!l.view.palette_cb);
    assert_eq!(l.scenario.broker.visibility_timeout_ms, Some(45_000));
}

#[test]
fn a_bad_theme_is_a_notice_naming_it() {
    let (l, notices) = decode("scenario=clip-surge&timeout=45s&theme=sepia");
    let l = l.expect("a link");
    let said: Vec<String> = notices.iter().map(|n| n.to_string()).collect();
    assert_eq!(
        said,
        ["theme = \"sepia\": must be one of: auto, light, dark"]
    );
    assert_eq!(l.view.theme, None);
    assert_eq!(
        l.scenario.broker.visibility_timeout_ms,
        Some(45_000),
        "the rest of the link holds"
    );
}

#[test]
fn a_view_alone_opens_the_default_scenario() {
    let (l, notices) = decode("panel=help&t=10s");
    assert!(notices.is_empty(), "{notices:?}");
    let l = l.expect("a link");
    assert_eq!(l.base, DEFAULT_BASE);
    assert_eq!(l.view.panel.as_deref(), Some("help"));
    assert_eq!(l.view.playhead_ms, Some(10_000));
}

#[test]
fn bad_view_values_are_each_ignored_with_a_notice() {
    let (l, notices) =
        decode("scenario=ninety-second-message&from=4min&to=1min&t=6min&msg=-1&panel=<b>&view=grid&embed=maybe&panels=timeline,ads,timeline");
    let l = l.expect("a link");
    let fields: Vec<&str> = notices.iter().map(|n| n.field.as_str()).collect();
    assert_eq!(
        fields,
        ["t", "to", "msg", "view", "panel", "embed", "panels"],
        "{notices:?}"
    );
    assert_eq!(l.view.from_ms, Some(240_000));
    assert_eq!(l.view.to_ms, None);
    assert_eq!(l.view.playhead_ms, None);
    assert_eq!(l.view.panels, Some(vec![Part::Timeline]));
    assert!(!l.view.embed);
}

#[test]
fn a_bad_value_keeps_the_base_value_and_says_why() {
    let base = shipped_scenario("clip-surge");
    let cases = [
        ("timeout", "NaN"),
        ("timeout", "-5s"),
        ("timeout", "0"),
        ("timeout", "13h"),
        ("timeout", "1.5ms"),
        ("timeout", "99999999999999999999999999999h"),
        ("timeout", "18446744073709551616"),
        ("workers", "0"),
        ("workers", "1e3"),
        ("rate", "inf"),
        ("rate", "NaN"),
        ("rate", "1001"),
        ("rate", "-0.5"),
        ("err", "1e400"),
        ("err", "150%"),
        ("median", "0"),
        ("median", "infinity"),
        ("p99", "2d"),
        ("seed", "18446744073709551616"),
        ("seed", "-1"),
        ("jitter", "3.5"),
        ("fence", "lock"),
        ("broker", "kafka"),
        ("mrc", "0"),
        ("mrc", "1001"),
        ("hb", "0ms"),
        ("capacity", "0"),
        ("cap", "4294967296"),
        ("dist", "pareto"),
        ("duration", "25h"),
        ("prefetch", "65536"),
        ("backlog", "1000001"),
        ("timeout", "<script>alert(1)</script>"),
        ("timeout", "３０s"),
        ("timeout", ""),
    ];
    for (field, value) in cases {
        let q = format!(
            "scenario=clip-surge&{field}={}",
            form_urlencoded::byte_serialize(value.as_bytes()).collect::<String>()
        );
        let (l, notices) = decode(&q);
        let l = l.expect("a link");
        assert_eq!(l.scenario, base, "{q}");
        assert_eq!(notices.len(), 1, "{q}: {notices:?}");
        assert_eq!(notices[0].field, field, "{q}");
        assert_eq!(notices[0].value, value, "{q}");
        assert!(notices[0].why.contains("must"), "{q}: {}", notices[0].why);
    }
}

#[test]
fn values_people_write_are_read() {
    let (l, notices) = decode(
        "scenario=clip-surge&Timeout=1.5MIN&rate=30/min&err=5%25&fence=fencing-token&broker=sqs-standard&workers=+4+&capacity=unlimited&mrc=4&hb=off",
    );
    assert!(notices.is_empty(), "{notices:?}");
    let s = l.expect("a link").scenario;
    assert_eq!(s.broker.visibility_timeout_ms, Some(90_000));
    assert_eq!(s.arrivals.rate_per_s, 0.5);
    assert_eq!(s.workers.error_rate, 0.05);
    assert_eq!(s.store.fence, Fence::FencingToken);
    assert_eq!(s.broker.preset, Preset::SqsStandard);
    assert_eq!(s.workers.count, 4);
    assert_eq!(s.downstream.capacity, None);
    assert_eq!(s.broker.max_receive_count, Some(Some(4)));
    assert_eq!(s.workers.heartbeat, Some(None));
}

#[test]
fn settings_that_cannot_run_together_are_dropped_until_it_runs() {
    // Each value is in range; together they are far past the run-size budget.
    let (l, notices) =
        decode("scenario=clip-surge&workers=10000&conc=1000&prefetch=65535&rate=1000&duration=24h&hb=1ms&cap=none&backlog=1000000");
    let s = l.expect("a link").scenario;
    assert!(validate(&s).is_ok());
    assert!(lease_sim::validate::check_size(&estimate(&s)).is_ok());
    assert!(!notices.is_empty());
    assert!(notices
        .iter()
        .all(|n| n.why.contains("cannot run") || n.why.contains("kept")));

    // A worker holds every message it runs: prefetch below the handlers is dropped.
    let (l, notices) = decode("scenario=clip-surge&prefetch=2&seed=5");
    let s = l.expect("a link").scenario;
    assert_eq!(s.workers.prefetch, None);
    assert_eq!(s.seed, 5);
    assert_eq!(notices.len(), 1, "{notices:?}");
    assert_eq!(notices[0].field, "prefetch");
    assert!(notices[0].why.contains("workers.prefetch"), "{notices:?}");

    // Heartbeat settings need a heartbeat.
    let (l, notices) = decode("scenario=clip-surge&hb=off&cap=20&ext=30s");
    let s = l.expect("a link").scenario;
    assert_eq!(s.workers.heartbeat, Some(None));
    let fields: Vec<&str> = notices.iter().map(|n| n.field.as_str()).collect();
    assert_eq!(fields, ["ext", "cap"], "{notices:?}");

    // A p99 below the median.
    let (l, notices) = decode("scenario=clip-surge&median=20s&p99=10s");
    let s = l.expect("a link").scenario;
    assert_eq!(
        s.work.dist,
        Dist::Lognormal {
            median_ms: 20_000.0,
            p99_ms: 30_000.0
        }
    );
    assert_eq!(notices.len(), 1, "{notices:?}");
    assert_eq!(notices[0].field, "p99");
}

#[test]
fn unknown_and_repeated_parameters_are_named() {
    let (l, notices) = decode("scenario=clip-surge&utm_source=x&seed=3&seed=4&Seed=5");
    assert_eq!(l.expect("a link").scenario.seed, 3);
    assert_eq!(notices.len(), 3, "{notices:?}");
    assert_eq!(notices[0].field, "utm_source");
    assert!(notices[1].why.contains("more than once"));
    assert_eq!(notices[1].value, "4");

    let (l, notices) = decode("utm_source=x");
    assert!(l.is_none());
    assert_eq!(notices.len(), 1);
    assert_eq!(decode(""), (None, Vec::new()));
    assert_eq!(decode("?"), (None, Vec::new()));
}

#[test]
fn a_bad_data_falls_back_to_the_base() {
    let base = shipped_scenario("clip-surge");
    let long = "A".repeat(MAX_DATA_CHARS + 1);
    let json_not_scenario = base64url::encode(r#"{"workers":{"count":0}}"#);
    let not_json = base64url::encode("<script>");
    let bad_utf8 = base64url::encode([0xff, 0xfe, 0x00]);
    for data in [
        "!!!".to_string(),
        long,
        json_not_scenario,
        not_json,
        bad_utf8,
    ] {
        let q = format!("scenario=clip-surge&data={data}&seed=9");
        let (l, notices) = decode(&q);
        let s = l.expect("a link").scenario;
        let mut want = base.clone();
        want.seed = 9;
        assert_eq!(s, want);
        assert_eq!(notices.len(), 1, "{notices:?}");
        assert_eq!(notices[0].field, "data");
        assert!(notices[0].value.chars().count() <= MAX_VALUE_CHARS + 1);
    }
}

#[test]
fn ten_thousand_parameters_stay_fast_and_few_notices() {
    let q: String = (0..10_000)
        .map(|i| format!("p{i}=<script>{i}</script>"))
        .collect::<Vec<_>>()
        .join("&");
    let start = Instant::now();
    let (l, notices) = decode(&format!("scenario=clip-surge&{q}"));
    assert!(start.elapsed() < Duration::from_secs(1));
    assert!(l.is_some());
    assert_eq!(notices.len(), MAX_NOTICES + 1, "{notices:?}");
    assert_eq!(notices[0].field, "(link)");
    assert!(notices[MAX_NOTICES].why.contains("more"));

    // Many short parameters within the length limit: the count limit cuts them.
    let q = "a=1&".repeat(1_000);
    let (_, notices) = decode(&q);
    assert!(
        notices[0].why.contains("too many parameters"),
        "{notices:?}"
    );
}

#[test]
fn durations_are_written_exactly_and_readably() {
    let cases = [
        (0, "0ms"),
        (250, "250ms"),
        (1_000, "1s"),
        (1_250, "1250ms"),
        (1_500, "1.5s"),
        (30_000, "30s"),
        (61_234, "61234ms"),
        (90_500, "90.5s"),
        (150_000, "2.5min"),
        (130_000, "130s"),
        (1_500_000, "25min"),
        (3_600_000, "1h"),
        (5_400_000, "1.5h"),
        (7_200_000, "2h"),
        (43_200_000, "12h"),
    ];
    for (ms, text) in cases {
        assert_eq!(format_ms(ms), text);
        assert_eq!(parse_ms(text, 0, u64::MAX), Ok(ms));
    }
    for ms in [u64::MAX, u64::MAX - 1, 1 << 53, (1 << 53) + 1, 86_399_999] {
        assert_eq!(parse_ms(&format_ms(ms), 0, u64::MAX), Ok(ms), "{ms}");
    }
    assert!(parse_ms("18446744073709551616", 0, u64::MAX).is_err());
    assert!(parse_ms("5124095576030432h", 0, u64::MAX).is_err());
    assert_eq!(parse_ms("0.1s", 0, u64::MAX), Ok(100));
    assert_eq!(parse_ms("2d", 0, u64::MAX), Ok(172_800_000));
    for x in [2_885.390_081_777_926_8, 0.5, 8_000.0, 1e-3, 86_400_000.0] {
        assert_eq!(parse_ms_f64(&format_ms_f64(x), u64::MAX), Ok(x), "{x}");
    }
}

#[test]
fn notices_are_short_plain_values() {
    let long = "<script>".repeat(100);
    let (_, notices) = decode(&format!(
        "scenario=clip-surge&timeout={long}&{long}=1&x=a%0Ab"
    ));
    assert_eq!(notices.len(), 3, "{notices:?}");
    for n in &notices {
        assert!(n.value.chars().count() <= MAX_VALUE_CHARS + 1, "{n:?}");
        assert!(n.field.chars().count() <= MAX_VALUE_CHARS + 1, "{n:?}");
        assert!(!n.value.chars().any(char::is_control), "{n:?}");
    }
}

#[test]
fn every_preset_and_fence_name_reads_from_a_link() {
    for p in Preset::ALL {
        let (l, n) = decode(&format!("broker={}", name(&p)));
        assert!(n.is_empty(), "{n:?}");
        assert_eq!(l.expect("a link").scenario.broker.preset, p);
    }
    for f in Fence::ALL {
        let (l, n) = decode(&format!("fence={}", name(&f)));
        assert!(n.is_empty(), "{n:?}");
        assert_eq!(l.expect("a link").scenario.store.fence, f);
    }
}

#[test]
fn heartbeat_on_pubsub_edits_the_client_default() {
    let mut s = shipped_scenario("clip-surge");
    s.broker.preset = Preset::GooglePubsub;
    s.broker.visibility_timeout_ms = None;
    s.workers.heartbeat = None;
    let q = round_trip(&link("clip-surge", s.clone()));
    assert!(q.contains("hb=default"), "{q}");
    assert!(heartbeat(&s).is_some());
    let (l, notices) = decode(&format!("{q}&cap=3"));
    assert!(notices.is_empty(), "{notices:?}");
    let h = heartbeat(&l.expect("a link").scenario).expect("heartbeat");
    assert_eq!(h.max_extensions, Some(3));
    assert_eq!(h.interval_ms, 5_000);
}

fn tricky_value() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("NaN".to_string()),
        Just("-inf".to_string()),
        Just("1e400".to_string()),
        Just("18446744073709551615".to_string()),
        Just("18446744073709551616".to_string()),
        Just("99999999999999999999999999999999999999h".to_string()),
        Just("<script>alert(1)</script>".to_string()),
        Just("%ZZ%".to_string()),
        Just("%ff%fe".to_string()),
        Just("𝄞🦀é".to_string()),
        Just("-0".to_string()),
        Just("0".to_string()),
        Just("none".to_string()),
        Just("default".to_string()),
        "[0-9]{1,25}(\\.[0-9]{0,12})?(ms|s|min|h|d|%|/min)?",
        ".{0,40}",
    ]
}

fn known_key() -> impl Strategy<Value = String> {
    let mut names: Vec<&'static str> = Field::ALL.iter().map(|f| f.name()).collect();
    names.extend(view::NAMES);
    names.extend(["scenario", "data"]);
    prop::sample::select(names).prop_map(str::to_string)
}

fn query() -> impl Strategy<Value = String> {
    let pair = (
        prop_oneof![3 => known_key(), 1 => ".{0,12}"],
        tricky_value(),
    )
        .prop_map(|(k, v)| format!("{k}={v}"));
    prop_oneof![
        prop::collection::vec(pair, 0..40).prop_map(|v| v.join("&")),
        ".{0,300}",
        prop::collection::vec(any::<u8>(), 0..300)
            .prop_map(|b| String::from_utf8_lossy(&b).into_owned()),
        (0..20usize, 9_000..11_000usize).prop_map(|(k, n)| format!("x{k}=1&").repeat(n)),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// No link can break the page: decode returns a scenario that runs, and
    /// few short notices.
    #[test]
    fn any_query_decodes_to_a_runnable_scenario(q in query()) {
        let (l, notices) = decode(&q);
        if let Some(l) = &l {
            prop_assert!(validate(&l.scenario).is_ok());
            prop_assert!(shipped::find(&l.base).is_some());
            // What decode gives, encode keeps.
            let again = encode(l);
            let (back, n2) = decode(&again);
            prop_assert_eq!(back.map(|b| b.scenario), Some(l.scenario.clone()), "{}", again);
            prop_assert!(n2.is_empty(), "{}: {:?}", again, n2);
        }
        prop_assert!(notices.len() <= MAX_NOTICES + 1);
        for n in &notices {
            prop_assert!(n.value.chars().count() <= MAX_VALUE_CHARS + 1);
            prop_assert!(n.field.chars().count() <= MAX_VALUE_CHARS + 1);
            prop_assert!(!n.why.is_empty());
        }
    }
}

#[test]
fn a_page_budget_drops_what_it_refuses() {
    let small = |s: &Scenario| {
        if s.workers.count > 20 {
            Err(format!(
                "{} workers is more than this page runs",
                s.workers.count
            ))
        } else {
            Ok(())
        }
    };
    let (l, notices) = decode_within("scenario=clip-surge&workers=40&seed=2", &small);
    let s = l.expect("a link").scenario;
    assert_eq!((s.workers.count, s.seed), (16, 2));
    assert_eq!(notices.len(), 1, "{notices:?}");
    assert!(
        notices[0].why.contains("more than this page runs"),
        "{notices:?}"
    );

    let mut big = shipped_scenario("clip-surge");
    big.workers.count = 30;
    big.faults.push(Fault::Pause {
        worker: 25,
        at_ms: 1_000,
        duration_ms: 1_000,
    });
    let q = encode(&link("clip-surge", big.clone()));
    assert_eq!(decode(&q).0.map(|l| l.scenario), Some(big));
    let (l, notices) = decode_within(&q, &small);
    assert_eq!(l.expect("a link").scenario, shipped_scenario("clip-surge"));
    assert_eq!(notices.len(), 1, "{notices:?}");
    assert_eq!(notices[0].field, "data");
}

#[test]
fn plain_decimals_read_as_the_page_writes_them() {
    use lease_format::units::parse_plain_f64;
    for (text, want) in [
        ("0.5", 0.5),
        (".25", 0.25),
        ("3.", 3.0),
        ("3", 3.0),
        ("007.50", 7.5),
        ("0", 0.0),
        ("000", 0.0),
        ("0.1", 0.1),
    ] {
        assert_eq!(parse_plain_f64(text), Some(want), "{text}");
    }
    for text in [
        "", ".", "-1", "+1", "1e3", "1.2.3", " 1", "inf", "NaN", "0x10", "1_000",
    ] {
        assert_eq!(parse_plain_f64(text), None, "{text:?}");
    }
}

#[test]
fn number_inputs_take_exponents_and_refuse_negatives() {
    use lease_format::units::parse_number_input;
    for (text, want) in [
        ("10", 10.0),
        (" 0.5 ", 0.5),
        (".5", 0.5),
        ("007", 7.0),
        ("1e3", 1000.0),
        ("2.5E-1", 0.25),
        ("1e+2", 100.0),
    ] {
        assert_eq!(parse_number_input(text), Some(want), "{text}");
    }
    for text in ["", "-1", "-0.5", "1e999", "abc", "NaN", "Infinity"] {
        assert_eq!(parse_number_input(text), None, "{text:?}");
    }
}

proptest! {
    /// Every finite value the page writes (`format_f64`, no exponent) reads
    /// back to the same bits, from the smallest fractions to 40 digits.
    #[test]
    fn every_written_decimal_reads_back_to_the_same_bits(
        x in prop_oneof![0.0..1.0f64, 0.0..1e39f64, (0u64..u64::MAX).prop_map(|n| n as f64 * 1e-20)]
    ) {
        let text = lease_format::units::format_f64(x);
        prop_assert_eq!(lease_format::units::parse_plain_f64(&text).map(f64::to_bits), Some(x.to_bits()), "{}", text);
    }
}

/// The embed generator's parts (`src/embed.rs`) are the ones a link may name.
#[test]
fn the_embed_parts_are_the_ones_a_link_may_name() {
    let mut ours: Vec<&str> = crate::embed::EMBED_PARTS
        .iter()
        .map(|(p, _)| p.name())
        .collect();
    let mut link: Vec<&str> = super::EMBED_PANELS.to_vec();
    ours.sort_unstable();
    link.sort_unstable();
    assert_eq!(ours, link);
}

#[test]
fn side_b_round_trips_as_b_fields() {
    let a = shipped_scenario("clip-surge");
    let mut b = a.clone();
    set(&mut b, Field::Timeout, &Value::Num(47_000)).expect("timeout");
    let l = Link {
        b: Some(b),
        ..link("clip-surge", a)
    };
    let q = round_trip(&l);
    assert!(q.contains("compare=1&b.timeout=47s"), "{q}");
}

#[test]
fn side_b_equal_to_side_a_still_compares() {
    let a = shipped_scenario("clip-surge");
    let l = Link {
        b: Some(a.clone()),
        ..link("clip-surge", a)
    };
    let q = round_trip(&l);
    assert!(q.contains("compare=1") && !q.contains("b."), "{q}");
}

#[test]
fn a_bad_b_field_keeps_side_a_value_with_a_notice() {
    let (read, notices) = read_within(
        "scenario=clip-surge&timeout=40s&compare=1&b.timeout=soon&b.workers=3&b.nope=1",
        &|_| Ok(()),
    );
    let read = read.expect("read");
    let b = read.link.b.expect("side B");
    assert_eq!(
        b.broker.visibility_timeout_ms,
        Some(40_000),
        "side A's timeout"
    );
    assert_eq!(read.b_sets.map(|s| s.len()), Some(1), "only b.workers");
    let fields: Vec<&str> = notices.iter().map(|n| n.field.as_str()).collect();
    assert!(fields.contains(&"b.timeout"), "{notices:?}");
    assert!(fields.contains(&"b.nope"), "{notices:?}");
}

#[test]
fn b_fields_without_compare_are_ignored_with_a_notice() {
    let (read, notices) = read_within("scenario=clip-surge&b.timeout=45s", &|_| Ok(()));
    assert_eq!(read.expect("read").link.b, None);
    assert!(
        notices.iter().any(|n| n.field == "b.timeout"),
        "{notices:?}"
    );
}

mod notes {
    use super::*;
    use lease_view::note::{Note, NoteOn, MAX_NOTES, MAX_NOTE_CHARS};

    fn with_notes(notes: Vec<Note>) -> Link {
        let mut l = link(
            "ninety-second-message",
            shipped_scenario("ninety-second-message"),
        );
        l.view.notes = notes.iter().map(Note::to_field).collect();
        l
    }

    #[test]
    fn notes_travel_as_repeated_note_fields() {
        let l = with_notes(vec![
            Note {
                from_ms: 60_000,
                to_ms: 90_000,
                on: NoteOn::Worker(1),
                text: "worker 1 starts the same message here".into(),
            },
            Note {
                from_ms: 0,
                to_ms: 5_000,
                on: NoteOn::Timeline,
                text: "a ~ & % = + # ✓ 🙂".into(),
            },
        ]);
        let q = round_trip(&l);
        assert!(q.contains("note=60s-90s~w1~worker%201%20starts"), "{q}");
        assert_eq!(q.matches("note=").count(), 2, "{q}");
    }

    #[test]
    fn a_bad_note_is_named_and_dropped_alone() {
        let (link, notices) = decode(
            "scenario=ninety-second-message&timeout=45s&note=garbage&note=60s-90s~w1~kept&note=10s-5s~~backwards",
        );
        let link = link.expect("the link still applies");
        assert_eq!(link.scenario.broker.visibility_timeout_ms, Some(45_000));
        assert_eq!(link.view.notes.len(), 1);
        assert_eq!(link.view.notes[0], "60s-90s~w1~kept");
        let said: Vec<String> = notices.iter().map(ToString::to_string).collect();
        assert_eq!(said.len(), 2, "{said:?}");
        assert!(
            said[0].starts_with("note = \"garbage\": is not FROM-TO~ON~TEXT"),
            "{said:?}"
        );
        assert!(said[1].contains("ends before it starts"), "{said:?}");
    }

    #[test]
    fn a_note_past_the_runs_end_is_kept_for_a_longer_run() {
        let (link, notices) =
            decode("scenario=ninety-second-message&note=1s-2h~~after%20the%20end");
        assert!(notices.is_empty(), "{notices:?}");
        assert_eq!(link.expect("a link").view.notes, ["1s-2h~~after the end"]);
    }

    #[test]
    fn a_link_keeps_ten_notes() {
        let q: String = (0..MAX_NOTES + 2)
            .map(|i| format!("&note={i}s-{}s~~n{i}", i + 1))
            .collect();
        let (link, notices) = decode(&format!("scenario=ninety-second-message{q}"));
        assert_eq!(link.expect("a link").view.notes.len(), MAX_NOTES);
        assert_eq!(notices.len(), 2);
        assert!(notices[0].why.contains("past the 10 notes"), "{notices:?}");
    }

    proptest! {
        #[test]
        fn any_note_comes_back_from_the_link_it_is_written_into(
            from in 0u64..60_000,
            len in 1u64..60_000,
            w in 0u32..4,
            text in "[~&%=+#?/ a-zA-Z0-9é✓日本語🙂-]{0,139}[~&%a-z✓🙂]",
        ) {
            prop_assume!(text.chars().count() <= MAX_NOTE_CHARS);
            let l = with_notes(vec![Note { from_ms: from, to_ms: from + len, on: NoteOn::Worker(w), text }]);
            let (back, notices) = decode(&encode(&l));
            prop_assert!(notices.is_empty(), "{:?}", notices);
            prop_assert_eq!(back.map(|b| b.view.notes), Some(l.view.notes));
        }
    }
}

#[test]
fn samples_under_a_whole_ms_are_read_as_the_link_writes_them() {
    let (l, notices) = decode("scenario=ninety-second-message&samples=0.4,2.6,120.2");
    assert!(notices.is_empty(), "{notices:?}");
    let l = l.expect("the link reads");
    assert_eq!(
        l.scenario.work.dist,
        Dist::Empirical {
            samples_ms: vec![0.0, 3.0, 120.0]
        }
    );
    let (back, n2) = decode(&encode(&l));
    assert!(n2.is_empty(), "{n2:?}");
    assert_eq!(back.map(|b| b.scenario), Some(l.scenario));
}
