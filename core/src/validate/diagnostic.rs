//! Diagnostics: what the validator found, as data. Each has a stable code, a severity, a message
//! that tells an author what is wrong and what to do, and where it is.

use serde::{Deserialize, Serialize};

/// How bad a finding is. Errors block publishing; warnings and infos do not.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    Error,
    Warning,
    Info,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
        }
    }
}

/// The diagnostic codes of the plan format. The names are a contract: tools match on them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Code {
    InvalidJson,
    Schema,
    UnsupportedSchemaVersion,
    NoStates,
    UnknownStartState,
    DuplicateStateId,
    DuplicateTaskId,
    DuplicateDeliverableKey,
    DeliverableTypeConflict,
    UnknownTargetState,
    InvalidConditionConfig,
    UnknownDeliverableKey,
    ConditionTypeMismatch,
    EnumValueNotAllowed,
    GoalMissing,
    GoalOnNonGoalState,
    UnknownTool,
    UnknownResponseCode,
    ToolNotAllowed,
    EndingWithTransitions,
    GoalStateHasTasks,
    UnreachableState,
    NoWayToEnd,
    GoalConditionOnNonGoalState,
    ShadowedTransition,
    KeyNotCollectedBefore,
    EmptyState,
    DuplicateSessionState,
    UnknownSessionState,
    SeveralInitiallyActive,
    NestedInitiallyActive,
    SessionStateCycle,
    SessionValueMismatch,
    TemplateSyntax,
    SessionStateNeverActive,
    DuplicateInterruption,
    UnknownState,
    ResumeOutsideDetour,
    DetourWithoutReturn,
}

impl Code {
    /// Every code, in the order of the format's table.
    pub const ALL: [Code; 39] = [
        Code::InvalidJson,
        Code::Schema,
        Code::UnsupportedSchemaVersion,
        Code::NoStates,
        Code::UnknownStartState,
        Code::DuplicateStateId,
        Code::DuplicateTaskId,
        Code::DuplicateDeliverableKey,
        Code::DeliverableTypeConflict,
        Code::UnknownTargetState,
        Code::InvalidConditionConfig,
        Code::UnknownDeliverableKey,
        Code::ConditionTypeMismatch,
        Code::EnumValueNotAllowed,
        Code::GoalMissing,
        Code::GoalOnNonGoalState,
        Code::UnknownTool,
        Code::UnknownResponseCode,
        Code::ToolNotAllowed,
        Code::EndingWithTransitions,
        Code::GoalStateHasTasks,
        Code::UnreachableState,
        Code::NoWayToEnd,
        Code::GoalConditionOnNonGoalState,
        Code::ShadowedTransition,
        Code::KeyNotCollectedBefore,
        Code::EmptyState,
        Code::DuplicateSessionState,
        Code::UnknownSessionState,
        Code::SeveralInitiallyActive,
        Code::NestedInitiallyActive,
        Code::SessionStateCycle,
        Code::SessionValueMismatch,
        Code::TemplateSyntax,
        Code::SessionStateNeverActive,
        Code::DuplicateInterruption,
        Code::UnknownState,
        Code::ResumeOutsideDetour,
        Code::DetourWithoutReturn,
    ];

    /// The code as written in diagnostics (`unknown-target-state`).
    pub fn as_str(self) -> &'static str {
        match self {
            Code::InvalidJson => "invalid-json",
            Code::Schema => "schema",
            Code::UnsupportedSchemaVersion => "unsupported-schema-version",
            Code::NoStates => "no-states",
            Code::UnknownStartState => "unknown-start-state",
            Code::DuplicateStateId => "duplicate-state-id",
            Code::DuplicateTaskId => "duplicate-task-id",
            Code::DuplicateDeliverableKey => "duplicate-deliverable-key",
            Code::DeliverableTypeConflict => "deliverable-type-conflict",
            Code::UnknownTargetState => "unknown-target-state",
            Code::InvalidConditionConfig => "invalid-condition-config",
            Code::UnknownDeliverableKey => "unknown-deliverable-key",
            Code::ConditionTypeMismatch => "condition-type-mismatch",
            Code::EnumValueNotAllowed => "enum-value-not-allowed",
            Code::GoalMissing => "goal-missing",
            Code::GoalOnNonGoalState => "goal-on-non-goal-state",
            Code::UnknownTool => "unknown-tool",
            Code::UnknownResponseCode => "unknown-response-code",
            Code::ToolNotAllowed => "tool-not-allowed",
            Code::EndingWithTransitions => "ending-with-transitions",
            Code::GoalStateHasTasks => "goal-state-has-tasks",
            Code::UnreachableState => "unreachable-state",
            Code::NoWayToEnd => "no-way-to-end",
            Code::GoalConditionOnNonGoalState => "goal-condition-on-non-goal-state",
            Code::ShadowedTransition => "shadowed-transition",
            Code::KeyNotCollectedBefore => "key-not-collected-before",
            Code::EmptyState => "empty-state",
            Code::DuplicateSessionState => "duplicate-session-state",
            Code::UnknownSessionState => "unknown-session-state",
            Code::SeveralInitiallyActive => "several-initially-active",
            Code::NestedInitiallyActive => "nested-initially-active",
            Code::SessionStateCycle => "session-state-cycle",
            Code::SessionValueMismatch => "session-value-mismatch",
            Code::TemplateSyntax => "template-syntax",
            Code::SessionStateNeverActive => "session-state-never-active",
            Code::DuplicateInterruption => "duplicate-interruption",
            Code::UnknownState => "unknown-state",
            Code::ResumeOutsideDetour => "resume-outside-detour",
            Code::DetourWithoutReturn => "detour-without-return",
        }
    }

    /// The severity the format gives this code.
    pub fn severity(self) -> Severity {
        match self {
            Code::GoalStateHasTasks
            | Code::UnreachableState
            | Code::NoWayToEnd
            | Code::GoalConditionOnNonGoalState
            | Code::ShadowedTransition
            | Code::KeyNotCollectedBefore
            | Code::SessionStateNeverActive
            | Code::ResumeOutsideDetour
            | Code::DetourWithoutReturn => Severity::Warning,
            Code::EmptyState => Severity::Info,
            _ => Severity::Error,
        }
    }
}

impl std::fmt::Display for Code {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Where a diagnostic points.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Location {
    /// JSON Pointer to the most specific offending thing (empty: the whole document).
    pub path: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub state_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub task_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub transition_index: Option<usize>,
}

/// One finding.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Diagnostic {
    pub code: Code,
    pub severity: Severity,
    pub message: String,
    pub location: Location,
}

/// Everything one validation found, in document order.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Report {
    pub diagnostics: Vec<Diagnostic>,
}

impl Report {
    /// Whether anything blocks publishing.
    pub fn has_errors(&self) -> bool {
        self.count(Severity::Error) > 0
    }

    pub fn count(&self, severity: Severity) -> usize {
        self.diagnostics
            .iter()
            .filter(|d| d.severity == severity)
            .count()
    }

    /// The codes found, in order (handy in tests).
    pub fn codes(&self) -> Vec<Code> {
        self.diagnostics.iter().map(|d| d.code).collect()
    }
}
