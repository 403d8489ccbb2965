/**
 * CSV as spreadsheets read it (RFC 4180), with cells guarded against formula injection. Dependency-free: the
 * server's streamed exports (csv-stringify) and toCsv guard their cells with the one rule, csvCell.
 */

/** A negative decimal and nothing else ("-5.50", a refund's amount): a number to a spreadsheet, never a formula. */
const NEGATIVE_NUMBER = /^-\d+(?:\.\d+)?$/;

/**
 * A cell's text, safe to open in a spreadsheet: a leading =, +, - or @ would run as a formula in spreadsheet
 * apps, and so would one after a leading tab or carriage return (OWASP CSV injection): a single quote in front
 * makes the cell plain text. A negative number alone stays a number (a quote would turn it into text, and out of
 * a column's sum). Quoting is the writer's job.
 */
export function csvCell(value: string | number | null | undefined): string {
  const text = value === null || value === undefined ? "" : String(value);
  return /^[=+\-@\t\r]/.test(text) && !NEGATIVE_NUMBER.test(text) ? `'${text}` : text;
}

/** A whole file in memory (small exports); fields with commas, quotes or line breaks are quoted, quotes doubled. */
export function toCsv(header: string[], rows: (string | number | null | undefined)[][]): string {
  const cell = (value: string | number | null | undefined) => {
    const safe = csvCell(value);
    return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
  };
  return [header, ...rows].map((row) => row.map(cell).join(",")).join("\r\n") + "\r\n";
}
