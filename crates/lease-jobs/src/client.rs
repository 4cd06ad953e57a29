//! The page's and the panels' side of the background worker
//! (`crates/lease-worker`): start one, post it a `Job`, hear its `Reply`s.
//! A job posted before the worker has loaded waits for its `Reply::Ready`
//! (one posted earlier would be lost). Dropping the client ends the worker,
//! whatever it is doing: the engine's loop never yields, so ending the worker
//! is the only way to stop a run. `WorkerPool` holds several, one job's
//! parts spread across them.

use std::cell::RefCell;
use std::ops::ControlFlow;
use std::rc::Rc;

use gloo::events::EventListener;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{MessageEvent, Worker, WorkerOptions, WorkerType};

use crate::{pool_size_of, Job, Reply};

// The worker's loader (`static/lease-worker-loader.js`, which reports a
// wasm that fails to load as an "error" event on the Worker), found from
// this snippet's place among the page's files (`snippets/CRATE/inline0.js`)
// rather than the document's address, which a copy published with
// `--public-url` may not share.
#[wasm_bindgen::prelude::wasm_bindgen(
    inline_js = "export function worker_url() { return new URL('../../static/lease-worker-loader.js', import.meta.url).href; }"
)]
extern "C" {
    fn worker_url() -> String;
}

/// A fresh background worker: the runs', the sweeps' and the exports' each
/// start their own, so that ending one never stops another's work.
pub fn spawn_worker() -> Result<Worker, String> {
    let opts = WorkerOptions::new();
    opts.set_type(WorkerType::Classic);
    Worker::new_with_options(&worker_url(), &opts)
        .map_err(|_| "the browser would not start the background worker".to_string())
}

#[derive(Default)]
struct Handshake {
    ready: bool,
    /// The job posted before the worker said it was ready (the newest), as
    /// its message.
    queued: Option<JsValue>,
}

/// One background worker, ended when dropped.
pub struct WorkerClient {
    worker: Worker,
    handshake: Rc<RefCell<Handshake>>,
    _listeners: [EventListener; 2],
}

impl Drop for WorkerClient {
    fn drop(&mut self) {
        self.worker.terminate();
    }
}

impl WorkerClient {
    /// Starts a worker. `on_reply` hears each reply after `Reply::Ready`,
    /// with what came beside it (a run's `ArrayBuffer`, an export's `Blob`;
    /// `undefined` for the others); `Break` ends the worker, whose memory
    /// grew to hold the job. `on_error` hears that the worker failed to load
    /// or stopped, after it is ended.
    pub fn spawn(
        on_reply: impl Fn(Reply, JsValue) -> ControlFlow<()> + 'static,
        on_error: impl Fn() + 'static,
    ) -> Result<WorkerClient, String> {
        Self::spawn_boxed(Box::new(on_reply), Box::new(on_error))
    }

    fn spawn_boxed(
        on_reply: Box<dyn Fn(Reply, JsValue) -> ControlFlow<()>>,
        on_error: Box<dyn Fn()>,
    ) -> Result<WorkerClient, String> {
        let worker = spawn_worker()?;
        let handshake = Rc::new(RefCell::new(Handshake::default()));
        let on_message = {
            let (worker2, handshake) = (worker.clone(), handshake.clone());
            EventListener::new(&worker, "message", move |e| {
                let Some(e) = e.dyn_ref::<MessageEvent>() else {
                    return;
                };
                let data = e.data();
                let (text, beside) = match data.dyn_ref::<js_sys::Array>() {
                    Some(pair) => (pair.get(0).as_string(), pair.get(1)),
                    None => (data.as_string(), JsValue::UNDEFINED),
                };
                let Some(reply) = text.as_deref().and_then(Reply::from_json) else {
                    return;
                };
                if reply == Reply::Ready {
                    let Ok(mut h) = handshake.try_borrow_mut() else {
                        return;
                    };
                    h.ready = true;
                    if let Some(job) = h.queued.take() {
                        let _ = worker2.post_message(&job);
                    }
                    return;
                }
                if on_reply(reply, beside).is_break() {
                    worker2.terminate();
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
        Ok(WorkerClient {
            worker,
            handshake,
            _listeners: [on_message, on_error],
        })
    }

    /// Posts `job`, now or as soon as the worker has loaded.
    pub fn post(&self, job: &Job) {
        self.post_message(job.to_json().into());
    }

    /// Posts `job` with what it needs beside it (a `File`), as
    /// `[text, beside]`.
    pub fn post_with(&self, job: &Job, beside: &JsValue) {
        self.post_message(js_sys::Array::of2(&job.to_json().into(), beside).into());
    }

    fn post_message(&self, message: JsValue) {
        let mut h = self.handshake.borrow_mut();
        if h.ready {
            let _ = self.worker.post_message(&message);
        } else {
            h.queued = Some(message);
        }
    }
}

/// How many workers a pool of this browser holds: its
/// `navigator.hardwareConcurrency`, from 1 to `crate::MAX_POOL`.
pub fn pool_size() -> usize {
    let cores = web_sys::window().map_or(1.0, |w| w.navigator().hardware_concurrency());
    pool_size_of(cores)
}

/// A pool of background workers for one job split in parts (a sweep's
/// points, a recommendation's seeds): started when the job starts, each
/// worker a `WorkerClient`, all ended together when the pool is dropped.
pub struct WorkerPool {
    clients: Vec<WorkerClient>,
}

impl WorkerPool {
    /// Starts `n` workers (at least one). `on_reply` hears each worker's
    /// replies with the worker's index; `on_error` hears which worker failed
    /// to load or stopped (that worker is ended; the others go on until the
    /// pool is dropped, which the caller does when it gives the job up).
    pub fn spawn(
        n: usize,
        on_reply: impl Fn(usize, Reply, JsValue) -> ControlFlow<()> + Clone + 'static,
        on_error: impl Fn(usize) + Clone + 'static,
    ) -> Result<WorkerPool, String> {
        let clients = (0..n.max(1))
            .map(|k| {
                let (on_reply, on_error) = (on_reply.clone(), on_error.clone());
                WorkerClient::spawn(move |r, b| on_reply(k, r, b), move || on_error(k))
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(WorkerPool { clients })
    }

    pub fn len(&self) -> usize {
        self.clients.len()
    }

    pub fn is_empty(&self) -> bool {
        self.clients.is_empty()
    }

    /// Posts `job` to worker `k` (now or once it has loaded).
    pub fn post(&self, k: usize, job: &Job) {
        if let Some(c) = self.clients.get(k) {
            c.post(job);
        }
    }
}
