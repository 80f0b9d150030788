//! `plan chat`: a test conversation with the simulator, interactive in a terminal or scripted.
//!
//! A plan of the workspace (`--plan ID`) runs its live version by default, else its draft; its
//! session is saved in `<plan>/sessions/` after every turn and can be resumed with `--resume`.
//! A plan file runs as is and nothing is saved. Interactive input: one line is one message; a line
//! ending in `\` continues the message on the next line (commands and text in one message);
//! `/quit` or end of input stops.

use std::io::{BufRead, IsTerminal, Write};
use std::path::{Path, PathBuf};

use plan_api::context::system_clock;
use plan_api::Context;
use plan_core::files::read_text;
use plan_core::hash::content_hash;
use plan_core::runtime::script::{self, Script, TurnRecord};
use plan_core::runtime::{Chat, Event, PlanRef, PlanVersion, Session, Simulator, What};
use plan_core::store::Workspace;
use plan_core::validate::{check_text, validate, Severity};
use plan_core::Plan;
use plan_core::Revision;

use crate::lifecycle::Failure;
use crate::{check, Format};

/// A plan ready to run: checked, with the reference a session records.
pub struct Target {
    pub plan: Plan,
    pub plan_ref: PlanRef,
    /// How messages name it: `customer-support (draft)`, `support.json`.
    pub name: String,
}

fn fail(code: u8, message: String) -> Failure {
    Failure { code, message }
}

/// A plan file, run as is. Not JSON, not a plan, or a plan with errors: exit 1, diagnostics on
/// stderr.
pub fn target_file(path: &Path) -> Result<Target, Failure> {
    let text = read_text(path).map_err(|e| fail(2, format!("cannot read {e}")))?;
    let name = path.display().to_string();
    let (plan, report) = check_text(&text);
    match plan {
        Some(plan) if !report.has_errors() => Ok(Target {
            plan_ref: PlanRef {
                id: plan.id.clone(),
                version: PlanVersion::File,
                content_hash: content_hash(&plan),
            },
            plan,
            name,
        }),
        _ => Err(refused(&name, &report.diagnostics)),
    }
}

/// Plan `id` of the workspace: `revision`, or by default the live version, else the draft.
pub fn target_plan(
    ws: &Workspace,
    id: &str,
    revision: Option<Revision>,
) -> Result<Target, Failure> {
    let (plan, version) = ws.plan_to_run(id, revision)?;
    let name = format!("{id} ({version})");
    let report = validate(&plan);
    if report.has_errors() {
        return Err(refused(&name, &report.diagnostics));
    }
    Ok(Target {
        plan_ref: PlanRef {
            id: id.to_string(),
            version,
            content_hash: content_hash(&plan),
        },
        plan,
        name,
    })
}

fn refused(name: &str, diagnostics: &[plan_core::Diagnostic]) -> Failure {
    let errors = diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .count();
    eprint!("{}", check::render(name, diagnostics));
    fail(
        1,
        format!("{name} has {errors} error(s); fix them before a test conversation (plan check shows them)"),
    )
}

/// Where a workspace chat saves its session.
pub struct Saving<'w> {
    pub ws: &'w Workspace,
    pub id: String,
    pub name: String,
}

impl Saving<'_> {
    fn save(&self, s: &Session) -> Result<(), String> {
        self.ws
            .save_session(&self.id, &self.name, s)
            .map_err(|e| format!("the session could not be saved: {e}"))
    }
}

/// The options of `plan chat`.
pub struct Options {
    pub file: Option<PathBuf>,
    pub plan: Option<String>,
    pub revision: Option<Revision>,
    pub script: Option<PathBuf>,
    pub resume: Option<String>,
}

pub fn run(
    ws: impl Fn() -> Result<Context, Failure>,
    o: Options,
    format: Format,
) -> Result<u8, Failure> {
    let workspace;
    let (target, saving, resumed) = match (&o.file, &o.plan) {
        (Some(file), _) => (target_file(file)?, None, None),
        (None, Some(id)) => {
            workspace = ws()?.workspace().clone();
            let (target, resumed, name) = match &o.resume {
                Some(name) => {
                    let session = workspace.read_session(id, name)?;
                    let target = resume_target(&workspace, id, name, &session)?;
                    (target, Some(session), name.clone())
                }
                None => {
                    let target = target_plan(&workspace, id, o.revision)?;
                    let name = workspace.new_session_name(id, &system_clock())?;
                    (target, None, name)
                }
            };
            eprintln!(
                "plan: session {name} of {}, saved in {}/sessions/ (resume: plan chat --plan {id} --resume {name})",
                target.name,
                id
            );
            let saving = Saving {
                ws: &workspace,
                id: id.clone(),
                name,
            };
            (target, Some(saving), resumed)
        }
        (None, None) => return Err(fail(2, "name a plan file or --plan ID".into())),
    };
    match &o.script {
        Some(path) => scripted(&target, saving.as_ref(), resumed, path, format),
        None => interactive(&target, saving.as_ref(), resumed, format),
    }
}

/// The plan a saved session ran, refused when its content changed since.
fn resume_target(
    ws: &Workspace,
    id: &str,
    name: &str,
    session: &Session,
) -> Result<Target, Failure> {
    let revision = match session.plan.version {
        PlanVersion::Draft | PlanVersion::File => Revision::Draft,
        PlanVersion::Number(n) => Revision::Version(n),
    };
    let target = target_plan(ws, id, Some(revision))?;
    if target.plan_ref.content_hash != session.plan.content_hash {
        return Err(fail(
            2,
            format!(
                "session {name} ran {id} ({}) as it was then ({}); it has changed since ({}), so the session cannot resume: start a new one with plan chat --plan {id}",
                session.plan.version,
                short(&session.plan.content_hash),
                short(&target.plan_ref.content_hash)
            ),
        ));
    }
    if let Some(ended) = &session.ended {
        return Err(fail(
            1,
            format!(
                "session {name} has ended ({} in state '{}' at turn {}): start a new one with plan chat --plan {id}",
                ended.describe(),
                ended.state_id,
                ended.turn
            ),
        ));
    }
    Ok(target)
}

fn short(hash: &str) -> &str {
    &hash[..hash.len().min(19)]
}

/// Reads a script file; a file that is not a script is exit 2 (bad arguments).
pub fn read_script(path: &Path) -> Result<Script, String> {
    let text = read_text(path).map_err(|e| format!("cannot read {e}"))?;
    serde_json::from_str(&text).map_err(|e| {
        format!(
            "{}:{}:{}: not a script: {e}",
            path.display(),
            e.line(),
            e.column()
        )
    })
}

fn scripted(
    target: &Target,
    saving: Option<&Saving>,
    resumed: Option<Session>,
    path: &Path,
    format: Format,
) -> Result<u8, Failure> {
    let script = read_script(path).map_err(|m| fail(2, m))?;
    let mut after = |s: &Session| saving.map_or(Ok(()), |w| w.save(s));
    let run = script::run(
        &target.plan,
        &Simulator,
        target.plan_ref.clone(),
        resumed,
        &script,
        &mut after,
    )
    .map_err(|e| fail(2, e.to_string()))?;
    let mut out = std::io::stdout().lock();
    match format {
        Format::Json => {
            let text = serde_json::to_string_pretty(&run.record).unwrap_or_default();
            let _ = writeln!(out, "{text}");
        }
        Format::Text => {
            let _ = write!(
                out,
                "{}",
                opening_text(
                    &target.plan,
                    &run.record.opening.state,
                    &run.record.opening.agent
                )
            );
            for t in &run.record.turns {
                let _ = write!(out, "{}", turn_text(&target.plan, t, true));
            }
        }
    }
    for f in &run.failures {
        eprintln!("plan: {}: {f}", path.display());
    }
    Ok(u8::from(!run.failures.is_empty()))
}

fn interactive(
    target: &Target,
    saving: Option<&Saving>,
    resumed: Option<Session>,
    format: Format,
) -> Result<u8, Failure> {
    let terminal = std::io::stdin().is_terminal();
    let mut out = std::io::stdout().lock();
    let sim = Simulator;
    let (mut chat, opening) = match resumed {
        Some(s) => {
            let reply = s.last_reply().unwrap_or_default().to_string();
            (Chat::resume(&target.plan, &sim, s), reply)
        }
        None => {
            let (chat, turn) = Chat::open(&target.plan, &sim, target.plan_ref.clone())
                .map_err(|e| fail(2, e.to_string()))?;
            (chat, turn.reply)
        }
    };
    if let Some(w) = saving {
        w.save(&chat.session).map_err(|m| fail(2, m))?;
    }
    let json = format == Format::Json;
    let mut record = script::ChatRecord {
        opening: script::Opening {
            agent: opening,
            state: chat.session.state_id.clone(),
        },
        turns: Vec::new(),
        ended: None,
    };
    if !json {
        if terminal {
            let _ = writeln!(
                out,
                "Test conversation with {}: type a message; a line ending in \\ continues it; /quit stops.\n",
                target.name
            );
        }
        let _ = write!(
            out,
            "{}",
            opening_text(&target.plan, &record.opening.state, &record.opening.agent)
        );
    }
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    while chat.session.ended.is_none() {
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
        let turn = chat.say(&message).map_err(|e| fail(1, e.to_string()))?;
        let t = TurnRecord::of(&chat.session, &message, turn);
        if !json {
            let _ = write!(out, "{}", turn_text(&target.plan, &t, !terminal));
        }
        record.turns.push(t);
        if let Some(w) = saving {
            w.save(&chat.session).map_err(|m| fail(2, m))?;
        }
    }
    record.ended = chat.session.ended.clone();
    if json {
        let text = serde_json::to_string_pretty(&record).unwrap_or_default();
        let _ = writeln!(out, "{text}");
    }
    Ok(0)
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
pub fn turn_text(plan: &Plan, t: &TurnRecord, echo: bool) -> String {
    let mut s = String::new();
    if echo {
        for (i, line) in t.user.lines().enumerate() {
            s.push_str(if i == 0 { "you> " } else { "...> " });
            s.push_str(line);
            s.push('\n');
        }
    }
    for e in &t.events {
        s.push_str(&event_line(e));
    }
    s.push_str(&agent_lines(plan, &t.state, &t.agent));
    s
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
