// An engine importing the runtime: core's floor plan must report it.
import { assemble } from "../../runtime/assemble.js";

export const reachesUp = assemble;
