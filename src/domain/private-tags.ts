import type { MediaTags } from "./media";

/**
 * Container tags that locate a person or identify a device, named as the containers write
 * them (lowercase). Sources: Apple's QuickTime metadata keys and location metadata
 * (com.apple.quicktime.*), ExifTool's QuickTime tag table (©xyz, ©mak, ©mod, ©swr), Android's
 * MediaMuxer.setLocation (ISO 6709 in `udta`, read as ©xyz), the Matroska tag specification
 * (RECORDING_LOCATION, COMPOSITION_LOCATION); docs/decisions/private-container-tags.md links
 * the pages.
 */
export const PRIVATE_TAG_NAMES: readonly string[] = [
  "©xyz",
  "©mak",
  "©mod",
  "©swr",
  "location",
  "make",
  "model",
  "serial",
  "owner",
  "com.apple.quicktime.location.iso6709",
  "com.apple.quicktime.location.name",
  "com.apple.quicktime.location.body",
  "com.apple.quicktime.location.note",
  "com.apple.quicktime.location.role",
  "com.apple.quicktime.location.date",
  "com.apple.quicktime.location.accuracy.horizontal",
  "com.apple.quicktime.direction.facing",
  "com.apple.quicktime.direction.motion",
  "com.apple.quicktime.make",
  "com.apple.quicktime.model",
  "com.apple.quicktime.software",
  "com.apple.quicktime.camera.identifier",
  "com.apple.quicktime.camera.lens_model",
  "com.apple.quicktime.content.identifier",
  "com.android.manufacturer",
  "com.android.model",
  "com.android.version",
  "com.android.capture.fps",
  "recording_location",
  "composition_location",
];

/**
 * Parts of a tag name that mark it private wherever they occur, so a variant no list names
 * (another phone's key, another case) is kept out rather than let through.
 */
export const PRIVATE_TAG_PATTERNS: readonly string[] = [
  "location",
  "gps",
  "xyz",
  "iso6709",
  "latitude",
  "longitude",
  "altitude",
  "coordinate",
  "geo",
  "direction",
  "make",
  "©mak",
  "©mod",
  "©swr",
  "model",
  "manufacturer",
  "serial",
  "owner",
  "device",
  "software",
  "firmware",
  "camera",
  "lens",
  "phone",
  "android",
  "identifier",
];

// A point as ISO 6709 writes it: "+48.8577+002.2950+035.000/" (latitude, longitude, altitude).
const ISO_6709_POINT = /^[+-]\d{2,}(\.\d+)?[+-]\d{3,}(\.\d+)?([+-]\d+(\.\d+)?)?(CRS[^/]*)?\/?$/;

/**
 * Whether a container tag is private: its name (any case) is listed or holds a private part,
 * or its value is an ISO 6709 point whatever the tag is called.
 */
export function isPrivateTag(name: string, value = ""): boolean {
  const key = name.normalize("NFKC").toLowerCase().trim();
  return (
    PRIVATE_TAG_NAMES.includes(key) ||
    PRIVATE_TAG_PATTERNS.some((part) => key.includes(part)) ||
    ISO_6709_POINT.test(value.trim())
  );
}

/** The tags without their private ones (`other` is the only place a private tag can be). */
export function withoutPrivateTags(tags: MediaTags): MediaTags {
  const other = Object.fromEntries(
    Object.entries(tags.other).filter(([name, value]) => !isPrivateTag(name, value)),
  );
  return { ...tags, other };
}
