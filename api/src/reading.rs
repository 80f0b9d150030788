//! The large answers (the first screen, a plan, a version, a comparison: each carries whole
//! plans) read from their JSON bytes, as the window receives them. Plain functions, not one
//! generic one, so that their code is made in this crate, at its optimisation level: the
//! window's release build optimises its own crate for size (the workspace's `ui-release`
//! profile) and would otherwise make this code there, where reading a large plan is slower.

use crate::messages::{Comparison, LoadedPlan, LoadedVersion, Started};
use plan_core::deep_json;

/// The first screen's answer ([`crate::messages::START`]).
#[inline(never)]
pub fn started(bytes: &[u8]) -> serde_json::Result<Started> {
    deep_json::from_slice(bytes)
}

/// A plan's draft ([`crate::messages::LOAD_PLAN`]).
#[inline(never)]
pub fn loaded_plan(bytes: &[u8]) -> serde_json::Result<LoadedPlan> {
    deep_json::from_slice(bytes)
}

/// A version ([`crate::messages::LOAD_VERSION`]).
#[inline(never)]
pub fn loaded_version(bytes: &[u8]) -> serde_json::Result<LoadedVersion> {
    deep_json::from_slice(bytes)
}

/// Two revisions compared ([`crate::messages::COMPARE`]).
#[inline(never)]
pub fn comparison(bytes: &[u8]) -> serde_json::Result<Comparison> {
    deep_json::from_slice(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::messages::OpenedPlan;

    #[test]
    fn a_first_screen_reads_back_as_it_was_written() {
        let plan =
            plan_core::parse_plan(include_str!("../../plans/customer-support.json")).unwrap();
        let answer = Started {
            plans: vec![],
            opened: Some(OpenedPlan {
                id: "support".into(),
                loaded: LoadedPlan {
                    plan: plan.clone(),
                    source: "plans/support/draft.json".into(),
                },
            }),
            unopened: None,
        };
        let bytes = serde_json::to_vec(&answer).unwrap();
        assert_eq!(started(&bytes).unwrap(), answer);
        let loaded = serde_json::to_vec(&answer.opened.unwrap().loaded).unwrap();
        assert_eq!(loaded_plan(&loaded).unwrap().plan, plan);
        assert!(comparison(b"{\"a\": 1}").is_err());
    }
}
