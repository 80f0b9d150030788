//! The help overlay (`?`): every keyboard shortcut and mouse gesture, read from the one table
//! the keymap matches key presses against ([`crate::keymap::SHORTCUTS`]).

use leptos::ev;
use leptos::prelude::*;

use crate::keymap::SHORTCUTS;

#[component]
pub fn Help(close: Callback<()>) -> impl IntoView {
    view! {
        <div class="overlay" data-testid="help-overlay" on:click=move |_| close.run(())>
            <div class="help" on:click=|e: ev::MouseEvent| e.stop_propagation()>
                <h3>"Keyboard and mouse"</h3>
                <table>
                    {SHORTCUTS
                        .iter()
                        .map(|s| {
                            view! {
                                <tr>
                                    <td class="keys">{s.how}</td>
                                    <td>{s.does}</td>
                                </tr>
                            }
                        })
                        .collect_view()}
                </table>
                <button on:click=move |_| close.run(())>"Close"</button>
            </div>
        </div>
    }
}
