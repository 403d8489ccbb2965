/**
 * Relay global ids without the GraphQL adapter: the same encoding as @pothos/plugin-relay's encodeGlobalID
 * (base64 of "Typename:id"), so services can name an object the way the API does (events, cache keys).
 */
export function globalId(typename: string, id: number | string): string {
  return btoa(`${typename}:${id}`);
}
