//! The welcome a first start shows (what a plan is, and three ways in), until the author dismisses
//! it once. Whether it was dismissed is the author's, not a workspace's: it is kept in the user's
//! config folder beside the agent's settings (`plan-builder/welcome.json`), so a second workspace
//! does not greet again and deleting plans does not either.

use std::path::{Path, PathBuf};

use crate::error::{ApiError, ErrorCode};

/// The file that records the welcome as dismissed, in the folder that holds `agent.json`
/// ([`crate::agent::settings::config_file`]).
pub fn mark_file(agent_settings_file: &Path) -> Option<PathBuf> {
    Some(agent_settings_file.parent()?.join("welcome.json"))
}

/// The welcome's mark for this user, from the process's environment; none without a config folder.
pub fn user_mark_file() -> Option<PathBuf> {
    mark_file(&crate::agent::settings::user_config_file()?)
}

/// Whether the welcome is due: the mark is not there. Without a config folder (`mark` none) it is
/// not shown, since its dismissal could not be kept and it would greet at every start.
pub fn due(mark: Option<&Path>) -> bool {
    mark.is_some_and(|m| !m.exists())
}

/// Records the welcome as dismissed: it does not come back.
pub fn dismiss(mark: Option<&Path>) -> Result<(), ApiError> {
    let mark = mark.ok_or_else(|| {
        ApiError::new(
            ErrorCode::Io,
            "there is no config folder to remember this in: set HOME or XDG_CONFIG_HOME",
        )
    })?;
    crate::agent::settings::write_kept(mark, b"{\"dismissed\": true}\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_start_greets_and_a_second_start_after_dismissing_does_not() {
        let home = std::env::temp_dir().join(format!("welcome-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&home);
        let config = crate::agent::settings::config_file(None, home.to_str()).unwrap();
        let mark = mark_file(&config);
        assert_eq!(
            mark.as_deref(),
            Some(home.join(".config/plan-builder/welcome.json").as_path())
        );
        assert!(due(mark.as_deref()), "a first start greets");
        assert!(
            due(mark.as_deref()),
            "closing the app without dismissing greets again"
        );
        dismiss(mark.as_deref()).unwrap();
        assert!(!due(mark.as_deref()), "a second start does not greet");
        dismiss(mark.as_deref()).unwrap();
        assert!(!due(mark.as_deref()), "dismissing twice is harmless");
        let _ = std::fs::remove_dir_all(&home);
    }

    #[test]
    fn without_a_config_folder_there_is_no_greeting_and_dismissing_says_why_it_cannot_be_kept() {
        assert!(!due(None));
        let refused = dismiss(None).unwrap_err();
        assert!(refused.message.contains("XDG_CONFIG_HOME"));
    }
}
