//! `--agent simulator|llm`, `--base-url`, `--model`, `--fallback simulator`: who answers the turns
//! of `plan chat` and `plan test`. The language model's settings are the app's saved ones (the
//! user's config folder), overridden by the `PLAN_BUILDER_LLM_*` variables, overridden by the
//! flags (plan_api::agent::settings::for_command_line).

use plan_api::agent::model::LanguageModel;
use plan_api::agent::settings;
use plan_api::conversations::Answerer;

use crate::lifecycle::Failure;
use crate::AgentArg;

pub fn choose(
    agent: AgentArg,
    base_url: &Option<String>,
    model: &Option<String>,
    fallback: bool,
) -> Result<Answerer, Failure> {
    if agent == AgentArg::Simulator {
        return Ok(Answerer::Simulator);
    }
    let saved = settings::user_config_file();
    let (s, key) = settings::for_command_line(
        saved.as_deref(),
        base_url.as_deref(),
        model.as_deref(),
        |v| std::env::var(v).ok(),
    )
    .map_err(|e| Failure {
        code: 2,
        message: e.message,
    })?;
    let model = LanguageModel::new(s, key);
    Ok(if fallback {
        Answerer::ModelElseSimulator(model)
    } else {
        Answerer::Model(model)
    })
}
