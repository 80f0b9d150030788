//! The plan as a graph, built once per validation with petgraph: which states the start reaches,
//! which can still reach an end (trap cycles, through strongly connected components), and where a
//! key has been collected on every way in.
//!
//! Nodes are states by position (a duplicated id points at its first state). There is an edge for
//! every transition with a known target, whatever its condition, and one from each goal state with
//! transitions to the next state in plan order (a goal that closes with no matching route falls
//! through to it). A session can end in a state without transitions, and in a goal state with
//! transitions that is last in plan order.

use petgraph::algo::tarjan_scc;
use petgraph::graph::{DiGraph, NodeIndex};
use petgraph::visit::{Bfs, Walker};

use super::fasthash::FastMap;
use crate::plan::{Plan, StateType};

pub struct Graph {
    graph: DiGraph<(), ()>,
    /// `reachable[i]`: the start state reaches state `i`; `None` when there is no known start.
    pub reachable: Option<Vec<bool>>,
    /// `can_end[i]`: from state `i` some state that can end the session is reachable.
    pub can_end: Vec<bool>,
}

impl Graph {
    pub fn build(plan: &Plan, index_of: &FastMap<&str, usize>) -> Graph {
        let n = plan.states.len();
        let mut graph = DiGraph::<(), ()>::with_capacity(n, plan.transition_count() + n);
        for _ in 0..n {
            graph.add_node(());
        }
        let node = NodeIndex::new;
        let mut ends = vec![false; n];
        for (i, state) in plan.states.iter().enumerate() {
            for t in &state.transitions {
                if let Some(&j) = index_of.get(t.target_state_id.as_str()) {
                    graph.add_edge(node(i), node(j), ());
                }
            }
            let goal_with_routes = state.kind == StateType::Goal && !state.transitions.is_empty();
            if goal_with_routes && i + 1 < n {
                graph.add_edge(node(i), node(i + 1), ());
            }
            ends[i] = state.transitions.is_empty() || (goal_with_routes && i + 1 == n);
        }

        let reachable = plan
            .start_state_id()
            .and_then(|id| index_of.get(id))
            .map(|&start| {
                let mut seen = vec![false; n];
                for v in Bfs::new(&graph, node(start)).iter(&graph) {
                    seen[v.index()] = true;
                }
                seen
            });

        // Strongly connected components come out sinks first, so every component's successors are
        // settled before it: a component can end if a member can, or if it leads to one that can.
        let mut can_end = vec![false; n];
        for component in tarjan_scc(&graph) {
            let ok = component
                .iter()
                .any(|v| ends[v.index()] || graph.neighbors(*v).any(|w| can_end[w.index()]));
            for v in &component {
                can_end[v.index()] = ok;
            }
        }
        Graph {
            graph,
            reachable,
            can_end,
        }
    }

    /// `out[i]`: state `i` is one of `collectors` or some collector has a path to it.
    pub fn downstream_of(&self, collectors: &[usize]) -> Vec<bool> {
        let mut seen = vec![false; self.graph.node_count()];
        let mut stack: Vec<NodeIndex> = Vec::new();
        for &c in collectors {
            if !seen[c] {
                seen[c] = true;
                stack.push(NodeIndex::new(c));
            }
        }
        while let Some(v) = stack.pop() {
            for w in self.graph.neighbors(v) {
                if !seen[w.index()] {
                    seen[w.index()] = true;
                    stack.push(w);
                }
            }
        }
        seen
    }
}
