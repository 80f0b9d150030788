//! A session waiting to be expanded, packed into bytes: its values in the key's binary form, the
//! rest as JSON. A search holds every session it has reached and not yet expanded (on a large
//! plan, hundreds of thousands): a map of a few dozen values takes kilobytes in memory, packed a
//! few hundred bytes. Packed by the thread that made the session, unpacked by the one that
//! expands it. On the 1,000-state synthetic plan cut at 1,000,000 configurations: peak memory
//! 2.4 GB → 0.93 GB, and faster (fewer fresh pages for the kernel to clear).

use std::collections::BTreeMap;

use serde_json::{Number, Value};

use super::key::Bytes;
use super::reads::Reads;
use crate::runtime::{Recorded, Session, TaskProgress, TaskStatus};

/// A session with its values packed.
pub(crate) struct Stored {
    /// The session without its values as JSON, then its values in bytes: one allocation, no
    /// spare capacity (kept for a while, by the hundred thousand).
    bytes: Box<[u8]>,
    shell: u32,
    /// What the merge reads of it: its state (its place in the plan) and whether it ended.
    pub state: u32,
    pub ended: bool,
    /// What one move from it costs, for the work ceiling: 1, and 1 more for every 32 tasks,
    /// values and states visited its session holds (each move copies and reads them all).
    weight: u32,
}

impl Stored {
    /// Packs `session`, which is in the state at `state` in the plan's order; each value's key by
    /// its number in `reads` when it has one, and where and in which words it was given only when
    /// the session still says (a slimmed one does not).
    pub fn pack(mut session: Session, state: u32, reads: &Reads) -> Stored {
        let held = session.visit.tasks.len() + session.deliverables.len() + session.path.len();
        let weight = u32::try_from(1 + held / 32).unwrap_or(u32::MAX);
        let values = std::mem::take(&mut session.deliverables);
        // The visit's tasks are its state's, in order, nearly always: then only their statuses
        // are written, as runs or two bits each (a 2,000-task state: a few bytes to 500, not
        // 66 KB of JSON).
        let ids = reads.task_ids(state);
        let same_tasks = session.visit.tasks.len() == ids.len()
            && session
                .visit
                .tasks
                .iter()
                .zip(ids)
                .all(|(t, id)| t.id == *id);
        let tasks = if same_tasks {
            std::mem::take(&mut session.visit.tasks)
        } else {
            Vec::new()
        };
        let mut out = Bytes(serde_json::to_vec(&session).unwrap_or_default());
        let shell = u32::try_from(out.0.len()).unwrap_or(u32::MAX);
        if same_tasks {
            write_statuses(&tasks, &mut out);
        } else {
            out.byte(0);
        }
        out.count(values.len());
        for (key, r) in &values {
            let number = reads.key_number(key);
            let flags = u8::from(number.is_some())
                | u8::from(!r.state_id.is_empty()) << 1
                | u8::from(r.quote.is_some()) << 2;
            out.byte(flags);
            match number {
                Some(n) => out.count(n as usize),
                None => out.text(key),
            }
            out.value(&r.value);
            if !r.state_id.is_empty() {
                out.text(&r.state_id);
            }
            if let Some(quote) = &r.quote {
                out.text(quote);
            }
            out.count(r.turn as usize);
        }
        Stored {
            bytes: out.0.into_boxed_slice(),
            shell,
            state,
            ended: session.ended.is_some(),
            weight,
        }
    }

    /// What one move from it costs (see the field).
    pub fn weight(&self) -> usize {
        self.weight as usize
    }

    /// The bytes it takes, with its place in a list.
    pub fn size(&self) -> usize {
        self.bytes.len() + 16 + 2 * std::mem::size_of::<Stored>()
    }

    /// The session back (`None` only if its JSON did not read back, which a session written by
    /// serde always does).
    pub fn unpack(self, reads: &Reads) -> Option<Session> {
        let (shell, values) = self
            .bytes
            .split_at((self.shell as usize).min(self.bytes.len()));
        let mut session: Session = serde_json::from_slice(shell).ok()?;
        let mut r = Reader {
            bytes: values,
            at: 0,
        };
        let statuses = read_statuses(&mut r, reads.task_ids(self.state).len());
        if let Some(statuses) = statuses {
            session.visit.tasks = reads
                .task_ids(self.state)
                .iter()
                .zip(statuses)
                .map(|(id, status)| TaskProgress {
                    id: id.clone(),
                    status,
                })
                .collect();
        }
        let mut deliverables = BTreeMap::new();
        for _ in 0..r.count() {
            let flags = r.byte();
            let key = if flags & 1 != 0 {
                let n = r.count() as u32;
                reads.key_named(n)?.to_string()
            } else {
                r.text()
            };
            let value = r.value();
            let state_id = if flags & 2 != 0 {
                r.text()
            } else {
                String::new()
            };
            let quote = (flags & 4 != 0).then(|| r.text());
            let turn = r.count() as u32;
            deliverables.insert(
                key,
                Recorded {
                    value,
                    state_id,
                    turn,
                    quote,
                },
            );
        }
        session.deliverables = deliverables;
        Some(session)
    }
}

fn status_number(status: TaskStatus) -> u8 {
    match status {
        TaskStatus::Pending => 0,
        TaskStatus::Completed => 1,
        TaskStatus::Skipped => 2,
    }
}

fn status_of(n: u8) -> TaskStatus {
    match n {
        1 => TaskStatus::Completed,
        2 => TaskStatus::Skipped,
        _ => TaskStatus::Pending,
    }
}

/// A visit's task statuses, in the state's order: as runs (a status and how many in a row: a
/// strict state's done tasks and pending ones are two runs, whatever their number), or two bits
/// each, whichever is shorter. A flag byte first: 1 bits, 2 runs (0: the tasks are in the JSON).
fn write_statuses(tasks: &[crate::runtime::TaskProgress], out: &mut Bytes) {
    let mut runs: Vec<(u8, usize)> = Vec::new();
    for t in tasks {
        let n = status_number(t.status);
        match runs.last_mut() {
            Some((last, count)) if *last == n => *count += 1,
            _ => runs.push((n, 1)),
        }
    }
    if runs.len() * 5 < tasks.len().div_ceil(4) {
        out.byte(2);
        out.count(runs.len());
        for (n, count) in runs {
            out.byte(n);
            out.count(count);
        }
    } else {
        out.byte(1);
        for four in tasks.chunks(4) {
            let mut b = 0u8;
            for (i, t) in four.iter().enumerate() {
                b |= status_number(t.status) << (2 * i);
            }
            out.byte(b);
        }
    }
}

/// The statuses [`write_statuses`] wrote for `n` tasks; none when the tasks are in the JSON.
fn read_statuses(r: &mut Reader<'_>, n: usize) -> Option<Vec<TaskStatus>> {
    match r.byte() {
        1 => {
            let mut out = Vec::with_capacity(n);
            for start in (0..n).step_by(4) {
                let b = r.byte();
                for i in 0..(n - start).min(4) {
                    out.push(status_of((b >> (2 * i)) & 3));
                }
            }
            Some(out)
        }
        2 => {
            let mut out = Vec::with_capacity(n);
            for _ in 0..r.count() {
                let status = status_of(r.byte());
                let count = r.count().min(n - out.len());
                out.extend(std::iter::repeat_n(status, count));
            }
            Some(out)
        }
        _ => None,
    }
}

/// Reads back what [`Bytes`] wrote, in the same order (the bytes never leave the search, so they
/// are always whole).
struct Reader<'b> {
    bytes: &'b [u8],
    at: usize,
}

impl Reader<'_> {
    fn take(&mut self, n: usize) -> &[u8] {
        let end = (self.at + n).min(self.bytes.len());
        let part = &self.bytes[self.at..end];
        self.at = end;
        part
    }
    fn byte(&mut self) -> u8 {
        self.take(1).first().copied().unwrap_or_default()
    }
    fn eight(&mut self) -> [u8; 8] {
        self.take(8).try_into().unwrap_or_default()
    }
    fn count(&mut self) -> usize {
        let four: [u8; 4] = self.take(4).try_into().unwrap_or_default();
        u32::from_le_bytes(four) as usize
    }
    fn text(&mut self) -> String {
        let n = self.count();
        String::from_utf8_lossy(self.take(n)).into_owned()
    }
    fn value(&mut self) -> Value {
        match self.byte() {
            1 => Value::Bool(false),
            2 => Value::Bool(true),
            3 => Value::from(i64::from_le_bytes(self.eight())),
            4 => Value::from(u64::from_le_bytes(self.eight())),
            5 => Number::from_f64(f64::from_bits(u64::from_le_bytes(self.eight())))
                .map_or(Value::Null, Value::Number),
            6 => Value::String(self.text()),
            7 => Value::Array((0..self.count()).map(|_| self.value()).collect()),
            8 => Value::Object(
                (0..self.count())
                    .map(|_| (self.text(), self.value()))
                    .collect(),
            ),
            _ => Value::Null,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_session_comes_back_as_it_was_packed() {
        use crate::runtime::{Chat, Simulator, Start};
        let plan = crate::synthetic::plan(2);
        let (chat, _) = Chat::open_from(
            &plan,
            &Simulator,
            super::super::plan_ref(&plan),
            &Start::default(),
        )
        .expect("the plan opens");
        let mut s = chat.session;
        for (i, v) in [
            serde_json::json!("text"),
            serde_json::json!(-3),
            serde_json::json!(18_446_744_073_709_551_615u64),
            serde_json::json!(2.5),
            serde_json::json!(true),
            serde_json::json!(null),
            serde_json::json!([1, "two", {"three": 3.0}]),
        ]
        .into_iter()
        .enumerate()
        {
            s.deliverables.insert(
                format!("key_{i}"),
                Recorded {
                    value: v,
                    state_id: "intake".into(),
                    turn: i as u32,
                    quote: (i % 2 == 0).then(|| format!("said {i}")),
                },
            );
        }
        let reads = Reads::of(&plan);
        // Keys the plan knows go by number, the others by name.
        assert!(reads.key_number("topic_0").is_some() && reads.key_number("key_0").is_none());
        s.deliverables.insert(
            "topic_0".into(),
            Recorded {
                value: serde_json::json!("billing"),
                state_id: String::new(),
                turn: 3,
                quote: None,
            },
        );
        assert_eq!(
            Stored::pack(s.clone(), 0, &reads).unpack(&reads),
            Some(s.clone())
        );
        // Tasks by their statuses alone (two bits each), every status; and a visit whose tasks
        // are not its state's in order keeps them whole.
        assert!(!s.visit.tasks.is_empty());
        let statuses = [
            TaskStatus::Completed,
            TaskStatus::Skipped,
            TaskStatus::Pending,
        ];
        for (i, t) in s.visit.tasks.iter_mut().enumerate() {
            t.status = statuses[i % 3];
        }
        let packed = Stored::pack(s.clone(), 0, &reads);
        let packed_size = packed.size();
        let json_tasks = serde_json::to_vec(&s.visit.tasks).unwrap().len();
        assert_eq!(packed.unpack(&reads), Some(s.clone()));
        // A strict state's statuses, done ones first: a few runs, whatever the number of tasks.
        let mut runs = s.clone();
        let half = runs.visit.tasks.len() / 2;
        for (i, t) in runs.visit.tasks.iter_mut().enumerate() {
            t.status = if i < half {
                TaskStatus::Completed
            } else {
                TaskStatus::Pending
            };
        }
        assert_eq!(
            Stored::pack(runs.clone(), 0, &reads).unpack(&reads),
            Some(runs)
        );
        let mut reordered = s.clone();
        reordered.visit.tasks.reverse();
        let whole = Stored::pack(reordered, 0, &reads);
        assert!(s.visit.tasks.len() > 1 && whole.size() - packed_size > json_tasks / 2);
        s.visit.tasks.reverse();
        assert_eq!(Stored::pack(s.clone(), 0, &reads).unpack(&reads), Some(s));
    }

    #[test]
    fn many_tasks_pack_as_runs_or_bits_whichever_is_shorter_and_come_back() {
        use crate::runtime::{Chat, Simulator, Start};
        let tasks: Vec<serde_json::Value> = (0..401)
            .map(|i| serde_json::json!({"id": format!("t{i}")}))
            .collect();
        let plan = crate::parse::parse_plan(
            &serde_json::json!({"id": "p", "title": "P", "states": [
                {"id": "a", "title": "A", "type": "strict", "tasks": tasks}]})
            .to_string(),
        )
        .expect("a plan");
        let (chat, _) = Chat::open_from(
            &plan,
            &Simulator,
            super::super::plan_ref(&plan),
            &Start::default(),
        )
        .expect("it opens");
        let reads = Reads::of(&plan);
        let mut s = chat.session;
        assert_eq!(s.visit.tasks.len(), 401);
        let size = |s: &Session| Stored::pack(s.clone(), 0, &reads).size();
        let all_pending = size(&s);
        for (i, t) in s.visit.tasks.iter_mut().enumerate() {
            t.status = match i {
                0..=199 => TaskStatus::Completed,
                200..=209 => TaskStatus::Skipped,
                _ => TaskStatus::Pending,
            };
        }
        // Three runs: a few bytes more than one, whatever the number of tasks done.
        assert!(size(&s) <= all_pending + 10, "{} {all_pending}", size(&s));
        assert_eq!(
            Stored::pack(s.clone(), 0, &reads).unpack(&reads),
            Some(s.clone())
        );
        for (i, t) in s.visit.tasks.iter_mut().enumerate() {
            t.status = status_of((i % 3) as u8);
        }
        // Alternating: two bits each, 101 bytes.
        assert!(size(&s) <= all_pending + 101);
        assert_eq!(Stored::pack(s.clone(), 0, &reads).unpack(&reads), Some(s));
    }
}
