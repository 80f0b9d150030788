//! A plan written as compact JSON again and again while it is edited (the editor's autosave):
//! each state's text is kept from the last time, so writing a plan in which one state changed
//! writes that one state and copies the rest. The bytes are exactly `serde_json::to_vec(plan)`'s.
//!
//! A state is known by the state itself, not its id: the states an edit did not touch are the
//! very states of the plan before (`Plan::states` shares them), and a state kept here is held, so
//! its address cannot be reused by another while it is known.

use std::collections::HashMap;
use std::sync::Arc;

use crate::plan::{Plan, State};

/// The compact JSON of the states of the plan written last.
#[derive(Debug, Default)]
pub struct PlanJson {
    /// By the address of the state, which the `Arc` beside it holds.
    states: HashMap<usize, (Arc<State>, Vec<u8>)>,
}

fn address(s: &Arc<State>) -> usize {
    Arc::as_ptr(s) as usize
}

/// Where the plan's own fields put the list of states: the first `"states":` followed by an
/// empty list. Nothing before it can hold those bytes: the fields written before `states`
/// (schema version, id, title, description, instructions, start state) are a number and strings,
/// and inside a string a quote is escaped.
const EMPTY_STATES: &[u8] = br#""states":[]"#;

impl PlanJson {
    /// Writes ahead the text of up to `count` states of `plan` not written yet, so that a first
    /// save of a large plan can be prepared in small steps; says whether every state is ready.
    pub fn prepare(&mut self, plan: &Plan, count: usize) -> Result<bool, serde_json::Error> {
        let mut left = count;
        for s in &plan.states {
            if self.states.contains_key(&address(s)) {
                continue;
            }
            if left == 0 {
                return Ok(false);
            }
            self.states
                .insert(address(s), (s.clone(), serde_json::to_vec(&**s)?));
            left -= 1;
        }
        Ok(true)
    }

    /// The plan's compact JSON (what `serde_json::to_vec` writes), reusing the text of every
    /// state that was in the plan written last.
    pub fn write(&mut self, plan: &Plan) -> Result<Vec<u8>, serde_json::Error> {
        let root = serde_json::to_vec(&plan.without_states())?;
        let Some(at) = root
            .windows(EMPTY_STATES.len())
            .position(|w| w == EMPTY_STATES)
        else {
            // Not reached (the field is always written), but never a wrong file.
            return serde_json::to_vec(plan);
        };
        let mut kept = HashMap::with_capacity(plan.states.len());
        for s in &plan.states {
            let key = address(s);
            let entry = match self.states.remove(&key) {
                Some(entry) => entry,
                None => (s.clone(), serde_json::to_vec(&**s)?),
            };
            kept.insert(key, entry);
        }
        let size =
            root.len() + plan.states.len() + kept.values().map(|(_, b)| b.len()).sum::<usize>();
        let mut out = Vec::with_capacity(size);
        let open = at + EMPTY_STATES.len() - 1;
        out.extend_from_slice(&root[..open]);
        for (i, s) in plan.states.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            if let Some((_, bytes)) = kept.get(&address(s)) {
                out.extend_from_slice(bytes);
            }
        }
        out.extend_from_slice(&root[open..]);
        self.states = kept;
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::edit::{apply, Command};

    fn same_as_serde(json: &mut PlanJson, plan: &Plan) {
        let ours = json.write(plan).unwrap();
        let theirs = serde_json::to_vec(plan).unwrap();
        assert!(ours == theirs, "the bytes differ from serde_json's");
    }

    #[test]
    fn writes_what_serde_json_writes_for_every_sample_and_after_edits() {
        let samples = [
            include_str!("../../plans/customer-support.json"),
            include_str!("../../plans/account-care.json"),
            include_str!("../../plans/vehicle-viewing.json"),
            include_str!("../../plans/daily-routine.json"),
        ];
        for text in samples {
            let plan = crate::parse_plan(text).unwrap();
            let mut json = PlanJson::default();
            same_as_serde(&mut json, &plan);
            // Again, from what it kept.
            same_as_serde(&mut json, &plan);
        }
        let mut plan = crate::synthetic::with_session_states(300, 10);
        let mut json = PlanJson::default();
        same_as_serde(&mut json, &plan);
        let edits = [Command::ReplaceState {
            id: "s3".into(),
            state: Box::new({
                let mut s = plan.state("s3").unwrap().clone();
                s.description = "Typed \"quoted\" \"states\":[] text".into();
                s
            }),
        }];
        for edit in edits.iter().chain(&crate::synthetic::list_edits()) {
            plan = apply(&plan, edit).unwrap().plan;
            same_as_serde(&mut json, &plan);
        }
        plan.description = "\"states\":[] in a description".into();
        same_as_serde(&mut json, &plan);
        plan.states.clear();
        same_as_serde(&mut json, &plan);
    }

    #[test]
    fn states_written_ahead_are_used_by_the_next_write() {
        let plan = crate::synthetic::plan(250);
        let mut json = PlanJson::default();
        assert!(!json.prepare(&plan, 100).unwrap());
        assert_eq!(json.states.len(), 100);
        assert!(!json.prepare(&plan, 100).unwrap());
        assert!(json.prepare(&plan, 100).unwrap());
        let ahead = json.states[&address(&plan.states[3])].1.as_ptr();
        same_as_serde(&mut json, &plan);
        assert_eq!(json.states[&address(&plan.states[3])].1.as_ptr(), ahead);
    }

    #[test]
    fn a_state_shared_with_the_plan_written_last_is_not_written_again() {
        let plan = crate::synthetic::plan(100);
        let mut json = PlanJson::default();
        json.write(&plan).unwrap();
        let kept: Vec<*const u8> = plan
            .states
            .iter()
            .map(|s| json.states[&address(s)].1.as_ptr())
            .collect();
        let mut edited = plan.clone();
        std::sync::Arc::make_mut(&mut edited.states[7]).title = "Changed".into();
        json.write(&edited).unwrap();
        for (i, s) in edited.states.iter().enumerate() {
            let now = json.states[&address(s)].1.as_ptr();
            assert_eq!(now == kept[i], i != 7, "state {i}");
        }
        assert_eq!(json.states.len(), 100, "nothing of the old state 7 is kept");
    }
}
