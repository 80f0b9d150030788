//! The checks of rules (explore.md, "Rules") beyond their shape (`parse`): the states and tools
//! they name exist, and their conditions are checked as an interruption's are (every key, tool and
//! session state named exists and fits).

use super::{at, Code, Validator};

impl Validator<'_, '_> {
    pub(super) fn rules(&mut self) {
        let plan = self.plan;
        for (i, rule) in plan.rules.iter().enumerate() {
            let states = [
                ("state_id", &rule.state_id),
                ("first_state_id", &rule.first_state_id),
                ("then_state_id", &rule.then_state_id),
            ];
            for (field, state) in states {
                let Some(state) = state else { continue };
                if !self.index_of.contains_key(state.as_str()) {
                    self.push(
                        Code::UnknownState,
                        format!("The rule '{}' names the state '{state}', but no state has that id. Pick an existing state.", rule.name()),
                        at(format!("/rules/{i}/{field}")),
                    );
                }
            }
            if let Some(tool) = &rule.tool {
                if !self.tools.contains_key(tool.as_str()) {
                    self.push(
                        Code::UnknownTool,
                        format!("The rule '{}' names the tool '{tool}', but the plan declares no such tool. Declare it, or pick a declared tool.", rule.name()),
                        at(format!("/rules/{i}/tool")),
                    );
                }
            }
            if let Some(condition) = &rule.condition {
                let path = || format!("/rules/{i}/condition");
                let name = || format!("The condition of the rule '{}'", rule.name());
                self.standalone(condition, &path, &name);
            }
        }
    }
}
