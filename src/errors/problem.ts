import type { ApiError, FieldError } from "./api-error";
import { ERROR_CODES, type ErrorCode } from "./codes";

/** An RFC 9457 problem document as this API writes it. */
export interface ProblemDocument {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: ErrorCode;
  instance?: string;
  request_id?: string;
  errors?: FieldError[];
}

/** The `type` URI of a problem code; GET on it describes the code. */
export function problemType(code: ErrorCode): string {
  return `/problems/${code}`;
}

/** Builds the problem document for an ApiError. */
export function problemFromError(
  error: ApiError,
  context: { instance?: string; requestId?: string },
): ProblemDocument {
  const problem: ProblemDocument = {
    type: problemType(error.code),
    title: ERROR_CODES[error.code].title,
    status: error.status,
    detail: error.message,
    code: error.code,
  };
  if (context.instance !== undefined) problem.instance = context.instance;
  if (context.requestId !== undefined) problem.request_id = context.requestId;
  if (error.errors !== undefined) problem.errors = error.errors;
  return problem;
}

/** A Response carrying a problem document. */
export function problemResponse(
  problem: ProblemDocument,
  headers: Record<string, string> = {},
): Response {
  return new Response(JSON.stringify(problem), {
    status: problem.status,
    headers: { "content-type": "application/problem+json", ...headers },
  });
}
