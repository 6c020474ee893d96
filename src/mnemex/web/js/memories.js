// Search, Memories (filters, pages, edit, pin, forget, restore) and Timeline.
import { del, get, patch, post } from "./api.js";
import { badge, entityLink, errorBox, h, memoryLink, mount, num, when } from "./dom.js";

const PAGE = 25;

function tags(memory) {
  return memory.tags.map((t) => badge(t, t === "pinned" ? "pinned" : "tag"));
}

function stateBadges(memory) {
  const out = [memory.superseded_by ? badge("superseded", "superseded") : badge("current", "current")];
  if (memory.status !== "active") out.push(badge(memory.status));
  return out;
}

export async function searchView(root) {
  const query = h("input", { id: "search-query", type: "search", placeholder: "What do you remember about...", size: 50 });
  const history = h("input", { id: "search-history", type: "checkbox" });
  const results = h("div", { id: "search-results" });
  async function run(event) {
    if (event) event.preventDefault();
    if (!query.value.trim()) return;
    mount(results, h("p", { class: "muted" }, "searching..."));
    try {
      const { hits } = await post("/v1/search", {
        query: query.value, k: 20, explain: true, include_history: history.checked,
      });
      mount(results, hits.length ? hits.map(hitCard) : h("p", { class: "muted" }, "no matches"));
    } catch (err) { mount(results, errorBox(err)); }
  }
  mount(root, h("h1", {}, "Search"),
    h("form", { class: "row", onsubmit: run }, query,
      h("label", {}, history, " include superseded"), h("button", { class: "primary" }, "Search")),
    results);
  query.focus();
}

function hitCard(hit, index) {
  const m = hit.memory;
  const channels = Object.entries(hit.channels).map(([name, c]) =>
    h("span", {}, `${name} #${c.rank} `, h("b", {}, num(c.score))));
  return h("div", { class: `card hit ${m.superseded_by ? "superseded" : ""}` },
    h("div", { class: "row" }, h("b", {}, `${index + 1}.`), stateBadges(m), h("span", { class: "muted" }, `score ${num(hit.score)}`),
      memoryLink(m.id)),
    h("div", { class: "content" }, m.content),
    h("div", { class: "row" }, tags(m), m.entities.map((e) => h("span", { class: "badge" }, entityLink(e)))),
    h("div", { class: "channels" }, channels));
}

function memoryRow(m, reload) {
  const actions = [h("button", { onclick: () => openMemory(m.id, reload) }, "open")];
  const pinned = m.tags.includes("pinned");
  actions.push(h("button", { onclick: async () => { await post(`/v1/memories/${m.id}/pin`, { pinned: !pinned }); reload(); } }, pinned ? "unpin" : "pin"));
  if (m.status === "deleted" || m.status === "archived") {
    actions.push(h("button", { onclick: async () => { await post(`/v1/restore/${m.id}`); reload(); } }, "restore"));
  } else {
    actions.push(h("button", { class: "danger", onclick: async () => { await del(`/v1/memories/${m.id}`); reload(); } }, "forget"));
  }
  return h("tr", { class: "memory" },
    h("td", {}, h("div", {}, m.content), h("div", {}, tags(m)), h("span", { class: "id" }, m.id)),
    h("td", {}, stateBadges(m)), h("td", {}, num(m.strength, 2)), h("td", {}, num(m.score)),
    h("td", {}, m.source || ""), h("td", {}, when(m.created_at)), h("td", {}, actions));
}

export async function memoriesView(root) {
  const f = {
    tag: h("input", { id: "filter-tag", placeholder: "tag", size: 10 }),
    status: h("select", { id: "filter-status" }, ["live", "active", "promoted", "archived", "deleted"].map((s) => h("option", { value: s }, s))),
    entity: h("input", { id: "filter-entity", placeholder: "entity", size: 12 }),
    min: h("input", { id: "filter-min", placeholder: "min strength", size: 6 }),
    max: h("input", { id: "filter-max", placeholder: "max strength", size: 6 }),
    source: h("input", { id: "filter-source", placeholder: "source", size: 10 }),
  };
  let offset = 0;
  const list = h("div", { id: "memory-list" });
  const pager = h("div", { class: "row" });
  async function load() {
    try {
      const status = f.status.value === "live" ? ["active", "promoted"] : f.status.value;
      const page = await get("/v1/memories", {
        limit: PAGE, offset, status, tags: f.tag.value, entity: f.entity.value,
        source: f.source.value, min_strength: f.min.value, max_strength: f.max.value,
      });
      mount(list, page.items.length
        ? h("table", {}, h("thead", {}, h("tr", {}, ["memory", "state", "strength", "score", "source", "saved", ""].map((x) => h("th", {}, x)))),
          h("tbody", {}, page.items.map((m) => memoryRow(m, load))))
        : h("p", { class: "muted" }, "no memories match"));
      mount(pager,
        h("button", { id: "page-prev", disabled: offset === 0, onclick: () => { offset = Math.max(0, offset - PAGE); load(); } }, "previous"),
        h("span", { class: "muted", id: "page-info" }, `${offset + 1}-${offset + page.items.length}`),
        h("button", { id: "page-next", disabled: page.next_offset === null, onclick: () => { offset = page.next_offset; load(); } }, "next"));
    } catch (err) { mount(list, errorBox(err)); }
  }
  const apply = (event) => { event.preventDefault(); offset = 0; load(); };
  mount(root, h("h1", {}, "Memories"),
    h("form", { class: "row", onsubmit: apply }, Object.values(f), h("button", { class: "primary" }, "Filter")),
    list, pager);
  await load();
  return { reload: load };
}

export async function openMemory(id, reload = () => {}) {
  const panel = document.getElementById("panel");
  panel.hidden = false;
  mount(panel, h("p", { class: "muted" }, "loading..."));
  try {
    const m = await get(`/v1/memories/${encodeURIComponent(id)}`);
    const content = h("textarea", { id: "edit-content", rows: 6, cols: 50 }, m.content);
    const tagInput = h("input", { id: "edit-tags", value: m.tags.join(", "), size: 40 });
    const strength = h("input", { id: "edit-strength", value: m.strength, size: 5 });
    const status = h("p", { id: "edit-status", class: "muted" });
    async function save(event) {
      event.preventDefault();
      try {
        await patch(`/v1/memories/${m.id}`, {
          content: content.value,
          tags: tagInput.value.split(",").map((t) => t.trim()).filter(Boolean),
          strength: Number(strength.value),
        });
        status.textContent = "saved";
        reload();
      } catch (err) { status.textContent = `error: ${err.message}`; }
    }
    mount(panel, h("div", { class: "row" }, h("b", {}, "Memory"), h("button", { onclick: () => { panel.hidden = true; } }, "close")),
      h("p", { class: "id" }, m.id), h("p", {}, stateBadges(m), tags(m)),
      h("table", {}, ["score", "use_count", "created_at", "observed_at", "last_used", "source", "superseded_by"].map((k) =>
        h("tr", {}, h("th", {}, k), h("td", {}, k.endsWith("_at") || k === "last_used" ? when(m[k]) : String(m[k] ?? ""))))),
      h("p", {}, "entities: ", m.entities.map((e) => [entityLink(e), " "])),
      h("form", { onsubmit: save }, h("p", {}, content), h("p", {}, "tags ", tagInput), h("p", {}, "strength ", strength),
        h("button", { class: "primary" }, "Save changes")),
      status);
  } catch (err) { mount(panel, errorBox(err)); }
}

const GROUPS = ["Today", "Yesterday", "This week", "Earlier"];

function groupOf(iso, now) {
  const day = (d) => new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();
  const days = Math.round((day(now) - day(new Date(iso))) / 86400000);
  if (days <= 0) return "Today";
  if (days === 1) return "Yesterday";
  if (days < 7) return "This week";
  return "Earlier";
}

export async function timelineView(root) {
  const page = await get("/v1/memories", { order: "created", limit: 200, status: ["active", "promoted"] });
  const now = new Date();
  const groups = Object.fromEntries(GROUPS.map((g) => [g, []]));
  for (const m of page.items) groups[groupOf(m.observed_at || m.created_at, now)].push(m);
  mount(root, h("h1", {}, "Timeline"),
    GROUPS.map((g) => h("section", { class: "timeline-group", "data-group": g },
      h("h2", {}, `${g} (${groups[g].length})`),
      groups[g].map((m) => h("div", { class: "card" },
        h("span", { class: "muted" }, when(m.observed_at || m.created_at)), " ", memoryLink(m.id, "open"),
        h("div", {}, m.content), h("div", {}, tags(m)))))));
}
