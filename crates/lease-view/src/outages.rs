//! The spans a worker was down (crash to restart) or paused (pause to
//! resume), paired from the run's worker marks. The page's canvas and the SVG
//! export both shade them, mark by mark, in the marks' order.

use lease_sim::run::{WorkerMark, WorkerMarkKind};

/// A worker down (`kind` is `Crash`) or paused (`Pause`) from `from` to `to`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Outage {
    pub worker: u32,
    pub from: u64,
    pub to: u64,
    pub kind: WorkerMarkKind,
}

/// Each worker's open crash or pause, waiting for the mark that ends it.
pub struct Outages {
    open: Vec<Option<(u64, WorkerMarkKind)>>,
}

impl Outages {
    pub fn new(workers: u32) -> Self {
        Outages {
            open: vec![None; workers as usize],
        }
    }

    /// Read the next mark, in time order: a crash or pause opens its
    /// worker's span, a restart or resume returns the span it ends. Marks of
    /// workers beyond the count are passed over.
    pub fn mark(&mut self, m: &WorkerMark) -> Option<Outage> {
        let open = self.open.get_mut(m.worker as usize)?;
        match m.kind {
            WorkerMarkKind::Pause | WorkerMarkKind::Crash => {
                *open = Some((m.t, m.kind));
                None
            }
            WorkerMarkKind::Resume | WorkerMarkKind::Restart => {
                open.take().map(|(from, kind)| Outage {
                    worker: m.worker,
                    from,
                    to: m.t,
                    kind,
                })
            }
        }
    }

    /// The spans still open, by worker, ended at `end_ms`.
    pub fn still_open(&self, end_ms: u64) -> impl Iterator<Item = Outage> + '_ {
        self.open.iter().enumerate().filter_map(move |(w, o)| {
            o.map(|(from, kind)| Outage {
                worker: w as u32,
                from,
                to: end_ms,
                kind,
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(t: u64, worker: u32, kind: WorkerMarkKind) -> WorkerMark {
        WorkerMark { t, worker, kind }
    }

    #[test]
    fn marks_pair_into_spans_and_the_rest_run_to_the_end() {
        use WorkerMarkKind::*;
        let mut o = Outages::new(2);
        assert_eq!(o.mark(&m(10, 0, Crash)), None);
        assert_eq!(o.mark(&m(15, 1, Pause)), None);
        assert_eq!(o.mark(&m(16, 5, Crash)), None);
        assert_eq!(o.mark(&m(17, 5, Restart)), None);
        assert_eq!(
            o.mark(&m(20, 0, Restart)),
            Some(Outage {
                worker: 0,
                from: 10,
                to: 20,
                kind: Crash
            })
        );
        assert_eq!(o.mark(&m(25, 0, Resume)), None);
        let rest: Vec<Outage> = o.still_open(100).collect();
        assert_eq!(
            rest,
            vec![Outage {
                worker: 1,
                from: 15,
                to: 100,
                kind: Pause
            }]
        );
    }
}
