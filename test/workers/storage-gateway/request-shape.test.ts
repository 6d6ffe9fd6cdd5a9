import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { gatewayCredentials, gatewayUrl } from "../../../src/ports/storage/local-gateway/adapter";
import { presignUrl } from "../../../src/ports/storage/sigv4";
import { ORIGIN, workerFetch } from "../../helpers/harness";

/** A URL the gateway itself would sign for `key` (a part's, given `query`). */
async function signed(
  method: "GET" | "PUT",
  key: string,
  query: Record<string, string> = {},
): Promise<URL> {
  const credentials = await gatewayCredentials(env.SIGNING_SECRET ?? "");
  const expiresAt = new Date(Date.now() + 10 * 60_000);
  const target = gatewayUrl(ORIGIN, key);
  for (const [name, value] of Object.entries(query)) target.searchParams.set(name, value);
  return new URL(await presignUrl(credentials, method, target, expiresAt));
}

/** Signs `pathname` as given (not as a key), the way a client holding the secret could. */
async function signedPath(method: "GET" | "PUT", pathname: string): Promise<URL> {
  const credentials = await gatewayCredentials(env.SIGNING_SECRET ?? "");
  const expiresAt = new Date(Date.now() + 10 * 60_000);
  return new URL(await presignUrl(credentials, method, new URL(pathname, ORIGIN), expiresAt));
}

async function send(method: string, url: URL | string, body?: string): Promise<Response> {
  return workerFetch(url.toString(), {
    method,
    ...(body === undefined ? {} : { body, headers: { "content-type": "video/mp4" } }),
  });
}

async function s3Code(res: Response): Promise<string> {
  const text = await res.text();
  return text.match(/<Code>([^<]+)<\/Code>/)?.[1] ?? text;
}

describe("the local storage gateway refuses malformed and non-canonical requests", () => {
  it.each(["GET", "HEAD", "PUT"])(
    "answers %s on malformed percent-encoding with 400, not 500",
    async (method) => {
      for (const path of ["/storage/%ZZ", "/storage/videos/%E0%A4%A", "/storage/%"]) {
        const unsigned = await send(method, `${ORIGIN}${path}`, method === "PUT" ? "x" : undefined);
        expect(unsigned.status, path).toBe(403);
        const url = await signedPath(method === "PUT" ? "PUT" : "GET", path);
        const res = await send(method, url, method === "PUT" ? "x" : undefined);
        expect(res.status, `${method} ${path}`).toBe(400);
        if (method !== "HEAD") expect(await s3Code(res)).toBe("InvalidURI");
      }
    },
  );

  it("refuses a second X-Amz-Signature appended to a valid URL", async () => {
    const key = "videos/vid_dup/source";
    await env.MEDIA_BUCKET.put(key, "kept");
    const url = await signed("GET", key);
    expect((await send("GET", url)).status).toBe(200);
    const doubled = new URL(url);
    doubled.searchParams.append("X-Amz-Signature", "0".repeat(64));
    const res = await send("GET", doubled);
    expect(res.status).toBe(400);
    expect(await s3Code(res)).toBe("AuthorizationQueryParametersError");
  });

  it.each(["X-Amz-Date", "X-Amz-Expires", "X-Amz-Credential", "uploadId", "partNumber"])(
    "refuses a repeated %s parameter",
    async (name) => {
      const url = await signed("PUT", "videos/vid_rep/source", {
        partNumber: "1",
        uploadId: "upload-1",
      });
      url.searchParams.append(name, url.searchParams.get(name) ?? "");
      const res = await send("PUT", url, "bytes");
      expect(res.status).toBe(400);
      expect(await env.MEDIA_BUCKET.head("videos/vid_rep/source")).toBeNull();
    },
  );

  it("refuses videos%2F<vid> for videos/<vid>, signed or not, and writes nothing", async () => {
    const key = "videos/vid_canon/source";
    const url = await signed("PUT", key);
    const variant = new URL(url);
    variant.pathname = "/storage/videos%2Fvid_canon%2Fsource";
    const res = await send("PUT", variant, "replaced");
    expect(res.status).toBe(400);
    expect(await s3Code(res)).toBe("InvalidURI");
    const signedVariant = await signedPath("PUT", "/storage/videos%2Fvid_canon%2Fsource");
    expect((await send("PUT", signedVariant, "replaced")).status).toBe(400);
    expect(await env.MEDIA_BUCKET.head(key)).toBeNull();
    expect((await send("PUT", url, "the real bytes")).status).toBe(200);
    expect(await (await env.MEDIA_BUCKET.get(key))?.text()).toBe("the real bytes");
  });

  it("still serves keys whose segments need encoding", async () => {
    const key = "videos/vid_sp/a file+name (1).mp4";
    await env.MEDIA_BUCKET.put(key, "spaced");
    const res = await send("GET", await signed("GET", key));
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("spaced");
  });
});
