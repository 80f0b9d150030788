//! `plan chat`: a test conversation with the simulator (or a language model, `--agent llm`),
//! interactive in a terminal or scripted.
//!
//! Which plan runs and when a session may go on are `plan_api::conversations`' rules, shared with
//! the app's Chat tab: a plan of the workspace (`--plan ID`) runs its live version by default,
//! else its draft; its session is saved in `<plan>/sessions/` after every turn (with its log, so
//! the app can show the trace and step back) and can be resumed with `--resume`. A plan file runs
//! as is and nothing is saved. `--from STATE` begins in that state. Interactive input: one line is
//! one message; a line ending in `\` continues the message on the next line; `/quit` or end of
//! input stops.

use std::fmt::Write as _;
use std::io::{BufRead, IsTerminal, Write};
use std::path::{Path, PathBuf};

use plan_api::answerer::Answerer;
use plan_api::conversations::{read_script, Conversation, StartChat};
use plan_api::file_chat::{self, FileConversation};
use plan_api::target::{self, Target};
use plan_api::{agent, ApiError, Context, ErrorCode};
use plan_core::runtime::script::{self, ChatRecord, Opening, Script, TurnRecord};
use plan_core::runtime::{Event, Start, ToolResults, Turn, What};
use plan_core::{Plan, Revision};

use crate::lifecycle::Failure;
use crate::Format;

fn fail(code: u8, message: String) -> Failure {
    Failure {
        code,
        message,
        ..Failure::default()
    }
}

/// A refusal to run: a plan with errors prints its diagnostics on stderr (exit 1); a conversation
/// that ended is exit 1; everything else as the store commands' (exit 2).
pub fn refusal(name: &str, e: ApiError) -> Failure {
    match e.code {
        ErrorCode::HasErrors => Failure::diagnosed(1, name, e, false),
        // The API's words, and how to start a new one here.
        ErrorCode::Ended => fail(1, with_hint(e.message, name)),
        ErrorCode::Stale => fail(2, with_hint(e.message, name)),
        _ => Failure::from(e),
    }
}

/// A refusal to go on, with the command that starts a new conversation.
fn with_hint(message: String, name: &str) -> String {
    let id = name.split(' ').next().unwrap_or(name);
    format!("{message} (plan chat --plan {id})")
}

/// The options of `plan chat`.
pub struct Options {
    pub file: Option<PathBuf>,
    pub plan: Option<String>,
    pub revision: Option<Revision>,
    pub script: Option<PathBuf>,
    pub resume: Option<String>,
    pub from: Option<String>,
    /// Who answers the turns.
    pub agent: Answerer,
}

pub fn run(
    ctx: impl Fn() -> Result<Context, Failure>,
    o: Options,
    format: Format,
) -> Result<u8, Failure> {
    let script = match &o.script {
        Some(path) => Some(read_script(path).map_err(|m| fail(2, m))?),
        None => None,
    };
    let mut start = script.as_ref().map(|s| s.start.clone()).unwrap_or_default();
    if let Some(state) = &o.from {
        start.state = Some(state.clone());
    }
    match (&o.file, &o.plan) {
        (Some(file), _) => {
            let name = file.display().to_string();
            let target = target::target_file(file)
                .map_err(|e| crate::check::with_plan_id_hint(refusal(&name, e), "chat", file))?;
            check_start(&target, &start)?;
            match &script {
                Some(s) => file_script(&target, s, &start, o.script.as_deref(), &o.agent, format),
                None => file_interactive(&target, &start, &o.agent, format),
            }
        }
        (None, Some(id)) => {
            let ctx = ctx()?;
            let mut conversation = match &o.resume {
                Some(name) => Conversation::resume(&ctx, id, name)
                    .map_err(|e| refusal(&format!("{id} (session {name})"), e))?,
                None => {
                    let request = StartChat {
                        id: id.clone(),
                        revision: o.revision,
                        start,
                    };
                    let name = describe(id, o.revision);
                    Conversation::start(&ctx, &request).map_err(|e| refusal(&name, e))?
                }
            };
            crate::lifecycle::saved_work();
            to_stderr_line!(
                "plan: session {name} of {}, saved in {id}/sessions/ (resume: plan chat --plan {id} --resume {name})",
                conversation.target().name,
                name = conversation.name(),
            );
            match &script {
                Some(s) => plan_script(&mut conversation, s, o.script.as_deref(), &o.agent, format),
                None => plan_interactive(&mut conversation, &o.agent, format),
            }
        }
        (None, None) => Err(fail(2, "name a plan file or --plan ID".into())),
    }
}

/// How messages name plan `id` before it is read.
fn describe(id: &str, revision: Option<Revision>) -> String {
    match revision {
        Some(Revision::Version(n)) => format!("{id} (version {n})"),
        Some(Revision::Draft) => format!("{id} (draft)"),
        _ => id.to_string(),
    }
}

/// A `--from` naming no state is a usage error (exit 2), as docs/cli.md says.
fn check_start(target: &Target, start: &Start) -> Result<(), Failure> {
    match &start.state {
        Some(state) if target.plan.state(state).is_none() => Err(fail(
            2,
            format!("{} has no state '{state}' to start from", target.name),
        )),
        _ => Ok(()),
    }
}

/// Prints a scripted conversation and its failed expectations; exit 1 when any failed.
fn report(
    plan: &Plan,
    record: &ChatRecord,
    failures: &[script::Failure],
    path: Option<&Path>,
    format: Format,
) -> u8 {
    let mut out = std::io::stdout().lock();
    match format {
        Format::Json => {
            let text = serde_json::to_string_pretty(record).unwrap_or_default();
            let _ = writeln!(out, "{text}");
        }
        Format::Text => {
            let _ = write!(
                out,
                "{}",
                opening_text(plan, &record.opening.state, &record.opening.agent)
            );
            for (i, t) in record.turns.iter().enumerate() {
                let _ = write!(out, "{}", turn_text(plan, t, true));
                if let Some(notice) = notice_after_last(&record.turns[..=i]) {
                    let _ = writeln!(out, "note: {notice}");
                }
            }
            if let Some(cost) = cost_line(&record.turns) {
                let _ = writeln!(out, "\nThe language model: {cost}");
            }
        }
    }
    let file = path.map(|p| p.display().to_string()).unwrap_or_default();
    for f in failures {
        to_stderr_line!("plan: {file}: {f}");
    }
    u8::from(!failures.is_empty())
}

fn file_script(
    target: &Target,
    s: &Script,
    start: &Start,
    path: Option<&Path>,
    agent: &Answerer,
    format: Format,
) -> Result<u8, Failure> {
    let run = file_chat::run_script(target, s, start.state.as_deref(), agent)
        .map_err(|e| refusal(&target.name, e))?;
    Ok(report(
        &target.plan,
        &run.record,
        &run.failures,
        path,
        format,
    ))
}

fn plan_script(
    c: &mut Conversation,
    s: &Script,
    path: Option<&Path>,
    agent: &Answerer,
    format: Format,
) -> Result<u8, Failure> {
    let opening = c.opening();
    let (turns, failures) = c.run_script_by(s, agent).map_err(|e| match e.code {
        // A turn that could not be saved (a full disk): how far the conversation is saved.
        ErrorCode::Io | ErrorCode::InUse => fail(
            2,
            format!(
                "turn {} was not saved, and the session is saved as it was after turn {}: {}",
                c.session().turn + 1,
                c.session().turn,
                e.message
            ),
        ),
        _ => Failure::from(e),
    })?;
    let record = ChatRecord {
        opening,
        turns,
        ended: c.session().ended.clone(),
    };
    Ok(report(&c.target().plan, &record, &failures, path, format))
}

/// Reads messages from the terminal (or standard input) until the end, `/quit` or the end of the
/// conversation; `say` takes one turn and returns its record.
fn interactive(
    plan: &Plan,
    name: &str,
    opening: Opening,
    mut ended: impl FnMut() -> bool,
    mut say: impl FnMut(&str) -> Result<TurnRecord, Failure>,
    format: Format,
) -> Result<(ChatRecord, u8), Failure> {
    let terminal = std::io::stdin().is_terminal();
    let mut out = std::io::stdout().lock();
    let json = format == Format::Json;
    if !json {
        if terminal {
            let _ = writeln!(
                out,
                "Test conversation with {name}: type a message; a line ending in \\ continues it; /quit stops.\n"
            );
        }
        let _ = write!(
            out,
            "{}",
            opening_text(plan, &opening.state, &opening.agent)
        );
    }
    let mut record = ChatRecord {
        opening,
        turns: Vec::new(),
        ended: None,
    };
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    while !ended() {
        let prompt = terminal && !json;
        if prompt {
            let _ = write!(out, "you> ");
            let _ = out.flush();
        }
        let Some(message) = read_message(&mut lines, prompt, &mut out) else {
            break;
        };
        if message.trim() == "/quit" {
            break;
        }
        let t = match say(&message) {
            Ok(t) => t,
            // The model failed: nothing was applied; the author can say it again.
            Err(f) if f.code == AGENT_FAILED => {
                to_stderr_line!(
                    "plan: {}; nothing changed: say it again to retry",
                    f.message
                );
                continue;
            }
            Err(f) => return Err(f),
        };
        if !json {
            let _ = write!(out, "{}", turn_text(plan, &t, !terminal));
        }
        record.turns.push(t);
        if let (false, Some(notice)) = (json, notice_after_last(&record.turns)) {
            let _ = writeln!(out, "note: {notice}");
        }
    }
    if let (false, Some(cost)) = (json, cost_line(&record.turns)) {
        let _ = writeln!(out, "\nThe language model: {cost}");
    }
    Ok((record, 0))
}

fn print_record(record: &ChatRecord, format: Format) {
    if format == Format::Json {
        let text = serde_json::to_string_pretty(record).unwrap_or_default();
        let _ = writeln!(std::io::stdout().lock(), "{text}");
    }
}

/// The code `say` fails with when the agent failed and the conversation can go on.
const AGENT_FAILED: u8 = 3;

fn file_interactive(
    target: &Target,
    start: &Start,
    agent: &Answerer,
    format: Format,
) -> Result<u8, Failure> {
    let (c, opening) = FileConversation::open(target.clone(), start, agent)
        .map_err(|e| refusal(&target.name, e))?;
    let c = std::cell::RefCell::new(c);
    let (mut record, code) = interactive(
        &target.plan,
        &target.name,
        opening,
        || c.borrow().session().ended.is_some(),
        |message| {
            c.borrow_mut()
                .say_by(message, &ToolResults::new(), agent)
                .map_err(|e| match e.code {
                    ErrorCode::Agent => fail(AGENT_FAILED, e.message),
                    _ => fail(1, e.message),
                })
        },
        format,
    )?;
    record.ended = c.borrow().session().ended.clone();
    print_record(&record, format);
    Ok(code)
}

fn plan_interactive(c: &mut Conversation, agent: &Answerer, format: Format) -> Result<u8, Failure> {
    let plan = c.target().plan.clone();
    let name = c.target().name.clone();
    let opening = c.opening();
    let c = std::cell::RefCell::new(c);
    let (mut record, code) = interactive(
        &plan,
        &name,
        opening,
        || c.borrow().session().ended.is_some(),
        |message| {
            let mut c = c.borrow_mut();
            let logged = c
                .say_by(message, &ToolResults::new(), agent)
                .map_err(|e| match e.code {
                    ErrorCode::Io | ErrorCode::InUse => fail(
                        2,
                        format!(
                            "this turn was not saved, and the session is as it was before it: {}",
                            e.message
                        ),
                    ),
                    ErrorCode::Agent => fail(AGENT_FAILED, e.message),
                    _ => fail(1, e.message),
                })?
                .clone();
            Ok(c.record_of(&logged))
        },
        format,
    )?;
    record.ended = c.borrow().session().ended.clone();
    print_record(&record, format);
    Ok(code)
}

/// One message: a line, continued while it ends in `\`.
fn read_message(
    lines: &mut impl Iterator<Item = std::io::Result<String>>,
    prompt: bool,
    out: &mut impl Write,
) -> Option<String> {
    let mut message = String::new();
    loop {
        let line = lines.next()?.ok()?;
        match line.strip_suffix('\\') {
            Some(start) => {
                message.push_str(start);
                message.push('\n');
                if prompt {
                    let _ = write!(out, "...> ");
                    let _ = out.flush();
                }
            }
            None => {
                message.push_str(&line);
                return Some(message);
            }
        }
    }
}

fn title_of<'p>(plan: &'p Plan, id: &'p str) -> &'p str {
    plan.state(id).map_or(id, |s| s.title.as_str())
}

fn agent_lines(plan: &Plan, state: &str, reply: &str) -> String {
    let head = format!("agent [{}]: ", title_of(plan, state));
    let pad = " ".repeat(head.chars().count());
    let mut s = String::new();
    for (i, line) in reply.lines().enumerate() {
        s.push_str(if i == 0 { &head } else { &pad });
        s.push_str(line);
        s.push('\n');
    }
    if reply.is_empty() {
        s.push_str(&head);
        s.push('\n');
    }
    s
}

pub fn opening_text(plan: &Plan, state: &str, reply: &str) -> String {
    agent_lines(plan, state, reply)
}

/// A turn for people: the message (when it was not typed here), the events, the reply.
pub fn turn_text(plan: &Plan, record: &TurnRecord, echo: bool) -> String {
    let t = &record.turn;
    let mut s = String::new();
    if echo {
        for (i, line) in t.user.as_deref().unwrap_or_default().lines().enumerate() {
            s.push_str(if i == 0 { "you> " } else { "...> " });
            s.push_str(line);
            s.push('\n');
        }
    }
    for e in &t.events {
        s.push_str(&event_line(e));
    }
    // What a language model called, and what became of each call.
    for c in &t.calls {
        let mark = if c.accepted { "⚙" } else { "✗" };
        let _ = writeln!(s, "  {mark} {}({}) → {}", c.function, c.arguments, c.result);
    }
    for g in &t.goal_checks {
        let verdict = if g.met { "yes" } else { "no" };
        let _ = writeln!(
            s,
            "  ? goal check before {}: {verdict} {}",
            g.function, g.reason
        );
    }
    if let Some(ms) = t.ms {
        let _ = writeln!(s, "  $ {}", agent::turn_cost_text(t.usage, ms));
    }
    s.push_str(&agent_lines(plan, &record.state, &t.reply));
    s
}

/// A turn as the no-function notice reads it.
fn model_calls(t: &Turn) -> Option<agent::ModelTurnCalls> {
    t.ms.map(|_| agent::ModelTurnCalls {
        called: !t.calls.is_empty(),
        uncalled: t.uncalled,
    })
}

/// The notice that the model does not call functions, when the conversation's turns call for it
/// at its last turn (said once: at the turn where it first applies).
fn notice_after_last(turns: &[TurnRecord]) -> Option<String> {
    let at = agent::uncalled_notice_at(turns.iter().map(|r| model_calls(&r.turn)))?;
    (at + 1 == turns.len()).then(agent::no_functions_notice)
}

/// What the model's turns cost together, for the end of a conversation.
fn cost_line(turns: &[TurnRecord]) -> Option<String> {
    agent::conversation_cost_text(turns.iter().map(|r| (r.turn.usage, r.turn.ms)))
}

fn event_line(e: &Event) -> String {
    let mark = match &e.what {
        What::Transition(_) => "→",
        What::ActionRejected { .. } => "✗",
        What::Ended { .. } => "■",
        What::Entered { .. } => return String::new(),
        _ => "·",
    };
    format!("  {mark} {}\n", e.text)
}
