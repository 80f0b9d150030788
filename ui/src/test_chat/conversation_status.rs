//! What the test chat's live panel shows of the session, decided here and tested without a
//! browser: each session state's row, and the parked task.

use plan_core::runtime::{ChangedBy, GoalStatus, Session, TaskStatus, What};
use plan_core::Plan;

/// The parked task as the test chat says it: its state, since which turn, for which interruption,
/// and when it will be forgotten; none when nothing is parked.
pub fn parked_text(plan: &plan_core::Plan, session: &Session) -> Option<(String, String)> {
    let p = session.parked.as_ref()?;
    let title = plan
        .state(&p.state_id)
        .map_or(p.state_id.clone(), |s| s.title.clone());
    let why = plan
        .interruption(&p.interruption)
        .map_or(p.interruption.clone(), |x| x.name().to_string());
    let when = match (&p.visit, p.kept_until()) {
        (None, _) => "; forgotten: it will be asked afresh at the return point".to_string(),
        (Some(_), Some(last)) => format!("; forgotten after turn {last} unless the detour ends"),
        (Some(_), None) => "; kept until the detour ends".to_string(),
    };
    Some((
        p.state_id.clone(),
        format!("{title}, parked at turn {} for {why}{when}", p.since_turn),
    ))
}

/// One session state as the test chat shows it: its value, whether it is on, and who changed it
/// in the latest turn (none when it did not change).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct SessionRow {
    pub id: String,
    /// What the author calls it (its title; its id, humanised, when it has none).
    pub title: String,
    pub value: String,
    pub active: bool,
    pub changed_by: Option<String>,
    pub prompt: bool,
}

/// Every declared session state of `plan` as `session` holds it, in plan order, with what
/// changed it among `events` (the latest turn's).
pub fn session_rows(
    plan: &plan_core::Plan,
    session: &Session,
    events: &[plan_core::runtime::Event],
) -> Vec<SessionRow> {
    plan.session_states
        .iter()
        .filter_map(|st| {
            let v = session.session_states.get(&st.id)?;
            let by: Vec<ChangedBy> = events
                .iter()
                .filter_map(|e| match &e.what {
                    What::SessionStateChanged {
                        session_state, by, ..
                    } if *session_state == st.id => Some(*by),
                    _ => None,
                })
                .collect();
            let mut said: Vec<&str> = Vec::new();
            for b in &by {
                if !said.contains(&b.describe()) {
                    said.push(b.describe());
                }
            }
            let mut value = String::new();
            plan_core::template::write_value(&v.value, &mut value);
            Some(SessionRow {
                id: st.id.clone(),
                title: if st.title.trim().is_empty() {
                    st.id.replace(['_', '-'], " ")
                } else {
                    st.title.clone()
                },
                value,
                active: v.active,
                changed_by: (!said.is_empty()).then(|| format!("changed {}", said.join(", "))),
                prompt: st.kind == plan_core::plan::SessionType::Prompt,
            })
        })
        .collect()
}

/// The counters beside the state: turns, turns here, turns without progress, and the plan's
/// stuck-turn limit when it has one.
pub fn counters(plan: &plan_core::Plan, session: &Session) -> String {
    let stuck = plan.settings.stuck_turns;
    let limit = if stuck > 0 {
        format!(" (safety net at {stuck})")
    } else {
        String::new()
    };
    format!(
        "Turn {} · {} in this state · {} turns without progress{limit}",
        session.turn, session.visit.total, session.visit.without_progress
    )
}

/// One task of the visit: its id, its status's word, and the mark shown before it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TaskRow {
    pub id: String,
    pub status: &'static str,
    pub mark: &'static str,
}

/// The tasks of the current visit, in order.
pub fn task_rows(session: &Session) -> Vec<TaskRow> {
    session
        .visit
        .tasks
        .iter()
        .map(|t| {
            let (status, mark) = match t.status {
                TaskStatus::Pending => ("pending", "○"),
                TaskStatus::Completed => ("completed", "✓"),
                TaskStatus::Skipped => ("skipped", "–"),
            };
            TaskRow {
                id: t.id.clone(),
                status,
                mark,
            }
        })
        .collect()
}

/// The goal of the current visit in words, when the state has one.
pub fn goal_words(session: &Session) -> Option<&'static str> {
    session.visit.goal.map(|g| match g {
        GoalStatus::Open => "open",
        GoalStatus::Closed => "closed",
        GoalStatus::GivenUp => "given up",
        GoalStatus::Skipped => "released (skipped)",
    })
}

/// One value known: its key, the value shown, and where and when it was recorded (with the
/// caller's words when they were kept).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct KnownRow {
    pub key: String,
    pub value: String,
    pub recorded: String,
}

/// What "Known" shows for the value explore gives a text no arrow names (played from a finding).
pub const ANY_TEXT: &str = "anything the caller says";

/// Every value known, by key; where it was recorded named by the state's title, not its id.
pub fn known_rows(plan: &Plan, session: &Session) -> Vec<KnownRow> {
    session
        .deliverables
        .iter()
        .map(|(k, r)| {
            let state = plan
                .state(&r.state_id)
                .map_or(r.state_id.as_str(), |s| s.title.as_str());
            let said = r
                .quote
                .as_ref()
                .map(|q| format!(" · “{q}”"))
                .unwrap_or_default();
            let when = if r.turn == 0 {
                format!("known from the start, in {state}")
            } else {
                format!("in {state} at turn {}", r.turn)
            };
            KnownRow {
                key: k.clone(),
                value: match r.value.as_str() {
                    // Explore's stand-in for any other text, played from a finding.
                    Some(v) if plan_core::explore::is_stand_in(k, v) => ANY_TEXT.to_string(),
                    _ => plan_core::runtime::show(&r.value),
                },
                recorded: format!("{when}{said}"),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use plan_core::runtime::{Chat, PlanRef, PlanVersion, Simulator};

    /// A conversation of the sample with session states, a few turns in.
    fn talked() -> (plan_core::Plan, Session) {
        let plan = plan_core::parse_plan(include_str!("../../../plans/account-care.json")).unwrap();
        let plan_ref = PlanRef {
            id: "account-care".into(),
            version: PlanVersion::File,
            content_hash: String::new(),
        };
        let (mut chat, _) = Chat::open(&plan, &Simulator, plan_ref).unwrap();
        for said in ["/set customer_name Ann", "/set issue billing"] {
            chat.say(said).unwrap();
        }
        let session = chat.session.clone();
        (plan, session)
    }

    #[test]
    fn the_panel_says_what_the_session_holds() {
        let (plan, session) = talked();
        let known = known_rows(&plan, &session);
        let name = known.iter().find(|r| r.key == "customer_name").unwrap();
        assert_eq!(name.value, "Ann");
        assert!(
            name.recorded.starts_with("in Welcome at turn 1"),
            "{name:?}"
        );
        assert!(counters(&plan, &session).starts_with(&format!("Turn {}", session.turn)));
        let tasks = task_rows(&session);
        assert!(tasks
            .iter()
            .all(|t| ["pending", "completed", "skipped"].contains(&t.status)));
        assert_eq!(goal_words(&session).is_some(), session.visit.goal.is_some());
        assert!(parked_text(&plan, &session).is_none(), "nothing is parked");
        let rows = session_rows(&plan, &session, &[]);
        assert!(!rows.is_empty());
        // Each named by its title, not its id.
        let billing = rows.iter().find(|r| r.id == "billing_mode").unwrap();
        assert_eq!(billing.title, "Billing mode");
    }

    #[test]
    fn explores_stand_in_for_any_text_is_said_in_words_and_a_real_text_as_it_is() {
        let (plan, _) = talked();
        let plan_ref = PlanRef {
            id: "account-care".into(),
            version: PlanVersion::File,
            content_hash: String::new(),
        };
        let (mut chat, _) = Chat::open(&plan, &Simulator, plan_ref).unwrap();
        let stand_in = plan_core::explore::stand_in("customer_name");
        chat.say(&format!("/set customer_name {stand_in}")).unwrap();
        let known = known_rows(&plan, &chat.session);
        let name = known.iter().find(|r| r.key == "customer_name").unwrap();
        assert_eq!(name.value, ANY_TEXT);
        // Another key's stand-in is words like any other here.
        chat.say("/set customer_name other-than-issue").unwrap();
        let known = known_rows(&plan, &chat.session);
        let name = known.iter().find(|r| r.key == "customer_name").unwrap();
        assert_eq!(name.value, "other-than-issue");
    }
}
