import type { z } from "@hono/zod-openapi";
import { describe, expect, it } from "vitest";
import type { HeadRow } from "../../../src/db/repos/versioned-heads";
import type { Page } from "../../../src/lib/pagination";
import { ProfilePageSchema, ProfileWithLatestSchema } from "../../../src/routes/profiles/schemas";
import {
  ReportTemplatePageSchema,
  ReportTemplateWithLatestSchema,
} from "../../../src/routes/report-templates/schemas";
import type { SameShape } from "../../../src/schemas/common";

import {
  type HeadWire,
  type HeadWithLatestWire,
  presentHead,
  presentWithLatest,
} from "../../../src/services/presenters/head";
import {
  type ProfileVersionDto,
  presentProfileVersion,
  presentReportTemplateVersion,
  type ReportTemplateVersionDto,
} from "../../../src/services/presenters/head-versions";

// The head schemas document what the presenters write, for profiles and report templates: the
// types must agree both ways (this fails to compile when they drift), and a presented head
// must parse to itself.
const PROFILE_SCHEMA_MATCHES_PRESENTER: SameShape<
  z.infer<typeof ProfileWithLatestSchema>,
  HeadWithLatestWire<ProfileVersionDto>
> = true;
const PROFILE_PAGE_SCHEMA_MATCHES_PRESENTER: SameShape<
  z.infer<typeof ProfilePageSchema>,
  Page<HeadWire>
> = true;
const REPORT_TEMPLATE_SCHEMA_MATCHES_PRESENTER: SameShape<
  z.infer<typeof ReportTemplateWithLatestSchema>,
  HeadWithLatestWire<ReportTemplateVersionDto>
> = true;
const REPORT_TEMPLATE_PAGE_SCHEMA_MATCHES_PRESENTER: SameShape<
  z.infer<typeof ReportTemplatePageSchema>,
  Page<HeadWire>
> = true;

const head: HeadRow = {
  id: "prof_01",
  workspaceId: "ws_01",
  name: "Dock review",
  description: null,
  status: "archived",
  anonymous: false,
  latestVersion: 2,
  createdBy: "key_01",
  updatedBy: "key_02",
  createdAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-02T00:00:00.000Z",
};
const author = { version: 2, createdBy: "key_02", createdAt: "2026-01-02T00:00:00.000Z" };

describe("presented heads and their documented schemas", () => {
  it("a profile with its latest version parses to itself", () => {
    expect([
      PROFILE_SCHEMA_MATCHES_PRESENTER,
      PROFILE_PAGE_SCHEMA_MATCHES_PRESENTER,
      REPORT_TEMPLATE_SCHEMA_MATCHES_PRESENTER,
      REPORT_TEMPLATE_PAGE_SCHEMA_MATCHES_PRESENTER,
    ]).not.toContain(false);
    const latest = {
      ...author,
      profileId: head.id,
      instructions: "Look at the dock.",
      answerSpecs: [],
    };
    const dto = presentWithLatest({ presentVersion: presentProfileVersion }, { head, latest });
    expect(ProfileWithLatestSchema.parse(dto)).toEqual(dto);
  });

  it("a report template with its latest version parses to itself", () => {
    const latest = { ...author, reportTemplateId: head.id, language: "en", blocks: [] };
    const dto = presentWithLatest(
      { presentVersion: presentReportTemplateVersion },
      { head, latest },
    );
    expect(ReportTemplateWithLatestSchema.parse(dto)).toEqual(dto);
  });

  it("a page of heads parses to itself", () => {
    const page = { data: [presentHead(head)], has_more: true, next_cursor: "c_1" };
    expect(ProfilePageSchema.parse(page)).toEqual(page);
    expect(ReportTemplatePageSchema.parse(page)).toEqual(page);
  });
});
