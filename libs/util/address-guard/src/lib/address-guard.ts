export function addressGuard(): string {
  return 'address-guard';
}
