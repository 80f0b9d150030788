//! `plan merge` (git's merge driver for a workspace's files) and `plan share init | status |
//! checkpoint | get | send`: a workspace shared through git in three steps. Exit 0 when done, 1
//! when a merge or a get left conflicts (listed), 2 for usage, IO and git's own refusals.

use std::fmt::Write as _;
use std::path::PathBuf;

use clap::Subcommand;
use plan_api::messages::share::{plans_in_words, Author, ChangedPlan};
use plan_api::sharing::conflicts::{self, Choice};
use plan_api::sharing::merge_file::{merge_files, MergeFiles};
use plan_api::sharing::share;
use plan_api::Context;
use plan_core::merge::Conflict;
use serde_json::json;

use crate::lifecycle::{out, out_json, Failure};
use crate::Format;

/// What `plan share` does.
#[derive(Subcommand)]
pub enum Share {
    /// Set the workspace's git repository up for sharing plans: .gitattributes, .gitignore and
    /// the merge driver (idempotent).
    Init,
    /// The plans changed since the last checkpoint, those not sent yet, the conflicts left.
    Status,
    /// Save a checkpoint: every change to the workspace's plans in one commit.
    Checkpoint {
        /// A few words saying what changed.
        #[arg(short, long)]
        message: String,
        /// Your name, kept once for every checkpoint (when git does not know it).
        #[arg(long, requires = "email")]
        name: Option<String>,
        /// Your e-mail, kept once with your name.
        #[arg(long, requires = "name")]
        email: Option<String>,
    },
    /// Get others' changes: fetched and merged plan by plan; conflicts listed (exit 1).
    Get,
    /// Send your checkpoints (refused when others sent first: get theirs, then send).
    Send,
    /// Choose one conflict a get left in a plan: yours (--mine) or theirs (--theirs).
    Resolve {
        /// The plan.
        plan: String,
        /// The conflict's path, as `plan share status` or `get` list it (/states/billing/title).
        path: String,
        /// Keep yours (what the draft holds).
        #[arg(long, conflicts_with = "theirs", required_unless_present = "theirs")]
        mine: bool,
        /// Take theirs into the draft.
        #[arg(long)]
        theirs: bool,
    },
}

/// `plan merge BASE OURS THEIRS [--path P]`.
pub fn merge(
    base: PathBuf,
    ours: PathBuf,
    theirs: PathBuf,
    path: Option<PathBuf>,
    format: Format,
) -> Result<u8, Failure> {
    let merged = merge_files(&MergeFiles {
        base,
        ours,
        theirs,
        path: path.clone(),
    })?;
    if format == Format::Json {
        out_json(&json!({ "conflicts": merged.conflicts }));
    } else if !merged.conflicts.is_empty() {
        let name = path.map(|p| p.display().to_string()).unwrap_or_default();
        out(&format!(
            "{name}: {} to choose (kept beside it in draft.conflicts.json):\n{}",
            count(merged.conflicts.len(), "conflict"),
            listed(&merged.conflicts)
        ));
    }
    Ok(u8::from(!merged.conflicts.is_empty()))
}

/// The `plan` program itself: the merge driver git runs.
fn this_program() -> Result<PathBuf, Failure> {
    std::env::current_exe().map_err(|e| Failure {
        code: 2,
        message: format!("cannot tell where this program is: {e}"),
        ..Failure::default()
    })
}

/// `plan share …`.
pub fn run(ctx: &Context, command: &Share, format: Format) -> Result<u8, Failure> {
    match command {
        Share::Init => {
            let done = share::init(ctx, &this_program()?)?;
            if format == Format::Json {
                out_json(&json!(done));
            } else if done.changed {
                out(&format!("Sharing set up in {}.\n", done.repository));
            } else {
                out(&format!(
                    "Sharing was already set up in {}.\n",
                    done.repository
                ));
            }
        }
        Share::Status => {
            let status = share::status(ctx)?;
            if format == Format::Json {
                out_json(&json!(status));
                return Ok(0);
            }
            let mut text = String::new();
            match &status.upstream {
                Some(up) => {
                    let _ = writeln!(text, "Shared with {up}.");
                }
                None => text.push_str("Not shared with anyone yet (no upstream).\n"),
            }
            text.push_str(&plans_line("Not in a checkpoint", &status.unsaved));
            text.push_str(&plans_line("Not sent", &status.unsent));
            for c in &status.conflicts {
                let _ = writeln!(text, "{}: {} to choose", c.id, count(c.count, "conflict"));
            }
            if status.author.is_none() {
                text.push_str("git does not know your name yet: plan share checkpoint --name NAME --email EMAIL -m …\n");
            }
            out(&text);
        }
        Share::Checkpoint {
            message,
            name,
            email,
        } => {
            share::init(ctx, &this_program()?)?;
            let who = match (name, email) {
                (Some(name), Some(email)) => Some(Author {
                    name: name.clone(),
                    email: email.clone(),
                }),
                _ => None,
            };
            let saved = share::checkpoint(ctx, message, who.as_ref())?;
            if format == Format::Json {
                out_json(&json!(saved));
            } else {
                match &saved.commit {
                    Some(c) => out(&format!("Checkpoint {c} saved: {}.\n", ids(&saved.plans))),
                    None => out("Nothing to save: no plan changed since the last checkpoint.\n"),
                }
            }
        }
        Share::Get => {
            share::init(ctx, &this_program()?)?;
            let got = share::get(ctx)?;
            let conflicts: usize = got.plans.iter().map(|p| p.conflicts.len()).sum();
            if format == Format::Json {
                out_json(&json!(got));
            } else if !got.anything {
                out("Nothing new: you have everyone's changes.\n");
            } else {
                let mut text = String::new();
                for p in &got.plans {
                    let _ = writeln!(text, "{}:", p.id);
                    for part in p.in_words() {
                        let _ = writeln!(text, "  {part}");
                    }
                    if let Some(conflicts) = p.conflicts_in_words() {
                        let _ = write!(text, "  {conflicts}:\n{}", listed(&p.conflicts));
                    }
                }
                out(&text);
            }
            return Ok(u8::from(conflicts > 0));
        }
        Share::Resolve {
            plan, path, theirs, ..
        } => {
            let choice = if *theirs {
                Choice::TakeTheirs
            } else {
                Choice::KeepMine
            };
            let left = conflicts::resolve(ctx, plan, path, choice)?;
            if format == Format::Json {
                out_json(&json!({ "conflicts": left }));
            } else if left.is_empty() {
                out(&format!(
                    "{plan} has no conflict left: save a checkpoint, then send.\n"
                ));
            } else {
                out(&format!(
                    "{plan}: {} left:\n{}",
                    count(left.len(), "conflict"),
                    listed(&left)
                ));
            }
        }
        Share::Send => {
            let sent = share::send(ctx)?;
            if format == Format::Json {
                out_json(&json!(sent));
            } else if sent.plans.is_empty() {
                out(&format!(
                    "Nothing to send: {} has all your checkpoints.\n",
                    sent.to
                ));
            } else {
                out(&format!("Sent to {}: {}.\n", sent.to, ids(&sent.plans)));
            }
        }
    }
    Ok(0)
}

fn count(n: usize, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}

fn ids(plans: &[ChangedPlan]) -> String {
    plans_in_words(plans, str::to_string)
}

fn plans_line(what: &str, plans: &[ChangedPlan]) -> String {
    if plans.is_empty() {
        String::new()
    } else {
        format!("{what}: {}\n", ids(plans))
    }
}

/// Each conflict on a line: where, then ours and theirs.
fn listed(conflicts: &[Conflict]) -> String {
    let shown = |v: &Option<serde_json::Value>| match v {
        None => "(none)".to_string(),
        Some(serde_json::Value::String(s)) => format!("{s:?}"),
        Some(v) => {
            let text = v.to_string();
            if text.chars().count() > 60 {
                format!("{}…", text.chars().take(60).collect::<String>())
            } else {
                text
            }
        }
    };
    conflicts
        .iter()
        .map(|c| {
            format!(
                "    {}: yours {}, theirs {}\n",
                c.path,
                shown(&c.ours),
                shown(&c.theirs)
            )
        })
        .collect()
}
