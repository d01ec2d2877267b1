import { readFile } from "node:fs/promises";
import { extname } from "node:path";
import { NyzhiError } from "@nyzhi/config";
import type { UserContentPart } from "@nyzhi/provider";

/** Reads all of stdin when it is piped (not a terminal); "" otherwise. */
export async function readPipedStdin(stdin: NodeJS.ReadableStream & { isTTY?: boolean }): Promise<string> {
  if (stdin.isTTY) return "";
  let text = "";
  for await (const chunk of stdin)
    text += typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8");
  return text;
}

const IMAGE_TYPES: Record<string, string> = {
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
};

/** The user turn: images first (from `-i`), then the text. */
export async function buildUserContent(
  text: string,
  images: readonly string[],
): Promise<string | UserContentPart[]> {
  if (images.length === 0) return text;
  const parts: UserContentPart[] = [];
  for (const path of images) {
    const mediaType = IMAGE_TYPES[extname(path).toLowerCase()];
    if (!mediaType) {
      throw new NyzhiError(
        "usage",
        `Unsupported image format: ${extname(path) || path} (use png, jpg, jpeg, gif or webp)`,
      );
    }
    parts.push({ type: "image", mediaType, data: (await readFile(path)).toString("base64") });
  }
  parts.push({ type: "text", text });
  return parts;
}
