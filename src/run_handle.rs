//! A recorded run shared between components. Yew compares props by value; a
//! run holds hundreds of thousands of events, so equality here is identity:
//! a new simulation is a new handle, the same one is never deep-compared.

use std::ops::Deref;
use std::rc::Rc;

use lease_sim::Run;

#[derive(Clone)]
pub struct RunHandle(pub Rc<Run>);

impl RunHandle {
    pub fn new(run: Run) -> Self {
        RunHandle(Rc::new(run))
    }
}

impl PartialEq for RunHandle {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

impl Deref for RunHandle {
    type Target = Run;
    fn deref(&self) -> &Run {
        &self.0
    }
}
