/** Names for subagents, so people can tell them apart in logs and the TUI. Ours, not the original's. */
const NICKNAMES = [
  "Agate",
  "Basalt",
  "Beryl",
  "Cinnabar",
  "Cobalt",
  "Copper",
  "Coral",
  "Dolomite",
  "Feldspar",
  "Flint",
  "Galena",
  "Garnet",
  "Gneiss",
  "Granite",
  "Graphite",
  "Gypsum",
  "Hematite",
  "Jade",
  "Jasper",
  "Jet",
  "Kyanite",
  "Lapis",
  "Magnetite",
  "Malachite",
  "Marble",
  "Mica",
  "Nickel",
  "Obsidian",
  "Onyx",
  "Opal",
  "Peridot",
  "Pumice",
  "Pyrite",
  "Quartz",
  "Rhodonite",
  "Ruby",
  "Rutile",
  "Sandstone",
  "Schist",
  "Shale",
  "Slate",
  "Sodalite",
  "Spinel",
  "Talc",
  "Tin",
  "Topaz",
  "Tourmaline",
  "Turquoise",
  "Zinc",
  "Zircon",
];

/** Hands out nicknames not used by a live agent; when all are taken, adds a number. */
export class NicknamePool {
  private readonly inUse = new Set<string>();
  private counter = 0;

  constructor(private readonly random: () => number = Math.random) {}

  take(): string {
    const free = NICKNAMES.filter((name) => !this.inUse.has(name));
    let name: string;
    if (free.length > 0) {
      name = free[Math.floor(this.random() * free.length)]!;
    } else {
      this.counter += 1;
      name = `${NICKNAMES[this.counter % NICKNAMES.length]}-${Math.floor(this.counter / NICKNAMES.length) + 2}`;
    }
    this.inUse.add(name);
    return name;
  }

  /** Marks a name as in use (an agent restored from a saved session keeps its nickname). */
  reserve(name: string): void {
    this.inUse.add(name);
  }

  release(name: string): void {
    this.inUse.delete(name);
  }
}
