import { readFile } from "node:fs/promises";
import { basename, extname } from "node:path";
import { errorMessage, NyzhiError } from "@nyzhi/config";
import type { ImagePart } from "@nyzhi/provider";

/** Image types a message can carry, by file extension. */
export const IMAGE_MEDIA_TYPES: Readonly<Record<string, string>> = {
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
};

/** The media type of an image path by its extension; undefined for anything else. */
export function imageMediaType(path: string): string | undefined {
  return IMAGE_MEDIA_TYPES[extname(path).toLowerCase()];
}

/** An image to attach: a file, or bytes the host already holds (a pasted clipboard image). */
export type ImageSource = { path: string } | { name: string; mediaType: string; data: Uint8Array };

/** An image read for a message: the part the model gets and how the host names it. */
export interface ReadImage {
  part: ImagePart;
  /** The file's name, or the name the host gave a pasted image. */
  name: string;
  bytes: number;
}

/** Reads one image; a wrong extension or an unreadable file is a usage error naming the file. */
export async function readImage(source: ImageSource): Promise<ReadImage> {
  if (!("path" in source)) {
    return {
      part: { type: "image", mediaType: source.mediaType, data: Buffer.from(source.data).toString("base64") },
      name: source.name,
      bytes: source.data.byteLength,
    };
  }
  const mediaType = imageMediaType(source.path);
  if (!mediaType) {
    throw new NyzhiError(
      "usage",
      `Unsupported image format: ${extname(source.path) || source.path} (use png, jpg, jpeg, gif or webp)`,
    );
  }
  let bytes: Buffer;
  try {
    bytes = await readFile(source.path);
  } catch (error) {
    throw new NyzhiError("usage", `Cannot read the image ${source.path} (${errorMessage(error)})`);
  }
  return {
    part: { type: "image", mediaType, data: bytes.toString("base64") },
    name: basename(source.path),
    bytes: bytes.byteLength,
  };
}
