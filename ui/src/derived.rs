//! What the window derives from its stores for the canvas: the scene of the open plan (only what
//! an edit changed is made again) and the marks over it (problems, a comparison, the test chat's
//! conversation or coverage, an explore finding), and the camera following the conversation.

use leptos::prelude::*;
use plan_core::Report;

use crate::actions::Actions;
use crate::canvas::camera::Camera;
use crate::canvas::marks::Marks;
use crate::canvas::scene::Scene;
use crate::editor::{Change, Editor};
use crate::explore::Exploring;
use crate::navigation::{Navigation, Tab};
use crate::test_chat::{ChatMarks, TestChat};
use crate::timeline::{mark, timed};

/// The open plan's scene. Typing in the inspector changes one state: only its card and arrows
/// are made again; a move only the moved cards.
pub fn scene(editor: Editor) -> Memo<Scene> {
    Memo::new(move |before: Option<&Scene>| {
        let change = editor.take_change();
        editor.plan.with(|p| {
            let Some(p) = p else {
                return Scene::default();
            };
            let redrawn = match (before, &change) {
                (Some(before), Change::OneState(id)) => {
                    timed("scene: one state", || before.with_state_redrawn(p, id))
                }
                (Some(before), Change::Moved(ids)) => {
                    timed("scene: moved", || before.with_states_moved(p, ids))
                }
                _ => None,
            };
            if let Some(s) = redrawn {
                return s;
            }
            mark("scene-start");
            let s = timed("scene: build", || Scene::build(p));
            mark("scene-done");
            s
        })
    })
}

/// While the Test chat is shown, what the canvas marks of the conversation (or a failing case)
/// and the suite's coverage.
pub fn chat_marks() -> Memo<Option<ChatMarks>> {
    let navigation = expect_context::<Navigation>();
    let test_chat = expect_context::<TestChat>();
    Memo::new(move |_| {
        navigation.showing(Tab::Chat).then(|| {
            test_chat.chat().with(|chat| {
                test_chat.case().with(|case| {
                    test_chat.suite().with(|suite| {
                        crate::test_chat::marks(chat.as_ref(), case.as_ref(), suite.as_ref())
                    })
                })
            })
        })
    })
}

/// Everything the canvas marks: the problems of `report`, a comparison's changes, and the
/// conversation of `chat` or, while the Explore tab is shown, a finding's conversation or the
/// coverage.
pub fn marks(report: Memo<Report>, chat: Memo<Option<ChatMarks>>) -> Memo<Marks> {
    let editor = expect_context::<Editor>();
    let navigation = expect_context::<Navigation>();
    let exploring = expect_context::<Exploring>();
    let explore_marks = Memo::new(move |_| {
        navigation.showing(Tab::Explore).then(|| {
            exploring.found.with(|found| {
                found.as_ref().map(|found| {
                    crate::explore::marks(found, exploring.shown.get(), exploring.coverage.get())
                })
            })
        })
    });
    let simulating = expect_context::<crate::simulate::Simulating>();
    let heat_marks = Memo::new(move |_| {
        (navigation.showing(Tab::Simulate) && simulating.heat.get())
            .then(|| {
                simulating
                    .report
                    .with(|r| r.as_ref().map(crate::simulate::heat_marks))
            })
            .flatten()
    });
    let sharing = expect_context::<crate::sharing::Sharing>();
    Memo::new(move |_| {
        let mut marks = timed("marks", || report.with(Marks::of));
        sharing.conflicts.with(|all| {
            marks.conflicts = all
                .iter()
                .filter_map(|c| plan_core::merge::state_of(&c.path))
                .collect();
        });
        editor.comparing.with(|c| {
            if let Some(c) = c {
                marks.diff_states = c.states.clone();
                marks.diff_arrows = c.transitions.clone();
            }
        });
        if let Some(chat) = chat.get() {
            marks.current = chat.current;
            marks.visited = chat.visited;
            marks.parked = chat.parked;
            marks.fired = chat.fired;
            marks.covered = chat.covered;
        }
        if let Some(Some(found)) = explore_marks.get() {
            marks.current = found.current;
            marks.visited = found.visited;
            marks.covered = found.covered;
            marks.reach = found.reach;
        }
        if let Some(heat) = heat_marks.get() {
            marks.reach = Some(heat.entered);
            marks.heat = Some(heat.ended_stalled);
            marks.covered = Some(heat.taken);
        }
        // A simulated conversation opened: where it went up to the turn shown, lit as the test
        // chat lights its own.
        if navigation.showing(Tab::Simulate) {
            simulating.opened.with(|o| {
                if let Some(o) = o {
                    let (visited, current) =
                        crate::simulate::stepping::lit(&o.conversation, simulating.step.get());
                    marks.visited = visited.into_iter().collect();
                    marks.current = current;
                }
            });
        }
        marks
    })
}

/// The canvas follows the conversation: a current state out of view is brought to the middle.
pub fn follow_the_conversation(scene: Memo<Scene>, chat: Memo<Option<ChatMarks>>) {
    let camera = expect_context::<Camera>();
    let actions = expect_context::<Actions>();
    Effect::new(move |_| {
        let current = chat.with(|m| m.as_ref().and_then(|m| m.current.clone()));
        if let Some(id) = current {
            let rect =
                scene.with_untracked(|s| s.cards.iter().find(|c| c.id == id).map(|c| c.rect));
            let view = camera
                .viewport
                .get_untracked()
                .visible(camera.size.get_untracked());
            if rect.is_some_and(|r| !view.contains(&r)) {
                actions.centre_on(&id);
            }
        }
    });
}
