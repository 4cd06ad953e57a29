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
fn the_dist_words_are_the_page_shapes() {
    let words = shape_words();
    assert_eq!(words.len(), SHAPES.len());
    assert!(SHAPES.iter().all(|(s, _)| words.contains(s)));
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
