import net from "node:net";

/**
 * Writes `requests` back to back on one keep-alive TCP connection and returns the status
 * codes the server answered, in order (fetch cannot pin two requests to one connection).
 */
export function exchangeOnOneConnection(
  baseUrl: string,
  requests: (string | Buffer)[],
  timeoutMs = 10_000,
): Promise<number[]> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname);
    let received = "";
    const finish = () => {
      clearTimeout(timer);
      socket.destroy();
      const statuses = [...received.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1]));
      resolve(statuses);
    };
    const timer = setTimeout(finish, timeoutMs);
    socket.on("data", (chunk) => {
      received += chunk.toString("latin1");
      if ((received.match(/HTTP\/1\.1 \d{3} /g) ?? []).length >= requests.length) {
        // Wait briefly for the rest of the last response, then stop.
        setTimeout(finish, 200);
      }
    });
    socket.on("close", finish);
    socket.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    socket.on("connect", () => {
      for (const request of requests) socket.write(request);
    });
  });
}

/** A chunked POST whose body is `size` bytes of JSON-ish filler. */
export function chunkedPost(path: string, size: number): Buffer {
  const head = `POST ${path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`;
  const parts: string[] = [head];
  const chunk = "x".repeat(64 * 1024);
  for (let sent = 0; sent < size; sent += chunk.length) {
    const piece = chunk.slice(0, Math.min(chunk.length, size - sent));
    parts.push(`${piece.length.toString(16)}\r\n${piece}\r\n`);
  }
  parts.push("0\r\n\r\n");
  return Buffer.from(parts.join(""), "latin1");
}

/** A small POST with a Content-Length body. */
export function smallPost(path: string, body: string, headers: Record<string, string> = {}) {
  const extra = Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join("");
  return `POST ${path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n${extra}Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
}

/** What one raw connection saw: the statuses answered, and how the connection ended. */
export interface RawOutcome {
  statuses: number[];
  /** "closed" by the server, or "timeout": neither answered nor closed within the wait. */
  ended: "closed" | "timeout" | "answered";
}

/**
 * Writes `requests` one after another on one keep-alive connection, each once the previous
 * one was answered, and reports what came back before the server closed it, every request
 * was answered, or `timeoutMs` passed.
 */
export function rawExchange(
  baseUrl: string,
  requests: (string | Buffer)[],
  timeoutMs = 10_000,
): Promise<RawOutcome> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname);
    let received = "";
    let done = false;
    let written = 1;
    const statuses = () => [...received.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1]));
    const finish = (ended: RawOutcome["ended"]) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ statuses: statuses(), ended });
    };
    const timer = setTimeout(() => finish("timeout"), timeoutMs);
    socket.on("data", (chunk) => {
      received += chunk.toString("latin1");
      const answered = statuses().length;
      if (answered >= requests.length) setTimeout(() => finish("answered"), 200);
      else if (answered === written) {
        const next = requests[written++];
        if (next !== undefined) socket.write(next);
      }
    });
    socket.on("close", () => finish("closed"));
    socket.on("error", (error: NodeJS.ErrnoException) => {
      // The server closed the connection while a body was still being written.
      if (error.code === "EPIPE" || error.code === "ECONNRESET") return finish("closed");
      if (done) return;
      clearTimeout(timer);
      reject(error);
    });
    socket.on("connect", () => {
      const first = requests[0];
      if (first !== undefined) socket.write(first);
    });
  });
}

/** Sends `head` and part of a body, then hangs up (a full close); resolves once closed. */
export function hangUpMidBody(baseUrl: string, head: string, part: string): Promise<void> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname);
    socket.on("error", reject);
    socket.on("close", () => resolve());
    socket.on("connect", () => {
      socket.write(head + part);
      setTimeout(() => socket.destroy(), 300);
    });
  });
}

/** A GET with a chunked body of `size` bytes. */
export function chunkedGet(path: string, size: number, headers: Record<string, string> = {}) {
  const post = chunkedPost(path, size).toString("latin1");
  const extra = Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join("");
  return Buffer.from(
    post
      .replace(/^POST /, "GET ")
      .replace("Transfer-Encoding: chunked\r\n", `${extra}Transfer-Encoding: chunked\r\n`),
    "latin1",
  );
}
