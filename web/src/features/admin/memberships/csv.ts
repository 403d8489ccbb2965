/** Saves a downloaded file (the server's CSV) through the browser. */
export function downloadCsv(filename: string, csv: Blob): void {
  const url = URL.createObjectURL(csv);
  const link = document.createElement("a");
  link.href = url;
  link.download = filename;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
