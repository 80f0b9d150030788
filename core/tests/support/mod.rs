//! What the runtime's test crates read off a turn's events alike.

use plan_core::runtime::{Event, What};

/// The words of the events that refused an agent's action.
pub fn rejected(events: &[Event]) -> Vec<&str> {
    events
        .iter()
        .filter(|e| matches!(e.what, What::ActionRejected { .. }))
        .map(|e| e.text.as_str())
        .collect()
}
