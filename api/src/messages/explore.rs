//! The Explore tab's and the Publish dialog's messages: a search of the open plan's draft run by
//! the shell in the background (its progress sent as events, a Stop), and what it found, each
//! finding with the states its conversation goes through and that conversation as a test case.

use plan_core::explore::{Changed, Explored, Finding, Story, TransitionId};
use plan_core::runtime::script::Script;
use serde::{Deserialize, Serialize};

/// Payload of [`super::EXPLORE_PROGRESS`]: how many configurations the running search has
/// reached.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExploreProgress {
    /// Which search it is (the number [`ExploreView::run`] answers).
    pub run: u64,
    /// Configurations reached so far.
    pub configurations: usize,
}

/// A search of a plan's draft, as the window shows it: core's answer, each finding with its
/// conversation replayed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ExploreView {
    /// Which search of this window it was, counted from 1.
    pub run: u64,
    /// How long the search took, in milliseconds (the window explores again by itself after an
    /// edit only when this was short).
    pub millis: u64,
    /// What it found.
    #[serde(flatten)]
    pub explored: Explored<FindingView>,
}

/// One finding, with what the window needs to show and replay it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FindingView {
    /// The finding.
    #[serde(flatten)]
    pub finding: Finding,
    /// The states its conversation enters, in order, from the opening.
    pub path: Vec<String>,
    /// The transitions it fires, in order.
    pub fired: Vec<TransitionId>,
    /// The conversation as a test case: each turn's message with what holds after it.
    pub case: Option<Script>,
    /// The conversation told as a call, why the finding happened and what to do.
    #[serde(default)]
    pub story: Story,
}

/// The rules publishing the draft would newly break (explore.md, "Rules"), for the Publish
/// dialog: [`super::PlanArgs`] → this. They block publishing, as errors do.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PublishRules {
    /// The version the draft was compared with; none: there is no version yet.
    pub newest: Option<u32>,
    /// Rules the draft breaks that the newest version did not.
    pub rules_broken: Vec<FindingView>,
}

/// What publishing the draft changes for callers against the newest version (explore.md,
/// "Comparing two plans"): [`super::PlanArgs`] → this. Worked out after the rules: it can take
/// a while, and it blocks nothing.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PublishOutcomes {
    /// The version the draft was compared with; none: there is no version yet (and nothing to
    /// compare).
    pub newest: Option<u32>,
    /// The outcomes that changed, most configurations first.
    pub outcomes: Vec<Changed>,
}
