// Deliberate violation: config is the bottom layer and must not import auth.
import { authName } from "../../auth/src/index.js";

export const configName = `config-after-${authName}`;
