import { ERROR_CODES, type ErrorCode } from "./codes";

/** One field-level validation failure. */
export interface FieldError {
  path: string;
  message: string;
}

/** An error a handler throws to answer with a problem document. */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly title: string;
  readonly errors: FieldError[] | undefined;
  readonly headers: Record<string, string> | undefined;

  constructor(
    code: ErrorCode,
    detail?: string,
    options: { errors?: FieldError[]; headers?: Record<string, string> } = {},
  ) {
    const entry = ERROR_CODES[code];
    super(detail ?? entry.title);
    this.name = "ApiError";
    this.code = code;
    this.status = entry.status;
    this.title = entry.title;
    this.errors = options.errors;
    this.headers = options.headers;
  }
}

/** One field error as a sentence: "limit must be between 1 and 100". */
function sentence(error: FieldError): string {
  const subject = error.path === "body" ? "The request body" : error.path;
  return `${subject} ${error.message}`.replace(/[.\s]+$/, "");
}

/** A 400 naming one or more fields; the detail says what is wrong in plain sentences. */
export function invalidRequest(errors: FieldError[], detail?: string): ApiError {
  const sentences = errors.map(sentence);
  const summary =
    sentences.length > 1
      ? `${sentences.length} fields are invalid: ${sentences.join("; ")}.`
      : sentences[0] && `${sentences[0]}.`;
  return new ApiError("invalid-request", detail ?? summary, { errors });
}

/** The 404 every missing or foreign resource answers with. */
export function notFound(what: string, id?: string): ApiError {
  return new ApiError(
    "resource-not-found",
    id === undefined ? `${what} was not found.` : `${what} ${id} was not found.`,
  );
}
