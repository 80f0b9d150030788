//! The plan's rules in the plan inspector (explore.md, "Rules"): what the author wants guaranteed
//! of every conversation, written with pickers (a kind in words, states, a tool, the condition
//! builder), never as JSON. What a form value means is decided by the pure functions at the top,
//! tested natively; the views only show and dispatch.

use leptos::prelude::*;
use plan_core::condition::{Condition, ConditionType};
use plan_core::plan::{Plan, Rule, RuleKind};

use super::access::read_plan;
use super::condition::{ConditionEditor, Root};
use super::fields::{choice, state_picker, typed, Extent};
use super::list::{first_state_after_start, list_items, op_button, Adder, Items};
use crate::editor::Editor;
use crate::panels::list_ops::{fresh_id, ListOp};

/// The kinds of rule, in the author's words.
pub const KINDS: [(RuleKind, &str); 5] = [
    (RuleKind::NeverEntersUnless, "Enters a state only when…"),
    (RuleKind::ToolOnlyWhen, "Calls a tool only when…"),
    (RuleKind::VisitsBefore, "One state before another"),
    (RuleKind::Reaches, "Reaches a state"),
    (RuleKind::CanAlwaysEnd, "Every conversation can end"),
];

/// A new rule beside `rules`: a fresh id; every conversation can still end.
pub fn fresh(_plan: &Plan, rules: &[Rule]) -> Rule {
    Rule {
        id: fresh_id("rule-", rules.len() + 1, |id| {
            rules.iter().any(|r| r.id == id)
        }),
        title: String::new(),
        kind: RuleKind::CanAlwaysEnd,
        state_id: None,
        tool: None,
        condition: None,
        first_state_id: None,
        then_state_id: None,
    }
}

/// The kind chosen in the form: the fields the kind uses are kept or filled (the first state
/// other than the start, the first tool, "a value is known"), the others dropped, so that the
/// rule always has the shape its kind needs.
pub fn set_kind(plan: &Plan, rule: &mut Rule, kind: RuleKind) {
    rule.kind = kind;
    let start = plan.start_state_id().unwrap_or_default();
    let other = first_state_after_start(plan);
    let uses = |field: &str| kind.fields().contains(&field);
    let keep = |value: &mut Option<String>, field: &str, fill: &str| {
        if !uses(field) {
            *value = None;
        } else if value.is_none() {
            *value = Some(fill.to_string());
        }
    };
    keep(&mut rule.state_id, "state_id", &other);
    keep(&mut rule.first_state_id, "first_state_id", start);
    keep(&mut rule.then_state_id, "then_state_id", &other);
    let tool = plan
        .tools
        .first()
        .map(|t| t.name.clone())
        .unwrap_or_default();
    keep(&mut rule.tool, "tool", &tool);
    if !uses("condition") {
        rule.condition = None;
    } else if rule.condition.is_none() {
        rule.condition = Some(Condition {
            condition_type: ConditionType::DeliverableExists,
            condition_config: Default::default(),
        });
    }
}

/// The plan's rules, as the inspector edits them.
fn items(editor: Editor) -> Items<Rule> {
    Items::of_plan(editor, "plan-rule", |p| &p.rules, |d| &mut d.rules)
}

/// The plan's rules.
#[component]
pub fn RulesSection() -> impl IntoView {
    let rules = items(expect_context::<Editor>());
    view! {
        <div class="subsection" data-testid="rules">
            <h4>"Rules"</h4>
            <p class="hint">
                "What you want guaranteed of every conversation this plan allows, such as \"Refund is never entered unless the caller is verified\"."
            </p>
            {list_items(
                rules,
                |i| view! { <RuleForm i=i /> },
                Adder {
                    testid: "add-rule",
                    label: "+ Add rule",
                    make: fresh,
                },
            )}
        </div>
    }
}

#[component]
fn RuleForm(i: usize) -> impl IntoView {
    let editor = expect_context::<Editor>();
    let rules = items(editor);
    let get = move |f: fn(&Rule) -> String| rules.text(i, f);
    let uses =
        move |field: &'static str| move || rules.read(i, |r| r.kind.fields().contains(&field));
    let id = get(|r| r.id.clone());
    let pick = move |field: fn(&mut Rule) -> &mut Option<String>| {
        move |v: String| rules.edit(i, None, |r| *field(r) = Some(v))
    };
    view! {
        <div class="plan-rule" data-testid="rule-fields" data-rule-id=id>
            {typed(
                editor,
                Extent::Line,
                "What it guarantees, in your words",
                "rule-title",
                get(|r| r.title.clone()),
                rules.set_text(i, "title", |r, v| r.title = v),
            )}
            {choice(
                "Kind",
                "rule-kind",
                i.to_string(),
                || {
                    KINDS
                        .iter()
                        .map(|(k, words)| (k.as_str().to_string(), words.to_string()))
                        .collect()
                },
                get(|r| r.kind.as_str().to_string()),
                move |v: String| {
                    let Some(kind) = KINDS.iter().map(|(k, _)| *k).find(|k| k.as_str() == v) else {
                        return;
                    };
                    let Some(plan) = editor.plan.get_untracked() else { return };
                    rules.edit(i, None, |r| set_kind(&plan, r, kind));
                },
            )}
            <Show when=uses(
                "state_id",
            )>
                {state_picker(
                    "The state",
                    "rule-state",
                    get(|r| r.state_id.clone().unwrap_or_default()),
                    pick(|r| &mut r.state_id),
                )}
            </Show>
            <Show when=uses(
                "first_state_id",
            )>
                {state_picker(
                    "First this state",
                    "rule-first-state",
                    get(|r| r.first_state_id.clone().unwrap_or_default()),
                    pick(|r| &mut r.first_state_id),
                )}
                {state_picker(
                    "Then this state",
                    "rule-then-state",
                    get(|r| r.then_state_id.clone().unwrap_or_default()),
                    pick(|r| &mut r.then_state_id),
                )}
            </Show>
            <Show when=uses(
                "tool",
            )>
                {choice(
                    "The tool",
                    "rule-tool",
                    format!("{i}tool"),
                    move || read_plan(
                        editor,
                        |p| p.tools.iter().map(|t| (t.name.clone(), t.name.clone())).collect(),
                    ),
                    get(|r| r.tool.clone().unwrap_or_default()),
                    pick(|r| &mut r.tool),
                )}
            </Show>
            <Show when=uses("condition")>
                <div class="rule" data-testid="rule-condition">
                    <span class="field-label">"Only when"</span>
                    {move || {
                        let id = rules.read(i, |r| r.id.clone());
                        view! { <ConditionEditor root=Root::PlanRule { id } path=Vec::new() /> }
                    }}
                </div>
            </Show>
            {op_button(rules, i, ListOp::Remove, "remove-rule", "Remove rule", None)}
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::super::list::fixtures::two_state_plan;
    use super::*;

    fn plan() -> Plan {
        two_state_plan(serde_json::json!({
            "tools": [{"name": "refund", "response_codes": ["OK"]}],
            "rules": [{"id": "rule-1", "kind": "can_always_end"}]}))
    }

    #[test]
    fn a_new_rule_has_a_fresh_id_and_asks_only_that_every_conversation_can_end() {
        let p = plan();
        let r = fresh(&p, &p.rules);
        assert_eq!(r.id, "rule-2");
        assert_eq!(r.kind, RuleKind::CanAlwaysEnd);
        assert!(r.fields_given().is_empty());
    }

    #[test]
    fn a_kind_chosen_gets_exactly_the_fields_it_uses() {
        let p = plan();
        let mut r = fresh(&p, &p.rules);
        for (kind, _) in KINDS {
            set_kind(&p, &mut r, kind);
            let mut given = r.fields_given();
            given.sort();
            let mut wanted = kind.fields().to_vec();
            wanted.sort();
            assert_eq!(given, wanted, "{}", kind.as_str());
        }
        set_kind(&p, &mut r, RuleKind::VisitsBefore);
        assert_eq!(r.first_state_id.as_deref(), Some("a"));
        assert_eq!(r.then_state_id.as_deref(), Some("b"));
        set_kind(&p, &mut r, RuleKind::ToolOnlyWhen);
        assert_eq!(r.tool.as_deref(), Some("refund"));
        assert!(r.condition.is_some() && r.first_state_id.is_none());
    }
}
