//! Interruptions at run time (docs/interruptions.md, "At run time"): when one applies, the agent's
//! `interrupt` action, step 6's interruptions before the transitions (park, drop), step 10's return
//! point (resume, resume afresh, end), and forgetting a parked task at the end of the turn. The
//! functions follow the spec's paragraphs in order; `step` calls them at those points.

use super::evaluate::Context;
use super::event::{Event, What};
use super::session::{Parked, Session};
use crate::condition::Condition;
use crate::plan::{Ending, Interruption, InterruptionKind, Plan, State};

/// Why interruption `x` cannot fire now in `state`; `None`: it applies.
pub fn why_not(plan: &Plan, state: &State, s: &Session, x: &Interruption) -> Option<String> {
    if s.ended.is_some() {
        return Some("the conversation has ended".into());
    }
    if !x.allowed_in(&state.id) {
        return Some(format!("'{}' cannot fire in '{}'", x.name(), state.title));
    }
    if x.target_state_id == state.id {
        return Some(format!("the conversation is in '{}' already", state.title));
    }
    if x.kind != InterruptionKind::Preempt && !state.interruptible {
        return Some(format!("'{}' cannot be interrupted", state.title));
    }
    if x.kind == InterruptionKind::Yield && s.parked.is_some() {
        return Some("a task is already parked: finish the detour first".into());
    }
    if plan.state(&x.target_state_id).is_none() {
        return Some(format!("the plan has no state '{}'", x.target_state_id));
    }
    None
}

/// The agent's `interrupt {interruption}`: its index when accepted now, or why not. `taken`: an
/// interrupt was accepted earlier in this turn.
pub(super) fn accept(
    plan: &Plan,
    state: &State,
    s: &Session,
    id: &str,
    taken: bool,
) -> Result<usize, String> {
    let Some(i) = plan.interruptions.iter().position(|x| x.id == id) else {
        return Err(format!("the plan has no interruption '{id}'"));
    };
    if taken {
        return Err("another interruption was accepted this turn already".into());
    }
    match why_not(plan, state, s, &plan.interruptions[i]) {
        Some(reason) => Err(reason),
        None => Ok(i),
    }
}

fn holds(plan: &Plan, state: &State, s: &Session, condition: &Condition) -> bool {
    let ctx = Context {
        plan,
        state,
        session: s,
        assume_goal_done: false,
    };
    condition
        .read()
        .is_ok_and(|check| ctx.eval(&check).is_some())
}

/// Step 6, first: conditions that are false leave `spent_conditions`; the winner among the asked
/// interruption and those whose condition fires (lowest priority, then array order), which joins
/// `spent_conditions` while its condition holds.
pub(super) fn choose(
    plan: &Plan,
    state: &State,
    s: &mut Session,
    asked: Option<usize>,
) -> Option<usize> {
    let mut fired: Vec<usize> = asked.into_iter().collect();
    for (i, x) in plan.interruptions.iter().enumerate() {
        let Some(condition) = &x.condition else {
            continue;
        };
        let now = holds(plan, state, s, condition);
        let spent = s.spent_conditions.contains(&x.id);
        if !now {
            s.spent_conditions.retain(|id| *id != x.id);
        } else if !spent && why_not(plan, state, s, x).is_none() && !fired.contains(&i) {
            fired.push(i);
        }
    }
    let winner = fired.into_iter().min_by(|&a, &b| {
        let (pa, pb) = (
            plan.interruptions[a].priority,
            plan.interruptions[b].priority,
        );
        pa.partial_cmp(&pb)
            .unwrap_or(std::cmp::Ordering::Equal)
            .then(a.cmp(&b))
    })?;
    let x = &plan.interruptions[winner];
    let id = &x.id;
    if x.condition
        .as_ref()
        .is_some_and(|c| holds(plan, state, s, c))
        && !s.spent_conditions.contains(id)
    {
        s.spent_conditions.push(id.clone());
    }
    Some(winner)
}

/// Step 6, the winner fires: a `yield` parks the current visit, an `abandon` or `preempt` drops it
/// and any parked task. The caller then enters the target.
pub(super) fn fire(
    plan: &Plan,
    state: &State,
    s: &mut Session,
    x: &Interruption,
    events: &mut Vec<Event>,
) {
    let turn = s.turn;
    events.push(Event::new(
        turn,
        What::Interrupted {
            interruption: x.id.clone(),
            interruption_kind: x.kind,
            from: state.id.clone(),
            to: x.target_state_id.clone(),
        },
        format!(
            "{}: {} → {}",
            match x.kind {
                InterruptionKind::Yield => "a side question",
                InterruptionKind::Abandon => "set aside",
                InterruptionKind::Preempt => "taken over",
            },
            x.name(),
            plan.state(&x.target_state_id)
                .map_or(x.target_state_id.as_str(), |t| t.title.as_str())
        ),
    ));
    match x.kind {
        InterruptionKind::Yield => {
            s.parked = Some(Parked {
                state_id: state.id.clone(),
                interruption: x.id.clone(),
                since_turn: turn,
                ttl_turns: u32::try_from(x.ttl_turns.max(0)).unwrap_or(u32::MAX),
                visit: Some(s.visit.clone()),
            });
            events.push(Event::new(
                turn,
                What::Parked {
                    state_id: state.id.clone(),
                },
                format!("parked {} to answer {}", state.title, x.name()),
            ));
        }
        InterruptionKind::Abandon | InterruptionKind::Preempt => {
            events.push(dropped(turn, &state.id, &state.title));
            if let Some(p) = s.parked.take() {
                let title = plan.state(&p.state_id).map_or(&p.state_id, |st| &st.title);
                events.push(dropped(turn, &p.state_id, title));
            }
        }
    }
}

fn dropped(turn: u32, id: &str, title: &str) -> Event {
    Event::new(
        turn,
        What::Dropped {
            state_id: id.to_string(),
        },
        format!("dropped {title}"),
    )
}

/// Whether `state` is a return point.
pub fn is_return_point(state: &State) -> bool {
    state.is_ending() && state.ending == Some(Ending::Resume {})
}

/// What a return point that has been addressed does with the parked task.
pub(super) enum Back {
    /// Nothing is parked: the session ends (`complete`).
    End,
    /// The parked visit is current again, exactly as it was.
    Restored,
    /// The parked task was forgotten: its state is to be entered afresh.
    Afresh(String),
}

/// Step 10 at a return point: the parked task comes back (restored, or to be entered afresh by the
/// caller); `parked` becomes `null` in every case.
pub(super) fn resume(plan: &Plan, point: &State, s: &mut Session, events: &mut Vec<Event>) -> Back {
    let Some(p) = s.parked.take() else {
        return Back::End;
    };
    s.returned_from = Some(point.id.clone());
    let title = plan
        .state(&p.state_id)
        .map_or(p.state_id.as_str(), |st| st.title.as_str())
        .to_string();
    match p.visit {
        Some(mut visit) => {
            // What the user said during the detour (this turn included) was not said in the task.
            visit.away.push([p.since_turn + 1, s.turn]);
            s.state_id = p.state_id.clone();
            s.visit = visit;
            events.push(Event::new(
                s.turn,
                What::Resumed {
                    state_id: p.state_id,
                    fresh: false,
                },
                format!("back to {title}"),
            ));
            Back::Restored
        }
        None => {
            events.push(Event::new(
                s.turn,
                What::Resumed {
                    state_id: p.state_id.clone(),
                    fresh: true,
                },
                format!("back to {title}, afresh: it had been forgotten"),
            ));
            Back::Afresh(p.state_id)
        }
    }
}

/// End of the turn: a parked task away for `ttl_turns` turns or more is forgotten.
pub(super) fn forget(plan: &Plan, s: &mut Session, events: &mut Vec<Event>) {
    let turn = s.turn;
    let Some(p) = s.parked.as_mut() else { return };
    if p.visit.is_none() || p.ttl_turns == 0 || turn - p.since_turn < p.ttl_turns {
        return;
    }
    p.visit = None;
    let title = plan
        .state(&p.state_id)
        .map_or(p.state_id.clone(), |st| st.title.clone());
    events.push(Event::new(
        turn,
        What::ParkedForgotten {
            state_id: p.state_id.clone(),
        },
        format!("forgot the parked {title}: away {} turns", p.ttl_turns),
    ));
}

/// Whether `condition` holds in session `s`, read in the state it is in (what the explorer asks
/// of a rule's condition).
pub fn condition_holds(plan: &Plan, s: &Session, condition: &Condition) -> bool {
    plan.state(&s.state_id)
        .is_some_and(|state| holds(plan, state, s, condition))
}
