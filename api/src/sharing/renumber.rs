//! Versions that never collide: before others' changes are merged, each of our versions whose
//! number they published too, with other content, moves to the next number free on both sides.
//! Its content hash, note, date, plan and `based_on` stay; `live.json` follows it. Theirs keep
//! their numbers: they were sent first. The move is one commit of ours.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use plan_core::store::{atomic, version_renumbered, Live};

use super::git::Git;
use crate::error::{ApiError, ErrorCode};
use crate::Context;

type Result<T> = std::result::Result<T, ApiError>;

/// Each version file of the workspace in commit `rev`: (plan, number) → blob.
fn version_files(git: &Git, rev: &str, prefix: &str) -> Result<BTreeMap<(String, u32), String>> {
    let out = git.ok(&["ls-tree", "-r", "-z", rev, "--", "."])?;
    let mut files = BTreeMap::new();
    for line in out.split('\0').filter(|l| !l.is_empty()) {
        let Some((meta, path)) = line.split_once('\t') else {
            continue;
        };
        let Some(blob) = meta.split_whitespace().nth(2) else {
            continue;
        };
        let Some(inside) = path.strip_prefix(prefix) else {
            continue;
        };
        let mut parts = inside.split('/');
        let (Some(id), Some("versions"), Some(name), None) =
            (parts.next(), parts.next(), parts.next(), parts.next())
        else {
            continue;
        };
        let Some(n) = name
            .strip_suffix(".json")
            .and_then(|n| n.parse::<u32>().ok())
            .filter(|n| *n >= 1)
        else {
            continue;
        };
        files.insert((id.to_string(), n), blob.to_string());
    }
    Ok(files)
}

/// Renumbers our versions that collide with `upstream`'s and commits the move; answers, per
/// plan, each (was, now).
pub fn colliding_versions(
    ctx: &Context,
    git: &Git,
    upstream: &str,
    prefix: &str,
) -> Result<BTreeMap<String, Vec<(u32, u32)>>> {
    let ours = version_files(git, "HEAD", prefix)?;
    let theirs = version_files(git, upstream, prefix)?;
    let mut moves: BTreeMap<String, Vec<(u32, u32)>> = BTreeMap::new();
    let plans: BTreeSet<&String> = ours.keys().map(|(id, _)| id).collect();
    for id in plans {
        let taken: BTreeSet<u32> = ours
            .keys()
            .chain(theirs.keys())
            .filter(|(p, _)| p == id)
            .map(|(_, n)| *n)
            .collect();
        let mut next = taken.iter().max().copied().unwrap_or(0) + 1;
        for ((_, n), blob) in ours.range((id.clone(), 0)..=(id.clone(), u32::MAX)) {
            if theirs
                .get(&(id.clone(), *n))
                .is_some_and(|their| their != blob)
            {
                moves.entry(id.clone()).or_default().push((*n, next));
                next += 1;
            }
        }
    }
    if moves.is_empty() {
        return Ok(moves);
    }
    for (id, pairs) in &moves {
        let dir = ctx.workspace().plan_dir(id)?;
        for (was, now) in pairs {
            move_version(&dir, *was, *now)?;
        }
        follow_live(&dir, pairs)?;
    }
    git.ok(&["add", "--all", "--", "."])?;
    let said: Vec<String> = moves
        .iter()
        .flat_map(|(id, pairs)| {
            pairs
                .iter()
                .map(move |(was, now)| format!("{id} {was} → {now}"))
        })
        .collect();
    git.ok(&[
        "commit",
        "--quiet",
        "-m",
        &format!(
            "Versions renumbered, others published the same numbers first: {}",
            said.join(", ")
        ),
        "--",
        ".",
    ])?;
    Ok(moves)
}

fn io(path: &Path) -> impl Fn(std::io::Error) -> ApiError + '_ {
    move |e| ApiError::new(ErrorCode::Io, format!("{}: {e}", path.display()))
}

/// `versions/WAS.json` written again as `versions/NOW.json`, only its number changed.
fn move_version(dir: &Path, was: u32, now: u32) -> Result<()> {
    let from = dir.join("versions").join(format!("{was}.json"));
    let to = dir.join("versions").join(format!("{now}.json"));
    let text = std::fs::read_to_string(&from).map_err(io(&from))?;
    let bytes = version_renumbered(&text, now).ok_or_else(|| {
        ApiError::new(
            ErrorCode::Corrupted,
            format!("{}: not a version file", from.display()),
        )
    })?;
    atomic::write(&to, &bytes, true).map_err(io(&to))?;
    std::fs::remove_file(&from).map_err(io(&from))
}

/// `live.json` naming a renumbered version names its new number.
fn follow_live(dir: &Path, pairs: &[(u32, u32)]) -> Result<()> {
    let path = dir.join("live.json");
    let Ok(text) = std::fs::read_to_string(&path) else {
        return Ok(());
    };
    let Ok(mut live) = serde_json::from_str::<Live>(&text) else {
        return Ok(());
    };
    let Some((_, now)) = pairs.iter().find(|(was, _)| *was == live.version) else {
        return Ok(());
    };
    live.version = *now;
    let mut bytes = serde_json::to_vec_pretty(&live).map_err(|e| ApiError::internal(e.to_string()))?;
    bytes.push(b'\n');
    atomic::write(&path, &bytes, false).map_err(io(&path))
}
