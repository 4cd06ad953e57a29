//! An export (the timeline as SVG; the series, the deliveries or the
//! messages as CSV) as a job for a background worker.
//!
//! Why the worker: a large run's exports are megabytes of text (a
//! million-message run's SVG is 16.6 MB, its deliveries CSV 9.5 MB), and
//! writing them on the page's thread held it for 127 to 689 ms. The worker
//! computes the run again from the scenario (the engine is deterministic),
//! summarised exactly as the page's copy is, writes the file and hands the
//! page a `Blob`, which the page saves without reading it.

use lease_sim::Scenario;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ExportKind {
    TimelineSvg,
    SeriesCsv,
    DeliveriesCsv,
    MessagesCsv,
}

impl ExportKind {
    /// The end of the file name, after the scenario's stem (the page names it).
    pub fn suffix(self) -> &'static str {
        match self {
            ExportKind::TimelineSvg => "timeline.svg",
            ExportKind::SeriesCsv => "series.csv",
            ExportKind::DeliveriesCsv => "deliveries.csv",
            ExportKind::MessagesCsv => "messages.csv",
        }
    }

    /// The file's type (the worker types the `Blob`).
    pub fn mime(self) -> &'static str {
        match self {
            ExportKind::TimelineSvg => "image/svg+xml",
            _ => "text/csv",
        }
    }
}

/// What the SVG shows: the timeline as it is on screen.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SvgSettings {
    /// The visible time range; `None`: the whole run.
    pub range: Option<(u64, u64)>,
    pub dark: bool,
    /// The colour-blind-safe palette, as the page paints with it.
    #[serde(default)]
    pub colour_blind: bool,
    /// Rows per message rather than per worker.
    pub by_message: bool,
    /// The reader's notes, in their link form (`lease_view::note`).
    #[serde(default)]
    pub notes: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ExportJob {
    /// Replies carry it.
    pub id: u32,
    pub scenario: Scenario,
    pub kind: ExportKind,
    pub svg: SvgSettings,
}

/// The file's text: the run computed and summarised as the page has it
/// (`run_job::simulate_for_page`), then written.
pub fn export(job: &ExportJob) -> Result<String, String> {
    use lease_view::export::{
        deliveries_csv, messages_csv, series_csv, timeline_svg_with_notes, SvgOptions,
    };
    use lease_view::TimelineView;
    let run =
        crate::run_job::simulate_for_page(&job.scenario, &mut |_| {}).map_err(|e| e.to_string())?;
    Ok(match job.kind {
        ExportKind::TimelineSvg => {
            let (from, to) = job.svg.range.unwrap_or((0, run.end_ms));
            // The panel sends notes the page kept, which read; any other is left out.
            let notes = lease_view::note::read_notes(&job.svg.notes).0;
            timeline_svg_with_notes(
                &run,
                &SvgOptions {
                    width_px: 1200.0,
                    from_ms: from as f64,
                    to_ms: to as f64,
                    dark: job.svg.dark,
                    colour_blind: job.svg.colour_blind,
                    view: if job.svg.by_message {
                        TimelineView::Messages
                    } else {
                        TimelineView::Workers
                    },
                    title: job.scenario.title.clone(),
                },
                &notes,
            )
        }
        ExportKind::SeriesCsv => series_csv(&run),
        ExportKind::DeliveriesCsv => deliveries_csv(&run),
        ExportKind::MessagesCsv => messages_csv(&run),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn job(scenario: Scenario, kind: ExportKind) -> ExportJob {
        ExportJob {
            id: 7,
            scenario,
            kind,
            svg: SvgSettings {
                range: None,
                dark: false,
                colour_blind: false,
                by_message: false,
                notes: Vec::new(),
            },
        }
    }

    /// A large run's export is of the summarised run the page holds.
    #[test]
    fn a_large_runs_export_is_of_the_summarised_run() {
        let s = lease_sim::bench_scenarios::sub_second_backlog(200_000, 50, 10);
        let mut summarised = lease_sim::simulate(&s, &lease_sim::Options::default()).unwrap();
        let all = summarised.deliveries.len();
        summarised.summarise(crate::run_job::PAGE_LIMITS);
        let kept = summarised.deliveries.len();
        assert!(kept < all && kept <= crate::run_job::PAGE_LIMITS.deliveries);
        let text = export(&job(s, ExportKind::DeliveriesCsv)).unwrap();
        assert_eq!(text, lease_view::export::deliveries_csv(&summarised));
    }

    #[test]
    fn the_svg_carries_the_notes_it_is_sent_and_leaves_out_a_bad_one() {
        let s = lease_sim::shipped::find("ninety-second-message")
            .unwrap()
            .scenario;
        let mut j = job(s, ExportKind::TimelineSvg);
        j.svg.notes = vec![
            "60s-90s~w1~worker 1 starts it again".into(),
            "not a note".into(),
        ];
        let svg = export(&j).unwrap();
        assert!(
            svg.contains(">worker 1: worker 1 starts it again</text>"),
            "{svg}"
        );
        assert_eq!(svg.matches("class=\"lp-note\"").count(), 1);
    }

    #[test]
    fn the_svg_is_of_the_range_asked_for() {
        let s = lease_sim::shipped::find("ninety-second-message")
            .unwrap()
            .scenario;
        let mut j = job(s, ExportKind::TimelineSvg);
        let whole = export(&j).unwrap();
        j.svg.range = Some((0, 60_000));
        let part = export(&j).unwrap();
        assert!(
            whole.starts_with("<svg") || whole.starts_with("<?xml"),
            "{}",
            &whole[..40]
        );
        assert_ne!(whole, part);
    }

    #[test]
    fn a_scenario_that_cannot_run_fails_in_words() {
        let mut s = lease_sim::shipped::find("sub-second-work")
            .unwrap()
            .scenario;
        s.broker.visibility_timeout_ms = Some(0);
        let e = export(&job(s, ExportKind::SeriesCsv)).unwrap_err();
        assert!(e.contains("visibility_timeout_ms"), "{e}");
    }
}
