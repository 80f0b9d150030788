//! The fields of the conditions that test what the plan declares elsewhere: a tool's result, and
//! a session state being on or holding a value. Each picker offers only what is declared.

use leptos::prelude::*;
use plan_core::condition::change::ConditionChange;
use plan_core::condition::SessionOperator;
use plan_core::plan::SessionType;

use super::super::fields::choice;
use super::Node;
use crate::plan_names::PlanNames;

/// "A tool returned": the tool, one of its response codes, and whether the test is turned around.
#[component]
pub(super) fn ToolResultFields(node: Node) -> impl IntoView {
    let names = expect_context::<Memo<PlanNames>>();
    let tools = move || {
        names.with(|n| {
            n.tools()
                .iter()
                .map(|t| (t.name.clone(), t.name.clone()))
                .collect()
        })
    };
    let codes = move || {
        let tool = node.with(|s| s.tool.clone());
        names.with(|n| {
            n.tools()
                .iter()
                .find(|t| t.name == tool)
                .map(|t| {
                    t.response_codes
                        .iter()
                        .map(|c| (c.clone(), c.clone()))
                        .collect()
                })
                .unwrap_or_default()
        })
    };
    view! {
        {choice(
            "Tool",
            "tool",
            node.path_name(),
            tools,
            node.shown(|s| s.tool.clone()),
            move |v: String| node.change(None, ConditionChange::Tool(v)),
        )}
        {choice(
            "Returned",
            "response-code",
            node.path_name(),
            codes,
            node.shown(|s| s.response_code.clone()),
            move |v: String| node.change(None, ConditionChange::ResponseCode(v)),
        )}
        <label class="field check">
            <input
                type="checkbox"
                data-testid="field-negated"
                data-path=node.path_name()
                prop:checked=move || node.with(|s| s.negated)
                on:change=move |e| {
                    node.change(None, ConditionChange::Negated(event_target_checked(&e)))
                }
            />
            <span>"Anything but this code"</span>
        </label>
    }
}

/// The picker of the session state tested (`valued`: only those that hold a value).
fn session_picker(node: Node, valued: bool) -> impl IntoView {
    let names = expect_context::<Memo<PlanNames>>();
    let states = move || {
        names.with(|n| {
            let ids = |s: &plan_core::plan::SessionState| (s.id.clone(), s.id.clone());
            if valued {
                n.valued_session_states().map(ids).collect()
            } else {
                n.session_states().iter().map(ids).collect()
            }
        })
    };
    choice(
        "Session state",
        "session-state",
        node.path_name(),
        states,
        node.shown(|s| s.session_state.clone()),
        move |v: String| node.change(None, ConditionChange::SessionState(v)),
    )
}

/// "A session state is on": the state, and on or off.
#[component]
pub(super) fn SessionActiveFields(node: Node) -> impl IntoView {
    view! {
        {session_picker(node, false)}
        {choice(
            "Is",
            "session-negated",
            node.path_name(),
            || {
                vec![
                    ("false".into(), "on (active)".into()),
                    ("true".into(), "off (not active)".into()),
                ]
            },
            node.shown(|s| s.negated.to_string()),
            move |v: String| node.change(None, ConditionChange::Negated(v == "true")),
        )}
    }
}

/// "A session state's value": the state, an operator that fits its type, and the value typed
/// (a list comma-separated).
#[component]
pub(super) fn SessionValueFields(node: Node) -> impl IntoView {
    let names = expect_context::<Memo<PlanNames>>();
    let operators = move || {
        let id = node.with(|s| s.session_state.clone());
        let (list, number) = names.with(|n| {
            n.session_states()
                .iter()
                .find(|s| s.id == id)
                .map_or((false, false), |s| (s.list, s.kind == SessionType::Number))
        });
        SessionOperator::offered(list, number)
            .into_iter()
            .map(|o| (o.as_str().to_string(), o.shown().to_string()))
            .collect()
    };
    view! {
        {session_picker(node, true)}
        {choice(
            "Compare",
            "session-operator",
            node.path_name(),
            operators,
            node.shown(|s| s.session_operator.as_str().to_string()),
            move |v: String| {
                if let Some(o) = SessionOperator::from_name(&v) {
                    node.change(None, ConditionChange::SessionOperator(o));
                }
            },
        )}
        <label class="field">
            <span class="field-label">"Value (a list: comma-separated)"</span>
            <input
                type="text"
                data-testid="field-session-value"
                data-path=node.path_name()
                prop:value=node.shown(|s| s.value.clone())
                on:change=move |e| {
                    node.change(None, ConditionChange::SessionValue(event_target_value(&e)))
                }
            />
        </label>
    }
}
