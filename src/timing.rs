//! User Timing marks for the steps that can hold the page: they show in the
//! browser's performance tools, and the benchmark (`tests/e2e/bench.mjs`)
//! reads them to say which step a long task was.

/// Runs `f`, recording it as a `performance.measure` named `name`.
pub fn measure<T>(name: &str, f: impl FnOnce() -> T) -> T {
    let perf = web_sys::window().and_then(|w| w.performance());
    let start = format!("{name}:start");
    if let Some(p) = &perf {
        let _ = p.mark(&start);
    }
    let out = f();
    if let Some(p) = &perf {
        let _ = p.measure_with_start_mark(name, &start);
        p.clear_marks_with_mark_name(&start);
    }
    out
}
