//! The content hash of a plan: SHA-256 of its canonical JSON, the plan as this program writes it,
//! compact, with fields in the model's fixed order and maps sorted by key. Two plans that say the
//! same thing have the same hash, however their files were formatted.

use sha2::{Digest, Sha256};
use std::fmt::Write as _;

use crate::plan::Plan;

/// The canonical JSON of a plan, as the bytes that are written and hashed (kept as bytes: a
/// `String` would cost a second pass to check the UTF-8 serde_json always writes).
pub fn canonical_json(plan: &Plan) -> Vec<u8> {
    // About 1,100 bytes a state for plan-like content: sized once, so that the text is never
    // copied to a larger buffer half way (memory not written to costs nothing).
    let mut out = Vec::with_capacity(4096 + plan.states.len() * 1_400);
    // The model has no map with non-string keys and no non-finite number, so this cannot fail.
    if serde_json::to_writer(&mut out, plan).is_err() {
        return Vec::new();
    }
    out
}

/// `sha256:<hex>` of the plan's canonical JSON.
pub fn content_hash(plan: &Plan) -> String {
    hash_of(&canonical_json(plan))
}

/// `sha256:<hex>` of canonical JSON already made.
pub fn hash_of(canonical: &[u8]) -> String {
    let digest = Sha256::digest(canonical);
    let mut hex = String::with_capacity(7 + 64);
    hex.push_str("sha256:");
    for b in digest {
        let _ = write!(hex, "{b:02x}");
    }
    hex
}

/// `sha256:<hex>` of what a conversation runs: the plan's canonical JSON with the layout left
/// out, since where the cards sit on the canvas has no meaning at run time. A test chat begun
/// before the author moved a card goes on; one begun before a priority changed does not.
pub fn run_hash(plan: &Plan) -> String {
    if plan.layout.is_empty() {
        return content_hash(plan);
    }
    let mut unplaced = plan.clone();
    unplaced.layout.clear();
    content_hash(&unplaced)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse_plan;

    #[test]
    fn formatting_does_not_change_the_hash_but_content_does() {
        let a = parse_plan(r#"{"id":"p","title":"P","states":[{"id":"a","title":"A"}]}"#).unwrap();
        let b = parse_plan(
            "{\n  \"title\": \"P\",\n  \"states\": [ {\"title\": \"A\", \"id\": \"a\", \"type\": \"loose\"} ],\n  \"id\": \"p\"\n}",
        )
        .unwrap();
        assert_eq!(content_hash(&a), content_hash(&b));
        let mut c = a.clone();
        c.title = "Q".into();
        assert_ne!(content_hash(&a), content_hash(&c));
        assert!(content_hash(&a).starts_with("sha256:") && content_hash(&a).len() == 71);
    }

    #[test]
    fn moving_a_card_changes_the_content_hash_but_not_what_runs() {
        let a = parse_plan(r#"{"id":"p","title":"P","states":[{"id":"a","title":"A"}]}"#).unwrap();
        let mut moved = a.clone();
        moved
            .layout
            .insert("a".into(), crate::plan::Position { x: 40.0, y: 10.0 });
        assert_ne!(content_hash(&a), content_hash(&moved));
        assert_eq!(run_hash(&a), run_hash(&moved));
        let mut retitled = moved.clone();
        std::sync::Arc::make_mut(&mut retitled.states[0]).title = "B".into();
        assert_ne!(run_hash(&moved), run_hash(&retitled));
    }
}
