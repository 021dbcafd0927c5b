// HTTP calls and the secret seat tokens kept in this browser.

export class ApiError extends Error {
  constructor(status, body) {
    super(body?.detail || `HTTP ${status}`);
    this.status = status;
    this.code = body?.error || "network";
    this.detail = body?.detail || "";
    this.reason = body?.reason || null;
    this.details = body?.details || {};
  }
}

export async function api(path, { method = "GET", body, token } = {}) {
  const headers = {};
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  let response;
  try {
    response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    throw new ApiError(0, { error: "network", detail: "" });
  }
  const data = await response.json().catch(() => null);
  if (!response.ok) throw new ApiError(response.status, data);
  return data;
}

const TOKEN_PREFIX = "panal.token.";

export function seatToken(gameId) {
  try {
    return localStorage.getItem(TOKEN_PREFIX + gameId);
  } catch {
    return null;
  }
}

export function saveSeatToken(gameId, token) {
  try {
    localStorage.setItem(TOKEN_PREFIX + gameId, token);
  } catch {
    // Private browsing without storage: the token lives in the page's URL fragment instead.
  }
}
