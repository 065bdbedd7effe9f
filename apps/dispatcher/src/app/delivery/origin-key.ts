import type { DeliveryMode } from '@owd/events';

/** Every test-mode goal sends to the one development sink, so they share one limit. */
export const DEV_SINK_ORIGIN_KEY = 'dev-sink';

/** The key the per-origin concurrency limit counts by: where this goal's attempts go now. */
export function originKey(deliveryMode: DeliveryMode, recipientUrl: string | null): string {
  if (deliveryMode === 'test') return DEV_SINK_ORIGIN_KEY;
  if (!recipientUrl) return '';
  try {
    return new URL(recipientUrl).origin;
  } catch {
    return '';
  }
}
