//! A conversation the explorer found, played in the test chat: a new conversation of the draft
//! with the simulator, its messages said one turn at a time (a short pause between, so the author
//! sees the canvas follow it, the current state lit), ending where the finding shows.

use std::time::Duration;

use leptos::prelude::*;
use leptos::task::spawn_local;
use plan_api::messages::AgentKind;
use plan_core::runtime::script::Script;
use plan_core::runtime::{Start, ToolResults};
use plan_core::Revision;

use super::{agent, TestChat};
use crate::ipc;
use crate::navigation::Tab;

/// The pause between two turns of a played conversation: long enough to see each state lit.
const BETWEEN_TURNS: Duration = Duration::from_millis(400);

impl TestChat {
    /// Plays `script` in the test chat from the draft's start, with the simulator (the explorer's
    /// conversations are the simulator's messages).
    pub fn play(self, script: Script) {
        let Some(id) = self.editor.id.get_untracked() else {
            return;
        };
        if self.busy.get_untracked() {
            return;
        }
        self.agent.set(AgentKind::Simulator);
        self.run.set(Revision::Draft);
        self.from.set(Start::default());
        self.case.set(None);
        self.navigation.show(Tab::Chat);
        self.busy.set(true);
        spawn_local(async move {
            if let Err(why) = self.editor.settled().await {
                self.busy.set(false);
                return self.editor.say_refused(why);
            }
            let started = ipc::chat_start(&id, Some(Revision::Draft), &Start::default()).await;
            let Ok(mut view) = started else {
                return self.show(started);
            };
            self.show(Ok(view.clone()));
            for turn in &script.turns {
                ipc::pause(BETWEEN_TURNS).await;
                // The author may have begun another conversation meanwhile: that one is left alone.
                if !self
                    .chat
                    .with_untracked(|c| c.as_ref().is_some_and(|c| c.name == view.name))
                {
                    return;
                }
                self.busy.set(true);
                let choice = agent::choice(AgentKind::Simulator, None);
                let answer =
                    ipc::chat_say(&id, &view.name, &turn.user, &ToolResults::new(), choice).await;
                match answer {
                    Ok(next) => {
                        view = next.clone();
                        self.show(Ok(next));
                    }
                    Err(e) => return self.show(Err(e)),
                }
            }
        });
    }
}
