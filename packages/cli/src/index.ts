export const packageName = "nyzhi";
