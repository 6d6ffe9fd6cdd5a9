/** An independent Standard Webhooks check (not the service's code): which secrets signed it. */
export async function signedBy(
  secrets: string[],
  headers: Record<string, string>,
  body: string,
): Promise<boolean[]> {
  const id = headers["webhook-id"] ?? "";
  const timestamp = headers["webhook-timestamp"] ?? "";
  const offered = (headers["webhook-signature"] ?? "").split(" ");
  return Promise.all(
    secrets.map(async (secret) => {
      const raw = Uint8Array.from(atob(secret.slice("whsec_".length)), (c) => c.charCodeAt(0));
      const key = await crypto.subtle.importKey(
        "raw",
        raw,
        { name: "HMAC", hash: "SHA-256" },
        false,
        ["sign"],
      );
      const mac = new Uint8Array(
        await crypto.subtle.sign(
          "HMAC",
          key,
          new TextEncoder().encode(`${id}.${timestamp}.${body}`),
        ),
      );
      const expected = `v1,${btoa(String.fromCharCode(...mac))}`;
      return offered.includes(expected);
    }),
  );
}
