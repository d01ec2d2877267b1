/** A customer account. */
export interface User {
  id: string;
  name: string;
  email: string;
  createdAt?: Date;
}
