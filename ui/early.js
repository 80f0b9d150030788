// Runs before the UI's wasm has loaded, and asks the shell for the plan list at once: the first
// call into a freshly started shell costs ~200 ms here (WebKitGTK's first request on the IPC
// channel), which then overlaps the loading of the UI instead of delaying the first plan.
// The UI takes this answer for its first list (ui/src/ipc.rs, `list_plans`).
if (window.__TAURI__ && window.__TAURI__.core) {
  window.__planBuilderFirstList = window.__TAURI__.core.invoke('list_plans', {});
  // An early failure is the UI's to report; no unhandled-rejection noise before it asks.
  window.__planBuilderFirstList.catch(() => {});
}
