//! User Timing marks for the steps that can hold the page: they show in the
//! browser's performance tools, and the benchmark (`tests/e2e/bench.mjs`)
//! reads them to say which step a long task was. Natively (the page's state
//! is tested outside a browser) there is no clock: marks are skipped and the
//! clock stands still. The browser keeps every measure until it is cleared:
//! `static/boot.js` clears them once a thousand pile up.

/// Runs `f`, recording it as a `performance.measure` named `name`.
pub fn measure<T>(name: &str, f: impl FnOnce() -> T) -> T {
    let perf = performance();
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

/// The page's clock, in milliseconds (always 0 where there is none).
pub fn now_ms() -> f64 {
    performance().map_or(0.0, |p| p.now())
}

#[cfg(target_arch = "wasm32")]
fn performance() -> Option<web_sys::Performance> {
    web_sys::window().and_then(|w| w.performance())
}

#[cfg(not(target_arch = "wasm32"))]
fn performance() -> Option<web_sys::Performance> {
    None
}
