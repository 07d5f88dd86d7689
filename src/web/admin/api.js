// The page's one door to kasa: the public HTTP API, same origin, with the token (if any) from
// sessionStorage in the Authorization header — never in a URL.

const TOKEN_KEY = 'kasa-token';

export class ApiError extends Error {
  constructor(status, body) {
    super(body?.error ?? `HTTP ${status}`);
    this.status = status;
    this.body = body ?? {};
    this.resultCode = body?.resultCode ?? -1;
    this.field = body?.field;
  }
}

let onUnauthorized = () => {};

export function whenUnauthorized(handler) {
  onUnauthorized = handler;
}

export function token() {
  return sessionStorage.getItem(TOKEN_KEY);
}

export function setToken(value) {
  if (value) sessionStorage.setItem(TOKEN_KEY, value);
  else sessionStorage.removeItem(TOKEN_KEY);
}

/** Calls `method path` with an optional JSON body; resolves with the JSON answer of a success. */
export async function api(method, path, body, { tokenOverride, quiet401 = false } = {}) {
  const headers = { accept: 'application/json' };
  const tk = tokenOverride ?? token();
  if (tk) headers.authorization = `Bearer ${tk}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  let res;
  try {
    res = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: 'omit',
      cache: 'no-store',
    });
  } catch {
    throw new ApiError(0, undefined);
  }
  let json;
  try {
    json = await res.json();
  } catch {
    json = undefined;
  }
  if (res.status === 401 && !quiet401) onUnauthorized();
  // API text: some failures answer HTTP 200 with an ErrorResponse (506 on document/get, 507 on store).
  if (!res.ok || (json && typeof json.resultCode === 'number' && json.resultCode !== 0)) {
    throw new ApiError(res.status, json);
  }
  return json;
}

export const get = (path, options) => api('GET', path, undefined, options);
export const post = (path, body = {}, options) => api('POST', path, body, options);
export const put = (path, body, options) => api('PUT', path, body, options);

/** The API paths this kasa serves (from its OpenAPI document), to show only what works. */
let pathsPromise;
export function apiPaths() {
  pathsPromise ??= get('/api/openapi.json')
    .then((doc) => new Set(Object.keys(doc.paths ?? {})))
    .catch(() => {
      pathsPromise = undefined;
      return new Set();
    });
  return pathsPromise;
}
