//! The plans test conversations run, kept between turns: a turn of the test chat reads its plan's
//! file (a memory copy: under a millisecond for a 1,000-state draft) and reads, checks and hashes
//! the plan again only when the bytes differ from what the last turn read. Reading, validating
//! and hashing a 1,000-state draft took 6–23 ms of a 10–30 ms turn in the shell
//! (`cargo bench -p plan-api --bench conversations`), the same for every turn.
//!
//! Keyed by the bytes themselves, not the file's time or size, so no edit is ever missed: two
//! saves within one tick of the file system's clock would look alike by time.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use plan_core::store::Workspace;
use plan_core::Revision;

use crate::error::ApiError;
use crate::target::{target_plan, Target};

/// How many documents are kept: the draft and a version or two being tried side by side.
const KEPT: usize = 4;

struct Kept {
    path: PathBuf,
    bytes: Vec<u8>,
    target: Arc<Target>,
}

#[derive(Default)]
pub struct Targets {
    kept: Mutex<Vec<Kept>>,
}

impl Targets {
    /// Plan `id`'s `revision` (the live version, else the draft, by default), ready to run.
    pub fn get(
        &self,
        ws: &Workspace,
        id: &str,
        revision: Option<Revision>,
    ) -> Result<Arc<Target>, ApiError> {
        let (path, version) = ws.document_file(id, revision)?;
        let revision = Some(match version {
            plan_core::runtime::PlanVersion::Number(n) => Revision::Version(n),
            _ => Revision::Draft,
        });
        let Ok(bytes) = std::fs::read(&path) else {
            // Not readable: the store says why, in its words.
            return target_plan(ws, id, revision).map(Arc::new);
        };
        if let Some(target) = self.find(&path, &bytes) {
            return Ok(target);
        }
        let target = Arc::new(target_plan(ws, id, revision)?);
        // Kept only if the file still holds what was compared: it may have changed between the
        // two reads, and the plan read second must be the one the bytes say.
        if std::fs::read(&path).is_ok_and(|again| again == bytes) {
            self.keep(path, bytes, target.clone());
        }
        Ok(target)
    }

    fn find(&self, path: &PathBuf, bytes: &[u8]) -> Option<Arc<Target>> {
        let kept = self.kept.lock().ok()?;
        kept.iter()
            .find(|k| &k.path == path && k.bytes == bytes)
            .map(|k| k.target.clone())
    }

    fn keep(&self, path: PathBuf, bytes: Vec<u8>, target: Arc<Target>) {
        if let Ok(mut kept) = self.kept.lock() {
            kept.retain(|k| k.path != path);
            kept.push(Kept {
                path,
                bytes,
                target,
            });
            if kept.len() > KEPT {
                kept.remove(0);
            }
        }
    }
}
