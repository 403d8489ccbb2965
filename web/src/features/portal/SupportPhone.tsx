import { Link } from "@chakra-ui/react";

/** A business's support line as a tap-to-call link (spec §2's portal note), or "our support line" when none is set. */
export function SupportPhone({ phone }: { phone: string | null | undefined }) {
  if (!phone) return <>our support line</>;
  return (
    <Link href={`tel:${phone.replace(/[^0-9+]/g, "")}`} fontWeight="semibold" color="fg" data-testid="support-phone">
      {phone}
    </Link>
  );
}
