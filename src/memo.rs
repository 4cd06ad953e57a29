//! Parts of the page that render again only when their inputs change, all
//! through one component type. Every Yew component is its own copy of Yew's
//! lifecycle code in the download (four parts through this one instead of
//! four components: 1.1 KB less gzip); the parts
//! that hold no state of their own (the controls, the totals, the scenario's
//! description, each chart) share this one instead, and keep the skip that a
//! component gives: playback and the pointer re-render the page many times a
//! second, and these parts would otherwise be rebuilt each time.

use std::any::Any;
use std::rc::Rc;

use yew::prelude::*;

/// Inputs of any type that compares: two are the same when they are of one
/// type and equal.
trait Inputs {
    fn as_any(&self) -> &dyn Any;
    fn same(&self, other: &dyn Inputs) -> bool;
}

impl<T: PartialEq + 'static> Inputs for T {
    fn as_any(&self) -> &dyn Any {
        self
    }

    fn same(&self, other: &dyn Inputs) -> bool {
        other.as_any().downcast_ref::<T>() == Some(self)
    }
}

/// A part's view, given its inputs.
type View = Rc<dyn Fn(&dyn Any) -> Html>;

#[derive(Properties)]
struct MemoProps {
    inputs: Rc<dyn Inputs>,
    view: View,
}

impl PartialEq for MemoProps {
    // Each kind of part has inputs of its own type, which decides its view:
    // equal inputs mean an equal picture.
    fn eq(&self, other: &Self) -> bool {
        self.inputs.same(&*other.inputs)
    }
}

#[function_component(Memo)]
fn memo_part(p: &MemoProps) -> Html {
    (p.view)(p.inputs.as_any())
}

/// `view(&inputs)`, rendered again only when `inputs` change. `I` must be a
/// type of the part's own (its props struct), since the inputs' type stands
/// for the view.
pub fn memo<I: PartialEq + 'static>(inputs: I, view: fn(&I) -> Html) -> Html {
    let view = move |a: &dyn Any| match a.downcast_ref::<I>() {
        Some(inputs) => view(inputs),
        None => Html::default(),
    };
    html! { <Memo inputs={Rc::new(inputs) as Rc<dyn Inputs>} view={Rc::new(view) as View} /> }
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
    #[derive(PartialEq)]
    struct B(u32);

    fn props<I: PartialEq + 'static>(inputs: I) -> MemoProps {
        MemoProps {
            inputs: Rc::new(inputs),
            view: Rc::new(|_: &dyn Any| Html::default()),
        }
    }

    #[test]
    fn a_part_renders_again_only_when_its_inputs_change() {
        assert!(props(A(1)) == props(A(1)));
        assert!(props(A(1)) != props(A(2)));
        // Another kind of part in the same place, even with equal fields.
        assert!(props(A(1)) != props(B(1)));
    }
}
