import type { ReactNode } from "react";
import { Button, Dialog } from "@chakra-ui/react";
import { FormError } from "../FormError.tsx";
import { AdminDialog } from "./AdminDialog.tsx";

/**
 * The admin area's confirmation for an action that cannot be undone (cancel a membership, revoke a token): an
 * alert dialog with a title, what will happen, a safe way out and the red action. While `busy` it cannot be
 * dismissed; `error` shows under the body.
 */
export function ConfirmDialog({
  title,
  children,
  cancelLabel,
  confirmLabel,
  busy = false,
  error,
  onConfirm,
  onClose,
}: {
  title: ReactNode;
  children: ReactNode;
  cancelLabel: string;
  confirmLabel: string;
  busy?: boolean;
  error?: string | null;
  onConfirm: () => void;
  onClose: () => void;
}) {
  return (
    <AdminDialog busy={busy} onClose={onClose} role="alertdialog">
      <Dialog.Header>
        <Dialog.Title>{title}</Dialog.Title>
      </Dialog.Header>
      <Dialog.Body>
        {children}
        <FormError mt="3">{error}</FormError>
      </Dialog.Body>
      <Dialog.Footer>
        <Button variant="outline" onClick={onClose} disabled={busy}>
          {cancelLabel}
        </Button>
        <Button colorPalette="red" loading={busy} onClick={onConfirm}>
          {confirmLabel}
        </Button>
      </Dialog.Footer>
    </AdminDialog>
  );
}
