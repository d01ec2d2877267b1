import type { User } from "../models/user.js";
import type { UserService } from "../services/user-service.js";

export class UserRepository {
  private readonly rows: User[] = [];

  constructor(private readonly service: UserService) {}

  async all(): Promise<User[]> {
    return [...this.rows];
  }

  async byId(id: string): Promise<User | undefined> {
    return this.rows.find((row) => row.id === id);
  }

  async insert(input: Omit<User, "id">): Promise<User> {
    const user = { ...input, id: String(this.rows.length + 1), email: this.service.normalizeEmail(input.email) };
    this.rows.push(user);
    return user;
  }
}
