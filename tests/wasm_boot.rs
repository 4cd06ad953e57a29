//! Runs in headless Chromium (wasm-bindgen-test): the engine the page links
//! parses and validates every shipped scenario inside the browser, the same as
//! natively.
#![cfg(target_arch = "wasm32")]

use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
fn every_shipped_scenario_parses_and_validates_in_the_browser() {
    let shipped = lease_sim::shipped::all();
    assert!(
        shipped.len() >= 10,
        "ten shipped scenarios, found {}",
        shipped.len()
    );
    for s in &shipped {
        let parsed = lease_sim::parse_scenario(s.text).expect("shipped scenario parses");
        assert_eq!(parsed.name, s.name);
        lease_sim::validate(&parsed).expect("shipped scenario validates");
    }
}

#[wasm_bindgen_test]
fn a_negative_timeout_is_refused_with_the_field_named() {
    let err = lease_sim::parse_scenario(r#"{"broker":{"visibility_timeout_ms":-5}}"#)
        .expect_err("a negative timeout is refused");
    assert!(
        err.to_string().contains("broker.visibility_timeout_ms"),
        "{err}"
    );
}
