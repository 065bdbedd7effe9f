export function events(): string {
  return 'events';
}
