import type { DomainEvent, EventData, EventType } from '../../events/catalogue';
import type { CallerOf, OperationContext } from '../define';

type PersonContext = OperationContext<CallerOf<{ kind: 'person' }>>;

/** An event of the caller's own account: ordered in their stream, caused by them, about them. */
export function emitForAccount<T extends EventType>(ctx: PersonContext, type: T, data: EventData<T>): void {
  const userId = ctx.caller.user.id;
  const event: DomainEvent<T> = {
    type,
    stream: `user:${userId}`,
    actor: { kind: 'person', userId },
    targetUserId: userId,
    data,
  };
  ctx.emit(event);
}
