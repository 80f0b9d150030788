//! A saved conversation: its session file (`sessions/<name>.json`) and its log
//! (`sessions/.log/<name>.jsonl`, [`super::chat_log`]), read and written so that they agree
//! whatever stops a write.
//!
//! The session file is the session without its transcript and path, with `"logged":
//! {"transcript": N, "path": M}` saying how much of each the log holds. A turn appends its record
//! to the log first, then rewrites the session; a step back rewrites the session first, then cuts
//! the log. Whatever an interruption leaves, it is the log that is ahead, and reading drops what it
//! holds past the session: the last turn is in both files or in neither. A conversation saved in
//! the earlier format (a whole session, a log rewritten whole) is read as it is and written in this
//! one at its next save.

use std::fs;
use std::path::{Path, PathBuf};

use serde_json::Value;

use super::chat_log::{self, ChatLog, OldLog, Record};
use super::{atomic, io, Result, StoreError, Workspace};
use crate::runtime::{Event, Session, Turn};

/// The key of the session file that says how much of the transcript and path the log holds.
const LOGGED: &str = "logged";

fn bad_log(path: &Path, line: usize, column: usize, message: impl Into<String>) -> StoreError {
    StoreError::BadLog {
        path: path.to_path_buf(),
        line,
        column,
        message: message.into(),
    }
}

/// What the author's change to a conversation adds to its last turn's trace: the events, and the
/// prompt the next reply will be written from.
pub struct AuthorChange {
    /// The events the change caused.
    pub events: Vec<Event>,
    /// The prompt after it.
    pub prompt: String,
}

impl Workspace {
    /// Conversation `name` of plan `id`: its session, whole, and its log, as far as the session
    /// goes. A log that is missing is a conversation without its history; one that cannot be read,
    /// or holds less than the session says, is an error that names the file.
    pub fn read_conversation(&self, id: &str, name: &str) -> Result<(Session, ChatLog)> {
        let path = self.session_path(id, name)?;
        if !path.is_file() {
            return Err(StoreError::NoSession {
                id: id.to_string(),
                name: name.to_string(),
            });
        }
        let not_a_session = |message: String| StoreError::BadSession {
            path: path.clone(),
            message,
        };
        // Not the plans' 32 MiB limit: a session this program wrote is read back whatever its
        // size (values quoting long messages make it large).
        let bytes = fs::read(&path).map_err(io(&path))?;
        let text = String::from_utf8(bytes).map_err(|e| {
            let at = crate::unreadable::not_utf8(e.as_bytes());
            not_a_session(at.to_string())
        })?;
        let mut value: Value = serde_json::from_str(&text)
            .map_err(|e| not_a_session(format!("line {}, column {}: {e}", e.line(), e.column())))?;
        let logged = value.as_object_mut().and_then(|o| {
            let logged = o.remove(LOGGED)?;
            // The log holds them: the session reads as one with neither yet.
            o.entry("transcript").or_insert(Value::Array(Vec::new()));
            o.entry("path").or_insert(Value::Array(Vec::new()));
            Some(logged)
        });
        let mut session: Session =
            serde_json::from_value(value).map_err(|e| not_a_session(e.to_string()))?;
        let Some(logged) = logged else {
            let log = self.read_earlier_log(id, name, &session)?;
            return Ok((session, log));
        };
        let count = |key: &str| logged.get(key).and_then(Value::as_u64).unwrap_or(0) as usize;
        let log_path = self.session_log_path(id, name)?;
        if !log_path.exists() {
            // Moved aside (the way a broken log's message suggests): no history, the rest goes on.
            return Ok((session, ChatLog::default()));
        }
        if !fs::metadata(&log_path).map_err(io(&log_path))?.is_file() {
            return Err(bad_log(&log_path, 1, 1, "it is not a file"));
        }
        let read = chat_log::read(&log_path)
            .map_err(io(&log_path))?
            .map_err(|p| bad_log(&log_path, p.line, p.column, p.message))?;
        let (log, transcript, path) = ChatLog::from_records(read, session.turn)
            .map_err(|(line, why)| bad_log(&log_path, line, 1, why))?;
        if transcript.len() != count("transcript") || path.len() != count("path") {
            return Err(bad_log(
                &log_path,
                1,
                1,
                format!(
                    "it holds {} lines said and {} states visited where the session has {} and {}",
                    transcript.len(),
                    path.len(),
                    count("transcript"),
                    count("path")
                ),
            ));
        }
        session.transcript = transcript;
        session.path = path;
        Ok((session, log))
    }

    /// The log of a conversation saved in the earlier format, or none.
    fn read_earlier_log(&self, id: &str, name: &str, session: &Session) -> Result<ChatLog> {
        let path = self.log_file(id, name, "json")?;
        let old = if path.is_file() {
            let text = fs::read_to_string(&path).map_err(io(&path))?;
            serde_json::from_str::<OldLog>(&text)
                .map_err(|e| bad_log(&path, e.line(), e.column(), e.to_string()))?
        } else {
            OldLog::default()
        };
        Ok(ChatLog::from_earlier(old, session))
    }

    /// Saves a conversation that has just opened: its log, then its session.
    pub fn save_opening(
        &self,
        id: &str,
        name: &str,
        log: &mut ChatLog,
        session: &Session,
    ) -> Result<()> {
        let written = self.write_whole(id, name, log, session)?;
        self.write_session(id, name, session)?;
        *log = written;
        Ok(())
    }

    /// Saves turn `turn`, which went from `before` to `after`: its record appended to the log,
    /// then the session. On an error, `log` is as it was, and so is what reading finds on disk.
    pub fn save_turn(
        &self,
        id: &str,
        name: &str,
        log: &mut ChatLog,
        before: &Session,
        turn: Turn,
        after: &Session,
    ) -> Result<()> {
        let (mut mark, record) = chat_log::turn_record(before, &turn, after);
        let previous = log.whole;
        match log.whole {
            Some(whole) => {
                let path = self.session_log_path(id, name)?;
                let bytes = chat_log::line_of(&record);
                chat_log::append(&path, whole, &bytes).map_err(io(&path))?;
                mark.at = whole;
                log.marks.push(mark);
                log.turns.push(turn);
                log.whole = Some(whole + bytes.len() as u64);
            }
            None => {
                let mut next = log.clone();
                next.marks.push(mark);
                next.turns.push(turn);
                *log = self.write_whole(id, name, &next, after)?;
            }
        }
        if let Err(e) = self.write_session(id, name, after) {
            // The turn's record stays in the file past the session, where reading leaves it out
            // and the next append cuts it off.
            let at = log.marks.pop().map(|m| m.at);
            log.turns.pop();
            log.whole = previous.and(at);
            return Err(e);
        }
        Ok(())
    }

    /// Takes the last turn back, when `now` is where the conversation is: the session it started
    /// from is saved, then the turn's record cut from the log. Answers that session; none when
    /// there is no turn to take back.
    pub fn save_step_back(
        &self,
        id: &str,
        name: &str,
        log: &mut ChatLog,
        now: &Session,
    ) -> Result<Option<Session>> {
        let Some(before) = log.before_last(now) else {
            return Ok(None);
        };
        self.write_session(id, name, &before)?;
        let mut next = log.clone();
        let mark = next.marks.pop();
        next.turns.pop();
        match (next.whole, mark) {
            (Some(_), Some(mark)) => {
                // Left uncut, the record is past the session: read as not there, cut at the next
                // append. So a failure here changes nothing that is read.
                let path = self.session_log_path(id, name)?;
                let _ = chat_log::cut(&path, mark.at);
                next.whole = Some(mark.at);
            }
            _ => next = self.write_whole(id, name, &next, &before)?,
        }
        *log = next;
        Ok(Some(before))
    }

    /// Saves `session`, changed by the author after the last turn (a session state set by hand),
    /// then notes `events` and the new `prompt` in that turn's trace. The session goes first: an
    /// interruption loses at most the note, never the value set.
    pub fn save_amended(
        &self,
        id: &str,
        name: &str,
        log: &mut ChatLog,
        change: AuthorChange,
        before: &Session,
        session: &Session,
    ) -> Result<()> {
        let AuthorChange { events, prompt } = change;
        self.write_session(id, name, session)?;
        let Some(last) = log.turns.last().map(|t| t.number) else {
            return Ok(());
        };
        let back = chat_log::undo_of(before, session);
        let record = Record::Amended {
            turn: last,
            events: events.clone(),
            prompt: prompt.clone(),
            undo: back.clone(),
        };
        match log.whole {
            Some(whole) => {
                let path = self.session_log_path(id, name)?;
                let bytes = chat_log::line_of(&record);
                chat_log::append(&path, whole, &bytes).map_err(io(&path))?;
                log.whole = Some(whole + bytes.len() as u64);
                if let Some(turn) = log.turns.last_mut() {
                    turn.events.extend(events);
                    turn.prompt = prompt;
                }
                if let Some(mark) = log.marks.last_mut() {
                    mark.undo.extend(back);
                }
            }
            None => {
                let mut next = log.clone();
                if let Some(turn) = next.turns.last_mut() {
                    turn.events.extend(events);
                    turn.prompt = prompt;
                }
                if let Some(mark) = next.marks.last_mut() {
                    mark.undo.extend(back);
                }
                *log = self.write_whole(id, name, &next, session)?;
            }
        }
        Ok(())
    }

    /// Writes `log` whole (atomically), when `now` is where the conversation is; answers it with
    /// its records' places in the file. A log in the earlier format is removed after.
    fn write_whole(&self, id: &str, name: &str, log: &ChatLog, now: &Session) -> Result<ChatLog> {
        let path = self.session_log_path(id, name)?;
        let dir = path.parent().map(PathBuf::from).unwrap_or_default();
        fs::create_dir_all(&dir).map_err(io(&dir))?;
        atomic::remove_leftovers(&dir);
        let mut bytes = Vec::new();
        let mut written = log.clone();
        let records = log.records(now);
        let mut marks = written.marks.iter_mut();
        for record in &records {
            // The first record is how it began; each turn's follows in order, the author's
            // changes after a turn after its record.
            if matches!(record, Record::Turn { .. }) {
                if let Some(mark) = marks.next() {
                    mark.at = bytes.len() as u64;
                }
            }
            bytes.extend(chat_log::line_of(record));
        }
        atomic::write(&path, &bytes, false).map_err(io(&path))?;
        written.whole = Some(bytes.len() as u64);
        let earlier = self.log_file(id, name, "json")?;
        if earlier.is_file() {
            let _ = fs::remove_file(&earlier);
        }
        Ok(written)
    }

    /// Writes the session file: `session` without its transcript and path, and how much of each
    /// the log holds (atomically, durably).
    fn write_session(&self, id: &str, name: &str, session: &Session) -> Result<()> {
        let path = self.session_path(id, name)?;
        let dir = self.sessions_dir(id)?;
        fs::create_dir_all(&dir).map_err(io(&dir))?;
        atomic::remove_leftovers(&dir);
        let mut value = serde_json::to_value(chat_log::head(session))
            .map_err(|e| io(&path)(std::io::Error::other(e)))?;
        if let Some(object) = value.as_object_mut() {
            object.remove("transcript");
            object.remove("path");
            object.insert(
                LOGGED.into(),
                serde_json::json!({"transcript": session.transcript.len(), "path": session.path.len()}),
            );
        }
        atomic::write(&path, &super::to_json(&value), false).map_err(io(&path))
    }
}
