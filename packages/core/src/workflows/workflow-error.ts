import { NyzhiError } from "@nyzhi/config";

/** A command workflow that cannot run as asked (`/learn` with a bad name, `/resume-work` with no note …); the message says what to do. */
export class WorkflowError extends NyzhiError {}
