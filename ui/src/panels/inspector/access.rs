//! How the inspector reads and changes the plan: one state (read tracked, changed through one
//! `ReplaceState`), or the plan's own fields (read tracked, changed through one
//! `SetPlanDetails`), or any other typed command (a rename, a retarget, a delete). Every part of the
//! inspector reads and edits through these, so none needs another part's module and none calls
//! the editor's dispatch itself.

use leptos::prelude::*;
use plan_core::edit::{Command, PlanDetails};
use plan_core::plan::{Plan, State};

use crate::editor::Editor;

/// Reads something of state `id` (tracked, so the view follows the plan).
pub fn read_state<T>(editor: Editor, id: &str, f: impl FnOnce(&State) -> T) -> Option<T> {
    editor
        .plan
        .with(|p| p.as_ref().and_then(|p| p.state(id)).map(f))
}

/// Edits state `id` through one `ReplaceState`; `burst` names the field for typing.
pub fn edit_state(editor: Editor, id: &str, burst: Option<String>, f: impl FnOnce(&mut State)) {
    let Some(mut s) = editor
        .plan
        .with_untracked(|p| p.as_ref().and_then(|p| p.state(id)).cloned())
    else {
        return;
    };
    f(&mut s);
    let command = Command::ReplaceState {
        id: id.to_string(),
        state: Box::new(s),
    };
    run(editor, command, burst.as_deref());
}

/// Carries out `command`: one undo step, or one per burst of typing in the field `burst`. Says
/// whether the editor took it (a refused rename changes nothing).
pub fn run(editor: Editor, command: Command, burst: Option<&str>) -> bool {
    match burst {
        Some(key) => editor.dispatch_typing(command, key),
        None => editor.dispatch(command),
    }
}

/// Changes the plan's own fields through one `SetPlanDetails` (one undo step, or one per burst of
/// typing in the field `burst`): what every part of the plan inspector edits through.
pub fn change_plan(editor: Editor, burst: Option<&str>, f: impl FnOnce(&mut PlanDetails)) {
    let Some(mut d) = editor
        .plan
        .with_untracked(|p| p.as_ref().map(PlanDetails::of))
    else {
        return;
    };
    f(&mut d);
    let burst = burst.map(|k| format!("plan:{k}"));
    run(editor, Command::SetPlanDetails(d), burst.as_deref());
}

/// Reads something of the plan (tracked, so the view follows it).
pub fn read_plan<T: Default>(editor: Editor, f: impl FnOnce(&Plan) -> T) -> T {
    editor.plan.with(|p| p.as_ref().map(f).unwrap_or_default())
}
