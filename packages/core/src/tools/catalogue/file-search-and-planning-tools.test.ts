import { describe, expect, it } from "vitest";
import { fileSearchAndPlanningTools } from "./file-search-and-planning-tools.js";

describe("fileSearchAndPlanningTools", () => {
  it("offers every file, search and session tool once, each declaring kind and mutates", () => {
    const tools = fileSearchAndPlanningTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(
      [
        "apply_patch",
        "copy_file",
        "create_dir",
        "delete_file",
        "directory_tree",
        "edit",
        "file_info",
        "fuzzy_find",
        "glob",
        "grep",
        "list_dir",
        "move_file",
        "multi_edit",
        "notepad_read",
        "notepad_write",
        "read",
        "tail_file",
        "think",
        "todoread",
        "todowrite",
        "write",
      ].sort(),
    );
    const mutating = tools.filter((tool) => tool.mutates).map((tool) => tool.name);
    expect(mutating.sort()).toEqual(
      [
        "apply_patch",
        "copy_file",
        "create_dir",
        "delete_file",
        "edit",
        "move_file",
        "multi_edit",
        "notepad_write",
        "write",
      ].sort(),
    );
    for (const tool of tools) {
      expect(tool.inputJsonSchema.type).toBe("object");
      expect(Array.from(tool.description).length).toBeLessThan(700);
      if (tool.mutates) expect(tool.kind === "edit" || tool.kind === "memory").toBe(true);
    }
  });
});
