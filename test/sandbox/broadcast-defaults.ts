// The fields a sandbox broadcast has unless something sets them: made through the API, archived, click tracking and
// the send notice on, no other lists, no segment, no social post, not scheduled or sent. A new draft
// (routes/broadcasts.ts) and the seeded broadcasts (seed.ts) start from them.
import type { BroadcastRecord } from './state';

export type BroadcastDefaults = Pick<
	BroadcastRecord,
	| 'createdByApi'
	| 'bodyAmp'
	| 'clickTrackingEnabled'
	| 'isArchived'
	| 'notifyOnSend'
	| 'includeListIds'
	| 'excludeListIds'
	| 'facebookIntegrationId'
	| 'twitterIntegrationId'
	| 'segmentId'
	| 'scheduledFor'
	| 'sentAt'
>;

/** A fresh object each call: the list arrays are the broadcast's own. */
export function broadcastDefaults(): BroadcastDefaults {
	return {
		createdByApi: true,
		bodyAmp: null,
		clickTrackingEnabled: true,
		isArchived: true,
		notifyOnSend: true,
		includeListIds: [],
		excludeListIds: [],
		facebookIntegrationId: null,
		twitterIntegrationId: null,
		segmentId: null,
		scheduledFor: null,
		sentAt: null,
	};
}
