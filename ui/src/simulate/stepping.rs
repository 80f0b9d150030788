//! A simulated conversation read turn by turn (simulate.md, "In the app"): the turn shown (the
//! opening, or after turn k; none: the end), the states it lit up to there and the one it was in,
//! and the steps back and forth. Pure; the canvas lights what [`lit`] says.

use plan_core::simulate::conversation::Conversation;

/// The states conversation `c` went through up to `step` (0: the opening; k: after its k-th
/// turn; none: the whole of it), and the state it was in there.
pub fn lit(c: &Conversation, step: Option<usize>) -> (Vec<String>, Option<String>) {
    let turns = step.map_or(c.transcript.len(), |s| s.min(c.transcript.len()));
    let visited: Vec<String> = c
        .opening
        .iter()
        .map(|o| o.state.clone())
        .chain(c.transcript.iter().take(turns).map(|t| t.state.clone()))
        .collect();
    let current = visited.last().cloned();
    (visited, current)
}

/// The step shown now, as a number (none: the last turn).
pub fn at(step: Option<usize>, turns: usize) -> usize {
    step.map_or(turns, |s| s.min(turns))
}

/// One step back from `step`, none when at the opening.
pub fn back(step: Option<usize>, turns: usize) -> Option<usize> {
    at(step, turns).checked_sub(1)
}

/// One step on from `step`, none when at the last turn.
pub fn on(step: Option<usize>, turns: usize) -> Option<usize> {
    let now = at(step, turns);
    (now < turns).then_some(now + 1)
}

/// "Opening", "After turn 3 of 8".
pub fn step_words(step: Option<usize>, turns: usize) -> String {
    match at(step, turns) {
        0 => format!("The opening, before turn 1 of {turns}"),
        k => format!("After turn {k} of {turns}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn conversation() -> Conversation {
        let turn = |n: u32, state: &str| {
            serde_json::json!({"turn": n, "user": "hi", "reply": "hello", "events": [],
                               "state": state, "deliverables": {}, "session_states": {}})
        };
        serde_json::from_value(serde_json::json!({
            "persona": "calm", "k": 1, "status": "passed", "turns": 3, "ended": "complete",
            "checks": [], "verdicts": [],
            "opening": {"agent": "Welcome.", "state": "greeting"},
            "transcript": [turn(1, "intake"), turn(2, "billing"), turn(3, "farewell")]
        }))
        .unwrap()
    }

    #[test]
    fn a_conversation_is_stepped_from_its_opening_to_its_last_turn() {
        let c = conversation();
        assert_eq!(
            lit(&c, None),
            (
                vec![
                    "greeting".into(),
                    "intake".into(),
                    "billing".into(),
                    "farewell".into()
                ],
                Some("farewell".into())
            )
        );
        assert_eq!(
            lit(&c, Some(0)),
            (vec!["greeting".into()], Some("greeting".into()))
        );
        assert_eq!(lit(&c, Some(2)).1.as_deref(), Some("billing"));
        // From the end: back to turn 2; from the opening no further back.
        assert_eq!(back(None, 3), Some(2));
        assert_eq!(back(Some(0), 3), None);
        assert_eq!(on(Some(2), 3), Some(3));
        assert_eq!(on(None, 3), None);
        assert_eq!(step_words(Some(0), 3), "The opening, before turn 1 of 3");
        assert_eq!(step_words(None, 3), "After turn 3 of 3");
    }
}
