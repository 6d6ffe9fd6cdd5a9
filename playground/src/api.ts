/** The alpha API's path prefix on this origin. */
export const API = "/api/v1alpha1";

/** An answer other than 2xx, carrying the problem document's detail when there is one. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    detail: string,
  ) {
    super(detail);
  }
}

/** A list page of the API. */
export interface Page<T> {
  data: T[];
  has_more: boolean;
  next_cursor: string | null;
}

/** Calls the alpha API on this origin with the pasted key. */
export class Api {
  constructor(private readonly key: string) {}

  /** JSON in, JSON out; a non-2xx answer throws ApiError with the problem's detail. */
  async json<T>(method: string, path: string, body?: unknown): Promise<T> {
    const payload =
      body === undefined ? undefined : { type: "application/json", text: JSON.stringify(body) };
    const res = await this.send(method, path, "application/json", payload);
    return (await res.json()) as T;
  }

  /** Sends text of its own content type (a caption file) and answers the JSON reply. */
  async putText<T>(path: string, type: string, text: string): Promise<T> {
    const res = await this.send("PUT", path, "application/json", { type, text });
    return (await res.json()) as T;
  }

  /** A DELETE answered with 204 and no body. */
  async delete(path: string): Promise<void> {
    await this.send("DELETE", path, "application/json");
  }

  /** The answer's body as text, asking for `accept` (a Markdown report's content). */
  async text(path: string, accept: string): Promise<string> {
    return (await this.send("GET", path, accept)).text();
  }

  private async send(
    method: string,
    path: string,
    accept: string,
    payload?: { type: string; text: string },
  ) {
    const headers: Record<string, string> = { authorization: `Bearer ${this.key}`, accept };
    if (payload !== undefined) headers["content-type"] = payload.type;
    const res = await fetch(`${API}${path}`, {
      method,
      headers,
      ...(payload === undefined ? {} : { body: payload.text }),
    });
    if (!res.ok) throw new ApiError(res.status, await problemDetail(res));
    return res;
  }
}

async function problemDetail(res: Response): Promise<string> {
  const text = await res.text();
  try {
    const problem = JSON.parse(text) as { detail?: unknown; title?: unknown };
    const said = problem.detail ?? problem.title;
    if (typeof said === "string") return `${res.status}: ${said}`;
  } catch {
    // Not a problem document: say the status alone.
  }
  return `${res.status} ${res.statusText}`;
}
