//! The syntax of templates: finding the tags of a text, reading each, and checking how they nest
//! ([`read_tags`]), shared by parsing and scanning so that the two cannot disagree.

use super::{Name, TemplateError};

pub(super) fn unknown_tag(inner: &str) -> String {
    format!(
        "unknown tag {{{{{inner}}}}} (use session.state.ID, deliverable.KEY, if, else or endif)"
    )
}

/// A name a template reads, borrowed from its text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NameRef<'t> {
    /// `session.state.ID`.
    SessionState(&'t str),
    /// `deliverables.KEY`.
    Deliverable(&'t str),
}

pub(super) fn read_name_ref(word: &str) -> Result<NameRef<'_>, String> {
    if let Some(id) = word.strip_prefix("session.state.") {
        if crate::parse::is_key(id) {
            return Ok(NameRef::SessionState(id));
        }
    }
    if let Some(key) = word.strip_prefix("deliverable.") {
        if crate::parse::is_key(key) {
            return Ok(NameRef::Deliverable(key));
        }
    }
    Err(unknown_tag(word))
}

impl NameRef<'_> {
    pub(super) fn to_name(self) -> Name {
        match self {
            NameRef::SessionState(id) => Name::SessionState(id.to_string()),
            NameRef::Deliverable(key) => Name::Deliverable(key.to_string()),
        }
    }
}

/// One tag, as read from between `{{` and `}}`.
pub(super) enum Tag<'t> {
    /// `{{ "{{" }}`: the two characters themselves.
    Braces,
    /// `{{if}}` with `not` negations before its test.
    If {
        not: usize,
        test: Test<'t>,
    },
    Else,
    Endif,
    Write(NameRef<'t>),
}

/// What an `{{if}}` tests, under its `not`s.
pub(super) enum Test<'t> {
    /// The value is truthy.
    Value(NameRef<'t>),
    /// `isActive session.state.ID`.
    Active(&'t str),
}

/// Reads the tags of `text` in order and checks how they nest, handing each to `on_tag` with the
/// text before it; answers where the text after the last tag begins. The one reading of the
/// syntax, shared by [`Template::parse`] and [`Template::scan`], so they cannot disagree.
pub(super) fn read_tags<'t>(
    text: &'t str,
    mut on_tag: impl FnMut(&'t str, Tag<'t>),
) -> Result<usize, TemplateError> {
    // Each open `{{if}}`: where it is, and whether its `{{else}}` came. On the stack up to a depth
    // no plan reaches, so that reading a text allocates nothing (validation reads 10,000).
    let mut open = Open::default();
    let mut rest = 0;
    while let Some(found) = find_pair(&text[rest..], b'{') {
        let start = rest + found;
        // Where the tag is, worked out only for an error: this runs for every tag rendered.
        let error = |message: String| {
            let at = line_column(text, start);
            TemplateError {
                line: at.0,
                column: at.1,
                message,
            }
        };
        let Some(len) = find_pair(&text[start + 2..], b'}') else {
            return Err(error(
                "\"{{\" opens a tag that is never closed with \"}}\" (write {{ \"{{\" }} for the characters themselves)".into(),
            ));
        };
        let tag = read_tag(trim(&text[start + 2..start + 2 + len])).map_err(error)?;
        match tag {
            Tag::If { .. } => open.push((start, false)),
            Tag::Else => match open.last_mut() {
                Some((_, seen)) if !*seen => *seen = true,
                Some(_) => return Err(error("a second {{else}} in the same {{if}}".into())),
                None => return Err(error("{{else}} without an {{if}} before it".into())),
            },
            Tag::Endif => {
                if open.pop().is_none() {
                    return Err(error("{{endif}} without an {{if}} before it".into()));
                }
            }
            Tag::Braces | Tag::Write(_) => {}
        }
        on_tag(&text[rest..start], tag);
        rest = start + 2 + len + 2;
    }
    if let Some(&mut (start, _)) = open.last_mut() {
        let at = line_column(text, start);
        return Err(TemplateError {
            line: at.0,
            column: at.1,
            message: "this {{if}} has no {{endif}}".into(),
        });
    }
    Ok(rest)
}

/// The open `{{if}}`s of a text, innermost last: a fixed array, then a list past its depth.
#[derive(Default)]
struct Open {
    first: [(usize, bool); 8],
    len: usize,
    deeper: Vec<(usize, bool)>,
}

impl Open {
    fn push(&mut self, entry: (usize, bool)) {
        if self.len < self.first.len() {
            self.first[self.len] = entry;
        } else {
            self.deeper.push(entry);
        }
        self.len += 1;
    }

    fn pop(&mut self) -> Option<(usize, bool)> {
        self.len = self.len.checked_sub(1)?;
        match self.deeper.pop() {
            Some(entry) => Some(entry),
            None => Some(self.first[self.len]),
        }
    }

    fn last_mut(&mut self) -> Option<&mut (usize, bool)> {
        match self.len {
            0 => None,
            n if n > self.first.len() => self.deeper.last_mut(),
            n => Some(&mut self.first[n - 1]),
        }
    }
}

/// One tag's text (trimmed) read as a tag.
pub(super) fn read_tag(inner: &str) -> Result<Tag<'_>, String> {
    let mut words = words(inner);
    let first = words.next();
    let alone = words.clone().next().is_none();
    match first {
        Some("\"{{\"") if alone => Ok(Tag::Braces),
        Some("if") => {
            let mut not = 0;
            let mut rest = words.clone();
            while rest.clone().next() == Some("not") {
                rest.next();
                not += 1;
            }
            let mut test = rest.clone();
            let test = match (test.next(), test.next(), test.next()) {
                (None, _, _) => return Err("{{if}} needs a condition: session.state.ID, deliverable.KEY, isActive session.state.ID, or not …".into()),
                (Some("isActive"), Some(name), None) => match read_name_ref(name)? {
                    NameRef::SessionState(id) => Test::Active(id),
                    NameRef::Deliverable(_) => {
                        return Err("isActive reads a session state: isActive session.state.ID".into())
                    }
                },
                (Some(name), None, _) => Test::Value(read_name_ref(name)?),
                _ => {
                    return Err(format!(
                        "cannot read the condition \"{}\" (use session.state.ID, deliverable.KEY, isActive session.state.ID, or not …)",
                        rest.collect::<Vec<_>>().join(" ")
                    ))
                }
            };
            Ok(Tag::If { not, test })
        }
        Some("else") if alone => Ok(Tag::Else),
        Some("endif") if alone => Ok(Tag::Endif),
        Some(name) if alone => Ok(Tag::Write(read_name_ref(name)?)),
        _ => Err(unknown_tag(inner)),
    }
}

/// Where `{{` (or `}}`) first occurs. `str::find` with a two-character pattern builds a substring
/// searcher on every call, and validation calls this a few times in each of 10,000 instructions:
/// that was 12 % of the synthetic plan's validation (callgrind); a byte loop still 10 %, memchr's
/// SIMD search a few.
pub(super) fn find_pair(text: &str, brace: u8) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut from = 0;
    while let Some(at) = memchr::memchr(brace, &bytes[from..]) {
        let at = from + at;
        if bytes.get(at + 1) == Some(&brace) {
            return Some(at);
        }
        from = at + 1;
    }
    None
}

/// The white space of a tag, as `char::is_whitespace` has it among ASCII characters.
pub(super) fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | 0x0B | 0x0C | b'\r')
}

/// A tag's text without the white space around it. Byte by byte when it is ASCII (every tag a
/// plan is likely to hold): `str::trim` and `split_whitespace` decode each character to ask
/// Unicode, which was a third of the scan's time on the synthetic plan (callgrind).
pub(super) fn trim(inner: &str) -> &str {
    if !inner.is_ascii() {
        return inner.trim();
    }
    let b = inner.as_bytes();
    let start = b.iter().position(|&c| !is_space(c)).unwrap_or(b.len());
    let end = b
        .iter()
        .rposition(|&c| !is_space(c))
        .map_or(start, |e| e + 1);
    &inner[start..end]
}

/// The words of a tag (see [`trim`] for why byte by byte).
pub(super) fn words(inner: &str) -> Words<'_> {
    if inner.is_ascii() {
        Words::Ascii(inner)
    } else {
        Words::Any(inner.split_whitespace())
    }
}

#[derive(Clone)]
pub(super) enum Words<'a> {
    /// What is left of an ASCII tag.
    Ascii(&'a str),
    Any(std::str::SplitWhitespace<'a>),
}

impl<'a> Iterator for Words<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        match self {
            Words::Any(words) => words.next(),
            Words::Ascii(rest) => {
                let b = rest.as_bytes();
                let start = b.iter().position(|&c| !is_space(c))?;
                let end = b[start..]
                    .iter()
                    .position(|&c| is_space(c))
                    .map_or(b.len(), |e| start + e);
                let word = &rest[start..end];
                *rest = &rest[end..];
                Some(word)
            }
        }
    }
}

pub(super) fn line_column(text: &str, at: usize) -> (usize, usize) {
    let before = &text[..at];
    let line = before.matches('\n').count() + 1;
    let column = before
        .rfind('\n')
        .map_or(before.chars().count(), |n| before[n + 1..].chars().count())
        + 1;
    (line, column)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ifs_nested_deeper_than_the_stack_array_still_nest() {
        let depth = 12;
        let text = format!(
            "{}x{}",
            "{{if session.state.a}}".repeat(depth),
            "{{else}}y{{endif}}".repeat(depth)
        );
        let mut ifs = 0;
        assert!(read_tags(&text, |_, t| ifs +=
            usize::from(matches!(t, Tag::If { .. })))
        .is_ok());
        assert_eq!(ifs, depth);
        let unclosed = format!(
            "{}{}",
            "{{if session.state.a}}".repeat(depth),
            "{{endif}}".repeat(depth - 1)
        );
        let e = read_tags(&unclosed, |_, _| {}).expect_err("one if is not closed");
        assert_eq!(e.message, "this {{if}} has no {{endif}}");
        let twice = format!(
            "{}{{{{else}}}}{{{{else}}}}{}",
            "{{if session.state.a}}".repeat(depth),
            "{{endif}}".repeat(depth)
        );
        assert!(read_tags(&twice, |_, _| {}).is_err());
    }
}
