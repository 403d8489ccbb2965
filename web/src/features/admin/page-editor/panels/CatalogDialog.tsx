import type { ReactNode } from "react";
import { Button, Dialog, Stack } from "@chakra-ui/react";
import { AdminDialog } from "../../../../ui/admin/AdminDialog.tsx";
import { FormError } from "../../../../ui/FormError.tsx";

/** The item and add-on edit dialogs: fields, an error line, Save ('Saving…' while running) and Cancel. */
export function CatalogDialog({ title, error, saving, onSave, onClose, children }: { title: string; error: string | null; saving: boolean; onSave: () => void; onClose: () => void; children: ReactNode }) {
  return (
    <AdminDialog busy={saving} onClose={onClose} size={{ base: "full", md: "md" }}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          onSave();
        }}
        noValidate
      >
        <Dialog.Header>
          <Dialog.Title>{title}</Dialog.Title>
        </Dialog.Header>
        <Dialog.Body>
          <Stack gap="4">
            {children}
            <FormError>{error}</FormError>
          </Stack>
        </Dialog.Body>
        <Dialog.Footer>
          <Button variant="outline" onClick={onClose} disabled={saving}>
            Cancel
          </Button>
          <Button type="submit" colorPalette="orange" disabled={saving}>
            {saving ? "Saving…" : "Save"}
          </Button>
        </Dialog.Footer>
      </form>
    </AdminDialog>
  );
}
