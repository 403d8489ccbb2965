import { Alert, type AlertRootProps } from "@chakra-ui/react";

/**
 * An outcome shown in place (a mutation's refusal, a confirmation): a Chakra alert that screen readers announce,
 * an error at once (role "alert"), anything else politely (role "status"). Nothing while there is no message.
 */
export function InlineAlert({ status = "error", title, children, ...props }: Omit<AlertRootProps, "children" | "role" | "status" | "title"> & { status?: "error" | "success" | "info" | "warning"; title?: string; children: string | null | undefined }) {
  if (!children) return null;
  return (
    <Alert.Root status={status} role={status === "error" ? "alert" : "status"} rounded="lg" {...props}>
      <Alert.Indicator />
      <Alert.Content>
        {title && <Alert.Title>{title}</Alert.Title>}
        <Alert.Description>{children}</Alert.Description>
      </Alert.Content>
    </Alert.Root>
  );
}
