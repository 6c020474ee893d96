// The console's only way to the data: the public REST API, same origin, JSON bodies, and the
// visitor's bearer token (asked for once, kept in sessionStorage for this tab).

const TOKEN_KEY = "mnemex.token";

export class ApiError extends Error {
  constructor(status, body) {
    const err = (body && body.error) || {};
    super(err.message || `HTTP ${status}`);
    this.status = status;
    this.code = err.code;
  }
}

let asking = null;

function askToken(message) {
  if (asking) return asking;
  const dialog = document.getElementById("login");
  const input = document.getElementById("login-token");
  document.getElementById("login-error").textContent = message || "";
  asking = new Promise((resolve) => {
    document.getElementById("login-form").onsubmit = () => {
      sessionStorage.setItem(TOKEN_KEY, input.value.trim());
      asking = null;
      resolve();
    };
  });
  if (!dialog.open) dialog.showModal();
  input.focus();
  return asking;
}

export async function api(method, path, body) {
  for (let attempt = 0; attempt < 5; attempt++) {
    const headers = { Accept: "application/json" };
    const token = sessionStorage.getItem(TOKEN_KEY);
    if (token) headers.Authorization = `Bearer ${token}`;
    if (body !== undefined) headers["Content-Type"] = "application/json";
    const response = await fetch(path, {
      method, headers, body: body === undefined ? undefined : JSON.stringify(body),
      credentials: "omit",
    });
    const text = await response.text();
    const data = text ? JSON.parse(text) : {};
    if (response.status === 401) {
      sessionStorage.removeItem(TOKEN_KEY);
      await askToken(token ? "That token was refused." : "");
      continue;
    }
    if (!response.ok) throw new ApiError(response.status, data);
    return data;
  }
  throw new ApiError(401, { error: { message: "no valid token" } });
}

export const get = (path, params = {}) => {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === null || value === undefined || value === "") continue;
    for (const item of Array.isArray(value) ? value : [value]) query.append(key, item);
  }
  const qs = query.toString();
  return api("GET", qs ? `${path}?${qs}` : path);
};
export const post = (path, body = {}) => api("POST", path, body);
export const patch = (path, body) => api("PATCH", path, body);
export const del = (path) => api("DELETE", path);
