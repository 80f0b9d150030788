//! End-to-end tests of the condition builder: each kind of condition is built in its own fields,
//! with the pickers offering what the plan declares, and the draft on disk holds what was picked.

use plan_core::condition::ConditionType;
use plan_core::plan::Plan;
use plan_tests::ensure;
use plan_tests::hooks;
use plan_tests::page::{click, count, ensure_count, open_plan, set_value, Outcome};
use plan_tests::{Ctx, Test};
use serde_json::{json, Value};

use super::editor::{nested, select_arrow, wait_for_draft};

/// This suite's tests, in the order they run.
pub const TESTS: &[Test] = plan_tests::tests![each_kind_of_condition_is_built_in_its_own_fields];

/// The condition of verify's first arrow, as the draft holds it.
fn first_arrow(p: &Plan) -> Option<(ConditionType, Value)> {
    let t = p.state("verify")?.transitions.first()?;
    Some((t.condition_type?, Value::Object(t.condition_config.clone())))
}

/// Waits until verify's first arrow holds `ty` with `config`.
fn arrow_holds(ctx: &Ctx, ty: ConditionType, config: Value) -> Outcome {
    let wanted = Some((ty, config));
    wait_for_draft(ctx, "account-care", ty.as_str(), |p| {
        first_arrow(p) == wanted
    })
    .map(|_| ())
}

fn each_kind_of_condition_is_built_in_its_own_fields(ctx: &Ctx) -> Outcome {
    open_plan(ctx, "account-care")?;
    select_arrow(ctx, "verify", 0)?;
    let pick = |field: &str, value: &str| set_value(ctx, &nested(field, ""), value);

    // A tool's result: the codes offered are the tool's own; turned around by the checkbox.
    pick("response-code", "FAILED")?;
    click(ctx, &nested("negated", ""))?;
    arrow_holds(
        ctx,
        ConditionType::ToolResult,
        json!({"tool": "verify_identity", "response_code": "FAILED", "negated": true}),
    )?;

    // A number compared: only number keys, and `between` asks for both ends.
    pick("condition-type", "deliverable_value_numeric")?;
    pick("key", "overcharge")?;
    pick("operator", "between")?;
    ensure!(
        count(ctx, &nested("value", ""))? == 0,
        "between still asks for one number"
    )?;
    pick("min", "3")?;
    pick("max", "7.5")?;
    arrow_holds(
        ctx,
        ConditionType::DeliverableValueNumeric,
        json!({"key": "overcharge", "operator": "between", "min": 3, "max": 7.5}),
    )?;

    // A session state's value: a number state is offered the orderings, and the value is a number.
    pick("condition-type", "session_state_value")?;
    pick("session-state", "verify_attempts")?;
    pick("session-operator", "gte")?;
    pick("session-value", "2")?;
    arrow_holds(
        ctx,
        ConditionType::SessionStateValue,
        json!({"session_state": "verify_attempts", "operator": "gte", "value": 2}),
    )?;
    // A list state holds one value; it is offered no ordering.
    pick("session-state", "topics")?;
    ensure_count(
        ctx,
        "[data-testid=field-session-operator] option[value=gte]",
        0,
        "a list state is offered ≥",
    )?;
    pick("session-operator", "contains")?;
    pick("session-value", "roaming")?;
    arrow_holds(
        ctx,
        ConditionType::SessionStateValue,
        json!({"session_state": "topics", "operator": "contains", "value": "roaming"}),
    )?;

    // Visits of another state.
    pick("condition-type", "visit_count_exceeded")?;
    pick("visits", "4")?;
    pick("visits-state", "billing")?;
    arrow_holds(
        ctx,
        ConditionType::VisitCountExceeded,
        json!({"visits": 4, "state_id": "billing"}),
    )?;

    // A compound combined with "or", one condition more, the first one changed in its place.
    pick("condition-type", "compound")?;
    pick("compound-operator", "or")?;
    click(ctx, hooks::ADD_ROOT_CONDITION)?;
    set_value(ctx, &nested("condition-type", "0"), "turn_count_exceeded")?;
    set_value(ctx, &nested("scope", "0"), "total")?;
    ctx.screenshot("condition-compound")?;
    wait_for_draft(ctx, "account-care", "the compound", |p| {
        first_arrow(p).is_some_and(|(ty, c)| {
            ty == ConditionType::Compound
                && c["operator"] == "or"
                && c["conditions"].as_array().map(Vec::len) == Some(2)
                && c["conditions"][0]["condition_config"]["scope"] == "total"
        })
    })
    .map(|_| ())
}
