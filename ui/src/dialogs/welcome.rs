//! The first start's welcome: what a plan is, in an author's words, and three ways in (a sample,
//! a blank plan, a file). Closing it any way dismisses it for good ([`Lifecycle::close_dialog`]).

use leptos::prelude::*;

use crate::lifecycle::Lifecycle;

#[component]
pub fn WelcomeDialog() -> impl IntoView {
    let lifecycle = expect_context::<Lifecycle>();
    view! {
        <div class="welcome" data-testid="welcome">
            <h3>"Welcome to Plan Builder"</h3>
            <p>
                "A plan is how an AI agent holds a conversation: the states it goes through "
                "(greet, find out what the caller needs, collect the details, end), what it must "
                "learn in each, and the arrows that say where it goes next. You draw it here, "
                "the app checks it as you type, and the Test chat lets you talk to it before you "
                "publish a version for the agent to use."
            </p>
            <h4>"Open a sample"</h4>
            <div class="welcome-samples">
                <For each=move || lifecycle.samples.get() key=|s| s.id.clone() let:s>
                    <button
                        class="welcome-sample"
                        data-testid="welcome-sample"
                        data-id=s.id.clone()
                        on:click={
                            let (id, title) = (s.id.clone(), s.title.clone());
                            move |_| lifecycle.open_sample(id.clone(), title.clone())
                        }
                    >
                        <span class="welcome-sample-title">{s.title.clone()}</span>
                        <span class="hint">{format!("{} states", s.states)}</span>
                    </button>
                </For>
            </div>
            <h4>"Or"</h4>
            <div class="dialog-buttons welcome-ways">
                <button data-testid="welcome-blank" on:click=move |_| lifecycle.start_blank()>
                    "Start a blank plan"
                </button>
                <button
                    data-testid="welcome-import"
                    on:click=move |_| lifecycle.import_from_welcome()
                >
                    "Import a plan file…"
                </button>
                <button
                    class="primary"
                    data-testid="welcome-close"
                    autofocus
                    on:click=move |_| lifecycle.close_dialog()
                >
                    "Close"
                </button>
            </div>
            <p class="hint">
                "The samples are plans in your workspace like any other: change them freely. "
                "Press ? at any time for the keyboard and mouse."
            </p>
        </div>
    }
}
