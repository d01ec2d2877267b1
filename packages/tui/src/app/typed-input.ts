import { existsSync, statSync } from "node:fs";
import { type Attachment, ImageInputError, imageMediaType, type OpenedSession } from "@nyzhi/core";

/** The chip a prompt shows for one attachment: `[file notes.txt · 3 lines]`, `[image shot.png]`. */
export function attachmentChip(attachment: Attachment): string {
  switch (attachment.kind) {
    case "file":
      return `[file ${attachment.path} · ${attachment.lines} lines${attachment.truncated ? ", cut at 100 KB" : ""}]`;
    case "directory":
      return `[folder ${attachment.path} · ${attachment.entries} entries${attachment.truncated ? ", cut" : ""}]`;
    case "image":
      return `[image ${attachment.path}]`;
  }
}

/**
 * The path a paste names when it is one image file (a file dropped on the terminal pastes its
 * path, quoted or with escaped spaces, sometimes as a `file://` URL); undefined otherwise.
 */
export function pastedImagePath(pasted: string, cwd: string): string | undefined {
  let text = pasted.trim();
  if (text === "" || text.includes("\n")) return undefined;
  const quoted = /^(['"])(.*)\1$/.exec(text);
  if (quoted) text = quoted[2]!;
  else text = text.replace(/\\(.)/g, "$1");
  if (text.startsWith("file://")) {
    try {
      text = decodeURIComponent(new URL(text).pathname);
    } catch {
      return undefined;
    }
  }
  if (!imageMediaType(text)) return undefined;
  const path = text.startsWith("/") ? text : `${cwd}/${text}`;
  try {
    return existsSync(path) && statSync(path).isFile() ? path : undefined;
  } catch {
    return undefined;
  }
}

/** What a typed prompt becomes: `!command`, a prompt (`&` sends it to the background), or nothing. */
export type TypedInput =
  | { kind: "shell"; command: string }
  | { kind: "prompt"; text: string; display: string; background: boolean };

/** Reads the `!` and `&` prefixes of what was typed (`display`: as the transcript shows it). */
export function readTypedInput(text: string, display: string): TypedInput | undefined {
  const trimmed = text.trimStart();
  if (trimmed.startsWith("!")) {
    const command = trimmed.slice(1).trim();
    return command === "" ? undefined : { kind: "shell", command };
  }
  if (trimmed.startsWith("&")) {
    const rest = trimmed.slice(1).trimStart();
    if (rest === "") return undefined;
    return {
      kind: "prompt",
      text: rest,
      display: display.trimStart().replace(/^&\s*/, ""),
      background: true,
    };
  }
  return { kind: "prompt", text, display, background: false };
}

/** A prompt ready to send, or why it was not (said to the person; the text goes back to the input). */
export type PreparedPrompt =
  | {
      ok: true;
      input: Awaited<ReturnType<OpenedSession["prepareMessage"]>>["input"];
      chips: string[];
      refused: string[];
    }
  | { ok: false; message: string };

/** Resolves the prompt's `@paths` and images through the session. */
export async function preparePrompt(
  session: OpenedSession,
  text: string,
  images: readonly string[],
): Promise<PreparedPrompt> {
  try {
    const prepared = await session.prepareMessage(text, { images: images.map((path) => ({ path })) });
    return {
      ok: true,
      input: prepared.input,
      chips: prepared.attachments.map(attachmentChip),
      refused: prepared.refused.map((refused) => `Not attached: ${refused.path}: ${refused.reason}`),
    };
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (error instanceof ImageInputError || code === "image_input_unsupported" || code === "usage")
      return { ok: false, message: (error as Error).message };
    throw error;
  }
}
