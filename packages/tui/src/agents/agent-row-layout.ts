import { displayWidth, padToWidth, truncateToWidth } from "../text/display-width.js";

/** The texts of one row, before they are fitted to the terminal's width. */
export interface AgentRowText {
  /** "1"–"9" for the first nine selectable rows, else "". */
  number: string;
  /** Cells of indentation before the name (2 per level). */
  indent: number;
  /** "Opal (explorer)". */
  name: string;
  status: string;
  /** The status in at most 8 cells ("approval" for "awaiting approval"). */
  statusShort: string;
  /** A teammate's unread inbox count ("✉ 2"), else "". */
  unread: string;
  activity: string;
  /** "m:ss". */
  elapsed: string;
  model: string;
  /** Its own tokens and cost. */
  tokens: string;
  cost: string;
  /** A parent's subtree total, "Σ 3.4k $0.034"; "" for a row without children. */
  subtree: string;
  /** Where own and subtree figures share one pair of columns: "Σ3.4k" and its cost on a parent, else its own. */
  sumTokens: string;
  sumCost: string;
}

/** Which columns a tree shows, and how wide each is (0: hidden). The same for every row. */
export interface ColumnPlan {
  /** The name column, indentation included. */
  name: number;
  status: number;
  shortStatus: boolean;
  unread: number;
  activity: number;
  elapsed: number;
  model: number;
  tokens: number;
  cost: number;
  /** Parents show their subtree total in the tokens and cost columns instead of their own. */
  merged: boolean;
  subtree: number;
}

/** Selection marker, number, space, status icon, space. */
export const ROW_PREFIX_CELLS = 5;
/** Columns are separated by this many spaces. */
const GAP = 2;
/** The name column never grows past this; below `NAME_MIN` the next column is given up first. */
const NAME_MAX = 30;
const NAME_MIN = 12;
/** Narrower than this, the activity column is dropped rather than cut to a stub. */
const ACTIVITY_MIN = 12;

type Columns = Omit<ColumnPlan, "name" | "activity">;

function widest(rows: readonly AgentRowText[], pick: (row: AgentRowText) => string): number {
  return rows.reduce((max, row) => Math.max(max, displayWidth(pick(row))), 0);
}

/** Cells the columns after the name take (each with its gap); the activity column not counted. */
function fixedCells(plan: Columns): number {
  const columns = [plan.status, plan.unread, plan.elapsed, plan.model, plan.tokens, plan.cost, plan.subtree];
  return columns.reduce((sum, cells) => sum + (cells > 0 ? cells + GAP : 0), 0);
}

/** Each way of saving room, applied one after another until the row fits. */
function degradations(rows: readonly AgentRowText[]): ((plan: Columns) => Columns)[] {
  const merge = (plan: Columns): Columns => ({
    ...plan,
    merged: true,
    subtree: 0,
    tokens: widest(rows, (row) => row.sumTokens),
    cost: widest(rows, (row) => row.sumCost),
  });
  return [
    merge,
    (plan) => ({ ...plan, status: widest(rows, (row) => row.statusShort), shortStatus: true }),
    (plan) => ({ ...plan, model: 0 }),
    // Below here the activity column is gone already.
    (plan) => ({ ...plan, cost: 0 }),
    (plan) => ({ ...plan, elapsed: 0 }),
    (plan) => ({ ...plan, tokens: 0 }),
  ];
}

/**
 * Fits the columns into `width` cells. Everything is shown when it fits. Otherwise the activity
 * column is cut first; when even a cut one does not fit, own and subtree figures share one pair
 * of columns, then the status words get short, then the model goes. Only then is the activity
 * dropped, followed by the cost, the elapsed time and the tokens; the name is cut last.
 */
export function planColumns(rows: readonly AgentRowText[], width: number): ColumnPlan {
  const full: Columns = {
    status: widest(rows, (row) => row.status),
    shortStatus: false,
    unread: widest(rows, (row) => row.unread),
    elapsed: widest(rows, (row) => row.elapsed),
    model: widest(rows, (row) => row.model),
    tokens: widest(rows, (row) => row.tokens),
    cost: widest(rows, (row) => row.cost),
    merged: false,
    subtree: widest(rows, (row) => row.subtree),
  };
  const room = width - ROW_PREFIX_CELLS;
  const naturalName = rows.reduce((max, row) => Math.max(max, row.indent + displayWidth(row.name)), 0);
  const nameWanted = Math.min(naturalName, NAME_MAX);
  const activity = widest(rows, (row) => row.activity);
  const candidates = [full];
  for (const degrade of degradations(rows)) candidates.push(degrade(candidates.at(-1)!));
  if (activity > 0) {
    for (const candidate of candidates.slice(0, 4)) {
      const left = room - nameWanted - fixedCells(candidate) - GAP;
      if (left >= ACTIVITY_MIN) return { ...candidate, name: nameWanted, activity: Math.min(left, activity) };
    }
  }
  const nameNeeded = Math.min(naturalName, NAME_MIN);
  for (const candidate of candidates) {
    const left = room - fixedCells(candidate);
    if (left >= nameNeeded) return { ...candidate, name: Math.min(nameWanted, left), activity: 0 };
  }
  const last = candidates.at(-1)!;
  return { ...last, name: Math.max(4, room - fixedCells(last)), activity: 0 };
}

/** What a piece of a row is, so the component can colour it. */
export type RowPart = "name" | "status" | "unread" | "activity" | "figure" | "subtree";

/** The row as text pieces after the prefix, padded and cut to the plan. */
export function layoutRow(row: AgentRowText, plan: ColumnPlan): { part: RowPart; text: string }[] {
  const cell = (text: string, cells: number, align: "left" | "right" = "left") =>
    padToWidth(truncateToWidth(text, cells), cells, align);
  const pieces: { part: RowPart; text: string }[] = [
    { part: "name", text: " ".repeat(row.indent) + cell(row.name, Math.max(1, plan.name - row.indent)) },
  ];
  const add = (part: RowPart, text: string, cells: number, align: "left" | "right" = "left") => {
    if (cells > 0) pieces.push({ part, text: " ".repeat(GAP) + cell(text, cells, align) });
  };
  add("status", plan.shortStatus ? row.statusShort : row.status, plan.status);
  add("unread", row.unread, plan.unread);
  add("activity", row.activity, plan.activity);
  add("figure", row.elapsed, plan.elapsed, "right");
  add("figure", row.model, plan.model);
  add(
    plan.merged && row.subtree ? "subtree" : "figure",
    plan.merged ? row.sumTokens : row.tokens,
    plan.tokens,
    "right",
  );
  add(
    plan.merged && row.subtree ? "subtree" : "figure",
    plan.merged ? row.sumCost : row.cost,
    plan.cost,
    "right",
  );
  add("subtree", row.subtree, plan.subtree);
  // Trailing padding would only push the terminal's cursor; the row ends at its last text.
  const last = pieces.at(-1)!;
  last.text = last.text.trimEnd();
  return pieces;
}
