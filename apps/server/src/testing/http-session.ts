/**
 * A browser-like HTTP client for tests: keeps cookies, and echoes the CSRF cookie in X-CSRF-TOKEN on
 * unsafe methods as the web app does (unless told not to).
 */
export class HttpSession {
  readonly cookies = new Map<string, string>();
  readonly setCookieHeaders: string[] = [];

  constructor(private readonly baseUrl: string) {}

  /** `body` is sent as JSON; `raw` as it is (with its own content-type header, e.g. an Avro file). */
  async request(
    method: string,
    path: string,
    options: { body?: unknown; raw?: Uint8Array; csrf?: boolean; headers?: Record<string, string> } = {},
  ) {
    const headers: Record<string, string> = { ...options.headers };
    if (this.cookies.size > 0) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    const unsafe = !['GET', 'HEAD'].includes(method);
    if (unsafe && options.csrf !== false) {
      const csrf = path.split('?')[0].endsWith('/auth/refresh')
        ? this.cookies.get('csrf_refresh_token')
        : this.cookies.get('csrf_access_token');
      if (csrf) headers['x-csrf-token'] = csrf;
    }
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers,
      body: options.raw ? new Blob([Buffer.from(options.raw)]) : options.body === undefined ? undefined : JSON.stringify(options.body),
    });
    for (const header of response.headers.getSetCookie()) {
      this.setCookieHeaders.push(header);
      const [pair] = header.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq);
      const value = pair.slice(eq + 1);
      if (value === '' || /max-age=0|expires=thu, 01 jan 1970/i.test(header)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const text = await response.text();
    let body: any = text;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON: keep the text
    }
    return { status: response.status, body, headers: response.headers };
  }

  get(path: string) {
    return this.request('GET', path);
  }

  post(path: string, body?: unknown, options: { csrf?: boolean; headers?: Record<string, string> } = {}) {
    return this.request('POST', path, { body, ...options });
  }

  patch(path: string, body?: unknown, options: { csrf?: boolean } = {}) {
    return this.request('PATCH', path, { body, ...options });
  }

  delete(path: string, body?: unknown) {
    return this.request('DELETE', path, { body });
  }
}
