import { beforeAll, describe, expect, it } from "vitest";
import {
  alphaOperations,
  expectRefused,
  keyMatrix,
  type Operation,
  send,
  unknownKey,
} from "../../helpers/security";

// Every alpha route, read from the OpenAPI document so new routes join automatically,
// against every kind of key the auth layer must tell apart (the spec's Authentication section).
const operations: Operation[] = await alphaOperations();
let keys: Awaited<ReturnType<typeof keyMatrix>>;

beforeAll(async () => {
  keys = await keyMatrix();
});

it("covers the routes of the surface", () => {
  expect(operations.map((op) => `${op.method} ${op.path}`)).toContain("GET /videos");
});

describe.each(operations)("$method $path ($permission)", (operation) => {
  it("answers 401 without a key", async () => {
    await expectRefused(await send(operation, null), 401);
  });

  it("answers 401 for a malformed Authorization header", async () => {
    await expectRefused(await send(operation, null, "Basic dXNlcjpwYXNz"), 401);
    await expectRefused(await send(operation, null, "Bearer not-a-key"), 401);
  });

  it("answers 401 for a key that was never issued", async () => {
    await expectRefused(await send(operation, await unknownKey()), 401);
  });

  it("answers 401 for a revoked key", async () => {
    await expectRefused(await send(operation, keys.revoked), 401);
  });

  it("answers 401 for an expired key", async () => {
    await expectRefused(await send(operation, keys.expired), 401);
  });

  it("answers 404 for a standard (non-alpha) key", async () => {
    await expectRefused(await send(operation, keys.standard), 404);
  });

  it("answers 403 when the workspace is not opted in", async () => {
    await expectRefused(await send(operation, keys.notOptedIn), 403);
  });

  it("answers 403 for a key holding every permission but this one", async () => {
    const res = await send(operation, keys.allBut.get(operation.permission) ?? null);
    const problem = await res.clone().json<{ detail: string }>();
    await expectRefused(res, 403);
    expect(problem.detail).toContain(operation.permission);
  });

  it("lets a key holding only this permission through", async () => {
    const res = await send(operation, keys.byPermission.get(operation.permission) ?? null);
    expect([401, 403], await res.clone().text()).not.toContain(res.status);
  });
});
