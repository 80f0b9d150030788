//! What a run will ask of the model server, said before it starts (how many requests at most,
//! and about how long from the last run with the same model), and what it asked, said after it
//! (requests, tokens and the model's time by role). Peers bill per turn in a cloud; here the cost
//! is time on the author's machine, and the author sees it first.

use plan_api::messages::{PersonaRow, RoleCost, RunCost, RunRow};
use plan_core::simulate::run_id;

/// The most requests a run makes: caller turns (each caller's patience, every conversation) and
/// judge votes (each question and evaluation, every conversation).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Estimate {
    pub caller_turns: u64,
    /// The language-model agent's replies, one per caller turn (none with the simulator).
    pub agent_replies: u64,
    pub judge_votes: u64,
}

impl Estimate {
    pub fn requests(&self) -> u64 {
        self.caller_turns + self.agent_replies + self.judge_votes
    }
}

/// The estimate of a run of `personas` with `conversations` each, `votes` per question, for a
/// plan with `evaluations` (each asked at most once per conversation), the plan's side answered
/// by the language-model agent when `agent`. Callers whose file cannot be read do not run, and
/// count nothing.
pub fn estimate(
    personas: &[PersonaRow],
    evaluations: usize,
    conversations: u32,
    votes: u32,
    agent: bool,
) -> Estimate {
    let mut e = Estimate {
        caller_turns: 0,
        agent_replies: 0,
        judge_votes: 0,
    };
    for p in personas.iter().filter_map(|p| p.persona.as_ref()) {
        let n = u64::from(conversations);
        e.caller_turns += n * u64::from(p.max_turns);
        e.judge_votes += n * (p.judge.len() + evaluations) as u64 * u64::from(votes);
    }
    if agent {
        e.agent_replies = e.caller_turns;
    }
    e
}

/// "Up to 138 requests to the model server: at most 120 caller turns and 18 judge votes."; with the
/// agent, its replies too (a reply that calls tools asks again, so they are a floor there).
pub fn estimate_words(e: &Estimate) -> String {
    if e.agent_replies > 0 {
        return format!(
            "Up to {} requests to the model servers: at most {} caller turns, {} agent replies (more when the agent calls tools) and {} judge votes.",
            e.requests(),
            e.caller_turns,
            e.agent_replies,
            e.judge_votes
        );
    }
    format!(
        "Up to {} requests to the model server: at most {} caller turns and {} judge votes.",
        e.requests(),
        e.caller_turns,
        e.judge_votes
    )
}

/// About how long `requests` take, from the newest run (not a replay) with the same caller
/// server and model that asked anything: "About 4 min at most, from the run of 6 Dec 2026,
/// 14:11:41 UTC."
pub fn time_words(runs: &[RunRow], caller: (&str, &str), requests: u64) -> Option<String> {
    let (url, model) = (caller.0.trim().trim_end_matches('/'), caller.1.trim());
    let last = runs.iter().find(|r| {
        r.replay_of.is_none()
            && r.caller.0 == url
            && r.caller.1 == model
            && r.cost.caller.requests + r.cost.judge.requests > 0
    })?;
    let asked = u64::from(last.cost.caller.requests + last.cost.judge.requests);
    let ms = (last.cost.caller.ms + last.cost.judge.ms) * requests / asked;
    Some(if ms < 1000 {
        format!(
            "Under a second, from the run of {}.",
            run_id::words(&last.run)
        )
    } else {
        format!(
            "About {} at most, from the run of {}.",
            duration_words(ms),
            run_id::words(&last.run)
        )
    })
}

/// "under a second", "42 s", "4 min", "1 h 5 min".
pub fn duration_words(ms: u64) -> String {
    let s = ms / 1000;
    match s {
        0 => "under a second".into(),
        1..=59 => format!("{s} s"),
        60..=3599 => format!("{} min", s.div_ceil(60)),
        _ => format!("{} h {} min", s / 3600, (s % 3600).div_ceil(60)),
    }
}

/// A run's cost by role, the roles that asked nothing left out: "caller: 12 requests, 3456
/// tokens, 4 s" (the tokens only when the server counted them).
pub fn cost_words(cost: &RunCost) -> Vec<String> {
    let line = |role: &str, c: &RoleCost| {
        (c.requests > 0).then(|| {
            let tokens = c.prompt_tokens + c.completion_tokens;
            let tokens = if tokens > 0 {
                format!("{tokens} tokens, ")
            } else {
                String::new()
            };
            format!(
                "{role}: {} request{}, {tokens}{}",
                c.requests,
                if c.requests == 1 { "" } else { "s" },
                duration_words(c.ms)
            )
        })
    };
    [
        line("caller", &cost.caller),
        line("agent", &cost.agent),
        line("judge", &cost.judge),
    ]
    .into_iter()
    .flatten()
    .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use plan_core::simulate::persona::Persona;

    fn row(max_turns: u32, questions: usize) -> PersonaRow {
        let judge: Vec<serde_json::Value> = (0..questions)
            .map(|i| serde_json::json!({"id": format!("q{i}"), "question": "ok?"}))
            .collect();
        let persona: Persona = serde_json::from_value(serde_json::json!({
            "id": "p", "who": "x", "max_turns": max_turns, "judge": judge
        }))
        .unwrap();
        PersonaRow {
            id: "p".into(),
            name: "p".into(),
            who: "x".into(),
            behaviour: Vec::new(),
            questions: Vec::new(),
            problems: Vec::new(),
            persona: Some(persona),
        }
    }

    fn run(id: &str, caller: (&str, &str), requests: u32, ms: u64, replay: bool) -> RunRow {
        RunRow {
            run: id.into(),
            started: String::new(),
            plan: serde_json::from_value(
                serde_json::json!({"id": "p", "draft": true, "hash": "h"}),
            )
            .unwrap(),
            summary: Vec::new(),
            replay_of: replay.then(|| "r0".to_string()),
            stopped: false,
            caller: (caller.0.into(), caller.1.into()),
            cost: RunCost {
                caller: RoleCost {
                    requests,
                    ms,
                    ..RoleCost::default()
                },
                ..RunCost::default()
            },
        }
    }

    #[test]
    fn a_run_is_counted_before_it_starts_by_patience_questions_and_votes() {
        let mut unreadable = row(5, 0);
        unreadable.persona = None;
        let callers = [row(20, 1), row(10, 0), unreadable];
        let e = estimate(&callers, 2, 3, 3, false);
        // Caller turns: 3 × 20 + 3 × 10; votes: 3 × (1 + 2) × 3 + 3 × (0 + 2) × 3.
        assert_eq!(
            (e.caller_turns, e.agent_replies, e.judge_votes),
            (90, 0, 45)
        );
        assert_eq!(
            estimate_words(&e),
            "Up to 135 requests to the model server: at most 90 caller turns and 45 judge votes."
        );
        // The language-model agent answers each caller turn.
        let e = estimate(&callers, 2, 3, 3, true);
        assert_eq!(
            estimate_words(&e),
            "Up to 225 requests to the model servers: at most 90 caller turns, 90 agent replies (more when the agent calls tools) and 45 judge votes."
        );
    }

    #[test]
    fn the_time_comes_from_the_newest_run_with_the_same_model_and_never_a_replay() {
        let url = "http://localhost:11434/v1";
        let runs = [
            run("r3", (url, "qwen"), 10, 1_000, true),
            run("r2", (url, "other"), 10, 1_000, false),
            run("r1", (url, "qwen"), 10, 20_000, false),
        ];
        assert_eq!(
            time_words(&runs, ("http://localhost:11434/v1/", " qwen"), 30).as_deref(),
            Some("About 1 min at most, from the run of r1.")
        );
        assert_eq!(time_words(&runs, (url, "new-model"), 30), None);
        assert_eq!(
            time_words(&runs, (url, "qwen"), 0).as_deref(),
            Some("Under a second, from the run of r1.")
        );
    }

    #[test]
    fn a_runs_cost_is_said_by_role_leaving_out_the_roles_that_asked_nothing() {
        let cost = RunCost {
            caller: RoleCost {
                requests: 12,
                prompt_tokens: 3000,
                completion_tokens: 456,
                ms: 4_200,
            },
            judge: RoleCost {
                requests: 1,
                ms: 300,
                ..RoleCost::default()
            },
            ..RunCost::default()
        };
        assert_eq!(
            cost_words(&cost),
            [
                "caller: 12 requests, 3456 tokens, 4 s",
                "judge: 1 request, under a second"
            ]
        );
        assert_eq!(duration_words(3_725_000), "1 h 3 min");
    }
}
