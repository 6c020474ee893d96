// Decay (distribution, what fades next, a preview, restoring archived memories), Activity and
// Settings.
import { get, post } from "./api.js";
import { badge, h, memoryLink, mount, num, table, when } from "./dom.js";

function bars(id, bins, label) {
  const top = Math.max(1, ...bins.map((b) => b.count));
  return h("div", { id },
    h("div", { class: "bars" }, bins.map((b) => h("div", { style: `height:${(100 * b.count) / top}%`, title: `${label(b)}: ${b.count}` }, h("span", {}, b.count)))),
    h("div", { class: "bar-labels" }, bins.map((b) => h("span", {}, label(b)))));
}

function scoredTable(items) {
  return items.length
    ? table(["score", "uses", "memory"], items.map((m) => h("tr", {}, h("td", {}, num(m.score)), h("td", {}, m.use_count), h("td", {}, memoryLink(m.id, m.preview)))))
    : h("p", { class: "muted" }, "none");
}

export async function decayView(root) {
  const [stats, archived] = await Promise.all([get("/v1/stats"), get("/v1/memories", { status: "archived", limit: 50 })]);
  const preview = h("div", { id: "decay-preview" });
  async function run() {
    const report = await post("/v1/decay/run", { dry_run: true });
    mount(preview, h("h2", {}, `Below the forget threshold ${report.threshold} (${report.candidates.length})`),
      scoredTable(report.candidates), h("h2", {}, `Nearing the threshold (${report.nearing.length})`), scoredTable(report.nearing));
  }
  const archivedList = archived.items.length
    ? table(["memory", "score", ""], archived.items.map((m) => h("tr", {}, h("td", {}, memoryLink(m.id, m.content)), h("td", {}, num(m.score)),
      h("td", {}, h("button", { onclick: async () => { await post(`/v1/restore/${m.id}`); decayView(root); } }, "restore")))))
    : h("p", { class: "muted" }, "no archived memories");
  mount(root, h("h1", {}, "Decay"),
    h("p", {}, `${stats.memories.total} memories, mean score ${num(stats.score.mean)}, ${stats.score.danger_zone} in the danger zone, ${stats.score.below_forget_threshold} below the forget threshold (${stats.decay_curve}).`),
    h("h2", {}, "Strength"), bars("strength-plot", stats.strength.histogram, (b) => num(b.low, 1)),
    h("h2", {}, "Score"), bars("score-plot", stats.score.histogram, (b) => (b.high === null ? `≥${b.low}` : `<${b.high}`)),
    h("div", { class: "row" }, h("button", { id: "decay-run", class: "primary", onclick: run }, "Run a preview")),
    preview, h("h2", {}, "Archived"), archivedList);
  await run();
}

function describe(event) {
  const p = event.payload || {};
  const bits = Object.entries(p).filter(([, v]) => v !== null && v !== undefined && !(Array.isArray(v) && !v.length));
  return bits.map(([k, v]) => `${k}: ${Array.isArray(v) ? v.join(", ") : typeof v === "object" ? JSON.stringify(v) : v}`).join("; ");
}

export async function activityView(root) {
  const kind = h("select", { id: "activity-kind" }, ["", "save", "recall", "fact_superseded", "fact_created", "update", "forget", "restore", "pin", "review_approved", "review_rejected", "gc", "touch", "observe"].map((k) => h("option", { value: k }, k || "all")));
  const list = h("div", { id: "activity-list" });
  async function load() {
    const { events } = await get("/v1/events", { kind: kind.value, limit: 200 });
    mount(list, events.length ? table(["when", "what", "about", "details"], events.map((e) => h("tr", { class: "event" },
      h("td", {}, when(e.at)), h("td", {}, badge(e.kind)),
      h("td", {}, e.subject_id && e.subject_id.startsWith("mem_") ? memoryLink(e.subject_id) : h("span", { class: "id" }, e.subject_id || "")),
      h("td", {}, describe(e))))) : h("p", { class: "muted" }, "no events"));
  }
  kind.onchange = load;
  mount(root, h("h1", {}, "Activity"), h("div", { class: "row" }, "kind ", kind), list);
  await load();
}

function bytes(n) {
  if (n === null || n === undefined) return "in memory";
  return n > 1048576 ? `${(n / 1048576).toFixed(1)} MiB` : `${(n / 1024).toFixed(1)} KiB`;
}

export async function settingsView(root) {
  const [info, health] = await Promise.all([get("/v1/settings"), get("/health")]);
  const store = info.store;
  mount(root, h("h1", {}, "Settings"), h("p", { class: "muted" }, "Read-only: set them as MNEMEX_<NAME> or in the MNEMEX_CONFIG file, then restart the server."),
    h("h2", {}, "Store"),
    table(["", ""], [["tenant", info.tenant], ["backend", store.backend], ["location", store.location], ["size", bytes(store.file_bytes)],
      ["schema version", store.schema_version], ["version", health.version], ["auth", health.auth]].map(([k, v]) => h("tr", {}, h("th", {}, k), h("td", { id: `store-${k.replace(/ /g, "-")}` }, String(v ?? "")))) ),
    h("h2", {}, "Models"),
    table(["model", "state"], Object.entries(info.models).map(([k, v]) => h("tr", {}, h("td", {}, k), h("td", {}, v)))),
    h("h2", {}, "Configuration"),
    table(["setting", "value"], Object.entries(info.settings).map(([k, v]) => h("tr", { class: "setting" }, h("td", {}, k), h("td", { class: "id" }, typeof v === "object" && v !== null ? JSON.stringify(v) : String(v))))));
}
