//! Who answers a test conversation's turn: the simulator, the language model (with the simulator
//! answering a turn it fails, when asked), or the simulator in the model's place after it failed.

use std::path::Path;

use plan_core::runtime::{Agent, AgentKind, Simulator};

use crate::agent::model::{LanguageModel, SimulatorForFailedModel, WithFallback};
use crate::error::{ApiError, ErrorCode};

type Result<T> = std::result::Result<T, ApiError>;

/// Who answers a turn.
pub enum Answerer {
    /// The simulator.
    Simulator,
    /// The simulator, after the language model failed for this reason.
    Fallback(String),
    /// The language model.
    Model(LanguageModel),
    /// The language model, the simulator answering a turn it fails (`--fallback simulator`).
    ModelElseSimulator(LanguageModel),
}

impl Answerer {
    /// `f` with the agent that answers.
    pub fn with_agent<R>(&self, f: impl FnOnce(&dyn Agent) -> R) -> R {
        match self {
            Answerer::Model(model) => f(model),
            Answerer::ModelElseSimulator(model) => f(&WithFallback(model)),
            Answerer::Fallback(reason) => f(&SimulatorForFailedModel(reason)),
            Answerer::Simulator => f(&Simulator),
        }
    }

    /// The answerer `choice` names; the model's from the settings kept in `settings_file`.
    pub fn of(
        choice: &crate::agent::AgentChoice,
        settings_file: Option<&Path>,
    ) -> Result<Answerer> {
        match (choice.agent, &choice.fallback) {
            (_, Some(reason)) => Ok(Answerer::Fallback(reason.clone())),
            (AgentKind::Simulator, None) => Ok(Answerer::Simulator),
            (AgentKind::LanguageModel, None) => {
                let settings = settings_file
                    .map(crate::agent::settings::load)
                    .transpose()?
                    .flatten()
                    .ok_or_else(|| {
                        ApiError::new(
                            ErrorCode::Agent,
                            "the language model is not set up yet: give its base URL and model in the agent's settings",
                        )
                    })?;
                let key = crate::agent::settings::key(&settings, None, |v| std::env::var(v).ok())?;
                Ok(Answerer::Model(LanguageModel::new(settings, key)))
            }
        }
    }
}
