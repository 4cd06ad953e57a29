//! Starting a background worker (`crates/lease-worker`), for the page's
//! large runs and for the panels' sweeps, exports and file explanations.

use web_sys::{Worker, WorkerOptions, WorkerType};

/// The worker's loader (`static/lease-worker-loader.js`, which reports a
/// wasm that fails to load as an "error" event on the Worker).
const WORKER_URL: &str = "./static/lease-worker-loader.js";

/// A fresh background worker: the runs', the sweeps' and the exports' each
/// start their own, so that ending one never stops another's work.
pub fn spawn_worker() -> Result<Worker, String> {
    let opts = WorkerOptions::new();
    opts.set_type(WorkerType::Classic);
    Worker::new_with_options(WORKER_URL, &opts)
        .map_err(|_| "the browser would not start the background worker".to_string())
}
