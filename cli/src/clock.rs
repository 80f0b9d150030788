//! The current time as RFC 3339 (UTC, whole seconds), which the store records; the store itself
//! has no clock.

use std::time::{SystemTime, UNIX_EPOCH};

/// Now, as `YYYY-MM-DDTHH:MM:SSZ`.
pub fn now() -> String {
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0);
    plan_core::store::timestamp(secs)
}
