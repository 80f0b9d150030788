//! The test chat's agent, decided here and tested without a browser: a failed model turn (kept
//! with its message, for Retry or the simulator), who answers a turn, the model's calls and the
//! goal check as the transcript folds them under a reply, and the settings form read into
//! settings (each field's mistake said by its name).

use plan_api::messages::{AgentChoice, AgentKind, AgentSettings};
use plan_api::{ApiError, ErrorCode};
use plan_core::runtime::Turn;
use serde_json::Value;

/// A turn the language model failed: nothing was applied; the message waits for a retry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FailedTurn {
    pub message: String,
    /// What failed and what to do, in the agent's words.
    pub reason: String,
}

/// The failed turn `error` makes of `message`, when it is the agent's failure (the others are
/// ordinary errors: an ended conversation, a plan that changed).
pub fn failed_turn(error: &ApiError, message: &str) -> Option<FailedTurn> {
    (error.code == ErrorCode::Agent).then(|| FailedTurn {
        message: message.to_string(),
        reason: error.message.clone(),
    })
}

/// Who answers a turn: `agent`, or the simulator for a turn the model failed with `fallback`.
pub fn choice(agent: AgentKind, fallback: Option<&str>) -> AgentChoice {
    AgentChoice {
        agent,
        fallback: fallback.map(str::to_string),
    }
}

/// One line under a reply: what the model called and what became of it, or the goal check.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct CallLine {
    pub function: String,
    pub accepted: bool,
    pub text: String,
}

/// An argument as the line shows it: text as is, the rest as JSON.
fn shown(v: &Value) -> String {
    match v {
        Value::String(s) => format!("\"{s}\""),
        other => other.to_string(),
    }
}

/// The model's calls of a turn, then its goal checks, one line each:
/// `record_deliverable(key "customer_name", value "Chloe") → accepted`.
pub fn call_lines(turn: &Turn) -> Vec<CallLine> {
    let mut lines: Vec<CallLine> = turn
        .calls
        .iter()
        .map(|c| {
            let args = c
                .arguments
                .as_object()
                .map(|m| {
                    m.iter()
                        .map(|(k, v)| format!("{k} {}", shown(v)))
                        .collect::<Vec<_>>()
                        .join(", ")
                })
                .unwrap_or_default();
            CallLine {
                function: c.function.clone(),
                accepted: c.accepted,
                text: format!("{}({args}) → {}", c.function, c.result),
            }
        })
        .collect();
    lines.extend(turn.goal_checks.iter().map(|g| {
        let verdict = if g.met { "yes" } else { "no" };
        let reason = if g.reason.is_empty() {
            String::new()
        } else {
            format!(": {}", g.reason)
        };
        CallLine {
            function: "goal_check".into(),
            accepted: g.met,
            text: format!("Goal check before {}: {verdict}{reason}", g.function),
        }
    }));
    lines
}

/// What a model turn cost, as its reply says it ("312 + 40 tokens, 1.8 s"); none for the
/// simulator's.
pub fn cost_line(turn: &Turn) -> Option<String> {
    turn.ms
        .map(|ms| plan_api::agent::turn_cost_text(turn.usage, ms))
}

/// What the model's turns of the conversation cost together, for the chat's foot.
pub fn conversation_cost(turns: &[Turn]) -> Option<String> {
    plan_api::agent::conversation_cost_text(turns.iter().map(|t| (t.usage, t.ms)))
        .map(|c| format!("Language model: {c}"))
}

/// The turn under whose reply the chat says, once, that the model does not call functions.
pub fn no_functions_turn(turns: &[Turn]) -> Option<u32> {
    let facts = turns.iter().map(|t| {
        t.ms.map(|_| plan_api::agent::ModelTurnCalls {
            called: !t.calls.is_empty(),
            uncalled: t.uncalled,
        })
    });
    plan_api::agent::uncalled_notice_at(facts).map(|i| turns[i].number)
}

/// Who wrote a reply, as the transcript labels it. In a conversation where the model takes part
/// (`mixed`) every reply says who wrote it, the simulator's opening too; in a simulator chat none
/// does.
pub fn writer_label(turn: &Turn, mixed: bool) -> Option<&'static str> {
    let fell_back = turn
        .events
        .iter()
        .any(|e| matches!(e.what, plan_core::runtime::What::AgentFallback { .. }));
    match (turn.by, fell_back) {
        (AgentKind::LanguageModel, _) => Some("Language model"),
        (AgentKind::Simulator, true) => Some("Simulator, for the model"),
        (AgentKind::Simulator, false) if mixed && turn.number == 0 => {
            Some("Simulator (the opening)")
        }
        (AgentKind::Simulator, false) if mixed => Some("Simulator"),
        (AgentKind::Simulator, false) => None,
    }
}

/// Whether the model takes part in a conversation: it wrote a turn, or it answers the next one.
pub fn model_takes_part(turns: &[Turn], agent: AgentKind) -> bool {
    agent == AgentKind::LanguageModel || turns.iter().any(|t| t.by == AgentKind::LanguageModel)
}

/// The settings form as typed: every field as text.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SettingsForm {
    pub base_url: String,
    pub model: String,
    pub api_key_env: String,
    pub temperature: String,
    /// Empty: none sent.
    pub seed: String,
    pub timeout_s: String,
}

impl SettingsForm {
    pub fn of(s: &AgentSettings) -> SettingsForm {
        SettingsForm {
            base_url: s.base_url.clone(),
            model: s.model.clone(),
            api_key_env: s.api_key_env.clone().unwrap_or_default(),
            temperature: s.temperature.to_string(),
            seed: s.seed.map(|n| n.to_string()).unwrap_or_default(),
            timeout_s: s.timeout_s.to_string(),
        }
    }

    /// The settings the form says; a number that does not read is said by its field's name (the
    /// rest is checked by the shell, which refuses with the same words as the CLI).
    pub fn read(&self) -> Result<AgentSettings, String> {
        let temperature = self.temperature.trim();
        let temperature = if temperature.is_empty() {
            0.0
        } else {
            temperature
                .replace(',', ".")
                .parse::<f64>()
                .map_err(|_| format!("temperature: \"{temperature}\" is not a number"))?
        };
        let timeout = self.timeout_s.trim();
        let timeout_s = if timeout.is_empty() {
            60
        } else {
            timeout
                .parse::<u64>()
                .map_err(|_| format!("timeout: \"{timeout}\" is not a whole number of seconds"))?
        };
        let seed = self.seed.trim();
        let seed = if seed.is_empty() {
            None
        } else {
            Some(
                seed.parse::<u64>()
                    .map_err(|_| format!("seed: \"{seed}\" is not a whole number"))?,
            )
        };
        let key = self.api_key_env.trim();
        Ok(AgentSettings {
            base_url: self.base_url.trim().to_string(),
            model: self.model.trim().to_string(),
            api_key_env: (!key.is_empty()).then(|| key.to_string()),
            temperature,
            seed,
            timeout_s,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use plan_core::runtime::{GoalCheck, ToolCallRecord};
    use serde_json::json;

    fn turn() -> Turn {
        Turn {
            number: 1,
            user: Some("hi".into()),
            reply: "Hello".into(),
            events: Vec::new(),
            transition: None,
            prompt: String::new(),
            parked: None,
            by: AgentKind::LanguageModel,
            calls: vec![ToolCallRecord {
                function: "record_deliverable".into(),
                arguments: json!({"key": "customer_name", "value": "Chloe"}),
                accepted: true,
                result: "accepted".into(),
            }],
            goal_checks: vec![GoalCheck {
                function: "close_goal".into(),
                met: false,
                reason: "no date yet".into(),
            }],
            usage: Some(plan_core::runtime::Usage {
                prompt_tokens: 312,
                completion_tokens: 40,
            }),
            ms: Some(1_840),
            uncalled: false,
        }
    }

    #[test]
    fn a_model_turn_says_its_cost_the_foot_sums_them_and_a_model_without_functions_is_said_once() {
        assert_eq!(
            cost_line(&turn()).as_deref(),
            Some("312 + 40 tokens, 1.8 s")
        );
        let opening = Turn {
            number: 0,
            by: AgentKind::Simulator,
            calls: Vec::new(),
            usage: None,
            ms: None,
            ..turn()
        };
        assert_eq!(cost_line(&opening), None);
        let silent = |n: u32| Turn {
            number: n,
            calls: Vec::new(),
            goal_checks: Vec::new(),
            uncalled: true,
            ..turn()
        };
        let turns = [opening.clone(), silent(1), silent(2), silent(3)];
        assert_eq!(no_functions_turn(&turns), Some(2));
        assert_eq!(
            conversation_cost(&turns).as_deref(),
            Some("Language model: 3 turns, 1,056 tokens (936 in, 120 out), 5.5 s")
        );
        assert_eq!(
            no_functions_turn(&[opening.clone(), turn(), silent(2), silent(3)]),
            None
        );
        assert_eq!(conversation_cost(&[opening]), None);
    }

    #[test]
    fn the_models_calls_and_the_goal_check_are_one_line_each() {
        let lines = call_lines(&turn());
        assert_eq!(
            lines[0].text,
            "record_deliverable(key \"customer_name\", value \"Chloe\") → accepted"
        );
        assert_eq!(
            lines[1].text,
            "Goal check before close_goal: no: no date yet"
        );
        assert!(!lines[1].accepted);
        assert_eq!(writer_label(&turn(), true), Some("Language model"));
        let opening = Turn {
            number: 0,
            by: AgentKind::Simulator,
            ..turn()
        };
        assert_eq!(writer_label(&opening, false), None);
        assert_eq!(
            writer_label(&opening, true),
            Some("Simulator (the opening)")
        );
        assert!(model_takes_part(&[opening], AgentKind::LanguageModel));
    }

    #[test]
    fn only_the_agents_failure_is_a_failed_turn_kept_for_retry() {
        let e = ApiError::new(
            ErrorCode::Agent,
            "could not reach http://localhost:11434/v1",
        );
        let f = failed_turn(&e, "my PIN is 1234").unwrap();
        assert_eq!(f.message, "my PIN is 1234");
        assert_eq!(
            failed_turn(&ApiError::new(ErrorCode::Ended, "ended"), "x"),
            None
        );
        let c = choice(AgentKind::LanguageModel, Some(&f.reason));
        assert_eq!(c.fallback.as_deref(), Some(f.reason.as_str()));
    }

    #[test]
    fn the_settings_form_reads_its_numbers_and_names_a_bad_one() {
        let form = SettingsForm {
            base_url: " http://localhost:11434/v1 ".into(),
            model: "llama3.1".into(),
            api_key_env: " ".into(),
            temperature: "0,2".into(),
            seed: "7".into(),
            timeout_s: "30".into(),
        };
        let s = form.read().unwrap();
        assert_eq!(
            (
                s.base_url.as_str(),
                s.api_key_env.clone(),
                s.temperature,
                s.timeout_s
            ),
            ("http://localhost:11434/v1", None, 0.2, 30)
        );
        let bad = SettingsForm {
            timeout_s: "soon".into(),
            ..form
        };
        assert_eq!(
            bad.read().unwrap_err(),
            "timeout: \"soon\" is not a whole number of seconds"
        );
        assert_eq!(SettingsForm::of(&s).read().unwrap(), s);
    }
}
