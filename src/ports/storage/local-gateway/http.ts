import { type Context, Hono, type Env as HonoBaseEnv } from "hono";
import { type S3Credentials, verifyPresigned } from "../sigv4";
import { gatewayUrl } from "./adapter";
import { GATEWAY_PREFIX, openMarkerKey, partLedgerKey, partLedgerPrefix } from "./ledger";

const CORS_HEADERS: Record<string, string> = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Expose-Headers": "ETag, Content-Length, Content-Range, Accept-Ranges",
};

function escapeXml(value: string): string {
  return value.replace(/[<>&"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** An error in S3's XML shape. */
function s3Error(status: number, code: string, message: string, resource: string): Response {
  const body = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${escapeXml(message)}</Message><Resource>${escapeXml(resource)}</Resource></Error>`;
  return new Response(body, {
    status,
    headers: { "content-type": "application/xml", ...CORS_HEADERS },
  });
}

/**
 * The key a request path names, or null when the path is not exactly how the gateway
 * encodes that key (malformed escapes, `%2F` for `/`, escaped unreserved characters):
 * one object has one URL, so a signature cannot be replayed on an equivalent spelling.
 */
function keyOf(url: URL): string | null {
  const encoded = url.pathname.slice(GATEWAY_PREFIX.length + 1);
  let key: string;
  try {
    key = encoded.split("/").map(decodeURIComponent).join("/");
  } catch {
    return null;
  }
  return gatewayUrl(url.origin, key).pathname === url.pathname ? key : null;
}

/** The first query parameter given more than once, if any. */
function repeatedParameter(url: URL): string | null {
  const seen = new Set<string>();
  for (const name of url.searchParams.keys()) {
    if (seen.has(name)) return name;
    seen.add(name);
  }
  return null;
}

const INVALID_URI = "Couldn't parse the specified URI.";

async function putPart(
  c: Context,
  bucket: R2Bucket,
  key: string,
  uploadId: string,
  partParam: string,
): Promise<Response> {
  const partNumber = Number(partParam);
  if (!Number.isInteger(partNumber) || partNumber < 1 || partNumber > 10_000) {
    return s3Error(
      400,
      "InvalidArgument",
      "Part number must be an integer between 1 and 10000, inclusive.",
      key,
    );
  }
  if (!(await bucket.head(openMarkerKey(uploadId)))) {
    return s3Error(404, "NoSuchUpload", "The specified multipart upload does not exist.", key);
  }
  const size = Number(c.req.header("content-length"));
  if (!c.req.raw.body || !Number.isInteger(size)) {
    return s3Error(
      411,
      "MissingContentLength",
      "You must provide the Content-Length HTTP header.",
      key,
    );
  }
  const part = await bucket
    .resumeMultipartUpload(key, uploadId)
    .uploadPart(partNumber, c.req.raw.body);
  const stale = await bucket.list({ prefix: partLedgerPrefix(uploadId, partNumber) });
  if (stale.objects.length > 0) await bucket.delete(stale.objects.map((object) => object.key));
  await bucket.put(partLedgerKey(uploadId, { partNumber, size, etag: part.etag }), "");
  return new Response(null, { status: 200, headers: { ETag: `"${part.etag}"`, ...CORS_HEADERS } });
}

async function putObject(c: Context, bucket: R2Bucket, key: string): Promise<Response> {
  const size = Number(c.req.header("content-length"));
  if (!c.req.raw.body || !Number.isInteger(size)) {
    return s3Error(
      411,
      "MissingContentLength",
      "You must provide the Content-Length HTTP header.",
      key,
    );
  }
  const contentType = c.req.header("content-type") ?? "application/octet-stream";
  const object = await bucket.put(key, c.req.raw.body, {
    httpMetadata: { contentType },
  });
  return new Response(null, { status: 200, headers: { ETag: object.httpEtag, ...CORS_HEADERS } });
}

async function getObject(
  c: Context,
  bucket: R2Bucket,
  key: string,
  method: "GET" | "HEAD",
): Promise<Response> {
  const object = await bucket.get(key, { range: c.req.raw.headers });
  if (!object) return s3Error(404, "NoSuchKey", "The specified key does not exist.", key);
  const headers = new Headers(CORS_HEADERS);
  object.writeHttpMetadata(headers);
  headers.set("ETag", object.httpEtag);
  headers.set("Accept-Ranges", "bytes");
  const range = object.range as { offset?: number; length?: number } | undefined;
  const partial = c.req.header("range") !== undefined && range !== undefined;
  const offset = range?.offset ?? 0;
  const length = range?.length ?? object.size - offset;
  headers.set("Content-Length", String(partial ? length : object.size));
  if (partial)
    headers.set("Content-Range", `bytes ${offset}-${offset + length - 1}/${object.size}`);
  return new Response(method === "HEAD" ? null : object.body, {
    status: partial ? 206 : 200,
    headers,
  });
}

/**
 * The local storage gateway: what R2's S3 endpoint does for presigned URLs, served by
 * this Worker over the R2 binding. Same signature check, same expiry, S3-shaped answers.
 */
function gatewayApp(bucket: R2Bucket, credentials: Promise<S3Credentials>): Hono {
  const app = new Hono();
  app.options("/*", (c) => {
    return new Response(null, {
      status: 204,
      headers: {
        ...CORS_HEADERS,
        "Access-Control-Allow-Methods": "GET, HEAD, PUT",
        "Access-Control-Allow-Headers":
          c.req.header("access-control-request-headers") ?? "content-type",
        "Access-Control-Max-Age": "86400",
      },
    });
  });

  app.on(["GET", "HEAD", "PUT"], "/*", async (c) => {
    const method = c.req.method as "GET" | "HEAD" | "PUT";
    const url = new URL(c.req.url);
    const resource = url.pathname;
    // A repeated parameter would be read one way here and signed another way.
    const repeated = repeatedParameter(url);
    if (repeated !== null) {
      const message = `The ${repeated} parameter may be given only once.`;
      return s3Error(400, "AuthorizationQueryParametersError", message, resource);
    }
    let refusal: Awaited<ReturnType<typeof verifyPresigned>>;
    try {
      refusal = await verifyPresigned(await credentials, method === "HEAD" ? "GET" : method, url);
    } catch (error) {
      // The signer decodes the path; a malformed escape cannot have been signed.
      if (!(error instanceof URIError)) throw error;
      return s3Error(400, "InvalidURI", INVALID_URI, resource);
    }
    if (refusal) return s3Error(403, refusal.code, refusal.message, resource);
    const key = keyOf(url);
    if (key === null) return s3Error(400, "InvalidURI", INVALID_URI, resource);
    if (method !== "PUT") return getObject(c, bucket, key, method);
    const uploadId = url.searchParams.get("uploadId");
    const partNumber = url.searchParams.get("partNumber");
    if (uploadId !== null && partNumber !== null)
      return putPart(c, bucket, key, uploadId, partNumber);
    return putObject(c, bucket, key);
  });
  return app;
}

/** The HTTP half of the local adapter, which app.ts mounts on the Worker. */
export interface StorageGateway {
  mount<E extends HonoBaseEnv>(app: Hono<E>): void;
}

/** The gateway over `bucket`, verifying with `credentials`. */
export function storageGateway(
  bucket: R2Bucket,
  credentials: Promise<S3Credentials>,
): StorageGateway {
  const app = gatewayApp(bucket, credentials);
  return {
    mount(parent) {
      parent.route(GATEWAY_PREFIX, app);
    },
  };
}
