//! How the web view paints, chosen before it starts: on a machine without a GPU, WebKitGTK's
//! compositing mode is switched off.
//!
//! Why: with compositing on and no GPU, WebKitGTK composites every frame through software GL
//! (Mesa's llvmpipe) on top of painting it. Measured on a 2-core machine without a GPU
//! (`bash scripts/bench-app.sh`, 1,000 states, ~44 cards in view): a pan frame p50 41 → 19 ms,
//! p95 56 → 27 ms; the whole-plan pan p95 72 → 20 ms; open 1,094 → 851 ms. With a GPU the
//! engine's default (compositing on) stays. Whatever the person starting the app has set about
//! compositing wins: `WEBKIT_FORCE_COMPOSITING_MODE=1` brings it back.

use std::path::Path;

/// The environment variable that turns WebKitGTK's compositing mode off.
pub const DISABLE: &str = "WEBKIT_DISABLE_COMPOSITING_MODE";
/// The one that forces it on.
pub const FORCE: &str = "WEBKIT_FORCE_COMPOSITING_MODE";

/// Whether to switch compositing off: no GPU, and nobody chose either way.
pub fn compositing_off(is_set: impl Fn(&str) -> bool, has_gpu: bool) -> bool {
    !has_gpu && !is_set(DISABLE) && !is_set(FORCE)
}

/// A GPU the web view could render with: a DRM render node (`/dev/dri/renderD*`).
pub fn has_gpu(dri: &Path) -> bool {
    std::fs::read_dir(dri).is_ok_and(|entries| {
        entries
            .flatten()
            .any(|e| e.file_name().to_string_lossy().starts_with("renderD"))
    })
}

/// Sets the choice in this process's environment, which the web view's processes inherit.
/// Called first thing in `main`, before any thread starts.
pub fn choose() {
    if cfg!(target_os = "linux")
        && compositing_off(
            |name| std::env::var_os(name).is_some(),
            has_gpu(Path::new("/dev/dri")),
        )
    {
        std::env::set_var(DISABLE, "1");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compositing_goes_off_only_without_a_gpu_and_without_a_choice_made() {
        let none = |_: &str| false;
        assert!(compositing_off(none, false));
        assert!(!compositing_off(none, true));
        assert!(!compositing_off(|n| n == FORCE, false));
        assert!(!compositing_off(|n| n == DISABLE, false));
    }

    #[test]
    fn a_render_node_is_a_gpu_and_a_missing_folder_is_none() {
        let dir = std::env::temp_dir().join(format!("plan-builder-dri-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        assert!(!has_gpu(&dir.join("absent")));
        std::fs::write(dir.join("card0"), "").unwrap();
        assert!(!has_gpu(&dir), "a display card alone renders nothing");
        std::fs::write(dir.join("renderD128"), "").unwrap();
        assert!(has_gpu(&dir));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
