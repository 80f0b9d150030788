//! The checks of interruptions (docs/interruptions.md): ids, targets and `only_in`, their conditions
//! (as a session state's rule is checked), `visit_count_exceeded`'s state, and the two questions
//! the graph answers: a return point the conversation can reach with nothing parked, and a detour
//! that can never come back.

use super::{at, Code, Location, Validator};
use crate::condition::Check;
use crate::plan::InterruptionKind;

impl<'p> Validator<'p, '_> {
    pub(super) fn interruptions(&mut self) {
        let plan = self.plan;
        let mut seen: Vec<&str> = Vec::with_capacity(plan.interruptions.len());
        for (i, interruption) in plan.interruptions.iter().enumerate() {
            let id = interruption.id.as_str();
            let here = |field: &str| at(format!("/interruptions/{i}{field}"));
            if seen.contains(&id) {
                self.push(
                    Code::DuplicateInterruption,
                    format!("Two interruptions have the id '{id}'. Give this one another id."),
                    here("/id"),
                );
            }
            seen.push(id);
            let target = interruption.target_state_id.as_str();
            if !self.index_of.contains_key(target) {
                self.push(
                    Code::UnknownTargetState,
                    format!("The interruption '{}' goes to '{target}', but no state has that id. Pick an existing state, or create '{target}'.", interruption.name()),
                    here("/target_state_id"),
                );
            }
            for (k, state) in interruption.only_in.iter().enumerate() {
                if !self.index_of.contains_key(state.as_str()) {
                    self.push(
                        Code::UnknownState,
                        format!("The interruption '{}' can fire only in '{state}', but no state has that id. Pick an existing state, or remove it from the list.", interruption.name()),
                        here(&format!("/only_in/{k}")),
                    );
                }
            }
            if let Some(condition) = &interruption.condition {
                let path = || format!("/interruptions/{i}/condition");
                let name = || {
                    format!(
                        "The condition of the interruption '{}'",
                        interruption.name()
                    )
                };
                self.standalone(condition, &path, &name);
            }
        }
        self.detours();
    }

    /// `resume-outside-detour` and `detour-without-return`, from the graph.
    fn detours(&mut self) {
        let plan = self.plan;
        let start = plan
            .start_state_id()
            .and_then(|id| self.index_of.get(id).copied());
        if let Some(start) = start {
            for i in self.graph.resume_outside_detour(plan, start) {
                let state = &plan.states[i];
                self.push(
                    Code::ResumeOutsideDetour,
                    format!("'{}' returns to the parked task, but the conversation can reach it without a detour (no task parked), where it would simply end. Reach it only from a detour, or give it another ending.", state.title),
                    Location {
                        path: format!("/states/{i}/ending"),
                        state_id: Some(state.id.clone()),
                        ..Location::default()
                    },
                );
            }
        }
        let yields = plan
            .interruptions
            .iter()
            .enumerate()
            .filter(|(_, x)| x.kind == InterruptionKind::Yield);
        let mut back: Option<Vec<bool>> = None;
        for (i, interruption) in yields {
            let Some(&target) = self.index_of.get(interruption.target_state_id.as_str()) else {
                continue;
            };
            let back = back.get_or_insert_with(|| self.graph.reaches_return(plan));
            if !back[target] {
                self.push(
                    Code::DetourWithoutReturn,
                    format!("The interruption '{}' parks the task and goes to '{}', but no return point can be reached from there, so the parked task is never resumed. Add a state that returns to the parked task (ending: Return to the parked task) after the detour.", interruption.name(), plan.states[target].title),
                    at(format!("/interruptions/{i}/target_state_id")),
                );
            }
        }
    }

    /// `visit_count_exceeded`: its `state_id`, when given, names a state.
    pub(super) fn visit_leaf(
        &mut self,
        check: &Check,
        name: &dyn Fn() -> String,
        config: &dyn Fn() -> String,
        loc: &dyn Fn(String) -> Location,
    ) {
        if let Check::VisitCountExceeded {
            state_id: Some(id), ..
        } = check
        {
            if !self.index_of.contains_key(*id) {
                self.push(
                    Code::UnknownState,
                    format!("{} counts the visits to '{id}', but no state has that id. Pick an existing state.", name()),
                    loc(format!("{}/state_id", config())),
                );
            }
        }
    }
}
