//! What the unit tests share.

use lease_sim::scenario::Scenario;
use lease_sim::shipped;

/// A shipped scenario by name; a missing one fails the test.
pub(crate) fn shipped_scenario(name: &str) -> Scenario {
    match shipped::find(name) {
        Some(s) => s.scenario,
        None => panic!("no shipped scenario {name}"),
    }
}
