//! The explorer's ceilings (explore.md, "Configurations and bounds"): what a search holds,
//! counted as the merge goes, so that it stops before its memory ceiling; and how many
//! configurations a batch expands, so that the batch's answers fit in the room kept for them and
//! its moves do not overshoot the work ceiling.

use super::search::{effects_size, Expanded, Moved, Node, Search, PER_THREAD};
use super::Bounds;

/// What a search holds, counted as it grows (explore.md: the memory ceiling): the sessions
/// waiting to be expanded and what is interned, in bytes; the rest is read off the search.
#[derive(Default)]
pub(crate) struct Held {
    pub pending: usize,
    pub interned: usize,
}

/// Bytes per configuration and per step that the findings' report reads on top of the search
/// (which configurations can end, the steps into each, the states each enters).
const REPORT_PER_NODE: usize = 72;
const REPORT_PER_STEP: usize = 12;

impl Held {
    /// Everything held: configurations and their index (counted at twice their number, as a
    /// growing table or list may be), the steps, the rules' facts, the pending sessions, the
    /// interned messages and effects, and what the report will need.
    pub fn total(&self, s: &Search) -> usize {
        use std::mem::size_of;
        let nodes = s.nodes.len().max(1);
        let steps = s.steps.len();
        2 * nodes * (size_of::<Node>() + 32)
            + 2 * steps * 12
            + 2 * s.facts.len() * 8
            + nodes * REPORT_PER_NODE
            + steps * REPORT_PER_STEP
            + self.pending
            + self.interned
    }
}

/// How many configurations the next batch expands: as many as keep the threads busy, but never
/// more than leave the batch's sessions and moves within a quarter of the memory ceiling, nor
/// more moves than the work ceiling has left (measured on the batch before: a configuration of a
/// plan with 2,000 tasks has 2,000 moves, each with a session).
pub(crate) struct Batches {
    most: usize,
    room: usize,
    max_moves: usize,
    /// Per configuration expanded in the last batch: bytes of what its moves answered, and work.
    bytes_each: usize,
    work_each: usize,
}

impl Batches {
    pub fn new(bounds: Bounds, threads: usize) -> Batches {
        Batches {
            most: threads.max(1) * PER_THREAD,
            room: bounds.max_memory / 4,
            max_moves: bounds.max_moves,
            bytes_each: 0,
            work_each: 0,
        }
    }

    /// The memory kept free for a batch's answers.
    pub fn room(&self) -> usize {
        self.room
    }

    /// The next batch's size, `work` done so far.
    pub fn next(&self, work: usize) -> usize {
        let by_memory = self.room / self.bytes_each.max(1);
        let work_left = self.max_moves.saturating_sub(work);
        let by_moves = work_left / self.work_each.max(1);
        // At least one: the merge stops exactly where the work ceiling would be passed.
        by_memory.min(by_moves).clamp(1, self.most)
    }

    /// Reads what the last batch's configurations answered, each move weighing what its
    /// configuration's does (`weights`, in the batch's order).
    pub fn measure(&mut self, expanded: &Expanded, weights: &[usize]) {
        let (mut bytes, mut work, mut each) = (0usize, 0usize, 0usize);
        for (list, weight) in expanded.iter().zip(weights) {
            let Some(list) = list else {
                continue;
            };
            each += 1;
            work += list.len() * weight;
            for (message, moved) in list {
                bytes += message.len() + 64;
                if let Some(m) = moved {
                    bytes += size_of_moved(m);
                }
            }
        }
        if each > 0 {
            self.bytes_each = bytes.div_ceil(each);
            self.work_each = work.div_ceil(each);
        }
    }
}

fn size_of_moved(m: &Moved) -> usize {
    std::mem::size_of::<Moved>()
        + effects_size(&m.effects)
        + m.session
            .as_ref()
            .map_or(0, |(stored, facts)| stored.size() + facts.len() * 8)
}
