import type { User } from "./user.js";

export class Order {
  id!: string;
  customer!: User;
  total = 0;
  readonly lines: { sku: string; quantity: number }[] = [];

  constructor(id: string) {
    this.id = id;
  }

  addLine(sku: string, quantity: number): void {
    this.lines.push({ sku, quantity });
  }
}
