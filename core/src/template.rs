//! Templates in instruction texts (`docs/session-states.md`, "Templates"): `{{session.state.ID}}`
//! and `{{deliverable.KEY}}` write a value; `{{if EXPR}}…{{else}}…{{endif}}` keeps one branch.
//!
//! A template is parsed once into a tree ([`Template::parse`]); the validator asks it which names
//! it uses ([`Template::uses`]), the runtime renders it against a session through [`Lookup`]. A
//! text without `{{` is one literal and costs one scan. Rendering never fails: a text that does
//! not parse (a draft the validator reports as `template-syntax`) is written as it stands.

mod syntax;

use serde_json::Value;
use std::fmt::Write as _;

pub use syntax::NameRef;
use syntax::{find_pair, read_tags, Tag, Test};
#[cfg(test)]
use syntax::{trim, words};

/// A name a template reads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Name {
    /// `session.state.ID`: a session state's value.
    SessionState(String),
    /// `deliverables.KEY`: a collected value.
    Deliverable(String),
}

/// A condition of `{{if}}`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Expr {
    /// The value is truthy.
    Value(Name),
    /// `isActive session.state.ID`.
    Active(String),
    /// The opposite of a condition.
    Not(Box<Expr>),
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Part {
    Text(String),
    Write(Name),
    If {
        expr: Expr,
        then: Vec<Part>,
        otherwise: Vec<Part>,
    },
}

/// A parsed template.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Template {
    parts: Vec<Part>,
}

/// Why a template cannot be read, and where: 1-based line and column inside the field.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TemplateError {
    /// The line of the problem (1-based).
    pub line: usize,
    /// The column of the problem (1-based).
    pub column: usize,
    /// What is wrong, in words.
    pub message: String,
}

impl std::fmt::Display for TemplateError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "line {}, column {}: {}",
            self.line, self.column, self.message
        )
    }
}

/// One name a template uses, and whether through `isActive` (which relies on it being switched on).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Use {
    /// The name read.
    pub name: Name,
    /// Whether it is read by `isActive` (the flag, not the value).
    pub is_active: bool,
}

/// What rendering reads from a session.
pub trait Lookup {
    /// The value of a session state (`None`: no value, or no such state).
    fn session_value(&self, id: &str) -> Option<&Value>;
    /// Whether session state `id` is active.
    fn is_active(&self, id: &str) -> bool;
    /// The value collected for `key`, if any.
    fn deliverable(&self, key: &str) -> Option<&Value>;
}

impl Template {
    /// Whether a text has anything a template would treat specially.
    pub fn is_plain(text: &str) -> bool {
        find_pair(text, b'{').is_none()
    }

    /// Parses `text`, or says where its syntax is wrong.
    pub fn parse(text: &str) -> Result<Template, TemplateError> {
        // Each open `{{if}}`: its condition, its `then` once its `{{else}}` came, and the parts
        // around it. `read_tags` has checked the nesting before it hands over a tag.
        let mut stack: Vec<(Expr, Option<Vec<Part>>, Vec<Part>)> = Vec::new();
        let mut parts: Vec<Part> = Vec::new();
        let rest = read_tags(text, |before, tag| {
            if !before.is_empty() {
                parts.push(Part::Text(before.to_string()));
            }
            match tag {
                Tag::Braces => parts.push(Part::Text("{{".into())),
                Tag::If { not, test } => {
                    let mut expr = match test {
                        Test::Value(name) => Expr::Value(name.to_name()),
                        Test::Active(id) => Expr::Active(id.to_string()),
                    };
                    for _ in 0..not {
                        expr = Expr::Not(Box::new(expr));
                    }
                    stack.push((expr, None, std::mem::take(&mut parts)));
                }
                Tag::Else => {
                    if let Some((_, then, _)) = stack.last_mut() {
                        *then = Some(std::mem::take(&mut parts));
                    }
                }
                Tag::Endif => {
                    if let Some((expr, then, outer)) = stack.pop() {
                        let inner = std::mem::replace(&mut parts, outer);
                        let (then, otherwise) = match then {
                            Some(then) => (then, inner),
                            None => (inner, Vec::new()),
                        };
                        parts.push(Part::If {
                            expr,
                            then,
                            otherwise,
                        });
                    }
                }
                Tag::Write(name) => parts.push(Part::Write(name.to_name())),
            }
        })?;
        if rest < text.len() {
            parts.push(Part::Text(text[rest..].to_string()));
        }
        Ok(Template { parts })
    }

    /// Checks `text` as [`Template::parse`] does (the same reading of the same tags, so the same
    /// errors) and reports each name it reads, borrowed from the text, with whether through
    /// `isActive`; builds nothing: what the validator needs of every instruction text of a large
    /// plan, without an allocation per tag.
    pub fn scan<'t>(
        text: &'t str,
        on_use: &mut dyn FnMut(NameRef<'t>, bool),
    ) -> Result<(), TemplateError> {
        read_tags(text, |_, tag| match tag {
            Tag::If {
                test: Test::Value(name),
                ..
            }
            | Tag::Write(name) => on_use(name, false),
            Tag::If {
                test: Test::Active(id),
                ..
            } => on_use(NameRef::SessionState(id), true),
            Tag::Braces | Tag::Else | Tag::Endif => {}
        })
        .map(drop)
    }

    /// Every name the template reads, in order.
    pub fn uses(&self) -> Vec<Use> {
        let mut out = Vec::new();
        uses_in(&self.parts, &mut out);
        out
    }

    /// The text with every name and condition filled in from `lookup`.
    pub fn render(&self, lookup: &dyn Lookup) -> String {
        let mut out = String::new();
        render_parts(&self.parts, lookup, &mut out);
        out
    }

    /// Every name in the template renamed by `rename` (which returns `None` to keep one), written
    /// back as text. Tags are written in their canonical spelling; the text between them is kept.
    pub fn write_renamed(&self, rename: &dyn Fn(&Name) -> Option<Name>) -> String {
        let mut out = String::new();
        write_parts(&self.parts, rename, &mut out);
        out
    }
}

/// Renders `text` as a template; a text that does not parse is returned as it stands.
pub fn render_text(text: &str, lookup: &dyn Lookup) -> String {
    if Template::is_plain(text) {
        return text.to_string();
    }
    match Template::parse(text) {
        Ok(t) => t.render(lookup),
        Err(_) => text.to_string(),
    }
}

fn uses_in(parts: &[Part], out: &mut Vec<Use>) {
    for p in parts {
        match p {
            Part::Text(_) => {}
            Part::Write(name) => out.push(Use {
                name: name.clone(),
                is_active: false,
            }),
            Part::If {
                expr,
                then,
                otherwise,
            } => {
                expr_uses(expr, out);
                uses_in(then, out);
                uses_in(otherwise, out);
            }
        }
    }
}

fn expr_uses(expr: &Expr, out: &mut Vec<Use>) {
    match expr {
        Expr::Value(name) => out.push(Use {
            name: name.clone(),
            is_active: false,
        }),
        Expr::Active(id) => out.push(Use {
            name: Name::SessionState(id.clone()),
            is_active: true,
        }),
        Expr::Not(inner) => expr_uses(inner, out),
    }
}

fn value_of<'l>(name: &Name, lookup: &'l dyn Lookup) -> Option<&'l Value> {
    match name {
        Name::SessionState(id) => lookup.session_value(id),
        Name::Deliverable(key) => lookup.deliverable(key),
    }
}

fn holds(expr: &Expr, lookup: &dyn Lookup) -> bool {
    match expr {
        Expr::Value(name) => value_of(name, lookup).is_some_and(truthy),
        Expr::Active(id) => lookup.is_active(id),
        Expr::Not(inner) => !holds(inner, lookup),
    }
}

/// `true`, a number other than 0, non-empty text, a non-empty list; no value is false.
pub fn truthy(v: &Value) -> bool {
    match v {
        Value::Null => false,
        Value::Bool(b) => *b,
        Value::Number(n) => n.as_f64().is_some_and(|x| x != 0.0),
        Value::String(s) => !s.is_empty(),
        Value::Array(items) => !items.is_empty(),
        Value::Object(m) => !m.is_empty(),
    }
}

/// A value as a template writes it: `true`/`false`, `3` not `3.0`, text as is, lists joined with
/// `", "`, no value as nothing.
pub fn write_value(v: &Value, out: &mut String) {
    match v {
        Value::Null => {}
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => match n.as_f64() {
            Some(x) if n.is_f64() => out.push_str(&crate::condition::num(x)),
            _ => out.push_str(&n.to_string()),
        },
        Value::String(s) => out.push_str(s),
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_value(item, out);
            }
        }
        Value::Object(_) => out.push_str(&v.to_string()),
    }
}

fn render_parts(parts: &[Part], lookup: &dyn Lookup, out: &mut String) {
    for p in parts {
        match p {
            Part::Text(t) => out.push_str(t),
            Part::Write(name) => {
                if let Some(v) = value_of(name, lookup) {
                    write_value(v, out);
                }
            }
            Part::If {
                expr,
                then,
                otherwise,
            } => {
                let branch = if holds(expr, lookup) { then } else { otherwise };
                render_parts(branch, lookup, out);
            }
        }
    }
}

fn name_text(name: &Name) -> String {
    match name {
        Name::SessionState(id) => format!("session.state.{id}"),
        Name::Deliverable(key) => format!("deliverable.{key}"),
    }
}

fn expr_text(expr: &Expr, rename: &dyn Fn(&Name) -> Option<Name>) -> String {
    let renamed = |n: &Name| rename(n).unwrap_or_else(|| n.clone());
    match expr {
        Expr::Value(name) => name_text(&renamed(name)),
        Expr::Active(id) => match renamed(&Name::SessionState(id.clone())) {
            Name::SessionState(id) => format!("isActive session.state.{id}"),
            other => format!("isActive {}", name_text(&other)),
        },
        Expr::Not(inner) => format!("not {}", expr_text(inner, rename)),
    }
}

fn write_parts(parts: &[Part], rename: &dyn Fn(&Name) -> Option<Name>, out: &mut String) {
    for p in parts {
        match p {
            Part::Text(t) => {
                // A literal `{{` came from `{{ "{{" }}`, and is written back that way.
                out.push_str(&t.replace("{{", "{{ \"{{\" }}"));
            }
            Part::Write(name) => {
                let name = rename(name).unwrap_or_else(|| name.clone());
                let _ = write!(out, "{{{{{}}}}}", name_text(&name));
            }
            Part::If {
                expr,
                then,
                otherwise,
            } => {
                let _ = write!(out, "{{{{if {}}}}}", expr_text(expr, rename));
                write_parts(then, rename, out);
                if !otherwise.is_empty() {
                    out.push_str("{{else}}");
                    write_parts(otherwise, rename, out);
                }
                out.push_str("{{endif}}");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use std::collections::BTreeMap;

    #[derive(Default)]
    struct Values {
        states: BTreeMap<String, (Value, bool)>,
        deliverables: BTreeMap<String, Value>,
    }

    impl Lookup for Values {
        fn session_value(&self, id: &str) -> Option<&Value> {
            self.states.get(id).map(|(v, _)| v).filter(|v| !v.is_null())
        }
        fn is_active(&self, id: &str) -> bool {
            self.states.get(id).is_some_and(|(_, a)| *a)
        }
        fn deliverable(&self, key: &str) -> Option<&Value> {
            self.deliverables.get(key)
        }
    }

    fn render(text: &str, v: &Values) -> String {
        Template::parse(text).unwrap().render(v)
    }

    #[test]
    fn values_are_written_as_the_spec_says() {
        let mut v = Values::default();
        v.states.insert("n".into(), (json!(3.0), true));
        v.states.insert("b".into(), (json!(true), false));
        v.states.insert("l".into(), (json!(["a", "b"]), false));
        v.deliverables.insert("name".into(), json!("Ada"));
        assert_eq!(
            render(
                "{{session.state.n}} {{ session.state.b }} {{session.state.l}} {{deliverable.name}} [{{session.state.none}}]",
                &v
            ),
            "3 true a, b Ada []"
        );
    }

    #[test]
    fn conditions_choose_a_branch_to_any_depth() {
        let mut v = Values::default();
        v.states.insert("upsell".into(), (Value::Null, true));
        v.states.insert("n".into(), (json!(0), false));
        let t = "{{ if not isActive session.state.upsell }}A{{else}}B{{if session.state.n}}C{{else}}D{{endif}}{{endif}}";
        assert_eq!(render(t, &v), "BD");
        assert_eq!(render("{{ \"{{\" }} and }}", &v), "{{ and }}");
    }

    #[test]
    fn syntax_errors_give_line_and_column() {
        let e = Template::parse("one\n  {{if session.state.a}}x").unwrap_err();
        assert_eq!((e.line, e.column), (2, 3));
        assert!(e.message.contains("no {{endif}}"));
        let e = Template::parse("{{endif}}").unwrap_err();
        assert!(e.message.contains("without an {{if}}"));
        let e = Template::parse("a {{ user.name }}").unwrap_err();
        assert_eq!((e.line, e.column), (1, 3));
        assert!(e.message.contains("unknown tag"));
        assert!(Template::parse("{{else}}").is_err());
        assert!(Template::parse("{{ if }}x{{endif}}").is_err());
    }

    #[test]
    fn a_tag_is_split_and_trimmed_as_unicode_white_space_has_it() {
        for inner in [
            "",
            "   ",
            " if not\tisActive\x0Bsession.state.a\r\n",
            "deliverable.k",
            "if\u{a0}x  ",
            "\u{2003} else ",
        ] {
            assert_eq!(trim(inner), inner.trim(), "{inner:?}");
            let ours: Vec<&str> = words(inner).collect();
            let std: Vec<&str> = inner.split_whitespace().collect();
            assert_eq!(ours, std, "{inner:?}");
        }
    }

    #[test]
    fn scanning_agrees_with_parsing() {
        for text in [
            "plain",
            "{{session.state.a}} {{if not isActive session.state.b}}x{{else}}y{{endif}}",
            "{{if not not deliverable.k}}{{endif}}",
            "{{if}}",
            "{{if isActive deliverable.k}}{{endif}}",
            "{{if session.state.a b}}{{endif}}",
            "{{else}}",
            "{{if session.state.a}}{{else}}{{else}}{{endif}}",
            "{{endif}}",
            "{{ user.name }}",
            "{{ \"{{\" }}",
            "a {{if session.state.a}}",
            "{{session.state.a",
            "{{if not isActive not session.state.a}}{{endif}}",
            "{{if isActive isActive session.state.a}}{{endif}}",
            "{{if isActive}}{{endif}}",
            "{{}}",
            "a {{ \"{{\" x }}",
        ] {
            let mut seen = Vec::new();
            let scanned = Template::scan(text, &mut |n, active| {
                seen.push(match n {
                    NameRef::SessionState(id) => (Name::SessionState(id.into()), active),
                    NameRef::Deliverable(k) => (Name::Deliverable(k.into()), active),
                })
            });
            match Template::parse(text) {
                Ok(t) => {
                    assert_eq!(scanned, Ok(()), "{text}");
                    let uses: Vec<(Name, bool)> = t
                        .uses()
                        .into_iter()
                        .map(|u| (u.name, u.is_active))
                        .collect();
                    assert_eq!(seen, uses, "{text}");
                }
                Err(e) => assert_eq!(scanned, Err(e), "{text}"),
            }
        }
    }

    #[test]
    fn a_not_after_is_active_or_a_second_is_active_is_refused() {
        for text in [
            "{{if not isActive not session.state.a}}{{endif}}",
            "{{if isActive isActive session.state.a}}{{endif}}",
        ] {
            let e = Template::parse(text).expect_err(text);
            assert!(
                e.message.starts_with("cannot read the condition"),
                "{text}: {e}"
            );
        }
    }

    #[test]
    fn renaming_rewrites_only_the_named_tags() {
        let t = Template::parse(
            "Hi {{deliverable.a}} {{if isActive session.state.a}}on{{endif}} {{ \"{{\" }}",
        )
        .unwrap();
        let out = t.write_renamed(&|n| match n {
            Name::SessionState(id) if id == "a" => Some(Name::SessionState("b".into())),
            _ => None,
        });
        assert_eq!(
            out,
            "Hi {{deliverable.a}} {{if isActive session.state.b}}on{{endif}} {{ \"{{\" }}"
        );
    }
}
