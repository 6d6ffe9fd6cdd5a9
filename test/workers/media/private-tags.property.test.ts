import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { MediaTags } from "../../../src/domain/media";
import {
  isPrivateTag,
  PRIVATE_TAG_NAMES,
  PRIVATE_TAG_PATTERNS,
  withoutPrivateTags,
} from "../../../src/domain/private-tags";
import { probeMedia } from "../../../src/media/probe";
import { fixtureBytes, type MediaFixture } from "../../helpers/media-fixtures";
import { bytesSource } from "../../helpers/media-sources";

/** The name with each letter upper- or lowercase as `upper` says. */
function recase(name: string, upper: boolean[]): string {
  return [...name].map((c, i) => (upper[i % upper.length] ? c.toUpperCase() : c)).join("");
}

const casing = fc.array(fc.boolean(), { minLength: 1, maxLength: 40 });
const affix = fc.stringMatching(/^[a-z0-9._:-]{0,12}$/);

function tagsWith(other: Record<string, string>): MediaTags {
  return { title: "Harbour walk", comment: "Filmed for the guide", keywords: ["pier"], other };
}

describe("private container tags", () => {
  it("drops every listed name, whatever its case", () => {
    fc.assert(
      fc.property(fc.constantFrom(...PRIVATE_TAG_NAMES), casing, (name, upper) => {
        const key = recase(name, upper);
        expect(isPrivateTag(key), key).toBe(true);
        expect(withoutPrivateTags(tagsWith({ [key]: "Pixel 8" })).other).toEqual({});
      }),
    );
  });

  it("drops any name holding a private part, so an unknown variant fails closed", () => {
    fc.assert(
      fc.property(
        affix,
        fc.constantFrom(...PRIVATE_TAG_PATTERNS),
        affix,
        casing,
        (before, part, after, upper) => {
          const key = recase(`${before}${part}${after}`, upper);
          expect(isPrivateTag(key), key).toBe(true);
        },
      ),
    );
  });

  it("drops an ISO 6709 point whatever the tag is called", () => {
    const point = fc
      .tuple(
        fc.double({ min: -90, max: 90, noNaN: true }),
        fc.double({ min: -180, max: 180, noNaN: true }),
      )
      .map(([lat, lon]) => {
        const sign = (n: number) => (n < 0 ? "-" : "+");
        const lonText = Math.abs(lon).toFixed(4).padStart(8, "0");
        return `${sign(lat)}${Math.abs(lat).toFixed(4).padStart(7, "0")}${sign(lon)}${lonText}/`;
      });
    fc.assert(
      fc.property(point, (value) => {
        expect(withoutPrivateTags(tagsWith({ custom_note: value })).other, value).toEqual({});
      }),
    );
  });

  it("keeps the tags the service reads and other tags that name neither place nor device", () => {
    const tags = tagsWith({ encoder: "Lavf59.27.100", genre: "Travel", album: "Harbour" });
    expect(withoutPrivateTags(tags)).toEqual(tags);
  });
});

describe("private tags of real files", () => {
  const cases: [MediaFixture, string[]][] = [
    [
      "phone-tags.mov",
      [
        "com.apple.quicktime.location.iso6709",
        "com.apple.quicktime.make",
        "com.apple.quicktime.model",
        "com.apple.quicktime.software",
      ],
    ],
    ["camera-tags.mov", ["©mak", "©mod", "©xyz"]],
    [
      "device-tags.mkv",
      ["location", "make", "model", "owner", "recording_location", "serial_number"],
    ],
  ];

  it.each(cases)("finds and drops the location and device tags of %s", async (name, found) => {
    const probe = await probeMedia(bytesSource(fixtureBytes(name)), {
      filename: name,
      contentType: "",
    });
    expect(Object.keys(probe.tags.other).sort(), JSON.stringify(probe.tags)).toEqual(found);
    const kept = withoutPrivateTags(probe.tags);
    expect(kept.other).toEqual({});
    expect(kept.title).toBe("Harbour walk");
  });
});
