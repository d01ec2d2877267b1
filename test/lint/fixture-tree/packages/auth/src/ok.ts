// Allowed: auth may import config.
import { configName } from "../../config/src/index.js";

export const ok = configName;
