// Facts and profile (with time travel) and the review queue.
import { get, post } from "./api.js";
import { badge, entityLink, errorBox, h, memoryLink, mount, num, table, when } from "./dom.js";
import { TimeSlider } from "./time.js";

function windowOf(f) {
  return `${when(f.valid_from).slice(0, 10)} → ${f.valid_to ? when(f.valid_to).slice(0, 10) : "now"}`;
}

// One row per key: its value (current, or as of the slider), then its earlier values.
export function factTable(facts, { history = false } = {}) {
  if (!facts.length) return h("p", { class: "muted facts-empty" }, "no facts");
  const keys = new Map();
  for (const f of facts) {
    const key = `${f.subject}\u0000${f.relation}`;
    if (!keys.has(key)) keys.set(key, []);
    keys.get(key).push(f);
  }
  const rows = [];
  for (const group of keys.values()) {
    group.sort((a, b) => Date.parse(b.valid_from) - Date.parse(a.valid_from));
    const current = group.find((f) => f.status === "active") || group[0];
    const older = group.filter((f) => f !== current);
    rows.push(h("tr", { class: "fact", "data-key": `${current.subject}/${current.relation}` },
      h("td", {}, entityLink(current.subject)), h("td", {}, current.relation),
      h("td", { class: "fact-value" }, h("b", {}, current.object), " ", current.status !== "active" ? badge(current.status, "superseded") : badge("current", "current")),
      h("td", {}, windowOf(current)), h("td", {}, current.memory_id ? memoryLink(current.memory_id, "source") : ""),
      h("td", { class: "history" }, history && older.length
        ? older.map((f) => h("div", { class: "muted" }, `${f.object} (${f.status}, ${windowOf(f)})`)) : "")));
  }
  return table(["subject", "key", "value", "valid", "", "history"], rows);
}

export async function factsView(root) {
  const [profile, all] = await Promise.all([get("/v1/profile", { limit: 20 }), get("/v1/facts", { include_history: true })]);
  const times = all.facts.map((f) => Date.parse(f.recorded_at)).filter((t) => !Number.isNaN(t));
  const subject = h("input", { id: "facts-subject", placeholder: "subject", size: 14 });
  const body = h("div", { id: "facts-table" });
  let pending = 0;
  async function load() {
    const ticket = ++pending;
    try {
      const params = { subject: subject.value, include_history: slider.atNow };
      if (!slider.atNow) params.as_of = slider.iso;
      const { facts } = await get("/v1/facts", params);
      if (ticket !== pending) return; // a later move of the slider answered first
      body.dataset.asOf = slider.atNow ? "now" : slider.iso;
      mount(body, factTable(facts, { history: slider.atNow }));
    } catch (err) { mount(body, errorBox(err)); }
  }
  let debounce = null;
  const slider = new TimeSlider("facts-time", Math.min(Date.now(), ...times) - 1000, Date.now(), () => {
    clearTimeout(debounce);
    debounce = setTimeout(load, 40);
  });
  mount(root, h("h1", {}, "Facts and profile"),
    h("h2", {}, "Profile"),
    h("div", { id: "profile" }, profile.facts.length ? profile.facts.map((f) => h("span", { class: "badge" }, `${f.subject} · ${f.relation}: `, h("b", {}, f.object))) : h("span", { class: "muted" }, "no profile facts yet")),
    h("h2", {}, "Facts"),
    h("form", { class: "row", onsubmit: (e) => { e.preventDefault(); load(); } }, subject, h("button", {}, "Filter")),
    slider.element, body);
  await load();
  return { stop: () => slider.stop() };
}

async function reviewDetails(review) {
  const p = review.payload;
  const out = { statement: null, replaces: null };
  const memoryId = p.memory_id || p.memory;
  if (memoryId) {
    try { out.statement = (await get(`/v1/memories/${memoryId}`)).content; } catch (err) { /* forgotten since */ }
  }
  if (p.subject && p.proposed) {
    const { facts } = await get("/v1/facts", { subject: p.subject, relation: p.proposed });
    out.replaces = facts.find((f) => f.relation === p.proposed) || null;
  }
  if (p.similar_to) {
    try { out.similar = (await get(`/v1/memories/${p.similar_to}`)).content; } catch (err) { /* gone */ }
  }
  return out;
}

export async function reviewsView(root) {
  const { reviews } = await get("/v1/reviews", { limit: 100 });
  const details = await Promise.all(reviews.map(reviewDetails));
  const note = h("p", { id: "review-result", class: "muted" });
  async function decide(review, decision) {
    try {
      const done = await post(`/v1/reviews/${review.id}`, { decision });
      note.textContent = `${done.id}: ${done.status}`;
      await reviewsView(root);
      root.querySelector("#review-result").textContent = note.textContent;
    } catch (err) { note.textContent = `error: ${err.message}`; }
  }
  mount(root, h("h1", {}, `Review queue (${reviews.length})`), note,
    reviews.length ? reviews.map((r, i) => {
      const d = details[i], p = r.payload;
      const proposal = p.proposed
        ? [h("p", {}, `${p.subject} · `, h("b", {}, p.proposed), p.relation && p.relation !== p.proposed ? ` (stated as "${p.relation}")` : "", ` = `, h("b", { class: "review-value" }, p.value)),
          h("p", { class: "review-replaces" }, d.replaces ? [`would replace `, h("b", {}, d.replaces.object), ` (since ${when(d.replaces.valid_from).slice(0, 10)})`] : "no current value to replace")]
        : [h("p", {}, "similar to: ", d.similar || p.similar_to || "")];
      return h("div", { class: "card review", "data-id": r.id },
        h("div", { class: "row" }, badge(r.kind), h("span", { class: "muted" }, `confidence ${num(r.confidence, 2)}, ${when(r.created_at)}`), h("span", { class: "id" }, r.id)),
        h("p", { class: "review-statement" }, d.statement ? `“${d.statement}”` : ""),
        proposal,
        h("div", { class: "row" },
          h("button", { class: "primary", "data-decision": "approve", onclick: () => decide(r, "approve") }, "Approve"),
          h("button", { "data-decision": "reject", onclick: () => decide(r, "reject") }, "Reject")));
    }) : h("p", { class: "muted" }, "nothing to review"));
}
