// Graph (the whole entity graph, with time travel) and the Entity page.
import { get } from "./api.js";
import { badge, entityLink, errorBox, h, memoryLink, mount, num, table, when } from "./dom.js";
import { factTable } from "./ledger.js";
import { TimeSlider } from "./time.js";

const PALETTE = ["#2f6feb", "#e36209", "#2e7d32", "#8250df", "#c62828", "#0a7ea4", "#b08800",
  "#bf3989", "#57606a", "#1b7f5a"];
const LAYOUTS = {
  concentric: { name: "concentric", concentric: (n) => n.data("mentions"), levelWidth: (nodes) => Math.max(1, Math.max(...nodes.map((n) => n.data("mentions"))) / 6), minNodeSpacing: 6 },
  cose: { name: "cose", animate: false, numIter: 600, nodeRepulsion: () => 8000, idealEdgeLength: () => 60, randomize: false },
  circle: { name: "circle" },
  grid: { name: "grid" },
  breadthfirst: { name: "breadthfirst", spacingFactor: 0.8 },
};

let loading = null;
function cytoscapeLib() {
  if (window.cytoscape) return Promise.resolve(window.cytoscape);
  loading = loading || new Promise((resolve, reject) => {
    const script = document.createElement("script");
    script.src = "/console/vendor/cytoscape.min.js";
    script.onload = () => resolve(window.cytoscape);
    script.onerror = () => reject(new Error("could not load the graph library"));
    document.head.append(script);
  });
  return loading;
}

// What a node or edge was at time t: "gone" (did not exist yet, or had expired), "ghost"
// (existed then, expired since) or "live".
export function stateAt(created, expired, t) {
  if (created && Date.parse(created) > t) return "gone";
  if (expired && Date.parse(expired) <= t) return "gone";
  return expired ? "ghost" : "live";
}

export async function graphView(root) {
  const [graph, cytoscape] = await Promise.all([get("/v1/graph", { limit: 2000 }), cytoscapeLib()]);
  const categories = [...new Set(graph.nodes.map((n) => n.category || "other"))].sort();
  const colour = Object.fromEntries(categories.map((c, i) => [c, PALETTE[i % PALETTE.length]]));
  const shown = new Set(categories);
  const canvas = h("div", { id: "graph-canvas" });
  const tip = h("div", { id: "graph-tip", hidden: true });
  const counter = h("span", { id: "graph-count", class: "muted" });
  const layout = h("select", { id: "graph-layout" }, Object.keys(LAYOUTS).map((n) => h("option", { value: n }, n)));
  const legend = h("div", { class: "legend", id: "graph-legend" }, categories.map((c) => {
    const box = h("input", { type: "checkbox", checked: true, "data-category": c, onchange: () => { box.checked ? shown.add(c) : shown.delete(c); refresh(); } });
    return h("label", {}, box, h("span", { class: "swatch", style: `background:${colour[c]}` }), c);
  }));
  const times = graph.nodes.map((n) => Date.parse(n.created_at)).filter((t) => !Number.isNaN(t));
  const slider = new TimeSlider("graph-time", Math.min(Date.now(), ...times), Date.now(), () => refresh());
  mount(root, h("h1", {}, "Graph"),
    h("div", { class: "row" }, "layout ", layout, counter), legend, slider.element, canvas, tip);
  const maxMentions = Math.max(1, ...graph.nodes.map((n) => n.mentions));
  const cy = cytoscape({
    container: canvas,
    elements: [
      ...graph.nodes.map((n) => ({ data: { id: n.id, label: n.label, category: n.category || "other", mentions: n.mentions,
        size: 12 + 38 * Math.sqrt(n.mentions / maxMentions), colour: colour[n.category || "other"], created: n.created_at, expired: n.expired_at } })),
      ...graph.edges.map((e) => ({ data: { id: e.id, source: e.from_id, target: e.to_id, label: e.type, created: e.valid_from || e.created_at, expired: e.expired_at || e.valid_to } })),
    ],
    style: [
      { selector: "node", style: { "background-color": "data(colour)", width: "data(size)", height: "data(size)", label: "data(label)", "font-size": 10, color: "#333", "min-zoomed-font-size": graph.nodes.length > 300 ? 8 : 0 } },
      { selector: "edge", style: { width: 1, "line-color": "#b8c0c8", "curve-style": "haystack", opacity: 0.8 } },
      { selector: ".ghost", style: { opacity: 0.3, "border-width": 2, "border-style": "dashed", "border-color": "#555", "line-style": "dashed" } },
      { selector: ".gone, .filtered", style: { display: "none" } },
    ],
    layout: LAYOUTS[graph.nodes.length <= 600 ? "cose" : "grid"],
    minZoom: 0.05,
    // Thousands of nodes: draw a bitmap while panning and zooming, at one pixel per pixel.
    textureOnViewport: graph.nodes.length > 600,
    hideEdgesOnViewport: graph.nodes.length > 600,
    pixelRatio: graph.nodes.length > 600 ? 1 : "auto",
  });
  window.mnemexGraph = cy; // for tests and the curious: the live cytoscape instance
  // Classes change only where an element's state changed: a slider move on thousands of
  // elements restyles the few that appeared, expired or were filtered.
  function mark(el, key) {
    if ((el.scratch("_state") || "live") === key) return;
    el.scratch("_state", key);
    el.classes(key === "live" ? [] : key.split(" "));
  }
  function refresh() {
    const t = slider.value;
    let live = 0, ghosts = 0, edges = 0;
    const visible = new Set();
    cy.batch(() => {
      cy.nodes().forEach((n) => {
        const state = stateAt(n.data("created"), n.data("expired"), t);
        const hidden = !shown.has(n.data("category"));
        mark(n, hidden && state !== "gone" ? "filtered" : state);
        if (state === "gone" || hidden) return;
        visible.add(n.id());
        state === "ghost" ? ghosts++ : live++;
      });
      cy.edges().forEach((e) => {
        const state = stateAt(e.data("created"), e.data("expired"), t);
        mark(e, state);
        if (state !== "gone" && visible.has(e.data("source")) && visible.has(e.data("target"))) edges++;
      });
    });
    counter.textContent = `${live} entities, ${ghosts} ghosts, ${edges} relations`;
  }
  layout.value = graph.nodes.length <= 600 ? "cose" : "grid";
  layout.onchange = () => cy.layout(LAYOUTS[layout.value]).run();
  cy.on("mouseover", "node", (event) => {
    const d = event.target.data();
    tip.textContent = `${d.label} (${d.category}), ${d.mentions} memories, since ${when(d.created).slice(0, 10)}${d.expired ? `, expired ${when(d.expired).slice(0, 10)}` : ""}`;
    const p = event.renderedPosition, box = canvas.getBoundingClientRect();
    tip.style.left = `${box.left + p.x + 12}px`;
    tip.style.top = `${box.top + p.y + 12}px`;
    tip.hidden = false;
  });
  cy.on("mouseout", "node", () => { tip.hidden = true; });
  cy.on("tap", "node", (event) => entityPanel(event.target.data("label")));
  refresh();
  return { stop: () => { slider.stop(); cy.destroy(); } };
}

async function entityPanel(name) {
  const panel = document.getElementById("panel");
  panel.hidden = false;
  try {
    const e = await get(`/v1/entities/${encodeURIComponent(name)}`);
    mount(panel, h("div", { class: "row" }, h("b", {}, e.name), h("button", { onclick: () => { panel.hidden = true; } }, "close")),
      h("p", {}, badge(e.category || "other"), e.tags.map((t) => badge(t, "tag"))),
      h("p", {}, e.summary || h("span", { class: "muted" }, "no summary")),
      h("p", {}, h("a", { href: `#/entity/${encodeURIComponent(e.name)}`, id: "open-entity" }, "open the entity page")));
  } catch (err) { mount(panel, errorBox(err)); }
}

export async function entityView(root, name) {
  document.getElementById("panel").hidden = true;
  const [e, facts, graph] = await Promise.all([
    get(`/v1/entities/${encodeURIComponent(name)}`),
    get("/v1/facts", { subject: name, include_history: true }),
    get("/v1/graph", { entity: name, depth: 1 }),
  ]);
  const byId = Object.fromEntries(graph.nodes.map((n) => [n.id, n]));
  const relations = graph.edges.filter((r) => r.type !== "mentions");
  const memories = graph.nodes.filter((n) => n.kind === "memory");
  // Bookkeeping of enrichment (category votes, who set what, the Markdown it builds) is not a detail.
  const kept = (k) => !["markdown", "category_votes", "category_sure", "category_set_by", "summary_set_by", "attributes"].includes(k);
  const details = Object.entries(e.details || {}).filter(([k]) => kept(k));
  mount(root, h("h1", { id: "entity-name" }, e.name),
    h("p", {}, badge(e.category || "other"), e.tags.map((t) => badge(t, "tag")), e.aliases.length ? ` also: ${e.aliases.join(", ")}` : ""),
    h("p", { id: "entity-summary" }, e.summary || h("span", { class: "muted" }, "no summary")),
    details.length ? table(["detail", "value"], details.map(([k, v]) => h("tr", {}, h("td", {}, k), h("td", {}, typeof v === "string" ? v : JSON.stringify(v))))) : null,
    h("h2", {}, "Facts"), factTable(facts.facts, { history: true }),
    h("h2", {}, "Relations"),
    relations.length ? table(["from", "relation", "to", "since", "strength"], relations.map((r) => h("tr", {},
      h("td", {}, byId[r.from_id] ? entityLink(byId[r.from_id].label) : r.from_id), h("td", {}, r.type),
      h("td", {}, byId[r.to_id] ? entityLink(byId[r.to_id].label) : r.to_id), h("td", {}, when(r.valid_from || r.created_at)), h("td", {}, num(r.strength, 2)))))
      : h("p", { class: "muted" }, "no relations"),
    h("h2", {}, `Source memories (${memories.length})`),
    h("div", { id: "entity-memories" }, memories.map((m) => h("div", { class: "card" }, memoryLink(m.id, "open"), " ", m.label))));
}
