//! Several authors, one workspace, through git (issue 45; docs/sharing.md): the merge driver
//! ([`merge_file`]), the conflicts it leaves beside a draft ([`conflicts`]), versions renumbered so
//! that they never collide (`renumber.rs`), and sharing in three steps ([`share`]: checkpoint, get,
//! send), all through the `git` installed on the machine ([`git`]).

pub mod conflicts;
pub mod git;
pub mod merge_file;
mod renumber;
pub mod share;
