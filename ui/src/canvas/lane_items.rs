//! The lanes' thin views (see `lanes`): a session state's chip, an evaluation's card, a lane's
//! name, and an edge with, when selected, its draggable end. What the pointer is over is read
//! back from their `data-` attributes (`under_pointer`).

use leptos::prelude::*;
use plan_core::edit::Limit;

use super::lanes::{Chip, EvaluationCard, LaneHeader, LimitEdge};
use crate::editor::Editor;

/// Whether the edge `limit` is the selection.
fn limit_selected(editor: Editor, limit: Limit) -> Memo<bool> {
    Memo::new(move |_| editor.selection.with(|s| s.limit.as_ref() == Some(&limit)))
}

/// A session state's chip: dragged onto an evaluation, it limits the evaluation to that state.
pub fn chip_view(c: Chip) -> impl IntoView {
    view! {
        <div
            class="session-chip"
            data-testid="session-chip"
            tabindex="0"
            role="button"
            aria-label=format!(
                "Session state {}: C limits an evaluation to it, ] selects its edges",
                c.title,
            )
            data-session-state=c.id.clone()
            title=format!(
                "Session state {}: drag onto an evaluation to ask it only while this state is on",
                c.title,
            )
            style:left=format!("{}px", c.rect.x)
            style:top=format!("{}px", c.rect.y)
            style:width=format!("{}px", c.rect.w)
            style:height=format!("{}px", c.rect.h)
        >
            <span>{c.title.clone()}</span>
        </div>
    }
}

/// An evaluation's card: its name, what the judge is asked, and when.
pub fn evaluation_view(e: EvaluationCard) -> impl IntoView {
    view! {
        <div
            class="evaluation-card"
            data-testid="evaluation-card"
            data-evaluation=e.id.clone()
            title=format!("{}: {}", e.title, e.question)
            style:left=format!("{}px", e.rect.x)
            style:top=format!("{}px", e.rect.y)
            style:width=format!("{}px", e.rect.w)
            style:height=format!("{}px", e.rect.h)
        >
            <div class="evaluation-kind">"Evaluation"</div>
            <div class="evaluation-title">{e.title.clone()}</div>
            <div class="evaluation-scope" data-testid="evaluation-scope">
                {e.scope.clone()}
            </div>
        </div>
    }
}

/// A lane's name and what it is for, left of its row.
pub fn header_view(h: LaneHeader) -> impl IntoView {
    view! {
        <div
            class="lane-header"
            style:left=format!("{}px", h.rect.x)
            style:top=format!("{}px", h.rect.y)
            style:width=format!("{}px", h.rect.w)
        >
            <div class="lane-name">{h.name}</div>
            <div class="lane-hint">{h.hint}</div>
        </div>
    }
}

/// An edge from a chip to an evaluation, in the arrows' SVG layer.
pub fn edge_view(e: LimitEdge, editor: Editor) -> impl IntoView {
    let selected = limit_selected(editor, e.limit.clone());
    let marker = move || {
        if selected.get() {
            "url(#arrowhead-selected)"
        } else {
            "url(#arrowhead)"
        }
    };
    view! {
        <g
            class="limit"
            class:selected=selected
            data-testid="limit"
            data-session-state=e.limit.session_state.clone()
            data-evaluation=e.limit.evaluation.clone()
            data-selected=move || selected.get().then_some("true")
        >
            <title>{e.title.clone()}</title>
            <path class="edge-hit" d=e.d.clone()></path>
            <path class="edge" d=e.d.clone() marker-end=marker></path>
        </g>
    }
}

/// The selected edge's end, on the cards' layer so it can be grabbed where it meets its card:
/// dragged onto another evaluation, the edge limits that one instead.
pub fn edge_end_view(e: LimitEdge, editor: Editor) -> impl IntoView {
    let selected = limit_selected(editor, e.limit.clone());
    move || {
        selected.get().then(|| {
            view! {
                <div
                    class="arrow-end"
                    data-limit-end="true"
                    data-session-state=e.limit.session_state.clone()
                    data-evaluation=e.limit.evaluation.clone()
                    title="Drag to another evaluation to limit that one instead"
                    style:left=format!("{:.1}px", e.end.0)
                    style:top=format!("{:.1}px", e.end.1)
                ></div>
            }
        })
    }
}
