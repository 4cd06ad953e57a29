//! The work's durations against the visibility timeout, under the
//! processing-time controls: a glance, so one curve, one line, a shaded
//! tail and the heartbeat's renewals as ticks, and no axis labels; the full
//! chart with its axes is in the "Your latency data" panel.

use lease_diagnose::stats::work_quantile_ms;
use lease_sim::scenario::Dist;
use yew::prelude::*;

use lease_format::display::duration_about;

const W: f64 = 260.0;
/// The plot's bottom edge, with room for the strokes below it.
const BASE: f64 = 60.0;
const TOP: f64 = 4.0;

/// What the chart draws from, compared so that a slider elsewhere (or
/// playback) does not draw it again.
#[derive(PartialEq)]
pub struct WorkChart {
    pub dist: Dist,
    pub timeout_ms: u64,
    /// The heartbeat's interval and its cap on extensions, when it is on.
    pub heartbeat: Option<(u64, Option<u32>)>,
}

/// The share (in percent) of the work longer than `timeout`: the largest q
/// whose quantile fits in it, by bisection, since quantiles are what every
/// shape answers.
pub fn share_past(d: &Dist, timeout: f64) -> f64 {
    let (mut lo, mut hi) = (0.0_f64, 1.0_f64);
    for _ in 0..30 {
        let mid = 0.5 * (lo + hi);
        if work_quantile_ms(d, mid) <= timeout {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    (1.0 - lo) * 100.0
}

/// The share (in percent) of the work (at full speed) longer than the
/// visibility timeout, in words.
pub fn longer_than_timeout(share: f64, timeout_ms: u64) -> String {
    let timeout = duration_about(timeout_ms as f64);
    if share < 0.05 {
        format!("Almost no message needs longer than the {timeout} timeout.")
    } else {
        format!("{share:.1}% of messages need longer than the {timeout} timeout.")
    }
}

pub fn view(c: &WorkChart) -> Html {
    crate::memo::count_render("work-chart");
    let t = c.timeout_ms as f64;
    let q = |p: f64| work_quantile_ms(&c.dist, p).max(1.0);
    let lo = q(0.005).min(t) / 1.5;
    let hi = q(0.995).max(t) * 1.3;
    let span = (hi / lo).ln();
    let x = |v: f64| format!("{:.1}", W * (v.max(lo) / lo).ln() / span);
    let y = |p: f64| format!("{:.1}", BASE - (BASE - TOP) * p);
    let curve: String = (0..33)
        .map(|i| {
            let p = 0.005 + 0.99 * f64::from(i) / 32.0;
            format!("{},{} ", x(q(p)), y(p))
        })
        .collect();
    let xt = x(t);
    let share = share_past(&c.dist, t);
    // One path each, not an element per tick.
    let tail = format!("M{xt} 4H260v{:.1}H{xt}z", (BASE - TOP) * share / 100.0);
    let renewals: String = c
        .heartbeat
        .map(|(every, cap)| {
            (1..=cap.unwrap_or(60).min(60))
                .map(|k| f64::from(k) * every as f64)
                .take_while(|r| *r <= hi)
                .map(|r| format!("M{} 54V60", x(r)))
                .collect()
        })
        .unwrap_or_default();
    let words = longer_than_timeout(share, c.timeout_ms);
    html! {
        <figure class="work-chart">
            <svg viewBox="0 0 260 64" role="img" aria-label={words.clone()}>
                <path class="tail" d={tail} />
                <polyline class="series s-depth" points={curve} />
                <path class="timeout" d={format!("M{xt} 0V60")} />
                <path class="renewal" d={renewals} />
            </svg>
            <figcaption class="dist-summary" id="work-vs-timeout">{words}</figcaption>
        </figure>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lease_sim::scenario::Dist;

    #[test]
    fn the_share_of_work_past_the_timeout_is_said_in_words() {
        let lognormal = Dist::Lognormal {
            median_ms: 5_000.0,
            p99_ms: 30_000.0,
        };
        assert_eq!(
            longer_than_timeout(share_past(&lognormal, 30_000.0), 30_000),
            "1.0% of messages need longer than the 30 s timeout."
        );
        assert_eq!(
            longer_than_timeout(share_past(&Dist::Constant { ms: 45_000 }, 30_000.0), 30_000),
            "100.0% of messages need longer than the 30 s timeout."
        );
        assert_eq!(
            longer_than_timeout(share_past(&Dist::Constant { ms: 2_000 }, 30_000.0), 30_000),
            "Almost no message needs longer than the 30 s timeout."
        );
    }
}
