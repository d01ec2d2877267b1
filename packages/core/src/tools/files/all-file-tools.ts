import type { Tool } from "../define-tool.js";
import { fuzzyFindTool } from "../search/fuzzy-find-tool.js";
import { globTool } from "../search/glob-tool.js";
import { createGrepTool, type GrepBackend } from "../search/grep/grep-tool.js";
import { notepadReadTool } from "../session/notepad-read-tool.js";
import { notepadWriteTool } from "../session/notepad-write-tool.js";
import { thinkTool } from "../session/think-tool.js";
import { todoreadTool } from "../session/todoread-tool.js";
import { todowriteTool } from "../session/todowrite-tool.js";
import { applyPatchTool } from "./apply-patch/apply-patch-tool.js";
import { copyFileTool } from "./copy-file-tool.js";
import { createDirTool } from "./create-dir-tool.js";
import { deleteFileTool } from "./delete-file-tool.js";
import { directoryTreeTool } from "./directory-tree-tool.js";
import { editTool } from "./edit-tool.js";
import { fileInfoTool } from "./file-info-tool.js";
import { listDirTool } from "./list-dir-tool.js";
import { moveFileTool } from "./move-file-tool.js";
import { multiEditTool } from "./multi-edit-tool.js";
import { readTool } from "./read/read-tool.js";
import { tailFileTool } from "./tail-file-tool.js";
import { writeTool } from "./write-tool.js";

export interface AllFileToolsOptions {
  /** Force grep's back end (tests); default: ripgrep when installed. */
  grepBackend?: GrepBackend;
}

/**
 * The file, search and session tools (read, write, edit, multi_edit, apply_patch, glob, grep,
 * list_dir, directory_tree, file_info, delete_file, move_file, copy_file, create_dir, tail_file,
 * fuzzy_find, todowrite, todoread, think, notepad_read, notepad_write). They keep no state: the
 * todo list comes from `services.todos`, files through `context.paths`.
 */
export function allFileTools(options: AllFileToolsOptions = {}): Tool[] {
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
