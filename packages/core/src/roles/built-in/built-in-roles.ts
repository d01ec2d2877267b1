import type { RoleDefinition } from "../role-definition.js";
import { architectRole } from "./architect-role.js";
import { architectureExpertRole } from "./architecture-expert-role.js";
import { buildFixerRole } from "./build-fixer-role.js";
import { codeAnalyzerRole } from "./code-analyzer-role.js";
import { codeSimplifierRole } from "./code-simplifier-role.js";
import { debuggerRole } from "./debugger-role.js";
import { deepExecutorRole } from "./deep-executor-role.js";
import { defaultRole } from "./default-role.js";
import { docWriterRole } from "./doc-writer-role.js";
import { documentSpecialistRole } from "./document-specialist-role.js";
import { explorerRole } from "./explorer-role.js";
import { fileOrganizerRole } from "./file-organizer-role.js";
import { generalPurposeRole } from "./general-purpose-role.js";
import { plannerRole } from "./planner-role.js";
import { qualityReviewerRole } from "./quality-reviewer-role.js";
import { reviewerRole } from "./reviewer-role.js";
import { securityReviewerRole } from "./security-reviewer-role.js";
import { testEngineerRole } from "./test-engineer-role.js";
import { testerRole } from "./tester-role.js";
import { workerRole } from "./worker-role.js";

/**
 * The 20 roles nyzhi ships, in the order `nyz agents` lists them: nyzhi's own 14, then the
 * specialists of seed 003 that have no nyzhi equivalent (its `debugger`, `architect` and
 * `reviewer` are ours). The specialists carry no tool list: the tool-role mapping picks theirs.
 */
export const BUILT_IN_ROLES: readonly RoleDefinition[] = [
  defaultRole,
  explorerRole,
  workerRole,
  reviewerRole,
  plannerRole,
  architectRole,
  debuggerRole,
  securityReviewerRole,
  qualityReviewerRole,
  testEngineerRole,
  buildFixerRole,
  deepExecutorRole,
  documentSpecialistRole,
  codeSimplifierRole,
  codeAnalyzerRole,
  docWriterRole,
  fileOrganizerRole,
  testerRole,
  architectureExpertRole,
  generalPurposeRole,
];
