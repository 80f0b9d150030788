//! A persona's exact checks (simulate.md, "Checks"): its `expect` against the conversation as it
//! ran, one result per thing checked, with the same rules as a test case's expectations (values
//! coerced to each key's type before comparing).

use serde::{Deserialize, Serialize};

use super::persona::{EndingExpect, PersonaExpect};
use crate::plan::Plan;
use crate::runtime::script::{self, Expect};
use crate::runtime::Session;

/// One check and whether it held.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CheckResult {
    /// What was checked: `ending`, `ended_in`, `visits billing`, `deliverables order_id`…
    pub check: String,
    /// Whether it held.
    pub ok: bool,
    /// What was found, in words.
    pub detail: String,
}

/// Every check of `expect` on `session`, the session at the end of the conversation.
pub fn check(plan: &Plan, session: &Session, expect: &PersonaExpect) -> Vec<CheckResult> {
    let mut out = Vec::new();
    let title = |id: &str| {
        plan.state(id)
            .map(|s| format!("“{}”", if s.title.is_empty() { id } else { &s.title }))
            .unwrap_or_else(|| format!("'{id}'"))
    };
    if let Some(wanted) = expect.ending {
        let have = session.ended.as_ref().map(|e| e.kind.as_str());
        let ok = match wanted {
            EndingExpect::None => have.is_none(),
            w => have == Some(w.as_str()),
        };
        let detail = match &session.ended {
            Some(e) => format!(
                "the plan ended it with {} in {}",
                e.kind.as_str(),
                title(&e.state_id)
            ),
            None => "the plan did not end it".to_string(),
        };
        out.push(CheckResult {
            check: "ending".into(),
            ok,
            detail,
        });
    }
    if let Some(wanted) = &expect.ended_in {
        out.push(CheckResult {
            check: "ended_in".into(),
            ok: *wanted == session.state_id,
            detail: format!("it stopped in {}", title(&session.state_id)),
        });
    }
    let entered = |id: &String| session.path.iter().any(|s| s == id);
    for id in &expect.visits {
        let ok = entered(id);
        out.push(CheckResult {
            check: format!("visits {id}"),
            ok,
            detail: if ok {
                format!("it entered {}", title(id))
            } else {
                format!("it never entered {}", title(id))
            },
        });
    }
    for id in &expect.never_visits {
        let ok = !entered(id);
        out.push(CheckResult {
            check: format!("never_visits {id}"),
            ok,
            detail: if ok {
                format!("it never entered {}", title(id))
            } else {
                format!("it entered {}", title(id))
            },
        });
    }
    for (key, value) in &expect.deliverables {
        let one = Expect {
            deliverables: Some([(key.clone(), value.clone())].into()),
            ..Expect::default()
        };
        out.push(result(format!("deliverables {key}"), plan, session, &one));
    }
    for (id, preset) in &expect.session_states {
        let one = Expect {
            session_states: Some([(id.clone(), preset.clone())].into()),
            ..Expect::default()
        };
        out.push(result(format!("session_states {id}"), plan, session, &one));
    }
    out
}

fn result(check: String, plan: &Plan, session: &Session, one: &Expect) -> CheckResult {
    let failures = script::check(plan, session, one, session.turn);
    CheckResult {
        check,
        ok: failures.is_empty(),
        detail: match failures.first() {
            Some(f) => f.message.clone(),
            None => "as expected".into(),
        },
    }
}
