//! Runs narrower than a pixel, binned per pixel column of one row: zoomed out
//! on a 100k-run timeline, thousands of runs share a pixel and bars would be
//! a solid smear that costs a rectangle each. A strip paints one shade per
//! column instead, and keeps what went wrong (overlapping runs, expiries,
//! dead letters) countable per column so the page can still mark it.

use crate::scale::TimeScale;

/// What fell in one pixel column of a row.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Column {
    /// Runs that start in this column; a run that began before the window
    /// counts in the first column, so every run in the window counts once.
    pub runs: u32,
    /// Run time inside this column, in ms: the shade (a column fully covered
    /// by runs reads as solid, like the bars it replaces).
    pub busy_ms: f64,
    /// Of `runs`, those that ran while another run of the same message did.
    pub overlaps: u32,
    /// Leases that expired at a time inside this column.
    pub expiries: u32,
    /// Messages dead-lettered at a time inside this column.
    pub dead_letters: u32,
}

impl Column {
    pub fn is_empty(&self) -> bool {
        self.runs == 0 && self.busy_ms <= 0.0 && self.expiries == 0 && self.dead_letters == 0
    }
}

/// Adjacent columns of one shade, `[from, to)` in column numbers (plot pixels).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Span {
    pub from: u32,
    pub to: u32,
    /// `1..=levels`: how much of the span the runs cover, rounded up so a
    /// single short run is never invisible.
    pub level: u8,
}

/// One row's columns over the visible window; reused from row to row.
#[derive(Debug, Clone, PartialEq)]
pub struct Strip {
    start_ms: f64,
    end_ms: f64,
    ms_per_px: f64,
    columns: Vec<Column>,
}

impl Strip {
    /// Columns for every whole or partial plot pixel of `scale`.
    pub fn new(scale: &TimeScale) -> Self {
        let n = scale.width_px.ceil().max(1.0) as usize;
        Strip {
            start_ms: scale.start_ms,
            end_ms: scale.end_ms,
            ms_per_px: scale.ms_per_px(),
            columns: vec![Column::default(); n],
        }
    }

    /// Empties the columns for the next row.
    pub fn clear(&mut self) {
        self.columns.fill(Column::default());
    }

    pub fn columns(&self) -> &[Column] {
        &self.columns
    }

    /// Columns with anything in them: what the page paints.
    pub fn painted(&self) -> u32 {
        self.columns.iter().filter(|c| !c.is_empty()).count() as u32
    }

    /// The column of time `t`, clamped to the strip.
    fn col_of(&self, t: f64) -> usize {
        let c = ((t - self.start_ms) / self.ms_per_px).floor();
        c.clamp(0.0, (self.columns.len() - 1) as f64) as usize
    }

    fn inside(&self, t: u64) -> bool {
        (self.start_ms..=self.end_ms).contains(&(t as f64))
    }

    /// A run `[start, end]` in ms. Outside the window: ignored.
    pub fn add_run(&mut self, start: u64, end: u64, overlap: bool) {
        let (s, e) = (start as f64, end.max(start) as f64);
        if e < self.start_ms || s > self.end_ms {
            return;
        }
        let first = self.col_of(s);
        let last = self.col_of(e);
        let c = &mut self.columns[first];
        c.runs += 1;
        c.overlaps += u32::from(overlap);
        // A sub-pixel run touches one or two columns; a long one (a hung
        // run binned with the rest) is clipped to the window.
        for (i, col) in self.columns[first..=last].iter_mut().enumerate() {
            let c0 = self.start_ms + (first + i) as f64 * self.ms_per_px;
            let c1 = c0 + self.ms_per_px;
            col.busy_ms += (e.min(c1) - s.max(c0)).max(0.0);
        }
    }

    /// A lease that expired at `t`, if `t` is in the window.
    pub fn add_expiry(&mut self, t: u64) {
        if self.inside(t) {
            let i = self.col_of(t as f64);
            self.columns[i].expiries += 1;
        }
    }

    /// A message dead-lettered at `t`, if `t` is in the window.
    pub fn add_dead_letter(&mut self, t: u64) {
        if self.inside(t) {
            let i = self.col_of(t as f64);
            self.columns[i].dead_letters += 1;
        }
    }

    /// How much of column `i` the runs cover, 0 to 1.
    pub fn coverage(&self, i: usize) -> f64 {
        self.columns
            .get(i)
            .map_or(0.0, |c| (c.busy_ms / self.ms_per_px).clamp(0.0, 1.0))
    }

    /// Neighbouring columns that `pick` keeps, as `[from, to)` pairs: where
    /// to draw the marks (overlaps, expiries, dead letters) on the strip.
    pub fn marked(&self, pick: impl Fn(&Column) -> bool) -> Vec<(u32, u32)> {
        let mut out: Vec<(u32, u32)> = Vec::new();
        for (i, c) in self.columns.iter().enumerate() {
            if !pick(c) {
                continue;
            }
            let i = i as u32;
            match out.last_mut() {
                Some(s) if s.1 == i => s.1 = i + 1,
                _ => out.push((i, i + 1)),
            }
        }
        out
    }

    /// Columns with runs, merged into spans of one shade out of `levels`:
    /// a few rectangles per row instead of one per pixel.
    pub fn spans(&self, levels: u8) -> Vec<Span> {
        let levels = levels.max(1);
        let mut out: Vec<Span> = Vec::new();
        for (i, c) in self.columns.iter().enumerate() {
            if c.runs == 0 && c.busy_ms <= 0.0 {
                continue;
            }
            let level = ((self.coverage(i) * levels as f64).ceil() as u8).clamp(1, levels);
            let i = i as u32;
            match out.last_mut() {
                Some(s) if s.to == i && s.level == level => s.to = i + 1,
                _ => out.push(Span {
                    from: i,
                    to: i + 1,
                    level,
                }),
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 100 px over 0..1000 ms: 10 ms a column.
    fn strip() -> Strip {
        Strip::new(&TimeScale {
            start_ms: 0.0,
            end_ms: 1000.0,
            width_px: 100.0,
            limit_ms: 1000.0,
        })
    }

    #[test]
    fn every_run_in_the_window_is_counted_once() {
        let mut s = strip();
        for i in 0..250u64 {
            s.add_run(i * 4, i * 4 + 2, false);
        }
        let total: u32 = s.columns().iter().map(|c| c.runs).sum();
        assert_eq!(total, 250);
        // Two and a half runs start in each 10 ms column: 3, 2, 3, 2, ...
        assert_eq!(s.columns()[0].runs, 3);
        assert_eq!(s.columns()[1].runs, 2);
        assert_eq!(s.painted(), 100);
    }

    #[test]
    fn run_time_is_split_across_the_columns_it_straddles() {
        let mut s = strip();
        s.add_run(7, 13, false);
        assert_eq!(s.columns()[0].runs, 1);
        assert_eq!(s.columns()[1].runs, 0);
        assert!((s.columns()[0].busy_ms - 3.0).abs() < 1e-9);
        assert!((s.columns()[1].busy_ms - 3.0).abs() < 1e-9);
        assert!((s.coverage(0) - 0.3).abs() < 1e-9);
    }

    #[test]
    fn boundary_runs_land_in_the_edge_columns() {
        let mut s = strip();
        // Began before the window: the first column, only its visible part busy.
        s.add_run(0, 4, false);
        let mut s2 = Strip::new(&TimeScale {
            start_ms: 100.0,
            end_ms: 200.0,
            width_px: 10.0,
            limit_ms: 1000.0,
        });
        s2.add_run(95, 104, false);
        assert_eq!(s2.columns()[0].runs, 1);
        assert!((s2.columns()[0].busy_ms - 4.0).abs() < 1e-9);
        // Starts exactly at the window's end: the last column, not past it.
        s2.add_run(200, 205, false);
        assert_eq!(s2.columns()[9].runs, 1);
        // Wholly outside: not counted.
        s2.add_run(10, 20, false);
        s2.add_run(201, 300, false);
        let total: u32 = s2.columns().iter().map(|c| c.runs).sum();
        assert_eq!(total, 2);
        // A run starting on a column's left edge belongs to that column.
        s.add_run(10, 11, false);
        assert_eq!(s.columns()[1].runs, 1);
    }

    #[test]
    fn overlapping_runs_expiries_and_dead_letters_are_kept_per_column() {
        let mut s = strip();
        s.add_run(500, 502, true);
        s.add_run(503, 505, false);
        s.add_expiry(509);
        s.add_dead_letter(999);
        s.add_expiry(1500);
        let c = s.columns()[50];
        assert_eq!((c.runs, c.overlaps, c.expiries), (2, 1, 1));
        assert_eq!(s.columns()[99].dead_letters, 1);
        let marks: u32 = s.columns().iter().map(|c| c.expiries).sum();
        assert_eq!(marks, 1, "an expiry after the window is not drawn");
    }

    #[test]
    fn neighbouring_columns_of_one_shade_merge_into_a_span() {
        let mut s = strip();
        // 0..40 ms fully covered, then one short run at 55.
        s.add_run(0, 40, false);
        s.add_run(55, 56, false);
        assert_eq!(
            s.spans(4),
            vec![
                Span {
                    from: 0,
                    to: 4,
                    level: 4
                },
                Span {
                    from: 5,
                    to: 6,
                    level: 1
                },
            ]
        );
        assert_eq!(s.marked(|c| c.runs > 0), vec![(0, 1), (5, 6)]);
        assert_eq!(s.marked(|c| c.busy_ms > 0.0), vec![(0, 4), (5, 6)]);
        s.clear();
        assert_eq!(s.painted(), 0);
        assert!(s.spans(4).is_empty());
    }
}
