//! Diagnostics: what the validator found, as data. Each has a stable code, a severity, a message
//! that tells an author what is wrong and what to do, and where it is.

use serde::{Deserialize, Serialize};

/// How bad a finding is. Errors block publishing; warnings and infos do not.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    /// Stops a plan from being published or run.
    Error,
    /// Worth fixing; does not stop anything.
    Warning,
    /// Said for the author's information.
    Info,
}

impl Severity {
    /// The severity as the JSON output writes it (`error`, `warning`, `info`).
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
    /// Not JSON (the message gives line and column).
    InvalidJson,
    /// Not the plan format's shape: a wrong type, a missing or unknown field, a bad id.
    Schema,
    /// A `schema_version` newer than this app reads.
    UnsupportedSchemaVersion,
    /// `states` is empty.
    NoStates,
    /// `start_state_id` names no state.
    UnknownStartState,
    /// Two states share an id.
    DuplicateStateId,
    /// Two tasks of one state share an id.
    DuplicateTaskId,
    /// A key declared twice inside one state.
    DuplicateDeliverableKey,
    /// One key declared with different types or enum values.
    DeliverableTypeConflict,
    /// A transition targets no existing state.
    UnknownTargetState,
    /// A condition's settings are missing, ill-typed or contradictory.
    InvalidConditionConfig,
    /// A condition reads a key that no state declares.
    UnknownDeliverableKey,
    /// A condition compares a key with a value of the wrong type.
    ConditionTypeMismatch,
    /// An enum key compared with a value outside its choices.
    EnumValueNotAllowed,
    /// A goal state without a goal, or with an empty objective.
    GoalMissing,
    /// A `goal` on a state that is not a goal state.
    GoalOnNonGoalState,
    /// A tool named that the plan does not declare.
    UnknownTool,
    /// A response code the tool does not declare.
    UnknownResponseCode,
    /// A tool used where the state's `allowed_tools` does not allow it.
    ToolNotAllowed,
    /// An `ending` on a state that has transitions.
    EndingWithTransitions,
    /// A goal state with tasks.
    GoalStateHasTasks,
    /// A state no path from the start reaches.
    UnreachableState,
    /// A state from which no ending can be reached.
    NoWayToEnd,
    /// `goal_achieved` read outside a goal state.
    GoalConditionOnNonGoalState,
    /// A transition that can never fire: an earlier one always fires first.
    ShadowedTransition,
    /// A value of a key with a finite domain that no transition, fallback or interruption of the
    /// state handles: a caller who gives it is not moved on.
    UnhandledValue,
    /// A response code of a tool that the state's transitions read, which no transition, fallback
    /// or interruption of the state handles: a call that returns it moves nothing on.
    UnhandledResponseCode,
    /// A condition reads a key that no state before it collects.
    KeyNotCollectedBefore,
    /// A transition out of a strict state that leaves before the state's required tasks are done,
    /// where no transition waits for the last of them.
    LeavesBeforeTasksDone,
    /// A state that is not an ending with no tasks, no goal and no instructions.
    EmptyState,
    /// Two session states share an id.
    DuplicateSessionState,
    /// A session state named that the plan does not declare.
    UnknownSessionState,
    /// More than one session state of a group is initially active.
    SeveralInitiallyActive,
    /// A session state with a parent marked initially active.
    NestedInitiallyActive,
    /// Session states whose rules activate each other in a circle.
    SessionStateCycle,
    /// A session state's value does not fit its type.
    SessionValueMismatch,
    /// A template that does not parse.
    TemplateSyntax,
    /// A session state that nothing can ever make active.
    SessionStateNeverActive,
    /// Two interruptions share an id.
    DuplicateInterruption,
    /// An interruption names a state that does not exist.
    UnknownState,
    /// A return point reachable from the start without a detour: it would end the conversation.
    ResumeOutsideDetour,
    /// A detour from which no return point is reached: the parked task is never resumed.
    DetourWithoutReturn,
    /// Two evaluations share an id.
    DuplicateEvaluation,
    /// An evaluation without a question: the judge would have nothing to answer.
    EmptyEvaluationQuestion,
}

impl Code {
    /// Every code, in the order of the format's table.
    pub const ALL: [Code; 44] = [
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
        Code::UnhandledValue,
        Code::UnhandledResponseCode,
        Code::KeyNotCollectedBefore,
        Code::LeavesBeforeTasksDone,
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
        Code::DuplicateEvaluation,
        Code::EmptyEvaluationQuestion,
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
            Code::UnhandledValue => "unhandled-value",
            Code::UnhandledResponseCode => "unhandled-response-code",
            Code::KeyNotCollectedBefore => "key-not-collected-before",
            Code::LeavesBeforeTasksDone => "leaves-before-tasks-done",
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
            Code::DuplicateEvaluation => "duplicate-evaluation",
            Code::EmptyEvaluationQuestion => "empty-evaluation-question",
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
            | Code::UnhandledValue
            | Code::UnhandledResponseCode
            | Code::KeyNotCollectedBefore
            | Code::LeavesBeforeTasksDone
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
    /// The state it is in, when it is in one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub state_id: Option<String>,
    /// The task it is in, when it is in one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub task_id: Option<String>,
    /// The transition it is about, by its index in the state's `transitions`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub transition_index: Option<usize>,
}

/// One finding.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Diagnostic {
    /// Its stable code.
    pub code: Code,
    /// How much it matters.
    pub severity: Severity,
    /// What is wrong, in words for the author.
    pub message: String,
    /// Where it is.
    pub location: Location,
}

/// Everything one validation found, in document order.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Report {
    /// Every finding, in plan order.
    pub diagnostics: Vec<Diagnostic>,
}

impl Report {
    /// Whether anything blocks publishing.
    pub fn has_errors(&self) -> bool {
        self.count(Severity::Error) > 0
    }

    /// How many findings have `severity`.
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
