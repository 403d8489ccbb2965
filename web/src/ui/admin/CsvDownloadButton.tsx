import { useState } from "react";
import { Button, Text } from "@chakra-ui/react";
import { downloadCsv } from "../../lib/csvDownload.ts";

/**
 * "Download CSV": the server's CSV at `path`, fetched with the session's bearer token and saved (lib/csvDownload.ts),
 * spinning meanwhile; a failure is said beside the button. `label` names the button when several are on one page.
 */
export function CsvDownloadButton({ path, filename, label }: { path: string; filename: string; label?: string }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = async () => {
    setError(null);
    setBusy(true);
    try {
      await downloadCsv(path, filename);
    } catch (e) {
      setError(`Download failed: ${(e as Error).message || "please try again"}`);
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <Button size="sm" variant="outline" onClick={run} loading={busy} loadingText="Downloading…" aria-label={label}>
        Download CSV
      </Button>
      {error && (
        <Text color="red.600" fontSize="sm" role="alert">
          {error}
        </Text>
      )}
    </>
  );
}
