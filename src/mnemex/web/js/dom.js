// Small DOM helpers: build elements without innerHTML (memory text is never parsed as HTML).

export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
    else if (key === "class") el.className = value;
    else el.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

export function mount(root, ...children) {
  root.replaceChildren(...children.flat(Infinity).filter((c) => c !== null && c !== undefined));
}

export function when(iso) {
  if (!iso) return "";
  return iso.replace("T", " ").replace(/\.\d+/, "").replace("+00:00", " UTC");
}

export function num(value, digits = 3) {
  return value === null || value === undefined ? "" : Number(value).toFixed(digits);
}

export function badge(text, kind = "") {
  return h("span", { class: `badge ${kind}` }, text);
}

export function table(headers, rows) {
  return h("table", {}, h("thead", {}, h("tr", {}, headers.map((x) => h("th", {}, x)))),
    h("tbody", {}, rows));
}

export function memoryLink(id, text) {
  return h("a", { href: `#/memories/${encodeURIComponent(id)}`, class: "id" }, text || id);
}

export function entityLink(name) {
  return h("a", { href: `#/entity/${encodeURIComponent(name)}` }, name);
}

export function errorBox(err) {
  return h("p", { class: "error", role: "alert" }, `error: ${err.message || err}`);
}
