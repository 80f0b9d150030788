//! Validation: every mistake of the format's diagnostic table, found in one pure pass.
//!
//! [`validate`] checks a parsed plan; [`check_text`] also reads it, turning JSON and shape problems
//! into `invalid-json` and `schema` diagnostics, so one call reports everything it can. Findings are
//! data, never `Err`. They come in document order: plan-level fields, then each state in plan order
//! (its own fields, tasks and deliverables, transitions with their conditions to any depth, then
//! what the graph says about it).

mod conditions;
mod diagnostic;
mod evaluations;
mod fasthash;
mod graph;
mod interruptions;
mod rules;
mod session_states;
mod task_order;
mod unhandled;
mod workers;

pub use diagnostic::{Code, Diagnostic, Location, Report, Severity};
pub(crate) use unhandled::keys_read;
pub(crate) use unhandled::{first_arrow_reading, reads_tool};
pub use unhandled::{unhandled_answers, unhandled_codes, Answer, ToolAnswer};

use crate::condition::{Check, ConditionType};
use crate::parse::{parse_plan, shape_problems, ParseProblem, ProblemKind};
use crate::plan::{Deliverable, Plan, State, StateType, Tool, SCHEMA_VERSION};
use fasthash::FastMap;
use graph::Graph;

/// Reads and validates a plan document. Reading problems come back as `invalid-json` / `schema`
/// diagnostics (no further checks run on a document that is not a plan), with the plan when it read.
pub fn check_text(text: &str) -> (Option<Plan>, Report) {
    match parse_plan(text) {
        Ok(plan) => {
            // The shape rules were just checked by reading.
            let report = validate_shaped(&plan);
            (Some(plan), report)
        }
        Err(problems) => {
            // The document did not read as a plan; when it is JSON, a problem inside a state still
            // names the state (and task, transition) it is in, as every other finding does.
            let document: Option<serde_json::Value> = crate::deep_json::from_str(text).ok();
            (None, problems_report(problems, document.as_ref()))
        }
    }
}

/// The diagnostics of a document the store could not read as a plan (`invalid-json` / `schema`),
/// as [`check_text`] reports them: a stored draft that broke is checked like a file.
pub fn report_of_problems(problems: Vec<ParseProblem>) -> Report {
    problems_report(problems, None)
}

/// Checks a plan file's bytes: text that is not UTF-8 is an `invalid-json` finding at the line
/// and column of its first bad byte (a JSON file is UTF-8 text), else as [`check_text`].
pub fn check_bytes(bytes: &[u8]) -> (Option<Plan>, Report) {
    match std::str::from_utf8(bytes) {
        Ok(text) => check_text(text),
        Err(_) => (
            None,
            problems_report(vec![crate::unreadable::not_utf8(bytes)], None),
        ),
    }
}

/// The diagnostics of problems found reading a document (`document`: the JSON it holds, when it
/// is JSON, to name the states and tasks the problems are in).
fn problems_report(problems: Vec<ParseProblem>, document: Option<&serde_json::Value>) -> Report {
    let diagnostics = problems
        .into_iter()
        .map(|p| {
            let code = match p.kind {
                ProblemKind::InvalidJson | ProblemKind::MergedAsText => Code::InvalidJson,
                ProblemKind::Schema => Code::Schema,
            };
            let message = match (p.kind, p.line_column) {
                (ProblemKind::InvalidJson | ProblemKind::MergedAsText, Some((line, column))) => {
                    format!("Line {line}, column {column}: {}", p.message)
                }
                // A problem of the whole document (nested too deeply) has a place but no path.
                (ProblemKind::Schema, Some((line, column))) if p.pointer.is_empty() => {
                    format!("Line {line}, column {column}: {}", p.message)
                }
                _ => capitalise(&p.message),
            };
            let location = place(&p.pointer, |state, task| {
                let s = document?.get("states")?.get(state)?;
                let id = |v: &serde_json::Value| v.get("id")?.as_str().map(str::to_string);
                match task {
                    None => id(s),
                    Some(t) => id(s.get("tasks")?.get(t)?),
                }
            });
            Diagnostic {
                code,
                severity: Severity::Error,
                message,
                location,
            }
        })
        .collect();
    Report { diagnostics }
}

/// Checks a plan against every rule of the format.
pub fn validate(plan: &Plan) -> Report {
    let lookups = Lookups::new(plan);
    let mut v = Validator::new(&lookups);
    v.shape();
    v.rest();
    Report { diagnostics: v.out }
}

/// [`validate`] of a plan already known to keep the shape rules (read by `parse_plan`, which
/// checked them): what `plan check` runs after reading a file ([`check_text`]), and what its
/// benchmarks time against the parse.
pub fn validate_parsed(plan: &Plan) -> Report {
    validate_shaped(plan)
}

fn validate_shaped(plan: &Plan) -> Report {
    let lookups = Lookups::new(plan);
    let mut v = Validator::new(&lookups);
    v.rest();
    Report { diagnostics: v.out }
}

impl Validator<'_, '_> {
    /// Every check but the shape rules, in document order.
    fn rest(&mut self) {
        self.plan_level();
        self.states();
        self.session_states();
        self.interruptions();
        self.rules();
        self.evaluations();
    }
}

/// What the checks share, built once and only read after: the plan and its lookups.
struct Lookups<'p> {
    plan: &'p Plan,
    /// First state with each id.
    index_of: FastMap<&'p str, usize>,
    /// First declaration of each deliverable key in the plan.
    declared: FastMap<&'p str, &'p Deliverable>,
    tools: FastMap<&'p str, &'p Tool>,
    graph: Graph,
    /// First session state with each id.
    session_of: FastMap<&'p str, usize>,
}

impl<'p> Lookups<'p> {
    fn new(plan: &'p Plan) -> Self {
        let mut index_of = fasthash::with_capacity(plan.states.len());
        // Room for the keys of plans that collect up to four per state (the synthetic plan: three),
        // so the map is not grown and rehashed half-way (1.6 % of validation, perf).
        let mut declared = fasthash::with_capacity(plan.states.len() * 4);
        for (i, state) in plan.states.iter().enumerate() {
            index_of.entry(state.id.as_str()).or_insert(i);
            for d in state.deliverables() {
                declared.entry(d.key.as_str()).or_insert(d);
            }
        }
        let tools = plan.tools.iter().map(|t| (t.name.as_str(), t)).collect();
        let graph = Graph::build(plan, &index_of);
        let mut session_of = fasthash::with_capacity(plan.session_states.len());
        for (i, st) in plan.session_states.iter().enumerate() {
            session_of.entry(st.id.as_str()).or_insert(i);
        }
        Lookups {
            plan,
            index_of,
            declared,
            tools,
            graph,
            session_of,
        }
    }
}

/// One run of the checks over the shared [`Lookups`] (read through `Deref`): what it has found
/// and gathered so far. The states may be checked by several at once (`workers`), each over its
/// own states, and their findings joined in plan order.
struct Validator<'p, 'l> {
    lookups: &'l Lookups<'p>,
    /// The current state's transitions' conditions, read once when first compared (for
    /// shadowing): `None` not read yet, `Some(None)` does not read.
    readings: Vec<Option<Option<Check<'p>>>>,
    /// `downstream[key][i]`: a state that collects `key` is state `i` or has a path to it.
    /// Worked out per key on first need, which is rare: most conditions read keys of their own state.
    downstream: FastMap<&'p str, Vec<bool>>,
    /// What `session-state-never-active` is answered from, gathered during the walk.
    uses: session_states::Uses,
    out: Vec<Diagnostic>,
}

impl<'p> std::ops::Deref for Validator<'p, '_> {
    type Target = Lookups<'p>;
    fn deref(&self) -> &Lookups<'p> {
        self.lookups
    }
}

impl<'p, 'l> Validator<'p, 'l> {
    fn new(lookups: &'l Lookups<'p>) -> Self {
        Validator {
            lookups,
            readings: Vec::new(),
            downstream: FastMap::default(),
            uses: session_states::Uses::new(lookups.plan.session_states.len()),
            out: Vec::new(),
        }
    }

    /// What reading a finished plan would refuse, as `schema` errors: a draft (work in progress)
    /// can hold it, and the author sees it where it is.
    fn shape(&mut self) {
        for p in shape_problems(self.plan) {
            let states = &self.plan.states;
            let location = place(&p.pointer, |state, task| {
                let s = states.get(state)?;
                match task {
                    None => Some(s.id.clone()),
                    Some(t) => s.tasks.get(t).map(|t| t.id.clone()),
                }
            });
            self.push(Code::Schema, capitalise(&p.message), location);
        }
    }

    fn push(&mut self, code: Code, message: String, location: Location) {
        self.out.push(Diagnostic {
            code,
            severity: code.severity(),
            message,
            location,
        });
    }

    fn plan_level(&mut self) {
        let plan = self.plan;
        if plan.schema_version > SCHEMA_VERSION {
            self.push(
                Code::UnsupportedSchemaVersion,
                format!(
                    "This plan uses format version {}, but this program knows version {SCHEMA_VERSION} at most. Update Plan Builder to open it.",
                    plan.schema_version
                ),
                at("/schema_version"),
            );
        }
        if let Some(start) = &plan.start_state_id {
            if !plan.states.is_empty() && !self.index_of.contains_key(start.as_str()) {
                self.push(
                    Code::UnknownStartState,
                    format!(
                        "The plan starts in '{start}', but no state has that id. Pick an existing state as the start, or create '{start}'."
                    ),
                    at("/start_state_id"),
                );
            }
        }
        self.template(&plan.instructions, &|| "/instructions".into(), None);
        if plan.states.is_empty() {
            self.push(
                Code::NoStates,
                "The plan has no states. Add at least one state for the conversation to start in."
                    .into(),
                at("/states"),
            );
        }
    }

    fn state(&mut self, i: usize, state: &'p State) {
        // Paths are spelled out only for a finding: this runs for every state of the plan.
        let loc = |suffix: &str| Location {
            path: format!("/states/{i}{suffix}"),
            state_id: Some(state.id.clone()),
            ..Location::default()
        };
        let name = &state.title;

        if self.index_of.get(state.id.as_str()) != Some(&i) {
            self.push(
                Code::DuplicateStateId,
                format!(
                    "State '{name}' has the id '{}', which an earlier state already uses. Give it an id of its own.",
                    state.id
                ),
                loc("/id"),
            );
        }
        match (state.kind, &state.goal) {
            (StateType::Goal, None) => self.push(
                Code::GoalMissing,
                format!("Goal state '{name}' has no goal. Describe its objective: what should the conversation achieve here?"),
                loc(""),
            ),
            (StateType::Goal, Some(goal)) if goal.objective.trim().is_empty() => self.push(
                Code::GoalMissing,
                format!("Goal state '{name}' has an empty objective. Describe what the conversation should achieve here."),
                loc("/goal/objective"),
            ),
            (StateType::Goal, Some(_)) => {}
            (_, Some(_)) => self.push(
                Code::GoalOnNonGoalState,
                format!(
                    "State '{name}' is a {} state but has a goal, which only goal states use. Make it a goal state, or remove the goal.",
                    state.kind.label().to_lowercase()
                ),
                loc("/goal"),
            ),
            (_, None) => {}
        }
        if state.kind == StateType::Goal && !state.tasks.is_empty() {
            self.push(
                Code::GoalStateHasTasks,
                format!("Goal state '{name}' still has tasks; goal states ignore them. Remove the tasks, or make it a strict or loose state."),
                loc("/tasks"),
            );
        }
        self.tasks_and_deliverables(i, state);
        self.state_texts(i, state);
        for (c, change) in state.on_enter.iter().enumerate() {
            self.change(change, &|| format!("/states/{i}/on_enter/{c}"), &state.id);
        }
        for (k, tool) in state.allowed_tools.iter().enumerate() {
            if !self.tools.contains_key(tool.as_str()) {
                self.push(
                    Code::UnknownTool,
                    format!("State '{name}' allows the tool '{tool}', but the plan declares no such tool. Declare it in the plan's tools, or remove it here."),
                    loc(&format!("/allowed_tools/{k}")),
                );
            }
        }
        if state.ending.is_some() && !state.transitions.is_empty() {
            self.push(
                Code::EndingWithTransitions,
                format!("State '{name}' has an ending but also transitions, so it never ends. Remove the ending, or remove the transitions."),
                loc("/ending"),
            );
        }
        // Read on demand: most transitions of a state differ in type and are never compared.
        self.readings.clear();
        self.readings.resize(state.transitions.len(), None);
        for k in 0..state.transitions.len() {
            self.transition(i, state, k);
        }
        self.task_order(i, state);
        self.unhandled_values(i, state);
        self.unhandled_codes(i, state);
        if self.graph.reachable.as_ref().is_some_and(|r| !r[i]) {
            self.push(
                Code::UnreachableState,
                format!("No conversation can reach '{name}' from the start state. Add a transition into it, or delete it."),
                loc(""),
            );
        }
        if !self.graph.can_end[i] {
            self.push(
                Code::NoWayToEnd,
                format!("From '{name}' the conversation can never end: every way out leads back into a loop. Add a transition towards an ending state."),
                loc(""),
            );
        }
        if !state.transitions.is_empty()
            && state.tasks.is_empty()
            && state.goal.is_none()
            && state.instructions.trim().is_empty()
        {
            self.push(
                Code::EmptyState,
                format!("State '{name}' has no tasks, no goal and no instructions, so the agent has nothing to do there. Add instructions or tasks."),
                loc(""),
            );
        }
    }

    fn tasks_and_deliverables(&mut self, i: usize, state: &'p State) {
        let name = &state.title;
        // Small per state: a linear scan beats hashing.
        let mut keys: Vec<&str> = Vec::new();
        let owners = state
            .tasks
            .iter()
            .enumerate()
            .map(|(t, task)| (Some((t, task)), &task.deliverables))
            .chain(state.goal.iter().map(|g| (None, &g.deliverables)));
        for (task, deliverables) in owners {
            let owner = |suffix: &str| match task {
                Some((t, _)) => format!("/states/{i}/tasks/{t}{suffix}"),
                None => format!("/states/{i}/goal{suffix}"),
            };
            let loc = |path: String| Location {
                path,
                state_id: Some(state.id.clone()),
                task_id: task.map(|(_, t)| t.id.clone()),
                transition_index: None,
            };
            if let Some((t, task)) = task {
                if state.tasks[..t].iter().any(|other| other.id == task.id) {
                    self.push(
                        Code::DuplicateTaskId,
                        format!("State '{name}' has two tasks with the id '{}'. Give each task its own id.", task.id),
                        loc(owner("/id")),
                    );
                }
            }
            for (d, deliverable) in deliverables.iter().enumerate() {
                let key = deliverable.key.as_str();
                if keys.contains(&key) {
                    self.push(
                        Code::DuplicateDeliverableKey,
                        format!("State '{name}' declares the key '{key}' twice. Keep one of them."),
                        loc(owner(&format!("/deliverables/{d}/key"))),
                    );
                    continue;
                }
                keys.push(key);
                let first = self.declared[key];
                if std::ptr::eq(first, deliverable) {
                    continue;
                }
                if first.kind != deliverable.kind {
                    self.push(
                        Code::DeliverableTypeConflict,
                        format!(
                            "The key '{key}' is {} here but {} where it is first declared; a key is one value across the conversation. Use the same type everywhere.",
                            type_name(deliverable),
                            type_name(first)
                        ),
                        loc(owner(&format!("/deliverables/{d}/type"))),
                    );
                } else if first.enum_values != deliverable.enum_values {
                    self.push(
                        Code::DeliverableTypeConflict,
                        format!(
                            "The key '{key}' allows {} here but {} where it is first declared. Use the same values everywhere.",
                            values_text(deliverable),
                            values_text(first)
                        ),
                        loc(owner(&format!("/deliverables/{d}/enum_values"))),
                    );
                }
            }
        }
    }

    /// The templates of a state: its instructions, its tasks' instructions, its goal's texts.
    fn state_texts(&mut self, i: usize, state: &'p State) {
        let id = Some(state.id.as_str());
        self.template(
            &state.instructions,
            &|| format!("/states/{i}/instructions"),
            id,
        );
        for (t, task) in state.tasks.iter().enumerate() {
            self.template(
                &task.instruction,
                &|| format!("/states/{i}/tasks/{t}/instruction"),
                id,
            );
        }
        if let Some(goal) = &state.goal {
            self.template(
                &goal.objective,
                &|| format!("/states/{i}/goal/objective"),
                id,
            );
            self.template(
                &goal.success_description,
                &|| format!("/states/{i}/goal/success_description"),
                id,
            );
        }
    }

    /// Whether `key` has been collected by the time a conversation is in state `i`: the state
    /// collects it, or a state with a path to it does.
    fn collected_by(&mut self, key: &'p str, i: usize) -> bool {
        if self.plan.states[i].deliverables().any(|d| d.key == key) {
            return true;
        }
        let (plan, graph) = (self.plan, &self.lookups.graph);
        self.downstream.entry(key).or_insert_with(|| {
            let collectors: Vec<usize> = (0..plan.states.len())
                .filter(|&j| plan.states[j].deliverables().any(|d| d.key == key))
                .collect();
            graph.downstream_of(&collectors)
        })[i]
    }
}

/// A finding's place with only its path (outside any state).
fn at(path: impl Into<String>) -> Location {
    Location {
        path: path.into(),
        ..Location::default()
    }
}

fn type_name(d: &Deliverable) -> &'static str {
    use crate::plan::DeliverableType::*;
    match d.kind {
        String => "text",
        Number => "a number",
        Boolean => "yes/no",
        Enum => "a choice",
    }
}

fn values_text(d: &Deliverable) -> String {
    d.enum_values
        .as_ref()
        .map(|v| v.join(", "))
        .unwrap_or_default()
}

/// A finding's location from the pointer of what it is about: the state (and its task, its
/// transition) the pointer is inside, their ids asked of `id_of(state index, task index)`.
fn place(pointer: &str, id_of: impl Fn(usize, Option<usize>) -> Option<String>) -> Location {
    let mut parts = pointer.split('/').skip(1);
    let index = |s: Option<&str>| s.and_then(|s| s.parse::<usize>().ok());
    let mut location = Location {
        path: pointer.to_string(),
        ..Location::default()
    };
    if parts.next() != Some("states") {
        return location;
    }
    let Some(state) = index(parts.next()) else {
        return location;
    };
    location.state_id = id_of(state, None);
    match parts.next() {
        Some("tasks") => {
            if let Some(task) = index(parts.next()) {
                location.task_id = id_of(state, Some(task));
            }
        }
        Some("transitions") => location.transition_index = index(parts.next()),
        _ => {}
    }
    location
}

fn capitalise(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// Two transitions' conditions are the same once defaults are applied: read both, and compare
/// the readings (so `compound` with `and` equals `all_of`, and a missing `scope` equals
/// `without_progress`); a condition that does not read is compared as written.
fn same_condition<'p>(
    state: &'p State,
    readings: &mut [Option<Option<Check<'p>>>],
    a: usize,
    b: usize,
) -> bool {
    let (ta, tb) = (&state.transitions[a], &state.transitions[b]);
    let (ka, kb) = (
        ta.condition_type_in(state.kind),
        tb.condition_type_in(state.kind),
    );
    // Different types can still be the same condition only as compound against all_of / any_of.
    let composite = |k: ConditionType| k.is_composite();
    if ka != kb && !(composite(ka) && composite(kb)) {
        return false;
    }
    for (i, t, k) in [(a, ta, ka), (b, tb, kb)] {
        if readings[i].is_none() {
            readings[i] = Some(Check::read(k, &t.condition_config).ok());
        }
    }
    match (&readings[a], &readings[b]) {
        (Some(Some(x)), Some(Some(y))) => x == y,
        _ => ka == kb && ta.condition_config == tb.condition_config,
    }
}
