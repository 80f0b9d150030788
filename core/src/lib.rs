//! plan-core: the plan model and everything pure about plans, shared by the desktop app, its UI
//! (compiled to wasm) and the `plan` command line.
//!
//! No IO outside the `fs` feature, no clock, no randomness: callers pass those in.

pub mod coerce;
pub mod condition;
#[cfg(feature = "fs")]
pub mod files;
pub mod ipc;
pub mod layout;
pub mod parse;
pub mod plan;
pub mod validate;

pub use condition::{Check, ConditionType};
pub use parse::{parse_plan, ParseProblem};
pub use plan::{Plan, State, StateType, Transition};
pub use validate::{check_text, validate, Code, Diagnostic, Report, Severity};
