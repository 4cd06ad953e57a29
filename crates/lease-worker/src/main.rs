//! The background worker (a wasm binary that Trunk builds with
//! `data-type="worker"`): large runs, sweeps, a recommendation's seeds,
//! exports, the explanation of a scenario file the page cannot read, a file
//! of durations and a run's diagnosis go here so that the page stays live.
//! It reads one `lease_jobs::Job` per message and does it; replies are
//! `lease_jobs::Reply` as JSON text, except a finished run, posted as
//! `[text, ArrayBuffer]` with the buffer transferred, and a finished export,
//! posted as `[text, Blob]`. A file of durations comes as `[text, File]`
//! and is read a slice at a time (`FileReaderSync`), never whole. Natively
//! it does nothing: the jobs' work is tested in `lease-jobs`.

fn main() {
    #[cfg(target_arch = "wasm32")]
    in_worker::start();
}

#[cfg(target_arch = "wasm32")]
mod in_worker {
    use lease_jobs::{
        deliveries_job, diagnose_job, durations_job, export_job, import_job, run_job, seeds_job,
        sweep_job, DurationsJob, ExportJob, Job, Reply,
    };
    use wasm_bindgen::prelude::*;
    use wasm_bindgen::JsCast;
    use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

    fn clock() -> f64 {
        js_sys::Date::now()
    }

    fn post(scope: &DedicatedWorkerGlobalScope, reply: &Reply) {
        let _ = scope.post_message(&reply.to_json().into());
    }

    /// Posts a finished run: its reply and its bytes, the buffer moved to the
    /// page rather than copied.
    fn post_run(scope: &DedicatedWorkerGlobalScope, id: u32, reply: &Reply, bytes: &[u8]) {
        let array = js_sys::Uint8Array::new_with_length(bytes.len() as u32);
        array.copy_from(bytes);
        let buffer = array.buffer();
        let message = js_sys::Array::of2(&reply.to_json().into(), &buffer);
        let transfer = js_sys::Array::of1(&buffer);
        if scope
            .post_message_with_transfer(&message, &transfer)
            .is_err()
        {
            let why = "the worker could not hand the run to the page".into();
            post(scope, &Reply::Failed { id, why });
        }
    }

    /// Writes an export and posts it as a `Blob`, which the page saves
    /// without reading: `[reply, blob]`.
    fn post_export(scope: &DedicatedWorkerGlobalScope, job: &ExportJob) {
        let blob = export_job::export(job).and_then(|text| {
            let opts = web_sys::BlobPropertyBag::new();
            opts.set_type(job.kind.mime());
            let parts = js_sys::Array::of1(&text.as_str().into());
            web_sys::Blob::new_with_str_sequence_and_options(&parts, &opts)
                .map(|b| (b, text.len()))
                .map_err(|_| "the worker could not make the file".to_string())
        });
        match blob {
            Ok((blob, bytes)) => {
                let done = Reply::ExportDone { id: job.id, bytes };
                let _ = scope.post_message(&js_sys::Array::of2(&done.to_json().into(), &blob));
            }
            Err(why) => post(scope, &Reply::Failed { id: job.id, why }),
        }
    }

    /// A `File` as `std::io::Read`: a slice of at most `want` bytes per
    /// read, read synchronously (a worker may), so that reading stops where
    /// the job does and a file of any size never sits whole in memory.
    struct FileRead {
        file: web_sys::Blob,
        reader: web_sys::FileReaderSync,
        at: f64,
    }

    impl std::io::Read for FileRead {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let end = (self.at + buf.len() as f64).min(self.file.size());
            if end <= self.at {
                return Ok(0);
            }
            let slice = self
                .file
                .slice_with_f64_and_f64(self.at, end)
                .and_then(|b| self.reader.read_as_array_buffer(&b))
                .map_err(|_| std::io::Error::other("the browser could not read the file"))?;
            let bytes = js_sys::Uint8Array::new(&slice);
            let n = bytes.length() as usize;
            bytes.copy_to(&mut buf[..n]);
            self.at += n as f64;
            Ok(n)
        }
    }

    fn read_durations(out: &DedicatedWorkerGlobalScope, job: &DurationsJob, file: JsValue) {
        let id = job.id;
        let read = (|| {
            let file: web_sys::Blob = file
                .dyn_into()
                .map_err(|_| "the page sent no file".to_string())?;
            let reader = web_sys::FileReaderSync::new()
                .map_err(|_| "the browser cannot read files in the worker".to_string())?;
            let mut input = FileRead {
                file,
                reader,
                at: 0.0,
            };
            // The first line, for the delimiter: the first 4 KB are plenty.
            let mut head = vec![0u8; 4096];
            let n = std::io::Read::read(&mut input, &mut head).map_err(|e| e.to_string())?;
            head.truncate(n);
            let first = head.split(|b| *b == b'\n').next().unwrap_or(&[]).to_vec();
            let rest = std::io::Read::chain(std::io::Cursor::new(head), input);
            durations_job::read(job, &first, rest, &mut |r| post(out, &r))
        })();
        post(
            out,
            &match read {
                Ok(read) => Reply::DurationsDone { id, read },
                Err(why) => Reply::Failed { id, why },
            },
        );
    }

    fn work(out: &DedicatedWorkerGlobalScope, job: Job, beside: JsValue) {
        match job {
            Job::Run(job) => {
                let (reply, bytes) = run_job::run(&job, &clock, &mut |r| post(out, &r));
                match bytes {
                    Some(b) => post_run(out, job.id, &reply, &b),
                    None => post(out, &reply),
                }
            }
            Job::Sweep(job) => sweep_job::run(&job, &mut |r| post(out, &r)),
            Job::Seeds(job) => seeds_job::run(&job, &mut |r| post(out, &r)),
            Job::Export(job) => post_export(out, &job),
            Job::Diagnose(job) => post(out, &diagnose_job::run(&job)),
            Job::Deliveries(job) => post(
                out,
                &match deliveries_job::run(&job) {
                    Ok(page) => Reply::Deliveries { id: job.id, page },
                    Err(why) => Reply::Failed { id: job.id, why },
                },
            ),
            Job::Import(job) => post(
                out,
                &Reply::Explained {
                    why: import_job::explain(&job),
                },
            ),
            Job::Durations(job) => read_durations(out, &job, beside),
        }
    }

    pub fn start() {
        console_error_panic_hook::set_once();
        let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
        let out = scope.clone();
        let on_message = Closure::<dyn Fn(MessageEvent)>::new(move |e: MessageEvent| {
            let data = e.data();
            let (text, beside) = match data.dyn_ref::<js_sys::Array>() {
                Some(pair) => (pair.get(0).as_string(), pair.get(1)),
                None => (data.as_string(), JsValue::UNDEFINED),
            };
            match Job::from_json(&text.unwrap_or_default()) {
                Ok(job) => work(&out, job, beside),
                Err(why) => post(&out, &Reply::Failed { id: 0, why }),
            }
        });
        scope.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        // The handler lives as long as the worker.
        on_message.forget();
        // Jobs posted before the wasm loaded were lost: the page waits for this.
        post(&scope, &Reply::Ready);
    }
}
