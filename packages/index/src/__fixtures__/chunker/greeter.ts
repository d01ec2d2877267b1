import { format } from "node:util";

/** Greets people by name. */
export class Greeter {
  private readonly greeting: string;

  constructor(greeting: string) {
    this.greeting = greeting;
  }

  /** Says hello to one person. */
  greet(name: string): string {
    return format("%s, %s!", this.greeting, name);
  }
}

export interface GreeterOptions {
  loud: boolean;
}

export type Name = string;

export const shout = (text: string): string => text.toUpperCase();

console.log(new Greeter("Hello").greet("world"));
