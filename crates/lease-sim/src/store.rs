//! The destination store: where the fence lives ("the fence must be
//! built in the destination store").

use crate::run::Effect;
use crate::scenario::Fence;

/// What the store knows about one message.
#[derive(Debug, Clone, Copy, Default)]
pub struct StoreRow {
    /// Applied commits (effects) so far; also the row's version for the
    /// read-modify-write of `fence: none`.
    pub applied: u32,
    /// Highest receipt among applied commits (`fencing_token`).
    pub max_receipt: u32,
}

impl StoreRow {
    /// `check_then_write`: the processed-ids check at handler start.
    pub fn processed(&self) -> bool {
        self.applied > 0
    }

    /// A commit carrying `receipt`, by a run that read version `read`.
    pub fn commit(&mut self, fence: Fence, receipt: u32, read: u32) -> Effect {
        match fence {
            // One transaction inserts the id and the effect: the second loses.
            Fence::UniqueConstraint if self.applied > 0 => return Effect::FenceRejected,
            // Conditional write: a lower token than one already applied loses;
            // an equal one is accepted (docs/MODEL.md "The destination store").
            Fence::FencingToken if receipt < self.max_receipt => return Effect::FenceRejected,
            _ => {}
        }
        let effect = if self.applied == 0 {
            Effect::Applied
        } else if self.applied != read {
            // Another commit landed between this run's read and its write.
            Effect::LostUpdate
        } else {
            Effect::Duplicate
        };
        self.applied += 1;
        self.max_receipt = self.max_receipt.max(receipt);
        effect
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fencing_token_accepts_equal_and_higher_rejects_lower() {
        let mut r = StoreRow::default();
        assert_eq!(r.commit(Fence::FencingToken, 2, 0), Effect::Applied);
        assert_eq!(r.commit(Fence::FencingToken, 1, 0), Effect::FenceRejected);
        assert_eq!(r.commit(Fence::FencingToken, 2, 1), Effect::Duplicate);
        assert_eq!(r.commit(Fence::FencingToken, 3, 1), Effect::LostUpdate);
    }

    #[test]
    fn unique_constraint_keeps_one_effect() {
        let mut r = StoreRow::default();
        assert_eq!(r.commit(Fence::UniqueConstraint, 1, 0), Effect::Applied);
        assert_eq!(
            r.commit(Fence::UniqueConstraint, 2, 0),
            Effect::FenceRejected
        );
        assert_eq!(r.applied, 1);
    }
}
