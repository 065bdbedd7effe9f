export function signer(): string {
  return 'signer';
}
