import { Text, type TextProps } from "@chakra-ui/react";

/** A form's or dialog's refusal, announced to screen readers; nothing while there is none. */
export function FormError({ children, ...props }: Omit<TextProps, "children" | "role"> & { children: string | null | undefined }) {
  if (!children) return null;
  return (
    <Text role="alert" color="red.600" {...props}>
      {children}
    </Text>
  );
}

/** The outcome of a save or an action: a confirmation read out politely, or the refusal as FormError says it. */
export function FormResult({ result, ...props }: Omit<TextProps, "children" | "role"> & { result: { ok: boolean; text: string } | null }) {
  if (!result) return null;
  if (!result.ok) return <FormError {...props}>{result.text}</FormError>;
  return (
    <Text role="status" color="green.700" {...props}>
      {result.text}
    </Text>
  );
}
