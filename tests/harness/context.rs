//! What a test gets ([`Ctx`]): its own workspace and a session on a freshly started app, the
//! app relaunched, screenshots named after the test.

use super::*;

/// What a test gets: the harness, its own workspace (seeded with the sample plans, as a new one
/// is) and a session on a freshly started app showing it.
pub struct Ctx<'a> {
    /// The harness the test runs in.
    pub harness: &'a Harness,
    pub(crate) session: std::cell::RefCell<Session>,
    pub(crate) workspace: PathBuf,
    pub(crate) name: &'static str,
    pub(crate) shots: std::cell::Cell<usize>,
}

impl Ctx<'_> {
    /// Saves a PNG of the app as `target/e2e/<name>.png` and returns its path.
    pub fn screenshot(&self, name: &str) -> Result<PathBuf, String> {
        // WebKitGTK with compositing off (the app's choice without a GPU) answers a screenshot at
        // the page's next repaint, and an idle page never repaints: a dot in a corner changes
        // colour every frame for two seconds, so that one comes.
        self.session().execute(
            "let dot = document.getElementById('e2e-repaint');
             if (!dot) {
                 dot = document.createElement('div');
                 dot.id = 'e2e-repaint';
                 dot.style.cssText = 'position:fixed;right:0;bottom:0;width:1px;height:1px;pointer-events:none;z-index:99999';
                 document.body.appendChild(dot);
             }
             const until = performance.now() + 2000;
             const tick = () => {
                 dot.style.background = dot.style.background === 'rgb(254, 254, 254)' ? 'rgb(253, 253, 253)' : 'rgb(254, 254, 254)';
                 if (performance.now() < until) requestAnimationFrame(tick);
             };
             requestAnimationFrame(tick);",
            json!([]),
        )?;
        let png = self.session().screenshot()?;
        let path = self.harness.out.join(format!("{name}.png"));
        fs::write(&path, png).map_err(|e| format!("{}: {e}", path.display()))?;
        self.shots.set(self.shots.get() + 1);
        Ok(path)
    }

    /// The WebDriver session on the app.
    pub fn session(&self) -> std::cell::Ref<'_, Session> {
        self.session.borrow()
    }

    /// Starts the app again on the test's workspace (after the test killed it), ending the old
    /// session as well as a dead app allows.
    pub fn relaunch(&self) -> Result<(), String> {
        let workspace = self
            .workspace
            .to_str()
            .ok_or("a workspace path that is not UTF-8")?;
        self.relaunch_with(&["--workspace", workspace]).map(drop)
    }

    /// Starts the app again with `args` (say, the test's workspace and a file to open), ending
    /// the old session as well as a dead app allows. Answers how long the new app took from
    /// being asked for to showing its canvas.
    pub fn relaunch_with(&self, args: &[&str]) -> Result<Duration, String> {
        // The driver allows one session at a time.
        let _ = self.session().end();
        stop_app(&self.workspace);
        let asked = Instant::now();
        let fresh = self.harness.launch_with(args)?;
        let took = asked.elapsed();
        self.session.replace(fresh);
        Ok(took)
    }

    /// Starts the app again on the test's workspace with GTK's text scaled by `factor` (as
    /// GNOME's "Large Text" does, through the font resolution; WebKitGTK then zooms the page): a
    /// script in the test's folder sets `GDK_DPI_SCALE` and starts the app in its place.
    pub fn relaunch_with_text_scale(&self, factor: f64) -> Result<(), String> {
        let script = self
            .harness
            .out
            .join(format!("{}-text-scale.sh", self.name));
        let body = format!(
            "#!/bin/sh\nGDK_DPI_SCALE={factor} exec '{}' \"$@\"\n",
            self.harness.app.display()
        );
        fs::write(&script, body).map_err(|e| format!("{}: {e}", script.display()))?;
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(&script, fs::Permissions::from_mode(0o755))
            .map_err(|e| e.to_string())?;
        let workspace = self
            .workspace
            .to_str()
            .ok_or("a workspace path that is not UTF-8")?;
        let _ = self.session().end();
        stop_app(&self.workspace);
        let fresh = self
            .harness
            .launch_program(&script, &["--workspace", workspace])?;
        self.session.replace(fresh);
        Ok(())
    }

    /// What the driver, and the apps it started, have printed so far in this run.
    pub fn driver_output(&self) -> String {
        ["tauri-driver.log", "tauri-driver.err.log"]
            .iter()
            .map(|f| fs::read_to_string(self.harness.out.join(f)).unwrap_or_default())
            .collect()
    }

    /// The app's process id: the one started on this test's workspace.
    pub fn app_pid(&self) -> Result<String, String> {
        let out = std::process::Command::new("pgrep")
            .arg("-f")
            .arg(&self.workspace)
            .output()
            .map_err(|e| e.to_string())?;
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(str::trim)
            .find(|l| !l.is_empty())
            .map(String::from)
            .ok_or_else(|| "the app's process was not found".into())
    }

    /// The workspace the app was started on (the test's own).
    pub fn workspace(&self) -> &Path {
        &self.workspace
    }

    /// The test's name, for naming extra screenshots.
    pub fn name(&self) -> &'static str {
        self.name
    }
}
