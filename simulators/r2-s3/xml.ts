const XMLNS = "http://s3.amazonaws.com/doc/2006-03-01/";
const DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n';

const ENTITIES: Record<string, string> = { "<": "&lt;", ">": "&gt;", "&": "&amp;" };

/** Escapes text for an XML element; quotes stay literal, as in S3's documented ETags. */
export function escapeXml(value: string): string {
  return value.replace(/[<>&]/g, (char) => ENTITIES[char] ?? char);
}

/** An S3 result document: `<Name xmlns=…>` around `<Field>value</Field>` children. */
export function resultXml(name: string, body: string): string {
  return `${DECLARATION}<${name} xmlns="${XMLNS}">${body}</${name}>`;
}

/** `<Name>value</Name>`, escaped. */
export function element(name: string, value: string | number | boolean): string {
  return `<${name}>${escapeXml(String(value))}</${name}>`;
}

/** An XML reply with the given status and extra headers. */
export function xmlResponse(status: number, xml: string, headers: HeadersInit = {}): Response {
  const all = new Headers(headers);
  all.set("content-type", "application/xml");
  return new Response(xml, { status, headers: all });
}

/** The reasons the simulator refuses a request: R2's documented S3 codes and their statuses. */
export const S3_ERRORS = {
  AccessDenied: 403,
  AccessForbidden: 403,
  AuthorizationHeaderMalformed: 400,
  AuthorizationQueryParametersError: 400,
  BadDigest: 400,
  EntityTooLarge: 400,
  EntityTooSmall: 400,
  ExpiredRequest: 400,
  IncompleteBody: 400,
  InvalidArgument: 400,
  InvalidObjectName: 400,
  InvalidPart: 400,
  InvalidPartOrder: 400,
  InvalidRange: 416,
  InvalidRequest: 400,
  MalformedXML: 400,
  MethodNotAllowed: 405,
  MissingContentLength: 411,
  NoSuchBucket: 404,
  NoSuchKey: 404,
  NoSuchUpload: 404,
  NotImplemented: 501,
  PreconditionFailed: 412,
  RequestTimeTooSkewed: 403,
  SignatureDoesNotMatch: 403,
  Unauthorized: 401,
  XAmzContentSHA256Mismatch: 400,
} as const;

/** An S3 error code the simulator answers with. */
export type S3ErrorCode = keyof typeof S3_ERRORS;

/** A refusal carried to the router, which writes it as R2 does (`<Error><Code/><Message/>`). */
export class S3Error extends Error {
  constructor(
    readonly code: S3ErrorCode,
    message: string,
  ) {
    super(message);
  }

  /** The documented body: R2 answers Code and Message (developers.cloudflare.com/r2/api/error-codes). */
  toResponse(headers: HeadersInit = {}, method = "GET"): Response {
    const status = S3_ERRORS[this.code];
    // HEAD replies carry the status alone.
    if (method === "HEAD") return new Response(null, { status, headers });
    const body = `${DECLARATION}<Error>${element("Code", this.code)}${element("Message", this.message)}</Error>`;
    return xmlResponse(status, body, headers);
  }
}
