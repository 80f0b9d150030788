//! A conversation's log: `sessions/.log/<name>.jsonl`, one JSON record per line, appended.
//!
//! The session file beside it stays small: it holds where the conversation is (the state, the
//! values, the visit) and how long its transcript and path are; the lines said and the states
//! visited are in the log, with each turn's trace and how to go back from the session after it to
//! the one it started from (an [`Undo`]: what the turn changed, not the session again), so that
//! any turn can be taken back after a restart. A turn's save is one record appended and the small
//! session rewritten: it costs what the turn added, never the whole conversation again (issue 31:
//! 1,000 turns used to take 30 s and a 17 MB log; issue 46: a record repeated the session's
//! insights, 596 MB for 31 turns of 1 MiB insights).
//!
//! The records: `{"began": {start, runs, earlier?}}` first, then `{"turn": {turn, undo, said,
//! visited}}` for each turn (the opening is turn 0; logs written before undos kept `before`, the
//! whole session, and still read), and `{"amended": {turn, events, prompt, undo}}` when the author
//! set a session state by hand after a turn. Each record is complete on its own; a
//! line cut short by a kill (the last one, without its newline) is dropped on reading and cut off
//! before the next append.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::undo::{undo, Undo};
use crate::runtime::{Event, Line, Session, Start, Turn};

/// One line of a log. (Made and read one at a time, so the size of its largest kind costs nothing.)
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub(super) enum Record {
    /// How the conversation began: the first line.
    Began {
        #[serde(default)]
        start: Start,
        #[serde(default)]
        runs: Option<String>,
        /// What a conversation saved before logs were appended had said and visited already.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        earlier: Option<Earlier>,
    },
    /// One turn, the opening included.
    Turn {
        turn: Turn,
        /// The session it started from, without its transcript and path, as logs written before
        /// undos kept it; none for the opening and in newer logs.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        before: Option<Session>,
        /// How to go back from the session after it (without transcript and path) to the one it
        /// started from; none for the opening.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        undo: Option<Undo>,
        /// The lines it added to the transcript.
        #[serde(default)]
        said: Vec<Line>,
        /// The states it added to the path.
        #[serde(default)]
        visited: Vec<String>,
    },
    /// Events the author caused after turn `turn` (a session state set by hand), and the prompt
    /// the next reply would be written from.
    Amended {
        turn: u32,
        events: Vec<Event>,
        prompt: String,
        /// How to go back from the session the author changed to the one before the change.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        undo: Option<Undo>,
    },
}

/// The transcript and path a conversation had before its log was kept line by line.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Earlier {
    pub transcript: Vec<Line>,
    pub path: Vec<String>,
}

/// Where one turn stands in its log: how long the transcript and path were before it, how to go
/// back to the session it started from (none for the opening, or a turn from before logs kept
/// it), and where its record begins in the file.
#[derive(Debug, Clone, PartialEq, Default)]
pub(super) struct Mark {
    pub said_from: usize,
    pub visited_from: usize,
    /// The session it started from, whole (logs written before undos).
    pub before: Option<Session>,
    /// The turn's undo, then each later change by the author's: applied last first to the
    /// session now, they give the session the turn started from.
    pub undo: Vec<Undo>,
    pub at: u64,
}

impl Mark {
    fn can_go_back(&self) -> bool {
        self.before.is_some() || !self.undo.is_empty()
    }
}

/// A session without its transcript and path, as JSON: what undos are made on.
fn head_value(session: &Session) -> serde_json::Value {
    serde_json::to_value(head(session)).unwrap_or_default()
}

/// How to go back from `after` to `before`, both without transcript and path.
pub(super) fn undo_of(before: &Session, after: &Session) -> Option<Undo> {
    undo(&head_value(before), &head_value(after))
}

/// A log as read: its records in order, the byte offset each begins at, and the length of the
/// part that reads whole (a torn last line is past it).
pub(super) struct ReadLog {
    pub records: Vec<(u64, Record)>,
    pub whole: u64,
}

/// Why a log could not be read: the line (1-based), and what is wrong.
pub(super) struct LogProblem {
    pub line: usize,
    pub column: usize,
    pub message: String,
}

/// Reads the records of the log at `path`. A last line without its newline that does not read
/// is a write cut short, and is left out; any other line that does not read is a problem.
pub(super) fn read(path: &Path) -> std::io::Result<Result<ReadLog, LogProblem>> {
    let file = std::fs::File::open(path)?;
    let mut reader = BufReader::new(file);
    let mut records = Vec::new();
    let mut at = 0u64;
    let mut line = Vec::new();
    let mut number = 0;
    loop {
        line.clear();
        let n = reader.read_until(b'\n', &mut line)?;
        if n == 0 {
            break;
        }
        number += 1;
        // A line without its newline was never finished (a kill, a full disk): left out.
        if line.last() != Some(&b'\n') {
            break;
        }
        match serde_json::from_slice::<Record>(&line) {
            Ok(record) => records.push((at, record)),
            Err(e) => {
                return Ok(Err(LogProblem {
                    line: number,
                    column: e.column(),
                    message: e.to_string(),
                }))
            }
        }
        at += n as u64;
    }
    Ok(Ok(ReadLog { records, whole: at }))
}

/// One record as its line: compact JSON and a newline.
pub(super) fn line_of(record: &Record) -> Vec<u8> {
    let mut bytes = serde_json::to_vec(record).expect("a log record serializes");
    bytes.push(b'\n');
    bytes
}

/// Appends `bytes` to the log at `path` after cutting it to `whole` bytes (a torn line, or records
/// past the session, go), and flushes it to disk. Answers the offset the bytes begin at.
pub(super) fn append(path: &Path, whole: u64, bytes: &[u8]) -> std::io::Result<u64> {
    let mut file = std::fs::OpenOptions::new().write(true).open(path)?;
    if file.metadata()?.len() != whole {
        file.set_len(whole)?;
    }
    use std::io::Seek;
    file.seek(std::io::SeekFrom::Start(whole))?;
    file.write_all(bytes)?;
    file.sync_data()?;
    Ok(whole)
}

/// Cuts the log at `path` to its first `length` bytes, durably.
pub(super) fn cut(path: &Path, length: u64) -> std::io::Result<()> {
    let file = std::fs::OpenOptions::new().write(true).open(path)?;
    file.set_len(length)?;
    file.sync_data()
}

/// The record of `turn`, which started from `before` and led to `after`, and its mark (placed in
/// the file when it is written).
pub(super) fn turn_record(before: &Session, turn: &Turn, after: &Session) -> (Mark, Record) {
    let said = after.transcript[before.transcript.len().min(after.transcript.len())..].to_vec();
    let visited = after.path[before.path.len().min(after.path.len())..].to_vec();
    // A turn always counts (its number changes): there is always something to undo.
    let back = undo_of(before, after);
    let mark = Mark {
        said_from: before.transcript.len(),
        visited_from: before.path.len(),
        before: None,
        undo: back.clone().into_iter().collect(),
        at: 0,
    };
    let record = Record::Turn {
        turn: turn.clone(),
        before: None,
        undo: back,
        said,
        visited,
    };
    (mark, record)
}

/// `session` without its transcript and path, which the log keeps.
pub(super) fn head(session: &Session) -> Session {
    let Session {
        schema,
        plan,
        turn,
        state_id,
        visit,
        deliverables,
        session_states,
        insights,
        transcript: _,
        path: _,
        ended,
        parked,
        spent_conditions,
        returned_from,
    } = session;
    Session {
        schema: *schema,
        plan: plan.clone(),
        turn: *turn,
        state_id: state_id.clone(),
        visit: visit.clone(),
        deliverables: deliverables.clone(),
        session_states: session_states.clone(),
        insights: insights.clone(),
        transcript: Vec::new(),
        path: Vec::new(),
        ended: ended.clone(),
        parked: parked.clone(),
        spent_conditions: spent_conditions.clone(),
        returned_from: returned_from.clone(),
    }
}

/// A conversation's log as the program holds it: how it began, every turn (with its trace), and
/// for each turn where the transcript and path stood before it and the session it started from.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ChatLog {
    /// How the conversation began (a state, values already known).
    pub start: Start,
    /// Every turn so far, the opening first (a conversation saved before logs were kept may have
    /// none).
    pub turns: Vec<Turn>,
    /// The run hash of the plan the session runs (none in logs written before it was kept).
    pub runs: Option<String>,
    /// One per turn, in the same order.
    pub(super) marks: Vec<Mark>,
    /// How many bytes of the file on disk hold this log (what lies past them is cut before the
    /// next append); none when the file must be written whole at the next save (a new
    /// conversation, or one saved in the earlier format).
    pub(super) whole: Option<u64>,
}

impl ChatLog {
    /// The log of a conversation that has just opened with `opening`.
    pub fn began(start: Start, runs: Option<String>, opening: Turn) -> ChatLog {
        ChatLog {
            start,
            turns: vec![opening],
            runs,
            marks: vec![Mark::default()],
            whole: None,
        }
    }

    /// Whether the last turn can be taken back: it is a user turn whose starting session is kept.
    pub fn can_step_back(&self) -> bool {
        self.turns.last().is_some_and(|t| t.number > 0)
            && self.marks.last().is_some_and(Mark::can_go_back)
    }

    /// The session the last turn started from, whole, when `now` is where the conversation is.
    pub fn before_last(&self, now: &Session) -> Option<Session> {
        let mark = self.marks.last().filter(|_| self.can_step_back())?;
        let mut before = match &mark.before {
            Some(before) => before.clone(),
            None => {
                let back = mark
                    .undo
                    .iter()
                    .rev()
                    .fold(head_value(now), |value, u| u.apply(&value));
                serde_json::from_value(back).ok()?
            }
        };
        before.transcript = now.transcript[..mark.said_from.min(now.transcript.len())].to_vec();
        before.path = now.path[..mark.visited_from.min(now.path.len())].to_vec();
        Some(before)
    }

    /// Every record of this log, when `now` is where the conversation is: what a log written
    /// whole holds.
    pub(super) fn records(&self, now: &Session) -> Vec<Record> {
        let first = self.marks.first();
        let said_first = first.map_or(now.transcript.len(), |m| m.said_from);
        let visited_first = first.map_or(now.path.len(), |m| m.visited_from);
        let earlier = (said_first > 0 || visited_first > 0).then(|| Earlier {
            transcript: now.transcript[..said_first.min(now.transcript.len())].to_vec(),
            path: now.path[..visited_first.min(now.path.len())].to_vec(),
        });
        let mut out = vec![Record::Began {
            start: self.start.clone(),
            runs: self.runs.clone(),
            earlier,
        }];
        for (i, (turn, mark)) in self.turns.iter().zip(&self.marks).enumerate() {
            let next = self.marks.get(i + 1);
            let said_to = next.map_or(now.transcript.len(), |m| m.said_from);
            let visited_to = next.map_or(now.path.len(), |m| m.visited_from);
            let mut undos = mark.undo.iter();
            out.push(Record::Turn {
                turn: turn.clone(),
                before: mark.before.clone(),
                undo: undos.next().cloned(),
                said: now.transcript
                    [mark.said_from.min(said_to)..said_to.min(now.transcript.len())]
                    .to_vec(),
                visited: now.path
                    [mark.visited_from.min(visited_to)..visited_to.min(now.path.len())]
                    .to_vec(),
            });
            // The author's changes after it: their events are in the turn already.
            out.extend(undos.map(|u| Record::Amended {
                turn: turn.number,
                events: Vec::new(),
                prompt: turn.prompt.clone(),
                undo: Some(u.clone()),
            }));
        }
        out
    }

    /// The log and the transcript and path its records hold, read from `records`, as far as
    /// `turn` (what the session says): records past it (a turn whose log was written but not its
    /// session) are left out, and cut from the file before the next append.
    pub(super) fn from_records(read: ReadLog, turn: u32) -> Result<Rebuilt, (usize, String)> {
        let mut log = ChatLog {
            whole: Some(read.whole),
            ..ChatLog::default()
        };
        let mut transcript = Vec::new();
        let mut path = Vec::new();
        let mut records = read.records.into_iter();
        match records.next() {
            Some((
                _,
                Record::Began {
                    start,
                    runs,
                    earlier,
                },
            )) => {
                log.start = start;
                log.runs = runs;
                if let Some(earlier) = earlier {
                    transcript = earlier.transcript;
                    path = earlier.path;
                }
            }
            _ => return Err((1, "its first line is not how the conversation began".into())),
        }
        for (line, (at, record)) in (2..).zip(records) {
            match record {
                Record::Turn { turn: ref t, .. } if t.number > turn => {
                    log.whole = Some(at);
                    break;
                }
                Record::Amended { turn: t, .. } if t > turn => {
                    log.whole = Some(at);
                    break;
                }
                Record::Turn {
                    turn: t,
                    before,
                    undo,
                    said,
                    visited,
                } => {
                    log.marks.push(Mark {
                        said_from: transcript.len(),
                        visited_from: path.len(),
                        before,
                        undo: undo.into_iter().collect(),
                        at,
                    });
                    log.turns.push(t);
                    transcript.extend(said);
                    path.extend(visited);
                }
                Record::Amended {
                    turn: t,
                    events,
                    prompt,
                    undo,
                } => match log.turns.last_mut().filter(|last| last.number == t) {
                    Some(last) => {
                        last.events.extend(events);
                        last.prompt = prompt;
                        if let Some(mark) = log.marks.last_mut() {
                            mark.undo.extend(undo);
                        }
                    }
                    None => {
                        return Err((
                            line,
                            format!("it amends turn {t}, which it holds no record of"),
                        ))
                    }
                },
                Record::Began { .. } => return Err((line, "it begins twice".into())),
            }
        }
        Ok((log, transcript, path))
    }

    /// The log of a conversation saved in the earlier format (a whole session and a log holding
    /// its turns and the sessions before the latest ones), to be written whole at the next save.
    pub(super) fn from_earlier(old: OldLog, now: &Session) -> ChatLog {
        let turns: Vec<Turn> = old
            .turns
            .into_iter()
            .filter(|t| t.number <= now.turn)
            .collect();
        let mut marks = vec![Mark::default(); turns.len()];
        // Where each turn began is known for the turns whose session was kept; the turns before
        // those begin (with nothing said) where the first known one does.
        let mut from = (now.transcript.len(), now.path.len());
        for (turn, mark) in turns.iter().zip(marks.iter_mut()).rev() {
            let kept = old.before.iter().find(|b| b.turn + 1 == turn.number);
            if let Some(b) = kept {
                from = (b.transcript.len(), b.path.len());
                mark.before = Some(head(b));
            }
            mark.said_from = from.0;
            mark.visited_from = from.1;
        }
        ChatLog {
            start: old.start,
            turns,
            runs: old.runs,
            marks,
            whole: None,
        }
    }
}

/// A log as read, with the transcript and path its records hold.
pub(super) type Rebuilt = (ChatLog, Vec<Line>, Vec<String>);

/// A log in the earlier format (`sessions/.log/<name>.json`, rewritten whole at every turn).
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
pub(super) struct OldLog {
    #[serde(default)]
    pub start: Start,
    #[serde(default)]
    pub turns: Vec<Turn>,
    #[serde(default)]
    pub before: Vec<Session>,
    #[serde(default)]
    pub runs: Option<String>,
}
