import type { ImagePart } from "@nyzhi/provider";

/** One content block of an MCP tool result or prompt message (the shapes nyzhi understands). */
export type McpContent =
  | { type: "text"; text: string }
  | { type: "image"; data: string; mimeType: string }
  | { type: "audio"; data: string; mimeType: string }
  | {
      type: "resource_link";
      uri: string;
      name?: string;
      title?: string;
      mimeType?: string;
      description?: string;
    }
  | { type: "resource"; resource: { uri: string; mimeType?: string; text?: string; blob?: string } }
  | { type: string; [key: string]: unknown };

/** The part of a `tools/call` result nyzhi maps. */
export interface McpCallResult {
  content?: McpContent[];
  structuredContent?: unknown;
  isError?: boolean;
  /** Old servers answer `{ toolResult }` instead of content. */
  toolResult?: unknown;
}

export interface MappedMcpResult {
  /** What the model reads: text blocks joined by blank lines, other blocks described in brackets. */
  output: string;
  isError: boolean;
  /** Images the server returned, for providers that accept images in tool results. */
  images: ImagePart[];
}

/**
 * Maps an MCP `tools/call` result to a tool result: text as text, images as attachments (with a
 * bracketed line so a model that cannot see them knows they exist), resource links and embedded
 * resources as bracketed references (embedded text inline), `isError` kept. A result with no
 * content falls back to `structuredContent` as JSON.
 */
export function mapMcpResult(result: McpCallResult): MappedMcpResult {
  const images: ImagePart[] = [];
  const pieces: string[] = [];
  for (const block of result.content ?? []) {
    pieces.push(describeContent(block, images));
  }
  if (pieces.length === 0 && result.structuredContent !== undefined) {
    pieces.push(JSON.stringify(result.structuredContent, null, 2));
  }
  if (pieces.length === 0 && result.toolResult !== undefined) {
    pieces.push(
      typeof result.toolResult === "string" ? result.toolResult : JSON.stringify(result.toolResult),
    );
  }
  const isError = result.isError === true;
  let output = pieces.join("\n\n");
  if (output === "") output = isError ? "MCP tool returned an error with no content" : "(no content)";
  return { output, isError, images };
}

/** The text of one content block; images are collected into `images`. */
export function describeContent(block: McpContent, images: ImagePart[] = []): string {
  switch (block.type) {
    case "text":
      return String(block.text);
    case "image": {
      const image = block as { data: string; mimeType: string };
      images.push({ type: "image", mediaType: image.mimeType, data: image.data });
      return `[image: ${image.mimeType}, ${base64Bytes(image.data)} bytes]`;
    }
    case "audio": {
      const audio = block as { data: string; mimeType: string };
      return `[audio: ${audio.mimeType}, ${base64Bytes(audio.data)} bytes; not shown]`;
    }
    case "resource_link": {
      const link = block as { uri: string; name?: string; mimeType?: string; description?: string };
      const details = [link.mimeType, link.description].filter(Boolean).join("; ");
      return `[resource link: ${link.name ?? link.uri} <${link.uri}>${details ? ` (${details})` : ""}] — read it with read_mcp_resource`;
    }
    case "resource": {
      const { resource } = block as {
        resource: { uri: string; mimeType?: string; text?: string; blob?: string };
      };
      if (typeof resource.text === "string") return `[resource ${resource.uri}]\n${resource.text}`;
      return `[resource ${resource.uri}: ${resource.mimeType ?? "binary"}, ${base64Bytes(resource.blob ?? "")} bytes]`;
    }
    default:
      return `[${block.type} content not shown]`;
  }
}

function base64Bytes(data: string): number {
  const padding = data.endsWith("==") ? 2 : data.endsWith("=") ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}
