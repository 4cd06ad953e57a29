//! Parts of the page that render again only when their inputs change: the
//! parts that hold no state of their own (the controls, the totals, the
//! scenario's description, each chart). Playback and the pointer re-render
//! the page many times a second, and these parts would otherwise be rebuilt
//! each time.

use yew::prelude::*;

#[derive(Properties)]
struct MemoProps<I: PartialEq + 'static> {
    inputs: I,
    view: fn(&I) -> Html,
}

impl<I: PartialEq + 'static> PartialEq for MemoProps<I> {
    // Each kind of part has inputs of its own type, which decides its view:
    // equal inputs mean an equal picture.
    fn eq(&self, other: &Self) -> bool {
        self.inputs == other.inputs
    }
}

#[function_component(Memo)]
fn memo_part<I: PartialEq + 'static>(p: &MemoProps<I>) -> Html {
    (p.view)(&p.inputs)
}

/// `view(&inputs)`, rendered again only when `inputs` change. `I` must be a
/// type of the part's own (its props struct), since the inputs' type stands
/// for the view.
pub fn memo<I: PartialEq + 'static>(inputs: I, view: fn(&I) -> Html) -> Html {
    html! { <Memo<I> {inputs} {view} /> }
}

/// Counts a render of `part` in `window.__leaseRenders[part]`: browser
/// tests read it to check that playback re-renders only what changes.
#[cfg(target_arch = "wasm32")]
pub fn count_render(part: &str) {
    use wasm_bindgen::JsValue;
    let window = gloo::utils::window();
    let key = JsValue::from_str("__leaseRenders");
    let counts = match js_sys::Reflect::get(&window, &key) {
        Ok(v) if v.is_object() => v,
        _ => {
            let v: JsValue = js_sys::Object::new().into();
            let _ = js_sys::Reflect::set(&window, &key, &v);
            v
        }
    };
    let part = JsValue::from_str(part);
    let n = js_sys::Reflect::get(&counts, &part)
        .ok()
        .and_then(|v| v.as_f64())
        .unwrap_or(0.0);
    let _ = js_sys::Reflect::set(&counts, &part, &JsValue::from_f64(n + 1.0));
}

/// Natively (the tests) nothing renders in a browser.
#[cfg(not(target_arch = "wasm32"))]
pub fn count_render(_: &str) {}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(PartialEq)]
    struct A(u32);

    fn props(inputs: A) -> MemoProps<A> {
        MemoProps {
            inputs,
            view: |_| Html::default(),
        }
    }

    #[test]
    fn a_part_renders_again_only_when_its_inputs_change() {
        assert!(props(A(1)) == props(A(1)));
        assert!(props(A(1)) != props(A(2)));
    }
}
