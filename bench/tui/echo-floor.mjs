// The harness floor for bench/tui: a trivial program that echoes each key at once, drawing the
// same prompt line the app draws ("› " and what was typed), so its latency measured the way the
// app's is says how much of the app's figure is the terminal and the harness, not nyz.
process.stdin.setRawMode(true);
process.stdout.write("READY\r\n");
let typed = "";
process.stdin.on("data", (data) => {
  for (const byte of data) {
    if (byte === 0x03) process.exit(0);
    if (byte === 0x15) typed = "";
    else if (byte >= 0x20) typed += String.fromCharCode(byte);
  }
  process.stdout.write(`\r\x1b[2K› ${typed}`);
});
