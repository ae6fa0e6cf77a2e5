// The broadcast state machine, in one place (docs/aweber-behaviour.md#broadcast-states):
//   draft --schedule--> scheduled --(scheduled_for passes)--> sending --(SENDING_DURATION)--> sent
//   scheduled --cancel--> draft; cancel of a draft is a no-op; sending / sent can no longer be cancelled.
// Only API-created drafts may be updated or deleted. Time is the sandbox clock, read lazily on every request.
import { badRequest, conflict } from './errors';
import type { BroadcastRecord, SandboxState, SubscriberRecord } from './state';

/** How long (sandbox time) a broadcast stays in `sending` before it is `sent`. */
export const SENDING_DURATION_MS = 60_000;

/** AWeber's own sample schedules at "now"; a time this little in the past still counts as now. */
export const SCHEDULE_GRACE_MS = 60_000;

export function schedule(broadcast: BroadcastRecord, scheduledFor: number, now: number): void {
	if (broadcast.status !== 'draft') {
		throw conflict('This broadcast cannot be scheduled. It may have been queued, sent or the account is locked.');
	}
	if (scheduledFor < now - SCHEDULE_GRACE_MS) {
		throw badRequest('The scheduled time has already passed.', 'BroadcastDatetimeExpired');
	}
	broadcast.status = 'scheduled';
	broadcast.scheduledFor = scheduledFor;
}

/** A scheduled broadcast returns to draft; cancelling a draft changes nothing (AWeber changelog 1.0.36). */
export function cancel(broadcast: BroadcastRecord): void {
	if (broadcast.status === 'draft') return;
	if (broadcast.status !== 'scheduled') {
		throw conflict('This broadcast cannot be canceled. It may have already started sending.');
	}
	broadcast.status = 'draft';
	broadcast.scheduledFor = null;
}

export function assertEditable(broadcast: BroadcastRecord, action: 'updated' | 'deleted'): void {
	if (broadcast.status === 'draft' && broadcast.createdByApi) return;
	throw conflict(`This broadcast cannot be ${action}. Only drafts created through the API can be ${action}.`);
}

/** Moves scheduled broadcasts whose time has come to sending, and sending ones to sent. */
export function advanceBroadcasts(state: SandboxState, now: number): void {
	for (const broadcast of state.broadcasts.values()) {
		if (broadcast.status === 'scheduled' && broadcast.scheduledFor !== null && broadcast.scheduledFor <= now) {
			startSending(state, broadcast);
		}
		if (broadcast.status === 'sending' && broadcast.sentAt !== null && broadcast.sentAt + SENDING_DURATION_MS <= now) {
			broadcast.status = 'sent';
		}
	}
}

/** Subscribed addresses of the broadcast's list and its include_lists, minus those on exclude_lists. */
export function recipientsOf(state: SandboxState, broadcast: BroadcastRecord): SubscriberRecord[] {
	const excluded = new Set<string>();
	for (const listId of broadcast.excludeListIds) {
		for (const subscriber of state.subscribersOf(listId)) excluded.add(subscriber.email.toLowerCase());
	}
	const seen = new Set<string>();
	const recipients: SubscriberRecord[] = [];
	for (const listId of [broadcast.listId, ...broadcast.includeListIds]) {
		if (!state.lists.has(listId)) continue;
		for (const subscriber of state.subscribersOf(listId)) {
			const email = subscriber.email.toLowerCase();
			if (subscriber.status !== 'subscribed' || excluded.has(email) || seen.has(email)) continue;
			seen.add(email);
			recipients.push(subscriber);
		}
	}
	return recipients;
}

function startSending(state: SandboxState, broadcast: BroadcastRecord): void {
	const sentAt = broadcast.scheduledFor as number;
	broadcast.status = 'sending';
	broadcast.sentAt = sentAt;
	for (const recipient of recipientsOf(state, broadcast)) {
		const id = state.nextId('message');
		state.messages.set(id, {
			id,
			campaignType: 'b',
			campaignId: broadcast.id,
			// Messages live under the campaign, on the broadcast's list, whatever list the recipient is on.
			listId: broadcast.listId,
			subscriberId: recipient.id,
			eventTime: sentAt,
		});
	}
}

/**
 * A recipient opening or clicking a broadcast at `now` (a test's control plane: AWeber records these when the email
 * is read). Only a recipient of the broadcast (one with its message) can; an open after the first is recorded too,
 * and the opens collection still lists the first one only.
 */
export function recordEngagement(
	state: SandboxState,
	activity: { kind: 'open' | 'click'; broadcastId: number; subscriberId: number; url?: string },
	now: number,
): void {
	const broadcast = state.broadcasts.get(activity.broadcastId);
	if (broadcast === undefined || (broadcast.status !== 'sending' && broadcast.status !== 'sent')) {
		throw new Error(`broadcast ${activity.broadcastId} has not been sent`);
	}
	const message = [...state.messages.values()].find(
		(candidate) => candidate.campaignType === 'b' && candidate.campaignId === broadcast.id && candidate.subscriberId === activity.subscriberId,
	);
	if (message === undefined) throw new Error(`subscriber ${activity.subscriberId} did not receive broadcast ${activity.broadcastId}`);
	const base = { messageId: message.id, subscriberId: activity.subscriberId, eventTime: now };
	if (activity.kind === 'open') state.opens.push({ id: state.nextId('open'), ...base });
	else state.clicks.push({ id: state.nextId('click'), ...base, url: activity.url ?? 'https://example.com/' });
}
