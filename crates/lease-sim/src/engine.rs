//! Placeholder so the workspace compiles while the engine is written.
use crate::{Options, Run, Scenario, SimError};

pub fn simulate(_scenario: &Scenario, _options: &Options) -> Result<Run, SimError> {
    Err(SimError::Invalid {
        field: "engine".into(),
        value: "not yet written".into(),
        allowed: "the engine".into(),
    })
}
