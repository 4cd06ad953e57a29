//! Bringing what the page points at into view: a tour's step target, the
//! lanes of a finding's message. One rule for both, so neither lands under
//! the sticky totals.

use web_sys::{Element, ScrollIntoViewOptions, ScrollLogicalPosition};

/// Room left between the sticky totals and what is brought into view.
const CLEAR_PX: f64 = 8.0;

/// Scrolls `el` into view, in the page and in any scroll box around it: one
/// taller than 0.6 of the window shows its top, the rest are centred. Then,
/// if the sticky totals (`#totals`) still cover its top, whatever their
/// number of rows at this width, the page scrolls back to clear them.
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
    let covered = window
        .document()
        .and_then(|d| d.get_element_by_id("totals"))
        .map(|t| {
            t.get_bounding_client_rect().bottom() + CLEAR_PX - el.get_bounding_client_rect().top()
        });
    if let Some(by) = covered.filter(|by| *by > 0.0) {
        window.scroll_by_with_x_and_y(0.0, -by);
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
