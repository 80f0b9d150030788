//! The plan as a graph, built once per validation with petgraph: which states the start reaches,
//! which can still reach an end (trap cycles, through strongly connected components), and where a
//! key has been collected on every way in.
//!
//! Nodes are states by position (a duplicated id points at its first state). There is an edge for
//! every transition with a known target, whatever its condition, and one from each goal state with
//! transitions to the next state in plan order (a goal that closes with no matching route falls
//! through to it). A session can end in a state without transitions (a return point among them),
//! and in a goal state with transitions that is last in plan order.
//!
//! Interruptions (docs/interruptions.md) add edges from every state where one can fire to its target.
//! One that may fire anywhere is not 10,000 edges: it is one edge from a virtual node, "any state"
//! (or "any interruptible state" for `yield` and `abandon`), which every state (every interruptible
//! state) has one edge to. The same questions get the same answers with at most two edges more
//! per state, however many interruptions there are. Edges say what they are, so that
//! `resume-outside-detour` walks without `yield` edges and `detour-without-return` along the flow
//! only.

use petgraph::algo::tarjan_scc;
use petgraph::graph::{DiGraph, NodeIndex};
use petgraph::visit::{Bfs, Walker};

use petgraph::Direction;

use super::fasthash::FastMap;
use crate::plan::{Ending, InterruptionKind, Plan, StateType};

/// What an edge of the graph is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Edge {
    /// A transition, or a goal state's fall-through.
    Flow,
    /// Into a `yield` interruption's target (or into the virtual node that leads there).
    Yield,
    /// Into an `abandon` or `preempt` interruption's target.
    Takeover,
}

pub struct Graph {
    graph: DiGraph<(), Edge>,
    /// How many nodes are states (the rest are the virtual "any state" nodes).
    states: usize,
    /// `reachable[i]`: the start state reaches state `i`; `None` when there is no known start.
    pub reachable: Option<Vec<bool>>,
    /// `can_end[i]`: from state `i` some state that can end the session is reachable.
    pub can_end: Vec<bool>,
}

impl Graph {
    pub fn build(plan: &Plan, index_of: &FastMap<&str, usize>) -> Graph {
        let n = plan.states.len();
        let mut graph = DiGraph::<(), Edge>::with_capacity(n + 2, plan.transition_count() + 3 * n);
        for _ in 0..n {
            graph.add_node(());
        }
        let node = NodeIndex::new;
        let mut ends = vec![false; n];
        for (i, state) in plan.states.iter().enumerate() {
            for t in &state.transitions {
                if let Some(&j) = index_of.get(t.target_state_id.as_str()) {
                    graph.add_edge(node(i), node(j), Edge::Flow);
                }
            }
            let goal_with_routes = state.kind == StateType::Goal && !state.transitions.is_empty();
            if goal_with_routes && i + 1 < n {
                graph.add_edge(node(i), node(i + 1), Edge::Flow);
            }
            ends[i] = state.transitions.is_empty() || (goal_with_routes && i + 1 == n);
        }
        // The virtual nodes, made only when an interruption may fire anywhere.
        let (mut any, mut any_interruptible) = (None, None);
        for interruption in &plan.interruptions {
            let Some(&target) = index_of.get(interruption.target_state_id.as_str()) else {
                continue;
            };
            let kind = match interruption.kind {
                InterruptionKind::Yield => Edge::Yield,
                _ => Edge::Takeover,
            };
            let needs_interruptible = interruption.kind != InterruptionKind::Preempt;
            if interruption.only_in.is_empty() {
                let slot = if needs_interruptible {
                    &mut any_interruptible
                } else {
                    &mut any
                };
                let from = *slot.get_or_insert_with(|| {
                    let v = graph.add_node(());
                    for (i, state) in plan.states.iter().enumerate() {
                        if state.interruptible || !needs_interruptible {
                            // Which kind the way in is does not matter: the way out says.
                            graph.add_edge(node(i), v, Edge::Takeover);
                        }
                    }
                    v
                });
                graph.add_edge(from, node(target), kind);
            } else {
                for id in &interruption.only_in {
                    if let Some(&i) = index_of.get(id.as_str()) {
                        if plan.states[i].interruptible || !needs_interruptible {
                            graph.add_edge(node(i), node(target), kind);
                        }
                    }
                }
            }
        }
        let total = graph.node_count();
        ends.resize(total, false);

        let reachable = plan
            .start_state_id()
            .and_then(|id| index_of.get(id))
            .map(|&start| {
                let mut seen = vec![false; total];
                for v in Bfs::new(&graph, node(start)).iter(&graph) {
                    seen[v.index()] = true;
                }
                seen
            });

        // Strongly connected components come out sinks first, so every component's successors are
        // settled before it: a component can end if a member can, or if it leads to one that can.
        let mut can_end = vec![false; total];
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
            states: n,
            reachable,
            can_end,
        }
    }

    /// The states reached from `from` along edges that `keep` keeps.
    fn reach(
        &self,
        from: &[usize],
        keep: impl Fn(Edge) -> bool,
        direction: Direction,
    ) -> Vec<bool> {
        let mut seen = vec![false; self.graph.node_count()];
        let mut stack: Vec<NodeIndex> = Vec::new();
        for &f in from {
            if !seen[f] {
                seen[f] = true;
                stack.push(NodeIndex::new(f));
            }
        }
        while let Some(v) = stack.pop() {
            for e in self.graph.edges_directed(v, direction) {
                let w = match direction {
                    Direction::Outgoing => petgraph::visit::EdgeRef::target(&e),
                    Direction::Incoming => petgraph::visit::EdgeRef::source(&e),
                };
                if keep(*e.weight()) && !seen[w.index()] {
                    seen[w.index()] = true;
                    stack.push(w);
                }
            }
        }
        seen.truncate(self.states);
        seen
    }

    /// The return points (states ending in `resume`) that the start reaches without a `yield`
    /// interruption: there, nothing can be parked, and the conversation would end.
    pub fn resume_outside_detour(&self, plan: &Plan, start: usize) -> Vec<usize> {
        let reached = self.reach(&[start], |e| e != Edge::Yield, Direction::Outgoing);
        return_points(plan).filter(|&i| reached[i]).collect()
    }

    /// `out[i]`: from state `i` a return point can be reached along transitions and goal
    /// fall-through (what a detour can do to come back).
    pub fn reaches_return(&self, plan: &Plan) -> Vec<bool> {
        let points: Vec<usize> = return_points(plan).collect();
        self.reach(&points, |e| e == Edge::Flow, Direction::Incoming)
    }

    /// `out[i]`: state `i` is one of `collectors` or some collector has a path to it (virtual
    /// nodes included; only states are asked about).
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

/// The states whose ending is `resume`.
fn return_points(plan: &Plan) -> impl Iterator<Item = usize> + '_ {
    plan.states
        .iter()
        .enumerate()
        .filter(|(_, s)| s.is_ending() && s.ending == Some(Ending::Resume {}))
        .map(|(i, _)| i)
}
