import { builder } from "../graphql/builder.ts";
import { MEMBER_STATUSES, publicBusinessesWhere } from "./service.ts";

export const BusinessNode = builder.prismaNode("Business", {
  id: { field: "id" },
  fields: (t) => ({
    databaseId: t.exposeInt("id", { description: "Numeric id used by /api routes and admin URLs." }),
    slug: t.exposeString("slug"),
    name: t.exposeString("name"),
    timeZone: t.exposeString("timeZone"),
    memberCount: t.relationCount("subscriptions", { where: { status: { in: [...MEMBER_STATUSES] } } }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
  }),
});

builder.queryFields((t) => ({
  businesses: t.prismaConnection({
    type: "Business",
    cursor: "id",
    defaultSize: 24,
    maxSize: 100,
    description: "Every partner business, for the public businesses grid.",
    resolve: (query, _parent, _args, ctx) =>
      ctx.db.business.findMany({ ...query, where: publicBusinessesWhere(), orderBy: { name: "asc" } }),
  }),
  business: t.prismaField({
    type: "Business",
    nullable: true,
    args: { slug: t.arg.string({ required: true }) },
    resolve: (query, _parent, { slug }, ctx) =>
      ctx.db.business.findUnique({ ...query, where: { slug: slug.toLowerCase() } }),
  }),
}));
