//! The engine: one discrete-event loop over the broker, the workers, the
//! downstream pool and the store (docs/MODEL.md). The broker's rules live in
//! `broker.rs`, the workers' in `worker.rs`, faults in `faults.rs`, the
//! report in `record.rs`, the invariant checks in `check.rs`.

mod broker;
mod check;
mod faults;
mod queue;
mod record;
mod stalled;
mod worker;

use std::collections::VecDeque;
use std::ops::ControlFlow;

use crate::arrivals::ArrivalProcess;
use crate::clock::{Call, Clock, Ev, Reply};
use crate::log::EventLog;
use crate::resolve::{resolve, Config};
use crate::run::{
    DeadLetterCause, Delivery, DeliveryIx, Effect, Event, EventKind, LeaseEnd, Mark, MessageId,
    Outcome, WorkerMark, NONE,
};
use crate::store::StoreRow;
use crate::work::{sample, stream, Pool, TAG_WORK};
use crate::{Options, Run, Scenario, SimError};

use record::Recorder;

/// The broker's view of one message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum State {
    Available,
    InFlight,
    Deleted,
    /// Past the delivery limit: dead-lettered, dropped or left in the
    /// stream, as `past_limit` says; never handed out again.
    PastLimit,
}

#[derive(Debug, Clone)]
pub(crate) struct Msg {
    pub state: State,
    pub arrived_at: u64,
    pub work_ms: u64,
    /// Deliveries so far; the latest receipt equals it.
    pub receive_count: u32,
    /// What `max_receive_count` is compared with: bumped at receive or at
    /// expiry/abandon, as `count_at` says.
    pub dlq_count: u32,
    pub expires_at: u64,
    /// When the current lease was granted or last extended.
    pub lease_set_at: u64,
    /// Leases of this message the broker took back by time.
    pub expiries: u32,
    /// `on_next_receive`: exhausted, waiting for the receive that moves it;
    /// the cause is how its last lease ended.
    pub exhausted: Option<DeadLetterCause>,
    /// The latest delivery; earlier ones chain back through `Live::prev`
    /// (a list per message without an allocation per message).
    pub current: DeliveryIx,
    pub store: StoreRow,
    pub ended_at: u64,
    pub cause: Option<DeadLetterCause>,
    /// A handler of this message has started before (sequential duplicates).
    pub started_once: bool,
    /// The receipt BullMQ's last stalled check marked (0: none).
    pub stall_mark: u32,
    /// A claimer's sweep left the current lease pending past its `COUNT`:
    /// the sweep it waits for (0: none).
    pub claim_deferred_to: u64,
}

/// What a delivery's handler is doing, as the simulation (not the broker) sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Phase {
    /// On its way to the worker (a receive reply in transit).
    InTransit,
    Buffered,
    Running,
    Paused,
    Hung,
    /// Work done; waiting for the answer to its ack or release.
    Settling,
    Done,
}

#[derive(Debug, Clone, Copy)]
pub(crate) struct Live {
    /// The previous delivery of the same message, or `NONE`.
    pub prev: DeliveryIx,
    pub phase: Phase,
    pub worker: u32,
    /// Pool target while running; work left while paused.
    pub target: f64,
    pub left: f64,
    pub generation: u32,
    /// Store version read at start (read-modify-write).
    pub read: u32,
    pub extensions_sent: u32,
    pub tick_pending: bool,
    pub tick_missed: bool,
    /// Where the broker's periodic expiry checks of this lease start: its
    /// channel's opening (RabbitMQ's channel tick), else t = 0.
    pub checks_from: u64,
    /// Held aside until its ETA (Celery's countdown); its `Tick` is the ETA.
    pub eta_wait: bool,
    /// Acked as its handler started (`ack_at: before_work`).
    pub acked_at_start: bool,
}

#[derive(Debug, Clone)]
pub(crate) struct Worker {
    pub alive: bool,
    pub epoch: u32,
    pub paused: bool,
    pub polling: bool,
    /// Running, settling, hung, buffered (docs/MODEL.md "Workers").
    pub held: u32,
    pub buffer: VecDeque<DeliveryIx>,
    pub slots: Vec<Option<DeliveryIx>>,
    /// Replies that reached the worker during a pause, handled at resume.
    pub inbox: Vec<Reply>,
    /// Pub/Sub's client: how many acks took each whole second from the
    /// receive (empty under any other client).
    pub ack_seconds: Vec<u32>,
    /// When the worker's current channel opened: at its start, at a
    /// restart, or when the broker last closed it.
    pub channel_opened_at: u64,
    /// The CPU-bound run blocking this worker's event loop, if one is.
    pub blocked_by: Option<DeliveryIx>,
    /// Messages held aside until their ETA, outside the prefetch.
    pub eta_held: Vec<DeliveryIx>,
    /// BullMQ's stalled checker: its timer fires at this time plus every
    /// interval (the worker's start, or when its loop was last freed with
    /// the timer overdue).
    pub check_phase: u64,
    /// Since when the loop that runs the timer has been blocked or paused.
    pub check_stopped_at: Option<u64>,
}

/// A delivery a crashed process held (`expiry_takes: orphans`): since when,
/// which message and receipt.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Orphan {
    pub since: u64,
    pub message: u32,
    pub receipt: u32,
}

impl Worker {
    fn fresh(concurrency: u32, epoch: u32) -> Self {
        Worker {
            alive: true,
            epoch,
            paused: false,
            polling: false,
            held: 0,
            buffer: VecDeque::new(),
            slots: vec![None; concurrency as usize],
            inbox: Vec::new(),
            ack_seconds: Vec::new(),
            channel_opened_at: 0,
            blocked_by: None,
            eta_held: Vec::new(),
            check_phase: 0,
            check_stopped_at: None,
        }
    }
}

/// A long poll waiting at the broker.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Poll {
    pub worker: u32,
    pub epoch: u32,
    pub want: u32,
}

pub(crate) struct Sim<'a> {
    pub cfg: Config,
    pub scenario: &'a Scenario,
    pub seed: u64,
    pub end: u64,
    pub now: u64,
    pub check: bool,
    pub clock: Clock,
    pub arrivals: ArrivalProcess,
    pub arrivals_left: bool,
    pub msgs: Vec<Msg>,
    pub available: queue::Available,
    /// Claimed messages (`expiry_takes: claim`) waiting for the next
    /// receive, ahead of the queue, oldest claim first. A message a late
    /// ack deleted meanwhile stays here: its claimed copy is still handed out.
    pub claimed: VecDeque<u32>,
    /// The claimer's last sweep (`expiry_takes: claim` on a periodic
    /// check), so its `COUNT` is applied once per sweep.
    pub claim_swept_at: Option<u64>,
    pub available_count: u64,
    pub in_flight_count: u64,
    pub deleted_count: u64,
    pub dead_count: u64,
    pub polls: VecDeque<Poll>,
    pub workers: Vec<Worker>,
    pub deliveries: Vec<Delivery>,
    pub live: Vec<Live>,
    pub pool: Pool,
    pub pool_dirty: bool,
    pub finish_generation: u64,
    /// When the scheduled `Finish` (of `finish_generation`) falls.
    pub finish_at: Option<u64>,
    pub slowdown: f64,
    /// The stored log: the first `keep_events` entries.
    pub events: EventLog,
    /// Entries logged, stored or not: what the budget and `Totals::events` count.
    pub logged: u64,
    pub keep_events: u64,
    /// The latest entry logged, stored or not (the invariant checks read it).
    pub last_event: Option<Event>,
    pub marks: Vec<Mark>,
    pub worker_marks: Vec<WorkerMark>,
    pub rec: Recorder,
    /// Calls and replies in flight, handlers alive, messages buffered: the run
    /// cannot end early while any is non-zero.
    pub in_transit: u64,
    pub handlers_alive: u64,
    pub budget: Budget,
    /// Log entries between two progress reports.
    pub progress_every: u64,
    /// Clock events dispatched so far (logged or not).
    pub steps: u64,
    /// Why the run was stopped early (`Report::stopped`).
    pub stopped: Option<String>,
    /// Deliveries crashed processes held, not yet taken back (Sidekiq Pro).
    pub orphans: Vec<Orphan>,
    /// The last orphan check: every process starts, and checks, at t = 0.
    pub last_orphan_check: u64,
    /// BullMQ's stalled checker, under two passes (`stalled.rs`).
    pub stall: Option<stalled::Stall>,
}

/// The engine's side of the work budget: a run whose log outgrows
/// its estimate, `MAX_EVENTS` or the caller's `max_events`, or that takes far
/// more steps than its log explains, stops itself and keeps what it recorded
/// instead of running for minutes. The counts only depend on the scenario,
/// so the same scenario stops at the same event. The estimate is an upper
/// bound, so a run that settles within it (every shipped one) never stops.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Budget {
    /// Log entries allowed: the least of the three caps.
    pub events: u64,
    /// The run's estimate (`validate::estimate`) of its log entries.
    pub estimate: u64,
    pub caller: Option<u64>,
    /// Dispatched clock events allowed: `events * STEPS_PER_EVENT`.
    pub steps: u64,
}

impl Budget {
    fn new(scenario: &Scenario, end: u64, caller: Option<u64>) -> Self {
        use crate::validate::{estimate, MAX_EVENTS, STEPS_PER_EVENT};
        // The estimate of the run as it will go: up to `until_ms` if earlier.
        let estimate = if end < scenario.duration_ms {
            estimate(&Scenario {
                duration_ms: end.max(1),
                ..scenario.clone()
            })
            .events
        } else {
            estimate(scenario).events
        };
        let events = estimate.min(MAX_EVENTS).min(caller.unwrap_or(u64::MAX));
        Budget {
            events,
            estimate,
            caller,
            // A floor so that a tiny run's start-up polls never count against it;
            // BullMQ's stalled checks (`stalled.rs`) log nothing of their own.
            steps: events
                .saturating_mul(STEPS_PER_EVENT)
                .max(1_024)
                .saturating_add(stall_checks(scenario, end)),
        }
    }
}

/// At most one stalled check per interval, under two passes.
fn stall_checks(scenario: &Scenario, end: u64) -> u64 {
    let cfg = resolve(scenario);
    match cfg.expiry_check_ms {
        Some(p) if p > 0 && cfg.expiry_check_passes >= 2 => end / p + 1,
        _ => 0,
    }
}

/// How far a run has got: `simulate_with_progress` reports it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Progress {
    /// Simulated time reached.
    pub now_ms: u64,
    /// When the run will stop at the latest; at the last report, when it stopped.
    pub end_ms: u64,
    /// Log entries so far (stored or not).
    pub events: u64,
    /// Messages deleted or dead-lettered so far. A backlog run stops once
    /// every message is settled, often long before `end_ms`: this, against
    /// the messages expected, says how far it has got when time does not.
    pub settled: u64,
}

/// Log entries between two progress reports: often enough for a progress
/// bar (a 1M-message run logs millions), rare enough to cost nothing.
pub const PROGRESS_EVERY: u64 = 1 << 16;

pub fn simulate(scenario: &Scenario, options: &Options) -> Result<Run, SimError> {
    simulate_with_progress(scenario, options, &mut |_| ControlFlow::Continue(()))
}

/// `simulate`, calling `on_progress` about every `PROGRESS_EVERY` log
/// entries (`Options::progress_every`) and once at the end (then
/// `now_ms == end_ms == Run::end_ms`). The page's Web Worker posts these to
/// draw a progress bar; the page itself stops a run it tries on its own
/// thread once it has taken too long (`ControlFlow::Break`), and the run so
/// far comes back with `Run::stopped` saying so.
pub fn simulate_with_progress(
    scenario: &Scenario,
    options: &Options,
    on_progress: &mut dyn FnMut(Progress) -> ControlFlow<()>,
) -> Result<Run, SimError> {
    crate::validate::validate(scenario)?;
    let end = options
        .until_ms
        .map_or(scenario.duration_ms, |u| u.min(scenario.duration_ms));
    let mut sim = Sim::new(scenario, end, options);
    sim.run(on_progress)?;
    // The run is over: what the last report asks no longer matters.
    let _ = on_progress(Progress {
        now_ms: sim.end,
        end_ms: sim.end,
        events: sim.logged,
        settled: sim.deleted_count + sim.dead_count,
    });
    Ok(sim.into_run())
}

/// The report of the run `simulate` would make, from the same engine with
/// its event log counted, not stored: a sweep point or a seed of a
/// recommendation needs the report alone. It equals `simulate(..).report`
/// (docs/MODEL.md "The counters-only run"). The recording path is left as
/// it is (marks and message records are still made, and dropped), so that
/// the two cannot differ.
pub fn run_totals(scenario: &Scenario) -> Result<crate::Report, SimError> {
    let options = Options {
        keep_events: Some(0),
        ..Options::default()
    };
    simulate(scenario, &options).map(|run| run.report)
}

impl<'a> Sim<'a> {
    /// A message's deliveries, latest first.
    pub(crate) fn chain(&self, id: u32) -> impl Iterator<Item = DeliveryIx> + '_ {
        let mut d = self.msgs[id as usize].current;
        std::iter::from_fn(move || {
            if d == NONE {
                return None;
            }
            let here = d;
            d = self.live[d as usize].prev;
            Some(here)
        })
    }

    fn new(scenario: &'a Scenario, end: u64, options: &Options) -> Self {
        let keep_events = options.keep_events.unwrap_or(u64::MAX);
        let cfg = resolve(scenario);
        let seed = scenario.seed;
        let workers = (0..cfg.workers)
            .map(|_| Worker::fresh(cfg.concurrency, 0))
            .collect();
        let rec = Recorder::new(scenario.bucket_ms.max(1), end);
        // Reserve for the expected run (about six events per message) so the
        // big vectors do not copy themselves while growing; capped so that a
        // pessimistic estimate never reserves more than the limits allow.
        let messages = crate::validate::estimate(scenario)
            .messages
            .min(crate::validate::MAX_MESSAGES) as usize;
        Sim {
            arrivals: ArrivalProcess::new(&scenario.arrivals, seed, end),
            arrivals_left: true,
            scenario,
            seed,
            end,
            now: 0,
            check: options.check_invariants,
            clock: Clock::with_capacity(1024),
            msgs: Vec::with_capacity(messages),
            // SQS FIFO's one group keeps its order whatever the switch says.
            available: if cfg.receive_order == crate::scenario::ReceiveOrder::Random
                && !cfg.single_group_fifo
            {
                queue::Available::random(crate::work::stream(
                    seed,
                    crate::work::TAG_RECEIVE_ORDER,
                    0,
                    0,
                ))
            } else {
                queue::Available::new(cfg.single_group_fifo)
            },
            claimed: VecDeque::new(),
            claim_swept_at: None,
            available_count: 0,
            in_flight_count: 0,
            deleted_count: 0,
            dead_count: 0,
            polls: VecDeque::new(),
            workers,
            deliveries: Vec::with_capacity(messages),
            live: Vec::with_capacity(messages),
            pool: Pool::new(),
            pool_dirty: false,
            finish_generation: 0,
            finish_at: None,
            slowdown: 1.0,
            // No more than the cap: a capped log is for a run too big to store.
            events: EventLog::with_capacity((messages as u64 * 6 + 64).min(keep_events) as usize),
            logged: 0,
            keep_events,
            last_event: None,
            marks: Vec::new(),
            worker_marks: Vec::new(),
            rec,
            in_transit: 0,
            handlers_alive: 0,
            budget: Budget::new(scenario, end, options.max_events),
            progress_every: options.progress_every.unwrap_or(PROGRESS_EVERY).max(1),
            steps: 0,
            stopped: None,
            orphans: Vec::new(),
            last_orphan_check: 0,
            stall: match cfg.expiry_check_ms {
                Some(p) if p > 0 && cfg.expiry_check_passes >= 2 => Some(stalled::Stall::new(p)),
                _ => None,
            },
            cfg,
        }
    }

    pub(crate) fn log(&mut self, kind: EventKind, message: u32, worker: u32, receipt: u32) {
        let e = Event {
            t: self.now,
            kind,
            message,
            worker,
            receipt,
        };
        if self.logged < self.keep_events {
            self.events.push(e);
        } else {
            self.events.count_dropped();
        }
        self.logged += 1;
        self.last_event = Some(e);
    }

    pub(crate) fn mark(&mut self, delivery: DeliveryIx, kind: crate::run::MarkKind) {
        self.marks.push(Mark {
            t: self.now,
            delivery,
            kind,
        });
    }

    fn run(
        &mut self,
        on_progress: &mut dyn FnMut(Progress) -> ControlFlow<()>,
    ) -> Result<(), SimError> {
        let every = self.progress_every;
        let mut next_progress = every;
        // The backlog is enqueued at t = 0, in id order, before any worker polls.
        for _ in 0..self.scenario.arrivals.backlog {
            self.arrive();
        }
        self.schedule_next_arrival();
        for w in 0..self.cfg.workers {
            self.worker_try(w);
        }
        self.schedule_faults();
        self.schedule_rate_changes();
        self.after_event();

        while let Some((t, ev)) = self.clock.pop_before(self.end) {
            // Gauges describe the state before the events at `t`: nothing
            // of `ev` has run yet.
            if self.rec.due(t) {
                let g = self.gauges();
                self.rec.sample_until(t, g);
            }
            self.now = t;
            self.dispatch(ev);
            self.after_event();
            if self.check {
                self.check_invariants()?;
            }
            if self.settled() {
                self.end = self.now;
                break;
            }
            self.steps += 1;
            if self.logged >= next_progress {
                next_progress = self.logged + every;
                let asked = on_progress(Progress {
                    now_ms: self.now,
                    end_ms: self.end,
                    events: self.logged,
                    settled: self.deleted_count + self.dead_count,
                });
                if asked.is_break() {
                    self.stopped = Some(format!(
                        "stopped at t = {} ms after {} events: the caller stopped it",
                        lease_format::display::count(self.now),
                        lease_format::display::count(self.logged)
                    ));
                    self.end = self.now;
                    break;
                }
            }
            if let Some(why) = self.over_budget() {
                // The run so far is kept, as if it had been asked to stop here.
                self.stopped = Some(why);
                self.end = self.now;
                break;
            }
        }
        if !self.settled() {
            // Stopped by the clock: everything due at or after `end` stays undone.
            self.now = self.end;
        }
        self.pool.advance(self.now);
        let g = self.gauges();
        self.rec.sample_until(self.end, g);
        self.rec.close(self.end, g);
        Ok(())
    }

    /// The sentence of `Report::stopped` if the run has outgrown its budget.
    fn over_budget(&self) -> Option<String> {
        use crate::validate::{REDUCE_EVENTS, STEPS_PER_EVENT};
        let b = &self.budget;
        let events = self.logged;
        // Called after every event: decide before formatting anything.
        if events <= b.events && self.steps <= b.steps {
            return None;
        }
        let (t, n) = (
            lease_format::display::count(self.now),
            lease_format::display::count(events),
        );
        if events > b.events {
            let why = if b.caller == Some(b.events) && b.events < b.estimate {
                format!(
                    "the limit of {} events this run was given",
                    lease_format::display::count(b.events)
                )
            } else if b.events < b.estimate {
                format!(
                    "the engine's limit of {} events (the estimate was {})",
                    lease_format::display::count(b.events),
                    lease_format::display::count(b.estimate)
                )
            } else {
                format!(
                    "its estimate of {} events",
                    lease_format::display::count(b.events)
                )
            };
            return Some(format!(
                "stopped at t = {t} ms after {n} events: the run exceeded {why}; \
                 to run it whole, reduce {REDUCE_EVENTS}"
            ));
        }
        if self.steps > b.steps {
            return Some(format!(
                "stopped at t = {t} ms after {n} events and {} scheduled steps: the run \
                 exceeded its budget of {} steps ({STEPS_PER_EVENT} per event of its \
                 budget of {}); to run it whole, reduce {REDUCE_EVENTS}",
                lease_format::display::count(self.steps),
                lease_format::display::count(b.steps),
                lease_format::display::count(b.events)
            ));
        }
        None
    }

    fn dispatch(&mut self, ev: Ev) {
        match ev {
            Ev::Expiry { message, receipt } => self.expire(message, receipt),
            Ev::StallCheck { generation } => self.stall_check_due(generation),
            Ev::Call {
                worker,
                epoch,
                call,
            } => {
                self.in_transit -= 1;
                // A crash loses every call still in transit (docs/MODEL.md "Faults").
                if self.workers[worker as usize].epoch == epoch {
                    self.broker_call(worker, epoch, call);
                }
            }
            Ev::Arrival => {
                self.arrive();
                self.schedule_next_arrival();
            }
            Ev::Ready { message } => self.ready(message),
            Ev::RateChange => {
                self.pool.advance(self.now);
                self.slowdown = self.slowdown_at(self.now);
                self.pool_dirty = true;
            }
            Ev::Finish { generation } => {
                if generation == self.finish_generation {
                    self.finish_at = None;
                    self.finish_due();
                }
            }
            Ev::Tick { delivery } => self.tick(delivery),
            Ev::Reply {
                worker,
                epoch,
                reply,
            } => {
                self.in_transit -= 1;
                let w = &mut self.workers[worker as usize];
                if w.epoch != epoch || !w.alive {
                    self.lost_reply(reply);
                } else if w.paused || w.blocked_by.is_some() {
                    w.inbox.push(reply);
                } else {
                    self.worker_reply(worker, reply);
                }
            }
            Ev::Crash {
                worker,
                restart_after,
            } => self.crash(worker, restart_after),
            Ev::Restart { worker } => self.restart(worker),
            Ev::Pause { worker, duration } => self.pause(worker, duration),
            Ev::Resume { worker } => self.resume(worker),
        }
    }

    /// Work that every event may have made due: serve waiting polls, and
    /// re-plan the next finish if the pool changed.
    fn after_event(&mut self) {
        self.serve_polls();
        if self.pool_dirty {
            self.pool_dirty = false;
            self.pool.advance(self.now);
            let running = self.pool.running();
            let share = match self.cfg.capacity {
                Some(c) if running > c => f64::from(c) / f64::from(running),
                _ => 1.0,
            };
            self.pool.set_rate(share / self.slowdown);
            let live = &self.live;
            let next = self
                .pool
                .next_finish(self.now, |d, g| is_current(live, d, g));
            // Most changes leave the earliest finish where it was: keep the
            // event already scheduled rather than queue a new one.
            if next != self.finish_at {
                self.finish_generation += 1;
                self.finish_at = next;
                self.clock.reschedule_finish(
                    next,
                    Ev::Finish {
                        generation: self.finish_generation,
                    },
                );
            }
        }
    }

    fn settled(&self) -> bool {
        !self.arrivals_left
            && self.available_count == 0
            && self.claimed.is_empty()
            && self.in_flight_count == 0
            && self.handlers_alive == 0
            && self.in_transit == 0
    }

    fn arrive(&mut self) {
        let id = self.msgs.len() as u32;
        let mut rng = stream(self.seed, TAG_WORK, u64::from(id), 0);
        let work_ms = sample(&self.scenario.work.dist, &mut rng);
        self.msgs.push(Msg {
            state: State::Deleted,
            arrived_at: self.now,
            work_ms,
            receive_count: 0,
            dlq_count: 0,
            expires_at: 0,
            lease_set_at: 0,
            claim_deferred_to: 0,
            expiries: 0,
            exhausted: None,
            current: NONE,
            store: StoreRow::default(),
            ended_at: 0,
            cause: None,
            started_once: false,
            stall_mark: 0,
        });
        self.rec.arrival(self.now);
        self.log(EventKind::Arrive, id, NONE, NONE);
        self.make_available(id);
    }

    fn schedule_next_arrival(&mut self) {
        match self.arrivals.next_time() {
            Some(t) => self.clock.schedule(t, Ev::Arrival),
            None => self.arrivals_left = false,
        }
    }

    fn schedule_rate_changes(&mut self) {
        let mut cuts: Vec<u64> = Vec::new();
        for s in &self.cfg.slowdowns {
            cuts.push(s.from_ms);
            cuts.push(s.to_ms);
        }
        cuts.sort_unstable();
        cuts.dedup();
        for t in cuts {
            if t == 0 {
                self.slowdown = self.slowdown_at(0);
            } else if t < self.end {
                self.clock.schedule(t, Ev::RateChange);
            }
        }
    }

    /// Overlapping slowdowns multiply (docs/MODEL.md "Work and the feedback loop").
    fn slowdown_at(&self, t: u64) -> f64 {
        self.cfg
            .slowdowns
            .iter()
            .filter(|s| s.from_ms <= t && t < s.to_ms && s.factor.is_finite() && s.factor > 0.0)
            .map(|s| s.factor)
            .product()
    }

    pub(crate) fn send_call(&mut self, worker: u32, call: Call) {
        let epoch = self.workers[worker as usize].epoch;
        self.in_transit += 1;
        self.clock.schedule(
            self.now + self.cfg.rpc_latency_ms,
            Ev::Call {
                worker,
                epoch,
                call,
            },
        );
    }

    pub(crate) fn send_reply(&mut self, worker: u32, epoch: u32, reply: Reply) {
        self.in_transit += 1;
        self.clock.schedule(
            self.now + self.cfg.rpc_latency_ms,
            Ev::Reply {
                worker,
                epoch,
                reply,
            },
        );
    }

    fn into_run(self) -> Run {
        record::finish(self)
    }
}

pub(crate) fn is_current(live: &[Live], d: DeliveryIx, generation: u32) -> bool {
    let l = &live[d as usize];
    l.phase == Phase::Running && l.generation == generation
}

/// The parts of a Delivery fixed when the broker hands it out.
pub(crate) fn new_delivery(
    message: MessageId,
    receipt: u32,
    worker: u32,
    now: u64,
    need: u64,
) -> Delivery {
    Delivery {
        message,
        receipt,
        worker,
        slot: None,
        received_at: now,
        started_at: None,
        ended_at: None,
        lease_ended_at: now,
        deadline: None,
        lease_end: LeaseEnd::Open,
        outcome: Outcome::NeverStarted,
        effect: Effect::NoCommit,
        committed_at: None,
        work_done_ms: 0,
        work_needed_ms: need,
        overlaps: None,
        extensions_ok: 0,
        extensions_rejected: 0,
    }
}
