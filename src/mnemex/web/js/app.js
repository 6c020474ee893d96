// The console's shell: a hash router over the views; each view renders into <main>.
import { get } from "./api.js";
import { errorBox, h, mount } from "./dom.js";
import { entityView, graphView } from "./graph.js";
import { factsView, reviewsView } from "./ledger.js";
import { memoriesView, openMemory, searchView, timelineView } from "./memories.js";
import { activityView, decayView, settingsView } from "./upkeep.js";

const VIEWS = {
  search: searchView, memories: memoriesView, timeline: timelineView, graph: graphView,
  entity: entityView, facts: factsView, reviews: reviewsView, decay: decayView,
  activity: activityView, settings: settingsView,
};

let current = null;

async function route() {
  const [name, ...rest] = (location.hash.replace(/^#\/?/, "") || "search").split("/");
  const arg = rest.length ? decodeURIComponent(rest.join("/")) : null;
  const view = VIEWS[name] || searchView;
  for (const link of document.querySelectorAll("#nav a")) {
    link.classList.toggle("active", link.getAttribute("href") === `#/${name}`);
  }
  if (current && current.stop) current.stop();
  const root = document.getElementById("view");
  root.dataset.view = name;
  root.dataset.ready = "";
  mount(root, h("p", { class: "muted" }, "loading..."));
  try {
    if (name === "memories" && arg) {
      current = await memoriesView(root);
      await openMemory(arg, current.reload);
    } else {
      current = await view(root, arg);
    }
  } catch (err) {
    mount(root, errorBox(err));
  }
  root.dataset.ready = "yes";
  refreshCounts();
}

async function refreshCounts() {
  try {
    const { reviews } = await get("/v1/reviews", { limit: 1000 });
    document.getElementById("review-count").textContent = reviews.length ? `(${reviews.length})` : "";
  } catch (err) { /* the view shows errors; the count is a hint */ }
}

async function start() {
  try {
    const info = await get("/v1/settings");
    document.getElementById("tenant").textContent = `tenant ${info.tenant}`;
  } catch (err) { /* shown by the view */ }
  window.addEventListener("hashchange", route);
  await route();
}

start();
