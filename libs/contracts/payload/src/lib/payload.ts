export function payload(): string {
  return 'payload';
}
