import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createApp } from "../../../src/app";
import type { Env } from "../../../src/env";
import { createPorts } from "../../../src/ports";
import { PLAYGROUND_SCRIPT } from "../../../src/routes/playground/script";
import { ORIGIN, workerFetch } from "../../helpers/harness";

const production: Env = {
  ...env,
  DEPLOYMENT: "production",
  R2_ACCOUNT_ID: "acct",
  R2_BUCKET_NAME: "media",
  R2_ACCESS_KEY_ID: "id",
  R2_SECRET_ACCESS_KEY: "secret",
  AI: {} as Ai,
  VECTORIZE: {} as Vectorize,
  MEDIA: { input: () => ({}) } as unknown as NonNullable<Env["MEDIA"]>,
};

function directives(policy: string | null): Map<string, string> {
  return new Map(
    (policy ?? "").split(";").map((part) => {
      const [name = "", ...sources] = part.trim().split(/\s+/);
      return [name, sources.join(" ")];
    }),
  );
}

describe("GET /playground", () => {
  it("serves the page, its script and its styles, all from this origin", async () => {
    const page = await workerFetch(`${ORIGIN}/playground`);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
    const html = await page.text();
    expect(html).toContain('<script type="module" src="/playground/app.js"></script>');
    expect(html).not.toMatch(/(src|href)="https?:/);

    const script = await workerFetch(`${ORIGIN}/playground/app.js`);
    expect(script.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(await script.text()).toBe(PLAYGROUND_SCRIPT);
    const styles = await workerFetch(`${ORIGIN}/playground/app.css`);
    expect(styles.headers.get("content-type")).toBe("text/css; charset=utf-8");
  });

  it("allows only its own origin locally, where the storage gateway is this Worker", async () => {
    const page = await workerFetch(`${ORIGIN}/playground`);
    const policy = directives(page.headers.get("content-security-policy"));
    expect(policy.get("default-src")).toBe("'none'");
    for (const name of ["script-src", "style-src", "connect-src", "img-src", "media-src"])
      expect(policy.get(name), name).toBe("'self'");
    expect(policy.get("form-action")).toBe("'none'");
  });

  it("adds R2's S3 origin in production, where targets, thumbnails and clips are signed", async () => {
    const app = createApp({ ports: createPorts(production) });
    const page = await app.request(`${ORIGIN}/playground`, {}, production);
    expect(page.status).toBe(200);
    const policy = directives(page.headers.get("content-security-policy"));
    for (const name of ["connect-src", "img-src", "media-src"])
      expect(policy.get(name), name).toBe("'self' https://acct.r2.cloudflarestorage.com");
    for (const name of ["script-src", "style-src"]) expect(policy.get(name), name).toBe("'self'");
  });
});
