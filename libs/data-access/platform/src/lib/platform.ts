export function platform(): string {
  return 'platform';
}
