//! `--agent simulator|llm`, `--base-url`, `--model`, `--fallback simulator`: who answers the turns
//! of `plan chat` and `plan test`. The language model's settings are the app's saved ones (the
//! user's config folder), overridden by the `PLAN_BUILDER_LLM_*` variables, overridden by the
//! flags (plan_api::agent::settings::for_command_line).

use plan_api::agent::model::LanguageModel;
use plan_api::agent::settings;
use plan_api::answerer::Answerer;

use clap::{Args, ValueEnum};

use crate::lifecycle::Failure;

/// The flags `plan chat` and `plan test` share.
#[derive(Args, Clone)]
pub struct Flags {
    /// Who answers: the built-in simulator (the default) or a language model behind an
    /// OpenAI-compatible endpoint (--base-url, --model, or PLAN_BUILDER_LLM_* variables, else
    /// the app's saved settings).
    #[arg(long, value_enum, default_value = "simulator")]
    agent: AgentArg,
    /// The model server's OpenAI-compatible base URL (e.g. http://localhost:11434/v1).
    #[arg(long, value_name = "URL", requires = "agent")]
    base_url: Option<String>,
    /// The model's name on that server.
    #[arg(long, value_name = "NAME", requires = "agent")]
    model: Option<String>,
    /// Have the simulator answer any turn the language model fails (recorded as agent_fallback).
    #[arg(long, value_enum, value_name = "AGENT")]
    fallback: Option<FallbackArg>,
}

/// `--agent`.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum AgentArg {
    Simulator,
    Llm,
}

/// `--fallback`.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum FallbackArg {
    Simulator,
}

/// Who answers, as the flags say.
pub fn choose(flags: &Flags) -> Result<Answerer, Failure> {
    if flags.agent == AgentArg::Simulator {
        return Ok(Answerer::Simulator);
    }
    let saved = settings::user_config_file();
    let (s, key) = settings::for_command_line(
        saved.as_deref(),
        flags.base_url.as_deref(),
        flags.model.as_deref(),
        |v| std::env::var(v).ok(),
    )
    .map_err(|e| Failure {
        code: 2,
        message: e.message,
        ..Failure::default()
    })?;
    let model = LanguageModel::new(s, key);
    Ok(if flags.fallback.is_some() {
        Answerer::ModelElseSimulator(model)
    } else {
        Answerer::Model(model)
    })
}
