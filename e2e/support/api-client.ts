import { API, type Session } from '@logo-review/contract';

/** A tiny Node client of the real API, for seeding data in tests, screenshots and benchmarks. */
export class ApiClient {
  constructor(
    readonly baseURL: string,
    readonly token: string,
  ) {}

  static async login(baseURL: string, username: string, password: string): Promise<ApiClient> {
    const res = await fetch(`${baseURL}${API.login}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ username, password }),
    });
    if (!res.ok) throw new Error(`login failed: ${res.status} ${await res.text()}`);
    const session = (await res.json()) as Session;
    return new ApiClient(baseURL, session.token);
  }

  async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const isForm = body instanceof FormData;
    const res = await fetch(`${this.baseURL}${path}`, {
      method,
      headers: {
        Authorization: `Token ${this.token}`,
        ...(body !== undefined && !isForm ? { 'Content-Type': 'application/json' } : {}),
      },
      body: body === undefined ? undefined : isForm ? body : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  }
}
