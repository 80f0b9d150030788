//! Simulations in the workspace (simulate.md): personas beside the plan in `<plan>/personas/`,
//! and runs in `<plan>/runs/<run id>/` (`run.json`, `conversations/`, `recording.jsonl`), written
//! once and never changed after. Every name is checked before it makes a path, and every path
//! stays inside the workspace.

use std::fs;
use std::path::PathBuf;

use super::{atomic, io, Result, StoreError, Workspace};
use crate::simulate::persona::{is_persona_id, Persona};

impl Workspace {
    /// The ids of plan `id`'s personas (`personas/*.json`), sorted.
    pub fn persona_ids(&self, id: &str) -> Result<Vec<String>> {
        let dir = self.existing(id)?.join("personas");
        Ok(super::conversations::json_names(&dir)
            .into_iter()
            .filter(|n| is_persona_id(n))
            .collect())
    }

    /// The file of persona `persona` of plan `id`, whether or not it exists.
    pub fn persona_path(&self, id: &str, persona: &str) -> Result<PathBuf> {
        if !is_persona_id(persona) {
            return Err(StoreError::BadPersonaName {
                name: persona.to_string(),
            });
        }
        let path = self
            .existing(id)?
            .join("personas")
            .join(format!("{persona}.json"));
        self.contained(&path)?;
        Ok(path)
    }

    /// The text of persona `persona` of plan `id`, and its file.
    pub fn read_persona_text(&self, id: &str, persona: &str) -> Result<(String, PathBuf)> {
        let path = self.persona_path(id, persona)?;
        if !path.is_file() {
            return Err(StoreError::NoPersona {
                id: id.to_string(),
                persona: persona.to_string(),
            });
        }
        let text = crate::files::read_text(&path)?;
        Ok((text, path))
    }

    /// Writes persona `persona` of plan `id` (replacing the one of that id).
    pub fn save_persona(&self, id: &str, persona: &Persona) -> Result<PathBuf> {
        let path = self.persona_path(id, &persona.id)?;
        let dir = path.parent().map(PathBuf::from).unwrap_or_default();
        fs::create_dir_all(&dir).map_err(io(&dir))?;
        atomic::write(&path, &super::to_json(persona), false).map_err(io(&path))?;
        Ok(path)
    }

    /// Removes persona `persona` of plan `id` (its file was renamed by the form): nothing when it
    /// is not there.
    pub fn remove_persona(&self, id: &str, persona: &str) -> Result<()> {
        let path = self.persona_path(id, persona)?;
        match fs::remove_file(&path) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(io(&path)(e)),
            _ => Ok(()),
        }
    }

    /// The ids of plan `id`'s runs, oldest first (run ids sort by time).
    pub fn run_ids(&self, id: &str) -> Result<Vec<String>> {
        let dir = self.existing(id)?.join("runs");
        let mut ids: Vec<String> = fs::read_dir(&dir)
            .into_iter()
            .flatten()
            .flatten()
            .filter(|e| e.path().join("run.json").is_file())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| is_persona_id(n))
            .collect();
        ids.sort();
        Ok(ids)
    }

    /// The folder of run `run` of plan `id`, which must exist.
    pub fn run_dir(&self, id: &str, run: &str) -> Result<PathBuf> {
        let dir = self.existing(id)?.join("runs").join(run);
        if !is_persona_id(run) || !dir.join("run.json").is_file() {
            return Err(StoreError::NoRun {
                id: id.to_string(),
                run: run.to_string(),
            });
        }
        self.contained(&dir)?;
        Ok(dir)
    }

    /// A new, empty run folder of plan `id` started at `now` (`2026-12-06T10:45:00Z` gives
    /// `20261206-104500`, then `20261206-104500-02`… when taken; `simulate::run_id`): its id and
    /// its path.
    pub fn new_run(&self, id: &str, now: &str) -> Result<(String, PathBuf)> {
        let runs = self.existing(id)?.join("runs");
        self.contained(&runs)?;
        fs::create_dir_all(&runs).map_err(io(&runs))?;
        let mut n = 1;
        loop {
            let run = crate::simulate::run_id::new(now, n);
            let dir = runs.join(&run);
            match fs::create_dir(&dir) {
                Ok(()) => {
                    let conversations = dir.join("conversations");
                    fs::create_dir(&conversations).map_err(io(&conversations))?;
                    return Ok((run, dir));
                }
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && n < 1000 => n += 1,
                Err(e) => return Err(io(&dir)(e)),
            }
        }
    }
}
