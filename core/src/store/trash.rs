//! The workspace's trash: a deleted plan is moved whole into `<workspace>/.trash/<id>-<time>/`,
//! never removed, and can be brought back from there.

use std::fs;

use super::{atomic, file_stamp, io, lock::PlanLock, Result, StoreError, Trashed, Workspace};
use crate::parse::is_slug;

impl Workspace {
    /// Moves plan `id` to the workspace's trash; returns its entry there.
    pub fn delete(&self, id: &str, now: &str) -> Result<Trashed> {
        let dir = self.existing(id)?;
        let lock = PlanLock::take(&dir, id)?;
        let trash = self.root.join(".trash");
        self.contained(&trash)?;
        fs::create_dir_all(&trash).map_err(io(&trash))?;
        let stamp = file_stamp(now);
        // Deleted twice in one second (deleted, restored, deleted again): a second entry.
        let entry = (1..)
            .map(|n| match n {
                1 => format!("{id}-{stamp}"),
                n => format!("{id}-{stamp}-{n}"),
            })
            .find(|name| !trash.join(name).exists())
            .unwrap_or_default();
        fs::rename(&dir, trash.join(&entry)).map_err(io(&dir))?;
        drop(lock);
        atomic::sync_dir(&self.root).map_err(io(&self.root))?;
        Ok(Trashed {
            entry,
            id: id.to_string(),
            deleted_at: now.to_string(),
        })
    }

    /// The plans in the trash, most recently deleted first.
    pub fn trashed(&self) -> Result<Vec<Trashed>> {
        let trash = self.root.join(".trash");
        let mut out: Vec<Trashed> = match fs::read_dir(&trash) {
            Ok(entries) => entries
                .flatten()
                .filter(|e| e.path().join("draft.json").is_file())
                .filter_map(|e| trash_entry(&e.file_name().to_string_lossy()))
                .collect(),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
            Err(source) => {
                return Err(StoreError::Io {
                    path: trash,
                    source,
                })
            }
        };
        out.sort_by(|a, b| (&b.deleted_at, &b.entry).cmp(&(&a.deleted_at, &a.entry)));
        Ok(out)
    }

    /// Brings the plan in trash entry `entry` back as plan `id` (which must be free); its
    /// versions, history, tests and sessions come back with it.
    pub fn restore(&self, entry: &str, id: &str) -> Result<()> {
        let Some(trashed) = trash_entry(entry) else {
            return Err(StoreError::NotFound {
                id: entry.to_string(),
            });
        };
        let from = self.root.join(".trash").join(&trashed.entry);
        self.contained(&from)?;
        if !from.join("draft.json").is_file() {
            return Err(StoreError::NotFound {
                id: trashed.id.clone(),
            });
        }
        let to = self.plan_dir(id)?;
        if to.exists() {
            return Err(StoreError::Exists { id: id.to_string() });
        }
        fs::rename(&from, &to).map_err(io(&from))?;
        atomic::sync_dir(&self.root).map_err(io(&self.root))?;
        if id != trashed.id {
            // The draft says which plan it is.
            let mut plan = self.read_draft(id)?;
            plan.id = id.to_string();
            self.save_draft(id, &plan)?;
        }
        Ok(())
    }
}

/// A trash entry's parts, from its name (`<id>-<time>` or `<id>-<time>-<n>`, the time as
/// [`file_stamp`] writes it: `2026-12-02T14-05-09Z`); none for any other name.
fn trash_entry(name: &str) -> Option<Trashed> {
    const STAMP: usize = "2026-12-02T14-05-09Z".len();
    let is_stamp = |s: &str| {
        s.len() == STAMP
            && s.char_indices().all(|(i, c)| match i {
                4 | 7 | 13 | 16 => c == '-',
                10 => c == 'T',
                19 => c == 'Z',
                _ => c.is_ascii_digit(),
            })
    };
    // The stamp is the last `-<stamp>` in the name, perhaps followed by `-<n>`.
    let at = (0..name.len()).rev().find(|&i| {
        name.as_bytes()[i] == b'-' && name.get(i + 1..i + 1 + STAMP).is_some_and(is_stamp)
    })?;
    let (id, rest) = (&name[..at], &name[at + 1..]);
    let (stamp, tail) = rest.split_at(STAMP);
    let counted = tail.is_empty()
        || tail
            .strip_prefix('-')
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
    if !is_slug(id) || !counted {
        return None;
    }
    // Back from the file name's form to RFC 3339.
    let deleted_at = format!("{}:{}:{}", &stamp[..13], &stamp[14..16], &stamp[17..]);
    Some(Trashed {
        entry: name.to_string(),
        id: id.to_string(),
        deleted_at,
    })
}
