//! Bringing what the page points at into view: a tour's step target, the
//! lanes of a finding's message. One rule for both, so neither lands under
//! the sticky totals.

use web_sys::{Element, ScrollIntoViewOptions, ScrollLogicalPosition};

/// Room left between the sticky totals and what is brought into view.
const CLEAR_PX: f64 = 8.0;

/// Scrolls `el` into view, in the page and in any scroll box around it: one
/// taller than 0.6 of the window shows its top, the rest are centred. Then,
/// if the sticky totals (`#totals`) or the presenter's bar still cover its
/// top, whatever their number of rows at this width, the page scrolls back
/// to clear them.
pub fn bring_into_view(el: &Element) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let tall = window
        .inner_height()
        .ok()
        .and_then(|h| h.as_f64())
        .is_some_and(|h| el.get_bounding_client_rect().height() > 0.6 * h);
    let opts = ScrollIntoViewOptions::new();
    opts.set_block(if tall {
        ScrollLogicalPosition::Start
    } else {
        ScrollLogicalPosition::Center
    });
    opts.set_inline(ScrollLogicalPosition::Nearest);
    el.scroll_into_view_with_scroll_into_view_options(&opts);
    // What stays stuck at the top of the window (the totals, the presenter's
    // bar) covers the element only when it sits above it: totals placed
    // after the element in the page cover nothing of it.
    let doc = window.document();
    let el_top = el.get_bounding_client_rect().top();
    let covered = ["totals", "presenter-bar"]
        .iter()
        .filter_map(|id| doc.as_ref()?.get_element_by_id(id))
        .map(|t| t.get_bounding_client_rect())
        .filter(|r| r.height() > 0.0 && r.top() < el_top)
        .map(|r| r.bottom() + CLEAR_PX - el_top)
        .fold(0.0_f64, f64::max);
    if covered > 0.0 {
        window.scroll_by_with_x_and_y(0.0, -covered);
    }
}

/// `bring_into_view` of the first element matching `selector`, if any.
pub fn bring_selector_into_view(selector: &str) {
    if let Some(el) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.query_selector(selector).ok().flatten())
    {
        bring_into_view(&el);
    }
}

/// Scrolls the page as little as it takes to show `el` and, below it,
/// `beside` together (a note's text box and the timeline the note is on:
/// the hand that picked a range on the timeline picks the next one there,
/// while the words go in the box). When both do not fit in the window, `el`
/// comes to its top and `beside` shows as far as it fits.
pub fn show_together(el: &Element, beside: &Element) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let Some(h) = window.inner_height().ok().and_then(|h| h.as_f64()) else {
        return;
    };
    let (a, b) = (
        el.get_bounding_client_rect(),
        beside.get_bounding_client_rect(),
    );
    let top = a.top().min(b.top()) - CLEAR_PX;
    let bottom = a.bottom().max(b.bottom()) + CLEAR_PX;
    let by = if bottom - top > h {
        a.top() - CLEAR_PX
    } else if bottom > h {
        bottom - h
    } else if top < 0.0 {
        top
    } else {
        0.0
    };
    if by != 0.0 {
        window.scroll_by_with_x_and_y(0.0, by);
    }
}
