import { useState } from "react";
import { Box, Button, Field, HStack, Input, SimpleGrid, Stack, Text, Textarea } from "@chakra-ui/react";
import { MODE_LABELS, MODE_ORDER, type FulfillmentModeName } from "@shared/fulfillment.ts";
import { formatCents } from "@shared/money.ts";
import { CAPACITY_MESSAGE, parseCapacity } from "@shared/capacity.ts";
import { EmptyLine, Panel } from "../../../../ui/admin/AdminPage.tsx";
import { centsToDollars, dollarsToCents, newKey, type AddonDraft, type ItemDraft, type PageDraft } from "../draft.ts";
import { CheckField, NumberField, TextField, type UpdateDraft } from "../fields.tsx";
import { CatalogDialog } from "./CatalogDialog.tsx";

const SAVE_FALLBACK = "Failed to save changes. Please ensure the backend is running.";

function matches(search: string, ...texts: string[]) {
  const term = search.trim().toLowerCase();
  return !term || texts.some((t) => t.toLowerCase().includes(term));
}

function itemPriceLine(item: ItemDraft): string {
  const parts = [
    item.pickupCents !== null && `Pickup ${formatCents(item.pickupCents)}`,
    item.shippingCents !== null && `Shipping ${formatCents(item.shippingCents)}`,
    item.deliveryCents !== null && `Delivery ${formatCents(item.deliveryCents)}`,
  ].filter(Boolean);
  return parts.join(" · ");
}

function CatalogCard({ title, price, description, listed, onToggle, onEdit, onDelete, testId }: { title: string; price: string; description: string; listed: boolean; onToggle: (v: boolean) => void; onEdit: () => void; onDelete: () => void; testId: string }) {
  return (
    <Box borderWidth="1px" rounded="lg" p="3" bg={listed ? "orange.50" : "bg"} borderColor={listed ? "orange.300" : "border"} data-testid={testId}>
      <Text fontWeight="semibold">{title}</Text>
      <Text fontSize="sm">{price}</Text>
      {description && (
        <Text fontSize="sm" color="fg.muted" lineClamp={2}>
          {description}
        </Text>
      )}
      <HStack mt="2" justify="space-between" wrap="wrap">
        <CheckField label="Show on page" checked={listed} onChange={onToggle} />
        <HStack gap="1">
          <Button size="xs" variant="outline" onClick={onEdit} aria-label={`Edit ${title}`}>
            Edit
          </Button>
          <Button size="xs" variant="ghost" colorPalette="red" onClick={onDelete} aria-label={`Delete ${title}`}>
            Delete
          </Button>
        </HStack>
      </HStack>
    </Box>
  );
}

export type PersistDraft = (next: PageDraft) => Promise<void>;

export function ItemsPanel({ draft, update, persist }: { draft: PageDraft; update: UpdateDraft; persist: PersistDraft }) {
  const [search, setSearch] = useState("");
  const [editing, setEditing] = useState<ItemDraft | null>(null);
  const shown = draft.items.filter((i) => matches(search, i.name, i.description));
  const newItem = (): ItemDraft => ({
    ref: null,
    key: newKey("item"),
    name: "",
    description: "",
    pickupCents: null,
    shippingCents: null,
    deliveryCents: null,
    listed: true,
    capacity: null,
    modeCapacity: { pickup: null, shipping: null, delivery: null },
  });
  return (
    <Panel
      title="Items"
      actions={
        <Button size="sm" colorPalette="orange" onClick={() => setEditing(newItem())}>
          Add new item
        </Button>
      }
    >
      <Stack gap="3">
        <Input placeholder="Search items" aria-label="Search items" value={search} onChange={(e) => setSearch(e.target.value)} />
        {shown.length === 0 ? (
          <EmptyLine>No items yet...</EmptyLine>
        ) : (
          <SimpleGrid columns={{ base: 1, md: 2 }} gap="3">
            {shown.map((item) => (
              <CatalogCard
                key={item.key}
                testId="item-card"
                title={item.name}
                price={itemPriceLine(item)}
                description={item.description}
                listed={item.listed}
                onToggle={(listed) => update((d) => ({ ...d, items: d.items.map((i) => (i.key === item.key ? { ...i, listed } : i)) }))}
                onEdit={() => setEditing(item)}
                onDelete={() => update((d) => ({ ...d, items: d.items.filter((i) => i.key !== item.key) }))}
              />
            ))}
          </SimpleGrid>
        )}
      </Stack>
      {editing && (
        <ItemDialog
          item={editing}
          modes={MODE_ORDER.filter((m) => draft.fulfillment[m])}
          onClose={() => setEditing(null)}
          onSave={async (item) => {
            const exists = draft.items.some((i) => i.key === item.key);
            const next = { ...draft, items: exists ? draft.items.map((i) => (i.key === item.key ? item : i)) : [...draft.items, item] };
            await persist(next);
            setEditing(null);
          }}
        />
      )}
    </Panel>
  );
}

const capacityText = (value: number | null) => (value === null ? "" : String(value));

/** The dialog of one item; `modes`: the page's enabled fulfillment modes, each with its own "Maximum members". */
function ItemDialog({ item, modes, onSave, onClose }: { item: ItemDraft; modes: FulfillmentModeName[]; onSave: (item: ItemDraft) => Promise<void>; onClose: () => void }) {
  const [name, setName] = useState(item.name);
  const [description, setDescription] = useState(item.description);
  const [prices, setPrices] = useState({ pickup: centsToDollars(item.pickupCents), shipping: centsToDollars(item.shippingCents), delivery: centsToDollars(item.deliveryCents) });
  const [capacity, setCapacity] = useState(capacityText(item.capacity));
  const [modeCapacity, setModeCapacity] = useState({
    pickup: capacityText(item.modeCapacity.pickup),
    shipping: capacityText(item.modeCapacity.shipping),
    delivery: capacityText(item.modeCapacity.delivery),
  });
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const save = async () => {
    if (!name.trim()) return setError("Please enter a package name.");
    const cents = { pickupCents: dollarsToCents(prices.pickup), shippingCents: dollarsToCents(prices.shipping), deliveryCents: dollarsToCents(prices.delivery) };
    if (cents.pickupCents === null && cents.shippingCents === null && cents.deliveryCents === null) return setError("Enter at least one price (pickup, shipping, and/or delivery).");
    const planCapacity = parseCapacity(capacity);
    const perMode = { pickup: parseCapacity(modeCapacity.pickup), shipping: parseCapacity(modeCapacity.shipping), delivery: parseCapacity(modeCapacity.delivery) };
    if (planCapacity === undefined || MODE_ORDER.some((m) => perMode[m] === undefined)) return setError(CAPACITY_MESSAGE);
    setError(null);
    setSaving(true);
    try {
      await onSave({
        ...item,
        name: name.trim(),
        description,
        ...cents,
        capacity: planCapacity,
        modeCapacity: { pickup: perMode.pickup ?? null, shipping: perMode.shipping ?? null, delivery: perMode.delivery ?? null },
      });
    } catch (e) {
      setError((e as Error).message || SAVE_FALLBACK);
      setSaving(false);
    }
  };
  const priceField = (mode: FulfillmentModeName) => (
    <Field.Root key={mode}>
      <Field.Label>{MODE_LABELS[mode]} price (USD)</Field.Label>
      <Input type="number" min="0" step="0.01" value={prices[mode]} onChange={(e) => setPrices((p) => ({ ...p, [mode]: e.target.value }))} />
    </Field.Root>
  );
  return (
    <CatalogDialog title={item.name ? `Edit ${item.name}` : "New item"} error={error} saving={saving} onSave={save} onClose={onClose}>
      <TextField label="Package name" value={name} onChange={setName} />
      <Field.Root>
        <Field.Label>Description</Field.Label>
        <Textarea value={description} onChange={(e) => setDescription(e.target.value)} rows={3} />
      </Field.Root>
      <SimpleGrid columns={{ base: 1, sm: 3 }} gap="3">
        {MODE_ORDER.map(priceField)}
      </SimpleGrid>
      <SimpleGrid columns={{ base: 1, sm: 2 }} gap="3">
        <Field.Root>
          <Field.Label>Maximum members</Field.Label>
          <Input type="number" min="0" step="1" inputMode="numeric" value={capacity} onChange={(e) => setCapacity(e.target.value)} />
          <Field.HelperText>All modes together. Empty = no limit.</Field.HelperText>
        </Field.Root>
        {modes.map((mode) => (
          <Field.Root key={mode}>
            <Field.Label>Maximum members ({MODE_LABELS[mode]})</Field.Label>
            <Input type="number" min="0" step="1" inputMode="numeric" value={modeCapacity[mode]} onChange={(e) => setModeCapacity((c) => ({ ...c, [mode]: e.target.value }))} />
            <Field.HelperText>Empty = no limit.</Field.HelperText>
          </Field.Root>
        ))}
      </SimpleGrid>
    </CatalogDialog>
  );
}

export function AddonsPanel({ draft, update, persist }: { draft: PageDraft; update: UpdateDraft; persist: PersistDraft }) {
  const [search, setSearch] = useState("");
  const [editing, setEditing] = useState<AddonDraft | null>(null);
  const shown = draft.addons.filter((a) => matches(search, a.name, a.description));
  return (
    <Panel
      title="Add-ons"
      actions={
        <Button size="sm" colorPalette="orange" onClick={() => setEditing({ ref: null, key: newKey("addon"), name: "", description: "", amountCents: 0, listed: true })}>
          Add new add-on
        </Button>
      }
    >
      <Stack gap="3">
        <SimpleGrid columns={{ base: 1, sm: 2 }} gap="3">
          <NumberField label="Add-on limit" min={0} value={draft.addonLimit} onChange={(v) => update((d) => ({ ...d, addonLimit: Math.max(0, v ?? 0) }))} helper="0 = unlimited" />
          <TextField label="Section title" value={draft.addonSectionTitle} onChange={(addonSectionTitle) => update((d) => ({ ...d, addonSectionTitle }))} placeholder="Available Add-ons" />
        </SimpleGrid>
        <Input placeholder="Search add-ons" aria-label="Search add-ons" value={search} onChange={(e) => setSearch(e.target.value)} />
        {shown.length === 0 ? (
          <EmptyLine>No add-ons yet...</EmptyLine>
        ) : (
          <SimpleGrid columns={{ base: 1, md: 2 }} gap="3">
            {shown.map((addon) => (
              <CatalogCard
                key={addon.key}
                testId="addon-card"
                title={addon.name}
                price={`+${formatCents(addon.amountCents)}`}
                description={addon.description}
                listed={addon.listed}
                onToggle={(listed) => update((d) => ({ ...d, addons: d.addons.map((a) => (a.key === addon.key ? { ...a, listed } : a)) }))}
                onEdit={() => setEditing(addon)}
                onDelete={() => update((d) => ({ ...d, addons: d.addons.filter((a) => a.key !== addon.key) }))}
              />
            ))}
          </SimpleGrid>
        )}
      </Stack>
      {editing && (
        <AddonDialog
          addon={editing}
          onClose={() => setEditing(null)}
          onSave={async (addon) => {
            const exists = draft.addons.some((a) => a.key === addon.key);
            await persist({ ...draft, addons: exists ? draft.addons.map((a) => (a.key === addon.key ? addon : a)) : [...draft.addons, addon] });
            setEditing(null);
          }}
        />
      )}
    </Panel>
  );
}

function AddonDialog({ addon, onSave, onClose }: { addon: AddonDraft; onSave: (addon: AddonDraft) => Promise<void>; onClose: () => void }) {
  const [name, setName] = useState(addon.name);
  const [description, setDescription] = useState(addon.description);
  const [price, setPrice] = useState(addon.name ? centsToDollars(addon.amountCents) : "");
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const save = async () => {
    if (!name.trim()) return setError("Please enter an add-on name.");
    const amountCents = dollarsToCents(price);
    if (amountCents === null) return setError("Please enter a valid price.");
    setError(null);
    setSaving(true);
    try {
      await onSave({ ...addon, name: name.trim(), description, amountCents });
    } catch (e) {
      setError((e as Error).message || SAVE_FALLBACK);
      setSaving(false);
    }
  };
  return (
    <CatalogDialog title={addon.name ? `Edit ${addon.name}` : "New add-on"} error={error} saving={saving} onSave={save} onClose={onClose}>
      <TextField label="Add-on name" value={name} onChange={setName} />
      <Field.Root>
        <Field.Label>Description</Field.Label>
        <Textarea value={description} onChange={(e) => setDescription(e.target.value)} rows={3} />
      </Field.Root>
      <Field.Root>
        <Field.Label>Price (USD)</Field.Label>
        <Input type="number" min="0" step="0.01" value={price} onChange={(e) => setPrice(e.target.value)} />
      </Field.Root>
    </CatalogDialog>
  );
}
