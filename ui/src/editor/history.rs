//! Undo and redo by snapshots: the plan before each step is kept whole (plans are values, and
//! a snapshot can never disagree with the change it undoes). One gesture is one step; a burst of
//! changes to the same field (typing) joins the step it started, until the author pauses or
//! edits something else.

use plan_core::Plan;

/// How long a pause ends a burst of typing, in milliseconds.
pub const BURST_GAP_MS: f64 = 1_000.0;
/// Steps kept; the oldest go first.
pub const DEPTH: usize = 500;

#[derive(Debug, Clone, Default)]
pub struct History {
    past: Vec<Plan>,
    future: Vec<Plan>,
    /// The burst the latest step belongs to, and when it last grew.
    burst: Option<(String, f64)>,
}

impl History {
    /// Records that the plan `before` became something else at time `now` (ms). A change with
    /// the same `burst` key as the latest step, soon after it, joins that step.
    pub fn record(&mut self, before: &Plan, burst: Option<&str>, now: f64) {
        self.future.clear();
        let joins = match (&self.burst, burst) {
            (Some((last, at)), Some(key)) => last == key && now - at < BURST_GAP_MS,
            _ => false,
        };
        if !joins {
            self.past.push(before.clone());
            if self.past.len() > DEPTH {
                self.past.remove(0);
            }
        }
        self.burst = burst.map(|k| (k.to_string(), now));
    }

    /// The plan to go back to from `current`, if any.
    pub fn undo(&mut self, current: &Plan) -> Option<Plan> {
        let previous = self.past.pop()?;
        self.future.push(current.clone());
        self.burst = None;
        Some(previous)
    }

    /// The plan to go forward to from `current`, if any.
    pub fn redo(&mut self, current: &Plan) -> Option<Plan> {
        let next = self.future.pop()?;
        self.past.push(current.clone());
        self.burst = None;
        Some(next)
    }

    /// Ends the current burst (the field lost focus): the next change is a step of its own.
    pub fn end_burst(&mut self) {
        self.burst = None;
    }

    pub fn can_undo(&self) -> bool {
        !self.past.is_empty()
    }

    pub fn can_redo(&self) -> bool {
        !self.future.is_empty()
    }

    /// Forgets everything (another plan was opened).
    pub fn clear(&mut self) {
        *self = History::default();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan(title: &str) -> Plan {
        let mut p = plan_core::synthetic::plan(1);
        p.title = title.into();
        p
    }

    #[test]
    fn undo_and_redo_walk_the_steps_back_and_forth() {
        let mut h = History::default();
        h.record(&plan("a"), None, 0.0);
        h.record(&plan("b"), None, 10.0);
        assert_eq!(h.undo(&plan("c")).map(|p| p.title), Some("b".into()));
        assert_eq!(h.undo(&plan("b")).map(|p| p.title), Some("a".into()));
        assert!(h.undo(&plan("a")).is_none());
        assert_eq!(h.redo(&plan("a")).map(|p| p.title), Some("b".into()));
        assert_eq!(h.redo(&plan("b")).map(|p| p.title), Some("c".into()));
        assert!(!h.can_redo());
    }

    #[test]
    fn a_burst_of_typing_in_one_field_is_one_step() {
        let mut h = History::default();
        h.record(&plan(""), Some("title"), 0.0);
        h.record(&plan("H"), Some("title"), 200.0);
        h.record(&plan("He"), Some("title"), 400.0);
        assert_eq!(h.undo(&plan("Hey")).map(|p| p.title), Some("".into()));
        assert!(!h.can_undo());
    }

    #[test]
    fn a_pause_another_field_or_a_blur_starts_a_new_step() {
        let mut h = History::default();
        h.record(&plan("a"), Some("title"), 0.0);
        h.record(&plan("b"), Some("title"), 5_000.0);
        h.record(&plan("c"), Some("description"), 5_100.0);
        h.end_burst();
        h.record(&plan("d"), Some("description"), 5_200.0);
        let mut steps = 0;
        let mut current = plan("e");
        while let Some(p) = h.undo(&current) {
            current = p;
            steps += 1;
        }
        assert_eq!(steps, 4);
    }

    #[test]
    fn a_new_change_after_undo_drops_the_redo_steps() {
        let mut h = History::default();
        h.record(&plan("a"), None, 0.0);
        let _ = h.undo(&plan("b"));
        h.record(&plan("a"), None, 10.0);
        assert!(!h.can_redo());
    }
}
