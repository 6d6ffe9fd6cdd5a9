/** Where the local storage gateway is mounted on this Worker. */
export const GATEWAY_PREFIX = "/storage";
const PART_LEDGER_PREFIX = "__gateway/multipart";

/** Every ledger key of one upload starts with this. */
export function ledgerPrefix(uploadId: string): string {
  return `${PART_LEDGER_PREFIX}/${uploadId}/`;
}

/** The ledger entries of every part of one upload. */
export function partsPrefix(uploadId: string): string {
  return `${ledgerPrefix(uploadId)}parts/`;
}

/** The R2 key prefix of the ledger entries of one part (S3 ListParts, emulated). */
export function partLedgerPrefix(uploadId: string, partNumber: number): string {
  return `${partsPrefix(uploadId)}${String(partNumber).padStart(5, "0")}/`;
}

/** The ledger entry recording that the gateway stored a part: its size and ETag in the key. */
export function partLedgerKey(
  uploadId: string,
  part: { partNumber: number; size: number; etag: string },
): string {
  return `${partLedgerPrefix(uploadId, part.partNumber)}${part.size}/${encodeURIComponent(part.etag)}`;
}

/** The R2 key that marks an upload as open on the gateway. */
export function openMarkerKey(uploadId: string): string {
  return `${ledgerPrefix(uploadId)}open`;
}

/** Parses a ledger entry's key: part number, size and encoded ETag. */
export const LEDGER_ENTRY = /\/parts\/(\d{5})\/(\d+)\/([^/]+)$/;
