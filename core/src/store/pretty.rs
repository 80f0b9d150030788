//! Indented JSON, written fast: the same text as serde_json's pretty printer (two spaces), with
//! each line's newline and indentation written as one slice instead of one write per level.
//! Drafts are saved this way so that a workspace kept in git diffs line by line.

use std::io::{self, Write};

use serde::Serialize;
use serde_json::ser::Formatter;

/// Newline followed by enough spaces for any depth a plan reaches (deeper levels are repeated).
const INDENT: &[u8] = b"\n                                                                ";

struct Pretty {
    level: usize,
    has_value: bool,
}

impl Pretty {
    fn newline<W: ?Sized + Write>(&self, w: &mut W) -> io::Result<()> {
        let mut spaces = self.level * 2;
        let first = spaces.min(INDENT.len() - 1);
        w.write_all(&INDENT[..first + 1])?;
        spaces -= first;
        while spaces > 0 {
            let n = spaces.min(INDENT.len() - 1);
            w.write_all(&INDENT[1..n + 1])?;
            spaces -= n;
        }
        Ok(())
    }
}

impl Formatter for Pretty {
    fn begin_array<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.level += 1;
        self.has_value = false;
        w.write_all(b"[")
    }

    fn end_array<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.level -= 1;
        if self.has_value {
            self.newline(w)?;
        }
        w.write_all(b"]")
    }

    fn begin_array_value<W: ?Sized + Write>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
        if !first {
            w.write_all(b",")?;
        }
        self.newline(w)
    }

    fn end_array_value<W: ?Sized + Write>(&mut self, _w: &mut W) -> io::Result<()> {
        self.has_value = true;
        Ok(())
    }

    fn begin_object<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.level += 1;
        self.has_value = false;
        w.write_all(b"{")
    }

    fn end_object<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.level -= 1;
        if self.has_value {
            self.newline(w)?;
        }
        w.write_all(b"}")
    }

    fn begin_object_key<W: ?Sized + Write>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
        if !first {
            w.write_all(b",")?;
        }
        self.newline(w)
    }

    fn begin_object_value<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        w.write_all(b": ")
    }

    fn end_object_value<W: ?Sized + Write>(&mut self, _w: &mut W) -> io::Result<()> {
        self.has_value = true;
        Ok(())
    }
}

/// `value` as indented JSON with a final newline; `capacity` is a guess of its size.
pub fn to_vec(value: &impl Serialize, capacity: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(capacity);
    let mut ser = serde_json::Serializer::with_formatter(
        &mut out,
        Pretty {
            level: 0,
            has_value: false,
        },
    );
    // Plans hold only strings, numbers, booleans and string-keyed maps: this cannot fail.
    let _ = value.serialize(&mut ser);
    out.push(b'\n');
    out
}

/// A plan document as the store writes it: indented, so that a workspace kept in git diffs line
/// by line, unless that passes [`PRETTY_LIMIT`] (a plan nested deep is mostly indentation: 333 KB
/// of JSON was 37.6 MB indented, past what any reader takes); then compact.
pub fn plan_document(plan: &crate::plan::Plan, capacity: usize) -> Vec<u8> {
    let pretty = to_vec(plan, capacity);
    if pretty.len() <= PRETTY_LIMIT {
        return pretty;
    }
    let mut compact = serde_json::to_vec(plan).unwrap_or_default();
    compact.push(b'\n');
    compact
}

/// The largest plan document written indented: 8 MiB, a quarter of what a reader takes.
pub const PRETTY_LIMIT: usize = 8 * 1024 * 1024;

#[cfg(test)]
mod tests {
    #[test]
    fn writes_exactly_what_serde_json_pretty_writes() {
        let plan = crate::synthetic::plan(12);
        let mut expected = serde_json::to_vec_pretty(&plan).unwrap();
        expected.push(b'\n');
        assert_eq!(super::to_vec(&plan, 16), expected);
        // Deeper than the indentation buffer, and empty containers.
        let deep: serde_json::Value = serde_json::from_str(&format!(
            "{{\"a\": {}1{}, \"b\": {{}}, \"c\": []}}",
            "[".repeat(40),
            "]".repeat(40)
        ))
        .unwrap();
        let mut expected = serde_json::to_vec_pretty(&deep).unwrap();
        expected.push(b'\n');
        assert_eq!(super::to_vec(&deep, 0), expected);
    }
}
