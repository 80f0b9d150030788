//! Who answers the test chat's turns, as the Chat tab drives it: a turn said to the chosen agent,
//! a failed one said again or answered by the simulator, the language model's settings read, kept
//! and tried ("Test connection"), and the tool switches. The decisions are `agent`'s.

use leptos::prelude::*;
use leptos::task::spawn_local;
use plan_api::messages::AgentKind;
use plan_api::ErrorCode;
use plan_core::Revision;

use super::agent::{self, SettingsForm};
use super::TestChat;
use crate::ipc;

impl TestChat {
    /// The failed turn said again to the language model.
    pub fn retry(self) {
        if let Some(f) = self.failed.get_untracked() {
            self.say_as(f.message, None);
        }
    }

    /// The failed turn answered by the simulator instead (an `agent_fallback` event says why).
    pub fn answer_with_simulator(self) {
        if let Some(f) = self.failed.get_untracked() {
            self.say_as(f.message, Some(f.reason));
        }
    }

    pub(super) fn say_as(self, message: String, fallback: Option<String>) {
        let message = message.trim_end().to_string();
        if message.trim().is_empty() || self.busy.get_untracked() {
            return;
        }
        let Some(view) = self.chat.get_untracked() else {
            return;
        };
        let choice = agent::choice(self.agent.get_untracked(), fallback.as_deref());
        let tools = self.tool_results.get_untracked();
        self.busy.set(true);
        spawn_local(async move {
            if view.revision == Revision::Draft {
                let _ = self.editor.settled().await;
            }
            let answer = ipc::chat_say(&view.id, &view.name, &message, &tools, choice).await;
            match answer {
                Err(e) if e.code == ErrorCode::Agent => {
                    self.busy.set(false);
                    self.failed.set(agent::failed_turn(&e, &message));
                }
                other => {
                    if other.is_ok() {
                        self.failed.set(None);
                    }
                    self.show(other);
                }
            }
        });
    }

    /// Chooses who answers; the model's settings are read the first time it is chosen.
    pub fn choose_agent(self, kind: AgentKind) {
        self.agent.set(kind);
        if kind == AgentKind::LanguageModel && self.settings.get_untracked().is_none() {
            spawn_local(async move {
                match ipc::agent_settings().await {
                    Ok(kept) => self.settings.set(kept),
                    Err(e) => self.settings_note.set(Some(Err(e.message))),
                }
            });
        }
    }

    /// Keeps the form's settings (the shell checks them and refuses with the CLI's words).
    pub fn save_settings(self, form: SettingsForm) {
        let settings = match form.read() {
            Ok(s) => s,
            Err(why) => return self.settings_note.set(Some(Err(why))),
        };
        spawn_local(async move {
            match ipc::save_agent_settings(&settings).await {
                Ok(kept) => {
                    self.settings_note.set(Some(Ok(format!(
                        "Saved: {} at {}.",
                        kept.model, kept.base_url
                    ))));
                    self.settings.set(Some(kept));
                }
                Err(e) => self.settings_note.set(Some(Err(e.message))),
            }
        });
    }

    /// "Test connection" with the form's settings, not yet kept.
    pub fn test_connection(self, form: SettingsForm) {
        let settings = match form.read() {
            Ok(s) => s,
            Err(why) => return self.settings_note.set(Some(Err(why))),
        };
        self.settings_note
            .set(Some(Ok("Testing the connection…".into())));
        spawn_local(async move {
            match ipc::test_connection(&settings).await {
                Ok(report) => {
                    self.models.set(report.models);
                    self.settings_note.set(Some(Ok(report.message)));
                }
                Err(e) => self.settings_note.set(Some(Err(e.message))),
            }
        });
    }

    /// The tool switch: what `tool` returns when called without a code (none: its first code).
    pub fn set_tool_result(self, tool: String, code: Option<String>) {
        self.tool_results.update(|t| match code {
            Some(code) => {
                t.insert(tool, code);
            }
            None => {
                t.remove(&tool);
            }
        });
    }
}
