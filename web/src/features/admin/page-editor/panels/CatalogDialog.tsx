import type { ReactNode } from "react";
import { Button, CloseButton, Dialog, Portal, Stack, Text } from "@chakra-ui/react";

/** The item and add-on edit dialogs: fields, an error line, Save ('Saving…' while running) and Cancel. */
export function CatalogDialog({ title, error, saving, onSave, onClose, children }: { title: string; error: string | null; saving: boolean; onSave: () => void; onClose: () => void; children: ReactNode }) {
  return (
    <Dialog.Root open onOpenChange={(e) => !e.open && !saving && onClose()} size={{ base: "full", md: "md" }}>
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content>
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
                  {error && (
                    <Text color="red.600" role="alert">
                      {error}
                    </Text>
                  )}
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
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
