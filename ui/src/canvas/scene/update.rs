//! A scene kept up to date after an edit without building it again: one state's content changed
//! (its card and its arrows' labels made again), cards moved (their arrows drawn again). Each
//! answers exactly what a whole build would, which the tests check.

use std::collections::HashMap;

use plan_core::plan::Plan;

use super::*;

impl Scene {
    /// This scene, drawn for `plan`, in which only state `id`'s content changed since: its card
    /// and its arrows' labels are made again, everything else is kept. `None` when the change was
    /// more than that (states added, removed or reordered, an arrow added, removed or pointed
    /// elsewhere), for which the whole scene must be built.
    pub fn with_state_redrawn(&self, plan: &Plan, id: &str) -> Option<Scene> {
        if plan.states.len() != self.cards.len() {
            return None;
        }
        let i = plan.states.iter().position(|s| s.id == id)?;
        let state = &plan.states[i];
        let rect = self.cards.get(i).filter(|c| c.id == id)?.rect;
        // The state's arrows are next to each other, in its transitions' order.
        let first = self.arrows.iter().position(|a| a.from == id);
        let count = first.map_or(0, |f| {
            self.arrows[f..].iter().take_while(|a| a.from == id).count()
        });
        let same_targets = count == state.transitions.len()
            && self.arrows[first.unwrap_or(0)..][..count]
                .iter()
                .zip(&state.transitions)
                .all(|(a, t)| a.to == t.target_state_id);
        if !same_targets {
            return None;
        }
        let mut out = self.clone();
        out.cards[i] = card(state, rect, plan.start_state_id() == Some(id));
        if let Some(f) = first {
            for (k, a) in out.arrows[f..][..count].iter_mut().enumerate() {
                let drawing = Drawing {
                    path: a.path.clone(),
                    reach: a.reach,
                    line: a.line,
                };
                *a = arrow(state, i, k, drawing, a.shape);
            }
        }
        Some(out)
    }

    /// The scene with the cards `ids` moved by a world offset and the arrows touching them
    /// redrawn: what the canvas shows while cards are dragged, without rebuilding the scene.
    pub fn moved(&self, ids: &[String], dx: f64, dy: f64) -> Scene {
        let by: HashMap<&str, (f64, f64)> = ids.iter().map(|id| (id.as_str(), (dx, dy))).collect();
        self.shifted(&by)
    }

    /// The scene of `plan`, which differs from the plan this scene was drawn from only in where
    /// the states `ids` are (a drop): their cards moved and the arrows touching them redrawn,
    /// instead of building the scene anew (83 ms of the drop's frame at 10,000 states). `None`
    /// when more changed, or the interruptions above the flow or the lanes below it would move
    /// with its bounds.
    pub fn with_states_moved(&self, plan: &Plan, ids: &[String]) -> Option<Scene> {
        // A state without a place of its own is placed after the others: it may move with them.
        if plan.states.len() != self.cards.len()
            || !plan.states.iter().all(|s| plan.layout.contains_key(&s.id))
        {
            return None;
        }
        let mut by: HashMap<&str, (f64, f64)> = HashMap::new();
        for c in &self.cards {
            if ids.contains(&c.id) && !by.contains_key(c.id.as_str()) {
                let to = plan.layout.get(&c.id)?;
                by.insert(c.id.as_str(), (to.x - c.rect.x, to.y - c.rect.y));
            }
        }
        if by.len() != ids.len() {
            return None;
        }
        let mut out = self.shifted(&by);
        // The moved cards and arrows made again from the plan, so their keys say where they are.
        let start = plan.start_state_id();
        for (i, c) in out.cards.iter_mut().enumerate() {
            if by.contains_key(c.id.as_str()) {
                let state = plan.states.get(i).filter(|s| s.id == c.id)?;
                *c = card(state, c.rect, start == Some(c.id.as_str()));
            }
        }
        for a in &mut out.arrows {
            if by.contains_key(a.from.as_str()) || by.contains_key(a.to.as_str()) {
                let state = plan.states.get(a.state).filter(|s| s.id == a.from)?;
                let drawing = Drawing {
                    path: a.path.clone(),
                    reach: a.reach,
                    line: a.line,
                };
                *a = arrow(state, a.state, a.index, drawing, a.shape);
            }
        }
        let flow = |s: &Scene| bounds(s.cards.iter().map(|c| c.rect));
        let around_flow = !out.interruptions.is_empty() || out.lanes != Lanes::default();
        if around_flow && flow(&out) != flow(self) {
            return None;
        }
        out.bounds = bounds(
            out.cards
                .iter()
                .map(|c| c.rect)
                .chain(out.interruptions.iter().map(|d| d.rect))
                .chain(out.lanes.bounds()),
        );
        Some(out)
    }

    /// The scene with each card of `by` moved by its offset and the arrows touching them redrawn.
    fn shifted(&self, by: &HashMap<&str, (f64, f64)>) -> Scene {
        let ids = |id: &str| by.contains_key(id);
        let mut out = self.clone();
        let mut rects: HashMap<&str, Rect> = HashMap::new();
        for c in &mut out.cards {
            if let Some((dx, dy)) = by.get(c.id.as_str()) {
                c.rect.x += dx;
                c.rect.y += dy;
            }
        }
        for c in &out.cards {
            rects.entry(c.id.as_str()).or_insert(c.rect);
        }
        for a in &mut out.arrows {
            if ids(&a.from) || ids(&a.to) {
                let from = rects[a.from.as_str()];
                let Drawing { path, reach, line } =
                    draw(a.shape, from, rects.get(a.to.as_str()).copied());
                (a.path, a.reach, a.line) = (path, reach, line);
            }
        }
        for d in &mut out.interruptions {
            if ids(&d.target) {
                d.path = rects
                    .get(d.target.as_str())
                    .map(|t| arrow_between(d.rect, *t, 0.0));
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::PLAN;
    use super::*;
    use plan_core::parse_plan;
    use plan_core::plan::State;

    /// A drop: the scene with the moved cards is the scene built anew, card for card and arrow for
    /// arrow (keys included), unless the plan's bounds moved the interruptions above it.
    #[test]
    fn moving_states_equals_building_the_scene_again() {
        use plan_core::edit::{apply, Command};
        use plan_core::plan::Position;
        let plans = [
            parse_plan(PLAN).unwrap(),
            plan_core::synthetic::plan(60),
            parse_plan(include_str!("../../../../plans/vehicle-viewing.json")).unwrap(),
        ];
        let mut redrawn = 0;
        for plan in plans {
            let before = Scene::build(&plan);
            let ids: Vec<String> = plan.states.iter().take(2).map(|s| s.id.clone()).collect();
            let moves = ids
                .iter()
                .map(|id| {
                    let c = before.cards.iter().find(|c| c.id == *id).unwrap();
                    (
                        id.clone(),
                        Position {
                            x: c.rect.x + 24.0,
                            y: c.rect.y + 12.0,
                        },
                    )
                })
                .collect();
            let after = apply(&plan, &Command::MoveStates { moves }).unwrap().plan;
            let moved = before.with_states_moved(&after, &ids);
            let built = Scene::build(&after);
            let placed = plan.states.iter().all(|s| plan.layout.contains_key(&s.id));
            match moved {
                Some(moved) => {
                    assert!(moved == built, "{}: not the scene built anew", plan.id);
                    redrawn += 1;
                }
                None => assert!(
                    !placed || !plan.interruptions.is_empty() || !plan.evaluations.is_empty(),
                    "{}: refused",
                    plan.id
                ),
            }
        }
        assert!(redrawn >= 1, "no plan was redrawn: the test proves nothing");
    }

    /// Each edit of one state: the scene redrawn for that state is the scene built anew, or
    /// the edit is refused for a whole build.
    #[test]
    fn redrawing_one_state_equals_building_the_scene_again() {
        let plan = parse_plan(PLAN).unwrap();
        let before = Scene::build(&plan);
        type Edit = fn(&mut State);
        let kept: [(&str, Edit); 6] = [
            ("a", |s| s.title = "Customer intake".into()),
            ("a", |s| s.kind = StateType::Loose),
            ("a", |s| s.transitions[1].label = "otherwise".into()),
            ("a", |s| s.transitions[0].priority.0 = 7.0),
            ("b", |s| s.transitions[0].label = "back".into()),
            ("c", |s| s.tasks.clear()),
        ];
        for (id, edit) in kept {
            let mut after = plan.clone();
            edit(after.states_mut().find(|s| s.id == id).unwrap());
            let redrawn = before.with_state_redrawn(&after, id);
            assert_eq!(redrawn, Some(Scene::build(&after)), "an edit of {id}");
        }
        let rebuilt: [(&str, Edit); 3] = [
            ("a", |s| s.transitions[0].target_state_id = "c".into()),
            ("b", |s| s.transitions.clear()),
            ("c", |s| {
                s.transitions
                    .push(serde_json::from_str(r#"{"target_state_id": "a"}"#).unwrap())
            }),
        ];
        for (id, edit) in rebuilt {
            let mut after = plan.clone();
            edit(after.states_mut().find(|s| s.id == id).unwrap());
            assert_eq!(
                before.with_state_redrawn(&after, id),
                None,
                "an arrow of {id} changed"
            );
        }
        let mut fewer = plan.clone();
        fewer.states.pop();
        assert_eq!(before.with_state_redrawn(&fewer, "a"), None, "a state went");
    }
}
