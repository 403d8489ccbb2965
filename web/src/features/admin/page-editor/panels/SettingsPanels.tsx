import { Button, GridItem, HStack, IconButton, Input, SimpleGrid, Stack, Text } from "@chakra-ui/react";
import { MODE_LABELS } from "@shared/fulfillment.ts";
import { Panel } from "../../../../ui/admin/AdminPage.tsx";
import { RichTextEditor } from "../../richtext/RichTextEditor.tsx";
import { newKey, type AfterCutoffPolicy, type MailDraft, type PageDraft } from "../draft.ts";
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
