//! The picker of the state a new arrow goes to (C on a card): the author types part of a title,
//! goes through the states with the arrow keys, and Enter connects. A combobox as screen readers
//! know it: the list is named by the field, the chosen option read out as it moves. Which states
//! it offers is [`targets`], pure and tested without a browser.

use leptos::html;
use leptos::prelude::*;
use plan_core::plan::Plan;

use crate::actions::{focus_card, Actions, Connecting};
use crate::editor::Editor;

/// One state the arrow can go to.
#[derive(Debug, Clone, PartialEq)]
pub struct Target {
    pub id: String,
    pub title: String,
    /// Said beside the title: "itself (a loop)", "already connected".
    pub note: String,
}

/// The evaluations whose name holds `query` (any case) and that are not limited to session
/// state `session_state` already, in plan order.
pub fn limit_targets(plan: &Plan, session_state: &str, query: &str) -> Vec<Target> {
    let q = query.trim().to_lowercase();
    plan.evaluations
        .iter()
        .filter(|e| !e.only_while_active.iter().any(|s| s == session_state))
        .filter(|e| q.is_empty() || e.name().to_lowercase().contains(&q))
        .map(|e| Target {
            id: e.id.clone(),
            title: e.name().to_string(),
            note: if e.only_while_active.is_empty() {
                "asked of every conversation".into()
            } else {
                "limited to other session states".into()
            },
        })
        .take(50)
        .collect()
}

/// The states whose title holds `query` (any case), in plan order; the card itself last, as a
/// loop; at most 50.
pub fn targets(plan: &Plan, from: &str, query: &str) -> Vec<Target> {
    let q = query.trim().to_lowercase();
    let source = plan.state(from);
    let connected =
        |id: &str| source.is_some_and(|s| s.transitions.iter().any(|t| t.target_state_id == id));
    let offered = |title: &str| q.is_empty() || title.to_lowercase().contains(&q);
    let others = plan
        .states
        .iter()
        .filter(|s| s.id != from && offered(&s.title))
        .map(|s| Target {
            id: s.id.clone(),
            title: s.title.clone(),
            note: if connected(&s.id) {
                "already connected".into()
            } else {
                String::new()
            },
        });
    let itself = source.filter(|s| offered(&s.title)).map(|s| Target {
        id: s.id.clone(),
        title: s.title.clone(),
        note: "itself (a loop)".into(),
    });
    others.chain(itself).take(50).collect()
}

/// The picker's question about `from` (a state; with `lane`, a session state's chip), named by
/// its title (a chip without one by its name).
fn heading(plan: &Plan, from: &str, lane: bool) -> String {
    if lane {
        let name = plan
            .session_state(from)
            .map(|s| {
                if s.title.trim().is_empty() {
                    s.id.clone()
                } else {
                    s.title.clone()
                }
            })
            .unwrap_or_default();
        format!("Ask only while “{name}” is on:")
    } else {
        let title = plan
            .state(from)
            .map(|s| s.title.clone())
            .unwrap_or_default();
        format!("Connect “{title}” to…")
    }
}

#[component]
pub fn ConnectPicker(connecting: Connecting) -> impl IntoView {
    let editor = expect_context::<Editor>();
    let actions = expect_context::<Actions>();
    let (from, lane) = match &connecting {
        Connecting::Arrow { from } => (from.clone(), false),
        Connecting::Limit { session_state } => (session_state.clone(), true),
    };
    let heading = editor
        .plan
        .with_untracked(|p| p.as_ref().map(|p| heading(p, &from, lane)))
        .unwrap_or_default();
    let query = RwSignal::new(String::new());
    let active = RwSignal::new(0usize);
    let input = NodeRef::<html::Input>::new();
    Effect::new(move |_| {
        if let Some(el) = input.get() {
            let _ = el.focus();
        }
    });
    let source = from.clone();
    let offered = Memo::new(move |_| {
        let q = query.get();
        editor.plan.with(|p| {
            p.as_ref()
                .map(|p| {
                    if lane {
                        limit_targets(p, &source, &q)
                    } else {
                        targets(p, &source, &q)
                    }
                })
                .unwrap_or_default()
        })
    });
    let back = from.clone();
    let close = Callback::new(move |()| {
        actions.close_overlays();
        if lane {
            actions.limit_cancelled(&back);
        } else {
            focus_card(&back);
        }
    });
    let chosen = from.clone();
    let pick = Callback::new(move |to: String| {
        if lane {
            actions.limit(&chosen, &to);
        } else {
            actions.connect(&chosen, &to);
        }
    });
    let on_key = move |e: leptos::ev::KeyboardEvent| {
        let n = offered.with(Vec::len);
        match e.key().as_str() {
            "ArrowDown" if n > 0 => {
                e.prevent_default();
                active.update(|a| *a = (*a + 1) % n);
            }
            "ArrowUp" if n > 0 => {
                e.prevent_default();
                active.update(|a| *a = (*a + n - 1) % n);
            }
            "Enter" => {
                e.prevent_default();
                let to = offered.with(|o| o.get(active.get_untracked()).map(|t| t.id.clone()));
                if let Some(to) = to {
                    pick.run(to);
                }
            }
            "Escape" => {
                e.prevent_default();
                e.stop_propagation();
                close.run(());
            }
            _ => {}
        }
    };
    let option_id = |i: usize| format!("connect-option-{i}");
    view! {
        <div class="find connect-picker" data-testid="connect-picker">
            <label class="connect-label" for="connect-input">
                {heading}
            </label>
            <input
                id="connect-input"
                node_ref=input
                type="text"
                role="combobox"
                aria-expanded="true"
                aria-controls="connect-options"
                aria-autocomplete="list"
                aria-activedescendant=move || {
                    (offered.with(|o| !o.is_empty())).then(|| option_id(active.get()))
                }
                autocomplete="off"
                placeholder=if lane {
                    "Type part of an evaluation's name; ↑ ↓, Enter"
                } else {
                    "Type part of a state's title; ↑ ↓ to choose, Enter to connect"
                }
                data-testid="connect-input"
                prop:value=move || query.get()
                on:input=move |e| {
                    query.set(event_target_value(&e));
                    active.set(0);
                }
                on:keydown=on_key
            />
            <ul
                id="connect-options"
                role="listbox"
                aria-label=if lane { "Evaluations to limit" } else { "States to connect to" }
            >
                {move || {
                    offered
                        .get()
                        .into_iter()
                        .enumerate()
                        .map(|(i, t)| {
                            let to = t.id.clone();
                            let is_active = move || active.get() == i;
                            view! {
                                <li
                                    id=option_id(i)
                                    role="option"
                                    class="connect-option"
                                    class:active=is_active
                                    aria-selected=move || if is_active() { "true" } else { "false" }
                                    data-testid="connect-option"
                                    data-state-id=t.id.clone()
                                    on:click=move |_| pick.run(to.clone())
                                >
                                    <span class="find-title">{t.title.clone()}</span>
                                    <span class="find-why">{t.note.clone()}</span>
                                </li>
                            }
                        })
                        .collect_view()
                }}
            </ul>
            {move || {
                offered
                    .with(Vec::is_empty)
                    .then(|| {
                        view! { <p class="hint">"Nothing here holds that."</p> }
                    })
            }}
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan() -> Plan {
        plan_core::parse_plan(
            r#"{"id": "p", "title": "P", "states": [
                {"id": "a", "title": "Take the order", "transitions": [{"target_state_id": "b"}]},
                {"id": "b", "title": "Confirm the order"},
                {"id": "c", "title": "Order placed", "ending": {"kind": "complete"}}
            ]}"#,
        )
        .expect("parses")
    }

    #[test]
    fn the_picker_asks_by_the_title_the_author_reads() {
        assert_eq!(
            heading(&plan(), "b", false),
            "Connect “Confirm the order” to…"
        );
        let care = plan_core::parse_plan(include_str!("../../plans/account-care.json"))
            .expect("the sample parses");
        let chip = &care.session_states[0];
        assert_eq!(
            heading(&care, &chip.id, true),
            format!("Ask only while “{}” is on:", chip.title)
        );
    }

    #[test]
    fn on_a_chip_the_picker_offers_the_evaluations_not_yet_limited_to_it() {
        let plan = plan_core::parse_plan(include_str!("../../plans/account-care.json"))
            .expect("the sample parses");
        let chip = &plan.session_states[0].id;
        let offered = limit_targets(&plan, chip, "");
        assert!(!offered.is_empty());
        for t in &offered {
            let e = plan
                .evaluations
                .iter()
                .find(|e| e.id == t.id)
                .expect("an evaluation");
            assert!(
                !e.only_while_active.contains(chip),
                "{} is limited already",
                t.id
            );
        }
        assert!(limit_targets(&plan, chip, "no evaluation is called this").is_empty());
    }

    #[test]
    fn the_picker_offers_states_by_part_of_their_title_the_card_itself_last() {
        let all = targets(&plan(), "a", "");
        let ids: Vec<&str> = all.iter().map(|t| t.id.as_str()).collect();
        assert_eq!(ids, ["b", "c", "a"]);
        assert_eq!(all[0].note, "already connected");
        assert_eq!(all[2].note, "itself (a loop)");
        let placed: Vec<String> = targets(&plan(), "a", "PLACED")
            .into_iter()
            .map(|t| t.id)
            .collect();
        assert_eq!(placed, ["c"]);
        assert!(targets(&plan(), "a", "nothing like it").is_empty());
    }
}
