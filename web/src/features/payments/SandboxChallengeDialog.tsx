import { Button, Dialog, Portal, Text } from "@chakra-ui/react";

/** The sandbox's 3-D Secure challenge: the cardholder completes or fails authentication. */
export function SandboxChallengeDialog({ open, onResult }: { open: boolean; onResult: (completed: boolean) => void }) {
  return (
    <Dialog.Root open={open} onOpenChange={(e) => !e.open && open && onResult(false)} role="alertdialog" placement="center">
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner px="4">
          <Dialog.Content>
            <Dialog.Header>
              <Dialog.Title>3D Secure authentication</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Text>Your bank asks you to confirm this payment. This is a test challenge: complete or fail it.</Text>
            </Dialog.Body>
            <Dialog.Footer>
              <Button variant="outline" onClick={() => onResult(false)}>
                Fail authentication
              </Button>
              <Button colorPalette="green" onClick={() => onResult(true)}>
                Complete authentication
              </Button>
            </Dialog.Footer>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
