import type { API, BlockTool, BlockToolConstructorOptions } from "@editorjs/editorjs";
import { INLINE_IMAGE_MAX_BYTES, INLINE_IMAGE_TYPES } from "./blocksHtml.ts";

const acceptedType = (type: string) => (INLINE_IMAGE_TYPES as readonly string[]).includes(type);

interface InlineImageData {
  url?: string;
  caption?: string;
}

function readAsDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error("The image could not be read"));
    reader.readAsDataURL(file);
  });
}

/** An Editor.js block that embeds a chosen or pasted image as a data URL: nothing is uploaded. */
export class InlineImageTool implements BlockTool {
  static get toolbox() {
    return {
      title: "Image",
      icon: '<svg width="17" height="15" viewBox="0 0 24 24"><path fill="none" stroke="currentColor" stroke-width="2" d="M3 5h18v14H3zM3 16l5-5 4 4 3-3 6 6"/></svg>',
    };
  }

  static get isReadOnlySupported() {
    return true;
  }

  static get pasteConfig() {
    return { files: { mimeTypes: [...INLINE_IMAGE_TYPES] } };
  }

  private data: InlineImageData;
  private wrapper: HTMLDivElement;
  private readonly api: API;
  private readonly readOnly: boolean;

  constructor({ data, api, readOnly }: BlockToolConstructorOptions<InlineImageData>) {
    this.data = { url: data?.url, caption: data?.caption ?? "" };
    this.api = api;
    this.readOnly = readOnly;
    this.wrapper = document.createElement("div");
  }

  render(): HTMLElement {
    this.draw();
    return this.wrapper;
  }

  private draw() {
    this.wrapper.replaceChildren();
    if (this.data.url) {
      const img = document.createElement("img");
      img.src = this.data.url;
      img.alt = this.data.caption ?? "";
      img.style.maxWidth = "100%";
      img.style.borderRadius = "6px";
      this.wrapper.appendChild(img);
      return;
    }
    if (this.readOnly) return;
    const input = document.createElement("input");
    input.type = "file";
    input.accept = INLINE_IMAGE_TYPES.join(",");
    input.setAttribute("aria-label", "Choose an image to embed");
    input.addEventListener("change", () => {
      const file = input.files?.[0];
      if (file) void this.embed(file);
    });
    this.wrapper.appendChild(input);
  }

  private async embed(file: File) {
    if (!acceptedType(file.type)) {
      this.api.notifier.show({ message: "Only PNG, GIF, JPEG, BMP or ICO images can be embedded.", style: "error" });
      return;
    }
    // The server refuses bigger ones (the whole document is sent with every save).
    if (file.size > INLINE_IMAGE_MAX_BYTES) {
      this.api.notifier.show({ message: `Images embedded in text can be at most ${INLINE_IMAGE_MAX_BYTES / 1024} KB; add larger photos to the gallery.`, style: "error" });
      return;
    }
    this.data = { url: await readAsDataUrl(file), caption: file.name };
    this.draw();
  }

  onPaste(event: CustomEvent) {
    const file = (event.detail as { file?: File }).file;
    if (file) void this.embed(file);
  }

  save(): InlineImageData {
    return { url: this.data.url ?? "", caption: this.data.caption ?? "" };
  }

  validate(saved: InlineImageData): boolean {
    return Boolean(saved.url);
  }
}
