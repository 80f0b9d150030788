//! The help overlay (`?`): every keyboard shortcut and mouse gesture, in one table.

use leptos::ev;
use leptos::prelude::*;

#[component]
pub fn Help(close: Callback<()>) -> impl IntoView {
    let rows = [
        ("Double-click the canvas", "Add a state"),
        (
            "Drag a card's right edge to a card",
            "Connect (onto itself: a loop)",
        ),
        (
            "Drag an arrow's end (when selected)",
            "Send it to another state",
        ),
        (
            "Click · Shift+click · Shift+drag",
            "Select · add to selection · select in a box",
        ),
        (
            "Drag cards · arrow keys (Shift: ×4)",
            "Move (snaps to the grid)",
        ),
        ("Delete", "Delete the selection"),
        ("Ctrl+C · Ctrl+V · Ctrl+D", "Copy · paste · duplicate"),
        ("Ctrl+A", "Select every state"),
        ("Ctrl+Z · Ctrl+Shift+Z or Ctrl+Y", "Undo · redo"),
        ("Ctrl+F", "Find a state"),
        ("Drag the background · scroll", "Pan"),
        ("Ctrl+scroll · Ctrl+= · Ctrl+-", "Zoom"),
        ("Ctrl+0", "Fit the whole plan"),
        ("?", "This help"),
        ("Escape", "Close · clear the selection"),
    ];
    view! {
        <div class="overlay" data-testid="help-overlay" on:click=move |_| close.run(())>
            <div class="help" on:click=|e: ev::MouseEvent| e.stop_propagation()>
                <h3>"Keyboard and mouse"</h3>
                <table>
                    {rows.into_iter().map(|(k, what)| view! { <tr><td class="keys">{k}</td><td>{what}</td></tr> }).collect_view()}
                </table>
                <button on:click=move |_| close.run(())>"Close"</button>
            </div>
        </div>
    }
}
