import { Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { SYSTEM_RESOLVER } from '@owd/address-guard';
import { parseEncryptionKey, SecretBox } from '@owd/secret-box';
import { ADDRESS_RESOLVER } from './address-resolver';
import { AttemptRecorder } from './attempt-recorder.service';
import { AttemptSender } from './attempt-sender.service';
import { CLOCK, systemClock } from './clock';
import { DeliveryIntake } from './delivery-intake.service';
import { DeliveryWorker } from './delivery-worker.service';
import { DELIVERY_SETTINGS, deliverySettingsFrom } from './delivery.settings';
import { WorkQueue } from './work-queue.repository';

/** Delivery of frozen payloads to receivers: intake (Kafka → tables), worker (tables → HTTP → outbox). */
@Module({
  providers: [
    { provide: DELIVERY_SETTINGS, inject: [ConfigService], useFactory: deliverySettingsFrom },
    { provide: CLOCK, useValue: systemClock },
    { provide: ADDRESS_RESOLVER, useValue: SYSTEM_RESOLVER },
    {
      provide: SecretBox,
      inject: [ConfigService],
      useFactory: (config: ConfigService) => new SecretBox(parseEncryptionKey(config.get<string>('SECRET_ENCRYPTION_KEY'))),
    },
    DeliveryIntake,
    WorkQueue,
    AttemptSender,
    AttemptRecorder,
    DeliveryWorker,
  ],
  exports: [DeliveryWorker],
})
export class DeliveryModule {}
