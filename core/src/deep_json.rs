//! JSON as deep as a plan may nest. Conditions nest to any depth in the format; serde_json stops
//! at 128 levels to protect the stack, which a condition reaches at about 40 composites. Plans
//! nest up to [`MAX_DEPTH`] levels of JSON (arrays and objects, about 330 composites inside one
//! another): every reader of plans goes through here, which reads as serde_json does and, only
//! when that stopped at its own limit, measures the document and reads it again without the
//! limit if it is within ours. Past ours, [`too_deep`] says so in the author's words.
//!
//! The limit is what the readers and the validator can walk on a 2 MB thread (a web view's,
//! the app's workers') with room to spare in a release build (checked at 4,500 levels) and in a
//! debug build (about 1,000).

use serde::Deserialize;

/// How many levels of arrays and objects a plan document may nest.
pub const MAX_DEPTH: usize = 1_000;

/// serde_json's own limit: a document under it reads the usual way.
const SERDE_LIMIT: usize = 127;

/// How deeply `bytes` nest, and where (byte offset) they first go past [`MAX_DEPTH`].
pub fn depth(bytes: &[u8]) -> (usize, Option<usize>) {
    let (mut level, mut deepest, mut over) = (0usize, 0usize, None);
    let mut in_string = false;
    let mut escaped = false;
    for (at, &b) in bytes.iter().enumerate() {
        if in_string {
            match (escaped, b) {
                (true, _) => escaped = false,
                (false, b'\\') => escaped = true,
                (false, b'"') => in_string = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'{' | b'[' => {
                level += 1;
                deepest = deepest.max(level);
                if level > MAX_DEPTH && over.is_none() {
                    over = Some(at);
                }
            }
            b'}' | b']' => level = level.saturating_sub(1),
            _ => {}
        }
    }
    (deepest, over)
}

/// Line and column (1-based, in characters) of byte `at` of `text`.
pub fn line_column(text: &[u8], at: usize) -> (usize, usize) {
    let before = &text[..at.min(text.len())];
    let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
    let start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |p| p + 1);
    let column = String::from_utf8_lossy(&before[start..]).chars().count() + 1;
    (line, column)
}

/// "nested too deeply (N levels; at most M)" with the place it first goes too deep, when `text`
/// nests past [`MAX_DEPTH`].
pub fn too_deep(text: &[u8]) -> Option<(String, (usize, usize))> {
    let (deepest, over) = depth(text);
    let at = over?;
    Some((
        format!(
            "nested too deeply ({deepest} levels; at most {MAX_DEPTH}): a condition can hold about 330 composites inside one another"
        ),
        line_column(text, at),
    ))
}

/// Reads `text` as serde_json does, but to [`MAX_DEPTH`] levels instead of 128.
pub fn from_str<'a, T: Deserialize<'a>>(text: &'a str) -> serde_json::Result<T> {
    match serde_json::from_str(text) {
        Err(e) if e.is_syntax() && within(text.as_bytes()) => {
            let mut de = serde_json::Deserializer::from_str(text);
            de.disable_recursion_limit();
            let value = T::deserialize(&mut de)?;
            de.end()?;
            Ok(value)
        }
        read => read,
    }
}

/// [`from_str`] of bytes.
pub fn from_slice<'a, T: Deserialize<'a>>(bytes: &'a [u8]) -> serde_json::Result<T> {
    match serde_json::from_slice(bytes) {
        Err(e) if e.is_syntax() && within(bytes) => {
            let mut de = serde_json::Deserializer::from_slice(bytes);
            de.disable_recursion_limit();
            let value = T::deserialize(&mut de)?;
            de.end()?;
            Ok(value)
        }
        read => read,
    }
}

/// Whether `bytes` nest past serde_json's limit but within ours: worth reading again.
fn within(bytes: &[u8]) -> bool {
    let (deepest, _) = depth(bytes);
    deepest > SERDE_LIMIT && deepest <= MAX_DEPTH
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nested(levels: usize) -> String {
        format!("{}1{}", "[".repeat(levels), "]".repeat(levels))
    }

    #[test]
    fn depth_counts_arrays_and_objects_not_brackets_in_strings() {
        assert_eq!(depth(br#"{"a": [1, {"b": "[[[{"}]}"#).0, 3);
        assert_eq!(depth(br#"["\"[", "\\"]"#).0, 1);
        assert_eq!(depth(nested(1_001).as_bytes()), (1_001, Some(1_000)));
    }

    #[test]
    fn documents_read_to_the_plans_depth_and_not_past_it() {
        let v: serde_json::Value = from_str(&nested(1_000)).unwrap();
        assert!(v.is_array());
        assert!(from_str::<serde_json::Value>(&nested(1_001)).is_err());
        let (said, (line, column)) = too_deep(nested(1_200).as_bytes()).unwrap();
        assert!(
            said.starts_with("nested too deeply (1200 levels; at most 1000)"),
            "{said}"
        );
        assert_eq!((line, column), (1, 1_001));
        assert!(too_deep(nested(1_000).as_bytes()).is_none());
    }
}
