//! What an arrow says: its label (the author's, else its condition described), its tooltip and
//! its priority. Made only for the arrows that get elements (`scene::Arrow::text`), not for every arrow
//! whenever a scene is built: reading and describing every condition was the larger part of
//! building a large plan's scene, at every open, and with a whole plan of 1,000 states in view no
//! label is drawn at all. The scene keys each arrow by what its text is made from instead
//! ([`hash_inputs`]), so that an arrow whose text changes gets a new element.

use std::fmt::Write as _;
use std::hash::{Hash, Hasher};

use plan_core::condition::Check;
use plan_core::plan::State;

/// Longest arrow label drawn in full (a long compound condition wraps over a few lines); longer
/// ones are cut with "…", the full text in the tooltip: past this, a label would hide the plan.
pub const LABEL_MAX_CHARS: usize = 120;

/// What an arrow says.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ArrowText {
    /// The author's label, else the condition, cut to [`LABEL_MAX_CHARS`].
    pub label: String,
    /// The full text: condition, label and priority, for the tooltip.
    pub title: String,
    /// When the runtime checks it among its state's transitions ("first", "second"… "last"),
    /// shown when the state has several.
    pub priority: Option<String>,
    /// What it changes in session states when it fires: "switches on technical_mode".
    pub changes: Option<String>,
}

/// Feeds `hasher` everything the text of transition `index` of `state` is made from: keep it in
/// step with [`arrow_text`] (the scene's tests check that every edit of the text changes it).
pub fn hash_inputs(state: &State, index: usize, dangling: bool, hasher: &mut impl Hasher) {
    let t = &state.transitions[index];
    (
        &t.target_state_id,
        dangling,
        t.condition_type_in(state.kind),
    )
        .hash(hasher);
    (
        &t.label,
        t.priority.0.to_bits(),
        state.check_order(index),
        state.transitions.len(),
    )
        .hash(hasher);
    for (k, v) in &t.condition_config {
        k.hash(hasher);
        hash_json(v, hasher);
    }
    for c in &t.effects {
        c.describe().hash(hasher);
    }
}

/// Feeds a JSON value to a hasher, telling apart what its text tells apart (`10` and `10.0`).
fn hash_json(v: &serde_json::Value, h: &mut impl Hasher) {
    use serde_json::Value;
    match v {
        Value::Null => 0u8.hash(h),
        Value::Bool(b) => (1u8, b).hash(h),
        Value::Number(n) => (2u8, n.as_i64(), n.as_u64(), n.as_f64().map(f64::to_bits)).hash(h),
        Value::String(s) => (3u8, s).hash(h),
        Value::Array(items) => {
            (4u8, items.len()).hash(h);
            for item in items {
                hash_json(item, h);
            }
        }
        Value::Object(map) => {
            (5u8, map.len()).hash(h);
            for (k, item) in map {
                k.hash(h);
                hash_json(item, h);
            }
        }
    }
}

/// What transition `index` of `state` says on its arrow (see [`ArrowText`]).
pub fn arrow_text(state: &State, index: usize, dangling: bool) -> ArrowText {
    let t = &state.transitions[index];
    let kind = t.condition_type_in(state.kind);
    let condition = match Check::read(kind, &t.condition_config) {
        Ok(check) => check.describe(),
        Err(_) => format!("⚠ {} (settings need fixing)", kind.as_str()),
    };
    let label = if dangling {
        format!("→ missing “{}”", t.target_state_id)
    } else if t.label.is_empty() {
        shorten(&condition)
    } else {
        shorten(&t.label)
    };
    let mut title = condition;
    if !t.label.is_empty() {
        title = format!("{}: {title}", t.label);
    }
    let several = state.transitions.len();
    let priority = (several > 1).then(|| order_word(state.check_order(index), several));
    if let Some(p) = &priority {
        let _ = write!(
            title,
            " (checked {p} of {several}; priority {})",
            t.priority
        );
    }
    let changes = changes_line(&t.effects);
    if let Some(c) = &changes {
        let _ = write!(title, "; then {c}");
    }
    ArrowText {
        label,
        title,
        priority,
        changes: changes.map(|c| shorten(&c)),
    }
}

/// The word for place `order` (0 first) among `of` arrows: "first", "second", "third", "4th"…,
/// and "last" for the last of several: what the author means by a priority, without its number.
pub fn order_word(order: usize, of: usize) -> String {
    match order {
        _ if of > 1 && order + 1 == of => "last".into(),
        0 => "first".into(),
        1 => "second".into(),
        2 => "third".into(),
        n => format!("{}th", n + 1),
    }
}

fn shorten(text: &str) -> String {
    if text.chars().count() <= LABEL_MAX_CHARS {
        return text.to_string();
    }
    let cut: String = text.chars().take(LABEL_MAX_CHARS - 1).collect();
    format!("{}…", cut.trim_end())
}

/// The line a card or an arrow shows for its changes to session states; none without changes.
pub fn changes_line(changes: &[plan_core::plan::SessionChange]) -> Option<String> {
    if changes.is_empty() {
        return None;
    }
    let parts: Vec<String> = changes.iter().map(|c| c.describe()).collect();
    Some(parts.join("; "))
}

/// `1 state`, `2 states`.
pub fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}
