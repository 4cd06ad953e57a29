//! Which of the timeline's two layouts is shown: the page's canvas and the
//! SVG export draw the same two, and a share link names them.

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TimelineView {
    /// One lane per worker, a row per concurrency slot and a buffer row:
    /// who ran what, when.
    #[default]
    Workers,
    /// One row per message: available / in flight / dead-lettered over time.
    Messages,
}

impl TimelineView {
    /// Its name in a share link and in the page's test hook.
    pub fn name(self) -> &'static str {
        match self {
            TimelineView::Workers => "workers",
            TimelineView::Messages => "messages",
        }
    }
}
