import type { ReactNode } from "react";
import { Button, CloseButton, Dialog, Portal, Text } from "@chakra-ui/react";

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
    <Dialog.Root open onOpenChange={(e) => !e.open && !busy && onClose()} role="alertdialog">
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content>
            <Dialog.Header>
              <Dialog.Title>{title}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              {children}
              {error && (
                <Text mt="3" color="red.600" role="alert">
                  {error}
                </Text>
              )}
            </Dialog.Body>
            <Dialog.Footer>
              <Button variant="outline" onClick={onClose} disabled={busy}>
                {cancelLabel}
              </Button>
              <Button colorPalette="red" loading={busy} onClick={onConfirm}>
                {confirmLabel}
              </Button>
            </Dialog.Footer>
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" disabled={busy} />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
