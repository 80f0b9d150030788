//! Where an operation runs: the workspace, and the clock its records are stamped with. Both front
//! ends find the workspace the same way (`--workspace DIR`, else `PLAN_BUILDER_WORKSPACE`, else the
//! default one) and pass the system clock; tests pass a fixed one.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use plan_core::store::{default_root, timestamp, Workspace};
use plan_core::Revision;

use crate::error::{ApiError, ErrorCode};
use crate::target::Target;
use crate::targets::Targets;

/// The time now as RFC 3339 (`2026-12-02T14:05:09Z`): what the store records.
pub type Clock = fn() -> String;

/// The system clock, to whole seconds in UTC.
pub fn system_clock() -> String {
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0);
    timestamp(secs)
}

/// The workspace folder: `flag` (the `--workspace DIR` argument), else `PLAN_BUILDER_WORKSPACE`,
/// else the default workspace.
pub fn workspace_root(flag: Option<&Path>) -> Result<PathBuf, ApiError> {
    flag.map(Path::to_path_buf)
        .or_else(|| {
            std::env::var_os("PLAN_BUILDER_WORKSPACE")
                .filter(|v| !v.is_empty())
                .map(PathBuf::from)
        })
        .or_else(default_root)
        .ok_or_else(|| {
            ApiError::new(
                ErrorCode::NotFound,
                "no workspace: pass --workspace DIR or set PLAN_BUILDER_WORKSPACE",
            )
        })
}

/// An open workspace, its clock, and the plans its test conversations run (read again only when
/// their files change). Cheap to clone: a path, a function and a shared cache.
#[derive(Clone)]
pub struct Context {
    workspace: Workspace,
    clock: Clock,
    targets: Arc<Targets>,
}

impl Context {
    /// Opens the workspace at `root`; one that does not exist yet is created and seeded with the
    /// sample plans.
    pub fn open(root: &Path, clock: Clock) -> Result<Context, ApiError> {
        let workspace = Workspace::open(root, &clock())?;
        Ok(Context {
            workspace,
            clock,
            targets: Arc::default(),
        })
    }

    /// The workspace at `root`, as it is (nothing created): for a workspace known to exist, or
    /// for reading whatever is there.
    pub fn at(root: &Path, clock: Clock) -> Context {
        Context {
            workspace: Workspace::at(root),
            clock,
            targets: Arc::default(),
        }
    }

    /// The workspace it works in.
    pub fn workspace(&self) -> &Workspace {
        &self.workspace
    }

    /// The workspace's folder.
    pub fn root(&self) -> &Path {
        self.workspace.root()
    }

    /// Plan `id`'s `revision`, ready to run (see `Targets`).
    pub fn target(&self, id: &str, revision: Option<Revision>) -> Result<Arc<Target>, ApiError> {
        self.targets.get(&self.workspace, id, revision)
    }

    /// The time now, by this context's clock.
    pub fn now(&self) -> String {
        (self.clock)()
    }
}
