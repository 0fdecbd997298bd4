import type { DomainEvent, EventData, EventType } from '../../events/catalogue';
import type { CallerOf, OperationContext } from '../define';

type IdentityContext = OperationContext<CallerOf<{ kind: 'identity'; permission: null }>>;

/**
 * An event in the caller's organisation: ordered in the subject's stream, caused by the member
 * identity acting, and about `targetUserId` when it happened to one person.
 */
export function emitInSubject<T extends EventType>(
  ctx: IdentityContext,
  type: T,
  data: EventData<T>,
  targetUserId: string | null = null,
): void {
  const { user, subject, deputy } = ctx.caller;
  const event: DomainEvent<T> = {
    type,
    stream: `subject:${subject.id}`,
    actor: { kind: 'identity', userId: user.id, subjectId: subject.id, deputyId: deputy.id },
    subjectId: subject.id,
    targetUserId,
    data,
  };
  ctx.emit(event);
}
