//! `lease-sim previews DIR`: the still pictures an embedded playground shows
//! before it loads (embed.js). Each shipped scenario's timeline, drawn by the
//! page's own SVG export (`lease_view::export`), light and dark, plus
//! `titles.json` so that embed.js can name each figure without fetching its
//! picture across origins.

use std::fmt;
use std::path::{Path, PathBuf};

use lease_sim::{shipped, simulate, Options};
use lease_view::export::{timeline_svg, SvgOptions};

/// The widths a preview may be drawn at: narrower and the labels crowd the
/// lanes, wider and the file grows for detail a figure's box never shows.
pub const WIDTHS: std::ops::RangeInclusive<u32> = 400..=2000;

#[derive(Debug)]
pub enum PreviewError {
    Width(u32),
    Simulate {
        scenario: String,
        message: String,
    },
    Write {
        path: PathBuf,
        error: std::io::Error,
    },
}

impl PreviewError {
    /// Bad input exits with 2, as every other command; a disk that refuses
    /// the files with 1.
    pub fn code(&self) -> u8 {
        match self {
            PreviewError::Width(_) | PreviewError::Simulate { .. } => 2,
            PreviewError::Write { .. } => 1,
        }
    }
}

impl fmt::Display for PreviewError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PreviewError::Width(w) => write!(
                f,
                "--width: {w} px is outside {} to {} px",
                WIDTHS.start(),
                WIDTHS.end()
            ),
            PreviewError::Simulate { scenario, message } => {
                write!(f, "{scenario}: {message}")
            }
            PreviewError::Write { path, error } => {
                write!(f, "{}: cannot write it ({error})", path.display())
            }
        }
    }
}

/// The most a picture may weigh, uncompressed: a docs page with three
/// figures must stay light before its reader asks for one (docs/embedding.md).
pub const MAX_BYTES: usize = 40_000;

/// The picture of one shipped scenario: its whole run when that fits in
/// `MAX_BYTES`, else the longest stretch from the start that does (a busy
/// run's full picture is a megabyte of bars; its first seconds tell the
/// story and the subtitle says which part is shown).
pub fn preview_svg(
    scenario: &lease_sim::Scenario,
    width: u32,
    dark: bool,
) -> Result<String, PreviewError> {
    let run = simulate(scenario, &Options::default()).map_err(|e| PreviewError::Simulate {
        scenario: scenario.name.clone(),
        message: e.to_string(),
    })?;
    let draw = |to_ms: f64| {
        timeline_svg(
            &run,
            &SvgOptions {
                width_px: f64::from(width),
                dark,
                from_ms: 0.0,
                to_ms,
                ..SvgOptions::default()
            },
        )
    };
    let whole = draw(f64::INFINITY);
    if whole.len() <= MAX_BYTES {
        return Ok(whole);
    }
    // The size grows with the stretch shown: halve the gap to the limit.
    let (mut fits, mut too_big) = (lease_view::MIN_SPAN_MS, run.end_ms as f64);
    let mut best = draw(fits);
    for _ in 0..16 {
        let mid = ((fits + too_big) / 2.0).round();
        if mid <= fits || mid >= too_big {
            break;
        }
        let svg = draw(mid);
        if svg.len() <= MAX_BYTES {
            (fits, best) = (mid, svg);
        } else {
            too_big = mid;
        }
    }
    Ok(best)
}

/// Writes every shipped scenario's two pictures and `titles.json` into
/// `dir` (made if missing). Returns how many pictures were written.
pub fn write_all(dir: &Path, width: u32) -> Result<usize, PreviewError> {
    if !WIDTHS.contains(&width) {
        return Err(PreviewError::Width(width));
    }
    let write = |path: PathBuf, text: &str| {
        std::fs::write(&path, text).map_err(|error| PreviewError::Write { path, error })
    };
    std::fs::create_dir_all(dir).map_err(|error| PreviewError::Write {
        path: dir.to_path_buf(),
        error,
    })?;
    let mut titles = serde_json::Map::new();
    let mut written = 0;
    for s in shipped::all() {
        for (dark, suffix) in [(false, ""), (true, ".dark")] {
            let svg = preview_svg(&s.scenario, width, dark)?;
            write(dir.join(format!("{}{suffix}.svg", s.name)), &svg)?;
            written += 1;
        }
        titles.insert(s.name.to_string(), s.title.clone().into());
    }
    let json = serde_json::Value::Object(titles).to_string();
    write(dir.join("titles.json"), &json)?;
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_shipped_scenario_gets_a_light_and_a_dark_picture_and_a_title() {
        let dir = std::env::temp_dir().join(format!("lease-previews-{}", std::process::id()));
        let written = write_all(&dir, 720).unwrap();
        let all = shipped::all();
        assert_eq!(written, all.len() * 2);
        let titles: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join("titles.json")).unwrap())
                .unwrap();
        for s in &all {
            let light = std::fs::read_to_string(dir.join(format!("{}.svg", s.name))).unwrap();
            let dark = std::fs::read_to_string(dir.join(format!("{}.dark.svg", s.name))).unwrap();
            assert!(
                light.contains("<svg") && dark.contains("<svg"),
                "{}",
                s.name
            );
            assert_ne!(light, dark, "{}: the dark picture is the light one", s.name);
            assert_eq!(titles[s.name], s.title.as_str());
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_width_outside_the_range_is_refused_with_the_range() {
        let e = write_all(Path::new("unused"), 120).unwrap_err();
        assert_eq!(e.to_string(), "--width: 120 px is outside 400 to 2000 px");
        assert_eq!(e.code(), 2);
        assert!(!Path::new("unused").exists());
    }

    #[test]
    fn previews_hold_no_script() {
        let s = shipped::find("clip-surge").unwrap();
        let svg = preview_svg(&s.scenario, 720, false).unwrap();
        assert!(!svg.contains("<script"));
        assert!(!svg.contains("href"));
    }

    #[test]
    fn a_busy_run_is_cut_to_a_stretch_that_fits_and_says_so() {
        let s = shipped::find("clip-surge-smaller-steps").unwrap();
        let svg = preview_svg(&s.scenario, 720, true).unwrap();
        assert!(svg.len() <= MAX_BYTES, "{} bytes", svg.len());
        assert!(svg.contains(" to "), "the subtitle names the stretch shown");
        let whole = timeline_svg(
            &simulate(&s.scenario, &Options::default()).unwrap(),
            &SvgOptions::default(),
        );
        assert!(
            whole.len() > MAX_BYTES,
            "the whole run would fit: the cut is untested"
        );
    }

    #[test]
    fn a_small_run_is_shown_whole() {
        let s = shipped::find("ninety-second-message").unwrap();
        let run = simulate(&s.scenario, &Options::default()).unwrap();
        let svg = preview_svg(&s.scenario, 720, false).unwrap();
        let whole = timeline_svg(
            &run,
            &SvgOptions {
                width_px: 720.0,
                ..SvgOptions::default()
            },
        );
        assert_eq!(svg, whole);
    }
}
