//! Scenario-shaped input built with `arbitrary`, written out as JSON and sent
//! down the same path as `parse_and_simulate`: most inputs are valid
//! scenarios, so the fuzzer spends its time in the simulator.
#![no_main]

use lease_sim_fuzz::ArbScenario;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|s: ArbScenario| {
    lease_sim_fuzz::harness::check_text(&s.to_json());
});
