import { NyzhiError } from "@nyzhi/config";

/** A refused lifecycle request; the message is what the model sees. */
export class SubagentError extends NyzhiError {}
