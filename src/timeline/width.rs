//! The canvas's width, as the browser last laid it out. Read from a
//! `ResizeObserver`, which the browser calls after its own layout, so a
//! paint never asks for a layout of its own: a slider move's paint runs
//! before the page's new text is laid out, and reading the width there
//! would lay the whole page out twice in the frame that follows the hand.

use std::cell::Cell;
use std::rc::Rc;

use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use web_sys::{HtmlCanvasElement, ResizeObserver};

/// Watches one canvas; dropped, it stops watching.
pub struct CanvasWidth {
    known: Rc<Cell<f64>>,
    watch: Option<(ResizeObserver, Closure<dyn Fn()>)>,
}

impl Default for CanvasWidth {
    fn default() -> Self {
        CanvasWidth {
            known: Rc::new(Cell::new(0.0)),
            watch: None,
        }
    }
}

impl CanvasWidth {
    /// Watches `canvas` from now on; `changed` runs after a layout that
    /// gave it another width (before that frame is painted).
    pub fn watch(&mut self, canvas: &HtmlCanvasElement, changed: impl Fn() + 'static) {
        self.stop();
        self.known.set(0.0);
        let known = self.known.clone();
        let el = canvas.clone();
        let call = Closure::<dyn Fn()>::new(move || {
            // Inside the observer's callback layout is clean: this read
            // costs no layout.
            let w = f64::from(el.client_width());
            if w > 0.0 && w != known.get() {
                known.set(w);
                changed();
            }
        });
        if let Ok(observer) = ResizeObserver::new(call.as_ref().unchecked_ref()) {
            observer.observe(canvas);
            self.watch = Some((observer, call));
        }
    }

    /// The width in CSS pixels: the last one the observer saw, or, before
    /// it has reported, the one laid out now.
    pub fn of(&self, canvas: &HtmlCanvasElement) -> f64 {
        match self.known.get() {
            w if w > 0.0 => w,
            _ => {
                let w = f64::from(canvas.client_width());
                self.known.set(w);
                w
            }
        }
    }

    fn stop(&mut self) {
        if let Some((observer, _call)) = self.watch.take() {
            observer.disconnect();
        }
    }
}

impl Drop for CanvasWidth {
    fn drop(&mut self) {
        self.stop();
    }
}
