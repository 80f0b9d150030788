//! Two runs of a plan compared (simulate.md, "Runs"): per persona the share of conversations that
//! passed, per judge question the verdicts, how the conversations ended, and their turns, each
//! before and after. Pure: read from the two runs' outcomes. A run's conversations the plan could
//! not be blamed for (a caller that failed, a stop) are counted apart, never as failures.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::conversation::{Outcome, Status};
use super::judge::Verdict;

/// How one persona's conversations of one run came out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct PassRate {
    /// Conversations that passed.
    pub passed: u32,
    /// Conversations that count: all but those whose caller failed or that were stopped.
    pub of: u32,
    /// Conversations whose caller failed, or that were stopped.
    pub apart: u32,
}

/// One judge question's verdicts in one run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct VerdictCounts {
    /// Yes.
    pub yes: u32,
    /// No.
    pub no: u32,
    /// Unsure.
    pub unsure: u32,
    /// Not asked (an evaluation whose session states were never on).
    pub not_asked: u32,
}

/// A thing compared, before and after (none: not in that run).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Compared<T> {
    /// The persona's id, the question's id, or the ending's word.
    pub id: String,
    /// The question's words (empty for personas and endings).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub words: String,
    /// In the earlier run.
    pub before: Option<T>,
    /// In the later run.
    pub after: Option<T>,
}

/// Two runs compared.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Comparison {
    /// Per persona, in the order they first appear.
    pub personas: Vec<Compared<PassRate>>,
    /// Per judge question (the personas' and the plan's evaluations), in the order they first
    /// appear.
    pub questions: Vec<Compared<VerdictCounts>>,
    /// How the conversations ended: per ending, how many.
    pub endings: Vec<Compared<u32>>,
    /// The mean user turns of a conversation (none for a run without conversations).
    pub turns: (Option<f64>, Option<f64>),
}

/// The runs `before` and `after` compared.
pub fn compare(before: &[Outcome], after: &[Outcome]) -> Comparison {
    let mut personas: Vec<Compared<PassRate>> = Vec::new();
    let mut questions: Vec<Compared<VerdictCounts>> = Vec::new();
    let mut endings: BTreeMap<&'static str, Compared<u32>> = BTreeMap::new();
    for (later, run) in [(false, before), (true, after)] {
        for c in run {
            let rate: &mut PassRate =
                side(entry(&mut personas, &c.persona, ""), later).get_or_insert_default();
            match c.status {
                Status::CallerFailed | Status::Stopped => rate.apart += 1,
                status => {
                    rate.of += 1;
                    if status == Status::Passed {
                        rate.passed += 1;
                    }
                }
            }
            for v in &c.verdicts {
                let counts: &mut VerdictCounts =
                    side(entry(&mut questions, &v.id, &v.question), later).get_or_insert_default();
                match v.verdict {
                    Verdict::Yes => counts.yes += 1,
                    Verdict::No => counts.no += 1,
                    Verdict::Unsure => counts.unsure += 1,
                    Verdict::NotAsked => counts.not_asked += 1,
                }
            }
            let ending = endings.entry(c.ended.as_str()).or_insert_with(|| Compared {
                id: c.ended.as_str().to_string(),
                words: String::new(),
                before: None,
                after: None,
            });
            *side(ending, later).get_or_insert(0) += 1;
        }
    }
    let mean = |run: &[Outcome]| {
        (!run.is_empty())
            .then(|| run.iter().map(|c| f64::from(c.turns)).sum::<f64>() / run.len() as f64)
    };
    Comparison {
        personas,
        questions,
        endings: endings.into_values().collect(),
        turns: (mean(before), mean(after)),
    }
}

/// The run's side of `x`: the later run's, or the earlier's.
fn side<T>(x: &mut Compared<T>, later: bool) -> &mut Option<T> {
    if later {
        &mut x.after
    } else {
        &mut x.before
    }
}

/// The entry of `id` in `list`, added at its end when new.
fn entry<'l, T>(list: &'l mut Vec<Compared<T>>, id: &str, words: &str) -> &'l mut Compared<T> {
    let i = match list.iter().position(|x| x.id == id) {
        Some(i) => i,
        None => {
            list.push(Compared {
                id: id.to_string(),
                words: words.to_string(),
                before: None,
                after: None,
            });
            list.len() - 1
        }
    };
    &mut list[i]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::simulate::conversation::Ending;

    fn outcome(persona: &str, status: Status, ended: Ending, turns: u32, yes: bool) -> Outcome {
        serde_json::from_value(serde_json::json!({
            "persona": persona, "k": 1, "status": status, "turns": turns, "ended": ended,
            "checks": [],
            "verdicts": [{"id": "q1", "question": "Polite?", "verdict": if yes { "yes" } else { "no" },
                          "votes": [], "agreement": "3/3", "turns_shown": []}]
        }))
        .unwrap()
    }

    #[test]
    fn two_runs_compare_by_persona_question_ending_and_turns() {
        let before = [
            outcome("calm", Status::Passed, Ending::Complete, 4, true),
            outcome("calm", Status::Failed, Ending::MaxTurns, 8, false),
            outcome("rushed", Status::CallerFailed, Ending::None, 1, true),
        ];
        let after = [
            outcome("calm", Status::Passed, Ending::Complete, 4, true),
            outcome("calm", Status::Passed, Ending::Complete, 6, true),
            outcome("late", Status::Failed, Ending::CallerHungUp, 2, false),
        ];
        let c = compare(&before, &after);
        let ids: Vec<&str> = c.personas.iter().map(|p| p.id.as_str()).collect();
        assert_eq!(ids, ["calm", "rushed", "late"]);
        assert_eq!(
            (c.personas[0].before, c.personas[0].after),
            (
                Some(PassRate {
                    passed: 1,
                    of: 2,
                    apart: 0
                }),
                Some(PassRate {
                    passed: 2,
                    of: 2,
                    apart: 0
                })
            )
        );
        // A caller that failed is counted apart, not as the plan's failure; a persona only in
        // one run has nothing on the other side.
        assert_eq!(
            c.personas[1].before,
            Some(PassRate {
                passed: 0,
                of: 0,
                apart: 1
            })
        );
        assert_eq!((c.personas[1].after, c.personas[2].before), (None, None));
        assert_eq!(c.questions.len(), 1);
        assert_eq!(c.questions[0].words, "Polite?");
        assert_eq!(
            (
                c.questions[0].before.unwrap().yes,
                c.questions[0].after.unwrap().no
            ),
            (2, 1)
        );
        let endings: Vec<(&str, Option<u32>, Option<u32>)> = c
            .endings
            .iter()
            .map(|e| (e.id.as_str(), e.before, e.after))
            .collect();
        assert_eq!(
            endings,
            [
                ("caller_hung_up", None, Some(1)),
                ("complete", Some(1), Some(2)),
                ("max_turns", Some(1), None),
                ("none", Some(1), None),
            ]
        );
        assert_eq!(c.turns, (Some(13.0 / 3.0), Some(4.0)));
        assert_eq!(compare(&[], &[]), Comparison::default());
    }
}
