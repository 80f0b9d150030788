//! Evaluations (simulate.md, "Evaluations in the plan"; seed 001's "an edge from a state to an
//! evaluation"): judge questions kept with the plan and asked of every simulated conversation,
//! each limited, when the author draws it so, to the turns in which one of some session states
//! was active. The type mirrors the JSON one to one, as in [`crate::plan`].

use serde::{Deserialize, Serialize};

/// One evaluation of the plan.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Evaluation {
    /// `^[a-z0-9][a-z0-9_-]{0,63}$`, unique among evaluations.
    #[cfg_attr(feature = "schema", schemars(pattern(r"^[a-z0-9][a-z0-9_-]{0,63}$")))]
    pub id: String,
    /// Its name on the canvas, in the author's words ("Polite while escalated").
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub title: String,
    /// What the judge is asked, answered yes or no ("Did the agent stay calm?").
    pub question: String,
    /// Session state ids: asked only of conversations in which one of them was active, and shown
    /// only those turns. Empty: asked about the whole conversation.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub only_while_active: Vec<String>,
}

impl Evaluation {
    /// Its title, else its id: how the app and the CLI name it.
    pub fn name(&self) -> &str {
        if self.title.trim().is_empty() {
            &self.id
        } else {
            &self.title
        }
    }

    /// Whether it is asked only while some session states are active.
    pub fn is_limited(&self) -> bool {
        !self.only_while_active.is_empty()
    }
}
