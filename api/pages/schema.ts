import { builder } from "../graphql/builder.ts";

// Skeleton; the pages work adds every content field of spec §3.
export const PageObject = builder.prismaObject("Page", {
  fields: (t) => ({
    brandName: t.exposeString("brandName"),
  }),
});
