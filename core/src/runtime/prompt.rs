//! The prompt of a turn (`docs/session-states.md`, "The prompt of a turn"): what the agent is told
//! when it writes a reply, rendered from the plan's templates with the session as it is now.

use super::session::Session;
use super::switching::is_active;
use crate::plan::{Plan, SessionType};
use crate::template::render_text;

/// The plan's instructions, the prompt of each active prompt state in plan order, the return
/// point's instructions when the turn came back through one, and the current state's instructions: each rendered and trimmed, the empty ones left out, joined by a blank
/// line.
pub fn prompt(plan: &Plan, session: &Session) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut add = |text: &str| {
        let rendered = render(text, session);
        let trimmed = rendered.trim();
        if !trimmed.is_empty() {
            parts.push(trimmed.to_string());
        }
    };
    add(&plan.instructions);
    for st in &plan.session_states {
        if st.kind == SessionType::Prompt && is_active(session, &st.id) {
            add(st.prompt.as_deref().unwrap_or_default());
        }
    }
    // A turn that came back through a return point: what it is for, then the resumed task.
    if let Some(point) = session
        .returned_from
        .as_deref()
        .and_then(|id| plan.state(id))
    {
        add(&point.instructions);
    }
    if let Some(state) = session.state(plan) {
        add(&state.instructions);
    }
    parts.join("\n\n")
}

/// One template text rendered against the session (a text that does not parse as it stands).
pub fn render(text: &str, session: &Session) -> String {
    render_text(text, session)
}
