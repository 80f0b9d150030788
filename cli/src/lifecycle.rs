//! The store commands: `new`, `list`, `import`, `export`, `publish`, `versions`, `live`,
//! `reopen`, `diff`, and `check --plan`. Each maps its arguments to one `plan_api` call and
//! renders the answer; the refusals are the API's, in its words.

use std::fmt::Write as _;
use std::io::Write;
use std::path::Path;

use plan_api::context::{system_clock, workspace_root};
use plan_api::messages::{DraftStatus, NewPlan, PlanSource};
use plan_api::{drafts, versions, workspace, ApiError, Context, ErrorCode};
use plan_core::diff::{Change, PlanDiff};
use plan_core::Revision;
use serde_json::json;

use crate::{check, Format};

/// A failed command: what to say, the exit code, and the diagnostics of a plan with errors.
#[derive(Default)]
pub struct Failure {
    pub code: u8,
    pub message: String,
    /// The plan's diagnostics when it was refused for its errors: which file they are of, and
    /// whether text output puts them on stdout (a refused publish: they are its result) or on
    /// stderr (a run that could not begin).
    pub diagnostics: Option<Diagnosed>,
}

/// Diagnostics that refused a command.
pub struct Diagnosed {
    pub file: String,
    pub list: Vec<plan_core::validate::Diagnostic>,
    pub text_on_stdout: bool,
}

impl Failure {
    /// Says the failure. Text: the diagnostics (if any), then `plan: MESSAGE` on stderr. JSON:
    /// every outcome that exits 1 is one JSON document on stdout, as a success is: the diagnostics
    /// as `plan check` prints them, else `{"error": {"message"}}`; the message goes to stderr
    /// too. Writing to a closed stdout or stderr is not an error: the exit code stands.
    pub fn report(&self, format: Format) {
        let mut out = std::io::stdout().lock();
        match (format, &self.diagnostics) {
            (Format::Text, Some(d)) if d.text_on_stdout => {
                let _ = write!(out, "{}", check::render(&d.file, &d.list));
            }
            (Format::Text, Some(d)) => to_stderr!("{}", check::render(&d.file, &d.list)),
            (Format::Json, Some(d)) => {
                let doc = check::document(d.list.iter().map(|x| (d.file.as_str(), x)));
                let _ = writeln!(out, "{doc}");
            }
            (Format::Json, None) if self.code == 1 => {
                let doc = json!({ "error": { "message": self.message } });
                let _ = writeln!(
                    out,
                    "{}",
                    serde_json::to_string_pretty(&doc).unwrap_or_default()
                );
            }
            _ => {}
        }
        drop(out);
        to_stderr_line!("plan: {}", self.message);
    }

    /// A refusal for `e`'s diagnostics, of the plan read from `file`.
    pub fn diagnosed(code: u8, file: &str, e: ApiError, text_on_stdout: bool) -> Failure {
        Failure {
            code,
            message: e.message,
            diagnostics: Some(Diagnosed {
                file: file.to_string(),
                list: e.diagnostics,
                text_on_stdout,
            }),
        }
    }
}

impl From<ApiError> for Failure {
    fn from(e: ApiError) -> Self {
        match e.code {
            // The plan failed: a refused publish (its reasons are the result, on stdout).
            ErrorCode::HasErrors => Failure::diagnosed(1, "draft.json", e, true),
            // Nothing to publish; a merge's conflicts to choose first.
            ErrorCode::Unchanged | ErrorCode::Conflicts => Failure {
                code: 1,
                message: e.message,
                ..Failure::default()
            },
            _ => Failure {
                code: 2,
                message: e.message,
                ..Failure::default()
            },
        }
    }
}

impl From<plan_core::store::StoreError> for Failure {
    fn from(e: plan_core::store::StoreError) -> Self {
        Failure::from(ApiError::from(e))
    }
}

pub type Outcome = Result<(), Failure>;

fn usage(message: String) -> Failure {
    Failure {
        code: 2,
        message,
        ..Failure::default()
    }
}

/// The workspace: `--workspace`, else `PLAN_BUILDER_WORKSPACE`, else the default one.
pub fn workspace(flag: Option<&Path>) -> Result<Context, Failure> {
    Ok(Context::open(&workspace_root(flag)?, system_clock)?)
}

/// Set once a command has saved work the user was told of (a conversation's session): from then
/// on a failure keeps the workspace it made.
static SAVED_WORK: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Notes that the command saved work the user was told of.
pub fn saved_work() {
    SAVED_WORK.store(true, std::sync::atomic::Ordering::Relaxed);
}

/// Whether the command saved work the user was told of.
pub fn has_saved_work() -> bool {
    SAVED_WORK.load(std::sync::atomic::Ordering::Relaxed)
}

/// The folder a command would make for its workspace: the highest one missing on the way to the
/// workspace's folder; none when that exists (or cannot be named). A command that fails takes it
/// away again, so that a failing command leaves no workspace behind.
pub fn folder_to_make(flag: Option<&Path>) -> Option<std::path::PathBuf> {
    let root = std::path::absolute(workspace_root(flag).ok()?).ok()?;
    let mut missing = None;
    for dir in root.ancestors() {
        if std::fs::symlink_metadata(dir).is_ok() {
            break;
        }
        missing = Some(dir.to_path_buf());
    }
    missing
}

pub fn out(text: &str) {
    let _ = write!(std::io::stdout().lock(), "{text}");
}

pub fn out_json(value: &serde_json::Value) {
    out(&format!(
        "{}\n",
        serde_json::to_string_pretty(value).unwrap_or_default()
    ));
}

/// `A`/`B` of `plan diff`, or `--version`: a number, `draft` or `live`.
pub fn revision(text: &str) -> Result<Revision, Failure> {
    Revision::from_word(text).ok_or_else(|| {
        usage(format!(
            "\"{text}\" is not a version: use a number, draft or live"
        ))
    })
}

pub fn new(
    ctx: &Context,
    id: &str,
    title: Option<&str>,
    from: Option<&Path>,
    format: Format,
) -> Outcome {
    let from = match from {
        Some(file) => PlanSource::File {
            path: file.display().to_string(),
        },
        None => PlanSource::Blank,
    };
    let created = workspace::create(
        ctx,
        NewPlan {
            id: Some(id.to_string()),
            title: title.map(str::to_string),
            from,
        },
    )?;
    match format {
        Format::Json => {
            out_json(&json!({"id": id, "title": created.title, "states": created.states}))
        }
        Format::Text => out(&format!(
            "created plan {id} ({} states) in {}\n",
            created.states,
            ctx.root().display()
        )),
    }
    Ok(())
}

pub fn list(ctx: &Context, format: Format) -> Outcome {
    let mut plans = workspace::plans(ctx)?;
    plans.sort_by(|a, b| a.id.cmp(&b.id));
    if format == Format::Json {
        let plans: Vec<_> = plans
            .iter()
            .map(|p| {
                json!({"id": p.id, "title": if p.error.is_some() { "" } else { p.title.as_str() },
                    "draft": p.draft, "newest_version": p.newest_version,
                    "live_version": p.live_version, "problems": p.problems,
                    "error": p.error.as_ref().map(|e| &e.message)})
            })
            .collect();
        out_json(&json!({ "plans": plans }));
        return Ok(());
    }
    let mut text = format!(
        "{:<24} {:<36} {:<22} {:>6} {:>5}\n",
        "ID", "TITLE", "DRAFT", "NEWEST", "LIVE"
    );
    let mut notes = String::new();
    for p in plans {
        if let Some(e) = &p.error {
            let _ = writeln!(notes, "note: {}: {}", p.id, e.message);
        }
        for problem in &p.problems {
            let _ = writeln!(notes, "note: {}: {problem}", p.id);
        }
        let draft = match p.draft {
            DraftStatus::Unpublished => "not published yet".to_string(),
            DraftStatus::Published => format!("same as v{}", p.newest_version.unwrap_or(0)),
            DraftStatus::Changed => "changed since publish".to_string(),
            DraftStatus::Broken => "unreadable".to_string(),
        };
        let title = if p.error.is_some() { "" } else { &p.title };
        let v = |n: Option<u32>| n.map_or("-".to_string(), |n| format!("v{n}"));
        let _ = writeln!(
            text,
            "{:<24} {:<36} {:<22} {:>6} {:>5}",
            p.id,
            title.chars().take(36).collect::<String>(),
            draft,
            v(p.newest_version),
            v(p.live_version)
        );
    }
    text.push_str(&notes);
    out(&text);
    Ok(())
}

pub fn import(ctx: &Context, id: &str, file: &Path, format: Format) -> Outcome {
    let imported = drafts::import(ctx, file, Some(id))?;
    let errors = imported.errors > 0;
    match format {
        Format::Json => out_json(&json!({"id": id, "states": imported.states, "errors": errors})),
        Format::Text => {
            let note = if errors {
                " (it has errors: run plan check --plan to see them)"
            } else {
                ""
            };
            out(&format!(
                "imported {} into the draft of {id}: {} states{note}\n",
                file.display(),
                imported.states
            ));
        }
    }
    Ok(())
}

pub fn export(ctx: &Context, id: &str, revision: Revision, output: Option<&Path>) -> Outcome {
    match output {
        Some(path) => drafts::export_to(ctx, id, revision, path).map(drop)?,
        None => out(&drafts::export_text(ctx, id, revision)?),
    }
    Ok(())
}

pub fn publish(ctx: &Context, id: &str, note: &str, format: Format) -> Outcome {
    let n = versions::publish(ctx, id, note)?.version;
    match format {
        Format::Json => out_json(&json!({"id": id, "version": n})),
        Format::Text => out(&format!("{n}\n")),
    }
    Ok(())
}

pub fn versions(ctx: &Context, id: &str, format: Format) -> Outcome {
    let list = versions::list(ctx, id)?;
    let problems = versions::problems(ctx, id)?;
    if format == Format::Json {
        out_json(&json!({ "versions": list, "problems": problems }));
        return Ok(());
    }
    if list.is_empty() {
        out(&format!("{id} has no versions yet: plan publish {id}\n"));
    }
    for v in list {
        match &v.corrupted {
            Some(why) => out(&format!("v{:<4} CORRUPTED: {why}\n", v.version)),
            None => out(&format!(
                "v{:<4} {}  {}  {}{}\n",
                v.version,
                v.published_at,
                &v.content_hash[..v.content_hash.len().min(19)],
                if v.live { "live  " } else { "" },
                v.note
            )),
        }
    }
    for p in problems {
        out(&format!("note: {p}\n"));
    }
    Ok(())
}

pub fn live(ctx: &Context, id: &str, set: Option<u32>, format: Format) -> Outcome {
    if let Some(n) = set {
        versions::set_live(ctx, id, n)?;
    }
    let live = versions::live(ctx, id)?;
    match (format, live) {
        (Format::Json, live) => out_json(&json!({ "live": live })),
        (Format::Text, Some(l)) => out(&format!("v{} (since {})\n", l.version, l.set_at)),
        (Format::Text, None) => out(&format!("{id} has no live version\n")),
    }
    Ok(())
}

pub fn reopen(ctx: &Context, id: &str, n: u32, format: Format) -> Outcome {
    versions::reopen(ctx, id, n)?;
    match format {
        Format::Json => out_json(&json!({"id": id, "reopened": n})),
        Format::Text => out(&format!(
            "version {n} is now the draft of {id}; the previous draft is kept in history/\n"
        )),
    }
    Ok(())
}

pub fn diff(ctx: &Context, id: &str, a: Revision, b: Revision, format: Format) -> Outcome {
    let d = versions::changes(ctx, id, a, b)?;
    match format {
        Format::Json => out_json(&serde_json::to_value(&d).unwrap_or_default()),
        Format::Text => out(&render_diff(&d)),
    }
    Ok(())
}

fn mark(c: Change) -> char {
    match c {
        Change::Added => '+',
        Change::Removed => '-',
        Change::Changed => '~',
    }
}

/// A diff for people: `+` added, `-` removed, `~` changed (with the changed fields).
pub fn render_diff(d: &PlanDiff) -> String {
    if d.is_empty() {
        return "no changes\n".into();
    }
    let mut s = String::new();
    if !d.plan.is_empty() {
        let _ = writeln!(s, "~ plan: {}", d.plan.join(", "));
    }
    for st in &d.states {
        let fields = if st.fields.is_empty() {
            String::new()
        } else {
            format!(": {}", st.fields.join(", "))
        };
        let _ = writeln!(s, "{} state {}{fields}", mark(st.change), st.state_id);
        for (what, items) in [
            ("task", &st.tasks),
            ("deliverable", &st.deliverables),
            ("transition", &st.transitions),
        ] {
            for i in items {
                let fields = if i.fields.is_empty() {
                    String::new()
                } else {
                    format!(": {}", i.fields.join(", "))
                };
                let _ = writeln!(s, "    {} {what} {}{fields}", mark(i.change), i.id);
            }
        }
    }
    s
}

/// `plan check --plan ID [--version N]`.
pub fn check_plan(
    ctx: &Context,
    id: &str,
    revision: Revision,
    format: Format,
) -> Result<u8, Failure> {
    let (name, report) = versions::check(ctx, id, revision)?;
    match format {
        Format::Text => out(&check::render(&name, &report.diagnostics)),
        Format::Json => out_json(
            &json!({"diagnostics": report.diagnostics.iter().map(|d| json!({
            "file": name, "code": d.code, "severity": d.severity, "message": d.message, "location": d.location
        })).collect::<Vec<_>>()}),
        ),
    }
    Ok(u8::from(report.has_errors()))
}
