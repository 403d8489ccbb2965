/**
 * CSV as spreadsheets read it (RFC 4180), with cells guarded against formula injection. Dependency-free: the
 * admin memberships export builds its file with it in the browser; an export made on the server uses it too.
 *
 * Fields with commas, quotes or line breaks are quoted; quotes doubled.
 */
export function toCsv(header: string[], rows: (string | number | null | undefined)[][]): string {
  const cell = (value: string | number | null | undefined) => {
    const text = value === null || value === undefined ? "" : String(value);
    // A leading =, +, - or @ would run as a formula in spreadsheet apps, and so would one after a leading tab or
    // carriage return (OWASP CSV injection): a single quote in front makes the cell plain text.
    const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
    return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
  };
  return [header, ...rows].map((row) => row.map(cell).join(",")).join("\r\n") + "\r\n";
}
