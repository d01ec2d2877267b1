export const assemble = "runtime";
