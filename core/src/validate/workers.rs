//! The checks of every state, spread over the machine's cores for a large plan.
//!
//! A state's checks read the shared lookups and write only their own findings, so the states can
//! be checked in runs side by side and the findings joined in plan order: the report is the same,
//! finding for finding, as one run's (tested in `core/tests/validate.rs`). `plan check` of the
//! 10,000-state benchmark plan spent four fifths of its validation here; on this project's
//! two-core machine two runs take it from 0.53 to ~0.35 of the parse
//! (`cargo bench -p plan-cli --bench session_states`).

use super::{session_states, Validator};

/// Below this many states a plan is checked in one run: a thread costs tens of microseconds to
/// start, and a plan an author edits by hand validates in a few hundred.
const STATES_PER_RUN: usize = 2_000;

impl Validator<'_, '_> {
    /// Checks every state, in plan order.
    pub(super) fn states(&mut self) {
        self.states_in(runs(self.plan.states.len()));
    }

    /// Checks every state in `runs` runs side by side, the findings in plan order.
    fn states_in(&mut self, runs: usize) {
        let plan = self.plan;
        if runs <= 1 {
            for (i, state) in plan.states.iter().enumerate() {
                self.state(i, state);
            }
            return;
        }
        let per_run = plan.states.len().div_ceil(runs);
        let lookups = self.lookups;
        let run = move |r: usize| {
            let mut v = Validator::new(lookups);
            let end = ((r + 1) * per_run).min(plan.states.len());
            for i in (r * per_run).min(end)..end {
                v.state(i, &plan.states[i]);
            }
            (v.out, v.uses)
        };
        let found: Vec<RunFindings> = std::thread::scope(|scope| {
            let others: Vec<_> = (1..runs)
                .map(|r| {
                    // A thread the system refuses (a limit reached) is a run this thread checks.
                    std::thread::Builder::new()
                        .spawn_scoped(scope, move || run(r))
                        .map_err(|_| r)
                })
                .collect();
            // This thread checks the first run itself.
            for i in 0..per_run.min(plan.states.len()) {
                self.state(i, &plan.states[i]);
            }
            others
                .into_iter()
                .map(|other| match other {
                    Ok(h) => h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)),
                    Err(r) => run(r),
                })
                .collect()
        });
        for (out, uses) in found {
            self.out.extend(out);
            self.uses.join(uses);
        }
    }
}

/// What one run found: its findings, in plan order, and the session-state uses it gathered.
type RunFindings = (Vec<super::Diagnostic>, session_states::Uses);

/// How many runs to check `states` states in: one per core, each of at least
/// [`STATES_PER_RUN`] states; one where threads cannot be started (the editor's wasm).
fn runs(states: usize) -> usize {
    if cfg!(target_arch = "wasm32") || states < 2 * STATES_PER_RUN {
        return 1;
    }
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    cores.min(states / STATES_PER_RUN).max(1)
}

#[cfg(test)]
mod tests {
    use super::super::{Lookups, Validator};
    use crate::synthetic;

    #[test]
    fn states_checked_side_by_side_say_what_one_run_says_in_the_same_order() {
        let mut plan = synthetic::with_session_states(3_000, 40);
        // Mistakes spread over every run: unknown targets, keys and session states, and one
        // session state only the later states switch on.
        for i in (0..plan.states.len()).step_by(97) {
            let state = std::sync::Arc::make_mut(&mut plan.states[i]);
            if let Some(t) = state.transitions.first_mut() {
                t.target_state_id = format!("nowhere-{i}");
            }
            state.instructions = format!("{{{{deliverable.unknown_{i}}}}} {{{{if isActive session.state.ghost}}}}x{{{{endif}}}}");
        }
        let run = |runs: usize| {
            let lookups = Lookups::new(&plan);
            let mut v = Validator::new(&lookups);
            v.states_in(runs);
            v.session_states();
            (v.out, v.uses.relied, v.uses.switched_on)
        };
        let one = run(1);
        assert!(one.0.len() > 60, "the plan has findings: {}", one.0.len());
        for runs in [2, 3, 7] {
            let many = run(runs);
            assert_eq!(one.0, many.0, "{runs} runs");
            assert_eq!((&one.1, &one.2), (&many.1, &many.2), "{runs} runs");
        }
    }
}
