//! The first slider move, rehearsed while the page is idle after load
//! (`State::rehearse_a_move`): on a slow phone the first move otherwise
//! compiles the reducer's and the engine's path through it and grows the
//! memory for a second run, between the hand and the picture.

use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use yew::prelude::*;

use crate::state::State;

/// Once, when the page is first idle after it mounts: in the browser's idle
/// callback, or in a task of its own where there is none. The rehearsal
/// reads the state as it is then.
#[hook]
pub fn use_rehearsal(state: UseReducerHandle<State>) {
    use_effect_with((), move |_| {
        let rehearse = Closure::once_into_js(move || {
            let _ = state.rehearse_a_move();
        });
        let f: &js_sys::Function = rehearse.unchecked_ref();
        let window = gloo::utils::window();
        if window.request_idle_callback(f).is_err() {
            let _ = window.set_timeout_with_callback(f);
        }
    });
}
