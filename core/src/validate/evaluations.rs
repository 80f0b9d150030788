//! The checks of evaluations (simulate.md, "Evaluations in the plan"): ids are unique, each asks
//! something, and the session states that limit one exist.

use std::collections::HashSet;

use super::{at, Code, Validator};

impl Validator<'_, '_> {
    pub(super) fn evaluations(&mut self) {
        let plan = self.plan;
        let mut ids = HashSet::new();
        for (i, evaluation) in plan.evaluations.iter().enumerate() {
            let name = evaluation.name();
            if !ids.insert(evaluation.id.as_str()) {
                self.push(
                    Code::DuplicateEvaluation,
                    format!(
                        "Two evaluations have the id '{}'. Give each evaluation its own id.",
                        evaluation.id
                    ),
                    at(format!("/evaluations/{i}/id")),
                );
            }
            if evaluation.question.trim().is_empty() {
                self.push(
                    Code::EmptyEvaluationQuestion,
                    format!("The evaluation '{name}' asks nothing. Write the question the judge answers yes or no, such as \"Did the agent confirm the amount before booking?\"."),
                    at(format!("/evaluations/{i}/question")),
                );
            }
            for (m, id) in evaluation.only_while_active.iter().enumerate() {
                if !self.session_of.contains_key(id.as_str()) {
                    self.push(
                        Code::UnknownSessionState,
                        format!("The evaluation '{name}' is asked only while the session state '{id}' is active, but the plan has no such session state. Pick one of the plan's session states, or remove it."),
                        at(format!("/evaluations/{i}/only_while_active/{m}")),
                    );
                }
            }
        }
    }
}
