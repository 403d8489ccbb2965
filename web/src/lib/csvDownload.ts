import { apiHeaders } from "./tenant.ts";

/**
 * Downloads a CSV the server writes under /api (a statement, the fees collected, a packing list, the memberships
 * list): the route takes the session's bearer token, which a plain link cannot send, so the file is fetched with
 * it and saved from a blob, under the name the server suggests (`fallbackFilename` when it suggests none). A
 * refusal throws the server's message (`{ error }`), else the HTTP status, and saves nothing.
 */
export async function downloadCsv(path: string, fallbackFilename: string): Promise<void> {
  const response = await fetch(path, { credentials: "include", headers: apiHeaders({ requestPath: path.split("?")[0], pagePath: window.location.pathname }) });
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as { error?: string } | null;
    throw new Error(body?.error || `HTTP ${response.status}`);
  }
  const filename = /filename="([^"]+)"/.exec(response.headers.get("content-disposition") ?? "")?.[1] ?? fallbackFilename;
  save(filename, await response.blob());
}

/** Saves a file through the browser: a link to its blob, clicked. */
function save(filename: string, file: Blob): void {
  const url = URL.createObjectURL(file);
  const link = document.createElement("a");
  link.href = url;
  link.download = filename;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
