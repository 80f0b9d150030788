//! plan-api: what an author can do with plans, as one function per operation over typed
//! requests and answers, shared by the desktop shell and the `plan` command (GitButler's
//! `but-api` is the model). Both front ends map their arguments to one call here and render the
//! answer; neither decides anything of its own, so the app and the command line refuse the same
//! things with the same words.
//!
//! - [`messages`]: the requests, answers and command names that cross between the shell and its
//!   page (compiled into the wasm UI too, without the `store` feature), and [`error`]: the one
//!   error every operation returns, `{code, message}`; [`reading`]: the large answers read from
//!   their JSON bytes, as the window does.
//! - [`context`]: the workspace an operation runs in and the clock it stamps records with.
//! - [`workspace`]: the plans of a workspace (list, first screen, new, duplicate, rename, delete,
//!   trash); [`drafts`]: a plan's draft (load, save, import, export); [`versions`]: publishing,
//!   the versions, live, reopen, compare; [`conversations`]: test chats (start, a turn, a turn
//!   taken back, the last one, a test case saved, the suite run with its coverage).
//!
//! - [`welcome`]: the first start's welcome, shown until dismissed once.
//! - [`agent`]: who answers a test chat's turns: the simulator, or a language model over any
//!   OpenAI-compatible endpoint (its settings, requests, answers, the one HTTP client).
//!
//! No Tauri, clap or Leptos here; IO goes through `plan_core::store`.

pub mod agent;
pub mod error;
pub mod messages;
pub mod reading;

/// Items that reach the disk: built only with the `store` feature (the UI's wasm build has none).
macro_rules! with_store {
    ($($item:item)*) => { $(#[cfg(feature = "store")] $item)* };
}

with_store! {
    pub mod answerer;
    mod cases;
    pub mod context;
    pub mod conversations;
    pub mod drafts;
    pub mod explore;
    pub mod file_chat;
    pub mod sharing;
    pub mod simulate;
    pub mod target;
    mod targets;
    pub mod versions;
    pub mod welcome;
    pub mod workspace;
    pub use context::Context;
}
pub use error::{ApiError, ErrorCode};
