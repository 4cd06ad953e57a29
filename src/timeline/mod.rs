//! The timeline canvas: one lane per worker (or one row per message), runs,
//! leases, heartbeats, acks, redeliveries, dead-letter routing and faults.
//!
//! The geometry lives in `lease-view` (tested natively); this module owns
//! the canvas, the input and the DOM overlay (hover card, details panel,
//! legend). Every view change goes through `ViewCommand` and `apply`.
//!
//! The visible time range is the page's (`range_ms`). A zoom or a pan is
//! drawn at once from the page's range moved by the hand (`asked`), and sent
//! to the page (`on_range`) when the hand pauses; from then on the canvas
//! draws the page's range again. Colours are `lease_view::palette`'s.

mod bars;
mod details;
mod draw;
mod glyphs;
mod hover;
mod input;
mod keys;
mod menu;
mod notes;
mod strip;
mod width;

use std::cell::Cell;
use std::rc::Rc;

use gloo::events::{EventListener, EventListenerOptions};
use gloo::render::{request_animation_frame, AnimationFrame};
use lease_format::display::duration;
pub use lease_view::TimelineView;
use lease_view::{
    hit_message_view, hit_worker_view, LimitFate, MessageRows, RunIndex, TimeScale, WorkerLanes,
};
use wasm_bindgen::JsCast;
use web_sys::{
    CanvasRenderingContext2d, HtmlCanvasElement, KeyboardEvent, PointerEvent, WheelEvent,
};
use yew::prelude::*;

use crate::run_handle::RunHandle;
use draw::{AXIS_PX, GUTTER_PX};
use glyphs::Swatch;
use hover::Hover;
use input::{key_command, wheel_command, Pointers, ViewCommand, KEY_ZOOM};
use keys::{focus_key, FocusKey};
use menu::later;

#[derive(Properties, PartialEq)]
pub struct TimelineProps {
    pub run: RunHandle,
    /// Playback: draw only what happened before this time.
    pub playhead_ms: u64,
    #[prop_or_default]
    pub view: TimelineView,
    /// The message whose details panel is open (clicked run).
    #[prop_or_default]
    pub selected_message: Option<u32>,
    /// A click on a run selects its message; a click on nothing or the
    /// panel's close button sends `None`.
    #[prop_or_default]
    pub on_select: Callback<Option<u32>>,
    /// The time under the pointer, shared with the charts' cursor.
    #[prop_or_default]
    pub on_cursor: Callback<Option<u64>>,
    #[prop_or_default]
    pub cursor_ms: Option<u64>,
    /// The Workers / Messages toggle was pressed. The timeline switches at
    /// once either way; a parent that keeps the view in its state (a share
    /// link) hears of it here.
    #[prop_or_default]
    pub on_view: Callback<TimelineView>,
    /// The visible time range, in ms of the run; `None`: the whole axis.
    /// The page holds it (a share link's `from`/`to`, a finding shown, the
    /// other side of a comparison); the timeline keeps no range of its own.
    pub range_ms: Option<(f64, f64)>,
    /// The reader zoomed, panned or fitted: the range the page is to hold
    /// (`None`: the whole axis), once the hand pauses.
    pub on_range: Callback<Option<(f64, f64)>>,
    /// The element id, when a page shows two timelines (compare).
    #[prop_or("timeline")]
    pub dom_id: &'static str,
    /// The time axis runs to at least this: two compared runs of different
    /// lengths share one axis.
    #[prop_or_default]
    pub axis_end_ms: u64,
    /// Strokes and labels grow by this: presenter mode's projector.
    #[prop_or(1.0)]
    pub ink: f64,
    /// A figure in someone else's page: the canvas is this tall whatever
    /// the run (its lanes scroll inside it) and the key is behind a
    /// disclosure, so the figure is as tall as the host reserved for it
    /// before it loaded (`lease_ui::embed::FigureRule`).
    #[prop_or_default]
    pub fixed_px: Option<f64>,
    /// The reader's notes, drawn as labelled bands over their ranges.
    #[prop_or_default]
    pub notes: Vec<String>,
    /// A Shift+drag picked this range (ms) to write a note on.
    #[prop_or_default]
    pub on_note: Callback<(u64, u64)>,
    /// "As a table": opens every delivery as a table (`None`: no button).
    #[prop_or_default]
    pub on_table: Option<Callback<MouseEvent>>,
    /// The context menu was asked for, there (`menu.rs`).
    #[prop_or_default]
    pub on_menu: Callback<lease_ui::panel::MenuAt>,
}

impl TimelineProps {
    fn axis_end(&self) -> u64 {
        self.run.end_ms.max(self.axis_end_ms)
    }
}

pub enum Msg {
    Paint,
    Command(ViewCommand),
    SetView(TimelineView),
    PointerDown(PointerEvent),
    PointerMove(PointerEvent),
    PointerUp(PointerEvent),
    PointerLeave,
    Key(KeyboardEvent),
    Wheel(WheelEvent),
    Repaint,
    /// The legend must change (the density strip came or went).
    Rerender,
    /// The hand paused: the page takes the range it asked for.
    SendRange,
    Close,
    /// Escape pressed outside the canvas.
    Escape,
    /// A wheel that would have zoomed scrolled the page: say how to zoom.
    WheelHint(bool),
    /// Right-click (or the browser's own long press).
    ContextMenu(MouseEvent),
    /// A touch held still for `menu::LONG_PRESS_MS`, at canvas x, y.
    LongPress(f64, f64),
}

/// The range of a Shift+drag from `a` to `b` (ms, either way), in whole ms
/// within the run; `None` for a drag of under three pixels (a click).
fn picked((a, b): (f64, f64), ms_per_px: f64, limit_ms: f64) -> Option<(u64, u64)> {
    let (from, to) = (a.min(b).max(0.0), a.max(b).min(limit_ms));
    if to - from < 3.0 * ms_per_px || to.round() <= from.round() {
        return None;
    }
    // A hand marks "60 s to 90 s", not "60,287 ms to 90,789 ms": each end
    // goes to the nearest step of the axis's own grid (a nice step at
    // least `SNAP_PX` wide), and the range keeps at least one step.
    let step = lease_view::ticks::nice_step(SNAP_PX * ms_per_px);
    let limit = limit_ms.max(0.0);
    let near = |t: f64| ((t / step).round() * step).min(limit);
    let (mut a, mut b) = (near(from), near(to));
    if b <= a {
        a = ((from / step).floor() * step).min(limit);
        b = (a + step).min(limit);
    }
    (b > a).then(|| (a.round() as u64, b.round() as u64))
}

/// How far apart the grid a Shift+drag snaps to is, at least, on screen.
const SNAP_PX: f64 = 12.0;

pub struct Timeline {
    canvas: NodeRef,
    index: Rc<RunIndex>,
    /// The view the hand asks for and the page has not been sent yet: the
    /// page's range moved by every zoom and pan since the last pause.
    asked: Option<TimeScale>,
    /// Sends `asked` once the hand pauses (`RANGE_SETTLE_MS`).
    send_timer: Option<gloo::timers::callback::Timeout>,
    scroll_px: f64,
    view: TimelineView,
    hover: Option<Hover>,
    pointers: Pointers,
    raf: Option<AnimationFrame>,
    listeners: Vec<EventListener>,
    css_w: f64,
    css_h: f64,
    last_cursor: Option<u64>,
    summary: String,
    paints: u64,
    /// Runs this timeline has been handed: a new simulation is a new run,
    /// so the test hook tells a seek from a re-simulation.
    runs: u64,
    /// Also paint once the page's DOM is patched: the canvas element
    /// under this component may be a new one.
    paint_after_render: bool,
    width: width::CanvasWidth,
    /// The last paint binned runs into density strips: the legend explains them.
    density_shown: bool,
    /// Clicked into and the pointer has not left since: the bare wheel
    /// zooms. Otherwise it scrolls the page, which a pointer resting where
    /// the timeline scrolls in must not stop.
    engaged: Rc<Cell<bool>>,
    wheel_hint: bool,
    hint_timer: Option<gloo::timers::callback::Timeout>,
    /// The canvas element `listeners` are on.
    listened: Option<HtmlCanvasElement>,
    /// A Shift+drag under way: where it started and where it is, in ms.
    marking: Option<(f64, f64)>,
    /// The run the arrow keys are on (a delivery index): ringed on the
    /// canvas and read out in the live region.
    pub focus: Option<u32>,
    /// What the live region says: the focused run's story.
    announced: String,
    /// Enter opened a message: its deliveries take the focus once drawn.
    focus_details: bool,
    /// A touch held down: the menu opens when it fires.
    press_timer: Option<gloo::timers::callback::Timeout>,
}

/// The page hears of a zoom or pan this long after the hand's last step.
/// Each report re-renders the whole page (the share link, the other side of
/// a comparison), which with a large run costs several frames: sent every
/// frame of a drag, it took the pan benchmark from about 58 to 15 frames a
/// second.
const RANGE_SETTLE_MS: u32 = 120;

/// A worker's row at this ink (presenter mode's heavier ink is for a room
/// reading the timeline from afar): rows grow with the square of the ink.
fn row_max_px(ink: f64) -> f64 {
    lease_view::lanes::ROW_MAX_PX * ink.max(1.0).powi(2)
}

/// The canvas grows with its lanes up to this height, then scrolls.
const MAX_HEIGHT_PX: f64 = 480.0;
const MIN_HEIGHT_PX: f64 = 140.0;
const HIT_TOLERANCE_PX: f64 = 4.0;
/// How long the wheel hint stays after the last wheel that scrolled the page.
const WHEEL_HINT_MS: u32 = 2000;
/// Room past the end of the axis for half a mark and its halo.
const END_PAD_PX: f64 = 10.0;

impl Component for Timeline {
    type Message = Msg;
    type Properties = TimelineProps;

    fn create(ctx: &Context<Self>) -> Self {
        let props = ctx.props();
        Timeline {
            canvas: NodeRef::default(),
            index: props.run.index(),
            asked: None,
            send_timer: None,
            scroll_px: 0.0,
            view: props.view,
            hover: None,
            pointers: Pointers::default(),
            marking: None,
            raf: None,
            listeners: Vec::new(),
            css_w: 800.0,
            css_h: 240.0,
            last_cursor: None,
            summary: summary(&props.run),
            paints: 0,
            runs: 1,
            paint_after_render: false,
            width: width::CanvasWidth::default(),
            density_shown: false,
            engaged: Rc::new(Cell::new(false)),
            wheel_hint: false,
            hint_timer: None,
            listened: None,
            focus: None,
            announced: String::new(),
            focus_details: false,
            press_timer: None,
        }
    }

    fn changed(&mut self, ctx: &Context<Self>, old: &Self::Properties) -> bool {
        let props = ctx.props();
        if props.run != old.run {
            self.index = props.run.index();
            self.summary = summary(&props.run);
            self.hover = None;
            self.runs += 1;
            self.focus = self
                .focus
                .filter(|ix| (*ix as usize) < props.run.deliveries.len());
            // A slider moved: paint right after this render rather than on
            // the next animation frame, so the picture follows the hand.
            self.paint_after_render = true;
        }
        if props.view != old.view {
            self.view = props.view;
            self.scroll_px = 0.0;
        }
        // The page took the range this timeline sent, or moved it itself
        // (a finding shown, the other side of a comparison): its range is
        // what the canvas shows, at once.
        if props.range_ms != old.range_ms {
            self.asked = None;
            self.send_timer = None;
            self.paint_after_render = true;
        }
        if let Some(m) = props
            .selected_message
            .filter(|_| props.selected_message != old.selected_message)
        {
            self.reveal(ctx, m);
        }
        if props.axis_end() != old.axis_end() {
            if let Some(asked) = &mut self.asked {
                asked.set_limit(props.axis_end() as f64);
            }
            self.paint_after_render = true;
        }
        if std::mem::take(&mut self.paint_after_render) {
            // A slider moved, or the range did: paint now, before the page's
            // DOM is patched. Yew may hand the frame back to the browser
            // between patching the DOM and `rendered` (when a render runs
            // past its deadline, as the first move on a slow phone does),
            // and the picture must be in that frame. The view below takes
            // the height and the legend this paint settled on.
            self.raf = None;
            self.paint(ctx);
        } else {
            self.schedule(ctx);
        }
        true
    }

    fn update(&mut self, ctx: &Context<Self>, msg: Msg) -> bool {
        match msg {
            Msg::Paint => {
                self.raf = None;
                // A change of colour scheme repaints without a render.
                self.paint_swatches();
                // A new height goes through the vdom: Yew drops attributes it
                // did not set, so a style set by hand would not survive.
                self.paint(ctx)
            }
            Msg::Repaint => {
                self.schedule(ctx);
                false
            }
            Msg::Rerender => true,
            Msg::SendRange => {
                self.send_timer = None;
                self.send_range(ctx);
                false
            }
            Msg::Command(cmd) => {
                self.apply(ctx, cmd);
                false
            }
            Msg::SetView(v) => {
                if v == self.view {
                    return false;
                }
                self.view = v;
                self.scroll_px = 0.0;
                self.hover = None;
                ctx.props().on_view.emit(v);
                self.schedule(ctx);
                true
            }
            Msg::Key(e) => {
                if e.ctrl_key() || e.meta_key() || e.alt_key() {
                    return false;
                }
                if e.key() == "ContextMenu" || (e.shift_key() && e.key() == "F10") {
                    e.prevent_default();
                    ctx.props().on_menu.emit(self.menu_at_keys(ctx));
                    return false;
                }
                if let Some(k) = focus_key(&e.key()) {
                    e.prevent_default();
                    self.move_focus(ctx, k);
                    return true;
                }
                if let Some(cmd) = key_command(&e.code(), &e.key(), self.plot_w()) {
                    // Escape with no run chosen is not the timeline's: in
                    // a figure on a docs page, it leaves the figure.
                    if matches!(cmd, ViewCommand::Deselect)
                        && ctx.props().selected_message.is_none()
                    {
                        return false;
                    }
                    e.prevent_default();
                    self.apply(ctx, cmd);
                }
                false
            }
            Msg::Wheel(e) => {
                let (x, _) = self.local(e.client_x(), e.client_y());
                let cmd = wheel_command(
                    e.delta_x(),
                    e.delta_y(),
                    e.delta_mode(),
                    e.shift_key(),
                    x - GUTTER_PX,
                );
                self.apply(ctx, cmd);
                false
            }
            Msg::PointerDown(e) => {
                if e.button() != 0 {
                    return false;
                }
                self.engaged.set(true);
                if let Some(c) = self.canvas.cast::<HtmlCanvasElement>() {
                    let _ = c.set_pointer_capture(e.pointer_id());
                    // Pressing a run must not scroll it from under the
                    // finger or the pointer: the press is where the person
                    // already looks.
                    let keep_still = web_sys::FocusOptions::new();
                    keep_still.set_prevent_scroll(true);
                    let _ = c.focus_with_options(&keep_still);
                }
                let (x, y) = self.local(e.client_x(), e.client_y());
                if e.shift_key() {
                    let t = self.scale(ctx).ms_of(x - GUTTER_PX);
                    self.marking = Some((t, t));
                    return false;
                }
                let touch = e.pointer_type() == "touch";
                self.pointers.press(e.pointer_id(), x - GUTTER_PX, y, touch);
                if touch {
                    self.press_timer = Some(later(ctx, menu::LONG_PRESS_MS, Msg::LongPress(x, y)));
                }
                false
            }
            Msg::ContextMenu(e) => {
                e.prevent_default();
                // The keyboard's and a long press's own menus come by their
                // own paths (`Msg::Key`, `Msg::LongPress`).
                if e.button() != 2 && !e.ctrl_key() {
                    return false;
                }
                self.press_timer = None;
                let (x, y) = self.local(e.client_x(), e.client_y());
                ctx.props().on_menu.emit(self.menu_at_point(ctx, x, y));
                false
            }
            Msg::LongPress(x, y) => {
                self.press_timer = None;
                // The release that follows is not a tap.
                self.pointers.clear();
                ctx.props().on_menu.emit(self.menu_at_point(ctx, x, y));
                false
            }
            Msg::PointerMove(e) => {
                let (x, y) = self.local(e.client_x(), e.client_y());
                if let Some((from, _)) = self.marking {
                    self.marking = Some((from, self.scale(ctx).ms_of(x - GUTTER_PX)));
                    self.schedule(ctx);
                    return false;
                }
                if !self.pointers.is_empty() {
                    let cmds = self.pointers.moved(e.pointer_id(), x - GUTTER_PX, y);
                    for cmd in cmds {
                        self.apply(ctx, cmd);
                    }
                    if self.pointers.dragging() {
                        self.press_timer = None;
                    }
                    if self.pointers.dragging() && self.hover.is_some() {
                        self.hover = None;
                        return true;
                    }
                    return false;
                }
                self.emit_cursor(ctx, x);
                let hit = self.hit(ctx, x, y);
                let changed = hit.map(|h| (h.message, h.delivery))
                    != self.hover.map(|h| (h.message, h.delivery));
                let moved = hit != self.hover;
                self.hover = hit;
                if changed {
                    self.schedule(ctx);
                }
                moved
            }
            Msg::PointerUp(e) => {
                self.press_timer = None;
                let (x, y) = self.local(e.client_x(), e.client_y());
                if let Some(range) = self.marking.take() {
                    self.schedule(ctx);
                    let scale = self.scale(ctx);
                    if let Some(r) = picked(range, scale.ms_per_px(), scale.limit_ms) {
                        ctx.props().on_note.emit(r);
                    }
                    return false;
                }
                if self.pointers.release(e.pointer_id()) {
                    let hit = self.hit(ctx, x, y);
                    ctx.props().on_select.emit(hit.map(|h| h.message));
                }
                false
            }
            Msg::PointerLeave => {
                self.press_timer = None;
                self.engaged.set(false);
                self.marking = None;
                self.pointers.clear();
                self.emit_cursor(ctx, f64::NEG_INFINITY);
                if self.hover.take().is_some() {
                    self.schedule(ctx);
                    return true;
                }
                false
            }
            Msg::Close => {
                ctx.props().on_select.emit(None);
                false
            }
            Msg::WheelHint(show) => {
                if show {
                    self.hint_timer = Some(later(ctx, WHEEL_HINT_MS, Msg::WheelHint(false)));
                } else {
                    self.hint_timer = None;
                }
                let changed = self.wheel_hint != show;
                self.wheel_hint = show;
                changed
            }
            Msg::Escape => {
                if ctx.props().selected_message.is_some() {
                    ctx.props().on_select.emit(None);
                }
                false
            }
        }
    }

    fn rendered(&mut self, ctx: &Context<Self>, first_render: bool) {
        // The page may put a new canvas element under this component (its
        // tree around the timeline changes shape): the wheel listener must
        // follow it, or the wheel falls through to the page.
        let canvas = self.canvas.cast::<HtmlCanvasElement>();
        if canvas != self.listened {
            self.listeners.clear();
            self.listen(ctx);
            // A new canvas element is blank: the paint in `changed` went
            // to the one it replaced.
            self.paint_after_render |= !first_render;
            self.listened = canvas;
        }
        self.paint_swatches();
        if self.focus_details {
            if let Some(el) = gloo::utils::document()
                .get_element_by_id("delivery-details")
                .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
            {
                self.focus_details = false;
                let _ = el.focus();
            }
        }
        if first_render {
            // The first picture of the run is what the page is opened for:
            // painted now, with the canvas laid out, rather than after one
            // more frame of an empty canvas. A canvas not laid out yet (a
            // hidden tab) paints when its observed width arrives.
            let legend_was = self.density_shown;
            if self.paint(ctx) || self.density_shown != legend_was {
                ctx.link().send_message(Msg::Rerender);
            }
        } else if std::mem::take(&mut self.paint_after_render) {
            self.raf = None;
            // The height the paint settles on is written to the canvas by
            // hand and reaches the vdom at the next render; a legend that
            // must change asks for that render now.
            let legend_was = self.density_shown;
            self.paint(ctx);
            if self.density_shown != legend_was {
                ctx.link().send_message(Msg::Rerender);
            }
        }
    }

    fn view(&self, ctx: &Context<Self>) -> Html {
        let props = ctx.props();
        let link = ctx.link();
        // One callback for a pointer cancelled or gone.
        let leave = link.callback(|_: PointerEvent| Msg::PointerLeave);
        let toggle = |v: TimelineView, text: &'static str| {
            let pressed = (self.view == v).to_string();
            html! {
                <button type="button" aria-pressed={pressed} onclick={link.callback(move |_| Msg::SetView(v))}>
                    { text }
                </button>
            }
        };
        let cmd = |c: ViewCommand| link.callback(move |_: MouseEvent| Msg::Command(c));
        let hover_card = self
            .hover
            .as_ref()
            .map(|h| hover::card(&props.run, &self.index, h, props.playhead_ms, self.css_w));
        let no_op_acks = props.run.report.totals.acks_no_op > 0;
        let lag = props
            .run
            .deliveries
            .iter()
            .any(|d| lease_view::lag_of(d, u64::MAX).is_some());
        let details = props.selected_message.map(|m| {
            details::panel(
                &props.run,
                &self.index,
                m,
                props.playhead_ms,
                link.callback(|_| Msg::Close),
            )
        });
        html! {
            <div class="timeline" id={props.dom_id}>
                <div class="timeline-toolbar">
                    <div class="timeline-toggle" role="group" aria-label="Timeline view">
                        { toggle(TimelineView::Workers, "Workers") }
                        { toggle(TimelineView::Messages, "Messages") }
                    </div>
                    <div class="timeline-zoom" role="group" aria-label="Zoom">
                        <button type="button" aria-label="Zoom out" title="Zoom out (−)"
                            onclick={cmd(ViewCommand::Zoom { factor: 1.0 / KEY_ZOOM, at_px: None })}>{ "−" }</button>
                        <button type="button" aria-label="Zoom in" title="Zoom in (+)"
                            onclick={cmd(ViewCommand::Zoom { factor: KEY_ZOOM, at_px: None })}>{ "+" }</button>
                        <button type="button" title="Show the whole run (F)" onclick={cmd(ViewCommand::Fit)}>{ "Fit" }</button>
                    </div>
                    if let Some(open) = props.on_table.clone() {
                        <button type="button" id="open-table" onclick={open}>{ "As a table" }</button>
                    }
                    // The style sheet shows the one for the device's pointer.
                    <span class="timeline-hint">{ "Ctrl + scroll or pinch zooms · drag or W A S D pans · arrows go from run to run · F fits" }</span>
                    <span class="timeline-hint touch-hint">{ "One finger sideways pans · two fingers pinch to zoom or drag the lanes · tap a run for its story" }</span>
                </div>
                <div class="timeline-stage">
                    <canvas
                        ref={self.canvas.clone()}
                        class="timeline-canvas"
                        style={format!("height:{}px", self.css_h)}
                        tabindex="0"
                        role="application"
                        aria-roledescription="timeline"
                        aria-label={said(&self.summary, &ctx.props().notes)}
                        onpointerdown={link.callback(Msg::PointerDown)}
                        onpointermove={link.callback(Msg::PointerMove)}
                        onpointerup={link.callback(Msg::PointerUp)}
                        onpointercancel={leave.clone()}
                        onpointerleave={leave}
                        onkeydown={link.callback(Msg::Key)}
                        onblur={link.callback(|_| Msg::PointerLeave)}
                        oncontextmenu={link.callback(Msg::ContextMenu)}
                    ></canvas>
                    <p class="sr-only" id="timeline-live" aria-live="polite">{ self.announced.clone() }</p>
                    // One node whether or not there is a card: a child that came
                    // and went would shift the canvas, and Yew would replace it
                    // (and its keyboard focus) rather than move it.
                    { hover_card.unwrap_or_default() }
                    { for empty_note(&props.run) }
                    if self.wheel_hint {
                        <p class="timeline-wheel-hint" role="status">{ "Ctrl + scroll to zoom, or click the timeline first" }</p>
                    }
                </div>
                { details.unwrap_or_default() }
                if props.fixed_px.is_some() {
                    <details class="timeline-key" id={format!("{}-key", props.dom_id)}>
                        <summary>{ "Key to the marks" }</summary>
                        { legend(self.view, self.density_shown, no_op_acks, lag) }
                    </details>
                } else {
                    { legend(self.view, self.density_shown, no_op_acks, lag) }
                }
            </div>
        }
    }
}

impl Timeline {
    fn schedule(&mut self, ctx: &Context<Self>) {
        if self.raf.is_none() {
            let link = ctx.link().clone();
            self.raf = Some(request_animation_frame(move |_| {
                link.send_message(Msg::Paint)
            }));
        }
    }

    fn listen(&mut self, ctx: &Context<Self>) {
        let Some(canvas) = self.canvas.cast::<HtmlCanvasElement>() else {
            return;
        };
        // Yew's wheel listener is passive: it cannot stop the page scrolling
        // while the wheel zooms, so this one is registered by hand. A pinch
        // arrives as a wheel with Ctrl held.
        let link = ctx.link().clone();
        let engaged = self.engaged.clone();
        self.listeners.push(EventListener::new_with_options(
            &canvas,
            "wheel",
            EventListenerOptions::enable_prevent_default(),
            move |e| {
                let Some(w) = e.dyn_ref::<WheelEvent>() else {
                    return;
                };
                if w.ctrl_key() || w.meta_key() || engaged.get() {
                    e.prevent_default();
                    link.send_message(Msg::Wheel(w.clone()));
                } else {
                    link.send_message(Msg::WheelHint(true));
                }
            },
        ));
        // The canvas loses the focus to the body on some clicks (a re-render
        // under the pointer), and the keys list promises Escape all the same.
        let link = ctx.link().clone();
        // Not passive: the Escape that closes a run's details is spent.
        self.listeners.push(EventListener::new_with_options(
            &gloo::utils::document(),
            "keydown",
            gloo::events::EventListenerOptions::enable_prevent_default(),
            move |e| {
                let Some(k) = e.dyn_ref::<KeyboardEvent>() else {
                    return;
                };
                if k.key() == "Escape" && !typing_or_canvas(e.target()) {
                    // A run's details are open: this Escape closes them, and
                    // a figure on a docs page stays entered.
                    let shown = gloo::utils::document()
                        .query_selector(".timeline-details")
                        .ok()
                        .flatten()
                        .is_some();
                    if shown {
                        k.prevent_default();
                    }
                    link.send_message(Msg::Escape);
                }
            },
        ));
        let link = ctx.link().clone();
        self.width
            .watch(&canvas, move || link.send_message(Msg::Paint));
        let window = gloo::utils::window();
        let link = ctx.link().clone();
        // Also what `index.html`'s script fires when the colour scheme changes.
        self.listeners
            .push(EventListener::new(&window, "resize", move |_| {
                link.send_message(Msg::Repaint)
            }));
    }

    /// The time axis ends `END_PAD_PX` short of the canvas's edge, so that
    /// an ack, a commit or a crash at the end of the run is drawn whole.
    /// The legend's swatches, with the canvas's glyph code and palette.
    fn paint_swatches(&self) {
        let Some(root) = self
            .canvas
            .cast::<web_sys::Element>()
            .and_then(|c| c.closest(".timeline").ok().flatten())
        else {
            return;
        };
        let Ok(list) = root.query_selector_all("canvas[data-swatch]") else {
            return;
        };
        let window = gloo::utils::window();
        let dpr = window.device_pixel_ratio().clamp(1.0, 4.0);
        let dark = lease_ui::theme::dark();
        draw::read_palette();
        let scheme = format!("{dark}{}", draw::colour_blind());
        for i in 0..list.length() {
            let Some(c) = list
                .item(i)
                .and_then(|n| n.dyn_into::<HtmlCanvasElement>().ok())
            else {
                continue;
            };
            // Painted once per element, swatch, scheme and palette: the
            // legend re-renders with every hover. The swatch is part of the
            // key: an element that came to name another swatch is repainted.
            let kind = c.get_attribute("data-swatch").unwrap_or_default();
            let painted = format!("{kind} {scheme}");
            if c.get_attribute("data-painted") == Some(painted.clone()) {
                continue;
            }
            let _ = c.set_attribute("data-painted", &painted);
            let (w, h) = (glyphs::SWATCH_W, glyphs::SWATCH_H);
            c.set_width((w * dpr).round() as u32);
            c.set_height((h * dpr).round() as u32);
            let Some(c2d) = c
                .get_context("2d")
                .ok()
                .flatten()
                .and_then(|x| x.dyn_into::<CanvasRenderingContext2d>().ok())
            else {
                continue;
            };
            let _ = c2d.set_transform(dpr, 0.0, 0.0, dpr, 0.0, 0.0);
            if let Some(kind) = glyphs::Swatch::from_name(&kind) {
                glyphs::swatch(&c2d, kind, dark);
            }
        }
    }

    fn plot_w(&self) -> f64 {
        (self.css_w - GUTTER_PX - END_PAD_PX).max(1.0)
    }

    /// Client coordinates -> CSS pixels within the canvas.
    fn local(&self, cx: i32, cy: i32) -> (f64, f64) {
        match self.canvas.cast::<HtmlCanvasElement>() {
            Some(c) => {
                let r = c.get_bounding_client_rect();
                (cx as f64 - r.left(), cy as f64 - r.top())
            }
            None => (cx as f64, cy as f64),
        }
    }

    fn layout(&self, ctx: &Context<Self>) -> (WorkerLanes, MessageRows) {
        let top = AXIS_PX + 2.0 - self.scroll_px;
        let avail = self.css_h - AXIS_PX - 4.0;
        (
            WorkerLanes::with_row_max(
                self.index.workers,
                self.index.slots,
                top,
                avail,
                row_max_px(ctx.props().ink),
            ),
            MessageRows::new(ctx.props().run.messages.len() as u32, top, avail),
        )
    }

    /// Scrolls the lanes so that a row of message `m` in the page's range
    /// is in view, unless one already is (a run clicked on): a finding
    /// shown on the timeline selects a message whose lanes may be below
    /// the canvas's fold.
    fn reveal(&mut self, ctx: &Context<Self>, m: u32) {
        let props = ctx.props();
        let run = &props.run;
        let (lanes, rows) = self.layout(ctx);
        let span = |d: &lease_sim::run::Delivery| match self.view {
            TimelineView::Workers => lanes.row_span(lease_view::row_of(d, self.index.slots)),
            TimelineView::Messages => (rows.row_top(m), rows.row_px),
        };
        let (t0, t1) = props.range_ms.unwrap_or((0.0, props.axis_end() as f64));
        let spans: Vec<(f64, f64)> = run
            .messages
            .get(m as usize)
            .map(|r| r.deliveries.as_slice())
            .unwrap_or_default()
            .iter()
            .filter_map(|&ix| run.deliveries.get(ix as usize))
            .filter(|d| {
                let (from, to) = lease_view::extent_of(d, run.end_ms);
                (to as f64) >= t0 && (from as f64) <= t1
            })
            .map(span)
            .collect();
        let (top, bottom) = (AXIS_PX + 2.0, self.css_h - 2.0);
        if spans.is_empty() || spans.iter().any(|(y, h)| *y >= top && y + h <= bottom) {
            return;
        }
        let first = spans.iter().fold(f64::INFINITY, |a, (y, _)| a.min(*y));
        let max = (self.content_px(ctx) - (self.css_h - AXIS_PX - 4.0)).max(0.0);
        self.scroll_px = (self.scroll_px + first - top - 4.0).clamp(0.0, max);
        self.paint_after_render = true;
    }

    /// An arrow, Home, End or Enter on the canvas. The first press starts
    /// at the run nearest the left edge of the view.
    fn move_focus(&mut self, ctx: &Context<Self>, key: FocusKey) {
        let props = ctx.props();
        let (run, upto) = (&props.run, props.playhead_ms);
        let from = self
            .focus
            .filter(|ix| (*ix as usize) < run.deliveries.len());
        let to = match (from, key) {
            (Some(ix), FocusKey::Open) => {
                let message = run.deliveries[ix as usize].message;
                props.on_select.emit(Some(message));
                // The reader goes on to the message's deliveries, below the
                // canvas, and hears where they went.
                self.announced = format!(
                    "Message {message} opened: its deliveries are listed below the timeline."
                );
                self.focus_details = true;
                return;
            }
            (Some(ix), FocusKey::Move(step)) => {
                lease_view::focus::step(run, &self.index, ix, step, upto)
            }
            (None, key) => {
                let t = self.scale(ctx).start_ms.max(0.0) as u64;
                let start = lease_view::focus::start(run, &self.index, t, upto);
                // Home and End go to the ends from the first press, as
                // they do once a run has the focus.
                match (start, key) {
                    (
                        Some(ix),
                        FocusKey::Move(
                            step @ (lease_view::focus::Step::First | lease_view::focus::Step::Last),
                        ),
                    ) => lease_view::focus::step(run, &self.index, ix, step, upto).or(Some(ix)),
                    _ => start,
                }
            }
        };
        let Some(ix) = to else {
            self.announced = "No run that way.".into();
            return;
        };
        self.focus = Some(ix);
        self.announced = keys::announcement(run, &self.index, ix, upto);
        let d = &run.deliveries[ix as usize];
        // A run off either edge comes a quarter of the way in...
        let mut x = self
            .scale(ctx)
            .x_of(lease_view::bar_of(d, run.end_ms).start as f64);
        if x < 0.0 || x > self.plot_w() - 8.0 {
            let dx = self.plot_w() * 0.25 - x;
            self.apply(ctx, ViewCommand::Pan { dx_px: dx });
            x += dx;
        }
        // ...and into view across the lanes.
        let (lanes, rows) = self.layout(ctx);
        let (y, h) = match self.view {
            TimelineView::Workers => lanes.row_span(lease_view::row_of(d, self.index.slots)),
            TimelineView::Messages => (rows.row_top(d.message), rows.row_px),
        };
        let (top, bottom) = (AXIS_PX + 2.0, self.css_h - 2.0);
        let shift = if y < top {
            y - top - 4.0
        } else if y + h > bottom {
            y + h - bottom + 4.0
        } else {
            0.0
        };
        let max = (self.content_px(ctx) - (self.css_h - AXIS_PX - 4.0)).max(0.0);
        let was = self.scroll_px;
        self.scroll_px = (self.scroll_px + shift).clamp(0.0, max);
        // The hover card tells the same story to a sighted keyboard user.
        self.hover = Some(Hover {
            message: d.message,
            delivery: Some(ix),
            x: GUTTER_PX + x,
            y: y + h - (self.scroll_px - was),
        });
        self.schedule(ctx);
    }

    fn content_px(&self, ctx: &Context<Self>) -> f64 {
        let (lanes, rows) = self.layout(ctx);
        match self.view {
            TimelineView::Workers => lanes.content_px(),
            TimelineView::Messages => rows.content_px(),
        }
    }

    /// Tall enough for every lane at full row height, within limits.
    fn natural_height(&self, ctx: &Context<Self>) -> f64 {
        if let Some(px) = ctx.props().fixed_px {
            return px;
        }
        let content = match self.view {
            TimelineView::Workers => WorkerLanes::with_row_max(
                self.index.workers,
                self.index.slots,
                0.0,
                f64::INFINITY,
                row_max_px(ctx.props().ink),
            )
            .content_px(),
            TimelineView::Messages => {
                MessageRows::new(ctx.props().run.messages.len() as u32, 0.0, f64::INFINITY)
                    .content_px()
            }
        };
        let min = (MIN_HEIGHT_PX * ctx.props().ink).min(MAX_HEIGHT_PX);
        (content + AXIS_PX + 6.0).clamp(min, MAX_HEIGHT_PX)
    }

    /// The page's range over this canvas's plot width.
    fn page_scale(&self, ctx: &Context<Self>) -> TimeScale {
        let props = ctx.props();
        let mut scale = TimeScale::fit(props.axis_end() as f64, self.plot_w());
        // A link's range may lie past the end of the run: kept inside it.
        if let Some((from, to)) = props.range_ms.filter(|r| r.0 < r.1) {
            scale.start_ms = from;
            scale.end_ms = to;
            scale.clamp();
        }
        scale
    }

    /// What is on the canvas: the page's range, moved by the hand.
    fn scale(&self, ctx: &Context<Self>) -> TimeScale {
        self.asked.unwrap_or_else(|| self.page_scale(ctx))
    }

    /// Sends the page the range the hand asked for. The render that brings
    /// it back paints it (`changed`).
    fn send_range(&mut self, ctx: &Context<Self>) {
        let Some(asked) = self.asked.take() else {
            return;
        };
        let whole = asked.start_ms <= 0.0 && asked.end_ms >= asked.limit_ms;
        let range = (!whole).then_some((asked.start_ms, asked.end_ms));
        if range != ctx.props().range_ms {
            ctx.props().on_range.emit(range);
        }
    }

    fn apply(&mut self, ctx: &Context<Self>, cmd: ViewCommand) {
        let mut scale = self.scale(ctx);
        match cmd {
            ViewCommand::Zoom { factor, at_px } => {
                let at = at_px.unwrap_or(self.plot_w() / 2.0);
                scale.zoom_about(at, factor);
            }
            ViewCommand::Pan { dx_px } => scale.pan_px(dx_px),
            ViewCommand::Scroll { dy_px } => {
                let max = (self.content_px(ctx) - (self.css_h - AXIS_PX - 4.0)).max(0.0);
                self.scroll_px = (self.scroll_px - dy_px).clamp(0.0, max);
            }
            ViewCommand::Fit => {
                scale = TimeScale::fit(ctx.props().axis_end() as f64, self.plot_w());
                self.scroll_px = 0.0;
            }
            ViewCommand::Deselect => {
                ctx.props().on_select.emit(None);
                return;
            }
        }
        self.asked = Some(scale);
        self.send_timer = Some(later(ctx, RANGE_SETTLE_MS, Msg::SendRange));
        self.schedule(ctx);
    }

    fn hit(&self, ctx: &Context<Self>, x: f64, y: f64) -> Option<Hover> {
        if x < GUTTER_PX || y < AXIS_PX {
            return None;
        }
        let props = ctx.props();
        let run = &props.run;
        let (lanes, rows) = self.layout(ctx);
        let px = x - GUTTER_PX;
        let scale = self.scale(ctx);
        match self.view {
            TimelineView::Workers => hit_worker_view(
                run,
                &self.index,
                &lanes,
                &scale,
                px,
                y,
                HIT_TOLERANCE_PX,
                props.playhead_ms,
            )
            .map(|ix| Hover {
                message: run.deliveries[ix as usize].message,
                delivery: Some(ix),
                x,
                y,
            }),
            TimelineView::Messages => {
                hit_message_view(run, &rows, &scale, px, y, props.playhead_ms).map(
                    |(message, delivery)| Hover {
                        message,
                        delivery,
                        x,
                        y,
                    },
                )
            }
        }
    }

    fn emit_cursor(&mut self, ctx: &Context<Self>, x: f64) {
        let t = (x >= GUTTER_PX && x <= self.css_w).then(|| {
            let end = ctx.props().run.end_ms as f64;
            (self.scale(ctx).ms_of(x - GUTTER_PX))
                .clamp(0.0, end)
                .round() as u64
        });
        if t != self.last_cursor {
            self.last_cursor = t;
            ctx.props().on_cursor.emit(t);
        }
    }

    /// Paints one frame; true when the canvas's height changed (or the
    /// density strip came or went) and the view must re-render to keep it.
    fn paint(&mut self, ctx: &Context<Self>) -> bool {
        crate::timing::measure("lease:paint", || self.paint_now(ctx))
    }

    fn paint_now(&mut self, ctx: &Context<Self>) -> bool {
        let Some(canvas) = self.canvas.cast::<HtmlCanvasElement>() else {
            return false;
        };
        let props = ctx.props();
        let w = self.width.of(&canvas);
        if w <= 0.0 {
            return false;
        }
        let h = self.natural_height(ctx);
        let resized = (h - self.css_h).abs() > 0.5;
        if resized {
            let _ = canvas.set_attribute("style", &format!("height:{}px", h));
        }
        self.css_w = w;
        self.css_h = h;
        let window = gloo::utils::window();
        let dpr = window.device_pixel_ratio().clamp(1.0, 4.0);
        let (pw, ph) = ((w * dpr).round() as u32, (h * dpr).round() as u32);
        if canvas.width() != pw {
            canvas.set_width(pw);
        }
        if canvas.height() != ph {
            canvas.set_height(ph);
        }
        let mut scale = self.scale(ctx);
        scale.set_width(self.plot_w());
        let max_scroll = (self.content_px(ctx) - (h - AXIS_PX - 4.0)).max(0.0);
        self.scroll_px = self.scroll_px.clamp(0.0, max_scroll);

        let Some(c2d) = canvas
            .get_context("2d")
            .ok()
            .flatten()
            .and_then(|c| c.dyn_into::<CanvasRenderingContext2d>().ok())
        else {
            return resized;
        };
        let _ = c2d.set_transform(dpr, 0.0, 0.0, dpr, 0.0, 0.0);
        let dark = lease_ui::theme::dark();
        draw::read_palette();
        let (lanes, rows) = self.layout(ctx);
        let frame = draw::Frame {
            run: &props.run,
            index: &self.index,
            scale,
            width: w,
            height: h,
            view: self.view,
            lanes,
            rows,
            playhead: props.playhead_ms,
            highlight: self.hover.map(|h| h.message).or(props.selected_message),
            cursor: props.cursor_ms,
            dark,
            ink: props.ink,
            notes: &props.notes,
            marking: self.marking,
        };
        let clock = window.performance();
        let started = clock.as_ref().map_or(0.0, |p| p.now());
        let drawn = draw::paint(&c2d, &frame);
        let ring = self
            .focus
            .is_some_and(|ix| keys::paint_ring(&c2d, &frame, ix));
        // What a frame costs the timeline itself, apart from the page
        // around it: the pan benchmark reads it.
        let paint_ms = clock.map_or(0.0, |p| p.now()) - started;
        self.paints += 1;
        let strip_changed = (drawn.density_columns > 0) != self.density_shown;
        self.density_shown = drawn.density_columns > 0;
        let hook = TestHook {
            paints: self.paints,
            paint_ms,
            drawn: &drawn,
            view: self.view,
            scale: &scale,
            playhead_ms: props.playhead_ms,
            dark,
            runs: self.runs,
            axis_end_px: GUTTER_PX + scale.x_of(props.axis_end() as f64),
            focus: self.focus,
            ring,
        };
        let _ = canvas.set_attribute("data-frame", &hook.to_json());
        resized || strip_changed
    }
}

/// What one paint drew, for the browser tests and the benchmarks: written
/// to the canvas's `data-frame` as one JSON object a paint (read by
/// `timelineFrame` in tests/e2e/harness.mjs).
struct TestHook<'a> {
    /// Paints so far: the latency benchmark and the tests wait on it.
    paints: u64,
    /// The timeline's own cost of this paint, apart from the page around it:
    /// the pan benchmark reads it.
    paint_ms: f64,
    drawn: &'a draw::Drawn,
    view: TimelineView,
    scale: &'a TimeScale,
    playhead_ms: u64,
    dark: bool,
    runs: u64,
    /// Where the end of the run is drawn, in CSS pixels of the canvas.
    axis_end_px: f64,
    /// The run the arrow keys are on, and whether its ring is in view.
    focus: Option<u32>,
    ring: bool,
}

impl TestHook<'_> {
    fn to_json(&self) -> String {
        let target = match self.drawn.target {
            Some((x, y)) => format!("[{x:.1},{y:.1}]"),
            None => "null".to_string(),
        };
        let lit = match self.drawn.lit {
            Some((top, bottom)) => format!("[{top:.1},{bottom:.1}]"),
            None => "null".to_string(),
        };
        let focus = self.focus.map_or("null".to_string(), |f| f.to_string());
        format!("{{\"focus\":{focus},\"focusRing\":{},\"paints\":{},\"paintMs\":{:.2},\"drawnRuns\":{},\"densityColumns\":{},\"firstRun\":{target},\
             \"view\":\"{}\",\"viewStartMs\":{:.3},\"viewEndMs\":{:.3},\"playheadMs\":{},\"dark\":{},\"runs\":{},\"axisEndPx\":{:.1},\"overlapOutlines\":{},\"litY\":{lit},\"notes\":{},\"noteLabelBottom\":{},\"laneLabelPx\":{:.1},\"laneLabelRoomPx\":{:.1},\"noteLabels\":{},\"tickLabels\":{},\"lags\":{}}}", self.ring, self.paints, self.paint_ms, self.drawn.runs, self.drawn.density_columns, self.view.name(), self.scale.start_ms, self.scale.end_ms, self.playhead_ms, self.dark, self.runs, self.axis_end_px, self.drawn.overlap_outlines, self.drawn.notes, self.drawn.note_label_bottom.map_or("null".to_string(), |b| format!("{b:.1}")), self.drawn.lane_label_px, draw::LABEL_ROOM_PX, spans(&self.drawn.note_labels), spans(&self.drawn.tick_labels), spans(&self.drawn.lags))
    }
}

/// Left and right edges as a JSON array of pairs.
fn spans(v: &[(f64, f64)]) -> String {
    let each: Vec<String> = v.iter().map(|(a, b)| format!("[{a:.1},{b:.1}]")).collect();
    format!("[{}]", each.join(","))
}

/// A field or the canvas (which has Escape of its own) has the key.
fn typing_or_canvas(target: Option<web_sys::EventTarget>) -> bool {
    let Some(el) = target.and_then(|t| t.dyn_into::<web_sys::Element>().ok()) else {
        return false;
    };
    matches!(
        el.tag_name().to_ascii_lowercase().as_str(),
        "input" | "select" | "textarea" | "canvas"
    )
}

/// Said over an empty canvas, so that a blank picture is never a puzzle.
fn empty_note(run: &RunHandle) -> Option<Html> {
    let text = if run.messages.is_empty() {
        "No message arrived in this run: the backlog is 0 and there are no new arrivals. \
         Raise “Backlog at start” or “Arrival rate”."
    } else if run.deliveries.is_empty() {
        "Messages arrived, but none was delivered before the run ended. Lengthen “Run length”."
    } else {
        return None;
    };
    Some(html! { <p class="timeline-empty" id="timeline-empty" role="status">{text}</p> })
}

/// The canvas's summary, then its notes, each as a sentence: a screen
/// reader hears them with the timeline they are on.
fn said(summary: &str, notes: &[String]) -> String {
    let mut said = summary.to_string();
    for n in notes
        .iter()
        .filter_map(|n| lease_view::note::Note::from_field(n).ok())
    {
        said.push_str(" Note, ");
        said.push_str(&n.describe());
        said.push('.');
    }
    said
}

/// What a screen reader hears for the canvas.
pub(crate) fn summary(run: &RunHandle) -> String {
    let overlapping = run
        .deliveries
        .iter()
        .filter(|d| d.overlaps.is_some())
        .count();
    // Past the limit, each fate in its own words; the two the presets
    // that keep no dead-letter queue meet only where there are any.
    let mut ended = [0usize; 3];
    for m in run.messages.iter() {
        if let Some((fate, _, _)) = lease_view::past_limit(m.fate) {
            ended[fate as usize] += 1;
        }
    }
    let mut past = format!("{} dead-lettered", ended[LimitFate::DeadLettered as usize]);
    for (fate, n) in [LimitFate::Dropped, LimitFate::Stayed]
        .into_iter()
        .map(|f| (f, ended[f as usize]))
    {
        if n > 0 {
            past.push_str(&format!(", {n} {}", fate.words()));
        }
    }
    format!(
        "Timeline of {} deliveries of {} messages on {} workers over {}: {} overlapping runs, {past}. \
         Arrow keys move between runs: left and right along a worker's lane, up and down between lanes; \
         Home and End go to the first and last run; Enter opens the run's message. \
         W A S D pan, plus and minus zoom, F fits; hover or click a run for its story.",
        run.deliveries.len(),
        run.messages.len(),
        run.worker_count,
        duration(run.end_ms),
        overlapping,
    )
}

/// A legend entry's mark: drawn on a small canvas by the timeline's own
/// glyph code, or (for fills the canvas paints as plain areas) a styled span.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Mark {
    Drawn(Swatch),
    Styled(&'static str, &'static str),
}

/// Every entry of the legend for `view`, mark and words side by side: the
/// one list the legend is rendered from, so that a mark cannot drift from
/// its words when entries come and go (the density strip's four join the
/// list while a strip is on the canvas, and the ack with nothing to settle
/// while the run has one: most brokers reject such an ack).
pub fn legend_entries(
    view: TimelineView,
    density: bool,
    no_op_acks: bool,
    lag: bool,
) -> Vec<(Mark, &'static str)> {
    use Mark::{Drawn, Styled};
    let mut entries = match view {
        TimelineView::Workers => vec![
            (Drawn(Swatch::Run), "run (colour = message)"),
            (Drawn(Swatch::Buffered), "leased, waiting in the buffer"),
            (Drawn(Swatch::Lease), "lease, receive to end"),
            (Drawn(Swatch::Expiry), "lease expired"),
            (
                Drawn(Swatch::Overlap),
                "overlapping runs (both), dashed link between them",
            ),
            (Drawn(Swatch::Heartbeat), "heartbeat accepted"),
            (Drawn(Swatch::HeartbeatRejected), "heartbeat rejected"),
            (Drawn(Swatch::Ack), "ack"),
            (Drawn(Swatch::AckRejected), "ack rejected"),
            (Drawn(Swatch::Commit), "commit, duplicate, no effect"),
            (Drawn(Swatch::Release), "release, rejected"),
            (Styled("lg-glyph", "⤳"), "redelivery"),
            (
                Styled("lg-dlq", "DLQ"),
                "past the limit: dead-lettered, dropped or stays, with cause",
            ),
            (Drawn(Swatch::Crash), "crash, shaded while down"),
            (Styled("lg-pause", ""), "paused"),
        ],
        TimelineView::Messages => vec![
            (Styled("lg-available", ""), "available in the queue"),
            (
                Styled("lg-inflight", ""),
                "in flight (solid: handler running)",
            ),
            (Styled("lg-overlap", ""), "overlapping run"),
            (Styled("lg-expiry", "▮"), "lease expired"),
            (
                Styled("lg-dlq-fill", ""),
                "dead-lettered, or stays in the stream",
            ),
            (Styled("lg-deleted", ""), "deleted"),
        ],
    };
    // Only where a periodic check took a lease back after its deadline:
    // under a broker that expires at the deadline it would explain nothing.
    if lag && view == TimelineView::Workers {
        let at = entries
            .iter()
            .position(|(m, _)| *m == Drawn(Swatch::Expiry))
            .map_or(entries.len(), |i| i + 1);
        entries.insert(
            at,
            (
                Drawn(Swatch::Lag),
                "past the deadline (thin tick) until the check",
            ),
        );
    }
    // Only while a strip is on the canvas: zoomed in, it would explain nothing.
    if no_op_acks && view == TimelineView::Workers {
        let at = entries
            .iter()
            .position(|(m, _)| *m == Drawn(Swatch::AckRejected))
            .map_or(entries.len(), |i| i + 1);
        entries.insert(
            at,
            (
                Drawn(Swatch::AckNoOp),
                "ack of a deleted message, nothing to settle",
            ),
        );
    }
    if density {
        entries.extend([
            (
                Drawn(Swatch::Strip),
                "runs under a pixel wide, binned per pixel (darker: more run time)",
            ),
            (
                Drawn(Swatch::StripOverlap),
                "pixel with an overlapping run (striped)",
            ),
            (Drawn(Swatch::StripExpiry), "pixel with a lease expiry"),
            (
                Drawn(Swatch::StripDeadLetter),
                "pixel with a message past its limit",
            ),
        ]);
    }
    entries
}

fn legend(view: TimelineView, density: bool, no_op_acks: bool, lag: bool) -> Html {
    // Keyed by the words, so an entry keeps its own element (and its painted
    // swatch) when entries before or after it come and go.
    let items = legend_entries(view, density, no_op_acks, lag)
        .into_iter()
        .map(|(mark, text)| {
            let mark = match mark {
                // Painted after render by `glyphs::swatch`, the canvas's own code.
                Mark::Drawn(kind) => html! {
                    <canvas class="lg-swatch" data-swatch={kind.name()} aria-hidden="true"></canvas>
                },
                Mark::Styled(class, glyph) => html! {
                    <span class={classes!("lg", class)} aria-hidden="true">{ glyph }</span>
                },
            };
            html! { <li key={text}>{ mark }{ text }</li> }
        });
    html! { <ul class="timeline-legend" aria-label="Legend">{ for items }</ul> }
}

#[cfg(test)]
mod note_range_tests {
    use super::picked;

    #[test]
    fn a_shift_drag_picks_its_range_either_way_within_the_run() {
        assert_eq!(
            picked((60_000.4, 90_000.0), 100.0, 300_000.0),
            Some((60_000, 90_000))
        );
        assert_eq!(
            picked((90_000.0, 60_000.0), 100.0, 300_000.0),
            Some((60_000, 90_000))
        );
        assert_eq!(
            picked((-50.0, 400_000.0), 100.0, 300_000.0),
            Some((0, 300_000))
        );
    }

    #[test]
    fn a_drag_of_under_three_pixels_is_a_click_not_a_range() {
        assert_eq!(picked((1_000.0, 1_250.0), 100.0, 300_000.0), None);
        // Three pixels are a range: one step of the grid, 2 s at 100 ms a pixel.
        assert_eq!(
            picked((1_000.0, 1_300.0), 100.0, 300_000.0),
            Some((0, 2_000))
        );
    }

    #[test]
    fn a_shift_drag_snaps_to_the_axis_grid() {
        // 155 ms a pixel: a grid of 2 s.
        assert_eq!(
            picked((60_287.0, 90_789.0), 155.0, 300_000.0),
            Some((60_000, 90_000))
        );
        // Zoomed in to 5 ms a pixel: a grid of 100 ms.
        assert_eq!(
            picked((61_234.0, 61_871.0), 5.0, 300_000.0),
            Some((61_200, 61_900))
        );
        // The run's end stays the end.
        assert_eq!(
            picked((290_100.0, 299_900.0), 155.0, 299_900.0),
            Some((290_000, 299_900))
        );
    }
}
