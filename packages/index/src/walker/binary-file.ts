import { closeSync, openSync, readSync } from "node:fs";

/** How many leading bytes are searched for a NUL byte. */
export const BINARY_SNIFF_BYTES = 8192;

/**
 * Extensions of formats that are binary whatever their first bytes say (a compressed stream need
 * not hold a NUL byte early). Checked before the file is opened, so these cost no read.
 */
const BINARY_EXTENSIONS = new Set(
  [
    "png jpg jpeg gif bmp ico icns webp avif tif tiff psd heic", // images
    "woff woff2 ttf otf eot", // fonts
    "zip gz tgz bz2 xz zst 7z rar tar jar war ear whl deb rpm", // archives and packages
    "exe dll so dylib a o obj lib class pyc pyo wasm node bin", // compiled code and libraries
    "mp3 mp4 m4a wav ogg flac avi mov mkv webm", // media
    "pdf doc docx xls xlsx ppt pptx sqlite sqlite3 db parquet onnx", // documents and data
  ].flatMap((group) => group.split(" ")),
);

/** Whether the path's extension names a binary format (case-insensitive). */
export function hasBinaryExtension(path: string): boolean {
  const slash = path.lastIndexOf("/");
  const dot = path.lastIndexOf(".");
  if (dot <= slash + 1) return false;
  return BINARY_EXTENSIONS.has(path.slice(dot + 1).toLowerCase());
}

/** Whether the file has a NUL byte in its first {@link BINARY_SNIFF_BYTES} bytes. */
export function startsWithBinaryBytes(absolutePath: string): boolean {
  const descriptor = openSync(absolutePath, "r");
  try {
    const bytesRead = readSync(descriptor, sniffBuffer, 0, BINARY_SNIFF_BYTES, 0);
    return sniffBuffer.subarray(0, bytesRead).includes(0);
  } finally {
    closeSync(descriptor);
  }
}

/** One buffer for every sniff: reads are synchronous, so no two overlap. */
const sniffBuffer = Buffer.alloc(BINARY_SNIFF_BYTES);
