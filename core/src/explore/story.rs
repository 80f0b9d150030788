//! A finding's conversation told as a call, in the author's words: what the caller says each
//! turn ("the caller gives the size: large", "the caller says nothing new (6 times)"), what the
//! runtime did because of it, why the finding happened (named from the runtime's own events) and
//! what the author can do. The simulator's commands stay beside each turn, for tests.

use serde::{Deserialize, Serialize};

use super::findings::{title, Finding, FindingCode, Place};
use crate::coerce::in_words;
use crate::plan::Plan;
use crate::runtime::{Action, Turn, What};

/// A conversation told turn by turn, with why the finding happened and what to do.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Story {
    /// The finding's message as the window says it: without the ids the command line names.
    pub headline: String,
    /// The turns, the same ones in a row said once with how many times.
    pub turns: Vec<Told>,
    /// Why the finding happened, from what the runtime did; empty when there is nothing to add
    /// to the finding's message.
    pub why: String,
    /// What the author can do about it, each opening the right place.
    pub suggestions: Vec<Suggestion>,
}

/// One turn (or the same turn several times in a row), told.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Told {
    /// What the caller said or did, in words: "the caller gives the size: large".
    pub said: String,
    /// The simulator's command that plays it (for tests).
    pub command: String,
    /// How many times in a row.
    pub times: usize,
    /// What happened because of it, in words: "the conversation moves to 'Payment'".
    pub then: Vec<String>,
}

/// One thing the author can do, with the place it opens.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Suggestion {
    /// What to do, in words.
    pub text: String,
    /// Where: a state, one of its transitions, or a rule.
    pub place: Place,
}

/// A task as the author knows it: its description's first sentence, else its id in words.
pub fn task_words(plan: &Plan, task_id: &str) -> String {
    let task = plan
        .states
        .iter()
        .flat_map(|s| &s.tasks)
        .find(|t| t.id == task_id);
    match task.map(|t| first_sentence(&t.description)) {
        Some(d) if !d.is_empty() => d,
        _ => humanise(task_id),
    }
}

/// A key as the author knows it: its deliverable's description, else the key in words.
pub fn key_words(plan: &Plan, key: &str) -> String {
    match plan
        .states
        .iter()
        .flat_map(|s| s.deliverables())
        .find(|d| d.key == key)
        .map(|d| first_sentence(&d.description))
    {
        Some(d) if !d.is_empty() => lower_first(&d),
        _ => humanise(key),
    }
}

/// One message to the simulator as what the caller (or the agent, or a tool) did, in words. A
/// message that is not a command is the caller's own words, quoted.
pub fn said(plan: &Plan, message: &str) -> String {
    // A goal's "that is all\n/close …" is said by the caller before the command.
    let line = message.lines().last().unwrap_or_default().trim();
    let Some(body) = line.strip_prefix('/') else {
        return format!("the caller says “{}”", message.trim());
    };
    let (name, rest) = body.split_once(' ').unwrap_or((body, ""));
    let rest = rest.trim();
    let (first, second) = rest.split_once(' ').unwrap_or((rest, ""));
    let second = second.trim();
    let title_of_state = |id: &str| {
        plan.session_states
            .iter()
            .find(|s| s.id == id)
            .map(|s| s.title.clone())
            .filter(|t| !t.is_empty())
            .unwrap_or_else(|| humanise(id))
    };
    match name {
        // The explorer's stand-in for a text no arrow compares: whatever the caller says.
        "set" if super::is_stand_in(first, second) => {
            format!("the caller gives {}", key_words(plan, first))
        }
        // A yes or no is an answer to a question, not a thing given.
        "set" if second == "true" || second == "false" => format!(
            "the caller answers {} ({})",
            value_words(second),
            key_words(plan, first)
        ),
        "set" => format!(
            "the caller gives {}: {}",
            key_words(plan, first),
            value_words(second)
        ),
        "complete" => format!("the agent marks ‘{}’ done", task_words(plan, rest)),
        "skip" => format!("the agent skips ‘{}’", task_words(plan, rest)),
        "close" => "the caller says that is all".into(),
        "giveup" => "the caller gives up".into(),
        "tool" if second.is_empty() => format!("the agent calls {}", humanise(first)),
        "tool" => format!("the {} tool answers {second}", humanise(first)),
        "interrupt" => {
            let title = plan
                .interruption(rest)
                .map(|x| x.title.clone())
                .filter(|t| !t.is_empty())
                .unwrap_or_else(|| humanise(rest));
            format!("the caller breaks in: {title}")
        }
        "activate" => format!("‘{}’ becomes active", title_of_state(rest)),
        "deactivate" => format!("‘{}’ stops being active", title_of_state(rest)),
        "state" => format!("‘{}’ is set to {second}", title_of_state(first)),
        "insight" if rest == "nothing new" => "the caller says nothing new".into(),
        "insight" => format!("the agent notes “{rest}”"),
        _ => format!("the caller says “{}”", message.trim()),
    }
}

/// `finding`'s conversation told, from its replayed `turns` (the opening first).
pub fn tell(plan: &Plan, finding: &Finding, turns: &[Turn]) -> Story {
    let mut told: Vec<Told> = Vec::new();
    for turn in turns {
        let then = happened(plan, turn);
        let Some(message) = &turn.user else {
            if !then.is_empty() {
                told.push(Told {
                    said: "the call starts".into(),
                    command: String::new(),
                    times: 1,
                    then,
                });
            }
            continue;
        };
        match told.last_mut() {
            Some(last) if last.command == *message && last.then == then => last.times += 1,
            _ => told.push(Told {
                said: said(plan, message),
                command: message.clone(),
                times: 1,
                then,
            }),
        }
    }
    let (why, suggestions) = explain(plan, finding, turns);
    Story {
        headline: headline(finding),
        turns: told,
        why,
        suggestions,
    }
}

/// The finding's message without a rule's id (findings.rs writes it "The rule 'title' (id)"), for
/// the window, where the title is the rule's name.
pub fn headline(finding: &Finding) -> String {
    match &finding.location.rule {
        Some(id) => finding.message.replacen(&format!(" ({id})"), "", 1),
        None => finding.message.clone(),
    }
}

/// What happened in a turn, in words; only what an author follows (states, tasks, the safety
/// net, interruptions, the ending).
fn happened(plan: &Plan, turn: &Turn) -> Vec<String> {
    turn.events
        .iter()
        .filter_map(|e| match &e.what {
            What::Entered { state_id } => {
                Some(format!("the conversation moves to ‘{}’", title(plan, state_id)))
            }
            What::TaskCompleted { task_id, auto: true } => {
                Some(format!("‘{}’ is done", task_words(plan, task_id)))
            }
            What::ReleasedStuck {
                task_id,
                turns_without_progress,
            } => Some(match task_id {
                Some(t) => format!(
                    "after {turns_without_progress} turns without progress, the stuck safety net skips ‘{}’",
                    task_words(plan, t)
                ),
                None => format!(
                    "after {turns_without_progress} turns without progress, the stuck safety net gives the goal up"
                ),
            }),
            What::ActionRejected { action, reason } => Some(format!(
                "the agent cannot {}: {reason}",
                action_words(plan, action)
            )),
            What::Interrupted { to, .. } => {
                Some(format!("the conversation turns to ‘{}’", title(plan, to)))
            }
            What::Resumed { state_id, .. } => {
                Some(format!("the conversation goes back to ‘{}’", title(plan, state_id)))
            }
            What::Ended { ending } => Some(format!("the call ends: {}", ending.describe())),
            _ => None,
        })
        .collect()
}

/// Why `finding` happened and what to do, from what its conversation made the runtime do.
fn explain(plan: &Plan, finding: &Finding, turns: &[Turn]) -> (String, Vec<Suggestion>) {
    let at = finding.location.state_id.as_deref();
    let state = at.and_then(|id| plan.state(id));
    let open_state = |text: String| Suggestion {
        text,
        place: Place {
            state_id: at.map(str::to_string),
            ..Place::default()
        },
    };
    // The last release of the stuck safety net, with the state it happened in.
    let mut current = String::new();
    let mut released: Option<(Option<String>, u32, String)> = None;
    for e in turns.iter().flat_map(|t| &t.events) {
        match &e.what {
            What::Entered { state_id } => current = state_id.clone(),
            What::ReleasedStuck {
                task_id,
                turns_without_progress,
            } => released = Some((task_id.clone(), *turns_without_progress, current.clone())),
            _ => {}
        }
    }
    match (finding.code, state) {
        (FindingCode::DeadEnd, Some(state)) => {
            let name = &state.title;
            match released {
                Some((task, n, _)) => {
                    let what = task.map_or("the goal".to_string(), |t| {
                        format!("‘{}’", task_words(plan, &t))
                    });
                    (
                        format!(
                            "After {n} turns without progress, the stuck safety net skipped {what}; no arrow leaves ‘{name}’ when that happens."
                        ),
                        vec![
                            open_state(format!(
                                "Add an arrow out of ‘{name}’ for when {what} is skipped"
                            )),
                            open_state(format!(
                                "Or let ‘{name}’ move on whatever happens: a last arrow with no condition"
                            )),
                        ],
                    )
                }
                None => (
                    format!(
                        "In ‘{name}’ no arrow can be taken with what the caller has given, and nothing they can still say changes that."
                    ),
                    vec![open_state(format!(
                        "Add an arrow out of ‘{name}’ for this case"
                    ))],
                ),
            }
        }
        (FindingCode::StallsOnValue, Some(state)) => (
            String::new(),
            vec![open_state(format!(
                "Add an arrow out of ‘{}’ for that answer",
                state.title
            ))],
        ),
        (FindingCode::OnlySafetyNet, Some(state)) => (
            String::new(),
            vec![open_state(format!(
                "Add an arrow out of ‘{}’ that a caller can take",
                state.title
            ))],
        ),
        (FindingCode::RuleBroken, _) => {
            let open_rule = Suggestion {
                text: "Open the rule".into(),
                place: finding.location.clone(),
            };
            match released {
                // The safety net moved the conversation on where the rule did not expect it.
                Some((task, n, in_state)) => {
                    let what = task.map_or("the goal".to_string(), |t| {
                        format!("‘{}’", task_words(plan, &t))
                    });
                    let name = title(plan, &in_state);
                    (
                        format!(
                            "After {n} turns without progress in ‘{name}’, the stuck safety net skipped {what} and the conversation went on."
                        ),
                        vec![
                            Suggestion {
                                text: format!(
                                    "Check the arrows out of ‘{name}’: one is taken when {what} is skipped"
                                ),
                                place: Place {
                                    state_id: Some(in_state),
                                    ..Place::default()
                                },
                            },
                            open_rule,
                        ],
                    )
                }
                None => (String::new(), vec![open_rule]),
            }
        }
        _ => (String::new(), Vec::new()),
    }
}

/// What the agent asked for, as the author reads it (tasks by their words, not their ids).
fn action_words(plan: &Plan, action: &Action) -> String {
    match action {
        Action::Complete { task_id } => format!("mark ‘{}’ done", task_words(plan, task_id)),
        Action::Skip { task_id } => format!("skip ‘{}’", task_words(plan, task_id)),
        Action::Record { key, value, .. } => {
            format!("record {}: {}", key_words(plan, key), in_words(value))
        }
        Action::CallTool { tool, .. } => format!("call the {} tool", humanise(tool)),
        other => other.describe(),
    }
}

/// A value as the caller would say it: yes and no for booleans, a word's underscores as spaces.
fn value_words(value: &str) -> String {
    match value {
        "true" => in_words(&serde_json::Value::Bool(true)),
        "false" => in_words(&serde_json::Value::Bool(false)),
        other => other.replace('_', " "),
    }
}

fn humanise(id: &str) -> String {
    id.replace(['_', '-'], " ")
}

fn first_sentence(text: &str) -> String {
    let text = text.trim();
    let end = text.find(". ").map_or(text.len(), |i| i);
    text[..end].trim_end_matches('.').to_string()
}

fn lower_first(text: &str) -> String {
    let mut chars = text.chars();
    match (chars.next(), chars.next()) {
        // "ID of the caller" keeps its acronym.
        (Some(a), Some(b)) if a.is_uppercase() && b.is_uppercase() => text.to_string(),
        (Some(a), _) => a.to_lowercase().chain(text.chars().skip(1)).collect(),
        _ => String::new(),
    }
}
