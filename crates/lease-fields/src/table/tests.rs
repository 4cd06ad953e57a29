use lease_sim::shipped;

use super::*;

#[test]
fn the_table_is_in_the_order_of_its_fields() {
    for (i, f) in Field::ALL.into_iter().enumerate() {
        assert_eq!(f as usize, i);
        assert_eq!(find(f.name()), Some(f), "{}", f.name());
    }
}

#[test]
fn every_slider_is_found_by_its_page_id() {
    for f in CONTROLS {
        let c = f
            .control()
            .unwrap_or_else(|| panic!("{} has no slider", f.name()));
        assert_eq!(find(c.id), Some(f), "{}", c.id);
    }
    let with_slider = Field::ALL.iter().filter(|f| f.control().is_some()).count();
    assert_eq!(with_slider, CONTROLS.len());
}

#[test]
fn every_slider_writes_what_it_reads_on_every_shipped_scenario() {
    for sc in shipped::all() {
        for f in CONTROLS {
            let Some(c) = f.control() else { continue };
            let mut s = sc.scenario.clone();
            // The page disables a toggle whose slider cannot apply.
            if let (Some(t), true) = (&c.toggle, (c.applies)(&s)) {
                let on = if t.enables { &t.checked } else { &t.unchecked };
                set(&mut s, f, on).unwrap_or_else(|e| panic!("{} on {}: {e}", c.id, sc.name));
            }
            if !(c.applies)(&s) {
                continue;
            }
            let r = c.range;
            let target = if r.log {
                r.min * (r.max / r.min).powf(0.7)
            } else {
                r.min + 0.7 * (r.max - r.min)
            };
            let v = (c.value)(&s, target);
            set(&mut s, f, &v).unwrap_or_else(|e| panic!("{} on {}: {e}", c.id, sc.name));
            let got = (c.get)(&s);
            let want = round2(target);
            assert!(
                (got - want).abs() <= want.abs() * 0.05 + 1.0,
                "{} on {}: set {want}, read {got}",
                c.id,
                sc.name
            );
        }
    }
}

#[test]
fn a_word_is_read_once_into_its_fields_enum_and_written_back_the_same() {
    let dist = Field::Dist.spec();
    for shape in Shape::ALL {
        let v = dist.parse(shape.word()).unwrap();
        assert_eq!(v, Value::Choice(Choice::Shape(shape)));
        assert_eq!(dist.format(&v).as_deref(), Some(shape.word()));
    }
    let broker = Field::Broker.spec();
    for p in Preset::ALL {
        let v = broker.parse(&name(&p).replace('_', "-").to_ascii_uppercase());
        assert_eq!(v, Ok(p.into()), "{}", name(&p));
    }
    let counts = Field::ExpiryCounts.spec();
    assert_eq!(counts.parse("true"), Ok(Value::Choice(Choice::Yes(true))));
    assert_eq!(counts.parse("false"), Ok(Value::Choice(Choice::Yes(false))));
    // A choice of another field's enum is refused by name, not taken.
    let mut s = shipped::find("clip-surge").unwrap().scenario;
    let e = set(&mut s, Field::Fence, &Preset::SqsFifo.into()).unwrap_err();
    assert!(e.to_string().contains("fencing_token"), "{e}");
}

#[test]
fn a_heartbeat_setting_with_the_heartbeat_off_names_the_field() {
    let mut s = shipped::find("ninety-second-message").unwrap().scenario;
    set(&mut s, Field::Hb, &Value::Off).unwrap();
    let e = set(&mut s, Field::Cap, &Value::Num(3)).unwrap_err();
    assert_eq!(e.field, "cap");
    assert!(e.to_string().contains("heartbeat is on"), "{e}");
}

#[test]
fn a_word_outside_the_enum_says_which_words_are_allowed() {
    let e = Field::Broker.spec().parse("rabbitmq").unwrap_err();
    assert!(
        e.contains("sqs_standard") && e.contains("google_pubsub"),
        "{e}"
    );
}

#[test]
fn keys_step_the_timeout_by_its_second_figure_and_pages_by_its_first() {
    let c = Field::Timeout.control().unwrap();
    assert_eq!(c.step(30_000.0, Step::Up), 31_000.0);
    assert_eq!(c.step(30_000.0, Step::Down), 29_000.0);
    assert_eq!(c.step(100_000.0, Step::Down), 99_000.0);
    assert_eq!(c.step(99_000.0, Step::Up), 100_000.0);
    assert_eq!(c.step(100_000.0, Step::Up), 110_000.0);
    assert_eq!(c.step(135_000.0, Step::Up), 140_000.0);
    assert_eq!(c.step(135_000.0, Step::Down), 130_000.0);
    assert_eq!(c.step(29_000.0, Step::PageUp), 30_000.0);
    assert_eq!(c.step(60_000.0, Step::PageUp), 70_000.0);
    assert_eq!(c.step(60_000.0, Step::Home), 1.0);
    assert_eq!(
        c.step(60_000.0, Step::End),
        43_200_000.0,
        "12 h, SQS's most"
    );
    assert_eq!(
        c.step(43_200_000.0, Step::Up),
        43_200_000.0,
        "the end stays put"
    );
    assert_eq!(c.step(1.0, Step::Down), 1.0, "the start stays put");
}

#[test]
fn keys_step_counts_by_one_and_fractions_by_a_hundredth() {
    let workers = Field::Workers.control().unwrap();
    assert_eq!(workers.step(4.0, Step::Up), 5.0);
    assert_eq!(workers.step(4.0, Step::PageUp), 10.0);
    let prefetch = Field::Prefetch.control().unwrap();
    assert_eq!(
        prefetch.step(1.0, Step::Up),
        2.0,
        "a whole count never steps by a tenth"
    );
    let jitter = Field::Jitter.control().unwrap();
    assert_eq!(jitter.step(0.07, Step::Up), 0.08);
    assert_eq!(jitter.step(0.07, Step::Down), 0.06);
    let rate = Field::Rate.control().unwrap();
    assert_eq!(rate.step(1.8, Step::Up), 1.9);
}

#[test]
fn every_key_moves_every_slider_inside_its_range() {
    for f in CONTROLS {
        let c = f.control().unwrap();
        let mid = if c.range.log {
            (c.range.min * c.range.max).sqrt()
        } else {
            (c.range.min + c.range.max) / 2.0
        };
        for key in ["ArrowUp", "ArrowDown", "PageUp", "PageDown", "Home", "End"] {
            let step = Step::of_key(key).unwrap();
            let next = c.step(mid, step);
            assert!(
                (c.range.lowest()..=c.range.max).contains(&next),
                "{} {key}: {next}",
                c.id
            );
            assert_ne!(next, mid, "{} {key} moves", c.id);
        }
    }
}

#[test]
fn every_slider_covers_every_value_its_field_accepts() {
    for f in CONTROLS {
        let c = f.control().unwrap();
        let (lo, hi) = f
            .spec()
            .bounds()
            .unwrap_or_else(|| panic!("{} is not a number", c.id));
        let r = c.range;
        assert_eq!(r.max, hi, "{}: the slider ends at the field's most", c.id);
        if lo == 0.0 {
            assert!(
                r.lowest() == 0.0 || (r.log && r.zero),
                "{}: 0 is accepted, the slider must reach it",
                c.id
            );
        } else {
            assert!(
                r.lowest() <= lo,
                "{}: the field takes {lo}, the slider starts at {}",
                c.id,
                r.lowest()
            );
        }
        // The slider's positions run from its lowest to its most.
        assert!(
            r.min > 0.0 || !r.log,
            "{}: a log scale starts above 0",
            c.id
        );
    }
}

#[test]
fn a_slider_spanning_more_than_two_decades_is_logarithmic() {
    for f in CONTROLS {
        let c = f.control().unwrap();
        let r = c.range;
        let span = r.max / r.min.max(if r.zero { r.min } else { 1.0 });
        if span > 100.0 {
            assert!(r.log, "{}: {} to {} wants a log scale", c.id, r.min, r.max);
        }
    }
}

#[test]
fn a_key_never_moves_a_value_the_wrong_way() {
    for f in CONTROLS {
        let c = f.control().unwrap();
        let (lo, hi) = f.spec().bounds().unwrap();
        let r = c.range;
        let mut values = vec![lo, hi, r.lowest(), r.min, r.max];
        for i in 1..40 {
            let t = f64::from(i) / 40.0;
            values.push(if r.log {
                r.min * (r.max / r.min).powf(t)
            } else {
                r.min + t * (r.max - r.min)
            });
        }
        for v in values {
            for (key, up) in [
                (Step::Up, true),
                (Step::PageUp, true),
                (Step::Down, false),
                (Step::PageDown, false),
            ] {
                let next = c.step(v, key);
                if up {
                    assert!(next >= v.min(r.max), "{} {key:?} from {v}: {next}", c.id);
                } else {
                    assert!(
                        next <= v.max(r.lowest()),
                        "{} {key:?} from {v}: {next}",
                        c.id
                    );
                }
            }
        }
    }
    // Typed 1 h, then the arrows: a little above and a little below 1 h.
    let timeout = Field::Timeout.control().unwrap();
    let up = timeout.step(3_600_000.0, Step::Up);
    let down = timeout.step(3_600_000.0, Step::Down);
    assert!(up > 3_600_000.0 && up <= 4_000_000.0, "{up}");
    assert!((3_000_000.0..3_600_000.0).contains(&down), "{down}");
}

#[test]
fn a_slider_at_either_end_sends_the_field_s_least_and_most_exactly() {
    for sc in shipped::all() {
        for f in CONTROLS {
            let c = f.control().unwrap();
            let mut s = sc.scenario.clone();
            if !c.live(&s) {
                continue;
            }
            let r = c.range;
            for end in [r.lowest(), r.max] {
                let v = c.at(&s, end);
                if let Ok(()) = set(&mut s, f, &v) {
                    let got = (c.get)(&s);
                    // The prefetch slider keeps prefetch at least the
                    // handlers; a constant work time is whole milliseconds.
                    let whole_ms = matches!(f, Field::Median | Field::P99) && end < 1.0;
                    if f != Field::Prefetch && !whole_ms {
                        assert_eq!(got, end, "{} on {}: sent {v:?}", c.id, sc.name);
                    }
                } else if end == r.max {
                    panic!("{} on {}: the end {end} was refused", c.id, sc.name);
                }
            }
        }
    }
}

/// The overrides a link would carry from `base` to `target`, applied to `base`.
fn through_a_link(base: &Scenario, target: &Scenario) -> Scenario {
    let overrides: Vec<Override> = diff(base, target)
        .into_iter()
        .map(|(n, text)| {
            let field = find(n).unwrap();
            Override {
                field,
                value: field.spec().parse(&text).unwrap(),
                text,
            }
        })
        .collect();
    apply(base, &overrides).unwrap()
}

#[test]
fn every_client_library_and_its_parameter_go_through_a_link() {
    let base = shipped::find("clip-surge").unwrap().scenario;
    let cases = [
        (Library::Pubsub, Field::MaxLease, 1_800_000),
        (Library::ServiceBus, Field::LockRenewal, 600_000),
        (Library::SqsLambda, Field::FunctionTimeout, 20_000),
    ];
    for (library, param, ms) in cases {
        let mut target = base.clone();
        set(&mut target, Field::Client, &library.into()).unwrap();
        set(&mut target, param, &Value::Num(ms)).unwrap();
        lease_sim::validate(&target).unwrap();
        assert_eq!(through_a_link(&base, &target), target, "{library:?}");
        let names: Vec<&str> = diff(&base, &target).iter().map(|(n, _)| *n).collect();
        assert!(
            names.contains(&"client") && names.contains(&param.name()),
            "{names:?}"
        );
    }
    let mut target = base.clone();
    set(
        &mut target,
        Field::StaleDelete,
        &StaleDelete::Permissive.into(),
    )
    .unwrap();
    assert_eq!(
        diff(&base, &target),
        vec![("stale_delete", "permissive".to_string())]
    );
    assert_eq!(through_a_link(&base, &target), target);
}

#[test]
fn choosing_a_client_library_drops_the_heartbeat_and_lambda_sets_six_times_its_timeout() {
    let mut s = shipped::find("clip-surge").unwrap().scenario;
    assert!(matches!(s.workers.heartbeat, Some(Some(_))) || heartbeat(&s).is_none());
    set(&mut s, Field::Hb, &Value::Num(10_000)).unwrap();
    set(&mut s, Field::Client, &Library::SqsLambda.into()).unwrap();
    assert_eq!(s.workers.heartbeat, None);
    assert_eq!(s.broker.visibility_timeout_ms, None);
    assert_eq!(resolve(&s).visibility_timeout_ms, 180_000);
    set(&mut s, Field::FunctionTimeout, &Value::Num(10_000)).unwrap();
    assert_eq!(resolve(&s).visibility_timeout_ms, 60_000);
    lease_sim::validate(&s).unwrap();
    // Switching the heartbeat on gives the lease back to the worker.
    set(&mut s, Field::Hb, &Value::On).unwrap();
    assert_eq!(s.workers.client, None);
    lease_sim::validate(&s).unwrap();
}

#[test]
fn a_client_parameter_without_its_library_names_the_field() {
    let mut s = shipped::find("clip-surge").unwrap().scenario;
    let e = set(&mut s, Field::FunctionTimeout, &Value::Num(10_000)).unwrap_err();
    assert_eq!(e.field, "function_timeout");
    assert!(e.to_string().contains("client=sqs_lambda"), "{e}");
    set(&mut s, Field::Client, &Library::Pubsub.into()).unwrap();
    let e = set(&mut s, Field::LockRenewal, &Value::Num(10_000)).unwrap_err();
    assert!(e.to_string().contains("client=service_bus"), "{e}");
    let e = Field::FunctionTimeout.spec().parse("20min").unwrap_err();
    assert!(
        e.contains("15min") && e.contains("client library's value"),
        "{e}"
    );
}

#[test]
fn every_broker_rule_field_goes_through_a_link_and_reads_back() {
    let base = shipped::find("clip-surge").unwrap().scenario;
    let mut target = base.clone();
    set(&mut target, Field::Broker, &Preset::Rabbitmq42.into()).unwrap();
    set(
        &mut target,
        Field::ExpiryTakes,
        &ExpiryTakes::Delivery.into(),
    )
    .unwrap();
    set(&mut target, Field::ExpiryCheck, &Value::Num(30_000)).unwrap();
    set(
        &mut target,
        Field::ExpiryCounts,
        &Value::Choice(Choice::Yes(false)),
    )
    .unwrap();
    set(&mut target, Field::LateAck, &LateAck::AcceptedAlways.into()).unwrap();
    set(
        &mut target,
        Field::LeaseSteps,
        &Value::List(vec![5_000.0, 30_000.0]),
    )
    .unwrap();
    lease_sim::validate(&target).unwrap();
    assert_eq!(target.broker.expiry_check_ms, Some(Some(30_000)));
    assert_eq!(target.broker.expiry_counts, Some(false));
    assert_eq!(target.broker.lease_steps_ms, Some(vec![5_000, 30_000]));
    assert_eq!(through_a_link(&base, &target), target);
    let names: Vec<&str> = diff(&base, &target).iter().map(|(n, _)| *n).collect();
    for n in [
        "broker",
        "expiry_takes",
        "expiry_check",
        "expiry_counts",
        "lease_steps",
    ] {
        assert!(names.contains(&n), "{names:?}");
    }
    // `none`: taken back at the deadline; the list reads as it is written.
    let spec = Field::ExpiryCheck.spec();
    assert_eq!(spec.parse("none"), Ok(Value::Off));
    assert_eq!(spec.parse("1min"), Ok(Value::Num(60_000)));
    let steps = Field::LeaseSteps.spec();
    let v = steps.parse("5s, 30s,5min").unwrap();
    assert_eq!(v, Value::List(vec![5_000.0, 30_000.0, 300_000.0]));
    assert_eq!(steps.parse(&steps.format(&v).unwrap()), Ok(v));
    assert!(steps.parse("").unwrap_err().contains("at least one"));
    assert!(Field::ExpiryCounts
        .spec()
        .parse("maybe")
        .unwrap_err()
        .contains("true"));
    // Choosing a broker resets its rules to the preset's.
    set(&mut target, Field::Broker, &Preset::NatsJetstream.into()).unwrap();
    assert_eq!(target.broker.expiry_check_ms, None);
    assert_eq!(target.broker.lease_steps_ms, None);
}

#[test]
fn every_job_framework_field_goes_through_a_link_and_reads_back() {
    let base = shipped::find("clip-surge").unwrap().scenario;
    let mut target = base.clone();
    set(&mut target, Field::Broker, &Preset::Bullmq.into()).unwrap();
    set(&mut target, Field::ExpiryCheck, &Value::Num(30_000)).unwrap();
    set(&mut target, Field::CheckPasses, &Value::Num(2)).unwrap();
    set(&mut target, Field::MaxExpiries, &Value::Num(3)).unwrap();
    set(&mut target, Field::Renewal, &Renewal::EventLoop.into()).unwrap();
    set(&mut target, Field::AckAt, &AckAt::BeforeWork.into()).unwrap();
    set(&mut target, Field::CpuBound, &Choice::Yes(true).into()).unwrap();
    set(&mut target, Field::Eta, &Value::Num(7_200_000)).unwrap();
    lease_sim::validate(&target).unwrap();
    assert_eq!(target.broker.expiry_check_passes, Some(2));
    assert_eq!(target.broker.max_expiries, Some(Some(3)));
    assert!(target.work.cpu_bound);
    assert_eq!(target.arrivals.eta_ms, 7_200_000);
    assert_eq!(through_a_link(&base, &target), target);
    let names: Vec<&str> = diff(&base, &target).iter().map(|(n, _)| *n).collect();
    for n in [
        "broker",
        "check_passes",
        "max_expiries",
        "renewal",
        "ack_at",
        "cpu_bound",
        "eta",
    ] {
        assert!(names.contains(&n), "{names:?}");
    }
    assert_eq!(Field::MaxExpiries.spec().parse("none"), Ok(Value::Off));
    assert!(Field::CheckPasses.spec().parse("3").is_err());
    assert_eq!(Field::Eta.spec().parse("2h"), Ok(Value::Num(7_200_000)));
    // Choosing a broker resets the framework's settings to the preset's.
    set(&mut target, Field::Broker, &Preset::CeleryRedis.into()).unwrap();
    assert_eq!(target.broker.max_expiries, None);
    assert_eq!(target.workers.renewal, None);
    assert_eq!(target.workers.ack_at, None);
}

#[test]
fn every_retry_delay_field_and_the_receive_order_go_through_a_link_and_read_back() {
    let base = shipped::find("clip-surge").unwrap().scenario;
    let mut target = base.clone();
    set(&mut target, Field::Broker, &Preset::CloudTasks.into()).unwrap();
    set(&mut target, Field::Timeout, &Value::Num(15_000)).unwrap();
    set(&mut target, Field::RetryMin, &Value::Num(10_000)).unwrap();
    set(&mut target, Field::RetryMax, &Value::Num(300_000)).unwrap();
    set(&mut target, Field::RetryDoublings, &Value::Num(3)).unwrap();
    set(
        &mut target,
        Field::ReceiveOrder,
        &ReceiveOrder::Random.into(),
    )
    .unwrap();
    lease_sim::validate(&target).unwrap();
    assert_eq!(
        target.broker.receive_order,
        Some(lease_sim::scenario::ReceiveOrder::Random)
    );
    assert_eq!(target.broker.retry_min_ms, Some(Some(10_000)));
    assert_eq!(target.broker.retry_max_ms, Some(300_000));
    assert_eq!(target.broker.retry_doublings, Some(Some(3)));
    assert_eq!(through_a_link(&base, &target), target);
    let names: Vec<&str> = diff(&base, &target).iter().map(|(n, _)| *n).collect();
    for n in [
        "broker",
        "retry_min",
        "retry_max",
        "retry_doublings",
        "receive_order",
    ] {
        assert!(names.contains(&n), "{names:?}");
    }
    // `none`: redelivered at once; doubling without end.
    assert_eq!(Field::RetryMin.spec().parse("none"), Ok(Value::Off));
    assert_eq!(Field::RetryMin.spec().parse("0.1s"), Ok(Value::Num(100)));
    assert_eq!(Field::RetryDoublings.spec().parse("none"), Ok(Value::Off));
    assert!(Field::RetryDoublings.spec().parse("63").is_err());
    // Choosing a broker brings its own retry delay back.
    set(&mut target, Field::Broker, &Preset::TemporalActivity.into()).unwrap();
    assert_eq!(target.broker.retry_min_ms, None);
    assert_eq!(target.broker.retry_doublings, None);
}

#[test]
fn which_leases_wait_out_the_retry_delay_goes_through_a_link_and_reads_back() {
    use lease_sim::scenario::RetryOn;
    let base = shipped::find("bullmq-stalled-more-than-allowable-limit")
        .unwrap()
        .scenario;
    let mut target = base.clone();
    set(&mut target, Field::RetryMin, &Value::Num(1_000)).unwrap();
    set(&mut target, Field::RetryOn, &RetryOn::Every.into()).unwrap();
    lease_sim::validate(&target).unwrap();
    assert_eq!(target.broker.retry_on, Some(RetryOn::Every));
    assert_eq!(through_a_link(&base, &target), target);
    let names: Vec<&str> = diff(&base, &target).iter().map(|(n, _)| *n).collect();
    assert!(names.contains(&"retry_on"), "{names:?}");
    assert_eq!(
        Field::RetryOn.spec().parse("failure"),
        Ok(RetryOn::Failure.into())
    );
    assert!(Field::RetryOn.spec().parse("stalls").is_err());
    // Choosing a broker brings its own reading back.
    set(&mut target, Field::Broker, &Preset::Bullmq.into()).unwrap();
    assert_eq!(target.broker.retry_on, None);
}

#[test]
fn the_fate_past_the_limit_goes_through_a_link_and_reads_back() {
    use lease_sim::scenario::PastLimit;
    let base = shipped::find("bullmq-stalled-more-than-allowable-limit")
        .unwrap()
        .scenario;
    let mut target = base.clone();
    set(&mut target, Field::PastLimit, &PastLimit::Stay.into()).unwrap();
    lease_sim::validate(&target).unwrap();
    assert_eq!(target.broker.past_limit, Some(PastLimit::Stay));
    assert_eq!(through_a_link(&base, &target), target);
    let names: Vec<&str> = diff(&base, &target).iter().map(|(n, _)| *n).collect();
    assert!(names.contains(&"past_limit"), "{names:?}");
    assert_eq!(
        Field::PastLimit.spec().parse("drop"),
        Ok(PastLimit::Drop.into())
    );
    let e = Field::PastLimit.spec().parse("archive").unwrap_err();
    assert!(e.contains("dead_letter") && e.contains("stay"), "{e}");
    // Choosing a broker brings its own fate back.
    set(&mut target, Field::Broker, &Preset::NatsJetstream.into()).unwrap();
    assert_eq!(target.broker.past_limit, None);
}

/// The fields the broker presets brought: each is a broker rule a person
/// sets on the page.
const BROKER_RULES: [Field; 17] = [
    Field::ExpiryTakes,
    Field::ExpiryCheck,
    Field::ExpiryCounts,
    Field::LeaseSteps,
    Field::CheckPasses,
    Field::MaxExpiries,
    Field::RetryMin,
    Field::RetryMax,
    Field::RetryDoublings,
    Field::RetryOn,
    Field::PastLimit,
    Field::ReceiveOrder,
    Field::Renewal,
    Field::AckAt,
    Field::CpuBound,
    Field::Eta,
    Field::ClaimCount,
];

fn under(p: Preset) -> Scenario {
    let mut s = shipped::find("clip-surge").unwrap().scenario;
    set(&mut s, Field::Broker, &p.into()).unwrap();
    s
}

#[test]
fn every_rule_a_preset_sets_is_offered_under_that_preset() {
    for f in BROKER_RULES {
        assert!(f.spec().rule.is_some(), "{} has no rule", f.name());
    }
    let textbook = under(Preset::Textbook);
    let mut missing = Vec::new();
    for p in Preset::ALL {
        let s = under(p);
        let offered: Vec<Field> = rules_for(p).collect();
        for f in BROKER_RULES {
            let spec = f.spec();
            if spec.runs_with(&s) != spec.runs_with(&textbook) && !offered.contains(&f) {
                missing.push(format!("{p:?} {} = {:?}", f.name(), spec.runs_with(&s)));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "set by a preset, not offered: {missing:#?}"
    );
    // The examples the page is for: the stall rules under BullMQ, the
    // claimer under Redis Streams, the BackOff list under JetStream.
    let bullmq: Vec<Field> = rules_for(Preset::Bullmq).collect();
    for f in [Field::ExpiryCheck, Field::MaxExpiries, Field::Renewal] {
        assert!(bullmq.contains(&f), "{f:?}");
    }
    let redis: Vec<Field> = rules_for(Preset::RedisStreams).collect();
    assert!(redis.contains(&Field::ExpiryTakes) && redis.contains(&Field::ExpiryCheck));
    assert!(rules_for(Preset::NatsJetstream).any(|f| f == Field::LeaseSteps));
    for p in [Preset::CeleryRedis, Preset::CelerySqs] {
        assert!(rules_for(p).any(|f| f == Field::Eta));
        assert!(rules_for(p).any(|f| f == Field::AckAt));
    }
    for p in [Preset::TemporalActivity, Preset::CloudTasks] {
        assert!(rules_for(p).any(|f| f == Field::RetryMin));
    }
    assert_eq!(rules_for(Preset::Textbook).count(), 0);
}

#[test]
fn each_rule_shows_the_preset_s_own_value_and_that_value_reads_back_unchanged() {
    for p in Preset::ALL {
        let s = under(p);
        for f in rules_for(p) {
            let spec = f.spec();
            let shown = spec.runs_with(&s).unwrap();
            if shown.is_empty() {
                continue;
            }
            let v = spec
                .parse(&shown)
                .unwrap_or_else(|e| panic!("{p:?} {}: {shown:?}: {e}", f.name()));
            let mut t = s.clone();
            set(&mut t, f, &v).unwrap();
            assert_eq!(
                lease_sim::resolve::resolve(&t),
                lease_sim::resolve::resolve(&s),
                "{p:?} {} = {shown}",
                f.name()
            );
        }
    }
    assert_eq!(
        Field::MaxExpiries.spec().runs_with(&under(Preset::Bullmq)),
        Some("1".into())
    );
    assert_eq!(
        Field::ExpiryCheck.spec().runs_with(&under(Preset::Bullmq)),
        Some("30s".into())
    );
}

#[test]
fn a_backoff_list_with_a_bad_entry_is_refused_naming_the_entry() {
    let steps = Field::LeaseSteps.spec();
    let why = steps.parse("5s, 3o s, 5min").unwrap_err();
    assert!(why.contains("`3o s`"), "{why}");
    let why = steps.parse("5s,0s").unwrap_err();
    assert!(why.contains("`0s`"), "{why}");
    assert!(steps.parse("5s, 30s, 5min").is_ok());
}

/// The share link's documentation lists every field the link reads: each
/// field's name is in the first cell of a row of docs/link.md's tables.
#[test]
fn every_link_field_has_a_row_in_the_share_link_s_documentation() {
    let doc = include_str!("../../../../docs/link.md");
    let named: Vec<&str> = doc
        .lines()
        .filter_map(|l| l.strip_prefix("| "))
        .filter_map(|l| l.split(" |").next())
        .flat_map(|cell| cell.split('`').skip(1).step_by(2))
        .collect();
    let missing: Vec<&str> = FIELDS
        .iter()
        .map(|f| f.name)
        .filter(|n| !named.contains(n))
        .collect();
    assert!(missing.is_empty(), "not in docs/link.md: {missing:?}");
}
