//! A simulated caller (persona) edited in plain words in the Simulate tab: the form's fields as the
//! author types them, read from a persona file and made back into one. What the form does not
//! show (where the conversation begins, session states expected at the end, question ids) is kept
//! from the file as it was. The checks against the plan are the API's, in `plan simulate`'s words.

use std::collections::BTreeMap;

use leptos::prelude::*;
use leptos::task::spawn_local;
use plan_api::messages::SavePersonaArgs;
use plan_core::simulate::persona::{
    Behaviour, EndingExpect, Fact, JudgeQuestion, Persona, PersonaExpect,
};
use serde_json::Value;

use super::Simulating;
use crate::ipc;

/// How many turns a new caller stands.
const NEW_PATIENCE: u32 = 20;

/// The form's fields, as typed.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct PersonaFields {
    /// The persona's id when the form opened; none for a new one.
    pub was: Option<String>,
    /// The file as read, for what the form does not show.
    pub base: Option<Persona>,
    pub title: String,
    pub who: String,
    pub behaviour: Vec<Behaviour>,
    /// How many turns the caller stands, as typed.
    pub patience: String,
    /// What the caller knows: name and value, as typed.
    pub facts: Vec<(String, String)>,
    pub ending: Option<EndingExpect>,
    pub ended_in: Option<String>,
    pub visits: Vec<String>,
    pub never_visits: Vec<String>,
    /// Values expected at the end: key and value, as typed.
    pub deliverables: Vec<(String, String)>,
    /// The judge's questions.
    pub questions: Vec<String>,
}

/// The fields of a new caller: nothing known yet, the default patience.
pub fn new_fields() -> PersonaFields {
    PersonaFields {
        patience: NEW_PATIENCE.to_string(),
        ..PersonaFields::default()
    }
}

/// The fields showing persona `p`.
pub fn fields_of(p: &Persona) -> PersonaFields {
    PersonaFields {
        was: Some(p.id.clone()),
        base: Some(p.clone()),
        title: p.title.clone(),
        who: p.who.clone(),
        behaviour: p.behaviour.clone(),
        patience: p.max_turns.to_string(),
        facts: p
            .facts
            .iter()
            .map(|(k, v)| (k.clone(), fact_text(v)))
            .collect(),
        ending: p.expect.ending,
        ended_in: p.expect.ended_in.clone(),
        visits: p.expect.visits.clone(),
        never_visits: p.expect.never_visits.clone(),
        deliverables: p
            .expect
            .deliverables
            .iter()
            .map(|(k, v)| (k.clone(), value_text(v)))
            .collect(),
        questions: p.judge.iter().map(|q| q.question.clone()).collect(),
    }
}

/// A fact as typed in the form: `true`, `42.5`, text.
fn fact_text(fact: &Fact) -> String {
    match fact {
        Fact::Bool(b) => b.to_string(),
        Fact::Number(n) => n.to_string(),
        Fact::Text(t) => t.clone(),
    }
}

fn value_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// What a typed value is: `true` and `false` are true/false, a number is a number, anything else
/// is text.
pub fn typed_value(text: &str) -> Value {
    let t = text.trim();
    match t {
        "true" => Value::Bool(true),
        "false" => Value::Bool(false),
        _ => match t.parse::<serde_json::Number>() {
            Ok(n) => Value::Number(n),
            Err(_) => Value::String(t.to_string()),
        },
    }
}

fn fact_of(text: &str) -> Fact {
    match typed_value(text) {
        Value::Bool(b) => Fact::Bool(b),
        Value::Number(n) => Fact::Number(n),
        other => Fact::Text(value_text(&other)),
    }
}

/// A persona's id (its file's name) from its title: lowercase words joined by `-`.
pub fn id_of_title(title: &str) -> String {
    let mut id = String::new();
    for c in title.trim().chars() {
        if c.is_ascii_alphanumeric() {
            id.push(c.to_ascii_lowercase());
        } else if !id.ends_with('-') && !id.is_empty() {
            id.push('-');
        }
    }
    let id: String = id.trim_end_matches('-').chars().take(100).collect();
    if id.is_empty() {
        "caller".to_string()
    } else {
        id
    }
}

/// The persona the fields say, or what the author must mend first, in words. Rows left empty
/// are dropped; a fact or value named twice is refused.
pub fn persona_of(f: &PersonaFields) -> Result<Persona, String> {
    let max_turns = f.patience.trim().parse::<u32>().map_err(|_| {
        format!(
            "Patience is a whole number of turns, from 1 to 100, not “{}”.",
            f.patience.trim()
        )
    })?;
    let mut facts = BTreeMap::new();
    for (name, value) in f
        .facts
        .iter()
        .filter(|(n, v)| !(n.trim().is_empty() && v.trim().is_empty()))
    {
        let name = name.trim();
        if name.is_empty() {
            return Err(format!("The fact “{}” needs a name.", value.trim()));
        }
        if facts.insert(name.to_string(), fact_of(value)).is_some() {
            return Err(format!("The fact “{name}” is given twice: keep one."));
        }
    }
    let mut deliverables = BTreeMap::new();
    for (key, value) in f.deliverables.iter().filter(|(k, _)| !k.is_empty()) {
        if deliverables
            .insert(key.clone(), typed_value(value))
            .is_some()
        {
            return Err(format!("The value of “{key}” is expected twice: keep one."));
        }
    }
    let base = f.base.clone();
    let old_questions = base.as_ref().map(|b| b.judge.clone()).unwrap_or_default();
    let mut judge: Vec<JudgeQuestion> = Vec::new();
    for question in f
        .questions
        .iter()
        .map(|q| q.trim())
        .filter(|q| !q.is_empty())
    {
        // A question keeps its id while its words stay; a new one takes the next free `qN`.
        let id = old_questions
            .iter()
            .find(|q| q.question.trim() == question && !judge.iter().any(|j| j.id == q.id))
            .map(|q| q.id.clone())
            .unwrap_or_else(|| {
                (1..)
                    .map(|n| format!("q{n}"))
                    .find(|id| {
                        !judge.iter().any(|j| &j.id == id)
                            && !old_questions.iter().any(|q| &q.id == id)
                    })
                    .unwrap_or_default()
            });
        judge.push(JudgeQuestion {
            id,
            question: question.to_string(),
        });
    }
    let mut behaviour = f.behaviour.clone();
    behaviour.sort();
    behaviour.dedup();
    let id = match &f.was {
        Some(was) => was.clone(),
        None => id_of_title(&f.title),
    };
    // What the form does not show, kept from the file as it was.
    let (start, session_states) = base
        .map(|b| (b.start, b.expect.session_states))
        .unwrap_or_default();
    Ok(Persona {
        id,
        title: f.title.trim().to_string(),
        who: f.who.trim().to_string(),
        facts,
        behaviour,
        max_turns,
        judge,
        expect: PersonaExpect {
            ending: f.ending,
            ended_in: f.ended_in.clone(),
            visits: f.visits.clone(),
            never_visits: f.never_visits.clone(),
            deliverables,
            session_states,
        },
        start,
    })
}

/// How the form words an ending: what the author expects of the plan.
pub fn ending_words(e: EndingExpect) -> &'static str {
    match e {
        EndingExpect::Complete => "the plan completes it",
        EndingExpect::HangUp => "the plan hangs up",
        EndingExpect::HandOff => "the plan hands it off",
        EndingExpect::None => "the plan does not end it",
    }
}

/// Every ending the form offers, in order.
pub const ENDINGS: [EndingExpect; 4] = [
    EndingExpect::Complete,
    EndingExpect::HangUp,
    EndingExpect::HandOff,
    EndingExpect::None,
];

impl Simulating {
    /// Opens the form on persona `id` of the overview shown.
    pub fn edit_persona(self, id: &str) {
        let persona = self.overview.with_untracked(|o| {
            o.as_ref()
                .and_then(|o| o.personas.iter().find(|p| p.id == id))
                .and_then(|p| p.persona.clone())
        });
        if let Some(p) = persona {
            self.persona_error.set(None);
            self.persona_form.set(Some(fields_of(&p)));
        }
    }

    /// Opens the form on a new caller.
    pub fn new_persona(self) {
        self.persona_error.set(None);
        self.persona_form.set(Some(new_fields()));
    }

    /// Closes the form, keeping nothing of it.
    pub fn cancel_persona(self) {
        self.persona_form.set(None);
        self.persona_error.set(None);
    }

    /// Writes the form's persona beside the open plan: the form closes when the file is written,
    /// and stays open with the refusal's words otherwise.
    pub fn save_persona(self) {
        let Some(fields) = self.persona_form.get_untracked() else {
            return;
        };
        let Some(id) = self.editor_id() else {
            return;
        };
        let persona = match persona_of(&fields) {
            Ok(p) => p,
            Err(why) => return self.persona_error.set(Some(why)),
        };
        let args = SavePersonaArgs {
            id: id.clone(),
            persona,
            was: fields.was.clone(),
        };
        spawn_local(async move {
            match ipc::save_persona(&args).await {
                Ok(overview) => {
                    self.overview.set(Some(overview));
                    self.cancel_persona();
                }
                Err(e) => self.persona_error.set(Some(e.message)),
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Persona {
        serde_json::from_value(serde_json::json!({
            "id": "hurried", "title": "Hurried", "who": "In a rush.",
            "facts": {"name": "Ann", "age": 42, "member": true},
            "behaviour": ["terse"], "max_turns": 12,
            "start": {"state": "billing"},
            "expect": {"ending": "complete", "visits": ["a"], "deliverables": {"amount": 12.5},
                       "session_states": {"billing_mode": {"active": true}}},
            "judge": [{"id": "polite", "question": "Polite?"}, {"id": "q1", "question": "Short?"}]
        }))
        .unwrap()
    }

    #[test]
    fn a_persona_read_into_the_form_and_back_is_the_same_persona() {
        let p = sample();
        assert_eq!(persona_of(&fields_of(&p)).unwrap(), p);
    }

    #[test]
    fn typed_values_are_true_false_numbers_or_text() {
        assert_eq!(typed_value(" true "), Value::Bool(true));
        assert_eq!(typed_value("42.5"), serde_json::json!(42.5));
        assert_eq!(typed_value("AC-48213"), Value::String("AC-48213".into()));
        assert_eq!(
            typed_value("12 Main St"),
            Value::String("12 Main St".into())
        );
    }

    #[test]
    fn what_the_form_does_not_show_is_kept_and_new_questions_take_free_ids() {
        let mut f = fields_of(&sample());
        f.questions = vec!["Short?".into(), "New one?".into(), " ".into()];
        f.facts.push((String::new(), String::new()));
        let p = persona_of(&f).unwrap();
        assert_eq!(p.start, sample().start);
        assert_eq!(p.expect.session_states, sample().expect.session_states);
        let ids: Vec<&str> = p.judge.iter().map(|q| q.id.as_str()).collect();
        assert_eq!(ids, ["q1", "q2"], "kept by its words; the next free id");
        assert_eq!(p.facts.len(), 3, "an empty row is dropped");
    }

    #[test]
    fn a_new_caller_is_named_after_its_title_and_mistakes_are_said() {
        let mut f = new_fields();
        f.title = "  Late payer (card declined) ".into();
        f.who = "x".into();
        assert_eq!(persona_of(&f).unwrap().id, "late-payer-card-declined");
        assert_eq!(id_of_title("!!"), "caller");
        f.patience = "ten".into();
        assert!(persona_of(&f).unwrap_err().contains("whole number"));
        f.patience = "10".into();
        f.facts = vec![("name".into(), "a".into()), ("name".into(), "b".into())];
        assert!(persona_of(&f).unwrap_err().contains("twice"));
        f.facts = vec![(" ".into(), "Ann".into())];
        assert!(persona_of(&f).unwrap_err().contains("needs a name"));
    }
}
