//! Personas (simulate.md, "Personas"): who a simulated caller is, what they know, how they behave,
//! and what must hold when their conversation is over. A persona is a file of its own beside the
//! plan (`personas/<id>.json`), read like a plan (syntax, then shape, each problem placed) and
//! checked against the plan it runs with: every state, key and session state it names exists.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::parse::{parse_object, ParseProblem, ProblemKind};
use crate::plan::Plan;
use crate::runtime::{Preset, Start};
use crate::validate::{Code, Diagnostic, Location, Severity};

/// The most turns a persona may stand, and how many when it does not say.
pub const MAX_TURNS_LIMIT: u32 = 100;
/// How many turns a caller stands when the persona does not say.
pub const MAX_TURNS_DEFAULT: u32 = 20;

/// One simulated caller.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Persona {
    /// Its file's name without `.json`: letters, digits, `-`, `_`, `.`, at most 100 characters.
    pub id: String,
    /// Its name in the author's words ("Hurried customer with a billing question").
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub title: String,
    /// Who the caller is and what they want: what the caller-model is told.
    pub who: String,
    /// What the caller knows and answers with, by name: text, numbers or true/false.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub facts: BTreeMap<String, Fact>,
    /// How the caller behaves: each adds a fixed sentence to what the caller-model is told.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub behaviour: Vec<Behaviour>,
    /// How many turns the caller stands (1 to 100).
    #[serde(default = "max_turns_default")]
    pub max_turns: u32,
    /// Where the conversation begins, as a script's `start`.
    #[serde(default, skip_serializing_if = "Start::is_plain")]
    pub start: Start,
    /// Exact checks of the conversation as it ran.
    #[serde(default, skip_serializing_if = "PersonaExpect::is_empty")]
    pub expect: PersonaExpect,
    /// Questions for the judge, answered yes or no about the whole conversation.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub judge: Vec<JudgeQuestion>,
}

fn max_turns_default() -> u32 {
    MAX_TURNS_DEFAULT
}

/// A fact's value: text, a number or true/false.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Fact {
    /// True or false.
    Bool(bool),
    /// A number.
    Number(serde_json::Number),
    /// Text.
    Text(String),
}

impl Fact {
    /// The value as the caller says it.
    pub fn said(&self) -> String {
        match self {
            Fact::Bool(b) => if *b { "yes" } else { "no" }.to_string(),
            Fact::Number(n) => n.to_string(),
            Fact::Text(t) => t.clone(),
        }
    }
}

/// A way of behaving, each told to the caller-model as one fixed sentence ([`Behaviour::sentence`]).
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Behaviour {
    /// Answers in as few words as possible.
    Terse,
    /// Says more than asked.
    Chatty,
    /// Changes an answer once.
    ChangesMind,
    /// Asks one unrelated question.
    SideQuestion,
    /// Refuses to answer once.
    RefusesOnce,
    /// Asks for a person.
    AsksForPerson,
    /// Wanders off topic.
    OffTopic,
}

impl Behaviour {
    /// Every behaviour, in the order the app lists them.
    pub const ALL: [Behaviour; 7] = [
        Behaviour::Terse,
        Behaviour::Chatty,
        Behaviour::ChangesMind,
        Behaviour::SideQuestion,
        Behaviour::RefusesOnce,
        Behaviour::AsksForPerson,
        Behaviour::OffTopic,
    ];

    /// Its name in files (`changes_mind`).
    pub fn as_str(self) -> &'static str {
        match self {
            Behaviour::Terse => "terse",
            Behaviour::Chatty => "chatty",
            Behaviour::ChangesMind => "changes_mind",
            Behaviour::SideQuestion => "side_question",
            Behaviour::RefusesOnce => "refuses_once",
            Behaviour::AsksForPerson => "asks_for_person",
            Behaviour::OffTopic => "off_topic",
        }
    }

    /// The sentence the caller-model is told (the program's own, documented in docs/simulate.md).
    pub fn sentence(self) -> &'static str {
        match self {
            Behaviour::Terse => "You answer in as few words as you can: never more than one short sentence.",
            Behaviour::Chatty => "You talk a lot: you add small details about yourself and your reasons to every answer.",
            Behaviour::ChangesMind => "Once in the call, after giving an answer, you change your mind and give a different one.",
            Behaviour::SideQuestion => "Once in the call, you ask a question unrelated to what you were just asked, then come back to it.",
            Behaviour::RefusesOnce => "The first time you are asked for something you know, you refuse to say it; asked again, you answer.",
            Behaviour::AsksForPerson => "At some point you ask to speak to a real person.",
            Behaviour::OffTopic => "Now and then you wander off topic before you answer.",
        }
    }
}

/// How a conversation ended, as a persona expects it.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EndingExpect {
    /// The plan reached a `complete` ending.
    Complete,
    /// The plan reached a `hang_up` ending.
    HangUp,
    /// The plan reached a `hand_off` ending.
    HandOff,
    /// The plan did not end (the caller hung up or ran out of patience).
    None,
}

impl EndingExpect {
    /// The word in files.
    pub fn as_str(self) -> &'static str {
        match self {
            EndingExpect::Complete => "complete",
            EndingExpect::HangUp => "hang_up",
            EndingExpect::HandOff => "hand_off",
            EndingExpect::None => "none",
        }
    }
}

/// What must hold of a persona's conversation when it is over; each field optional.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PersonaExpect {
    /// How the plan ended it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ending: Option<EndingExpect>,
    /// The state it ended in (the state it was in when it stopped).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ended_in: Option<String>,
    /// States it must have entered.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub visits: Vec<String>,
    /// States it must never have entered.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub never_visits: Vec<String>,
    /// Values that must be captured at the end, by key (coerced to each key's type).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub deliverables: BTreeMap<String, Value>,
    /// Session states' values and flags at the end, each field optional.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub session_states: BTreeMap<String, Preset>,
}

impl PersonaExpect {
    /// Whether it checks nothing.
    pub fn is_empty(&self) -> bool {
        *self == PersonaExpect::default()
    }
}

/// One question for the judge.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JudgeQuestion {
    /// Unique among the persona's questions.
    pub id: String,
    /// Answered yes or no ("Did the agent confirm the amount before booking?").
    pub question: String,
}

impl Persona {
    /// Its title, else its id.
    pub fn name(&self) -> &str {
        if self.title.trim().is_empty() {
            &self.id
        } else {
            &self.title
        }
    }
}

/// Whether `id` can name a persona file (as a test case's name: letters, digits, `-`, `_`, `.`,
/// not starting with a dot, at most 100 characters).
pub fn is_persona_id(id: &str) -> bool {
    let mut chars = id.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphanumeric())
        && id.len() <= 100
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
        && !id.contains("..")
}

/// A persona read from `text` (the file `personas/<file_id>.json`) and checked against `plan`:
/// the persona when it has no error, and every finding (all errors: a persona with one does not
/// run).
pub fn read_persona(text: &str, file_id: &str, plan: &Plan) -> (Option<Persona>, Vec<Diagnostic>) {
    let persona: Persona = match parse_object(text, "a persona") {
        Ok(p) => p,
        Err(problems) => return (None, problems.into_iter().map(from_problem).collect()),
    };
    let findings = check_persona(&persona, file_id, plan);
    if findings.is_empty() {
        (Some(persona), findings)
    } else {
        (None, findings)
    }
}

fn from_problem(p: ParseProblem) -> Diagnostic {
    let code = match p.kind {
        ProblemKind::InvalidJson | ProblemKind::MergedAsText => Code::InvalidJson,
        ProblemKind::Schema => Code::Schema,
    };
    let message = match p.line_column {
        Some((line, column)) => format!("Line {line}, column {column}: {}", p.message),
        None => p.message,
    };
    finding(code, message, p.pointer)
}

fn finding(code: Code, message: String, path: String) -> Diagnostic {
    Diagnostic {
        code,
        severity: Severity::Error,
        message,
        location: Location {
            path,
            ..Location::default()
        },
    }
}

/// What is wrong with `persona` beside `plan`: its shape beyond serde's (id, turns, questions)
/// and every state, key and session state it names.
pub fn check_persona(persona: &Persona, file_id: &str, plan: &Plan) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let mut push =
        |code: Code, message: String, path: String| out.push(finding(code, message, path));
    if persona.id != file_id {
        push(
            Code::Schema,
            format!("The persona's id is '{}' but its file is '{file_id}.json': a persona's id is its file's name. Make them the same.", persona.id),
            "/id".into(),
        );
    } else if !is_persona_id(&persona.id) {
        push(
            Code::Schema,
            format!("The persona id '{}' must be letters, digits, '-', '_' or '.', starting with a letter or digit, at most 100 characters.", persona.id),
            "/id".into(),
        );
    }
    if persona.who.trim().is_empty() {
        push(
            Code::Schema,
            "Say who the caller is and what they want: the model playing the caller is told only this, the facts and the behaviours.".into(),
            "/who".into(),
        );
    }
    if persona.max_turns == 0 || persona.max_turns > MAX_TURNS_LIMIT {
        push(
            Code::Schema,
            format!(
                "A caller stands from 1 to {MAX_TURNS_LIMIT} turns, not {}.",
                persona.max_turns
            ),
            "/max_turns".into(),
        );
    }
    let mut seen = std::collections::HashSet::new();
    for (i, q) in persona.judge.iter().enumerate() {
        if !crate::parse::is_slug(&q.id) {
            push(
                Code::Schema,
                format!("The judge question id '{}' must be lowercase letters, digits, '-' or '_', starting with a letter or digit.", q.id),
                format!("/judge/{i}/id"),
            );
        } else if !seen.insert(q.id.as_str()) {
            push(
                Code::Schema,
                format!(
                    "Two judge questions have the id '{}'. Give each its own id.",
                    q.id
                ),
                format!("/judge/{i}/id"),
            );
        }
        if q.question.trim().is_empty() {
            push(
                Code::EmptyEvaluationQuestion,
                format!(
                    "The judge question '{}' asks nothing. Write a question answered yes or no.",
                    q.id
                ),
                format!("/judge/{i}/question"),
            );
        }
    }
    let state = |id: &str| plan.state(id).is_some();
    let key = |k: &str| {
        plan.states
            .iter()
            .flat_map(|s| s.deliverables())
            .any(|d| d.key == k)
    };
    let session = |id: &str| plan.session_state(id).is_some();
    let mut states: Vec<(String, &String)> = Vec::new();
    if let Some(s) = &persona.start.state {
        states.push(("/start/state".into(), s));
    }
    if let Some(s) = &persona.expect.ended_in {
        states.push(("/expect/ended_in".into(), s));
    }
    for (i, s) in persona.expect.visits.iter().enumerate() {
        states.push((format!("/expect/visits/{i}"), s));
    }
    for (i, s) in persona.expect.never_visits.iter().enumerate() {
        states.push((format!("/expect/never_visits/{i}"), s));
    }
    for (path, id) in states {
        if !state(id) {
            push(
                Code::UnknownState,
                format!("The persona names the state '{id}', but the plan has no state with that id. Pick one of the plan's states."),
                path,
            );
        }
    }
    let keys = persona
        .start
        .deliverables
        .keys()
        .map(|k| ("/start/deliverables", k))
        .chain(
            persona
                .expect
                .deliverables
                .keys()
                .map(|k| ("/expect/deliverables", k)),
        );
    for (at, k) in keys {
        if !key(k) {
            push(
                Code::UnknownDeliverableKey,
                format!("The persona names the key '{k}', but no state of the plan collects it. Pick one of the plan's keys."),
                format!("{at}/{}", crate::condition::pointer_escape(k)),
            );
        }
    }
    let sessions = persona
        .start
        .session_states
        .keys()
        .map(|k| ("/start/session_states", k))
        .chain(
            persona
                .expect
                .session_states
                .keys()
                .map(|k| ("/expect/session_states", k)),
        );
    for (at, id) in sessions {
        if !session(id) {
            push(
                Code::UnknownSessionState,
                format!("The persona names the session state '{id}', but the plan has no such session state. Pick one of the plan's session states."),
                format!("{at}/{}", crate::condition::pointer_escape(id)),
            );
        }
    }
    out
}
