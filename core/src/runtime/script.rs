//! Scripts and saved test cases: a list of user turns, each with optional expectations, run
//! against a plan with an agent. The result is the record `plan chat --script` prints (the JSON
//! shape of `docs/cli.md`) and the list of failed expectations.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::chat::{Agent, Chat, ToolResults};
use super::evaluate::{declaration, equal, show};
use super::{
    Ended, Event, PlanRef, Preset, Recorded, RunError, Session, SessionValue, Start, Turn,
};
use crate::coerce::coerce;
use crate::plan::Plan;

/// A script: `{"turns": [{"user": "…", "expect": {…}}]}`. One with expectations is a test case.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Script {
    /// What the test case checks, for the people reading it.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub description: String,
    /// The plan document to run, relative to the script's file, for a script kept outside a
    /// plan's `tests/` folder (where it runs against that plan's draft).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub plan: Option<String>,
    /// Where the conversation begins: a state and values already known ("test from here").
    #[serde(default, skip_serializing_if = "Start::is_plain")]
    pub start: Start,
    /// What the plan's tools return when called without a code, for the whole script.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub tool_results: ToolResults,
    /// The user's messages, in order, with what each should lead to.
    #[serde(deserialize_with = "objects")]
    pub turns: Vec<ScriptTurn>,
}

/// One message of a script and what it should lead to.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScriptTurn {
    /// What the user says.
    pub user: String,
    /// What the plan's tools return in this turn, over the script's.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub tool_results: ToolResults,
    /// What should be true after it.
    #[serde(
        default,
        deserialize_with = "optional_object",
        skip_serializing_if = "Option::is_none"
    )]
    pub expect: Option<Expect>,
}

/// What must hold after a turn; each field optional.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Expect {
    /// The state the conversation is in after the turn.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub state: Option<String>,
    /// Values that must be recorded (coerced to each key's type before comparing).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deliverables: Option<BTreeMap<String, Value>>,
    /// `"complete"`, `"hang_up"`, `"hand_off"`: ended so; `true`: ended; `false`: not ended.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ended: Option<Value>,
    /// Session states' values and flags, each field optional.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session_states: Option<BTreeMap<String, Preset>>,
    /// The parked task's state (`null`: nothing parked); absent: not checked.
    #[serde(
        default,
        deserialize_with = "null_or_state",
        skip_serializing_if = "Option::is_none"
    )]
    pub parked: Option<Option<String>>,
}

impl Script {
    /// Whether any turn has expectations.
    pub fn is_test_case(&self) -> bool {
        self.turns.iter().any(|t| t.expect.is_some())
    }
}

/// The opening of a conversation: the turn-0 reply, the state it begins in, what happened at
/// turn 0 (entering it; values known from the start) and the values then known.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Opening {
    /// The agent's opening reply.
    pub agent: String,
    /// The state it begins in.
    pub state: String,
    /// What happened at turn 0.
    #[serde(default)]
    pub events: Vec<Event>,
    /// The values known from the start.
    #[serde(default)]
    pub deliverables: BTreeMap<String, Recorded>,
    /// The session states at the start.
    #[serde(default)]
    pub session_states: BTreeMap<String, SessionValue>,
    /// What the agent was told when it wrote the opening.
    #[serde(default)]
    pub prompt: String,
    /// The parked task's state, if one is parked.
    #[serde(default)]
    pub parked: Option<String>,
}

impl Opening {
    /// The opening of `session` (after its turn 0) with what turn 0 produced.
    pub fn of(session: &Session, turn: Turn) -> Opening {
        Opening {
            agent: turn.reply,
            state: session.state_id.clone(),
            events: turn.events,
            deliverables: session.deliverables.clone(),
            session_states: session.session_states.clone(),
            prompt: turn.prompt,
            parked: session.parked_state_id(),
        }
    }

    /// The opening of a resumed session, as far as it says (its events are not kept).
    pub fn resumed(plan: &Plan, session: &Session) -> Opening {
        Opening {
            agent: session.last_reply().unwrap_or_default().to_string(),
            state: session.state_id.clone(),
            events: Vec::new(),
            deliverables: session.deliverables.clone(),
            session_states: session.session_states.clone(),
            prompt: super::prompt(plan, session),
            parked: session.parked_state_id(),
        }
    }
}

/// One user turn as `plan chat` reports it: the turn, and the state and values after it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TurnRecord {
    /// The turn.
    #[serde(flatten)]
    pub turn: Turn,
    /// The state after it.
    pub state: String,
    /// The values known after it.
    pub deliverables: BTreeMap<String, Recorded>,
    /// The session states after it.
    pub session_states: BTreeMap<String, SessionValue>,
}

/// `parked` as written: `null` (nothing parked) told apart from no field at all.
/// Reads a `T` only from a JSON object. serde's derive also reads a struct from a list of its
/// fields in order, so `"expect": ["billing"]` read as the state "billing"; a script never means
/// that, and says so: "invalid type: sequence, expected an object ({ … })", at its line and column.
pub fn object<'de, D: serde::Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<T, D::Error> {
    struct Only<T>(std::marker::PhantomData<T>);
    impl<'de, T: Deserialize<'de>> serde::de::Visitor<'de> for Only<T> {
        type Value = T;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("an object ({ … })")
        }
        fn visit_map<A: serde::de::MapAccess<'de>>(self, map: A) -> Result<T, A::Error> {
            T::deserialize(serde::de::value::MapAccessDeserializer::new(map))
        }
    }
    d.deserialize_map(Only(std::marker::PhantomData))
}

/// [`object`], present (an absent field is `None` by `default`).
fn optional_object<'de, D: serde::Deserializer<'de>, T: Deserialize<'de>>(
    d: D,
) -> Result<Option<T>, D::Error> {
    object(d).map(Some)
}

/// A list of [`object`]s.
fn objects<'de, D: serde::Deserializer<'de>, T: Deserialize<'de>>(
    d: D,
) -> Result<Vec<T>, D::Error> {
    struct Item<T>(T);
    impl<'de, T: Deserialize<'de>> Deserialize<'de> for Item<T> {
        fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            object(d).map(Item)
        }
    }
    Ok(Vec::<Item<T>>::deserialize(d)?
        .into_iter()
        .map(|i| i.0)
        .collect())
}

fn null_or_state<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> Result<Option<Option<String>>, D::Error> {
    Option::<String>::deserialize(d).map(Some)
}

/// A whole scripted conversation: the shape `plan chat --format json` prints.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ChatRecord {
    /// The opening.
    pub opening: Opening,
    /// The user turns, from turn 1.
    pub turns: Vec<TurnRecord>,
    /// How it ended, if it did.
    pub ended: Option<Ended>,
}

/// An expectation that did not hold, or a turn that could not be run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Failure {
    /// The script's turn (1-based).
    pub turn: u32,
    /// What differed, in words.
    pub message: String,
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "turn {}: {}", self.turn, self.message)
    }
}

/// The outcome of running a script.
pub struct Run {
    /// What `plan chat --format json` prints.
    pub record: ChatRecord,
    /// The session after the last turn run.
    pub session: Session,
    /// The expectations that did not hold.
    pub failures: Vec<Failure>,
}

impl TurnRecord {
    /// `turn` with the state and values of `session`, the session right after it.
    pub fn of(session: &Session, turn: Turn) -> TurnRecord {
        TurnRecord {
            turn,
            state: session.state_id.clone(),
            deliverables: session.deliverables.clone(),
            session_states: session.session_states.clone(),
        }
    }
}

/// Runs `script` in a new conversation (or in `resumed`, continuing it), calling `after_turn`
/// with the session after the opening and after every turn (to save it). A new conversation
/// begins as the script's `start` says, or as `from` says when given (`plan chat --from STATE`
/// wins over the script's `start.state`). A turn after the conversation ended is not run: the run
/// stops there with a failure, as it does when `after_turn` fails.
pub fn run<A: Agent + ?Sized>(
    plan: &Plan,
    agent: &A,
    plan_ref: PlanRef,
    resumed: Option<Session>,
    script: &Script,
    after_turn: &mut dyn FnMut(&Session) -> Result<(), String>,
) -> Result<Run, RunError> {
    run_from(plan, agent, plan_ref, resumed, script, None, after_turn)
}

/// [`run`], beginning in state `from` when it is given.
pub fn run_from<A: Agent + ?Sized>(
    plan: &Plan,
    agent: &A,
    plan_ref: PlanRef,
    resumed: Option<Session>,
    script: &Script,
    from: Option<&str>,
    after_turn: &mut dyn FnMut(&Session) -> Result<(), String>,
) -> Result<Run, RunError> {
    let (mut chat, opening) = match resumed {
        Some(session) => {
            let opening = Opening::resumed(plan, &session);
            (Chat::resume(plan, agent, session), opening)
        }
        None => {
            let mut start = script.start.clone();
            if let Some(state) = from {
                start.state = Some(state.to_string());
            }
            let (chat, turn) = Chat::open_from(plan, agent, plan_ref, &start)?;
            let opening = Opening::of(&chat.session, turn);
            (chat, opening)
        }
    };
    let mut record = ChatRecord {
        opening,
        turns: Vec::new(),
        ended: None,
    };
    let mut failures = Vec::new();
    let mut save = |s: &Session, turn: u32, failures: &mut Vec<Failure>| match after_turn(s) {
        Ok(()) => true,
        Err(message) => {
            failures.push(Failure { turn, message });
            false
        }
    };
    if save(&chat.session, 0, &mut failures) {
        for (i, t) in script.turns.iter().enumerate() {
            let n = i as u32 + 1;
            if let Some(ended) = &chat.session.ended {
                failures.push(not_run(n, ended));
                break;
            }
            let turn = chat.say_with(&t.user, &script.tools_of(t))?;
            record.turns.push(TurnRecord::of(&chat.session, turn));
            if let Some(expect) = &t.expect {
                failures.extend(check(plan, &chat.session, expect, n));
            }
            if !save(&chat.session, n, &mut failures) {
                break;
            }
        }
    }
    record.ended = chat.session.ended.clone();
    Ok(Run {
        record,
        session: chat.session,
        failures,
    })
}

/// The failure of script turn `turn`, not said because the conversation had ended.
pub fn not_run(turn: u32, ended: &Ended) -> Failure {
    Failure {
        turn,
        message: format!(
            "not run: the conversation already ended at turn {} ({}, in state '{}')",
            ended.turn,
            ended.describe(),
            ended.state_id
        ),
    }
}

impl Script {
    /// What the plan's tools return in turn `t`: the turn's results over the script's.
    pub fn tools_of(&self, t: &ScriptTurn) -> ToolResults {
        let mut tools = self.tool_results.clone();
        tools.extend(t.tool_results.clone());
        tools
    }
}

/// The expectations of one turn that do not hold in `session`.
pub fn check(plan: &Plan, session: &Session, expect: &Expect, turn: u32) -> Vec<Failure> {
    let mut out = Vec::new();
    let mut fail = |message: String| out.push(Failure { turn, message });
    if let Some(state) = &expect.state {
        if *state != session.state_id {
            fail(format!(
                "expected state '{state}', but the conversation is in '{}'",
                session.state_id
            ));
        }
    }
    for (key, wanted) in expect.deliverables.iter().flatten() {
        let wanted_coerced = declaration(plan, key)
            .and_then(|d| coerce(wanted, d))
            .unwrap_or_else(|| wanted.clone());
        match session.deliverables.get(key) {
            None => fail(format!(
                "expected {key} = {}, but it is not known",
                show(wanted)
            )),
            Some(r) if !equal(&r.value, &wanted_coerced) => fail(format!(
                "expected {key} = {}, but it is {}",
                show(wanted),
                show(&r.value)
            )),
            Some(_) => {}
        }
    }
    if let Some(wanted) = &expect.parked {
        let have = session.parked_state_id();
        if *wanted != have {
            let said = |p: &Option<String>| match p {
                Some(id) => format!("'{id}' parked"),
                None => "nothing parked".to_string(),
            };
            fail(format!(
                "expected {}, but there is {}",
                said(wanted),
                said(&have)
            ));
        }
    }
    for (id, wanted) in expect.session_states.iter().flatten() {
        let Some(have) = session.session_states.get(id) else {
            fail(format!(
                "expected the session state {id}, but the plan has none"
            ));
            continue;
        };
        if let Some(value) = &wanted.value {
            let wanted_value = value.clone().unwrap_or(Value::Null);
            let coerced = plan
                .session_state(id)
                .and_then(|st| crate::coerce::coerce_session(&wanted_value, st))
                .unwrap_or_else(|| wanted_value.clone());
            if !super::evaluate::equal_deep(&have.value, &coerced) {
                let shown = |v: &Value| {
                    if v.is_null() {
                        "no value".to_string()
                    } else {
                        show(v)
                    }
                };
                fail(format!(
                    "expected {id} = {}, but it is {}",
                    shown(&wanted_value),
                    shown(&have.value)
                ));
            }
        }
        if let Some(active) = wanted.active {
            if have.active != active {
                let word = |on: bool| if on { "active" } else { "inactive" };
                fail(format!(
                    "expected {id} to be {}, but it is {}",
                    word(active),
                    word(have.active)
                ));
            }
        }
    }
    if let Some(ended) = &expect.ended {
        let actual = session.ended.as_ref();
        let ok = match ended {
            Value::Bool(b) => actual.is_some() == *b,
            Value::String(kind) => actual.is_some_and(|e| e.kind.as_str() == kind),
            _ => false,
        };
        if !ok {
            let wanted = match ended {
                Value::Bool(true) => "the conversation to have ended".to_string(),
                Value::Bool(false) => "the conversation to go on".to_string(),
                Value::String(kind) => format!("the conversation to end with {kind}"),
                other => format!("\"ended\" to be a kind or true/false, not {other}"),
            };
            let is = match actual {
                Some(e) => format!("it ended with {} in '{}'", e.kind.as_str(), e.state_id),
                None => "it goes on".to_string(),
            };
            fail(format!("expected {wanted}, but {is}"));
        }
    }
    out
}
