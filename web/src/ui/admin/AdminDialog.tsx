import type { ReactNode } from "react";
import { CloseButton, Dialog, Portal, type DialogRootProps } from "@chakra-ui/react";

/**
 * The admin area's dialog frame: open while rendered, closed by Escape, the backdrop or its close button unless
 * `busy` (a request is running); the content (header, body, footer) is the caller's.
 */
export function AdminDialog({ busy = false, onClose, size, role, children }: { busy?: boolean; onClose: () => void; size?: DialogRootProps["size"]; role?: DialogRootProps["role"]; children: ReactNode }) {
  return (
    <Dialog.Root open onOpenChange={(e) => !e.open && !busy && onClose()} size={size} role={role}>
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content>
            {children}
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" disabled={busy} />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
