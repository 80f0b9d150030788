//! The app's test hooks (the `data-testid` attributes of docs/editor.md), as the end-to-end tests,
//! the probe and the installed app's test select them: each named once here. A selector that
//! narrows one (`[data-testid=task][data-task-index='1']`) is written where it is used, unless
//! several places use it (`plan(id)`, `LIT_STATE`, `UNHANDLED_VALUE`).

/// `[data-testid=announcer]`: the polite live region a screen reader hears.
pub const ANNOUNCER: &str = "[data-testid=announcer]";
/// `[data-testid=menu-rename]`: the card menu's first item.
pub const MENU_RENAME: &str = "[data-testid=menu-rename]";
/// `[data-testid=menu-connect]`.
pub const MENU_CONNECT: &str = "[data-testid=menu-connect]";
/// `[data-testid=connect-picker]`: the picker of a new arrow's target (C).
pub const CONNECT_PICKER: &str = "[data-testid=connect-picker]";
/// `[data-testid=connect-input]`.
pub const CONNECT_INPUT: &str = "[data-testid=connect-input]";
/// `[data-testid=connect-option]`.
pub const CONNECT_OPTION: &str = "[data-testid=connect-option]";
/// `[data-testid=add-auto-activate]`.
pub const ADD_AUTO_ACTIVATE: &str = "[data-testid=add-auto-activate]";
/// `[data-testid=add-interruption]`.
pub const ADD_INTERRUPTION: &str = "[data-testid=add-interruption]";
/// `[data-testid=add-rule]`.
pub const ADD_RULE: &str = "[data-testid=add-rule]";
/// `[data-testid=add-session-state]`.
pub const ADD_SESSION_STATE: &str = "[data-testid=add-session-state]";
/// `[data-testid=add-task]`.
pub const ADD_TASK: &str = "[data-testid=add-task]";
/// `[data-testid=add-tool]`.
pub const ADD_TOOL: &str = "[data-testid=add-tool]";
/// `[data-testid=advanced-toggle]`.
pub const ADVANCED_TOGGLE: &str = "[data-testid=advanced-toggle]";
/// `[data-testid=agent-base-url]`.
pub const AGENT_BASE_URL: &str = "[data-testid=agent-base-url]";
/// `[data-testid=agent-model]`.
pub const AGENT_MODEL: &str = "[data-testid=agent-model]";
/// `[data-testid=agent-save]`.
pub const AGENT_SAVE: &str = "[data-testid=agent-save]";
/// `[data-testid=agent-test]`.
pub const AGENT_TEST: &str = "[data-testid=agent-test]";
/// `[data-testid=agent-timeout]`.
pub const AGENT_TIMEOUT: &str = "[data-testid=agent-timeout]";
/// `[data-testid=auto-layout]`.
pub const AUTO_LAYOUT: &str = "[data-testid=auto-layout]";
/// `[data-testid=back-to-draft]`.
pub const BACK_TO_DRAFT: &str = "[data-testid=back-to-draft]";
/// `[data-testid=canvas]`.
pub const CANVAS: &str = "[data-testid=canvas]";
/// `[data-testid=case-differs]`.
pub const CASE_DIFFERS: &str = "[data-testid=case-differs]";
/// `[data-testid=case-expect]`.
pub const CASE_EXPECT: &str = "[data-testid=case-expect]";
/// `[data-testid=case-name]`.
pub const CASE_NAME: &str = "[data-testid=case-name]";
/// `[data-testid=chat-begin-state]`.
pub const CHAT_BEGIN_STATE: &str = "[data-testid=chat-begin-state]";
/// `[data-testid=chat-ended]`.
pub const CHAT_ENDED: &str = "[data-testid=chat-ended]";
/// `[data-testid=chat-failed]`.
pub const CHAT_FAILED: &str = "[data-testid=chat-failed]";
/// `[data-testid=chat-fallback]`.
pub const CHAT_FALLBACK: &str = "[data-testid=chat-fallback]";
/// `[data-testid=chat-from-here]`.
pub const CHAT_FROM_HERE: &str = "[data-testid=chat-from-here]";
/// `[data-testid=chat-input]`.
pub const CHAT_INPUT: &str = "[data-testid=chat-input]";
/// `[data-testid=chat-message]`.
pub const CHAT_MESSAGE: &str = "[data-testid=chat-message]";
/// `[data-testid=chat-no-functions]`.
pub const CHAT_NO_FUNCTIONS: &str = "[data-testid=chat-no-functions]";
/// `[data-testid=chat-parked]`.
pub const CHAT_PARKED: &str = "[data-testid=chat-parked]";
/// `[data-testid=chat-preset-add]`.
pub const CHAT_PRESET_ADD: &str = "[data-testid=chat-preset-add]";
/// `[data-testid=chat-preset-key]`.
pub const CHAT_PRESET_KEY: &str = "[data-testid=chat-preset-key]";
/// `[data-testid=chat-preset-value]`.
pub const CHAT_PRESET_VALUE: &str = "[data-testid=chat-preset-value]";
/// `[data-testid=chat-restart]`.
pub const CHAT_RESTART: &str = "[data-testid=chat-restart]";
/// `[data-testid=chat-retry]`.
pub const CHAT_RETRY: &str = "[data-testid=chat-retry]";
/// `[data-testid=chat-run]`.
pub const CHAT_RUN: &str = "[data-testid=chat-run]";
/// `[data-testid=chat-run-suite]`.
pub const CHAT_RUN_SUITE: &str = "[data-testid=chat-run-suite]";
/// `[data-testid=chat-save-case]`.
pub const CHAT_SAVE_CASE: &str = "[data-testid=chat-save-case]";
/// `[data-testid=chat-stale]`.
pub const CHAT_STALE: &str = "[data-testid=chat-stale]";
/// `[data-testid=chat-start]`.
pub const CHAT_START: &str = "[data-testid=chat-start]";
/// `[data-testid=chat-step-back]`.
pub const CHAT_STEP_BACK: &str = "[data-testid=chat-step-back]";
/// `[data-testid=chat-transcript]`.
pub const CHAT_TRANSCRIPT: &str = "[data-testid=chat-transcript]";
/// `[data-testid=compare-with]`.
pub const COMPARE_WITH: &str = "[data-testid=compare-with]";
/// `[data-testid=confirm]`.
pub const CONFIRM: &str = "[data-testid=confirm]";
/// `[data-testid=conflict]`.
pub const CONFLICT: &str = "[data-testid=conflict]";
/// `[data-testid=conflict-mine]`.
pub const CONFLICT_MINE: &str = "[data-testid=conflict-mine]";
/// `[data-testid=context-menu]`.
pub const CONTEXT_MENU: &str = "[data-testid=context-menu]";
/// `[data-testid=coverage-summary]`.
pub const COVERAGE_SUMMARY: &str = "[data-testid=coverage-summary]";
/// `[data-testid=dialog]`.
pub const DIALOG: &str = "[data-testid=dialog]";
/// `[data-testid=explore-coverage]`.
pub const EXPLORE_COVERAGE: &str = "[data-testid=explore-coverage]";
/// `[data-testid=explore-path]`.
pub const EXPLORE_PATH: &str = "[data-testid=explore-path]";
/// A finding's conversation told in words, turn by turn (shown with its path).
pub const EXPLORE_STORY: &str = "[data-testid=explore-story]";
/// Why a finding happened, from what the runtime did.
pub const EXPLORE_WHY: &str = "[data-testid=explore-why]";
/// A suggestion under a finding; a click opens its place in the inspector.
pub const EXPLORE_SUGGESTION: &str = "[data-testid=explore-suggestion]";
/// The simulator's commands of a finding's conversation, under a disclosure.
pub const EXPLORE_COMMANDS: &str = "[data-testid=explore-commands]";
/// `[data-testid=explore-progress]`.
pub const EXPLORE_PROGRESS: &str = "[data-testid=explore-progress]";
/// `[data-testid=explore-run]`.
pub const EXPLORE_RUN: &str = "[data-testid=explore-run]";
/// `[data-testid=explore-stop]`.
pub const EXPLORE_STOP: &str = "[data-testid=explore-stop]";
/// `[data-testid=explore-summary]`.
pub const EXPLORE_SUMMARY: &str = "[data-testid=explore-summary]";
/// `[data-testid=export]`.
pub const EXPORT: &str = "[data-testid=export]";
/// `[data-testid=export-draft]`.
pub const EXPORT_DRAFT: &str = "[data-testid=export-draft]";
/// `[data-testid=field-ending]`.
pub const FIELD_ENDING: &str = "[data-testid=field-ending]";
/// `[data-testid=field-id]`.
pub const FIELD_ID: &str = "[data-testid=field-id]";
/// `[data-testid=field-interruptible]`.
pub const FIELD_INTERRUPTIBLE: &str = "[data-testid=field-interruptible]";
/// `[data-testid=field-plan-instructions]`.
pub const FIELD_PLAN_INSTRUCTIONS: &str = "[data-testid=field-plan-instructions]";
/// `[data-testid=field-priority]`.
pub const FIELD_PRIORITY: &str = "[data-testid=field-priority]";
/// `[data-testid=field-ss-id]`.
pub const FIELD_SS_ID: &str = "[data-testid=field-ss-id]";
/// `[data-testid=field-ss-prompt]`.
pub const FIELD_SS_PROMPT: &str = "[data-testid=field-ss-prompt]";
/// `[data-testid=field-ss-type]`.
pub const FIELD_SS_TYPE: &str = "[data-testid=field-ss-type]";
/// `[data-testid=field-task-ask-again]`.
pub const FIELD_TASK_ASK_AGAIN: &str = "[data-testid=field-task-ask-again]";
/// `[data-testid=field-title]`.
pub const FIELD_TITLE: &str = "[data-testid=field-title]";
/// `[data-testid=field-tool-add-codes]`.
pub const FIELD_TOOL_ADD_CODES: &str = "[data-testid=field-tool-add-codes]";
/// `[data-testid=field-tool-name]`.
pub const FIELD_TOOL_NAME: &str = "[data-testid=field-tool-name]";
/// `[data-testid=fired-why]`.
pub const FIRED_WHY: &str = "[data-testid=fired-why]";
/// `[data-testid=fit-view]`.
pub const FIT_VIEW: &str = "[data-testid=fit-view]";
/// `[data-testid=fold-panel]`.
pub const FOLD_PANEL: &str = "[data-testid=fold-panel]";
/// `[data-testid=fold-side]`.
pub const FOLD_SIDE: &str = "[data-testid=fold-side]";
/// `[data-testid=help-overlay]`.
pub const HELP_OVERLAY: &str = "[data-testid=help-overlay]";
/// `[data-testid=import]`.
pub const IMPORT: &str = "[data-testid=import]";
/// `[data-testid=import-into]`.
pub const IMPORT_INTO: &str = "[data-testid=import-into]";
/// `[data-testid=import-new]`.
pub const IMPORT_NEW: &str = "[data-testid=import-new]";
/// `[data-testid=interruption]`.
pub const INTERRUPTION: &str = "[data-testid=interruption]";
/// `[data-testid=load-error]`.
pub const LOAD_ERROR: &str = "[data-testid=load-error]";
/// `[data-testid=menu-add-goal]`.
pub const MENU_ADD_GOAL: &str = "[data-testid=menu-add-goal]";
/// `[data-testid=menu-delete]`.
pub const MENU_DELETE: &str = "[data-testid=menu-delete]";
/// `[data-testid=menu-duplicate]`.
pub const MENU_DUPLICATE: &str = "[data-testid=menu-duplicate]";
/// `[data-testid=mode]`.
pub const MODE: &str = "[data-testid=mode]";
/// `[data-testid=new-plan-from]`.
pub const NEW_PLAN_FROM: &str = "[data-testid=new-plan-from]";
/// `[data-testid=new-plan-title]`.
pub const NEW_PLAN_TITLE: &str = "[data-testid=new-plan-title]";
/// `[data-testid=notice]`.
pub const NOTICE: &str = "[data-testid=notice]";
/// `[data-testid=notice-undo]`.
pub const NOTICE_UNDO: &str = "[data-testid=notice-undo]";
/// `[data-testid=overview]`.
pub const OVERVIEW: &str = "[data-testid=overview]";
/// `[data-testid=palette-goal]`.
pub const PALETTE_GOAL: &str = "[data-testid=palette-goal]";
/// `[data-testid=palette-loose]`.
pub const PALETTE_LOOSE: &str = "[data-testid=palette-loose]";
/// `[data-testid=palette-strict]`.
pub const PALETTE_STRICT: &str = "[data-testid=palette-strict]";
/// `[data-testid=plan]`.
pub const PLAN: &str = "[data-testid=plan]";
/// `[data-testid=plan-inspector]`.
pub const PLAN_INSPECTOR: &str = "[data-testid=plan-inspector]";
/// `[data-testid=plan-new]`.
pub const PLAN_NEW: &str = "[data-testid=plan-new]";
/// `[data-testid=plan-rename-input]`.
pub const PLAN_RENAME_INPUT: &str = "[data-testid=plan-rename-input]";
/// `[data-testid=plan-search]`.
pub const PLAN_SEARCH: &str = "[data-testid=plan-search]";
/// `[data-testid=plan-title]`.
pub const PLAN_TITLE: &str = "[data-testid=plan-title]";
/// `[data-testid=problem]`.
pub const PROBLEM: &str = "[data-testid=problem]";
/// `[data-testid=problem-fix]`.
pub const PROBLEM_FIX: &str = "[data-testid=problem-fix]";
/// `[data-testid=problem-count]`.
pub const PROBLEM_COUNT: &str = "[data-testid=problem-count]";
/// `[data-testid=problem-plan-instructions]`.
pub const PROBLEM_PLAN_INSTRUCTIONS: &str = "[data-testid=problem-plan-instructions]";
/// `[data-testid=publish]`.
pub const PUBLISH: &str = "[data-testid=publish]";
/// `[data-testid=publish-cancel]`.
pub const PUBLISH_CANCEL: &str = "[data-testid=publish-cancel]";
/// `[data-testid=publish-confirm]`.
pub const PUBLISH_CONFIRM: &str = "[data-testid=publish-confirm]";
/// `[data-testid=publish-conflicts]`.
pub const PUBLISH_CONFLICTS: &str = "[data-testid=publish-conflicts]";
/// `[data-testid=publish-diff]`.
pub const PUBLISH_DIFF: &str = "[data-testid=publish-diff]";
/// `[data-testid=publish-error]`.
pub const PUBLISH_ERROR: &str = "[data-testid=publish-error]";
/// `[data-testid=publish-errors]`.
pub const PUBLISH_ERRORS: &str = "[data-testid=publish-errors]";
/// `[data-testid=publish-note]`.
pub const PUBLISH_NOTE: &str = "[data-testid=publish-note]";
/// `[data-testid=publish-outcomes]`.
pub const PUBLISH_OUTCOMES: &str = "[data-testid=publish-outcomes]";
/// `[data-testid=publish-rule-broken]`.
pub const PUBLISH_RULE_BROKEN: &str = "[data-testid=publish-rule-broken]";
/// `[data-testid=publish-rules-broken]`.
pub const PUBLISH_RULES_BROKEN: &str = "[data-testid=publish-rules-broken]";
/// `[data-testid=publish-rules-hold]`.
pub const PUBLISH_RULES_HOLD: &str = "[data-testid=publish-rules-hold]";
/// `[data-testid=publish-unchanged]`.
pub const PUBLISH_UNCHANGED: &str = "[data-testid=publish-unchanged]";
/// `[data-testid=readonly-banner]`.
pub const READONLY_BANNER: &str = "[data-testid=readonly-banner]";
/// `[data-testid=save-status]`.
pub const SAVE_STATUS: &str = "[data-testid=save-status]";
/// `[data-testid=state]`.
pub const STATE: &str = "[data-testid=state]";
/// `[data-testid=suite-summary]`.
pub const SUITE_SUMMARY: &str = "[data-testid=suite-summary]";
/// `[data-testid=tab-chat]`.
pub const TAB_CHAT: &str = "[data-testid=tab-chat]";
/// `[data-testid=tab-explore]`.
pub const TAB_EXPLORE: &str = "[data-testid=tab-explore]";
/// `[data-testid=tab-inspect]`.
pub const TAB_INSPECT: &str = "[data-testid=tab-inspect]";
/// `[data-testid=tab-problems]`.
pub const TAB_PROBLEMS: &str = "[data-testid=tab-problems]";
/// `[data-testid=tab-versions]`.
pub const TAB_VERSIONS: &str = "[data-testid=tab-versions]";
/// `[data-testid=transition]`.
pub const TRANSITION: &str = "[data-testid=transition]";
/// `[data-testid=transition-inspector]`.
pub const TRANSITION_INSPECTOR: &str = "[data-testid=transition-inspector]";
/// `[data-testid=trash-toggle]`.
pub const TRASH_TOGGLE: &str = "[data-testid=trash-toggle]";
/// `[data-testid=undo]`.
pub const UNDO: &str = "[data-testid=undo]";
/// `[data-testid=version-badge]`.
pub const VERSION_BADGE: &str = "[data-testid=version-badge]";
/// `[data-testid=welcome]`.
pub const WELCOME: &str = "[data-testid=welcome]";
/// `[data-testid=welcome-sample]`.
pub const WELCOME_SAMPLE: &str = "[data-testid=welcome-sample]";
/// `[data-testid=zoom]`.
pub const ZOOM: &str = "[data-testid=zoom]";
/// `[data-testid=zoom-in]`.
pub const ZOOM_IN: &str = "[data-testid=zoom-in]";

/// `[data-testid=add-deliverable]`.
pub const ADD_DELIVERABLE: &str = "[data-testid=add-deliverable]";
/// `[data-testid=case-turns]`.
pub const CASE_TURNS: &str = "[data-testid=case-turns]";
/// `[data-testid=chat-trace]`.
pub const CHAT_TRACE: &str = "[data-testid=chat-trace]";
/// `[data-testid=chat-turn-cost]`.
pub const CHAT_TURN_COST: &str = "[data-testid=chat-turn-cost]";
/// `[data-testid=conflict-banner]`.
pub const CONFLICT_BANNER: &str = "[data-testid=conflict-banner]";
/// `[data-testid=conflict-choices]`.
pub const CONFLICT_CHOICES: &str = "[data-testid=conflict-choices]";
/// `[data-testid=conflict-first]`.
pub const CONFLICT_FIRST: &str = "[data-testid=conflict-first]";
/// `[data-testid=conflict-theirs]`.
pub const CONFLICT_THEIRS: &str = "[data-testid=conflict-theirs]";
/// `[data-testid=coverage-legend]`.
pub const COVERAGE_LEGEND: &str = "[data-testid=coverage-legend]";
/// `[data-testid=evaluation-card]`.
pub const EVALUATION_CARD: &str = "[data-testid=evaluation-card]";
/// `[data-testid=explore-finding]`.
pub const EXPLORE_FINDING: &str = "[data-testid=explore-finding]";
/// `[data-testid=field-condition-type]`.
pub const FIELD_CONDITION_TYPE: &str = "[data-testid=field-condition-type]";
/// `[data-testid=field-deliverable-key]`.
pub const FIELD_DELIVERABLE_KEY: &str = "[data-testid=field-deliverable-key]";
/// `[data-testid=field-deliverable-type]`.
pub const FIELD_DELIVERABLE_TYPE: &str = "[data-testid=field-deliverable-type]";
/// `[data-testid=field-error]`.
pub const FIELD_ERROR: &str = "[data-testid=field-error]";
/// `[data-testid=field-instructions]`.
pub const FIELD_INSTRUCTIONS: &str = "[data-testid=field-instructions]";
/// `[data-testid=field-key]`.
pub const FIELD_KEY: &str = "[data-testid=field-key]";
/// `[data-testid=field-task-description]`.
pub const FIELD_TASK_DESCRIPTION: &str = "[data-testid=field-task-description]";
/// `[data-testid=field-task-id]`.
pub const FIELD_TASK_ID: &str = "[data-testid=field-task-id]";
/// `[data-testid=field-value]`.
pub const FIELD_VALUE: &str = "[data-testid=field-value]";
/// `[data-testid=find]`.
pub const FIND: &str = "[data-testid=find]";
/// `[data-testid=find-input]`.
pub const FIND_INPUT: &str = "[data-testid=find-input]";
/// `[data-testid=id-warning]`.
pub const ID_WARNING: &str = "[data-testid=id-warning]";
/// `[data-testid=inspector-no-plan]`.
pub const INSPECTOR_NO_PLAN: &str = "[data-testid=inspector-no-plan]";
/// `[data-testid=menu-check-earlier]`.
pub const MENU_CHECK_EARLIER: &str = "[data-testid=menu-check-earlier]";
/// `[data-testid=menu-edit-condition]`.
pub const MENU_EDIT_CONDITION: &str = "[data-testid=menu-edit-condition]";
/// `[data-testid=palette-ending]`.
pub const PALETTE_ENDING: &str = "[data-testid=palette-ending]";
/// `[data-testid=palette-hint]`.
pub const PALETTE_HINT: &str = "[data-testid=palette-hint]";
/// `[data-testid=persona-add-value]`.
pub const PERSONA_ADD_VALUE: &str = "[data-testid=persona-add-value]";
/// `[data-testid=persona-value]`.
pub const PERSONA_VALUE: &str = "[data-testid=persona-value]";
/// `[data-testid=persona-value-key]`.
pub const PERSONA_VALUE_KEY: &str = "[data-testid=persona-value-key]";
/// `[data-testid=publish-example]`.
pub const PUBLISH_EXAMPLE: &str = "[data-testid=publish-example]";
/// `[data-testid=session-chip]`.
pub const SESSION_CHIP: &str = "[data-testid=session-chip]";
/// `[data-testid=share]`.
pub const SHARE: &str = "[data-testid=share]";
/// `[data-testid=share-checkpoint]`.
pub const SHARE_CHECKPOINT: &str = "[data-testid=share-checkpoint]";
/// `[data-testid=share-close]`.
pub const SHARE_CLOSE: &str = "[data-testid=share-close]";
/// `[data-testid=share-email]`.
pub const SHARE_EMAIL: &str = "[data-testid=share-email]";
/// `[data-testid=share-get]`.
pub const SHARE_GET: &str = "[data-testid=share-get]";
/// `[data-testid=share-message]`.
pub const SHARE_MESSAGE: &str = "[data-testid=share-message]";
/// `[data-testid=share-name]`.
pub const SHARE_NAME: &str = "[data-testid=share-name]";
/// `[data-testid=share-said]`.
pub const SHARE_SAID: &str = "[data-testid=share-said]";
/// `[data-testid=share-send]`.
pub const SHARE_SEND: &str = "[data-testid=share-send]";
/// `[data-testid=share-unsaved]`.
pub const SHARE_UNSAVED: &str = "[data-testid=share-unsaved]";
/// `[data-testid=sim-agent-server]`.
pub const SIM_AGENT_SERVER: &str = "[data-testid=sim-agent-server]";
/// `[data-testid=sim-compare]`.
pub const SIM_COMPARE: &str = "[data-testid=sim-compare]";
/// `[data-testid=sim-compare-row]`.
pub const SIM_COMPARE_ROW: &str = "[data-testid=sim-compare-row]";
/// `[data-testid=sim-comparison]`.
pub const SIM_COMPARISON: &str = "[data-testid=sim-comparison]";
/// `[data-testid=sim-cost]`.
pub const SIM_COST: &str = "[data-testid=sim-cost]";
/// `[data-testid=sim-estimate]`.
pub const SIM_ESTIMATE: &str = "[data-testid=sim-estimate]";
/// `[data-testid=sim-own-judge]`.
pub const SIM_OWN_JUDGE: &str = "[data-testid=sim-own-judge]";
/// `[data-testid=sim-show-turn]`.
pub const SIM_SHOW_TURN: &str = "[data-testid=sim-show-turn]";
/// `[data-testid=sim-step]`.
pub const SIM_STEP: &str = "[data-testid=sim-step]";
/// `[data-testid=sim-step-on]`.
pub const SIM_STEP_ON: &str = "[data-testid=sim-step-on]";
/// `[data-testid=sim-vote]`.
pub const SIM_VOTE: &str = "[data-testid=sim-vote]";
/// `[data-testid=state-inspector]`.
pub const STATE_INSPECTOR: &str = "[data-testid=state-inspector]";
/// `[data-testid=take-theirs]`.
pub const TAKE_THEIRS: &str = "[data-testid=take-theirs]";
/// `[data-testid=tidy]`.
pub const TIDY: &str = "[data-testid=tidy]";
/// The caller's messages in the test chat.
pub const USER_MESSAGE: &str = "[data-testid=chat-message][data-role=user]";
/// The card the conversation is in, lit.
pub const LIT_STATE: &str = "[data-testid=state][data-current=true]";

/// The Problems tab's warning of an answer no arrow handles.
pub const UNHANDLED_VALUE: &str = "[data-testid=problem][data-code=unhandled-value]";
/// The Explore tab's finding of a conversation that can never finish.
pub const DEAD_END: &str = "[data-testid=explore-finding][data-code=explore-dead-end]";
/// The Explore tab's finding of an answer the plan waits on until the caller changes it.
pub const STALLS_ON_VALUE: &str =
    "[data-testid=explore-finding][data-code=explore-stalls-on-value]";

/// The button that adds a plan's first condition to the selected arrow.
pub const ADD_ROOT_CONDITION: &str = "[data-testid=add-condition][data-path='']";

/// Plan `id` in the list of plans.
pub fn plan(id: &str) -> String {
    format!("[data-testid=plan][data-plan-id='{id}']")
}

/// The problem of code `code` in the Problems tab.
pub fn problem(code: &str) -> String {
    format!("[data-testid=problem][data-code={code}]")
}

/// The finding of code `code` in the Explore tab.
pub fn finding(code: &str) -> String {
    format!("[data-testid=explore-finding][data-code={code}]")
}

/// The card of state `id`.
pub fn state(id: &str) -> String {
    format!("[data-testid=state][data-state-id='{id}']")
}

/// The arrow `index` of state `from`.
pub fn arrow(from: &str, index: usize) -> String {
    format!("[data-testid=transition][data-from='{from}'][data-index='{index}']")
}

/// Session state `id`'s chip in the lanes below the flow.
pub fn session_chip(id: &str) -> String {
    format!("[data-testid=session-chip][data-session-state='{id}']")
}

/// Evaluation `id`'s card in the lanes below the flow.
pub fn evaluation_card(id: &str) -> String {
    format!("[data-testid=evaluation-card][data-evaluation='{id}']")
}

/// The edge that limits evaluation `evaluation` to session state `state`.
pub fn limit(state: &str, evaluation: &str) -> String {
    format!("[data-testid=limit][data-session-state='{state}'][data-evaluation='{evaluation}']")
}

/// The selected edge's draggable end.
pub const LIMIT_END: &str = "[data-limit-end]";

/// Version `n` in the Versions tab.
pub fn version(n: u32) -> String {
    format!("[data-testid=version][data-version='{n}']")
}

/// `[data-testid=sim-caller-url]`.
pub const SIM_CALLER_URL: &str = "[data-testid=sim-caller-url]";

/// `[data-testid=sim-caller-model]`.
pub const SIM_CALLER_MODEL: &str = "[data-testid=sim-caller-model]";

/// `[data-testid=sim-conversations]`.
pub const SIM_CONVERSATIONS: &str = "[data-testid=sim-conversations]";

/// `[data-testid=sim-votes]`.
pub const SIM_VOTES: &str = "[data-testid=sim-votes]";

/// `[data-testid=sim-run]`.
pub const SIM_RUN: &str = "[data-testid=sim-run]";

/// `[data-testid=sim-stop]`.
pub const SIM_STOP: &str = "[data-testid=sim-stop]";

/// `[data-testid=sim-progress]`.
pub const SIM_PROGRESS: &str = "[data-testid=sim-progress]";

/// `[data-testid=sim-summary]`.
pub const SIM_SUMMARY: &str = "[data-testid=sim-summary]";

/// `[data-testid=sim-tally]`.
pub const SIM_TALLY: &str = "[data-testid=sim-tally]";

/// `[data-testid=sim-conversation]`.
pub const SIM_CONVERSATION: &str = "[data-testid=sim-conversation]";

/// `[data-testid=sim-verdict]`.
pub const SIM_VERDICT: &str = "[data-testid=sim-verdict]";

/// `[data-testid=sim-run-row]`.
pub const SIM_RUN_ROW: &str = "[data-testid=sim-run-row]";

/// `[data-testid=sim-open]`.
pub const SIM_OPEN: &str = "[data-testid=sim-open]";

/// `[data-testid=sim-replay]`.
pub const SIM_REPLAY: &str = "[data-testid=sim-replay]";

/// `[data-testid=sim-persona]`.
pub const SIM_PERSONA: &str = "[data-testid=sim-persona]";

/// `[data-testid=sim-error]`.
pub const SIM_ERROR: &str = "[data-testid=sim-error]";

/// `[data-testid=tab-simulate]`.
pub const TAB_SIMULATE: &str = "[data-testid=tab-simulate]";

/// `[data-testid=simulate]`.
pub const SIMULATE: &str = "[data-testid=simulate]";

/// `[data-testid=sim-heat]`.
pub const SIM_HEAT: &str = "[data-testid=sim-heat]";

/// `[data-testid=sim-open-conversation]`.
pub const SIM_OPEN_CONVERSATION: &str = "[data-testid=sim-open-conversation]";

/// `[data-testid=sim-transcript]`.
pub const SIM_TRANSCRIPT: &str = "[data-testid=sim-transcript]";

/// `[data-testid=sim-turn]`.
pub const SIM_TURN: &str = "[data-testid=sim-turn]";

/// `[data-testid=sim-case-name]`.
pub const SIM_CASE_NAME: &str = "[data-testid=sim-case-name]";

/// `[data-testid=sim-save-case]`.
pub const SIM_SAVE_CASE: &str = "[data-testid=sim-save-case]";

/// `[data-testid=sim-saved]`.
pub const SIM_SAVED: &str = "[data-testid=sim-saved]";

/// `[data-testid=sim-new-persona]`: "New caller".
pub const SIM_NEW_PERSONA: &str = "[data-testid=sim-new-persona]";

/// `[data-testid=sim-edit-persona]`: a caller's "Edit".
pub const SIM_EDIT_PERSONA: &str = "[data-testid=sim-edit-persona]";

/// `[data-testid=persona-form]`: the form that writes a caller.
pub const PERSONA_FORM: &str = "[data-testid=persona-form]";

/// `[data-testid=persona-title]`.
pub const PERSONA_TITLE: &str = "[data-testid=persona-title]";

/// `[data-testid=persona-who]`.
pub const PERSONA_WHO: &str = "[data-testid=persona-who]";

/// `[data-testid=persona-patience]`.
pub const PERSONA_PATIENCE: &str = "[data-testid=persona-patience]";

/// `[data-testid=persona-add-fact]`.
pub const PERSONA_ADD_FACT: &str = "[data-testid=persona-add-fact]";

/// The last fact row's name.
pub const PERSONA_LAST_FACT_NAME: &str =
    "[data-testid=persona-facts] .persona-row:last-of-type [data-testid=persona-fact-name]";

/// The last fact row's value.
pub const PERSONA_LAST_FACT_VALUE: &str =
    "[data-testid=persona-facts] .persona-row:last-of-type [data-testid=persona-fact-value]";

/// `[data-testid=persona-add-question]`.
pub const PERSONA_ADD_QUESTION: &str = "[data-testid=persona-add-question]";

/// `[data-testid=persona-question]`.
pub const PERSONA_QUESTION: &str = "[data-testid=persona-question]";

/// `[data-testid=persona-save]`.
pub const PERSONA_SAVE: &str = "[data-testid=persona-save]";

/// `[data-testid=persona-error]`.
pub const PERSONA_ERROR: &str = "[data-testid=persona-error]";
