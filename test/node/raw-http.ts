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
