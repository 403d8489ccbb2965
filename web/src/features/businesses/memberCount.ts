/** "1 member", "12 members": active members of a business, as shown on cards and business pages. */
export function memberCountLabel(count: number): string {
  return `${count} ${count === 1 ? "member" : "members"}`;
}
