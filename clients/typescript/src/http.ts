import { httpError, networkError } from "./errors.js";

export const API_PREFIX = "/api/v1alpha1";

export type FetchLike = (request: Request) => Promise<Response>;

/** The API root for a base URL given with or without the version prefix. */
export function apiRoot(baseUrl: string): string {
  const trimmed = baseUrl.replace(/\/+$/, "");
  return trimmed.endsWith(API_PREFIX) ? trimmed : `${trimmed}${API_PREFIX}`;
}

interface Answered<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** The success body of an openapi-fetch call, or the VasError its problem describes. */
export async function unwrap<T>(call: Promise<Answered<T>>, what: string): Promise<T> {
  let answered: Answered<T>;
  try {
    answered = await call;
  } catch (error) {
    if (error instanceof DOMException && error.name === "AbortError") throw error;
    throw networkError(what, error);
  }
  if (answered.error !== undefined || answered.data === undefined)
    throw httpError(answered.response, answered.error);
  return answered.data;
}
