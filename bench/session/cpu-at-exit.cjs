// Preloaded into each `nyz` run of exec-ab.mjs (`node --require`): at exit, writes the process's
// CPU time (user and system, µs, all its threads) to the file BENCH_CPU_FILE names. CPU time
// moves less than wall time on a loaded machine.
process.on("exit", () => {
  const usage = process.resourceUsage();
  require("node:fs").writeFileSync(
    process.env.BENCH_CPU_FILE,
    JSON.stringify({ user: usage.userCPUTime, system: usage.systemCPUTime }),
  );
});
