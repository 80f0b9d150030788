//! The window's dialogs and what each holds while it is open.

use plan_api::messages::{PublishOutcomes, PublishPreview, PublishRules};
use plan_api::ApiError;
use plan_core::runtime::script::Script;

/// The window's dialogs (one at a time).
#[derive(Debug, Clone, PartialEq)]
pub enum Dialog {
    /// Publish, with what it would do once the shell has said.
    Publish(Publishing),
    /// A new plan: its title and what it starts from.
    NewPlan,
    /// An action that replaces something, asked first.
    Confirm(Confirmation),
    /// A conversation as a test case, to trim and name before it is saved.
    SaveCase(Script),
    /// The first start's welcome: what a plan is, and three ways in.
    Welcome,
    /// The Share panel: the workspace shared through git.
    Share,
}

/// The publish dialog's state.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Publishing {
    /// What publishing would do; none until the shell has answered.
    pub preview: Option<PublishPreview>,
    /// Why the preview or the publish failed.
    pub error: Option<ApiError>,
    /// A publish is under way.
    pub busy: bool,
    /// The rules the draft newly breaks (explored once the preview has no errors); none while
    /// they are checked.
    pub rules: Option<Result<PublishRules, ApiError>>,
    /// What the draft changes for callers (worked out after the rules); none meanwhile.
    pub outcomes: Option<Result<PublishOutcomes, ApiError>>,
}

/// An action to confirm.
#[derive(Debug, Clone, PartialEq)]
pub struct Confirmation {
    pub title: String,
    pub text: String,
    /// The confirm button's words.
    pub confirm: &'static str,
    pub action: Confirmed,
}

/// What a confirmation does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Confirmed {
    /// Version N becomes the draft.
    Reopen { version: u32 },
}
