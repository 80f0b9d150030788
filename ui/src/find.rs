//! Find (Ctrl+F): states by title or id, and by the deliverable keys and tools they use; and
//! interruptions by title, id and phrase (picking one shows the state it goes to).

use leptos::html;
use leptos::prelude::*;
use plan_core::condition::Check;
use plan_core::plan::{Interruption, Plan, State};

use crate::editor::Editor;

/// Why a state matches `query` (lowercase), if it does: "title", "key issue_type"…
pub fn matches(state: &State, query: &str) -> Option<String> {
    if query.is_empty() {
        return None;
    }
    let has = |text: &str| text.to_lowercase().contains(query);
    if has(&state.title) || has(&state.id) {
        return Some(String::new());
    }
    if let Some(d) = state.deliverables().find(|d| has(&d.key)) {
        return Some(format!("collects {}", d.key));
    }
    if let Some(t) = state.allowed_tools.iter().find(|t| has(t)) {
        return Some(format!("uses {t}"));
    }
    for t in &state.transitions {
        if let Ok(check) = Check::read(t.condition_type_in(state.kind), &t.condition_config) {
            let label = check.describe();
            if has(&label) {
                return Some(format!("checks {label}"));
            }
        }
    }
    None
}

/// Why interruption `x` matches `query` (lowercase), if it does.
pub fn interruption_matches(x: &Interruption, query: &str) -> Option<String> {
    if query.is_empty() {
        return None;
    }
    let has = |text: &str| text.to_lowercase().contains(query);
    let said = if has(&x.title) || has(&x.id) {
        String::new()
    } else {
        let phrase = x.phrases.iter().find(|p| has(p))?;
        format!(" (“{phrase}”)")
    };
    Some(format!("interruption {}{said} goes here", x.name()))
}

/// The states matching `query`, in plan order, with why; then the interruptions, each as the
/// state it goes to.
pub fn search(plan: &Plan, query: &str) -> Vec<(String, String, String)> {
    let q = query.trim().to_lowercase();
    let states = plan
        .states
        .iter()
        .filter_map(|s| matches(s, &q).map(|why| (s.id.clone(), s.title.clone(), why)));
    let interruptions = plan.interruptions.iter().filter_map(|x| {
        let why = interruption_matches(x, &q)?;
        let title = plan
            .state(&x.target_state_id)
            .map_or(x.target_state_id.clone(), |s| s.title.clone());
        Some((x.target_state_id.clone(), title, why))
    });
    states.chain(interruptions).take(50).collect()
}

#[component]
pub fn Find(close: Callback<()>, on_pick: Callback<String>) -> impl IntoView {
    let editor = expect_context::<Editor>();
    let query = RwSignal::new(String::new());
    let input = NodeRef::<html::Input>::new();
    Effect::new(move |_| {
        if let Some(el) = input.get() {
            let _ = el.focus();
        }
    });
    let results = move || {
        let q = query.get();
        editor
            .plan
            .with(|p| p.as_ref().map(|p| search(p, &q)).unwrap_or_default())
    };
    let pick = move |id: String| {
        on_pick.run(id);
        close.run(());
    };
    view! {
        <div class="find" data-testid="find-box">
            <input
                node_ref=input
                type="search"
                placeholder="Find a state by title, id, value or tool, or an interruption"
                data-testid="find-input"
                prop:value=move || query.get()
                on:input=move |e| query.set(event_target_value(&e))
                on:keydown=move |e: leptos::ev::KeyboardEvent| {
                    if e.key() == "Enter" {
                        if let Some((id, _, _)) = results().into_iter().next() {
                            pick(id);
                        }
                    }
                }
            />
            <ul>
                {move || {
                    results()
                        .into_iter()
                        .map(|(id, title, why)| {
                            let chosen = id.clone();
                            let why = if why.is_empty() { id.clone() } else { why };
                            view! {
                                <li>
                                    <button
                                        data-testid="find-result"
                                        data-state-id=id.clone()
                                        on:click=move |_| pick(chosen.clone())
                                    >
                                        <span class="find-title">{title}</span>
                                        <span class="find-why">{why}</span>
                                    </button>
                                </li>
                            }
                        })
                        .collect_view()
                }}
            </ul>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_states_by_title_id_key_and_tool() {
        let plan = plan_core::parse_plan(include_str!("../../plans/collections.json")).unwrap();
        let ids = |q: &str| {
            search(&plan, q)
                .into_iter()
                .map(|(id, _, _)| id)
                .collect::<Vec<_>>()
        };
        assert_eq!(ids("identif"), ["identify"]);
        assert!(ids("verify_customer").contains(&"identify".to_string()));
        assert!(ids("").is_empty());
        let support =
            plan_core::parse_plan(include_str!("../../plans/customer-support.json")).unwrap();
        let found = search(&support, "issue_type");
        assert!(found
            .iter()
            .any(|(id, _, why)| id == "customer-intake" && why == "collects issue_type"));
    }

    #[test]
    fn finds_interruptions_by_title_id_and_phrase() {
        let text = std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../plans/vehicle-viewing.json"),
        )
        .unwrap();
        let plan = plan_core::parse_plan(&text).unwrap();
        let found = search(&plan, "forget it");
        assert_eq!(
            found,
            [(
                "dropped".to_string(),
                "Booking dropped".to_string(),
                "interruption Never mind (“forget it”) goes here".to_string()
            )]
        );
        assert!(search(&plan, "ask-for-person").iter().any(
            |(id, _, why)| id == "person" && why.starts_with("interruption Asks for a person")
        ));
    }
}
