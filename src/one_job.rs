//! A background worker of its own for one job (an export, a file's
//! explanation): the request goes as soon as the worker says it has loaded
//! (one posted earlier would be lost), every later message goes to the job's
//! handler, and dropping the handle (a newer job, the panel closing) ends a
//! worker still at work.

use gloo::events::EventListener;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{MessageEvent, Worker};

pub struct OneJob {
    worker: Worker,
    _listeners: [EventListener; 2],
}

impl Drop for OneJob {
    fn drop(&mut self) {
        self.worker.terminate();
    }
}

/// Starts a worker for `request` (JSON text). `on_reply` gets the worker and
/// each message after "ready"; `on_error` hears that the worker failed to
/// load or stopped, after it is ended.
pub fn start(
    request: String,
    on_reply: impl Fn(&Worker, JsValue) + 'static,
    on_error: impl Fn() + 'static,
) -> Result<OneJob, String> {
    let worker = crate::worker::spawn_worker()?;
    let on_message = {
        let worker2 = worker.clone();
        EventListener::new(&worker, "message", move |e| {
            let Some(e) = e.dyn_ref::<MessageEvent>() else {
                return;
            };
            let data = e.data();
            let ready = data
                .as_string()
                .is_some_and(|t| t == crate::sweep_job::READY);
            if ready {
                let _ = worker2.post_message(&request.as_str().into());
            } else {
                on_reply(&worker2, data);
            }
        })
    };
    let on_error = {
        let worker2 = worker.clone();
        // A worker that failed to load, or threw, holds no job any more.
        EventListener::new(&worker, "error", move |_| {
            worker2.terminate();
            on_error();
        })
    };
    Ok(OneJob {
        worker,
        _listeners: [on_message, on_error],
    })
}
