export const authName = "auth";
