//! Which tab of the right-hand panel is showing: decided by the actions, the lifecycle and the
//! test chat, drawn by the panel, so it lives beside them all rather than in any one.

/// Which tab is showing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tab {
    Inspect,
    Problems,
    Versions,
    /// The test chat.
    Chat,
    /// Every conversation the plan allows, explored.
    Explore,
    /// Only while comparing.
    Changes,
}
