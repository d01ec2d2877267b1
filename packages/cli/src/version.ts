declare const __NYZHI_VERSION__: string | undefined;

/** The CLI's version, inlined at build time (tests running from source see "0.0.0-dev"). */
export const NYZHI_VERSION: string = typeof __NYZHI_VERSION__ === "string" ? __NYZHI_VERSION__ : "0.0.0-dev";
