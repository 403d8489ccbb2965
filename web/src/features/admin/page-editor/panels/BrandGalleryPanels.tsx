import { useRef, useState } from "react";
import { Badge, Box, Button, HStack, Image, Input, SimpleGrid, Stack, Text } from "@chakra-ui/react";
import { Panel } from "../../../../ui/admin/AdminPage.tsx";
import { RichTextEditor } from "../../richtext/RichTextEditor.tsx";
import { makePrimary, type PageDraft } from "../draft.ts";
import { TextField, type UpdateDraft } from "../fields.tsx";
import { uploadImage } from "../upload.ts";

function UploadButton({ label, multiple, onFiles, busy }: { label: string; multiple?: boolean; onFiles: (files: File[]) => void; busy: boolean }) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <input
        ref={input}
        type="file"
        accept="image/*"
        multiple={multiple}
        hidden
        aria-label={label}
        onChange={(e) => {
          const files = Array.from(e.target.files ?? []);
          e.target.value = "";
          if (files.length) onFiles(files);
        }}
      />
      <Button size="sm" variant="outline" loading={busy} onClick={() => input.current?.click()}>
        {label}
      </Button>
    </>
  );
}

export function BrandPanel({ draft, update, businessId }: { draft: PageDraft; update: UpdateDraft; businessId?: number }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const upload = async (files: File[]) => {
    setBusy(true);
    setError(null);
    try {
      const url = await uploadImage(files[0], businessId);
      update((d) => ({ ...d, brand: { ...d.brand, logoUrl: url } }));
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Panel title="Brand">
      <Stack gap="4">
        <TextField label="Brand name" value={draft.brand.name} onChange={(name) => update((d) => ({ ...d, brand: { ...d.brand, name } }))} />
        <HStack gap="4" align="center" wrap="wrap">
          {draft.brand.logoUrl ? <Image src={draft.brand.logoUrl} alt="Logo" boxSize="16" rounded="full" objectFit="cover" borderWidth="1px" /> : <Box boxSize="16" rounded="full" bg="bg.muted" />}
          <UploadButton label="Upload logo" onFiles={upload} busy={busy} />
          {draft.brand.logoUrl && (
            <Button size="sm" variant="ghost" onClick={() => update((d) => ({ ...d, brand: { ...d.brand, logoUrl: "" } }))}>
              Remove logo
            </Button>
          )}
        </HStack>
        <TextField label="Logo URL" value={draft.brand.logoUrl} onChange={(logoUrl) => update((d) => ({ ...d, brand: { ...d.brand, logoUrl } }))} placeholder="https://…" />
        {error && <Text color="red.600">{error}</Text>}
      </Stack>
    </Panel>
  );
}

export function DescriptionPanel({ draft, update, editorKey }: { draft: PageDraft; update: UpdateDraft; editorKey: number }) {
  return (
    <Panel title="Description">
      <RichTextEditor
        key={editorKey}
        label="Description"
        initial={{ doc: draft.descriptionDoc, html: draft.descriptionHtml }}
        onChange={({ doc, html }) => update((d) => ({ ...d, descriptionDoc: doc, descriptionHtml: html }))}
        preset="full"
      />
    </Panel>
  );
}

export function GalleryPanel({ draft, update, businessId }: { draft: PageDraft; update: UpdateDraft; businessId?: number }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [url, setUrl] = useState("");
  const upload = async (files: File[]) => {
    setBusy(true);
    setError(null);
    try {
      const urls: string[] = [];
      for (const file of files) urls.push(await uploadImage(file, businessId));
      update((d) => ({ ...d, gallery: [...d.gallery, ...urls] }));
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Panel title="Gallery" actions={<UploadButton label="Upload images" multiple onFiles={upload} busy={busy} />}>
      <Stack gap="4">
        {draft.gallery.length === 0 ? (
          <Text color="fg.muted">No images yet. The first image is the main one.</Text>
        ) : (
          <SimpleGrid columns={{ base: 2, md: 3 }} gap="3">
            {draft.gallery.map((src, i) => (
              <Box key={`${src}-${i}`} borderWidth="1px" rounded="md" overflow="hidden" position="relative" data-testid="gallery-thumb">
                <Image src={src} alt={`Gallery image ${i + 1}`} h="24" w="full" objectFit="cover" />
                {i === 0 && (
                  <Badge position="absolute" top="1" left="1" colorPalette="orange" variant="solid">
                    Primary
                  </Badge>
                )}
                <HStack p="1" gap="1" justify="space-between">
                  <Button size="2xs" variant="ghost" disabled={i === 0} onClick={() => update((d) => ({ ...d, gallery: makePrimary(d.gallery, i) }))}>
                    Make primary
                  </Button>
                  <Button size="2xs" variant="ghost" colorPalette="red" onClick={() => update((d) => ({ ...d, gallery: d.gallery.filter((_, j) => j !== i) }))}>
                    Remove
                  </Button>
                </HStack>
              </Box>
            ))}
          </SimpleGrid>
        )}
        <HStack>
          <Input size="sm" placeholder="Or add an image URL" aria-label="Image URL" value={url} onChange={(e) => setUrl(e.target.value)} />
          <Button
            size="sm"
            variant="outline"
            disabled={!url.trim()}
            onClick={() => {
              update((d) => ({ ...d, gallery: [...d.gallery, url.trim()] }));
              setUrl("");
            }}
          >
            Add
          </Button>
        </HStack>
        {error && <Text color="red.600">{error}</Text>}
      </Stack>
    </Panel>
  );
}
