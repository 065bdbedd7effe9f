import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { problems } from '../http/problem';
import { WorkspaceEntity } from './workspace.entity';

@Injectable()
export class WorkspacesService {
  constructor(private readonly dataSource: DataSource) {}

  async create(name: string): Promise<WorkspaceEntity> {
    const repo = this.dataSource.getRepository(WorkspaceEntity);
    const workspace = repo.create({ id: randomUUID(), name, createdAt: new Date() });
    await repo.insert(workspace);
    return workspace;
  }

  list(): Promise<WorkspaceEntity[]> {
    return this.dataSource.getRepository(WorkspaceEntity).find({ order: { createdAt: 'ASC', id: 'ASC' } });
  }

  async get(workspaceId: string): Promise<WorkspaceEntity> {
    const found = await this.dataSource.getRepository(WorkspaceEntity).findOneBy({ id: workspaceId });
    if (!found) throw problems.notFound('The workspace');
    return found;
  }
}
