//! Rules: what the author wants guaranteed of every conversation the plan allows (explore.md,
//! "Rules"). Kept with the plan and versioned with it; validation checks what they name, and the
//! explorer checks each conversation against them. The types mirror the JSON one to one, as in
//! [`crate::plan`]: `{"id", "title", "kind", …the kind's fields}`.

use serde::{Deserialize, Serialize};

use crate::condition::Condition;

/// One rule of the plan.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rule {
    /// `^[a-z0-9][a-z0-9_-]{0,63}$`, unique among rules.
    #[cfg_attr(feature = "schema", schemars(pattern(r"^[a-z0-9][a-z0-9_-]{0,63}$")))]
    pub id: String,
    /// What it guarantees, in the author's words ("Refund only after identity is verified").
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub title: String,
    /// Which kind of rule: `never_enters_unless`, `tool_only_when`, `visits_before`, `reaches` or
    /// `can_always_end`.
    pub kind: RuleKind,
    /// `never_enters_unless`, `reaches`: the state.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub state_id: Option<String>,
    /// `tool_only_when`: the tool.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool: Option<String>,
    /// `never_enters_unless`, `tool_only_when`: what must be true.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub condition: Option<Condition>,
    /// `visits_before`: the state entered first.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_state_id: Option<String>,
    /// `visits_before`: the state entered only after it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub then_state_id: Option<String>,
}

/// The kinds of rule.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RuleKind {
    /// Broken when a conversation enters `state_id` while `condition` is false.
    NeverEntersUnless,
    /// Broken when `tool` is called (an accepted call) while `condition` is false.
    ToolOnlyWhen,
    /// Broken when a conversation enters `then_state_id` without having entered
    /// `first_state_id` earlier.
    VisitsBefore,
    /// Broken when no conversation enters `state_id`.
    Reaches,
    /// Broken when some conversation reaches a dead end.
    CanAlwaysEnd,
}

impl RuleKind {
    /// The fields a rule of this kind must have, by their JSON names.
    pub fn fields(self) -> &'static [&'static str] {
        match self {
            RuleKind::NeverEntersUnless => &["state_id", "condition"],
            RuleKind::ToolOnlyWhen => &["tool", "condition"],
            RuleKind::VisitsBefore => &["first_state_id", "then_state_id"],
            RuleKind::Reaches => &["state_id"],
            RuleKind::CanAlwaysEnd => &[],
        }
    }

    /// Its name in the format.
    pub fn as_str(self) -> &'static str {
        match self {
            RuleKind::NeverEntersUnless => "never_enters_unless",
            RuleKind::ToolOnlyWhen => "tool_only_when",
            RuleKind::VisitsBefore => "visits_before",
            RuleKind::Reaches => "reaches",
            RuleKind::CanAlwaysEnd => "can_always_end",
        }
    }
}

impl Rule {
    /// The name an author reads: the title, else the id.
    pub fn name(&self) -> &str {
        if self.title.is_empty() {
            &self.id
        } else {
            &self.title
        }
    }

    /// Whether it has field `name` (by its JSON name).
    pub fn has(&self, name: &str) -> bool {
        match name {
            "state_id" => self.state_id.is_some(),
            "tool" => self.tool.is_some(),
            "condition" => self.condition.is_some(),
            "first_state_id" => self.first_state_id.is_some(),
            "then_state_id" => self.then_state_id.is_some(),
            _ => false,
        }
    }

    /// The fields it has by its JSON names, of those any kind has.
    pub fn fields_given(&self) -> Vec<&'static str> {
        [
            "state_id",
            "tool",
            "condition",
            "first_state_id",
            "then_state_id",
        ]
        .into_iter()
        .filter(|f| self.has(f))
        .collect()
    }
}
