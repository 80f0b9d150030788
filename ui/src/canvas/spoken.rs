//! What a screen reader says of the canvas: a card by its title, mode, start and ending, tasks,
//! problems and the arrows that leave it ("2 arrows out: to Billing when issue type is billing,
//! …"); an arrow by its source, target and condition. Pure, tested without a browser; a card
//! says its arrows only while it has the focus (see `items::card_view`), so that building the
//! words never runs for cards nobody is on.

use plan_core::condition::Check;
use plan_core::plan::{Plan, State};
use plan_core::Severity;
use std::fmt::Write as _;

use super::scene::Card;
use super::text::plural;

/// A card's short words: its title, its mode, whether conversations start or end there, and
/// whether it has problems.
pub fn card_words(card: &Card, problem: Option<Severity>) -> String {
    let mut words = format!("{}, {} state", card.title, card.mode.label().to_lowercase());
    if card.is_start {
        words.push_str(", where conversations start");
    }
    if let Some(ending) = &card.ending {
        let _ = write!(words, ", ends: {ending}");
    }
    words.push_str(match problem {
        Some(Severity::Error) => ", has errors",
        Some(Severity::Warning) => ", has warnings",
        Some(Severity::Info) => ", has a note",
        None => "",
    });
    words
}

/// A focused card's whole words: its short words, then its tasks and the arrows out of it in the
/// order the runtime checks them.
pub fn card_spoken(card: &Card, plan: &Plan, problem: Option<Severity>) -> String {
    let mut words = card_words(card, problem);
    let Some(state) = plan.state(&card.id) else {
        return words;
    };
    if !state.tasks.is_empty() {
        let tasks: Vec<&str> = state
            .tasks
            .iter()
            .map(|t| {
                if t.description.is_empty() {
                    t.id.as_str()
                } else {
                    t.description.as_str()
                }
            })
            .collect();
        let _ = write!(
            words,
            ". {}: {}",
            plural(tasks.len(), "task"),
            tasks.join(", ")
        );
    }
    let mut order: Vec<usize> = (0..state.transitions.len()).collect();
    order.sort_by_key(|&i| state.check_order(i));
    if order.is_empty() {
        words.push_str(". No arrows out");
    } else {
        let arrows: Vec<String> = order.iter().map(|&i| arrow_out(plan, state, i)).collect();
        let _ = write!(
            words,
            ". {} out: {}",
            plural(arrows.len(), "arrow"),
            arrows.join("; ")
        );
    }
    words.push_str(
        ". Enter opens it, ] selects its arrows, C connects it, N adds a state beside it",
    );
    words
}

/// An arrow as its card says it: "to Billing when issue type is billing".
fn arrow_out(plan: &Plan, state: &State, index: usize) -> String {
    let t = &state.transitions[index];
    let to = plan.state(&t.target_state_id).map_or(
        format!("a missing state “{}”", t.target_state_id),
        |s| s.title.clone(),
    );
    let kind = t.condition_type_in(state.kind);
    let condition = match Check::read(kind, &t.condition_config) {
        Ok(check) => check.describe(),
        Err(_) => "a condition whose settings need fixing".to_string(),
    };
    if t.label.is_empty() {
        format!("to {to} when {condition}")
    } else {
        format!("to {to}: {}, when {condition}", t.label)
    }
}

/// An arrow as it is read when selected: "Arrow 1 of 3, from Intake to Billing when issue type
/// is billing".
pub fn arrow_spoken(plan: &Plan, from: &str, index: usize) -> Option<String> {
    let state = plan.state(from)?;
    state.transitions.get(index)?;
    let of = state.transitions.len();
    let order = state.check_order(index) + 1;
    Some(format!(
        "Arrow {order} of {of}, from {} {}",
        state.title,
        arrow_out(plan, state, index)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::canvas::scene::Scene;

    fn support() -> Plan {
        plan_core::parse::parse_plan(include_str!("../../../plans/customer-support.json"))
            .expect("the sample parses")
    }

    #[test]
    fn a_card_is_read_out_by_title_mode_start_ending_and_problems() {
        let scene = Scene::build(&support());
        let first = scene.cards.iter().find(|c| c.is_start).expect("a start");
        let words = card_words(first, Some(Severity::Warning));
        assert!(words.starts_with(&format!("{}, ", first.title)), "{words}");
        assert!(
            words.contains("where conversations start") && words.ends_with("has warnings"),
            "{words}"
        );
        let ending = scene
            .cards
            .iter()
            .find(|c| c.ending.is_some())
            .expect("an ending");
        assert!(
            card_words(ending, None).contains(", ends: "),
            "{}",
            card_words(ending, None)
        );
    }

    #[test]
    fn a_focused_card_also_says_its_tasks_and_where_each_arrow_goes_and_when() {
        let plan = support();
        let scene = Scene::build(&plan);
        let intake = scene
            .cards
            .iter()
            .find(|c| c.id == "customer-intake")
            .expect("intake");
        let words = card_spoken(intake, &plan, None);
        let state = plan.state("customer-intake").expect("intake");
        let n = state.transitions.len();
        assert!(words.contains(&format!("{n} arrows out: to ")), "{words}");
        let first_target = &state.transitions[(0..n)
            .find(|&i| state.check_order(i) == 0)
            .expect("a first")]
        .target_state_id;
        let title = &plan.state(first_target).expect("target").title;
        assert!(
            words.contains(&format!("arrows out: to {title} when ")),
            "{words}"
        );
        assert!(words.contains("task"), "{words}");
        let ending = scene
            .cards
            .iter()
            .find(|c| c.ending.is_some())
            .expect("an ending");
        assert!(card_spoken(ending, &plan, None).contains("No arrows out"));
    }

    #[test]
    fn a_selected_arrow_says_its_place_source_target_and_condition() {
        let plan = support();
        let words = arrow_spoken(&plan, "customer-intake", 0).expect("an arrow");
        assert!(words.starts_with("Arrow "), "{words}");
        assert!(words.contains(" of "), "{words}");
        assert!(words.contains("from Customer Intake to "), "{words}");
        assert!(words.contains(" when "), "{words}");
        assert_eq!(arrow_spoken(&plan, "customer-intake", 99), None);
        assert_eq!(arrow_spoken(&plan, "nowhere", 0), None);
    }
}
