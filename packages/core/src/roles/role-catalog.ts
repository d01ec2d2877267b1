import type { ConfigOrigins, NyzhiConfig } from "@nyzhi/config";
import { compareText } from "@nyzhi/config";
import { agentsJsonLocations } from "./agents-json/agents-json-paths.js";
import { loadAgentsJson } from "./agents-json/load-agents-json.js";
import { BUILT_IN_ROLES } from "./built-in/built-in-roles.js";
import { loadConfigRoles } from "./load-config-roles.js";
import { loadFileRoles } from "./load-file-roles.js";
import type { RoleDefinition } from "./role-definition.js";
import type { RoleWarning } from "./role-errors.js";

/**
 * Role definitions by precedence, highest first: agent files → agents.json (project, then
 * global) → config → built-in. Agent files are the most specific (they live in the project and
 * are edited by hand); agents.json entries are user-defined agents (written by hand or by
 * `define_agent`), so they beat config roles, which beat built-ins. A winner replaces the
 * definitions below it as a whole, except that a config entry named like a built-in patches it
 * (see `loadConfigRoles`). Unknown names fall back at resolution time. `disabled` names roles a
 * config toggle (`[agent.agents.roles.<name>] enabled = false`) switches off whichever layer wins.
 */
export interface RoleLayers {
  files?: readonly RoleDefinition[];
  /** Both agents.json files, already merged (project over global). */
  agentsJson?: readonly RoleDefinition[];
  config?: readonly RoleDefinition[];
  builtIn?: readonly RoleDefinition[];
  disabled?: readonly string[];
}

export interface LoadRoleCatalogOptions {
  /** The merged config; its `agent.agents.roles` become config roles. */
  config?: NyzhiConfig;
  /** `loadConfig`'s origins, so `nyz agents` can say which file a config role came from. */
  origins?: ConfigOrigins | undefined;
  /** Project root; agent files are read from its `.nyzhi/agents` and `.claude/agents`, and `.nyzhi/agents.json`. */
  projectRoot?: string;
  /** The global config dir (`resolveDirs(env).config`); its `agents.json` is the global agents layer. */
  globalConfigDir?: string;
}

/**
 * Every role a spawn can name, merged by precedence (files → agents.json → config → built-in). Each winner
 * records the definitions it shadows in `overrides`. The catalog is what `spawn_agent` resolves
 * against at each spawn, so `reload()` (or `replace()`) makes new definitions count from the next
 * spawn on.
 */
export class RoleCatalog {
  private roles = new Map<string, RoleDefinition>();
  private loadWarnings: RoleWarning[] = [];
  #enabled: readonly RoleDefinition[] | undefined;
  private readonly options: LoadRoleCatalogOptions;

  constructor(layers: RoleLayers = {}, options: LoadRoleCatalogOptions = {}, warnings: RoleWarning[] = []) {
    this.options = options;
    this.replace(layers, warnings);
  }

  /** Loads config roles, agents.json and agent files and merges them over the built-ins. Never throws. */
  static async load(options: LoadRoleCatalogOptions = {}): Promise<RoleCatalog> {
    const catalog = new RoleCatalog({}, options);
    await catalog.reload();
    return catalog;
  }

  /** Re-reads config roles (from the options given at load), agents.json and agent files; returns the warnings. */
  async reload(): Promise<RoleWarning[]> {
    const { config, projectRoot, globalConfigDir } = this.options;
    const fromConfig = config
      ? loadConfigRoles(config, { origins: this.options.origins })
      : { roles: [], warnings: [] };
    const [fromFiles, fromAgentsJson] = await Promise.all([
      projectRoot ? loadFileRoles(projectRoot) : { roles: [], warnings: [] },
      loadAgentsJson(agentsJsonLocations({ projectRoot, globalConfigDir })),
    ]);
    const disabled = Object.entries(config?.agent.agents.roles ?? {})
      .filter(([, entry]) => entry.enabled === false)
      .map(([name]) => name);
    this.replace(
      { files: fromFiles.roles, agentsJson: fromAgentsJson.roles, config: fromConfig.roles, disabled },
      [...fromConfig.warnings, ...fromAgentsJson.warnings, ...fromFiles.warnings],
    );
    return this.warnings;
  }

  /** Where this catalog reads agents.json from (for `define_agent` and `list_agents`). */
  get locations(): { projectRoot?: string | undefined; globalConfigDir?: string | undefined } {
    return { projectRoot: this.options.projectRoot, globalConfigDir: this.options.globalConfigDir };
  }

  /** Swaps in new user-defined layers (built-ins default to the shipped ones). */
  replace(layers: RoleLayers, warnings: RoleWarning[] = []): void {
    this.roles = mergeRoleLayers([
      layers.files ?? [],
      layers.agentsJson ?? [],
      layers.config ?? [],
      layers.builtIn ?? BUILT_IN_ROLES,
    ]);
    for (const name of layers.disabled ?? []) {
      const role = this.roles.get(name);
      if (role?.enabled && role.source.kind !== "config")
        this.roles.set(name, { ...role, enabled: false, disabledBy: { kind: "config" } });
    }
    this.loadWarnings = [...warnings];
    this.#enabled = undefined;
  }

  /** Problems found by the last load; show them once, they do not stop anything. */
  get warnings(): RoleWarning[] {
    return [...this.loadWarnings];
  }

  /** The winning definition for `name`, enabled or not. */
  get(name: string): RoleDefinition | undefined {
    return this.roles.get(name);
  }

  /** Every role (disabled ones too), sorted by name: what `nyz agents` shows. */
  list(): RoleDefinition[] {
    return [...this.roles.values()].sort((left, right) => compareText(left.name, right.name));
  }

  /**
   * Roles a spawn may use, sorted by name: what `spawn_agent`'s description offers. The same array
   * is returned until the catalog changes, so a description built from it can be reused for every
   * model request (see `roleLines`).
   */
  enabled(): readonly RoleDefinition[] {
    this.#enabled ??= Object.freeze(this.list().filter((role) => role.enabled));
    return this.#enabled;
  }
}

/** Merges layers given highest precedence first; a winner lists the sources it shadows. */
export function mergeRoleLayers(layers: readonly (readonly RoleDefinition[])[]): Map<string, RoleDefinition> {
  const merged = new Map<string, RoleDefinition>();
  for (const layer of layers) {
    for (const role of layer) {
      const winner = merged.get(role.name);
      if (!winner) {
        merged.set(role.name, role);
        continue;
      }
      const shadowed = [role.source, ...(role.overrides ?? [])];
      merged.set(role.name, { ...winner, overrides: [...(winner.overrides ?? []), ...shadowed] });
    }
  }
  return merged;
}
