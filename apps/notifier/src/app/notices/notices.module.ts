import { Module } from '@nestjs/common';
import { Clock, SystemClock } from '../clock/clock';
import { ProjectionModule } from '../projection/projection.module';
import { MailSender } from './mail.sender';
import { NoticeRepository } from './notice.repository';
import { NoticeScheduler } from './notice.scheduler';
import { NoticesService } from './notices.service';

/** The weekly contract notice: schedule, check, exactly-once claim, SMTP send. */
@Module({
  imports: [ProjectionModule],
  providers: [{ provide: Clock, useClass: SystemClock }, MailSender, NoticeRepository, NoticesService, NoticeScheduler],
  exports: [NoticesService],
})
export class NoticesModule {}
