import type { User } from "../models/user.js";
import { UserRepository } from "../repositories/user-repository.js";

export class UserService {
  private readonly repository = new UserRepository(this);

  list(): Promise<User[]> {
    return this.repository.all();
  }

  find(id: string): Promise<User | undefined> {
    return this.repository.byId(id);
  }

  create(input: Omit<User, "id">): Promise<User> {
    return this.repository.insert(input);
  }

  normalizeEmail(email: string): string {
    return email.trim().toLowerCase();
  }
}
