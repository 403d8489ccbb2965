/**
 * The Prisma selection for a mutation's payload. When the client selects nothing of the payload object (a
 * result union asked only for `__typename`), Pothos hands the resolver `{ select: {} }`, which Prisma refuses;
 * loading the row's scalars instead keeps such a request working.
 */
export function payloadQuery<Q extends object>(query: Q): Q {
  const select = (query as { select?: object }).select;
  return select && Object.keys(select).length === 0 ? ({} as Q) : query;
}
