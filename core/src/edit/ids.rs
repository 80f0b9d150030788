//! Fresh state ids, and pasting copies of states with fresh ids and their arrows rewired.

use std::collections::BTreeMap;

use crate::plan::{Plan, Position, State};

/// `base` if no state has it, else `base-2`, `base-3`…
pub fn unique_id(p: &Plan, base: &str) -> String {
    let taken = |id: &str| p.states.iter().any(|s| s.id == id);
    if !taken(base) {
        return base.to_string();
    }
    (2..)
        .map(|n| format!("{base}-{n}"))
        .find(|id| !taken(id))
        .unwrap_or_else(|| base.to_string())
}

/// The id a state takes from its title: lower case, letters and digits kept (accents dropped),
/// anything else one `-` ("Order details?" → `order-details`); `state` for a title with none.
pub fn id_from_title(title: &str) -> String {
    let mut id = String::with_capacity(title.len());
    for c in title.chars().flat_map(char::to_lowercase) {
        let c = plain_letter(c);
        if c.is_ascii_alphanumeric() {
            id.push(c);
        } else if !id.is_empty() && !id.ends_with('-') {
            id.push('-');
        }
    }
    while id.ends_with('-') {
        id.pop();
    }
    if id.is_empty() {
        "state".to_string()
    } else {
        id
    }
}

/// Whether `id` is one the editor gave a new state (`new-state`, `new-state-2`…): such a state
/// takes its id from its first title; an id the author or an import chose is never changed.
pub fn is_placeholder_id(id: &str) -> bool {
    match id.strip_prefix("new-state") {
        Some("") => true,
        Some(rest) => rest
            .strip_prefix('-')
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit())),
        None => false,
    }
}

/// The id state `id` takes when its title becomes `title`, for a state whose id follows its title
/// (one added in this editing session and not yet published; `docs/decisions.md`, "Ids follow
/// names until published"); none when the id already reads as that title (`order`, or `order-2` beside
/// another `order`), so that retitling never churns an id.
pub fn id_following_title(p: &Plan, id: &str, title: &str) -> Option<String> {
    let title = title.trim();
    if title.is_empty() {
        return None;
    }
    let base = id_from_title(title);
    let reads_as_title = id == base
        || id
            .strip_prefix(base.as_str())
            .and_then(|rest| rest.strip_prefix('-'))
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
    (!reads_as_title).then(|| unique_id(p, &base))
}

/// The ASCII letter an accented Latin letter is written with (`é` → `e`, `ß` stays as it is and
/// is then dropped).
fn plain_letter(c: char) -> char {
    match c {
        'à' | 'á' | 'â' | 'ã' | 'ä' | 'å' => 'a',
        'ç' => 'c',
        'è' | 'é' | 'ê' | 'ë' => 'e',
        'ì' | 'í' | 'î' | 'ï' => 'i',
        'ñ' => 'n',
        'ò' | 'ó' | 'ô' | 'õ' | 'ö' | 'ø' => 'o',
        'ù' | 'ú' | 'û' | 'ü' => 'u',
        'ý' | 'ÿ' => 'y',
        other => other,
    }
}

/// Adds copies of `states` with fresh ids (`<id>-copy`, `<id>-copy-2`…); a transition between
/// two copied states points at the copy, one to a state outside the copy keeps its target.
/// Returns the new ids, in order.
pub(super) fn paste(
    p: &mut Plan,
    states: &[State],
    layout: &BTreeMap<String, Position>,
    offset: Position,
) -> Vec<String> {
    let mut renamed: BTreeMap<String, String> = BTreeMap::new();
    for s in states {
        let base = format!("{}-copy", s.id);
        // Ids must be unique against the plan and against the copies made so far.
        let mut id = unique_id(p, &base);
        let mut n = 2;
        while renamed.values().any(|v| v == &id) {
            id = unique_id(p, &format!("{base}-{n}"));
            n += 1;
        }
        renamed.insert(s.id.clone(), id);
    }
    let mut out = Vec::with_capacity(states.len());
    for s in states {
        let mut copy = s.clone();
        copy.id = renamed[&s.id].clone();
        for t in &mut copy.transitions {
            if let Some(new) = renamed.get(&t.target_state_id) {
                t.target_state_id = new.clone();
            }
        }
        let at = layout.get(&s.id).copied().unwrap_or_default();
        p.layout.insert(
            copy.id.clone(),
            Position {
                x: at.x + offset.x,
                y: at.y + offset.y,
            },
        );
        out.push(copy.id.clone());
        p.states.push(std::sync::Arc::new(copy));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_title_makes_a_plain_id() {
        assert_eq!(id_from_title("Order details?"), "order-details");
        assert_eq!(
            id_from_title("  Café & Crème brûlée  "),
            "cafe-creme-brulee"
        );
        assert_eq!(id_from_title("Schritt 2: Zahlung"), "schritt-2-zahlung");
        assert_eq!(id_from_title("???"), "state");
        assert_eq!(id_from_title(""), "state");
    }

    #[test]
    fn only_the_editors_own_ids_follow_a_title() {
        for id in ["new-state", "new-state-2", "new-state-15"] {
            assert!(is_placeholder_id(id), "{id}");
        }
        for id in [
            "new-state-",
            "new-state-x",
            "new-states",
            "greeting",
            "new-state-2b",
        ] {
            assert!(!is_placeholder_id(id), "{id}");
        }
    }
}
