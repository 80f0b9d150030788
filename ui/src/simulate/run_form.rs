//! A run's settings as the author types them in the Simulate tab (simulate.md, "A run"): the
//! three roles (the caller's model server and model; the plan's side, the simulator or the
//! language-model agent; the judge, by default the caller's), conversations per caller, votes
//! per question, conversations side by side. Pure: [`settings_of`] turns them into the run's
//! settings or says, in words, what is missing; the counts are the API's to refuse.

use plan_api::messages::{AgentSettings, PlanSide, RunSettings};

/// The run's settings as typed.
#[derive(Debug, Clone, PartialEq)]
pub struct RunFields {
    pub caller_url: String,
    pub caller_model: String,
    /// The language-model agent answers for the plan (else the simulator).
    pub agent_llm: bool,
    /// The agent's server and model; empty: the caller's.
    pub agent_url: String,
    pub agent_model: String,
    /// A judge of its own (else the caller's server and model).
    pub own_judge: bool,
    /// The judge's server and model; empty: the caller's.
    pub judge_url: String,
    pub judge_model: String,
    pub conversations: u32,
    pub votes: u32,
    pub parallel: u32,
}

impl Default for RunFields {
    fn default() -> Self {
        RunFields {
            caller_url: String::new(),
            caller_model: String::new(),
            agent_llm: false,
            agent_url: String::new(),
            agent_model: String::new(),
            own_judge: false,
            judge_url: String::new(),
            judge_model: String::new(),
            conversations: 3,
            votes: 3,
            parallel: 1,
        }
    }
}

/// Which role a server belongs to, for the words that say what is missing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Role {
    Caller,
    Agent,
    Judge,
}

impl Role {
    fn whose(self) -> &'static str {
        match self {
            Role::Caller => "the caller's",
            Role::Agent => "the agent's",
            Role::Judge => "the judge's",
        }
    }
}

/// The run's settings from `f`; or what is missing, in words.
pub fn settings_of(f: &RunFields) -> Result<RunSettings, String> {
    let caller = endpoint(Role::Caller, &f.caller_url, &f.caller_model, None, 0.7)?;
    let agent = if f.agent_llm {
        PlanSide::Llm {
            settings: endpoint(
                Role::Agent,
                &f.agent_url,
                &f.agent_model,
                Some(&caller),
                AgentSettings::default().temperature,
            )?,
        }
    } else {
        PlanSide::Simulator
    };
    let judge = if f.own_judge {
        endpoint(
            Role::Judge,
            &f.judge_url,
            &f.judge_model,
            Some(&caller),
            0.7,
        )?
    } else {
        caller.clone()
    };
    // Counts as typed: what a run may be is the API's to say, in the same words as `plan simulate`.
    Ok(RunSettings {
        conversations: f.conversations,
        caller,
        agent,
        judge,
        votes: f.votes,
        min_agreement: 1.0,
        judge_temperature: 0.7,
        parallel: f.parallel,
    })
}

/// One role's server and model; an empty field takes `fallback`'s (the caller's).
fn endpoint(
    role: Role,
    url: &str,
    model: &str,
    fallback: Option<&AgentSettings>,
    temperature: f64,
) -> Result<AgentSettings, String> {
    let url = match (url.trim(), fallback) {
        ("", Some(f)) => f.base_url.clone(),
        (url, _) => url.trim_end_matches('/').to_string(),
    };
    if !(url.starts_with("http://") || url.starts_with("https://")) {
        return Err(format!(
            "Give the address of {} model server, such as http://localhost:11434/v1.",
            role.whose()
        ));
    }
    let model = match (model.trim(), fallback) {
        ("", Some(f)) => f.model.clone(),
        (model, _) => model.to_string(),
    };
    // Only the caller's can be empty: the other roles take its model.
    if model.is_empty() {
        return Err("Give the name of the model that plays the callers.".into());
    }
    Ok(AgentSettings {
        base_url: url,
        model,
        temperature,
        ..AgentSettings::default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fields(url: &str, model: &str) -> RunFields {
        RunFields {
            caller_url: url.into(),
            caller_model: model.into(),
            ..RunFields::default()
        }
    }

    #[test]
    fn the_form_needs_a_server_and_a_model_and_leaves_the_counts_to_the_api() {
        assert_eq!(
            settings_of(&fields("localhost:11434", "m")),
            Err(
                "Give the address of the caller's model server, such as http://localhost:11434/v1."
                    .into()
            )
        );
        assert_eq!(
            settings_of(&fields("http://localhost:11434/v1", " ")),
            Err("Give the name of the model that plays the callers.".into())
        );
        let f = RunFields {
            conversations: 0,
            votes: 4,
            parallel: 0,
            ..fields(" http://localhost:11434/v1/ ", "qwen")
        };
        let s = settings_of(&f).unwrap();
        assert_eq!(s.caller.base_url, "http://localhost:11434/v1");
        // Not mended here: the API refuses them with the words `plan simulate` uses.
        assert_eq!((s.conversations, s.votes, s.parallel), (0, 4, 0));
        assert_eq!(s.judge, s.caller);
        assert_eq!(s.agent, PlanSide::Simulator);
    }

    /// The agent and a judge of its own take the caller's server or model where left empty, and
    /// say which role's address is wrong.
    #[test]
    fn the_agent_and_the_judge_default_to_the_callers_server_and_model() {
        let f = RunFields {
            agent_llm: true,
            own_judge: true,
            judge_model: "judge-7b".into(),
            ..fields("http://127.0.0.1:8080/v1", "smollm2")
        };
        let s = settings_of(&f).unwrap();
        let PlanSide::Llm { settings: agent } = &s.agent else {
            panic!("the agent answers: {:?}", s.agent);
        };
        assert_eq!(
            (agent.base_url.as_str(), agent.model.as_str()),
            ("http://127.0.0.1:8080/v1", "smollm2")
        );
        assert_eq!(
            (s.judge.base_url.as_str(), s.judge.model.as_str()),
            ("http://127.0.0.1:8080/v1", "judge-7b")
        );
        let wrong = RunFields {
            agent_url: "ftp://x".into(),
            ..f.clone()
        };
        assert_eq!(
            settings_of(&wrong),
            Err(
                "Give the address of the agent's model server, such as http://localhost:11434/v1."
                    .into()
            )
        );
        let wrong = RunFields {
            judge_url: "nowhere".into(),
            ..f
        };
        assert!(settings_of(&wrong)
            .unwrap_err()
            .contains("the judge's model server"));
    }
}
