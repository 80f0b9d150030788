//! How the simulator reads a caller's plain words: a phrase said, a give-up, `key: value` lines,
//! the answer to the focus (an enum value as a whole word, the first number, a yes or no, the text).

use super::*;

/// Whether `plain` says `phrase`: case-insensitive, as whole words (a phrase may be several).
pub(super) fn says(plain: &str, phrase: &str) -> bool {
    let phrase = phrase.trim().to_lowercase();
    !phrase.is_empty() && whole_word(&plain.to_lowercase(), &phrase).is_some()
}

pub(super) fn is_give_up(plain: &str) -> bool {
    let said: String = plain
        .trim()
        .trim_end_matches(['.', '!', ','])
        .to_lowercase();
    matches!(
        said.as_str(),
        "skip" | "move on" | "never mind" | "nevermind"
    )
}

/// `key: value` lines naming a deliverable of the current state.
pub(super) fn key_values(state: &State, plain: &str) -> Vec<Action> {
    let mut out = Vec::new();
    for line in plain.lines() {
        let Some((key, value)) = line.split_once(':') else {
            continue;
        };
        let Some(d) = action::recordable(state, key.trim()) else {
            continue;
        };
        // The value as typed, so a wrong one is rejected with a reason rather than ignored.
        let value = read_value(d, value).unwrap_or_else(|| Value::String(value.trim().to_string()));
        out.push(Action::Record {
            key: d.key.clone(),
            value,
            quote: Some(line.trim().to_string()),
        });
    }
    out
}

/// A plain answer read as a value of `d`'s type; `None` when nothing in it fits.
pub fn read_value(d: &Deliverable, text: &str) -> Option<Value> {
    let text = text.trim();
    match d.kind {
        DeliverableType::String => (!text.is_empty()).then(|| Value::String(text.to_string())),
        DeliverableType::Number => first_number(text),
        DeliverableType::Boolean => first_yes_no(text).map(Value::Bool),
        DeliverableType::Enum => first_enum_value(d, text).map(Value::String),
    }
}

/// The first `-?\d+(\.\d+)?` in `text`, a minus sign counting only at the start or after a space
/// (so `AC-778` reads 778).
fn first_number(text: &str) -> Option<Value> {
    let b = text.as_bytes();
    let start = b.iter().position(u8::is_ascii_digit)?;
    let negative =
        start > 0 && b[start - 1] == b'-' && (start == 1 || b[start - 2].is_ascii_whitespace());
    let mut end = start;
    while end < b.len() && b[end].is_ascii_digit() {
        end += 1;
    }
    let int_end = end;
    if end + 1 < b.len() && b[end] == b'.' && b[end + 1].is_ascii_digit() {
        end += 1;
        while end < b.len() && b[end].is_ascii_digit() {
            end += 1;
        }
    }
    let digits = &text[start..end];
    let sign = if negative { "-" } else { "" };
    if end == int_end {
        if let Ok(i) = format!("{sign}{digits}").parse::<i64>() {
            return Some(Value::Number(i.into()));
        }
    }
    let x: f64 = format!("{sign}{digits}").parse().ok()?;
    Number::from_f64(x).map(Value::Number)
}

fn words(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split(|c: char| !c.is_alphanumeric() && c != '_')
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
}

fn first_yes_no(text: &str) -> Option<bool> {
    words(text).find_map(|w| match w.as_str() {
        "yes" | "y" | "yeah" | "yep" | "true" | "correct" => Some(true),
        "no" | "n" | "nope" | "false" => Some(false),
        _ => None,
    })
}

/// The enum value named earliest in `text`, as a whole word, case-insensitively (`_` in a value
/// also matches a space: "technical support" names `technical_support`).
fn first_enum_value(d: &Deliverable, text: &str) -> Option<String> {
    let hay = text.to_lowercase();
    let mut best: Option<(usize, &String)> = None;
    for v in d.enum_values.iter().flatten() {
        let lower = v.to_lowercase();
        let spaced = lower.replace('_', " ");
        for needle in [&lower, &spaced] {
            if let Some(at) = whole_word(&hay, needle) {
                if best.is_none_or(|(b, _)| at < b) {
                    best = Some((at, v));
                }
            }
        }
    }
    best.map(|(_, v)| v.clone())
}

pub(super) fn whole_word(hay: &str, needle: &str) -> Option<usize> {
    if needle.is_empty() {
        return None;
    }
    let is_word = |c: char| c.is_alphanumeric() || c == '_';
    let mut from = 0;
    while let Some(i) = hay[from..].find(needle) {
        let at = from + i;
        let end = at + needle.len();
        let before = hay[..at].chars().next_back().is_none_or(|c| !is_word(c));
        let after = hay[end..].chars().next().is_none_or(|c| !is_word(c));
        if before && after {
            return Some(at);
        }
        from = at + hay[at..].chars().next().map_or(1, char::len_utf8);
    }
    None
}
