import { Button, GridItem, HStack, IconButton, Input, SimpleGrid, Stack, Text } from "@chakra-ui/react";
import { MODE_LABELS } from "@shared/fulfillment.ts";
import { Panel } from "../../../../ui/admin/AdminPage.tsx";
import { RichTextEditor } from "../../richtext/RichTextEditor.tsx";
import { RETENTION_DISCOUNT_PERCENT } from "@shared/cancellation.ts";
import { newKey, withOffer, type AfterCutoffPolicy, type CancellationDraft, type CancellationPolicy, type MailDraft, type PageDraft, type RetentionOffer } from "../draft.ts";
import type { SaveIssue } from "../saveFailure.ts";
import { CheckField, NumberField, SelectField, TextField, type UpdateDraft } from "../fields.tsx";

/**
 * Pickup points or delivery areas: members choose one at checkout and packing lists group by them. Blank rows are
 * dropped on save; the server refuses two of the same name.
 */
function PointList({ label, one, values, onChange }: { label: string; one: string; values: string[]; onChange: (values: string[]) => void }) {
  const rows = values.length ? values : [""];
  return (
    <Stack gap="2" role="group" aria-label={label}>
      <Text fontWeight="medium" fontSize="sm">
        {label}
      </Text>
      {rows.map((value, i) => (
        <HStack key={i}>
          <Input aria-label={`${one[0].toUpperCase()}${one.slice(1)} ${i + 1}`} value={value} onChange={(e) => onChange(rows.map((v, j) => (j === i ? e.target.value : v)))} />
          {rows.length > 1 && (
            <IconButton aria-label={`Remove ${one} ${i + 1}`} variant="ghost" colorPalette="red" onClick={() => onChange(rows.filter((_, j) => j !== i))}>
              ✕
            </IconButton>
          )}
        </HStack>
      ))}
      <Button size="sm" variant="outline" alignSelf="start" onClick={() => onChange([...rows, ""])}>
        Add {one}
      </Button>
    </Stack>
  );
}

export function FulfillmentPanel({ draft, update }: { draft: PageDraft; update: UpdateDraft }) {
  const f = draft.fulfillment;
  const set = (patch: Partial<PageDraft["fulfillment"]>) => update((d) => ({ ...d, fulfillment: { ...d.fulfillment, ...patch } }));
  return (
    <Panel title="Fulfillment">
      <Stack gap="4">
        <CheckField label={MODE_LABELS.pickup} checked={f.pickup} onChange={(pickup) => set({ pickup })} />
        {f.pickup && <PointList label="Pickup points" one="pickup point" values={f.pickupPoints} onChange={(pickupPoints) => set({ pickupPoints })} />}
        <CheckField label={MODE_LABELS.shipping} checked={f.shipping} onChange={(shipping) => set({ shipping })} />
        {f.shipping && <TextField label="Shipping text" value={f.shippingText} onChange={(shippingText) => set({ shippingText })} placeholder="Nationwide Shipping" />}
        <CheckField label={MODE_LABELS.delivery} checked={f.delivery} onChange={(delivery) => set({ delivery })} />
        {f.delivery && <PointList label="Delivery areas" one="delivery area" values={f.deliveryAreas} onChange={(deliveryAreas) => set({ deliveryAreas })} />}
        {!f.pickup && !f.shipping && !f.delivery && <Text color="red.600">Select at least one</Text>}
      </Stack>
    </Panel>
  );
}

export function TaxPanel({ draft, update }: { draft: PageDraft; update: UpdateDraft }) {
  return (
    <Panel title="Tax Settings">
      <Stack gap="4">
        <CheckField label="Charge tax" checked={draft.tax.enabled} onChange={(enabled) => update((d) => ({ ...d, tax: { ...d.tax, enabled } }))} />
        {draft.tax.enabled && <NumberField label="Tax rate (%)" min={0} max={100} step={0.01} value={draft.tax.ratePercent} onChange={(v) => update((d) => ({ ...d, tax: { ...d.tax, ratePercent: v ?? 0 } }))} />}
      </Stack>
    </Panel>
  );
}

/** What the page does with sign-ups past its cutoff day. */
const AFTER_CUTOFF_OPTIONS: readonly { value: AfterCutoffPolicy; label: string }[] = [
  { value: "REFUSE", label: "Refuse sign-ups until next month" },
  { value: "NEXT_MONTH", label: "Take sign-ups for next month's box" },
];

const CANCELLATION_POLICY_OPTIONS: readonly { value: CancellationPolicy; label: string }[] = [
  { value: "PHONE", label: "By phone (support phone)" },
  { value: "SELF_SERVICE", label: "From their membership page" },
];

const RETENTION_OFFER_LABELS: Record<RetentionOffer, string> = { SKIP: "Skip a month", PAUSE: "Pause", SWITCH_PLAN: "Switch plan", DISCOUNT: "Discount" };

/**
 * How a business's members cancel (spec §1: by phone, the default) and, from their membership page, what the cancel
 * flow offers first (the server offers each only when the membership can take it).
 */
function CancellationFields({ cancellation, update, issues }: { cancellation: CancellationDraft; update: UpdateDraft; issues: readonly SaveIssue[] }) {
  const set = (patch: Partial<CancellationDraft>) => update((d) => (d.cancellation ? { ...d, cancellation: { ...d.cancellation, ...patch } } : d));
  const discountIssue = issues.find((i) => i.path.endsWith("retentionDiscountPercent"))?.message ?? null;
  const selfService = cancellation.policy === "SELF_SERVICE";
  return (
    <>
      <SelectField
        label="How members cancel"
        value={cancellation.policy}
        options={CANCELLATION_POLICY_OPTIONS}
        onChange={(policy) => set({ policy })}
        helper={selfService ? "Members give a reason and see your offers first; the membership ends after its paid month." : "Members call the support phone to cancel."}
      />
      {selfService && (
        <GridItem colSpan={{ base: 1, sm: 2 }}>
          <Stack gap="2" role="group" aria-label="Offers before cancelling">
            <Text fontWeight="medium" fontSize="sm">
              Offers before cancelling
            </Text>
            <HStack gap="5" wrap="wrap">
              {(Object.keys(RETENTION_OFFER_LABELS) as RetentionOffer[]).map((offer) => (
                <CheckField key={offer} label={RETENTION_OFFER_LABELS[offer]} checked={cancellation.offers.includes(offer)} onChange={(on) => set({ offers: withOffer(cancellation.offers, offer, on) })} />
              ))}
            </HStack>
            <Text fontSize="sm" color="fg.muted">
              Each is offered only when the membership can take it (skip and pause in the skip window, a smaller box in the change window).
            </Text>
          </Stack>
        </GridItem>
      )}
      {selfService && cancellation.offers.includes("DISCOUNT") && (
        <NumberField
          label="Discount (%)"
          min={RETENTION_DISCOUNT_PERCENT.min}
          max={RETENTION_DISCOUNT_PERCENT.max}
          value={cancellation.discountPercent}
          onChange={(discountPercent) => set({ discountPercent })}
          helper={`${RETENTION_DISCOUNT_PERCENT.min}–${RETENTION_DISCOUNT_PERCENT.max}: off the member's next box, once`}
          error={discountIssue}
        />
      )}
    </>
  );
}

export function SubscriptionPanel({ draft, update, issues }: { draft: PageDraft; update: UpdateDraft; issues: readonly SaveIssue[] }) {
  const pauseIssue = issues.find((i) => i.path.endsWith("pauseMaxMonths"))?.message ?? null;
  return (
    <Panel title="Subscription Settings">
      <SimpleGrid columns={{ base: 1, sm: 2 }} gap="4">
        <NumberField label="Cutoff day" min={1} max={31} value={draft.subscriptionCutoffDay} onChange={(v) => update((d) => ({ ...d, subscriptionCutoffDay: v }))} helper="Optional, 1–31: no new subscriptions after this day" />
        <NumberField label="Box ready day" min={1} max={28} value={draft.boxReadyDay} onChange={(v) => update((d) => ({ ...d, boxReadyDay: v }))} helper="Optional, 1–28" />
        <GridItem colSpan={{ base: 1, sm: 2 }}>
          <SelectField
            label="After the cutoff day"
            value={draft.afterCutoff}
            options={AFTER_CUTOFF_OPTIONS}
            onChange={(afterCutoff) => update((d) => ({ ...d, afterCutoff }))}
            helper="Past the cutoff day, new members either wait until next month or sign up now for next month's box (their card is saved; the first charge is on next month's billing day)."
          />
        </GridItem>
        <NumberField label="Billing day" min={1} max={28} value={draft.billingDay} onChange={(v) => update((d) => ({ ...d, billingDay: v }))} />
        <TextField label="Support phone" type="tel" value={draft.supportPhone} onChange={(supportPhone) => update((d) => ({ ...d, supportPhone }))} placeholder="(555) 123-4567" helper="Shown in the member portal and the page footer" />
        <NumberField label="Skip window start day" min={1} max={28} value={draft.skipWindow.startDay} onChange={(v) => update((d) => ({ ...d, skipWindow: { ...d.skipWindow, startDay: v } }))} />
        <NumberField label="Skip window end day" min={1} max={28} value={draft.skipWindow.endDay} onChange={(v) => update((d) => ({ ...d, skipWindow: { ...d.skipWindow, endDay: v } }))} />
        <NumberField label="Change window start day" min={1} max={28} value={draft.changeWindow.startDay} onChange={(v) => update((d) => ({ ...d, changeWindow: { ...d.changeWindow, startDay: v } }))} />
        <NumberField label="Change window end day" min={1} max={28} value={draft.changeWindow.endDay} onChange={(v) => update((d) => ({ ...d, changeWindow: { ...d.changeWindow, endDay: v } }))} />
        <NumberField label="Longest pause (months)" min={0} max={12} value={draft.pauseMaxMonths} onChange={(v) => update((d) => ({ ...d, pauseMaxMonths: v }))} helper="0: members cannot pause" error={pauseIssue} />
        {draft.cancellation && <CancellationFields cancellation={draft.cancellation} update={update} issues={issues} />}
      </SimpleGrid>
    </Panel>
  );
}

export function FaqsPanel({ draft, update, editorKey }: { draft: PageDraft; update: UpdateDraft; editorKey: number }) {
  return (
    <Panel
      title="FAQs"
      actions={
        <Button size="sm" variant="outline" onClick={() => update((d) => ({ ...d, faqs: [...d.faqs, { key: newKey("faq"), q: "", a: "", aDoc: null }] }))}>
          Add FAQ
        </Button>
      }
    >
      <Stack gap="4">
        {draft.faqs.length === 0 && <Text color="fg.muted">No questions yet.</Text>}
        {draft.faqs.map((faq, i) => (
          <Stack key={faq.key} gap="2" borderWidth="1px" rounded="md" p="3" data-testid="faq-editor">
            <HStack>
              <Input aria-label={`Question ${i + 1}`} placeholder="Question" value={faq.q} onChange={(e) => update((d) => ({ ...d, faqs: d.faqs.map((f) => (f.key === faq.key ? { ...f, q: e.target.value } : f)) }))} />
              <IconButton aria-label={`Remove question ${i + 1}`} variant="ghost" colorPalette="red" onClick={() => update((d) => ({ ...d, faqs: d.faqs.filter((f) => f.key !== faq.key) }))}>
                ✕
              </IconButton>
            </HStack>
            <RichTextEditor
              key={`${faq.key}-${editorKey}`}
              label={`Answer ${i + 1}`}
              preset="minimal"
              minHeight={40}
              initial={{ doc: faq.aDoc, html: faq.a }}
              onChange={({ doc, html }) => update((d) => ({ ...d, faqs: d.faqs.map((f) => (f.key === faq.key ? { ...f, a: html, aDoc: doc } : f)) }))}
            />
          </Stack>
        ))}
      </Stack>
    </Panel>
  );
}

/**
 * A business's email settings: the From name and Reply-To of its messages, and whether members get the optional
 * reminders (each member may still turn them off in the portal). The server's refusal of a field shows under it.
 */
export function EmailPanel({ mail, update, issues }: { mail: MailDraft; update: UpdateDraft; issues: readonly SaveIssue[] }) {
  const set = (patch: Partial<MailDraft>) => update((d) => (d.mail ? { ...d, mail: { ...d.mail, ...patch } } : d));
  const issue = (field: keyof MailDraft) => issues.find((i) => i.path.endsWith(`mail.${field}`))?.message ?? null;
  return (
    <Panel title="Email">
      <Stack gap="4">
        <SimpleGrid columns={{ base: 1, sm: 2 }} gap="4">
          <TextField label="Sender name" value={mail.senderName} onChange={(senderName) => set({ senderName })} helper="Shown as the sender; empty uses the brand name" error={issue("senderName")} />
          <TextField label="Reply-to address" type="email" value={mail.replyTo} onChange={(replyTo) => set({ replyTo })} placeholder="help@example.com" helper="Where members' replies go; empty for none" error={issue("replyTo")} />
        </SimpleGrid>
        <CheckField label="Send window-closing reminders" checked={mail.windowReminder} onChange={(windowReminder) => set({ windowReminder })} />
        <CheckField label="Send upcoming charge notices" checked={mail.prechargeNotice} onChange={(prechargeNotice) => set({ prechargeNotice })} />
        <Text fontSize="sm" color="fg.muted">
          Receipts, payment and security messages are always sent.
        </Text>
      </Stack>
    </Panel>
  );
}
