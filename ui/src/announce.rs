//! What a screen reader is told without being asked (a polite live region): a change of the
//! problem count, a save, the test chat's reply and the state it moved to, an explore result,
//! and every message of the status line. What to say is [`said`], pure and tested without a
//! browser: only what changed since the last time, so nothing is repeated.

use leptos::prelude::*;
use plan_core::runtime::Role;

use crate::editor::{Editor, SaveState};
use crate::explore::Exploring;
use crate::test_chat::TestChat;

/// What the live region listens to, at one moment.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Heard {
    /// The status bar's problem count: "No problems", "2 errors".
    pub problems: String,
    /// Whether the draft is saved.
    pub saved: bool,
    /// The status line's message.
    pub notice: Option<String>,
    /// The test chat's last reply and where the conversation is: (turn, words).
    pub reply: Option<(u32, String)>,
    /// The last exploration's summary.
    pub explored: Option<String>,
}

/// What to announce going from `before` to `now`: each thing that changed, once.
pub fn said(before: &Heard, now: &Heard) -> Option<String> {
    let mut out: Vec<String> = Vec::new();
    if now.notice != before.notice {
        out.extend(now.notice.clone());
    }
    if now.reply != before.reply {
        out.extend(now.reply.as_ref().map(|(_, words)| words.clone()));
    }
    if now.explored != before.explored {
        out.extend(now.explored.clone());
    }
    if now.problems != before.problems && !now.problems.is_empty() {
        out.push(format!("Problems: {}", now.problems));
    }
    if now.saved && !before.saved {
        out.push("Saved".to_string());
    }
    // Each thing a sentence of its own.
    let sentences: Vec<String> = out
        .into_iter()
        .map(|s| {
            if s.ends_with(['.', '!', '?']) {
                s
            } else {
                format!("{s}.")
            }
        })
        .collect();
    (!sentences.is_empty()).then(|| sentences.join(" "))
}

/// The words of the test chat's last reply: "The agent says: … Now in Billing."
pub fn reply_words(text: &str, state_title: &str) -> String {
    format!("The agent says: {text} Now in {state_title}.")
}

/// The live region, hidden from sight, fed from the stores; `problems` is the status bar's count.
#[component]
pub fn Announcer(problems: Memo<String>) -> impl IntoView {
    let editor = expect_context::<Editor>();
    let test_chat = expect_context::<TestChat>();
    let exploring = expect_context::<Exploring>();
    let chat = test_chat.chat();
    let reply = Memo::new(move |_| {
        chat.with(|c| {
            let c = c.as_ref()?;
            let line = c
                .session
                .transcript
                .iter()
                .rev()
                .find(|l| l.role == Role::Agent)?;
            let title = editor.plan.with_untracked(|p| {
                p.as_ref()
                    .and_then(|p| p.state(&c.session.state_id))
                    .map_or(String::new(), |s| s.title.clone())
            });
            Some((c.session.turn, reply_words(&line.text, &title)))
        })
    });
    let heard = Memo::new(move |_| Heard {
        problems: problems.get(),
        saved: editor.save.with(|s| matches!(s, SaveState::Saved)),
        notice: editor.notice.with(|n| n.as_ref().map(|n| n.text.clone())),
        reply: reply.get(),
        explored: exploring
            .found
            .with(|f| f.as_ref().map(crate::explore::summary)),
    });
    let spoken = RwSignal::new(String::new());
    Effect::new(move |before: Option<Heard>| {
        let now = heard.get();
        if let Some(words) = before.as_ref().and_then(|b| said(b, &now)) {
            spoken.set(words);
        }
        now
    });
    view! {
        <div class="visually-hidden" role="status" aria-live="polite" data-testid="announcer">
            {move || spoken.get()}
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn heard() -> Heard {
        Heard {
            problems: "No problems".into(),
            saved: true,
            ..Heard::default()
        }
    }

    #[test]
    fn nothing_is_said_when_nothing_changed() {
        assert_eq!(said(&heard(), &heard()), None);
    }

    #[test]
    fn a_new_problem_count_and_a_save_are_said_once() {
        let editing = Heard {
            saved: false,
            ..heard()
        };
        let checked = Heard {
            problems: "1 error".into(),
            saved: false,
            ..heard()
        };
        assert_eq!(said(&heard(), &editing), None, "saving is not news");
        assert_eq!(
            said(&editing, &checked).as_deref(),
            Some("Problems: 1 error.")
        );
        let saved = Heard {
            problems: "1 error".into(),
            ..heard()
        };
        assert_eq!(said(&checked, &saved).as_deref(), Some("Saved."));
        assert_eq!(said(&saved, &saved), None);
    }

    #[test]
    fn a_reply_says_what_the_agent_said_and_where_the_conversation_is() {
        let words = reply_words("What is your account number?", "Billing");
        let replied = Heard {
            reply: Some((2, words.clone())),
            ..heard()
        };
        assert_eq!(said(&heard(), &replied), Some(words.clone()));
        assert_eq!(
            words,
            "The agent says: What is your account number? Now in Billing."
        );
        // The same reply, the plan edited meanwhile: not said again.
        assert_eq!(said(&replied, &replied.clone()), None);
    }

    #[test]
    fn a_message_and_an_explore_result_are_said_with_the_rest() {
        let now = Heard {
            notice: Some("Deleted 1 transition. Ctrl+Z brings it back.".into()),
            explored: Some("Every conversation can finish".into()),
            ..heard()
        };
        assert_eq!(
            said(&heard(), &now).as_deref(),
            Some("Deleted 1 transition. Ctrl+Z brings it back. Every conversation can finish.")
        );
    }
}
