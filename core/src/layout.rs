//! Canvas positions: a layered, left-to-right layout for plans that have none (an import, a plan
//! written by hand), and filling in the states a layout misses.
//!
//! Layers come from breadth-first distance from the start state over the transition graph (petgraph),
//! so the start state is leftmost and each step of a conversation moves one column right. States the
//! start cannot reach go in a last column, so nothing is ever left off the canvas.

use std::collections::{BTreeMap, HashMap};

use petgraph::graph::{DiGraph, NodeIndex};
use petgraph::visit::Bfs;

use crate::plan::{Plan, Position};

/// Horizontal distance between layers, in canvas units (a card is 240 wide).
pub const COLUMN_SPACING: f64 = 440.0;
/// Vertical distance between states of one layer (a card is about 100 high).
pub const ROW_SPACING: f64 = 170.0;

/// A position for every state, by layers from the start state. Existing positions are ignored.
pub fn layered(plan: &Plan) -> BTreeMap<String, Position> {
    let mut graph: DiGraph<usize, ()> = DiGraph::new();
    let nodes: Vec<NodeIndex> = (0..plan.states.len()).map(|i| graph.add_node(i)).collect();
    let index: HashMap<&str, NodeIndex> = plan
        .states
        .iter()
        .zip(&nodes)
        .map(|(s, n)| (s.id.as_str(), *n))
        .rev() // the first of duplicate ids wins, as everywhere else
        .collect();
    for (state, from) in plan.states.iter().zip(&nodes) {
        for t in &state.transitions {
            if let Some(to) = index.get(t.target_state_id.as_str()) {
                graph.add_edge(*from, *to, ());
            }
        }
    }

    let mut layer: Vec<Option<usize>> = vec![None; plan.states.len()];
    if let Some(start) = plan.start_state_id().and_then(|id| index.get(id)) {
        layer[start.index()] = Some(0);
        let mut bfs = Bfs::new(&graph, *start);
        while let Some(n) = bfs.next(&graph) {
            let depth = layer[n.index()].unwrap_or(0);
            for next in graph.neighbors(n) {
                if layer[next.index()].is_none() {
                    layer[next.index()] = Some(depth + 1);
                }
            }
        }
    }
    let last = layer.iter().flatten().max().map_or(0, |m| m + 1);

    let mut rows: HashMap<usize, usize> = HashMap::new();
    let mut out = BTreeMap::new();
    for (i, state) in plan.states.iter().enumerate() {
        if out.contains_key(&state.id) {
            continue;
        }
        let column = layer[i].unwrap_or(last);
        let row = rows.entry(column).or_insert(0);
        out.insert(
            state.id.clone(),
            Position {
                x: column as f64 * COLUMN_SPACING,
                y: *row as f64 * ROW_SPACING,
            },
        );
        *row += 1;
    }
    out
}

/// The plan's layout with a position for every state: kept where it has one; when any is missing,
/// the missing ones are placed by [`layered`] below everything already placed.
pub fn complete(plan: &Plan) -> BTreeMap<String, Position> {
    // A set of the ids: looking each layout entry up in the state list was quadratic (a third of
    // the time to open a plan of 5,000 states).
    let ids: std::collections::HashSet<&str> = plan.states.iter().map(|s| s.id.as_str()).collect();
    let mut out: BTreeMap<String, Position> = plan
        .layout
        .iter()
        .filter(|(id, _)| ids.contains(id.as_str()))
        .map(|(id, p)| (id.clone(), *p))
        .collect();
    if plan.states.iter().all(|s| out.contains_key(&s.id)) {
        return out;
    }
    let below = out
        .values()
        .map(|p| p.y + ROW_SPACING)
        .fold(0.0_f64, f64::max);
    for (id, p) in layered(plan) {
        out.entry(id).or_insert(Position {
            x: p.x,
            y: p.y + below,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse_plan;

    fn plan(json: &str) -> Plan {
        parse_plan(json).unwrap()
    }

    const CHAIN: &str = r#"{"id": "p", "title": "P", "start_state_id": "a", "states": [
        {"id": "c", "title": "C"},
        {"id": "a", "title": "A", "transitions": [{"target_state_id": "b"}, {"target_state_id": "c"}]},
        {"id": "b", "title": "B", "transitions": [{"target_state_id": "c"}]},
        {"id": "lost", "title": "Lost"}
    ]}"#;

    #[test]
    fn start_state_is_leftmost_and_each_step_moves_one_column_right() {
        let layout = layered(&plan(CHAIN));
        assert_eq!(layout["a"].x, 0.0);
        assert_eq!(layout["b"].x, COLUMN_SPACING);
        // c is one step from a, even though b also leads there.
        assert_eq!(layout["c"].x, COLUMN_SPACING);
        assert_ne!(layout["b"].y, layout["c"].y);
        // Unreachable states get a column of their own after the rest.
        assert_eq!(layout["lost"].x, 2.0 * COLUMN_SPACING);
    }

    #[test]
    fn complete_keeps_existing_positions_and_places_only_the_missing() {
        let mut p = plan(CHAIN);
        p.layout.insert("a".into(), Position { x: 500.0, y: 40.0 });
        let layout = complete(&p);
        assert_eq!(layout["a"], Position { x: 500.0, y: 40.0 });
        assert_eq!(layout.len(), 4);
        assert!(layout["b"].y >= 40.0 + ROW_SPACING);
    }
}
