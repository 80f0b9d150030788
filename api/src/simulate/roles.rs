//! The endpoints of a run's roles from the command line (simulate.md, "Command line"): the
//! caller's and the judge's from their flags, else `PLAN_BUILDER_CALLER_*` and
//! `PLAN_BUILDER_JUDGE_*`; the agent's as `plan chat --agent llm` finds it (docs/agents.md).

use crate::agent::settings::{check, tidy};
use crate::agent::AgentSettings;
use crate::error::{ApiError, ErrorCode};

/// The temperature the caller-model and the judge are sent unless the author says otherwise:
/// callers that vary, and votes that are independent samples.
pub const SAMPLED_TEMPERATURE: f64 = 0.7;

/// Role `role` (`CALLER`, `JUDGE`): its settings and key from `base_url` and `model` (the flags),
/// else the role's variables; none when neither names a server.
pub fn role_settings(
    role: &str,
    base_url: Option<&str>,
    model: Option<&str>,
    var: impl Fn(&str) -> Option<String>,
) -> Result<Option<(AgentSettings, Option<String>)>, ApiError> {
    let named = |field: &str| var(&format!("PLAN_BUILDER_{role}_{field}")).filter(|v| !v.trim().is_empty());
    let Some(url) = base_url.map(str::to_string).or_else(|| named("BASE_URL")) else {
        return Ok(None);
    };
    let flag = role.to_ascii_lowercase();
    let Some(model) = model.map(str::to_string).or_else(|| named("MODEL")) else {
        return Err(ApiError::new(
            ErrorCode::Refused,
            format!("the {flag} needs a model: give --{flag}-model NAME or set PLAN_BUILDER_{role}_MODEL"),
        ));
    };
    let settings = tidy(AgentSettings {
        base_url: url,
        model,
        temperature: SAMPLED_TEMPERATURE,
        ..AgentSettings::default()
    });
    check(&settings).map_err(|e| {
        ApiError::new(ErrorCode::Refused, format!("the {flag}'s {}", e.message))
    })?;
    Ok(Some((settings, named("API_KEY"))))
}
