//! What the buttons of an editable list do to it (move an item up or down, remove it) and the id
//! of a new item: pure, tested natively, shared by the inspector's lists and the Simulate tab's
//! persona form.

/// What a button does to one item of a list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ListOp {
    Up,
    Down,
    Remove,
}

/// Item `i` of `list` moved or removed; an index past the end changes nothing.
pub fn apply_op<T>(list: &mut Vec<T>, i: usize, op: ListOp) {
    match op {
        ListOp::Up if i > 0 && i < list.len() => list.swap(i, i - 1),
        ListOp::Down if i + 1 < list.len() => list.swap(i, i + 1),
        ListOp::Remove if i < list.len() => {
            list.remove(i);
        }
        _ => {}
    }
}

/// The first of `prefix1`, `prefix2`, … (counting from `start`) that `taken` does not hold: the
/// id of a new item.
pub fn fresh_id(prefix: &str, start: usize, taken: impl Fn(&str) -> bool) -> String {
    let mut n = start.max(1);
    while taken(&format!("{prefix}{n}")) {
        n += 1;
    }
    format!("{prefix}{n}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_item_moves_up_and_down_within_the_list_and_is_removed() {
        let mut l = vec!["a", "b", "c"];
        apply_op(&mut l, 1, ListOp::Up);
        assert_eq!(l, ["b", "a", "c"]);
        apply_op(&mut l, 0, ListOp::Up);
        assert_eq!(l, ["b", "a", "c"], "the first cannot go higher");
        apply_op(&mut l, 1, ListOp::Down);
        assert_eq!(l, ["b", "c", "a"]);
        apply_op(&mut l, 2, ListOp::Down);
        assert_eq!(l, ["b", "c", "a"], "the last cannot go lower");
        apply_op(&mut l, 0, ListOp::Remove);
        assert_eq!(l, ["c", "a"]);
        apply_op(&mut l, 5, ListOp::Remove);
        assert_eq!(l, ["c", "a"], "an index past the end changes nothing");
    }

    #[test]
    fn a_new_id_is_the_first_free_one_from_the_count() {
        let taken = ["task-1", "task-3"];
        assert_eq!(fresh_id("task-", 3, |id| taken.contains(&id)), "task-4");
        assert_eq!(fresh_id("task-", 1, |id| taken.contains(&id)), "task-2");
        assert_eq!(fresh_id("rule-", 0, |_| false), "rule-1");
    }
}
