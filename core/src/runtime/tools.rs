//! Which tools the agent has now: the one rule the simulator's hint, the language model's
//! `call_tool`, the runtime's check of a call and the test chat's tool buttons follow.

use super::Session;
use crate::plan::Plan;

/// The tools the agent has now, in the order the state allows them: allowed in the session's
/// current state and not gated off by `available_when`, each with its declaration when the plan
/// declares it. The one rule the simulator's hint, the language model's `call_tool` and the test
/// chat's tool buttons follow.
pub fn tools_available_now<'p>(
    plan: &'p Plan,
    s: &'p Session,
) -> impl Iterator<Item = (&'p str, Option<&'p crate::plan::Tool>)> {
    plan.state(&s.state_id)
        .into_iter()
        .flat_map(|state| state.allowed_tools.iter())
        .filter(move |name| tool_available(plan, s, name))
        .map(move |name| (name.as_str(), plan.tool(name)))
}

/// Whether tool `name` exists for the agent now: it names no session states in `available_when`,
/// or one of them is active (a tool the plan does not declare is not refused here).
pub fn tool_available(plan: &Plan, s: &Session, name: &str) -> bool {
    plan.tool(name).is_none_or(|t| {
        t.available_when.is_empty()
            || t.available_when
                .iter()
                .any(|id| super::switching::is_active(s, id))
    })
}
