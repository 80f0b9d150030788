//! The Share panel: the workspace shared through git in three buttons. It says what is not in a
//! checkpoint, what is not sent and which plans have conflicts to choose; it shows who signs the
//! checkpoints (asked when git knows nobody, mended where shown); and it says what each step
//! did, or why it was refused, in the shell's words.

use leptos::prelude::*;
use plan_api::messages::share::Author;

use super::line_field;
use crate::lifecycle::Lifecycle;
use crate::sharing::{words, Sharing};

#[component]
pub fn ShareDialog() -> impl IntoView {
    let sharing = expect_context::<Sharing>();
    let lifecycle = expect_context::<Lifecycle>();
    let message = RwSignal::new(String::new());
    let name = RwSignal::new(String::new());
    let email = RwSignal::new(String::new());
    sharing.said.set(None);
    sharing.refresh();
    let status = move || sharing.status.get();
    let known_author = move || match status() {
        Some(Ok(s)) => s.author,
        _ => None,
    };
    // The fields show who git knows, once it says, so that the panel keeps its layout after the
    // first checkpoint and a typo in the name can be mended where it was typed.
    Effect::new(move |_| {
        if let Some(a) = known_author() {
            if name.with_untracked(String::is_empty) && email.with_untracked(String::is_empty) {
                name.set(a.name);
                email.set(a.email);
            }
        }
    });
    // Called from event handlers, outside any reactive scope: the reads there track nothing.
    let checkpoint = move || {
        let who = new_signer(
            untrack(known_author).as_ref(),
            &name.get_untracked(),
            &email.get_untracked(),
        );
        sharing.checkpoint(message.get_untracked(), who);
        message.set(String::new());
    };
    let shared = move || matches!(status(), Some(Ok(_)));
    let can_checkpoint = move || {
        shared()
            && !sharing.busy.get()
            && !message.with(|m| m.trim().is_empty())
            && !name.with(|n| n.trim().is_empty())
            && !email.with(|e| e.trim().is_empty())
    };
    view! {
        <h3>"Share"</h3>
        <ShareState />
        // A form so that Enter in any of its fields saves the checkpoint (when it may be saved);
        // `novalidate`: WebKit's own check of the e-mail field would block it without a word.
        <form
            novalidate
            on:submit=move |e| {
                e.prevent_default();
                if untrack(can_checkpoint) {
                    checkpoint();
                }
            }
        >
            <p class="hint">
                "Checkpoints carry who made them: your name and e-mail, kept in this workspace's git settings."
            </p>
            {line_field("Your name", "share-name", "text", "", name)}
            {line_field("Your e-mail", "share-email", "email", "", email)}
            {line_field(
                "What changed (for the checkpoint)",
                "share-message",
                "text",
                "Billing asks for the invoice number",
                message,
            )}
            <div class="share-steps">
                <button
                    type="submit"
                    data-testid="share-checkpoint"
                    disabled=move || !can_checkpoint()
                >
                    "Save a checkpoint"
                </button>
                <button
                    type="button"
                    data-testid="share-get"
                    disabled=move || !shared() || sharing.busy.get()
                    on:click=move |_| sharing.get()
                >
                    "Get others' changes"
                </button>
                <button
                    type="button"
                    class="primary"
                    data-testid="share-send"
                    disabled=move || !shared() || sharing.busy.get()
                    on:click=move |_| sharing.send()
                >
                    "Send mine"
                </button>
            </div>
        </form>
        {move || {
            sharing
                .said
                .get()
                .map(|said| {
                    view! {
                        <div
                            class="share-said"
                            class:share-refused=said.refused
                            data-testid="share-said"
                            data-refused=said.refused.then_some("true")
                        >
                            {said.lines.into_iter().map(|l| view! { <p>{l}</p> }).collect_view()}
                        </div>
                    }
                })
        }}
        <div class="dialog-buttons">
            <button data-testid="share-close" on:click=move |_| lifecycle.close_dialog()>
                "Close"
            </button>
        </div>
    }
}

/// What the workspace's copy holds: where it is shared to, what is not in a checkpoint, what is
/// not sent, which plans have conflicts to choose; or why it cannot be shared.
#[component]
fn ShareState() -> impl IntoView {
    let sharing = expect_context::<Sharing>();
    let status = move || sharing.status.get();
    view! {
        <div class="share-status" data-testid="share-status" aria-live="polite">
            {move || match status() {
                None => view! { <p class="hint">"Looking at the workspace…"</p> }.into_any(),
                Some(Err(e)) => {
                    view! {
                        <p class="share-refused" data-testid="share-unavailable">
                            {e.message}
                        </p>
                    }
                        .into_any()
                }
                Some(Ok(s)) => {
                    view! {
                        <p>
                            {match &s.upstream {
                                Some(up) => format!("Shared with {up}."),
                                None => {
                                    "Not sent anywhere yet: Send mine sends to the repository this copy came from."
                                        .into()
                                }
                            }}
                        </p>
                        <dl class="share-lists">
                            <dt>"Not in a checkpoint"</dt>
                            <dd data-testid="share-unsaved">
                                {words::plan_list(&s.unsaved, &|id| sharing.title_of(id))}
                            </dd>
                            <dt>"Not sent"</dt>
                            <dd data-testid="share-unsent">
                                {words::plan_list(&s.unsent, &|id| sharing.title_of(id))}
                            </dd>
                            {(!s.conflicts.is_empty())
                                .then(|| {
                                    let listed: Vec<String> = s
                                        .conflicts
                                        .iter()
                                        .map(|c| {
                                            format!("{} ({})", sharing.title_of(&c.id), c.count)
                                        })
                                        .collect();
                                    view! {
                                        <dt>"Conflicts to choose"</dt>
                                        <dd data-testid="share-conflicts">{listed.join(", ")}</dd>
                                    }
                                })}
                        </dl>
                    }
                        .into_any()
                }
            }}
        </div>
    }
}

/// Who the next checkpoint is signed by, when it is not who git knows already: the fields'
/// name and e-mail (trimmed) when they differ from `known` or git knows nobody, else `None`.
fn new_signer(known: Option<&Author>, name: &str, email: &str) -> Option<Author> {
    let typed = Author {
        name: name.trim().to_string(),
        email: email.trim().to_string(),
    };
    (known != Some(&typed)).then_some(typed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_checkpoint_is_signed_anew_only_when_the_fields_say_someone_else() {
        let ann = Author {
            name: "Ann".into(),
            email: "ann@example.com".into(),
        };
        assert_eq!(new_signer(Some(&ann), " Ann ", "ann@example.com"), None);
        assert_eq!(
            new_signer(None, "Ann", "ann@example.com"),
            Some(ann.clone())
        );
        assert_eq!(
            new_signer(Some(&ann), "Ann Lee", "ann@example.com"),
            Some(Author {
                name: "Ann Lee".into(),
                email: "ann@example.com".into()
            })
        );
    }
}
