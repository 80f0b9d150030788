//! May this draft be published, and if not, why not: decided from what the publish dialog knows,
//! so the button, its words and the Enter key agree. A rules check that could not run blocks
//! with its reason: a draft is never published on the strength of a check that did not happen.

use super::Publishing;

/// What the publish dialog allows now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PublishGate {
    /// Publish may go.
    Open,
    /// The shell has not said yet what publishing would do.
    Previewing,
    /// The preview could not be made (its error is shown).
    PreviewFailed,
    /// A merge left conflicts to choose: the words that refuse the publish.
    Conflicts(String),
    /// The draft has errors: this many.
    Errors(usize),
    /// The draft is what the newest version holds.
    Unchanged,
    /// The plan has rules and they are being checked.
    CheckingRules,
    /// The rules could not be checked: why.
    RulesUnchecked(String),
    /// The draft breaks this many rules the newest version kept.
    RulesBroken(usize),
    /// A publish is under way.
    Publishing,
}

impl PublishGate {
    /// Decides from the dialog's state; `has_rules`: the draft has rules to check.
    pub fn of(state: &Publishing, has_rules: bool) -> PublishGate {
        if state.busy {
            return PublishGate::Publishing;
        }
        let Some(preview) = &state.preview else {
            return match state.error {
                Some(_) => PublishGate::PreviewFailed,
                None => PublishGate::Previewing,
            };
        };
        if let Some(refusal) = &preview.conflicts {
            return PublishGate::Conflicts(refusal.message.clone());
        }
        if !preview.errors.is_empty() {
            return PublishGate::Errors(preview.errors.len());
        }
        if preview.unchanged {
            return PublishGate::Unchanged;
        }
        match &state.rules {
            None if has_rules => PublishGate::CheckingRules,
            None => PublishGate::Open,
            Some(Err(e)) => PublishGate::RulesUnchecked(e.message.clone()),
            Some(Ok(r)) if !r.rules_broken.is_empty() => {
                PublishGate::RulesBroken(r.rules_broken.len())
            }
            Some(Ok(_)) => PublishGate::Open,
        }
    }

    /// Publish may go.
    pub fn is_open(&self) -> bool {
        *self == PublishGate::Open
    }

    /// The Publish button's words.
    pub fn button(&self) -> &'static str {
        match self {
            PublishGate::Publishing => "Publishing…",
            PublishGate::CheckingRules => "Checking the rules…",
            _ => "Publish",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use plan_api::messages::{PublishPreview, PublishRules};
    use plan_api::{ApiError, ErrorCode};

    fn previewed(errors: usize, unchanged: bool) -> Publishing {
        let error = plan_core::Diagnostic {
            code: plan_core::Code::NoStates,
            severity: plan_core::Severity::Error,
            message: "The plan has no states.".into(),
            location: plan_core::validate::Location::default(),
        };
        Publishing {
            preview: Some(PublishPreview {
                newest: Some(1),
                next: 2,
                changes: Vec::new(),
                unchanged,
                errors: vec![error; errors],
                conflicts: None,
            }),
            ..Publishing::default()
        }
    }

    fn with_rules(rules: Result<PublishRules, ApiError>) -> Publishing {
        Publishing {
            rules: Some(rules),
            ..previewed(0, false)
        }
    }

    #[test]
    fn nothing_is_published_before_the_shell_has_said_what_would_be() {
        assert_eq!(
            PublishGate::of(&Publishing::default(), false),
            PublishGate::Previewing
        );
        let failed = Publishing {
            error: Some(ApiError::new(ErrorCode::Io, "the disk is full")),
            ..Publishing::default()
        };
        assert_eq!(PublishGate::of(&failed, false), PublishGate::PreviewFailed);
    }

    #[test]
    fn errors_and_an_unchanged_draft_block() {
        assert_eq!(
            PublishGate::of(&previewed(2, false), false),
            PublishGate::Errors(2)
        );
        assert_eq!(
            PublishGate::of(&previewed(0, true), false),
            PublishGate::Unchanged
        );
    }

    #[test]
    fn conflicts_left_by_a_merge_block_before_anything_else_with_the_publishs_own_words() {
        let mut state = previewed(1, false);
        let words = "This draft still has a conflict from a merge to choose: keep yours or take theirs, then publish.";
        if let Some(p) = state.preview.as_mut() {
            p.conflicts = Some(ApiError::new(ErrorCode::Conflicts, words));
        }
        let gate = PublishGate::of(&state, false);
        assert_eq!(gate, PublishGate::Conflicts(words.into()));
        assert!(!gate.is_open());
    }

    #[test]
    fn a_draft_without_rules_may_go_as_soon_as_it_is_previewed() {
        let gate = PublishGate::of(&previewed(0, false), false);
        assert!(gate.is_open());
        assert_eq!(gate.button(), "Publish");
    }

    #[test]
    fn rules_block_while_checked_and_when_broken() {
        let checking = PublishGate::of(&previewed(0, false), true);
        assert_eq!(checking, PublishGate::CheckingRules);
        assert_eq!(checking.button(), "Checking the rules…");
        let kept = PublishRules {
            newest: Some(1),
            rules_broken: Vec::new(),
        };
        assert!(PublishGate::of(&with_rules(Ok(kept)), true).is_open());
    }

    #[test]
    fn a_rules_check_that_could_not_run_blocks_with_its_reason() {
        let failed = with_rules(Err(ApiError::new(
            ErrorCode::Io,
            "the draft could not be read",
        )));
        let gate = PublishGate::of(&failed, true);
        assert_eq!(
            gate,
            PublishGate::RulesUnchecked("the draft could not be read".into())
        );
        assert!(!gate.is_open());
    }

    #[test]
    fn a_publish_under_way_cannot_be_started_twice() {
        let busy = Publishing {
            busy: true,
            ..previewed(0, false)
        };
        let gate = PublishGate::of(&busy, false);
        assert_eq!(gate, PublishGate::Publishing);
        assert_eq!(gate.button(), "Publishing…");
    }
}
