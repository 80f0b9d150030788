//! The test chat as an author drives it: start a conversation, type a message and wait for the
//! reply, and ask which state it is in (where the canvas lights it and the live panel names it).

use std::time::Duration;

use serde_json::json;

use crate::page::{attribute, attributes, click, count, Outcome};
use crate::{Ctx, SHORT};

/// How long a turn's reply may take.
pub const LONG: Duration = Duration::from_secs(10);
const ENTER: &str = "\u{E007}";

/// How many agent messages the chat shows.
pub fn agent_lines(ctx: &Ctx) -> Result<usize, String> {
    count(ctx, "[data-testid=chat-message][data-role=agent]")
}

/// The state the conversation is in, as the canvas lights it and the live inspector names it;
/// fails when the two disagree or more than one card is lit.
pub fn current(ctx: &Ctx) -> Result<String, String> {
    let lit = attributes(ctx, crate::hooks::LIT_STATE, "data-state-id")?;
    let named = attribute(ctx, "[data-testid=chat-state]", "data-state-id")?;
    match (lit.as_slice(), named.as_deref()) {
        ([one], Some(n)) if one == n => Ok(one.clone()),
        _ => Err(format!(
            "the canvas lights {lit:?}, the inspector says {named:?}"
        )),
    }
}

/// Waits until the conversation is in `state` (on the canvas and in the inspector).
pub fn is_in(ctx: &Ctx, state: &str) -> Outcome {
    let mut seen = String::new();
    ctx.session()
        .wait_until(&format!("the conversation in {state}"), LONG, || {
            seen = current(ctx).unwrap_or_else(|e| e);
            Ok(seen == state)
        })
        .map_err(|e| format!("{e} ({seen})"))
}

/// Opens the Chat tab and starts a conversation, waiting for the opening reply.
pub fn start_chat(ctx: &Ctx) -> Outcome {
    click(ctx, crate::hooks::TAB_CHAT)?;
    click(ctx, crate::hooks::CHAT_START)?;
    ctx.session()
        .wait_until("the opening reply", LONG, || Ok(agent_lines(ctx)? >= 1))
}

/// Types `message` into the chat and presses Enter, as an author does, then waits for the reply.
pub fn say(ctx: &Ctx, message: &str) -> Outcome {
    let before = agent_lines(ctx)?;
    let el = ctx.session().wait_for(crate::hooks::CHAT_INPUT, SHORT)?;
    ctx.session().click(&el)?;
    ctx.session().send_keys(&el, message)?;
    ctx.session().send_keys(&el, ENTER)?;
    ctx.session()
        .wait_until(&format!("the reply to {message:?}"), LONG, || {
            Ok(agent_lines(ctx)? == before + 1)
        })?;
    let left = ctx.session().execute(
        "return document.querySelector('[data-testid=chat-input]').value;",
        json!([]),
    )?;
    ensure!(left == json!(""), "the field still holds {left}")
}
