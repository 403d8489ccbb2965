import { Checkbox, Field, Input, NativeSelect } from "@chakra-ui/react";
import type { PageDraft } from "./draft.ts";

export type UpdateDraft = (change: (draft: PageDraft) => PageDraft) => void;

/** A text input; `error` (the server's refusal of this field) marks it invalid and shows under it. */
export function TextField({ label, value, onChange, placeholder, type = "text", helper, error }: { label: string; value: string; onChange: (value: string) => void; placeholder?: string; type?: string; helper?: string; error?: string | null }) {
  return (
    <Field.Root invalid={Boolean(error)}>
      <Field.Label>{label}</Field.Label>
      <Input type={type} value={value} placeholder={placeholder} onChange={(e) => onChange(e.target.value)} />
      {helper && <Field.HelperText>{helper}</Field.HelperText>}
      {error && <Field.ErrorText>{error}</Field.ErrorText>}
    </Field.Root>
  );
}

/** A whole-number input whose empty value is null; `error` (the server's refusal of this field) shows under it. */
export function NumberField({ label, value, onChange, min, max, step = 1, helper, error }: { label: string; value: number | null; onChange: (value: number | null) => void; min?: number; max?: number; step?: number; helper?: string; error?: string | null }) {
  return (
    <Field.Root invalid={Boolean(error)}>
      <Field.Label>{label}</Field.Label>
      <Input
        type="number"
        min={min}
        max={max}
        step={step}
        value={value === null || Number.isNaN(value) ? "" : String(value)}
        onChange={(e) => onChange(e.target.value === "" ? null : Number(e.target.value))}
      />
      {helper && <Field.HelperText>{helper}</Field.HelperText>}
      {error && <Field.ErrorText>{error}</Field.ErrorText>}
    </Field.Root>
  );
}

export function CheckField({ label, checked, onChange }: { label: string; checked: boolean; onChange: (checked: boolean) => void }) {
  return (
    <Checkbox.Root checked={checked} onCheckedChange={(e) => onChange(!!e.checked)}>
      <Checkbox.HiddenInput />
      <Checkbox.Control />
      <Checkbox.Label>{label}</Checkbox.Label>
    </Checkbox.Root>
  );
}

/** A native select of fixed options. */
export function SelectField<T extends string>({ label, value, options, onChange, helper }: { label: string; value: T; options: readonly { value: T; label: string }[]; onChange: (value: T) => void; helper?: string }) {
  return (
    <Field.Root>
      <Field.Label>{label}</Field.Label>
      <NativeSelect.Root>
        <NativeSelect.Field value={value} onChange={(e) => onChange(options.find((o) => o.value === e.target.value)?.value ?? value)}>
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </NativeSelect.Field>
        <NativeSelect.Indicator />
      </NativeSelect.Root>
      {helper && <Field.HelperText>{helper}</Field.HelperText>}
    </Field.Root>
  );
}
