//! What the test chat's live panel shows of the session, decided here and tested without a
//! browser: each session state's row, and the parked task.

use plan_core::runtime::{ChangedBy, Session, What};

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
                value,
                active: v.active,
                changed_by: (!said.is_empty()).then(|| format!("changed {}", said.join(", "))),
                prompt: st.kind == plan_core::plan::SessionType::Prompt,
            })
        })
        .collect()
}
