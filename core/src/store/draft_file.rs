//! What a draft file may be: one file, written so that it can be read back. A draft is written
//! indented up to [`pretty::PRETTY_LIMIT`] and compactly past it, and refused when even that would
//! pass what a reader takes; a `draft.json` that is not a file is never written over. And what
//! becomes a draft by import: a file in either format, read whole and placed when refused.

use std::fs;
use std::path::Path;

use super::{pretty, Result, StoreError};
use crate::files::read_text;
use crate::flow_import;
use crate::plan::Plan;

/// Refuses to write over `path` when something other than a file stands there (a folder named
/// `draft.json`): said with the file's name, as reading it is.
pub(super) fn a_file_or_nothing(path: &Path) -> Result<()> {
    match fs::symlink_metadata(path) {
        Ok(m) if !m.is_file() => Err(StoreError::Io {
            path: path.to_path_buf(),
            source: std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                "not a regular file (a folder, a pipe or a device): a draft is one file; move this away to go on",
            ),
        }),
        _ => Ok(()),
    }
}

/// `plan` as the draft at `path` is written (`pretty::plan_document`), refused when a reader
/// would refuse it back (over [`crate::files::MAX_PLAN_BYTES`]): what is accepted can be read.
pub fn draft_bytes(path: &Path, plan: &Plan, capacity: usize) -> Result<Vec<u8>> {
    let bytes = pretty::plan_document(plan, capacity);
    if bytes.len() as u64 > crate::files::MAX_PLAN_BYTES {
        return Err(StoreError::TooLargeToWrite {
            path: path.to_path_buf(),
            size: bytes.len() as u64,
        });
    }
    Ok(bytes)
}

/// Reads a file to import, in either format: a plan document (held to the whole schema) or a
/// flow export (converted, its title `id`).
pub fn read_import(file: &Path, id: &str) -> Result<Plan> {
    let text = read_text(file)?;
    let invalid = |problems| StoreError::Invalid {
        path: file.to_path_buf(),
        problems,
    };
    let doc: serde_json::Value = match crate::deep_json::from_str(&text) {
        Ok(doc) => doc,
        // A plan's reader says what is wrong with it (nested too deeply, not JSON) and where.
        Err(_) => return crate::parse::parse_plan(&text).map_err(invalid),
    };
    if flow_import::is_flow_export(&doc) {
        // Read as a tree, a key given twice would keep its last value unsaid.
        if let Some(twice) = crate::unreadable::key_given_twice(&text) {
            return Err(invalid(vec![twice]));
        }
        flow_import::convert(&doc, id).map_err(invalid)
    } else {
        crate::parse::parse_plan(&text).map_err(invalid)
    }
}
