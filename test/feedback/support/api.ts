/** A tiny fetch wrapper for driving the feedback API over real HTTP in tests. */

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export interface RequestOptions {
  headers?: Record<string, string>;
  /** send this exact string as the body (malformed JSON, wrong content type tests) */
  raw?: string;
}

export interface Api {
  get<T = any>(path: string, options?: RequestOptions): Promise<ApiResponse<T>>;
  post<T = any>(path: string, body?: unknown, options?: RequestOptions): Promise<ApiResponse<T>>;
  patch<T = any>(path: string, body?: unknown, options?: RequestOptions): Promise<ApiResponse<T>>;
  put<T = any>(path: string, body?: unknown, options?: RequestOptions): Promise<ApiResponse<T>>;
  del<T = any>(path: string, options?: RequestOptions): Promise<ApiResponse<T>>;
}

/** `token` undefined = no Authorization header at all. */
export function apiClient(baseUrl: string, token?: string): Api {
  async function send(method: string, path: string, body: unknown, options: RequestOptions = {}) {
    const headers: Record<string, string> = { ...options.headers };
    if (token !== undefined) headers.authorization ??= `Bearer ${token}`;
    let payload: string | undefined = options.raw;
    if (payload === undefined && body !== undefined) payload = JSON.stringify(body);
    if (payload !== undefined) headers['content-type'] ??= 'application/json';
    const res = await fetch(`${baseUrl}${path}`, { method, headers, body: payload });
    const text = await res.text();
    let parsed: unknown = text;
    if (text && (res.headers.get('content-type') ?? '').includes('json')) parsed = JSON.parse(text);
    else if (!text) parsed = undefined;
    return { status: res.status, headers: res.headers, body: parsed as any };
  }
  return {
    get: (path, options) => send('GET', path, undefined, options),
    post: (path, body, options) => send('POST', path, body, options),
    patch: (path, body, options) => send('PATCH', path, body, options),
    put: (path, body, options) => send('PUT', path, body, options),
    del: (path, options) => send('DELETE', path, undefined, options),
  };
}
