import { describe, expect, it } from "vitest";
import { imageMediaType, readImage } from "./image-attachments.js";

describe("readImage", () => {
  it("reports an unreadable image or an unknown format as a usage error naming the file", async () => {
    await expect(readImage({ path: "/no/such/shot.png" })).rejects.toMatchObject({
      code: "usage",
      message: expect.stringContaining("/no/such/shot.png"),
    });
    await expect(readImage({ path: "notes.txt" })).rejects.toMatchObject({
      code: "usage",
      message: "Unsupported image format: .txt (use png, jpg, jpeg, gif or webp)",
    });
  });

  it("knows the media types by extension, in any case", () => {
    expect(imageMediaType("a/b/Shot.PNG")).toBe("image/png");
    expect(imageMediaType("photo.jpeg")).toBe("image/jpeg");
    expect(imageMediaType("notes.txt")).toBeUndefined();
  });
});
