//! The language-model agent's settings: where the app keeps them (the user's config folder, never
//! the workspace: they are the author's, not the plan's), how they are checked before they are
//! kept, and the key, which is read from the environment variable they name and never written.

use std::path::{Path, PathBuf};

use plan_core::store::atomic;

use super::AgentSettings;
use crate::error::{ApiError, ErrorCode};

type Result<T> = std::result::Result<T, ApiError>;

/// The CLI's variables (docs/agents.md): they win over the saved settings.
pub const BASE_URL_VAR: &str = "PLAN_BUILDER_LLM_BASE_URL";
/// The environment variable that overrides the model's name.
pub const MODEL_VAR: &str = "PLAN_BUILDER_LLM_MODEL";
/// The environment variable that holds the server's API key.
pub const API_KEY_VAR: &str = "PLAN_BUILDER_LLM_API_KEY";

/// `$XDG_CONFIG_HOME/plan-builder/agent.json`, else `~/.config/plan-builder/agent.json`; none
/// without either variable. An empty or relative `XDG_CONFIG_HOME` is ignored, as the XDG
/// specification says.
pub fn config_file(xdg_config_home: Option<&str>, home: Option<&str>) -> Option<PathBuf> {
    let base = match xdg_config_home.filter(|d| Path::new(d).is_absolute()) {
        Some(dir) => PathBuf::from(dir),
        None => PathBuf::from(home.filter(|h| !h.is_empty())?).join(".config"),
    };
    Some(base.join("plan-builder").join("agent.json"))
}

/// The config file of this user, from the process's environment.
pub fn user_config_file() -> Option<PathBuf> {
    let var = |name| std::env::var(name).ok();
    config_file(var("XDG_CONFIG_HOME").as_deref(), var("HOME").as_deref())
}

fn refused(message: String) -> ApiError {
    ApiError::new(ErrorCode::Refused, message)
}

/// Whether `name` can be an environment variable's name.
fn is_variable_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Refuses settings that cannot work, naming the field and saying what it should be.
pub fn check(s: &AgentSettings) -> Result<()> {
    let url = s.base_url.trim();
    if !(url.starts_with("http://") || url.starts_with("https://")) || url.len() <= "https://".len()
    {
        return Err(refused(format!(
            "base URL: \"{}\" is not a web address: write it as http://localhost:11434/v1 or https://…",
            s.base_url
        )));
    }
    if url.contains(char::is_whitespace) {
        return Err(refused(format!(
            "base URL: \"{}\" has a space in it",
            s.base_url
        )));
    }
    if s.model.trim().is_empty() {
        return Err(refused(
            "model: name the model to use (for Ollama, as `ollama list` shows it, e.g. llama3.1)"
                .into(),
        ));
    }
    if let Some(var) = &s.api_key_env {
        if !is_variable_name(var) {
            return Err(refused(format!(
                "key variable: \"{var}\" is not the name of an environment variable (letters, digits and _, e.g. OPENAI_API_KEY); write the variable's name here, never the key itself"
            )));
        }
    }
    if !(0.0..=2.0).contains(&s.temperature) {
        return Err(refused(format!(
            "temperature: {} is outside 0 to 2",
            s.temperature
        )));
    }
    if !(1..=600).contains(&s.timeout_s) {
        return Err(refused(format!(
            "timeout: {} s is outside 1 to 600 seconds",
            s.timeout_s
        )));
    }
    Ok(())
}

/// The settings as written in the form: trimmed, an empty key variable as none.
pub fn tidy(mut s: AgentSettings) -> AgentSettings {
    s.base_url = s.base_url.trim().trim_end_matches('/').to_string();
    s.model = s.model.trim().to_string();
    s.api_key_env = s
        .api_key_env
        .map(|v| v.trim().to_string())
        .filter(|v| !v.is_empty());
    s
}

/// The saved settings; none when nothing was saved yet. A file that cannot be read as settings
/// is refused with its name and the place.
pub fn load(path: &Path) -> Result<Option<AgentSettings>> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => {
            return Err(ApiError::new(
                ErrorCode::Io,
                format!("cannot read {}: {e}", path.display()),
            ))
        }
    };
    serde_json::from_str(&text).map(Some).map_err(|e| {
        ApiError::new(
            ErrorCode::Schema,
            format!(
                "{}: line {}, column {}: {e}; fix or delete the file, or save the settings again",
                path.display(),
                e.line(),
                e.column()
            ),
        )
    })
}

/// Checks and keeps `settings` in `path` (atomically: the old file or the new one, never half).
pub fn save(path: &Path, settings: &AgentSettings) -> Result<AgentSettings> {
    let settings = tidy(settings.clone());
    check(&settings)?;
    let mut bytes = serde_json::to_vec_pretty(&settings)
        .map_err(|e| ApiError::internal(format!("the agent's settings: {e}")))?;
    bytes.push(b'\n');
    write_kept(path, &bytes)?;
    Ok(settings)
}

/// Writes `bytes` to `path`, a file of the user's config folder, atomically, making its folder
/// first: what the app keeps for the author (these settings, the welcome's dismissal).
pub fn write_kept(path: &Path, bytes: &[u8]) -> Result<()> {
    let io = |e: std::io::Error| {
        ApiError::new(
            ErrorCode::Io,
            format!("cannot write {}: {e}", path.display()),
        )
    };
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(io)?;
    }
    atomic::write(path, bytes, false).map_err(io)
}

/// The key for `settings`: `explicit` (the CLI's `PLAN_BUILDER_LLM_API_KEY`) when given, else
/// the variable `api_key_env` names, read through `var`. A named variable that is not set is
/// refused: a request without the key would only fail later with a less helpful 401.
pub fn key(
    settings: &AgentSettings,
    explicit: Option<String>,
    var: impl Fn(&str) -> Option<String>,
) -> Result<Option<String>> {
    if let Some(k) = explicit.filter(|k| !k.is_empty()) {
        return Ok(Some(k));
    }
    match &settings.api_key_env {
        None => Ok(None),
        Some(name) => match var(name).filter(|k| !k.is_empty()) {
            Some(k) => Ok(Some(k)),
            None => Err(ApiError::new(
                ErrorCode::Agent,
                format!(
                    "the key variable {name} is not set: set it in the environment Plan Builder starts in, or clear \"key variable\" for a local server"
                ),
            )),
        },
    }
}

/// The settings `plan chat --agent llm` runs with, and the key: the settings the app saved in
/// `saved` (if any), then `PLAN_BUILDER_LLM_BASE_URL` / `PLAN_BUILDER_LLM_MODEL`, then the
/// flags, each winning over the one before; the key from `PLAN_BUILDER_LLM_API_KEY`, else the
/// variable the saved settings name.
pub fn for_command_line(
    saved: Option<&Path>,
    base_url: Option<&str>,
    model: Option<&str>,
    var: impl Fn(&str) -> Option<String>,
) -> Result<(AgentSettings, Option<String>)> {
    let kept = match saved {
        Some(path) => load(path)?,
        None => None,
    };
    let had_url = kept.is_some();
    let mut s = kept.unwrap_or_default();
    let env_url = var(BASE_URL_VAR).filter(|v| !v.trim().is_empty());
    let env_model = var(MODEL_VAR).filter(|v| !v.trim().is_empty());
    if let Some(u) = base_url.map(str::to_string).or(env_url) {
        s.base_url = u;
    } else if !had_url {
        return Err(refused(format!(
            "--agent llm needs a model server: give --base-url URL (e.g. http://localhost:11434/v1) or set {BASE_URL_VAR}"
        )));
    }
    if let Some(m) = model.map(str::to_string).or(env_model) {
        s.model = m;
    }
    if s.model.trim().is_empty() {
        return Err(refused(format!(
            "--agent llm needs a model: give --model NAME or set {MODEL_VAR}"
        )));
    }
    let s = tidy(s);
    check(&s)?;
    let k = key(&s, var(API_KEY_VAR), &var)?;
    Ok((s, k))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_config_file_is_in_xdg_config_home_else_in_dot_config() {
        assert_eq!(
            config_file(Some("/x/cfg"), Some("/home/a")),
            Some(PathBuf::from("/x/cfg/plan-builder/agent.json"))
        );
        assert_eq!(
            config_file(Some("relative"), Some("/home/a")),
            Some(PathBuf::from("/home/a/.config/plan-builder/agent.json"))
        );
        assert_eq!(config_file(None, None), None);
    }

    #[test]
    fn settings_that_cannot_work_are_refused_naming_the_field() {
        let good = AgentSettings {
            model: "llama3.1".into(),
            ..AgentSettings::default()
        };
        assert!(check(&good).is_ok());
        let bad = |f: fn(&mut AgentSettings)| {
            let mut s = good.clone();
            f(&mut s);
            check(&s).unwrap_err().message
        };
        assert!(bad(|s| s.base_url = "localhost:11434".into()).starts_with("base URL:"));
        assert!(bad(|s| s.model = " ".into()).starts_with("model:"));
        assert!(bad(|s| s.api_key_env = Some("sk-abc 123".into())).starts_with("key variable:"));
        assert!(bad(|s| s.temperature = 3.0).starts_with("temperature:"));
        assert!(bad(|s| s.timeout_s = 0).starts_with("timeout:"));
    }

    #[test]
    fn the_key_comes_from_the_named_variable_and_a_missing_one_is_said() {
        let s = AgentSettings {
            api_key_env: Some("MY_KEY".into()),
            ..AgentSettings::default()
        };
        let env = |n: &str| (n == "MY_KEY").then(|| "k-1".to_string());
        assert_eq!(key(&s, None, env).unwrap().as_deref(), Some("k-1"));
        assert_eq!(
            key(&s, Some("k-2".into()), env).unwrap().as_deref(),
            Some("k-2")
        );
        let e = key(&s, None, |_| None).unwrap_err();
        assert!(e.message.contains("MY_KEY is not set"), "{}", e.message);
        assert_eq!(key(&AgentSettings::default(), None, env).unwrap(), None);
    }
}
