// HTTP calls to the server's API, and its refusals as errors with the server's code.

import { clientToken } from "./storage.js";

export class ApiError extends Error {
  constructor(status, body) {
    super(body?.detail || `HTTP ${status}`);
    this.status = status;
    this.code = body?.error || "network";
    this.detail = body?.detail || "";
    this.rule = body?.rule || null;
    this.reason = body?.reason || null;
    this.rule = body?.rule || null; // an illegal move: the rule it breaks (describeError)
    this.details = body?.details || {};
  }
}

export async function api(path, { method = "GET", body, token } = {}) {
  const headers = { "X-Panal-Client": clientToken() };
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
