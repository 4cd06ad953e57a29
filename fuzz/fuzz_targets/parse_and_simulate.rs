//! Raw bytes, read as (lossy UTF-8) JSON: the parser's error paths, then
//! validation, then a bounded simulation with every invariant checked.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    lease_sim_fuzz::harness::check_text(&text);
});
