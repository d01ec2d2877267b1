export const packageName = "@nyzhi/index";
