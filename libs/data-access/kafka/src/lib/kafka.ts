export function kafka(): string {
  return 'kafka';
}
