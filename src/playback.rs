//! Playback over the recorded run: play, pause, speed on a log scale, step,
//! scrub. Seeking never re-simulates. Playing stops when the page is hidden
//! or scrolled out of view.

use gloo::events::EventListener;
use gloo::render::{request_animation_frame, AnimationFrame};
use yew::prelude::*;

use crate::command::Command;
use lease_format::display::duration_about;

pub const SPEEDS: [f64; 7] = [1.0, 3.0, 10.0, 30.0, 100.0, 300.0, 1000.0];

#[derive(Properties, PartialEq)]
pub struct PlaybackProps {
    /// The longer run's end, A's or, while comparing, B's.
    pub end_ms: u64,
    pub playhead_ms: u64,
    pub playing: bool,
    pub speed: f64,
    pub on_command: Callback<Command>,
}

/// Whether the visitor asked for less motion: playback then moves in
/// half-second jumps instead of every frame.
fn reduced_motion() -> bool {
    gloo::utils::window()
        .match_media("(prefers-reduced-motion: reduce)")
        .ok()
        .flatten()
        .is_some_and(|m| m.matches())
}

/// Real milliseconds between playhead moves when motion is reduced.
const REDUCED_MOTION_STEP_MS: f64 = 500.0;

type FrameSlot = std::rc::Rc<std::cell::RefCell<Option<AnimationFrame>>>;

fn schedule_frame(
    slot: FrameSlot,
    cb: Callback<Command>,
    last: Option<f64>,
    pending: f64,
    step: f64,
) {
    let next = slot.clone();
    let frame = request_animation_frame(move |now| {
        let mut pending = pending;
        if let Some(prev) = last {
            // A background tab can stall for seconds: never jump by more than 0.25 s.
            pending += (now - prev).clamp(0.0, 250.0);
        }
        if pending >= step {
            cb.emit(Command::Tick(pending));
            pending = 0.0;
        }
        schedule_frame(next, cb, Some(now), pending, step);
    });
    *slot.borrow_mut() = Some(frame);
}

/// Drives `Command::Tick` from animation frames while playing. The page
/// calls it, not the playback bar: an embed without the bar still plays
/// when a host or a key asks.
#[hook]
pub fn use_frames(playing: bool, cb: Callback<Command>) {
    use_effect_with(playing, move |&playing| {
        let slot: FrameSlot = Default::default();
        if playing {
            let step = if reduced_motion() {
                REDUCED_MOTION_STEP_MS
            } else {
                0.0
            };
            schedule_frame(slot.clone(), cb, None, 0.0, step);
        }
        move || {
            slot.borrow_mut().take();
        }
    });
}

#[hook]
fn use_pause_when_hidden(cb: Callback<Command>, node: NodeRef) {
    use_effect_with((), move |_| {
        let doc = gloo::utils::document();
        let d2 = doc.clone();
        let cb2 = cb.clone();
        let hidden = EventListener::new(&doc, "visibilitychange", move |_| {
            if d2.hidden() {
                cb2.emit(Command::Pause);
            }
        });
        // Scrolled out of view (an embedded figure far down a page): pause too.
        let scroll = EventListener::new(&gloo::utils::window(), "scroll", move |_| {
            if let Some(el) = node.cast::<web_sys::Element>() {
                let r = el.get_bounding_client_rect();
                let h = gloo::utils::window()
                    .inner_height()
                    .ok()
                    .and_then(|v| v.as_f64())
                    .unwrap_or(0.0);
                if r.bottom() < 0.0 || r.top() > h {
                    cb.emit(Command::Pause);
                }
            }
        });
        move || {
            drop(hidden);
            drop(scroll);
        }
    });
}

#[function_component(Playback)]
pub fn playback(props: &PlaybackProps) -> Html {
    let cb = props.on_command.clone();
    let node = use_node_ref();
    use_pause_when_hidden(cb.clone(), node.clone());
    let end = props.end_ms;
    let play = {
        let cb = cb.clone();
        let playing = props.playing;
        Callback::from(move |_: MouseEvent| {
            cb.emit(if playing {
                Command::Pause
            } else {
                Command::Play
            })
        })
    };
    let back = cb.reform(|_: MouseEvent| Command::Step(false));
    let fwd = cb.reform(|_: MouseEvent| Command::Step(true));
    let start = cb.reform(|_: MouseEvent| Command::Seek(0));
    let to_end = cb.reform(move |_: MouseEvent| Command::Seek(end));
    let scrub = cb.reform(|e: InputEvent| {
        let v = e
            .target_unchecked_into::<web_sys::HtmlInputElement>()
            .value();
        Command::Seek(v.parse().unwrap_or(0))
    });
    let speed = cb.reform(|e: Event| {
        let v = e
            .target_unchecked_into::<web_sys::HtmlSelectElement>()
            .value();
        Command::Speed(lease_format::units::parse_plain_f64(&v).unwrap_or(10.0))
    });
    html! {
        <section class="playback" aria-label="Playback" ref={node}>
            <button type="button" onclick={start} aria-label="Back to the start" title="Back to the start">{"|◀"}</button>
            <button type="button" onclick={back} aria-label="Step back to the previous event" title="Previous event">{"◀"}</button>
            <button type="button" id="play" onclick={play} aria-pressed={props.playing.to_string()}>
                { if props.playing { "Pause" } else { "Play" } }
            </button>
            <button type="button" onclick={fwd} aria-label="Step to the next event" title="Next event">{"▶"}</button>
            <button type="button" onclick={to_end} aria-label="To the end of the run" title="To the end">{"▶|"}</button>
            <label for="ctl-speed">{"Speed"}</label>
            <select id="ctl-speed" onchange={speed}>
                { for SPEEDS.iter().map(|x| html! {
                    <option value={(*x).to_string()} selected={(*x - props.speed).abs() < 1e-9}>{format!(
                        "{}×",
                        (*x).to_string(),
                    )}</option>
                }) }
            </select>
            <label for="ctl-playhead">{"Playhead"}</label>
            <input type="range" id="ctl-playhead" min="0" max={end.to_string()} step="1"
                value={props.playhead_ms.to_string()} oninput={scrub}
                aria-valuetext={lease_format::display::spoken(&format!(
                    "{} of {}",
                    duration_about(props.playhead_ms as f64),
                    duration_about(end as f64),
                ))} />
            // Not live: during playback it changes with every frame.
            <span class="value" id="playhead">{format!(
                "{} of {}",
                duration_about(props.playhead_ms as f64),
                duration_about(end as f64),
            )}</span>
        </section>
    }
}
