export function database(): string {
  return 'database';
}
