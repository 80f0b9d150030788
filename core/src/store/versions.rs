//! A plan's versions in the store: published from the draft (validated, hashed, written
//! read-only under the plan's lock), read back verified, listed, made live, reopened as the draft,
//! compared.

use std::fs;

use serde::{Deserialize, Serialize};

use super::{
    atomic, io, lock::PlanLock, to_json, Live, Replaced, Result, Revision, StoreError, Version,
    VersionHead, VersionInfo, Workspace,
};
use crate::diff::{diff, PlanDiff};
use crate::files::read_text;
use crate::hash::{canonical_json, content_hash, hash_of};
use crate::plan::Plan;
use crate::validate::validate;

/// A version file as read to verify it: the plan kept as the bytes it is written as.
#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct VersionFile<'a> {
    version: u32,
    published_at: String,
    note: String,
    content_hash: String,
    based_on: Option<u32>,
    #[serde(borrow)]
    plan: &'a serde_json::value::RawValue,
}

/// A version file's text with only its number changed to `now` (its date, note, hash,
/// `based_on` and plan as they are: the plan's bytes untouched); `None` when the text is not a
/// version file. Sharing renumbers a version others published under the same number first.
pub fn version_renumbered(text: &str, now: u32) -> Option<Vec<u8>> {
    let mut file: VersionFile = serde_json::from_str(text).ok()?;
    file.version = now;
    let mut bytes = serde_json::to_vec_pretty(&file).ok()?;
    bytes.push(b'\n');
    Some(bytes)
}

impl Workspace {
    /// Version numbers present, ascending: the files named `N.json` (N from 1, written as the
    /// store writes it: no sign, no leading zero). Anything else in `versions/` is not a version
    /// ([`Workspace::stray_in_versions`]): a copy named `01.json` is not version 1 again, and a
    /// folder named `9.json` does not make the next publish version 10.
    fn version_numbers(&self, id: &str) -> Result<Vec<u32>> {
        Ok(self.versions_folder(id)?.0)
    }

    /// What `versions/` holds: the version numbers, ascending, and the names of the entries that
    /// are not versions (the store's own temporary files left out), sorted.
    fn versions_folder(&self, id: &str) -> Result<(Vec<u32>, Vec<String>)> {
        let dir = self.existing(id)?.join("versions");
        let (mut numbers, mut stray) = (Vec::new(), Vec::new());
        let Ok(entries) = fs::read_dir(&dir) else {
            return Ok((numbers, stray));
        };
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.starts_with('.') {
                continue;
            }
            let number = name
                .strip_suffix(".json")
                .and_then(|n| n.parse::<u32>().ok())
                .filter(|&n| n >= 1 && name == format!("{n}.json"));
            let a_file = entry.file_type().is_ok_and(|t| t.is_file());
            match number {
                Some(n) if a_file => numbers.push(n),
                _ => stray.push(name),
            }
        }
        numbers.sort_unstable();
        stray.sort();
        Ok((numbers, stray))
    }

    /// The entries of plan `id`'s `versions/` that are not versions, each said with why:
    /// "01.json (not a version's name: versions are named 1.json, 2.json, …)", "9.json (a folder)".
    pub fn stray_in_versions(&self, id: &str) -> Result<Vec<String>> {
        let dir = self.existing(id)?.join("versions");
        let (_, stray) = self.versions_folder(id)?;
        Ok(stray
            .into_iter()
            .map(|name| {
                let canonical = name
                    .strip_suffix(".json")
                    .and_then(|n| n.parse::<u32>().ok())
                    .is_some_and(|n| n >= 1 && name == format!("{n}.json"));
                let why = if canonical {
                    "not a file"
                } else {
                    "not a version's name: versions are named 1.json, 2.json, …"
                };
                format!("{}: ignored ({why})", dir.join(name).display())
            })
            .collect())
    }

    /// What is wrong with plan `id`'s files besides its draft, in words naming each file: a
    /// `live.json` that names no intact version, entries of `versions/` that are not versions.
    /// The plan list shows them beside the plan.
    pub fn problems(&self, id: &str) -> Vec<String> {
        let mut out = Vec::new();
        if let Err(e) = self.live(id) {
            out.push(e.to_string());
        }
        out.extend(self.stray_in_versions(id).unwrap_or_default());
        out
    }

    /// The newest version's number; none before the first publish.
    pub fn newest_version(&self, id: &str) -> Result<Option<u32>> {
        Ok(self.version_numbers(id)?.last().copied())
    }

    /// Version `n`, verified: it must parse and its content must match its hash.
    pub fn read_version(&self, id: &str, n: u32) -> Result<Version> {
        let (v, plan) = self.verified(id, n, true)?;
        let plan = plan.ok_or_else(|| StoreError::NoVersion {
            id: id.to_string(),
            version: n,
        })?;
        Ok(Version {
            version: v.version,
            published_at: v.published_at,
            note: v.note,
            content_hash: v.content_hash,
            based_on: v.based_on,
            plan,
        })
    }

    /// Version file `n` read and checked against its hash; with `plan`, its plan too.
    ///
    /// A version file this store wrote holds its plan as the very canonical JSON that was hashed,
    /// so hashing those bytes as they stand verifies it without building the plan: listing 500
    /// versions of a 100-state plan took 807 ms parsing each plan and serializing it again to
    /// hash it, against tens of ms now (`cargo bench -p plan-api --bench lifecycle`). A file
    /// whose bytes are not canonical (written by hand, reformatted) is verified the long way:
    /// parsed, serialized canonically, hashed.
    fn verified(&self, id: &str, n: u32, plan: bool) -> Result<(VersionHead, Option<Plan>)> {
        let path = self.existing(id)?.join(format!("versions/{n}.json"));
        self.contained(&path)?;
        if !path.is_file() {
            return Err(StoreError::NoVersion {
                id: id.to_string(),
                version: n,
            });
        }
        let corrupted = |reason: String| StoreError::Corrupted {
            path: path.clone(),
            version: n,
            reason,
        };
        let text = read_text(&path)?;
        let file: VersionFile = crate::deep_json::from_str(&text)
            .map_err(|e| corrupted(format!("not a version file: {e}")))?;
        if file.version != n {
            return Err(corrupted(format!("it says it is version {}", file.version)));
        }
        let raw = file.plan.get();
        let read = |raw: &str| {
            crate::deep_json::from_str::<Plan>(raw)
                .map_err(|e| corrupted(format!("not a version file: {e}")))
        };
        let parsed = if hash_of(raw.as_bytes()) == file.content_hash {
            plan.then(|| read(raw)).transpose()?
        } else {
            let parsed = read(raw)?;
            let actual = content_hash(&parsed);
            if actual != file.content_hash {
                return Err(corrupted(format!(
                    "its content hash is {actual}, not the recorded {}",
                    file.content_hash
                )));
            }
            plan.then_some(parsed)
        };
        let head = VersionHead {
            version: file.version,
            published_at: file.published_at,
            note: file.note,
            content_hash: file.content_hash,
            based_on: file.based_on,
        };
        Ok((head, parsed))
    }

    /// Every version with its details; corrupted ones are listed as such.
    pub fn versions(&self, id: &str) -> Result<Vec<VersionInfo>> {
        // A live.json naming no intact version marks none; `problems` says why.
        let live = self.live(id).ok().flatten().map(|l| l.version);
        let mut out = Vec::new();
        for n in self.version_numbers(id)? {
            out.push(match self.verified(id, n, false) {
                Ok((v, _)) => VersionInfo {
                    version: n,
                    published_at: v.published_at,
                    note: v.note,
                    content_hash: v.content_hash,
                    live: live == Some(n),
                    corrupted: None,
                },
                Err(e) => VersionInfo {
                    version: n,
                    published_at: String::new(),
                    note: String::new(),
                    content_hash: String::new(),
                    live: live == Some(n),
                    corrupted: Some(e.to_string()),
                },
            });
        }
        Ok(out)
    }

    /// Validates the draft and, with no errors and a change since the newest version, writes it
    /// as the next version. Returns its number.
    pub fn publish(&self, id: &str, note: &str, now: &str) -> Result<u32> {
        let draft = self.read_draft(id)?;
        self.publish_plan(id, &draft, note, now)
    }

    /// [`Workspace::publish`] of a draft the caller already holds (the editor's, which it has
    /// just saved), so that it is not read back from disk.
    pub fn publish_plan(&self, id: &str, draft: &Plan, note: &str, now: &str) -> Result<u32> {
        let dir = self.existing(id)?;
        let _lock = PlanLock::take(&dir, id)?;
        let versions = dir.join("versions");
        atomic::remove_leftovers(&versions);
        let newest = self.newest_version(id)?;
        let recorded = newest.and_then(|n| self.recorded_hash(id, n));
        let number = newest.map_or(1, |n| n + 1);
        fs::create_dir_all(&versions).map_err(io(&versions))?;
        let path = versions.join(format!("{number}.json"));
        // Validating, and writing the version file (canonical JSON, hash, fsync), are independent
        // and each about half the work: do them side by side. The file goes into place only if the
        // draft has no errors and differs from the newest version; otherwise it is removed unseen.
        let write = |hash: &str, canonical: &[u8]| -> std::io::Result<atomic::Prepared> {
            // Compact, the plan as its canonical JSON: one serialization serves the hash and the
            // file. `plan export` prints any version readably.
            let head = serde_json::json!({
                "version": number,
                "published_at": now,
                "note": note,
                "content_hash": hash,
                "based_on": newest,
            });
            let mut start = serde_json::to_vec(&head)?;
            start.pop(); // the closing brace: the plan goes last
            start.extend_from_slice(b",\"plan\":");
            atomic::prepare_parts(&path, &[&start, canonical, b"}\n"], true)
        };
        let (report, written) = std::thread::scope(|scope| {
            let writer = scope.spawn(|| {
                let canonical = canonical_json(draft);
                let hash = hash_of(&canonical);
                (recorded.as_deref() != Some(hash.as_str())).then(|| write(&hash, &canonical))
            });
            let report = validate(draft);
            (report, writer.join())
        });
        // On any refusal below, the prepared file is dropped, which removes it.
        if report.has_errors() {
            return Err(StoreError::PublishRefused {
                id: id.to_string(),
                diagnostics: report.diagnostics,
            });
        }
        let written = written.map_err(|_| StoreError::Io {
            path: path.clone(),
            source: std::io::Error::other("writing the version stopped unexpectedly"),
        })?;
        let Some(prepared) = written else {
            return Err(StoreError::Unchanged {
                id: id.to_string(),
                version: newest.unwrap_or(0),
            });
        };
        prepared
            .and_then(atomic::Prepared::commit)
            .map_err(io(&versions))?;
        Ok(number)
    }

    /// The hash a version file records, read without parsing its plan (for "is the draft
    /// unchanged?", which needs no verification). Files this store wrote begin with it, so the
    /// first kilobytes are enough; any other file is read whole.
    pub fn recorded_hash(&self, id: &str, n: u32) -> Option<String> {
        use std::io::Read;
        #[derive(Deserialize)]
        struct Head {
            content_hash: String,
        }
        const FIELD: &str = "\"content_hash\":\"";
        let path = self.plan_dir(id).ok()?.join(format!("versions/{n}.json"));
        self.contained(&path).ok()?;
        let mut head = vec![0; 4096];
        let read = fs::File::open(&path).ok()?.read(&mut head).ok()?;
        let text = String::from_utf8_lossy(&head[..read]);
        if let Some(at) = text.find(FIELD) {
            let rest = &text[at + FIELD.len()..];
            if let Some(end) = rest.find('"') {
                return Some(rest[..end].to_string());
            }
        }
        let bytes = fs::read(path).ok()?;
        serde_json::from_slice::<Head>(&bytes)
            .ok()
            .map(|h| h.content_hash)
    }

    /// The live version, if one is set; a `live.json` that cannot be read, or that names a version
    /// that is missing or corrupted, is an error naming that file.
    pub fn live(&self, id: &str) -> Result<Option<Live>> {
        let path = self.existing(id)?.join("live.json");
        let bad = |reason: String| StoreError::BadLive {
            path: path.clone(),
            reason,
        };
        let live: Live = match fs::read(&path) {
            Ok(bytes) => serde_json::from_slice(&bytes)
                .map_err(|e| bad(format!("it is not readable ({e})")))?,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(source) => return Err(StoreError::Io { path, source }),
        };
        match self.verified(id, live.version, false) {
            Ok(_) => Ok(Some(live)),
            Err(StoreError::NoVersion { .. }) => Err(bad(format!(
                "it names version {}, which does not exist",
                live.version
            ))),
            Err(StoreError::Corrupted { .. }) => Err(bad(format!(
                "it names version {}, which is corrupted",
                live.version
            ))),
            Err(e) => Err(e),
        }
    }

    /// Points live at version `n`, which must be intact.
    pub fn set_live(&self, id: &str, n: u32, now: &str) -> Result<()> {
        let dir = self.existing(id)?;
        let _lock = PlanLock::take(&dir, id)?;
        atomic::remove_leftovers(&dir);
        self.read_version(id, n)?;
        let live = Live {
            version: n,
            set_at: now.to_string(),
        };
        atomic::write(&dir.join("live.json"), &to_json(&live), false).map_err(io(&dir))
    }

    /// Makes version `n` the draft; the replaced draft goes to `history/` first.
    pub fn reopen(&self, id: &str, n: u32, now: &str) -> Result<Replaced> {
        let dir = self.existing(id)?;
        let _lock = PlanLock::take(&dir, id)?;
        atomic::remove_leftovers(&dir);
        let version = self.read_version(id, n)?;
        let bytes = super::draft_bytes(&dir.join("draft.json"), &version.plan, 64 * 1024)?;
        let kept = self.replace_draft(&dir, &format!("reopen-v{n}"), now, &bytes)?;
        Ok(Replaced {
            plan: version.plan,
            kept,
        })
    }

    /// What changed from `a` to `b`.
    pub fn diff(&self, id: &str, a: Revision, b: Revision) -> Result<PlanDiff> {
        Ok(diff(&self.export(id, a)?, &self.export(id, b)?))
    }
}
