import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

/** The code-index tests' small project: three TypeScript files, one function each. */
export const CODE_INDEX_FIXTURE: Readonly<Record<string, string>> = {
  "src/billing/invoice.ts":
    "/** Adds up the lines of an invoice, with tax. */\nexport function computeInvoiceTotal(lines: number[], taxRate: number): number {\n  const net = lines.reduce((sum, line) => sum + line, 0);\n  return net * (1 + taxRate);\n}\n",
  "src/util/strings.ts":
    "export function padLeft(text: string, width: number): string {\n  return text.padStart(width);\n}\n",
  "src/util/dates.ts":
    "export function startOfWeek(day: Date): Date {\n  return new Date(day.getTime() - day.getDay() * 86_400_000);\n}\n",
};

/** Writes `files` (relative path → text) under `root`, creating folders. */
export function writeFiles(root: string, files: Readonly<Record<string, string>>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
}

/** A mock model's `edit` call renaming the fixture's invoice function. */
export const RENAME_INVOICE_TOTAL = {
  name: "edit",
  arguments: {
    file_path: "src/billing/invoice.ts",
    old_string: "computeInvoiceTotal",
    new_string: "computeInvoiceGrandTotal",
  },
} as const;
