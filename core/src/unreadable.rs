//! Documents that cannot be read as a plan at all, said in the author's words and placed: bytes
//! that are not UTF-8 text, a key given twice in one object, JSON that is not an object. The
//! reader ([`crate::parse`]) asks here only once the fast read has failed.

use serde_json::Value;

use crate::duplicate_keys::first_duplicate_key;
use crate::parse::{ParseProblem, ProblemKind};

/// What is wrong with bytes that are not UTF-8 text: where the first byte that UTF-8 does not
/// allow is (line and column, counted in characters), and, for the common cause, what to do.
pub fn not_utf8(bytes: &[u8]) -> ParseProblem {
    let good = match std::str::from_utf8(bytes) {
        Ok(_) => bytes.len(),
        Err(e) => e.valid_up_to(),
    };
    let before = String::from_utf8_lossy(&bytes[..good]);
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    let utf16 = bytes.starts_with(&[0xFF, 0xFE]) || bytes.starts_with(&[0xFE, 0xFF]);
    let message = if utf16 {
        "the file is UTF-16 text; a plan is UTF-8 text: save it as UTF-8".to_string()
    } else {
        format!(
            "the file is not UTF-8 text (byte 0x{:02X} here is not allowed): save it as UTF-8",
            bytes.get(good).copied().unwrap_or_default()
        )
    };
    ParseProblem {
        kind: ProblemKind::InvalidJson,
        pointer: String::new(),
        line_column: Some((line, column)),
        message,
    }
}

/// The first key given twice in one object of `text`: which, and where its second occurrence is.
pub fn key_given_twice(text: &str) -> Option<ParseProblem> {
    let twice = first_duplicate_key(text)?;
    Some(ParseProblem {
        kind: ProblemKind::Schema,
        pointer: twice.pointer,
        line_column: None,
        message: format!(
            "\"{}\" is given a second time here; a reader would see one value and the plan use the other: keep one",
            twice.key
        ),
    })
}

/// git's conflict markers (`<<<<<<<` at the start of a line): a file git merged as text, without
/// Plan Builder's merge driver; what to do is said.
pub fn conflict_markers(text: &str) -> Option<ParseProblem> {
    let line = text
        .lines()
        .position(|l| l.starts_with("<<<<<<< ") || l == "<<<<<<<")?;
    Some(ParseProblem {
        kind: ProblemKind::MergedAsText,
        pointer: String::new(),
        line_column: Some((line + 1, 1)),
        message: "git's conflict markers (<<<<<<<): git merged this file as text, without Plan \
                  Builder's merge driver. Run `plan share init` in the workspace, take either \
                  side's file back (git checkout --ours FILE, or git merge --abort) and get the \
                  changes again (plan share get)"
            .to_string(),
    })
}

/// A document that is JSON but not an object: serde would read a plan written as a list of its
/// fields in order.
pub fn not_an_object(value: &Value, what: &str) -> ParseProblem {
    ParseProblem {
        kind: ProblemKind::Schema,
        pointer: String::new(),
        line_column: None,
        message: format!(
            "{what} is one JSON object ({{ … }}) with its fields named; this document is {}",
            kind_of(value)
        ),
    }
}

/// What a JSON value is, in words: "a list", "a text", …
fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Array(_) => "a list",
        Value::String(_) => "a text",
        Value::Number(_) => "a number",
        Value::Bool(_) => "true or false",
        Value::Null => "null",
        Value::Object(_) => "an object",
    }
}
