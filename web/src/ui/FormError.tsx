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
