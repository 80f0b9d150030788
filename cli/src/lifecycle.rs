//! The store commands: `new`, `list`, `import`, `export`, `publish`, `versions`, `live`,
//! `reopen`, `diff`, and `check --plan`. Each is a few lines over `plan_core::store`.

use std::io::Write;
use std::path::{Path, PathBuf};

use plan_core::diff::{Change, PlanDiff};
use plan_core::store::{default_root, DraftStatus, StoreError, Which, Workspace};
use plan_core::validate::validate;
use plan_core::{parse_plan, Plan};
use serde_json::json;

use crate::{check, clock, Format};

/// A failed command: what to say, and the exit code.
pub struct Failure {
    pub code: u8,
    pub message: String,
}

impl From<StoreError> for Failure {
    fn from(e: StoreError) -> Self {
        if let StoreError::PublishRefused { diagnostics, .. } = &e {
            // The refusal's reasons are the result; the refusal itself is the message.
            print!("{}", check::render("draft.json", diagnostics));
        }
        Failure {
            code: e.exit_code(),
            message: e.to_string(),
        }
    }
}

pub type Outcome = Result<(), Failure>;

fn usage(message: String) -> Failure {
    Failure { code: 2, message }
}

/// The workspace: `--workspace`, else `PLAN_BUILDER_WORKSPACE`, else the default one.
pub fn workspace(flag: Option<&Path>) -> Result<Workspace, Failure> {
    let root = flag
        .map(Path::to_path_buf)
        .or_else(|| std::env::var_os("PLAN_BUILDER_WORKSPACE").map(PathBuf::from))
        .or_else(default_root)
        .ok_or_else(|| {
            usage("no workspace: pass --workspace DIR or set PLAN_BUILDER_WORKSPACE".into())
        })?;
    Ok(Workspace::open(&root, &clock::now())?)
}

fn out(text: &str) {
    let _ = write!(std::io::stdout().lock(), "{text}");
}

fn out_json(value: &serde_json::Value) {
    out(&format!(
        "{}\n",
        serde_json::to_string_pretty(value).unwrap_or_default()
    ));
}

/// `A`/`B` of `plan diff`, or `--version`: a number, `draft` or `live`.
pub fn which(text: &str) -> Result<Which, Failure> {
    match text {
        "draft" => Ok(Which::Draft),
        "live" => Ok(Which::Live),
        n => n
            .trim_start_matches('v')
            .parse()
            .map(Which::Version)
            .map_err(|_| {
                usage(format!(
                    "\"{n}\" is not a version: use a number, draft or live"
                ))
            }),
    }
}

pub fn new(
    ws: &Workspace,
    id: &str,
    title: Option<&str>,
    from: Option<&Path>,
    format: Format,
) -> Outcome {
    if ws.plan_dir(id)?.join("draft.json").exists() {
        return Err(StoreError::Exists { id: id.to_string() }.into());
    }
    let plan = match from {
        Some(file) => ws.import(id, file, &clock::now())?,
        None => {
            let blank: Plan = parse_plan(
                &json!({"id": id, "title": title.unwrap_or(id),
                    "states": [{"id": "start", "title": "Start",
                        "instructions": "Greet the user and ask how you can help."}]})
                .to_string(),
            )
            .map_err(|p| usage(format!("{p:?}")))?;
            ws.create(id, blank.clone(), &clock::now())?;
            blank
        }
    };
    let mut plan = plan;
    if let (Some(t), Some(_)) = (title, from) {
        plan.title = t.to_string();
        ws.save_draft(id, &plan)?;
    }
    match format {
        Format::Json => {
            out_json(&json!({"id": id, "title": plan.title, "states": plan.states.len()}))
        }
        Format::Text => out(&format!(
            "created plan {id} ({} states) in {}\n",
            plan.states.len(),
            ws.root().display()
        )),
    }
    Ok(())
}

pub fn list(ws: &Workspace, format: Format) -> Outcome {
    let plans = ws.list()?;
    if format == Format::Json {
        out_json(&json!({ "plans": plans }));
        return Ok(());
    }
    let mut text = format!(
        "{:<24} {:<36} {:<22} {:>6} {:>5}\n",
        "ID", "TITLE", "DRAFT", "NEWEST", "LIVE"
    );
    for p in plans {
        let draft = match p.draft {
            DraftStatus::Unpublished => "not published yet".to_string(),
            DraftStatus::Published => format!("same as v{}", p.newest_version.unwrap_or(0)),
            DraftStatus::Changed => "changed since publish".to_string(),
            DraftStatus::Broken => "unreadable".to_string(),
        };
        let v = |n: Option<u32>| n.map_or("-".to_string(), |n| format!("v{n}"));
        text.push_str(&format!(
            "{:<24} {:<36} {:<22} {:>6} {:>5}\n",
            p.id,
            p.title.chars().take(36).collect::<String>(),
            draft,
            v(p.newest_version),
            v(p.live_version)
        ));
    }
    out(&text);
    Ok(())
}

pub fn import(ws: &Workspace, id: &str, file: &Path, format: Format) -> Outcome {
    let plan = ws.import(id, file, &clock::now())?;
    let errors = validate(&plan).has_errors();
    match format {
        Format::Json => out_json(&json!({"id": id, "states": plan.states.len(), "errors": errors})),
        Format::Text => {
            let note = if errors {
                " (it has errors: run plan check --plan to see them)"
            } else {
                ""
            };
            out(&format!(
                "imported {} into the draft of {id}: {} states{note}\n",
                file.display(),
                plan.states.len()
            ));
        }
    }
    Ok(())
}

pub fn export(ws: &Workspace, id: &str, which: Which, output: Option<&Path>) -> Outcome {
    let plan = ws.export(id, which)?;
    let mut text = serde_json::to_string_pretty(&plan).unwrap_or_default();
    text.push('\n');
    match output {
        Some(path) => {
            plan_core::store::atomic::write(path, text.as_bytes(), false).map_err(|e| Failure {
                code: 2,
                message: format!("{}: {e}", path.display()),
            })
        }
        None => {
            out(&text);
            Ok(())
        }
    }
}

pub fn publish(ws: &Workspace, id: &str, note: &str, format: Format) -> Outcome {
    let n = ws.publish(id, note, &clock::now())?;
    match format {
        Format::Json => out_json(&json!({"id": id, "version": n})),
        Format::Text => out(&format!("{n}\n")),
    }
    Ok(())
}

pub fn versions(ws: &Workspace, id: &str, format: Format) -> Outcome {
    let list = ws.versions(id)?;
    if format == Format::Json {
        out_json(&json!({ "versions": list }));
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
    Ok(())
}

pub fn live(ws: &Workspace, id: &str, set: Option<u32>, format: Format) -> Outcome {
    if let Some(n) = set {
        ws.set_live(id, n, &clock::now())?;
    }
    let live = ws.live(id)?;
    match (format, live) {
        (Format::Json, live) => out_json(&json!({ "live": live })),
        (Format::Text, Some(l)) => out(&format!("v{} (since {})\n", l.version, l.set_at)),
        (Format::Text, None) => out(&format!("{id} has no live version\n")),
    }
    Ok(())
}

pub fn reopen(ws: &Workspace, id: &str, n: u32, format: Format) -> Outcome {
    ws.reopen(id, n, &clock::now())?;
    match format {
        Format::Json => out_json(&json!({"id": id, "reopened": n})),
        Format::Text => out(&format!(
            "version {n} is now the draft of {id}; the previous draft is kept in history/\n"
        )),
    }
    Ok(())
}

pub fn diff(ws: &Workspace, id: &str, a: Which, b: Which, format: Format) -> Outcome {
    let d = ws.diff(id, a, b)?;
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
        s.push_str(&format!("~ plan: {}\n", d.plan.join(", ")));
    }
    for st in &d.states {
        let fields = if st.fields.is_empty() {
            String::new()
        } else {
            format!(": {}", st.fields.join(", "))
        };
        s.push_str(&format!(
            "{} state {}{fields}\n",
            mark(st.change),
            st.state_id
        ));
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
                s.push_str(&format!("    {} {what} {}{fields}\n", mark(i.change), i.id));
            }
        }
    }
    s
}

/// `plan check --plan ID [--version N]`.
pub fn check_plan(ws: &Workspace, id: &str, which: Which, format: Format) -> Result<u8, Failure> {
    let plan = ws.export(id, which)?;
    let report = validate(&plan);
    let name = match which {
        Which::Draft => format!("{id}/draft.json"),
        Which::Version(n) => format!("{id}/versions/{n}.json"),
        Which::Live => format!("{id} (live)"),
    };
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
