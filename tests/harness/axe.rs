//! axe-core, Deque's accessibility rule engine, run in the app's own page: its WCAG 2.1 A and AA
//! rules (`wcag2a`, `wcag2aa`, `wcag21a`, `wcag21aa`) judge what the page shows at that moment.
//! The engine is axe-core at the version `scripts/setup.sh` fetches from the npm registry (its
//! path in `PLAN_BUILDER_AXE`, else the setup's cache).

use std::path::PathBuf;

use serde_json::json;

use crate::page::Outcome;
use crate::Ctx;

/// The version the setup fetches (keep in step with `scripts/setup.sh`).
pub const VERSION: &str = "4.14.1";

/// Where `axe.min.js` is.
pub fn engine() -> PathBuf {
    if let Some(path) = std::env::var_os("PLAN_BUILDER_AXE") {
        return PathBuf::from(path);
    }
    let cache = std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(std::env::var_os("HOME").unwrap_or_default()).join(".cache")
        });
    cache
        .join("plan-builder")
        .join(format!("axe-core-{VERSION}"))
        .join("axe.min.js")
}

/// Runs the rules on the page as it is (`what` names it in the report); fails listing every
/// violation: its rule, impact, what it asks for and the elements at fault.
pub fn check(ctx: &Ctx, what: &str) -> Outcome {
    let path = engine();
    let source = std::fs::read_to_string(&path).map_err(|e| {
        format!(
            "axe-core is not at {} ({e}): scripts/setup.sh fetches it",
            path.display()
        )
    })?;
    ctx.session()
        .execute(&format!("if (!window.axe) {{ {source} }}"), json!([]))?;
    let found = ctx.session().execute_async(
        "const done = arguments[arguments.length - 1];
         axe.run(document, {runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']}})
           .then(r => done({violations: r.violations.map(v => v.id + ' (' + v.impact + '): ' + v.help
                + ' at ' + v.nodes.map(n => n.target.join(' ')).slice(0, 5).join(' | ')),
                passes: r.passes.length}))
           .catch(e => done({error: String(e)}));",
        json!([]),
    )?;
    if let Some(e) = found.get("error") {
        return Err(format!("axe-core could not run on {what}: {e}"));
    }
    let violations: Vec<String> = found["violations"]
        .as_array()
        .map(|v| {
            v.iter()
                .filter_map(|x| x.as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default();
    println!(
        "axe-core {VERSION} on {what}: {} rules passed, {} violated",
        found["passes"],
        violations.len()
    );
    if violations.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "axe-core finds on {what}:\n  {}",
            violations.join("\n  ")
        ))
    }
}
