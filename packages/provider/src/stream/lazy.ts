/** A value created on first use and shared afterwards (SDK clients, whose SDKs load lazily). */
export function lazy<T>(create: () => Promise<T>): () => Promise<T> {
  let value: Promise<T> | undefined;
  return () => {
    value ??= create();
    return value;
  };
}
