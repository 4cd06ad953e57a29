//! The report's `receive_counts` is a sorted list that stands in for a
//! `BTreeMap<String, u64>`: its JSON, its order and its lookups must be the
//! map's, so the reports other people's checks read are the same bytes.

use std::collections::BTreeMap;

use lease_sim::report::ReceiveCounts;
use proptest::prelude::*;

/// Keys as the engine writes them (counts as decimal text, where "10" sorts
/// before "2"), and short other text a hand-written file may hold; few
/// enough that a key often comes twice.
fn key() -> impl Strategy<Value = String> {
    prop_oneof![(0u32..40).prop_map(|n| n.to_string()), "[0-9a-z]{0,2}"]
}

proptest! {
    #[test]
    fn receive_counts_write_and_read_the_json_of_a_btreemap(
        entries in prop::collection::vec((key(), any::<u64>()), 0..60)
    ) {
        let mut map = BTreeMap::new();
        let mut counts = ReceiveCounts::new();
        for (k, v) in &entries {
            prop_assert_eq!(counts.insert(k.clone(), *v), map.insert(k.clone(), *v));
        }
        let json = serde_json::to_string(&counts).unwrap();
        prop_assert_eq!(&json, &serde_json::to_string(&map).unwrap());
        prop_assert_eq!(counts.iter().collect::<Vec<_>>(), map.iter().collect::<Vec<_>>());
        prop_assert_eq!(counts.len(), map.len());
        for (k, _) in &entries {
            prop_assert_eq!(counts.get(k), map.get(k));
        }
        prop_assert_eq!(counts.get("absent"), None);

        let back: ReceiveCounts = serde_json::from_str(&json).unwrap();
        prop_assert_eq!(&back, &counts);
        prop_assert_eq!(serde_json::to_string(&back).unwrap(), json);
    }

    #[test]
    fn receive_counts_read_a_json_object_in_any_order_as_a_btreemap_does(
        entries in prop::collection::vec((key(), any::<u64>()), 0..60)
    ) {
        let mut json = String::from("{");
        for (i, (k, v)) in entries.iter().enumerate() {
            if i > 0 {
                json.push(',');
            }
            json.push_str(&format!("{}:{v}", serde_json::to_string(k).unwrap()));
        }
        json.push('}');
        let counts: ReceiveCounts = serde_json::from_str(&json).unwrap();
        let map: BTreeMap<String, u64> = serde_json::from_str(&json).unwrap();
        prop_assert_eq!(serde_json::to_string(&counts).unwrap(), serde_json::to_string(&map).unwrap());
    }
}

#[test]
fn a_receive_count_given_twice_in_json_keeps_its_last_value() {
    let json = r#"{"2":1,"10":5,"2":7}"#;
    let counts: ReceiveCounts = serde_json::from_str(json).unwrap();
    assert_eq!(counts.get("2"), Some(&7));
    assert_eq!(counts.len(), 2);
    assert_eq!(serde_json::to_string(&counts).unwrap(), r#"{"10":5,"2":7}"#);
    let map: BTreeMap<String, u64> = serde_json::from_str(json).unwrap();
    assert_eq!(serde_json::to_string(&map).unwrap(), r#"{"10":5,"2":7}"#);
}

#[test]
fn receive_counts_refuse_json_that_is_not_an_object_of_counts() {
    assert!(serde_json::from_str::<ReceiveCounts>(r#"[["1",2]]"#).is_err());
    assert!(serde_json::from_str::<ReceiveCounts>(r#"{"1":-2}"#).is_err());
}
