//! Arrivals: a piecewise-constant rate (the base rate, replaced by surges
//! inside `[from, to)`, the later surge winning where they overlap), fixed or
//! Poisson within each segment. Poisson gaps restart at each rate change;
//! fixed arrivals fall at `segment_start + round(k * 1000 / rate)`, k >= 1.

use rand::RngExt;
use rand_distr::Exp1;
use rand_pcg::Pcg64Mcg;

use crate::scenario::{Arrivals, Process};
use crate::work::{stream, to_ms, TAG_ARRIVALS};

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Segment {
    pub from: u64,
    pub to: u64,
    pub rate_per_s: f64,
}

/// The rate segments covering `[0, end)`, merging neighbours of equal rate.
pub fn segments(a: &Arrivals, end: u64) -> Vec<Segment> {
    let mut cuts: Vec<u64> = vec![0, end];
    for s in &a.surges {
        for c in [s.from_ms, s.to_ms] {
            if c < end {
                cuts.push(c);
            }
        }
    }
    cuts.sort_unstable();
    cuts.dedup();
    let mut out: Vec<Segment> = Vec::new();
    for w in cuts.windows(2) {
        let (from, to) = (w[0], w[1]);
        let mut rate = a.rate_per_s;
        for s in &a.surges {
            if s.from_ms <= from && from < s.to_ms {
                rate = s.rate_per_s;
            }
        }
        if !rate.is_finite() || rate < 0.0 {
            rate = 0.0;
        }
        match out.last_mut() {
            Some(last) if last.rate_per_s == rate && last.to == from => last.to = to,
            _ => out.push(Segment {
                from,
                to,
                rate_per_s: rate,
            }),
        }
    }
    out
}

/// Yields arrival times in order, strictly below `end`.
#[derive(Debug)]
pub struct ArrivalProcess {
    segs: Vec<Segment>,
    seg: usize,
    k: u64,
    last: u64,
    poisson: bool,
    rng: Pcg64Mcg,
}

impl ArrivalProcess {
    pub fn new(a: &Arrivals, seed: u64, end: u64) -> Self {
        ArrivalProcess {
            segs: segments(a, end),
            seg: 0,
            k: 0,
            last: 0,
            poisson: a.process == Process::Poisson,
            rng: stream(seed, TAG_ARRIVALS, 0, 0),
        }
    }

    pub fn next_time(&mut self) -> Option<u64> {
        while let Some(s) = self.segs.get(self.seg).copied() {
            if s.rate_per_s > 0.0 {
                let t = if self.poisson {
                    if self.k == 0 {
                        self.last = s.from;
                    }
                    let e: f64 = self.rng.sample(Exp1);
                    let gap = e * 1000.0 / s.rate_per_s;
                    // A rate near zero (5e-324/s) makes the gap infinite,
                    // which `to_ms` would round to 1 ms: an arrival every
                    // millisecond instead of none. Never, instead.
                    if gap.is_finite() {
                        self.last.saturating_add(to_ms(gap))
                    } else {
                        u64::MAX
                    }
                } else {
                    let off = ((self.k + 1) as f64 * 1000.0 / s.rate_per_s + 0.5).floor();
                    s.from.saturating_add(if off < 9.0e15 {
                        off as u64
                    } else {
                        u64::MAX / 2
                    })
                };
                if t < s.to {
                    self.k += 1;
                    self.last = t;
                    return Some(t);
                }
            }
            self.seg += 1;
            self.k = 0;
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::Surge;

    #[test]
    fn later_surge_wins_where_they_overlap() {
        let a = Arrivals {
            backlog: 0,
            rate_per_s: 1.0,
            process: Process::Fixed,
            surges: vec![
                Surge {
                    from_ms: 10_000,
                    to_ms: 30_000,
                    rate_per_s: 2.0,
                },
                Surge {
                    from_ms: 20_000,
                    to_ms: 40_000,
                    rate_per_s: 4.0,
                },
            ],
            eta_ms: 0,
        };
        let s = segments(&a, 60_000);
        let rates: Vec<_> = s.iter().map(|x| (x.from, x.rate_per_s)).collect();
        assert_eq!(
            rates,
            vec![(0, 1.0), (10_000, 2.0), (20_000, 4.0), (40_000, 1.0)]
        );
    }

    #[test]
    fn fixed_arrivals_fall_at_segment_start_plus_k_over_rate() {
        let a = Arrivals {
            backlog: 0,
            rate_per_s: 3.0,
            process: Process::Fixed,
            surges: vec![],
            eta_ms: 0,
        };
        let mut p = ArrivalProcess::new(&a, 1, 2_000);
        let ts: Vec<_> = std::iter::from_fn(|| p.next_time()).collect();
        assert_eq!(ts, vec![333, 667, 1000, 1333, 1667]);
    }
}
