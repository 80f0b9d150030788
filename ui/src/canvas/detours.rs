//! Interruptions on the canvas: each a small card of its own in a row above the flow, with a
//! dashed arrow to its target. Pure, like the rest of the scene.

use std::collections::HashMap;

use plan_core::plan::{Interruption, InterruptionKind, Plan};

use super::geometry::{arrow_between, ArrowPath, Rect, CARD_W};
use super::key::key_of;

/// An interruption, drawn as a small card of its own outside the flow (above it), with a dashed
/// arrow to its target.
#[derive(Debug, Clone, PartialEq)]
pub struct Detour {
    pub key: u64,
    pub id: String,
    /// Its title, else its id.
    pub title: String,
    pub kind: InterruptionKind,
    /// "“parking”, “park”" or the condition's words: how it fires.
    pub fires: String,
    pub target: String,
    pub rect: Rect,
    /// None when the target does not exist.
    pub path: Option<ArrowPath>,
}

/// The height of an interruption's card, and the gap between the row of them and the flow.
const DETOUR_H: f64 = 64.0;
const DETOUR_GAP: f64 = 110.0;

/// The interruptions' cards in a row above the flow, each with its dashed arrow.
pub(super) fn detours(plan: &Plan, flow: Option<Rect>, rects: &HashMap<&str, Rect>) -> Vec<Detour> {
    let origin = flow.map_or((0.0, 0.0), |b| (b.x, b.y));
    plan.interruptions
        .iter()
        .enumerate()
        .map(|(k, x)| {
            let rect = Rect::new(
                origin.0 + k as f64 * (CARD_W + 40.0),
                origin.1 - DETOUR_GAP - DETOUR_H,
                CARD_W,
                DETOUR_H,
            );
            detour(x, rect, rects.get(x.target_state_id.as_str()).copied())
        })
        .collect()
}

/// The card and arrow of interruption `x` at `rect`, to `target` when it exists.
pub(super) fn detour(x: &Interruption, rect: Rect, target: Option<Rect>) -> Detour {
    let mut fires: Vec<String> = x.phrases.iter().map(|p| format!("“{p}”")).collect();
    if let Some(c) = &x.condition {
        if let Ok(check) = c.read() {
            fires.push(check.describe());
        }
    }
    let fires = fires.join(", ");
    let path = target.map(|t| arrow_between(rect, t, 0.0));
    let title = x.name().to_string();
    let key = key_of((
        &x.id,
        &title,
        x.kind.as_str(),
        &fires,
        &x.target_state_id,
        rect.x.to_bits(),
        rect.y.to_bits(),
        path.as_ref().map(|p| p.d.clone()),
    ));
    Detour {
        key,
        id: x.id.clone(),
        title,
        kind: x.kind,
        fires,
        target: x.target_state_id.clone(),
        rect,
        path,
    }
}
