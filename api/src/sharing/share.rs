//! The workspace shared through git in the author's words: set up once (the merge driver, what
//! git keeps and ignores), what changed, a checkpoint (a commit of the workspace), others'
//! changes got (fetched and merged by meaning, versions renumbered so they never collide) and
//! ours sent (pushed). One function per operation; `plan share` and the Share panel call them.

use std::fs;
use std::path::Path;

use plan_core::diff::{diff, Change};
use plan_core::parse::parse_draft;

use super::conflicts;
use super::git::{said, Git};
use super::renumber;
use crate::error::{ApiError, ErrorCode};
use crate::messages::share::{
    Author, ChangedPlan, Checkpoint, PlanChange, PlanConflicts, PlanReceived, Received,
    ShareSetUp, ShareStatus, Sent,
};
use crate::Context;

type Result<T> = std::result::Result<T, ApiError>;

/// The merge driver's name in git's settings and `.gitattributes`.
const DRIVER: &str = "plan-builder";

/// What `.gitattributes` says, at the workspace's top: drafts and live markers merged by
/// `plan merge`; versions never merged as text (their numbers are made not to collide).
const ATTRIBUTES: &[&str] = &[
    "*/draft.json merge=plan-builder",
    "*/live.json merge=plan-builder",
    "*/versions/*.json merge=binary",
];

/// What `.gitignore` keeps out of the shared copy: each author's own conflicts to choose, locks,
/// unfinished writes, the trash, test conversations and replaced drafts.
const IGNORED: &[&str] = &[
    "*/draft.conflicts.json",
    "*/.lock",
    ".tmp-*",
    "*/.tmp-*",
    "*/versions/.tmp-*",
    ".trash/",
    "*/sessions/",
    "*/history/",
];

/// Sets sharing up for the workspace's repository: `.gitattributes` and `.gitignore` at the
/// workspace's top hold their lines (added where missing), and the repository's settings name
/// `plan_program merge` as the driver. Idempotent.
pub fn init(ctx: &Context, plan_program: &Path) -> Result<ShareSetUp> {
    let git = Git::required(ctx.root())?;
    let mut changed = with_lines(&ctx.root().join(".gitattributes"), ATTRIBUTES)?;
    changed |= with_lines(&ctx.root().join(".gitignore"), IGNORED)?;
    let driver = format!("'{}' merge %O %A %B --path %P", plan_program.display());
    if git.setting(&format!("merge.{DRIVER}.driver")).as_deref() != Some(driver.as_str()) {
        git.ok(&[
            "config",
            &format!("merge.{DRIVER}.name"),
            "Plan Builder: plans merged by their meaning",
        ])?;
        git.ok(&["config", &format!("merge.{DRIVER}.driver"), &driver])?;
        changed = true;
    }
    Ok(ShareSetUp {
        repository: git.top()?.display().to_string(),
        changed,
    })
}

/// `lines` present in the file at `path` (made if missing); whether it was written.
fn with_lines(path: &Path, lines: &[&str]) -> Result<bool> {
    let io = |e: std::io::Error| ApiError::new(ErrorCode::Io, format!("{}: {e}", path.display()));
    let text = match fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(io(e)),
    };
    let missing: Vec<&str> = lines
        .iter()
        .copied()
        .filter(|l| !text.lines().any(|have| have.trim() == *l))
        .collect();
    if missing.is_empty() {
        return Ok(false);
    }
    let mut out = text;
    if !out.is_empty() && !out.ends_with('\n') {
        out.push('\n');
    }
    if out.is_empty() {
        out.push_str("# Plan Builder: a workspace shared through git (plan share init)\n");
    }
    for line in missing {
        out.push_str(line);
        out.push('\n');
    }
    plan_core::store::atomic::write(path, out.as_bytes(), false).map_err(io)?;
    Ok(true)
}

/// Whether sharing is set up (the driver in the repository's settings).
fn set_up(git: &Git) -> Result<()> {
    match git.setting(&format!("merge.{DRIVER}.driver")) {
        Some(_) => Ok(()),
        None => Err(ApiError::new(
            ErrorCode::Refused,
            "sharing is not set up in this repository: run `plan share init` in the workspace (the app does it when it opens one)",
        )),
    }
}

/// The plans `entries` (git's `status` or `diff --name-status` lines: a status letter and a
/// path from the repository's top) are about, each with how it changed.
fn plans_of(entries: &[(char, String)], prefix: &str) -> Vec<ChangedPlan> {
    let mut out: Vec<ChangedPlan> = Vec::new();
    for (letter, path) in entries {
        let Some(inside) = path.strip_prefix(prefix) else {
            continue;
        };
        let Some((id, rest)) = inside.split_once('/') else {
            continue;
        };
        if id.starts_with('.') {
            continue;
        }
        let change = match (*letter, rest) {
            ('A' | '?', "draft.json") => PlanChange::New,
            ('D', "draft.json") => PlanChange::Deleted,
            _ => PlanChange::Changed,
        };
        match out.iter_mut().find(|p| p.id == id) {
            Some(p) if change != PlanChange::Changed => p.change = change,
            Some(_) => {}
            None => out.push(ChangedPlan {
                id: id.to_string(),
                change,
            }),
        }
    }
    out.sort_by(|a, b| a.id.cmp(&b.id));
    out
}

/// `git status` of the workspace: each changed path with its letter.
fn unsaved_entries(git: &Git) -> Result<Vec<(char, String)>> {
    let out = git.ok(&["status", "--porcelain=v1", "-z", "--untracked-files=all", "--", "."])?;
    let mut entries = Vec::new();
    let mut fields = out.split('\0').filter(|f| !f.is_empty());
    while let Some(field) = fields.next() {
        let (xy, path) = field.split_at(field.len().min(3));
        let letter = xy.chars().find(|c| *c != ' ').unwrap_or('M');
        if letter == 'R' || letter == 'C' {
            // A rename's source follows it.
            fields.next();
        }
        entries.push((letter, path.to_string()));
    }
    Ok(entries)
}

/// `git diff --name-status FROM TO` of the workspace.
fn changed_between(git: &Git, from: &str, to: &str) -> Result<Vec<(char, String)>> {
    let out = git.ok(&["diff", "--name-status", "--no-renames", "-z", from, to, "--", "."])?;
    let fields: Vec<&str> = out.split('\0').filter(|f| !f.is_empty()).collect();
    Ok(fields
        .chunks(2)
        .filter_map(|pair| match pair {
            [letter, path] => Some((letter.chars().next().unwrap_or('M'), path.to_string())),
            _ => None,
        })
        .collect())
}

/// The Share panel's state: what changed since the last checkpoint, what is not sent, the
/// conflicts left, who the author is.
pub fn status(ctx: &Context) -> Result<ShareStatus> {
    let git = Git::required(ctx.root())?;
    let prefix = git.prefix()?;
    let upstream = git.upstream();
    let unsent = match &upstream {
        Some(up) if git.run(&["rev-parse", "--verify", "--quiet", "HEAD"])?.status.success() => {
            plans_of(&changed_between(&git, up, "HEAD")?, &prefix)
        }
        _ => Vec::new(),
    };
    Ok(ShareStatus {
        repository: git.top()?.display().to_string(),
        upstream,
        unsaved: plans_of(&unsaved_entries(&git)?, &prefix),
        unsent,
        conflicts: conflicts_left(ctx)?,
        author: author(&git),
    })
}

/// The plans with conflicts left to choose.
fn conflicts_left(ctx: &Context) -> Result<Vec<PlanConflicts>> {
    let mut out = Vec::new();
    for id in ctx.workspace().plan_ids()? {
        let count = conflicts::of_plan(ctx, &id)?.len();
        if count > 0 {
            out.push(PlanConflicts { id, count });
        }
    }
    out.sort_by(|a, b| a.id.cmp(&b.id));
    Ok(out)
}

fn author(git: &Git) -> Option<Author> {
    Some(Author {
        name: git.setting("user.name")?,
        email: git.setting("user.email")?,
    })
}

/// Saves a checkpoint of the workspace: every change to its plans in one commit with the
/// author's `message`; `who`, when given, is kept as the repository's author first (asked once).
pub fn checkpoint(ctx: &Context, message: &str, who: Option<&Author>) -> Result<Checkpoint> {
    let git = Git::required(ctx.root())?;
    if message.trim().is_empty() {
        return Err(ApiError::new(
            ErrorCode::Refused,
            "a checkpoint needs a few words saying what changed",
        ));
    }
    if let Some(who) = who {
        git.ok(&["config", "user.name", &who.name])?;
        git.ok(&["config", "user.email", &who.email])?;
    }
    if author(&git).is_none() {
        return Err(ApiError::new(
            ErrorCode::Refused,
            "git does not know who you are yet: give your name and e-mail once (plan share checkpoint --name NAME --email EMAIL)",
        ));
    }
    let plans = plans_of(&unsaved_entries(&git)?, &git.prefix()?);
    if plans.is_empty() {
        return Ok(Checkpoint {
            commit: None,
            plans,
        });
    }
    git.ok(&["add", "--all", "--", "."])?;
    git.ok(&["commit", "--quiet", "-m", message.trim(), "--", "."])?;
    Ok(Checkpoint {
        commit: Some(git.ok(&["rev-parse", "--short", "HEAD"])?.trim().to_string()),
        plans,
    })
}

/// Gets others' changes: a checkpoint of unsaved work first, then fetched; our versions whose
/// numbers others published too renumbered; merged with the driver, each plan's conflicts left
/// beside it. Answers what came in, per plan.
pub fn get(ctx: &Context) -> Result<Received> {
    let git = Git::required(ctx.root())?;
    set_up(&git)?;
    let upstream = needs_upstream(&git)?;
    if !unsaved_entries(&git)?.is_empty() {
        checkpoint(ctx, "Checkpoint before getting others' changes", None)?;
    }
    git.ok(&["fetch", "--quiet"])?;
    if git
        .run(&["merge-base", "--is-ancestor", &upstream, "HEAD"])?
        .status
        .success()
    {
        return Ok(Received::default());
    }
    let prefix = git.prefix()?;
    let renumbered = renumber::colliding_versions(ctx, &git, &upstream, &prefix)?;
    let before = git.ok(&["rev-parse", "HEAD"])?.trim().to_string();
    // What they changed, since the two sides parted: a plan they changed is in the summary even
    // when the merge kept ours everywhere (its conflicts are then what came in).
    let parted = git.ok(&["merge-base", "HEAD", &upstream])?.trim().to_string();
    let theirs = changed_between(&git, &parted, &upstream)?;
    let merged = git.run(&["merge", "--no-edit", "--quiet", &upstream])?;
    if !merged.status.success() {
        finish_merge(&git, &prefix, &said(&merged))?;
    }
    let mut plans = received(ctx, &git, &before, &theirs, &prefix)?;
    for (id, pairs) in renumbered {
        let entry = match plans.iter_mut().position(|p| p.id == id) {
            Some(i) => &mut plans[i],
            None => {
                plans.push(PlanReceived {
                    id: id.clone(),
                    ..PlanReceived::default()
                });
                plans.last_mut().expect("just pushed")
            }
        };
        entry.versions_renumbered = pairs;
    }
    Ok(Received {
        anything: true,
        plans,
    })
}

/// A merge git stopped: the drafts the driver merged with conflicts are taken as it wrote them
/// (a valid plan, ours where in conflict, the conflicts beside it) and the merge is committed;
/// anything else both sides changed as text is refused, the merge undone.
fn finish_merge(git: &Git, prefix: &str, git_said: &str) -> Result<()> {
    let out = git.ok(&["diff", "--name-only", "--diff-filter=U", "-z"])?;
    let unmerged: Vec<&str> = out.split('\0').filter(|f| !f.is_empty()).collect();
    if unmerged.is_empty() {
        return Err(ApiError::new(
            ErrorCode::Refused,
            format!("git could not merge others' changes: {git_said}"),
        ));
    }
    let top = git.top()?;
    let by_driver = |path: &str| {
        path.strip_prefix(prefix).is_some_and(|p| p.ends_with("/draft.json"))
            && fs::read_to_string(top.join(path)).is_ok_and(|t| parse_draft(&t).is_ok())
    };
    let other: Vec<&str> = unmerged.iter().copied().filter(|p| !by_driver(p)).collect();
    if !other.is_empty() {
        let _ = git.run(&["merge", "--abort"]);
        return Err(ApiError::new(
            ErrorCode::Refused,
            format!(
                "both sides changed {} in ways that cannot be merged; nothing was changed: keep one side's copy, save a checkpoint, then get again",
                other.join(", ")
            ),
        ));
    }
    // git names them from the repository's top; git runs in the workspace, maybe below it.
    let from_top: Vec<String> = unmerged
        .iter()
        .map(|p| format!(":(top,literal){p}"))
        .collect();
    let mut add = vec!["add", "--"];
    add.extend(from_top.iter().map(String::as_str));
    git.ok(&add)?;
    git.ok(&["commit", "--no-edit", "--quiet"])?;
    Ok(())
}

/// Per plan they changed or the merge changed, what changed from commit `before` to now: states
/// added, changed, removed (by title), versions received, the conflicts left.
fn received(
    ctx: &Context,
    git: &Git,
    before: &str,
    theirs: &[(char, String)],
    prefix: &str,
) -> Result<Vec<PlanReceived>> {
    let entries = changed_between(git, before, "HEAD")?;
    let mut touched = plans_of(&entries, prefix);
    for plan in plans_of(theirs, prefix) {
        if touched.iter().all(|p| p.id != plan.id) {
            touched.push(plan);
        }
    }
    touched.sort_by(|a, b| a.id.cmp(&b.id));
    let mut out = Vec::new();
    for plan in touched {
        let path = format!("{prefix}{}/draft.json", plan.id);
        let read = |rev: &str| git.show(rev, &path).and_then(|t| parse_draft(&t).ok());
        let mut entry = PlanReceived {
            id: plan.id.clone(),
            ..PlanReceived::default()
        };
        if let (Some(old), Some(new)) = (read(before), read("HEAD")) {
            let title = |id: &str| {
                new.state(id)
                    .or_else(|| old.state(id))
                    .map_or_else(|| id.to_string(), |s| s.title.clone())
            };
            for s in diff(&old, &new).states {
                match s.change {
                    Change::Added => entry.states_added.push(title(&s.state_id)),
                    Change::Changed => entry.states_changed.push(title(&s.state_id)),
                    Change::Removed => entry.states_removed.push(title(&s.state_id)),
                }
            }
        }
        let versions = format!("{prefix}{}/versions/", plan.id);
        entry.versions_received = entries
            .iter()
            .filter(|(letter, _)| *letter == 'A')
            .filter_map(|(_, p)| p.strip_prefix(&versions)?.strip_suffix(".json")?.parse().ok())
            .collect();
        entry.conflicts = conflicts::of_plan(ctx, &plan.id).unwrap_or_default();
        out.push(entry);
    }
    Ok(out)
}

/// Sends our checkpoints: refused while a plan has conflicts to choose, while changes are not
/// in a checkpoint, or when others sent first (get theirs, then send). A copy that follows no
/// shared branch yet sends to its only remote and follows it from then on.
pub fn send(ctx: &Context) -> Result<Sent> {
    let git = Git::required(ctx.root())?;
    ready_to_send(ctx, &git)?;
    let prefix = git.prefix()?;
    let Some(upstream) = git.upstream() else {
        return first_send(&git, &prefix);
    };
    git.ok(&["fetch", "--quiet"])?;
    if !git
        .run(&["merge-base", "--is-ancestor", &upstream, "HEAD"])?
        .status
        .success()
    {
        return Err(ApiError::new(
            ErrorCode::Refused,
            "others sent changes first: get them, then send",
        ));
    }
    let plans = plans_of(&changed_between(&git, &upstream, "HEAD")?, &prefix);
    let (remote, branch) = upstream.split_once('/').unwrap_or(("origin", &upstream));
    push(&git, &["push", "--quiet", remote, &format!("HEAD:{branch}")])?;
    Ok(Sent {
        to: upstream,
        plans,
    })
}

/// Refused while a plan has conflicts to choose or changes are not in a checkpoint.
fn ready_to_send(ctx: &Context, git: &Git) -> Result<()> {
    if let Some(c) = conflicts_left(ctx)?.first() {
        let how_many = conflicts::count_in_words(c.count);
        return Err(ApiError::new(
            ErrorCode::Refused,
            format!(
                "plan {} still has {how_many} to choose: keep yours or take theirs, then send",
                c.id
            ),
        ));
    }
    let unsaved = plans_of(&unsaved_entries(git)?, &git.prefix()?);
    if !unsaved.is_empty() {
        let ids: Vec<&str> = unsaved.iter().map(|p| p.id.as_str()).collect();
        return Err(ApiError::new(
            ErrorCode::Refused,
            format!(
                "your changes to {} are not in a checkpoint yet: save a checkpoint, then send",
                ids.join(", ")
            ),
        ));
    }
    Ok(())
}

/// The first send of a copy that follows no shared branch yet: to its only remote, under the
/// current branch's name, which it then follows.
fn first_send(git: &Git, prefix: &str) -> Result<Sent> {
    let remotes = git.ok(&["remote"])?;
    let remotes: Vec<&str> = remotes.lines().filter(|l| !l.is_empty()).collect();
    let [remote] = remotes.as_slice() else {
        return Err(ApiError::new(
            ErrorCode::Refused,
            "this copy has no shared one to send to: clone the team's repository, or add one with `git remote add origin URL`",
        ));
    };
    let branch = git.ok(&["rev-parse", "--abbrev-ref", "HEAD"])?.trim().to_string();
    let plans = plans_of(&changed_between(git, EMPTY_TREE, "HEAD")?, prefix);
    push(git, &["push", "--quiet", "--set-upstream", remote, &branch])?;
    Ok(Sent {
        to: format!("{remote}/{branch}"),
        plans,
    })
}

fn push(git: &Git, args: &[&str]) -> Result<()> {
    let pushed = git.run(args)?;
    if pushed.status.success() {
        return Ok(());
    }
    Err(ApiError::new(
        ErrorCode::Refused,
        format!("git could not send: {}", said(&pushed)),
    ))
}

/// git's empty tree: what a first send is told against.
const EMPTY_TREE: &str = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";

/// The shared branch, or a refusal saying how to name one.
fn needs_upstream(git: &Git) -> Result<String> {
    git.upstream().ok_or_else(|| {
        ApiError::new(
            ErrorCode::Refused,
            "this copy follows no shared one yet: send once first (plan share send), or clone the team's repository",
        )
    })
}
