import { applyPatchTool } from "../files/apply-patch/apply-patch-tool.js";
import { copyFileTool } from "../files/copy-file-tool.js";
import { createDirTool } from "../files/create-dir-tool.js";
import { deleteFileTool } from "../files/delete-file-tool.js";
import { directoryTreeTool } from "../files/directory-tree-tool.js";
import { editTool } from "../files/edit-tool.js";
import { fileInfoTool } from "../files/file-info-tool.js";
import { listDirTool } from "../files/list-dir-tool.js";
import { moveFileTool } from "../files/move-file-tool.js";
import { multiEditTool } from "../files/multi-edit-tool.js";
import { readTool } from "../files/read/read-tool.js";
import { tailFileTool } from "../files/tail-file-tool.js";
import { writeTool } from "../files/write-tool.js";
import { notepadReadTool } from "../planning/notepad-read-tool.js";
import { notepadWriteTool } from "../planning/notepad-write-tool.js";
import { thinkTool } from "../planning/think-tool.js";
import { todoreadTool } from "../planning/todoread-tool.js";
import { todowriteTool } from "../planning/todowrite-tool.js";
import type { Tool } from "../seam/define-tool.js";
import { fuzzyFindTool } from "../search/fuzzy-find-tool.js";
import { globTool } from "../search/glob-tool.js";
import { createGrepTool, type GrepBackend } from "../search/grep-tool.js";

export interface FileSearchAndPlanningToolsOptions {
  /** Force grep's back end (tests); default: ripgrep when installed. */
  grepBackend?: GrepBackend;
}

/**
 * The file, search and planning tools (read, write, edit, multi_edit, apply_patch, glob, grep,
 * list_dir, directory_tree, file_info, delete_file, move_file, copy_file, create_dir, tail_file,
 * fuzzy_find, todowrite, todoread, think, notepad_read, notepad_write). They keep no state: the
 * todo list comes from `services.todos`, files through `context.paths`.
 */
export function fileSearchAndPlanningTools(options: FileSearchAndPlanningToolsOptions = {}): Tool[] {
  return [
    readTool,
    writeTool,
    editTool,
    multiEditTool,
    applyPatchTool,
    globTool,
    options.grepBackend ? createGrepTool({ backend: options.grepBackend }) : createGrepTool(),
    listDirTool,
    directoryTreeTool,
    fileInfoTool,
    deleteFileTool,
    moveFileTool,
    copyFileTool,
    createDirTool,
    tailFileTool,
    fuzzyFindTool,
    todowriteTool,
    todoreadTool,
    thinkTool,
    notepadReadTool,
    notepadWriteTool,
  ];
}
