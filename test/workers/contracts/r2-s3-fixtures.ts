import complete from "../../fixtures/contracts/r2-s3/complete-multipart-upload.xml?raw";
import completeError from "../../fixtures/contracts/r2-s3/complete-multipart-upload-error-in-200.xml?raw";
import copyObject from "../../fixtures/contracts/r2-s3/copy-object.xml?raw";
import initiate from "../../fixtures/contracts/r2-s3/initiate-multipart-upload.xml?raw";
import listParts from "../../fixtures/contracts/r2-s3/list-parts.xml?raw";
import listPartsLast from "../../fixtures/contracts/r2-s3/list-parts-last-page.xml?raw";
import noSuchKey from "../../fixtures/contracts/r2-s3/no-such-key.xml?raw";
import noSuchUpload from "../../fixtures/contracts/r2-s3/no-such-upload.xml?raw";
import preconditionFailed from "../../fixtures/contracts/r2-s3/precondition-failed.xml?raw";
import sources from "../../fixtures/contracts/r2-s3/sources.json";

const BODIES = {
  "initiate-multipart-upload.xml": initiate,
  "list-parts.xml": listParts,
  "list-parts-last-page.xml": listPartsLast,
  "complete-multipart-upload.xml": complete,
  "complete-multipart-upload-error-in-200.xml": completeError,
  "copy-object.xml": copyObject,
  "precondition-failed.xml": preconditionFailed,
  "no-such-upload.xml": noSuchUpload,
  "no-such-key.xml": noSuchKey,
};

/** A documented R2 S3 reply by fixture name. */
export type DocumentedReply = keyof typeof BODIES;

/** The documented reply's status and XML body. */
export function documented(name: DocumentedReply): { status: number; body: string } {
  return { status: sources.replies[name].status, body: BODIES[name] };
}

/** The documented reply as a Response, optionally with whitespace before the body. */
export function documentedResponse(name: DocumentedReply, padding = ""): Response {
  const { status, body } = documented(name);
  return new Response(padding + body, { status, headers: { "content-type": "application/xml" } });
}
