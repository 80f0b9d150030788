//! What the canvas draws, computed from a plan: cards with their text and arrows with their paths
//! and labels. Pure, so it is tested without a browser; the views only copy these values into DOM.

use std::collections::HashMap;
use std::hash::{Hash, Hasher};

use super::key::key_of;
pub use super::text::ArrowText;
use super::text::{self, changes_line};

use plan_core::layout;
use plan_core::plan::{Ending, Plan, State, StateType};

use super::detours::detours;
pub use super::detours::Detour;
use super::lanes::{lanes, Lanes};
mod update;

use super::geometry::{
    arrow_between, bounds, dangling, self_loop, ArrowPath, Rect, CARD_H, CARD_W,
};

/// Distance between the middles of parallel arrows, in canvas units.
const PARALLEL_SPACING: f64 = 38.0;

/// A state card.
#[derive(Debug, Clone, PartialEq)]
pub struct Card {
    /// Identity for the view: changes whenever anything drawn changes, so a reloaded plan never
    /// shows a stale card under an unchanged id (see [`key_of`]).
    pub key: u64,
    pub id: String,
    pub title: String,
    pub mode: StateType,
    /// "3 tasks", "Goal", "No tasks".
    pub work: String,
    /// The deliverable keys the state collects, in document order.
    pub keys: Vec<String>,
    pub is_start: bool,
    /// "Ends", "Hangs up", "Hands off to Triage nurse"; `None` when the state has transitions.
    pub ending: Option<String>,
    /// What entering it does to session states: "sets attempts = 0, switches on vip".
    pub changes: Option<String>,
    /// A return point: reaching it hands the conversation back to the parked task.
    pub returns: bool,
    pub rect: Rect,
}

/// A transition arrow.
#[derive(Debug, Clone, PartialEq)]
pub struct Arrow {
    /// Identity for the view, as [`Card::key`].
    pub key: u64,
    pub from: String,
    /// Position in the source state's `transitions`.
    pub index: usize,
    pub to: String,
    /// Where its source state is in the plan's states, to read its text from (see
    /// [`Arrow::text`] in `text`).
    pub state: usize,
    pub path: ArrowPath,
    /// The target state does not exist.
    pub dangling: bool,
    /// How the path is drawn, to redraw it when a card moves.
    pub shape: Shape,
    /// The area the arrow may cover, for drawing only what is on screen.
    pub reach: Rect,
    /// From the middle of its card to the middle of the target's, as the overview draws it;
    /// none when the target does not exist.
    pub line: Option<((f64, f64), (f64, f64))>,
}

/// How an arrow's path is made from its cards.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Shape {
    /// Between two cards, bent sideways by this much (parallel arrows fan out).
    Between(f64),
    /// The `n`th loop on its own card.
    Loop(usize),
    /// The `n`th stub to a missing state.
    Dangling(usize),
}

/// Everything the canvas draws for one plan.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Scene {
    pub cards: Vec<Card>,
    pub arrows: Vec<Arrow>,
    pub interruptions: Vec<Detour>,
    /// The session states and evaluations below the flow, and the edges between them.
    pub lanes: Lanes,
    /// Bounding box of all cards, for fitting the view.
    pub bounds: Option<Rect>,
}

impl Scene {
    pub fn build(plan: &Plan) -> Scene {
        let positions = layout::complete(plan);
        let start = plan.start_state_id();
        let mut rects: HashMap<&str, Rect> = HashMap::new();
        let mut cards = Vec::with_capacity(plan.states.len());
        for state in &plan.states {
            let p = positions.get(&state.id).copied().unwrap_or_default();
            let rect = Rect::new(p.x, p.y, CARD_W, CARD_H);
            rects.entry(state.id.as_str()).or_insert(rect);
            cards.push(card(state, rect, start == Some(state.id.as_str())));
        }

        // Arrows between the same two states share a group and fan out around the straight line.
        let mut group_size: HashMap<(&str, &str), usize> = HashMap::new();
        for state in &plan.states {
            for t in &state.transitions {
                if t.target_state_id != state.id && rects.contains_key(t.target_state_id.as_str()) {
                    *group_size
                        .entry(pair(&state.id, &t.target_state_id))
                        .or_default() += 1;
                }
            }
        }
        let mut group_seen: HashMap<(&str, &str), usize> = HashMap::new();
        let mut arrows = Vec::with_capacity(plan.transition_count());
        for (at, state) in plan.states.iter().enumerate() {
            let from = rects[state.id.as_str()];
            let (mut loops, mut stubs) = (0, 0);
            for (index, t) in state.transitions.iter().enumerate() {
                let to = t.target_state_id.as_str();
                let shape = match rects.get(to) {
                    None => {
                        stubs += 1;
                        Shape::Dangling(stubs - 1)
                    }
                    Some(_) if to == state.id => {
                        loops += 1;
                        Shape::Loop(loops - 1)
                    }
                    Some(_) => {
                        let key = pair(&state.id, to);
                        let k = group_size[&key];
                        let i = group_seen.entry(key).or_default();
                        let mut bend = (*i as f64 - (k as f64 - 1.0) / 2.0) * PARALLEL_SPACING;
                        *i += 1;
                        if state.id.as_str() > to {
                            bend = -bend; // same fan on both sides of a two-way pair
                        }
                        Shape::Between(bend)
                    }
                };
                let drawing = draw(shape, from, rects.get(to).copied());
                arrows.push(arrow(state, at, index, drawing, shape));
            }
        }
        let flow = bounds(cards.iter().map(|c| c.rect));
        let interruptions = detours(plan, flow, &rects);
        let lanes = lanes(plan, flow);
        let bounds = bounds(
            cards
                .iter()
                .map(|c| c.rect)
                .chain(interruptions.iter().map(|d| d.rect))
                .chain(lanes.bounds()),
        );
        Scene {
            cards,
            arrows,
            interruptions,
            lanes,
            bounds,
        }
    }
}

/// Where an arrow is drawn (see the fields of the same names in [`Arrow`]).
struct Drawing {
    path: ArrowPath,
    reach: Rect,
    line: Option<((f64, f64), (f64, f64))>,
}

/// The drawing of an arrow of `shape` between `from` and `to` (absent for a dangling arrow).
fn draw(shape: Shape, from: Rect, to: Option<Rect>) -> Drawing {
    let (path, reach) = match (shape, to) {
        (Shape::Between(bend), Some(to)) => (
            arrow_between(from, to, bend),
            from.union(&to).inflate(bend.abs() + 20.0),
        ),
        (Shape::Loop(n), _) => (self_loop(from, n), from.inflate(40.0 + 34.0 * n as f64)),
        (Shape::Dangling(n), _) => (dangling(from, n), from.inflate(110.0)),
        (Shape::Between(_), None) => (dangling(from, 0), from.inflate(110.0)),
    };
    let line = to.map(|to| (from.center(), to.center()));
    Drawing { path, reach, line }
}

fn pair<'a>(a: &'a str, b: &'a str) -> (&'a str, &'a str) {
    if a <= b {
        (a, b)
    } else {
        (b, a)
    }
}

fn card(state: &State, rect: Rect, is_start: bool) -> Card {
    let mut keys: Vec<String> = Vec::new();
    for d in state.deliverables() {
        if !keys.contains(&d.key) {
            keys.push(d.key.clone());
        }
    }
    let work = match (state.kind, state.tasks.len()) {
        (StateType::Goal, _) => "Goal".to_string(),
        (_, 0) => "No tasks".to_string(),
        (_, 1) => "1 task".to_string(),
        (_, n) => format!("{n} tasks"),
    };
    let ending = state.effective_ending().map(|e| match e {
        Ending::Complete {} => "Ends".to_string(),
        Ending::HangUp {} => "Hangs up".to_string(),
        Ending::HandOff { to, .. } => format!("Hands off to {to}"),
        Ending::Resume {} => "↩ Returns to the parked task".to_string(),
    });
    let changes = changes_line(&state.on_enter);
    let key = key_of((
        &state.id,
        &state.title,
        state.kind,
        &work,
        &keys,
        is_start,
        &ending,
        &changes,
        rect.x.to_bits(),
        rect.y.to_bits(),
    ));
    Card {
        key,
        id: state.id.clone(),
        title: state.title.clone(),
        mode: state.kind,
        work,
        keys,
        is_start,
        ending,
        changes,
        returns: state.is_ending() && state.ending == Some(Ending::Resume {}),
        rect,
    }
}

fn arrow(state: &State, at: usize, index: usize, drawing: Drawing, shape: Shape) -> Arrow {
    let Drawing { path, reach, line } = drawing;
    let dangling = matches!(shape, Shape::Dangling(_));
    let t = &state.transitions[index];
    // Everything its text is made from, rather than the text itself.
    let mut h = std::hash::DefaultHasher::new();
    (&state.id, index, &path.d).hash(&mut h);
    text::hash_inputs(state, index, dangling, &mut h);
    Arrow {
        key: h.finish(),
        from: state.id.clone(),
        index,
        to: t.target_state_id.clone(),
        state: at,
        path,
        dangling,
        shape,
        reach,
        line,
    }
}

impl Arrow {
    /// What the arrow says, read from `plan`, the plan its scene was built from.
    pub fn text(&self, plan: &Plan) -> ArrowText {
        let state = plan
            .states
            .get(self.state)
            .map(|s| &**s)
            .filter(|s| s.id == self.from)
            .or_else(|| plan.state(&self.from));
        match state {
            Some(state) if self.index < state.transitions.len() => {
                text::arrow_text(state, self.index, self.dangling)
            }
            _ => ArrowText::default(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use plan_core::parse_plan;

    fn scene(json: &str) -> Scene {
        Scene::build(&parse_plan(json).unwrap())
    }

    pub(super) const PLAN: &str = r#"{"id": "p", "title": "P", "states": [
        {"id": "a", "title": "Intake", "type": "strict",
         "tasks": [{"id": "t", "deliverables": [{"key": "issue", "type": "enum", "enum_values": ["billing", "other"]}]}],
         "transitions": [
            {"target_state_id": "b", "condition_type": "deliverable_value", "condition_config": {"key": "issue", "value": "billing"}},
            {"target_state_id": "b", "priority": 10, "label": "anything else"},
            {"target_state_id": "a", "condition_type": "turn_count_exceeded", "condition_config": {"turns": 3}},
            {"target_state_id": "ghost"}
         ]},
        {"id": "b", "title": "Billing", "transitions": [{"target_state_id": "a"}]},
        {"id": "c", "title": "Bye", "ending": {"kind": "hand_off", "to": "a person", "reason": "asked"}}
    ], "layout": {"a": {"x": 0, "y": 0}, "b": {"x": 400, "y": 0}}}"#;

    #[test]
    fn cards_say_mode_work_keys_start_and_ending() {
        let s = scene(PLAN);
        let a = &s.cards[0];
        assert_eq!(
            (a.mode, a.work.as_str(), a.is_start),
            (StateType::Strict, "1 task", true)
        );
        assert_eq!(a.keys, ["issue"]);
        assert_eq!(a.ending, None);
        assert_eq!(s.cards[2].ending.as_deref(), Some("Hands off to a person"));
        assert!(!s.cards[1].is_start);
    }

    #[test]
    fn arrows_are_labelled_with_their_condition_or_label_and_priority_when_there_are_several() {
        let plan = parse_plan(PLAN).unwrap();
        let s = Scene::build(&plan);
        let text = |i: usize| s.arrows[i].text(&plan);
        let first = &s.arrows[0];
        assert_eq!(
            (first.from.as_str(), first.index, first.to.as_str()),
            ("a", 0, "b")
        );
        assert_eq!(text(0).label, "issue = billing");
        assert_eq!(text(0).priority.as_deref(), Some("first"));
        assert_eq!(text(1).label, "anything else");
        assert_eq!(
            text(1).title,
            "anything else: all tasks done (checked last of 4; priority 10)"
        );
        assert_eq!(text(2).label, "after 3 turns without progress");
        // A single transition shows no priority.
        assert_eq!(text(4).priority, None);
        // Said in the order the runtime checks them: priority, then place in the list.
        let order: Vec<_> = (0..4).map(|i| text(i).priority.unwrap()).collect();
        assert_eq!(order, ["first", "last", "second", "third"]);
    }

    /// An arrow's place in the checking order depends on its siblings' priorities: a sibling's
    /// new priority gives it a new key, so its word is drawn anew.
    #[test]
    fn a_siblings_priority_redraws_an_arrows_order_word() {
        let plan = parse_plan(PLAN).unwrap();
        let before = Scene::build(&plan);
        let mut after = plan.clone();
        std::sync::Arc::make_mut(&mut after.states[0]).transitions[0]
            .priority
            .0 = 20.0;
        let rebuilt = Scene::build(&after);
        assert_ne!(before.arrows[2].key, rebuilt.arrows[2].key);
        assert_eq!(
            rebuilt.arrows[2].text(&after).priority.as_deref(),
            Some("first")
        );
        assert_eq!(
            rebuilt.arrows[0].text(&after).priority.as_deref(),
            Some("last")
        );
    }

    /// The view keeps an arrow's element while its key is unchanged, so every edit that changes
    /// what an arrow says must change its key (the text is not part of the scene).
    #[test]
    fn an_arrow_gets_a_new_key_whenever_its_text_changes() {
        let plan = parse_plan(PLAN).unwrap();
        let before = Scene::build(&plan);
        type Edit = fn(&mut State);
        let edits: [Edit; 7] = [
            |s| s.transitions[1].label = "otherwise".into(),
            |s| s.transitions[0].priority.0 = 7.0,
            |s| s.transitions[0].condition_config["value"] = "other".into(),
            |s| s.transitions[2].condition_config["turns"] = 3.5.into(),
            |s| s.transitions[0].condition_config.clear(),
            // Without a condition type, a goal state's transitions wait for its goal.
            |s| s.kind = StateType::Goal,
            |s| {
                s.transitions.truncate(1);
            },
        ];
        for (n, edit) in edits.iter().enumerate() {
            let mut after = plan.clone();
            edit(std::sync::Arc::make_mut(&mut after.states[0]));
            let rebuilt = Scene::build(&after);
            for (old, new) in before.arrows.iter().zip(&rebuilt.arrows) {
                if old.text(&plan) != new.text(&after) {
                    assert_ne!(old.key, new.key, "edit {n}: {:?}", new.text(&after));
                }
            }
            assert!(
                before
                    .arrows
                    .iter()
                    .zip(&rebuilt.arrows)
                    .any(|(old, new)| old.text(&plan) != new.text(&after)),
                "edit {n} changed no text"
            );
        }
    }

    #[test]
    fn parallel_and_two_way_arrows_do_not_overlap() {
        let s = scene(PLAN);
        let mids: Vec<f64> = [0, 1, 4]
            .iter()
            .map(|&i| s.arrows[i].path.label_at.1)
            .collect();
        assert!(
            mids[0] != mids[1] && mids[0] != mids[2] && mids[1] != mids[2],
            "{mids:?}"
        );
    }

    #[test]
    fn an_arrow_to_a_missing_state_is_drawn_as_a_marked_stub() {
        let s = scene(PLAN);
        let ghost = &s.arrows[3];
        assert!(ghost.dangling);
        assert_eq!(
            ghost.text(&parse_plan(PLAN).unwrap()).label,
            "→ missing “ghost”"
        );
        assert_eq!(ghost.line, None, "the overview draws no line to nowhere");
        let (a, b) = (s.cards[0].rect.center(), s.cards[1].rect.center());
        assert_eq!(s.arrows[0].line, Some((a, b)));
        // Moving the target card moves the overview's line with it.
        let moved = s.moved(&["b".to_string()], 100.0, 0.0);
        assert_eq!(moved.arrows[0].line, Some((a, (b.0 + 100.0, b.1))));
    }

    #[test]
    fn a_plan_without_positions_is_laid_out_and_long_labels_are_cut() {
        let plan = parse_plan(
            r#"{"id": "p", "title": "P", "states": [
            {"id": "a", "title": "A", "transitions": [{"target_state_id": "b", "condition_type": "deliverable_value_in",
              "condition_config": {"key": "category", "values": ["billing_error", "payment_failed", "card_expired", "account_locked",
                "address_unknown", "contract_cancelled", "duplicate_charge"]}}]},
            {"id": "b", "title": "B"}]}"#,
        )
        .unwrap();
        let s = Scene::build(&plan);
        assert!(s.cards[1].rect.x > s.cards[0].rect.x);
        let text = s.arrows[0].text(&plan);
        let label = &text.label;
        assert!(
            label.ends_with('…') && label.chars().count() <= text::LABEL_MAX_CHARS,
            "{label}"
        );
        assert!(text.title.ends_with("duplicate_charge"));
        assert!(s.bounds.is_some());
    }
}
