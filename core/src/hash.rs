//! The content hash of a plan: SHA-256 of its canonical JSON, the plan as this program writes it,
//! compact, with fields in the model's fixed order and maps sorted by key. Two plans that say the
//! same thing have the same hash, however their files were formatted.

use sha2::{Digest, Sha256};

use crate::plan::Plan;

/// The canonical JSON text of a plan.
pub fn canonical_json(plan: &Plan) -> String {
    String::from_utf8(canonical_bytes(plan)).unwrap_or_default()
}

/// [`canonical_json`] as bytes, as they are written and hashed (no second pass to check that
/// serde_json wrote UTF-8, which it always does).
pub fn canonical_bytes(plan: &Plan) -> Vec<u8> {
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

/// `sha256:<hex>` of a canonical JSON text already made.
pub fn hash_of(canonical: &str) -> String {
    hash_of_bytes(canonical.as_bytes())
}

/// `sha256:<hex>` of canonical JSON bytes.
pub fn hash_of_bytes(canonical: &[u8]) -> String {
    let digest = Sha256::digest(canonical);
    let mut hex = String::with_capacity(7 + 64);
    hex.push_str("sha256:");
    for b in digest {
        hex.push_str(&format!("{b:02x}"));
    }
    hex
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
}
