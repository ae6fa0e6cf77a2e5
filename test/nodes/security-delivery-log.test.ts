// What the Webhook Trigger reads back from the workflow's static data (nodes/AWeberSubscriberTrigger/deliveryLog.ts):
// entries written by earlier versions of the package still stop a retry or a replay, for a bounded time, and what no
// version wrote is dropped. Direct calls: a node cannot write earlier versions' forms into the static data.
import { createHash, randomUUID } from 'node:crypto';

import type { IDataObject } from 'n8n-workflow';

import { MAX_REMEMBERED_DELIVERIES, MIN_RETENTION_MS, rememberDelivery } from '../../nodes/AWeberSubscriberTrigger/deliveryLog';
import { signedContentDigest } from '../../nodes/AWeberSubscriberTrigger/signature';

const NOW = Date.parse('2026-03-01T00:00:00Z');
const digest = (seed: string) => createHash('sha256').update(seed).digest('hex');
/** A trigger of its own for each test: this process's log of one trigger is shared by its requests. */
const trigger = () => `workflow-${randomUUID()}/node`;

describe('The delivery log, as an earlier version stored it', () => {
	it('still refuses a retry (same id) and a replay (same signed content) of a delivery it stored as an object', () => {
		const stored = { id: 'earlier-1', digest: digest('earlier-1'), until: NOW + MIN_RETENTION_MS };
		const copy = (): IDataObject => ({ deliveryLog: [stored] });
		expect(rememberDelivery(copy(), { id: 'earlier-1', digest: digest('retry'), until: NOW + MIN_RETENTION_MS }, { now: NOW, trigger: trigger() })).toBe(false);
		expect(rememberDelivery(copy(), { id: 'other', digest: digest('earlier-1'), until: NOW + MIN_RETENTION_MS }, { now: NOW, trigger: trigger() })).toBe(false);
		expect(rememberDelivery(copy(), { id: 'new', digest: digest('new'), until: NOW + MIN_RETENTION_MS }, { now: NOW, trigger: trigger() })).toBe(true);
	});

	it('still refuses a replay, under another id, of a delivery it stored by the digest of its signed content', () => {
		const date = 'Sun, 01 Mar 2026 00:00:00 GMT';
		const body = '{"client_id":"abc","data":[]}';
		// What earlier versions stored: the SHA-256, in hex, of what the signature covers.
		const stored = { id: 'earlier-2', digest: digest(`date:${date}\n${body}`), until: NOW + MIN_RETENTION_MS };
		const replay = { id: 'replayed', digest: signedContentDigest(date, Buffer.from(body)), until: NOW + MIN_RETENTION_MS };
		expect(rememberDelivery({ deliveryLog: [stored] }, replay, { now: NOW, trigger: trigger() })).toBe(false);
	});

	it('still refuses a replay of a delivery that came without an id, stored as an object', () => {
		const stored = { digest: digest('earlier-no-id'), until: NOW + MIN_RETENTION_MS };
		const replay = { id: 'replay', digest: digest('earlier-no-id'), until: NOW + MIN_RETENTION_MS };
		expect(rememberDelivery({ deliveryLog: [stored] }, replay, { now: NOW, trigger: trigger() })).toBe(false);
	});

	it('keeps the id of an entry whose digest is not a SHA-256, and stores no digest for it', () => {
		const hex = digest('earlier-2');
		for (const notDigest of ['not-a-digest', `x${hex}`, `${hex}x`]) {
			const staticData: IDataObject = { deliveryLog: [{ id: 'earlier-2', digest: notDigest, until: NOW + MIN_RETENTION_MS }] };
			expect(rememberDelivery(staticData, { id: 'earlier-2', digest: digest('retry'), until: NOW + MIN_RETENTION_MS }, { now: NOW, trigger: trigger() })).toBe(false);
			expect(staticData.deliveryLog).toEqual([expect.stringMatching(/^[0-9a-z]+:[\w-]{11}:$/), expect.stringMatching(/^[0-9a-z]+:[\w-]{11}:[\w-]{11}$/)]);
		}
	});

	it('still refuses a retry when an entry of the same id past its time comes before the one in force', () => {
		const expired = { id: 'earlier-6', digest: 'not-a-digest', until: NOW - 1000 };
		const inForce = { id: 'earlier-6', digest: 'another-non-digest', until: NOW + MIN_RETENTION_MS };
		const retry = { id: 'earlier-6', digest: digest('retry-6'), until: NOW + MIN_RETENTION_MS };
		expect(rememberDelivery({ deliveryLog: [expired, inForce] }, retry, { now: NOW, trigger: trigger() })).toBe(false);
	});

	it('keeps an entry an earlier version stored for a year for a day from when it is read', () => {
		const staticData: IDataObject = { deliveryLog: [{ id: 'earlier-3', digest: digest('earlier-3'), until: NOW + 365 * 24 * 3_600_000 }] };
		const replay = (id: string) => ({ id, digest: digest('earlier-3'), until: NOW + 26 * 3_600_000 });
		expect(rememberDelivery(staticData, { id: 'next', digest: digest('next'), until: NOW + MIN_RETENTION_MS }, { now: NOW, trigger: trigger() })).toBe(true);
		// What n8n saved is read back by another process (or after a restart) a day later.
		const dayLater = NOW + 24 * 3_600_000;
		expect(rememberDelivery(structuredClone(staticData), replay('replay-a'), { now: dayLater - 1000, trigger: trigger() })).toBe(false);
		expect(rememberDelivery(structuredClone(staticData), replay('replay-b'), { now: dayLater + 1000, trigger: trigger() })).toBe(true);
	});

	it('drops what no version stored (not an entry, an id that is not text, a digest or a time missing), keeping the rest', () => {
		const valid = { id: 'earlier-4', digest: digest('earlier-4'), until: NOW + MIN_RETENTION_MS };
		const staticData: IDataObject = {
			deliveryLog: [null, 5, 'garbage', `${Math.ceil((NOW + MIN_RETENTION_MS) / 1000).toString(36)}::`, { digest: digest('x'), until: String(NOW + MIN_RETENTION_MS) }, { id: 'y', until: NOW + MIN_RETENTION_MS }, { id: 7, digest: digest('z'), until: NOW + MIN_RETENTION_MS }, valid],
		};
		expect(rememberDelivery(staticData, { id: 'new', digest: digest('new-4'), until: NOW + MIN_RETENTION_MS }, { now: NOW, trigger: trigger() })).toBe(true);
		expect(staticData.deliveryLog).toHaveLength(2);
		expect(rememberDelivery(staticData, { id: 'earlier-4', digest: digest('retry-4'), until: NOW + MIN_RETENTION_MS }, { now: NOW, trigger: trigger() })).toBe(false);
	});
});

describe("The delivery log of this process, per trigger", () => {
	const delivery = (seed: string, until: number) => ({ id: seed, digest: digest(seed), until });

	// First: a change that forgets this process's log makes the bound tests below slow, not wrong (a Stryker timeout); this
	// one fails it at once (test/mutation/equivalents.json, deliveryLog.ts).
	it("keeps what one trigger's requests accepted while another trigger receives deliveries, up to the last millisecond in force", () => {
		const first = trigger();
		const second = trigger();
		// Two requests to the first trigger overlap: the second one's copy of the static data does not hold the first's delivery.
		expect(rememberDelivery({}, delivery('overlap', NOW + 60_000), { now: NOW, trigger: first })).toBe(true);
		expect(rememberDelivery({}, delivery('other-workflow', NOW + 120_000), { now: NOW + 60_000, trigger: second })).toBe(true);
		expect(rememberDelivery({}, delivery('overlap', NOW + 120_000), { now: NOW + 60_000, trigger: first })).toBe(false);
	});

	it('carries over every delivery id an earlier version saved, skipping what is not an id', () => {
		const staticData: IDataObject = { seenDeliveryIds: ['old-1', 5, null, 'old-2'] };
		expect(rememberDelivery(staticData, delivery('new', NOW + MIN_RETENTION_MS), { now: NOW, trigger: trigger() })).toBe(true);
		for (const id of ['old-1', 'old-2']) {
			expect(rememberDelivery(structuredClone(staticData), { id, digest: digest(`retry-${id}`), until: NOW + MIN_RETENTION_MS }, { now: NOW, trigger: trigger() })).toBe(false);
		}
	});

	it('keeps a delivery to the end of the second its time ends in', () => {
		const staticData: IDataObject = {};
		expect(rememberDelivery(staticData, delivery('half', NOW + 60_500), { now: NOW })).toBe(true);
		const replay = { id: 'replay', digest: digest('half'), until: NOW + 120_000 };
		expect(rememberDelivery(structuredClone(staticData), replay, { now: NOW + 61_000 })).toBe(false);
		expect(rememberDelivery(structuredClone(staticData), replay, { now: NOW + 61_001 })).toBe(true);
	});

	it('knows a delivery that came without an id when another process reads it back', () => {
		const staticData: IDataObject = {};
		expect(rememberDelivery(staticData, { digest: digest('no-id'), until: NOW + MIN_RETENTION_MS }, { now: NOW, trigger: trigger() })).toBe(true);
		expect(rememberDelivery(structuredClone(staticData), { id: 'replay', digest: digest('no-id'), until: NOW + MIN_RETENTION_MS }, { now: NOW, trigger: trigger() })).toBe(false);
	});

	it('forgets each delivery at its own time, whatever order they came in', () => {
		const staticData: IDataObject = {};
		const ownTrigger = trigger();
		expect(rememberDelivery(staticData, delivery('late', NOW + 120_000), { now: NOW, trigger: ownTrigger })).toBe(true);
		expect(rememberDelivery(staticData, delivery('early', NOW + 60_000), { now: NOW, trigger: ownTrigger })).toBe(true);
		expect(rememberDelivery(staticData, { id: 'replay', digest: digest('early'), until: NOW + 180_000 }, { now: NOW + 61_000, trigger: ownTrigger })).toBe(true);
		expect(rememberDelivery(staticData, { id: 'replay-2', digest: digest('late'), until: NOW + 180_000 }, { now: NOW + 61_000, trigger: ownTrigger })).toBe(false);
	});

	it("knows a delivery's id while any copy of it is in force, and forgets it after the last", () => {
		const staticData: IDataObject = {};
		const ownTrigger = trigger();
		expect(rememberDelivery(staticData, { id: 'retried', digest: digest('first'), until: NOW + 60_000 }, { now: NOW, trigger: ownTrigger })).toBe(true);
		expect(rememberDelivery(staticData, { id: 'retried', digest: digest('retry'), until: NOW + 120_000 }, { now: NOW + 30_000, trigger: ownTrigger })).toBe(false);
		expect(rememberDelivery(staticData, { id: 'retried', digest: digest('third'), until: NOW + 180_000 }, { now: NOW + 90_000, trigger: ownTrigger })).toBe(false);
		expect(rememberDelivery(staticData, { id: 'retried', digest: digest('fourth'), until: NOW + 300_000 }, { now: NOW + 181_000, trigger: ownTrigger })).toBe(true);
	});

	it("says nothing was forgotten early when a full log's deliveries are past their time, and keeps the new one alone", () => {
		const staticData: IDataObject = {};
		const ownTrigger = trigger();
		for (let index = 0; index < MAX_REMEMBERED_DELIVERIES; index++) {
			rememberDelivery(staticData, { id: `full-${index}`, digest: digest(`full-${index}`), until: NOW + 60_000 }, { now: NOW, trigger: ownTrigger });
		}
		const forgotten: number[] = [];
		const onForgotten = (count: number) => forgotten.push(count);
		expect(rememberDelivery(staticData, delivery('after', NOW + 120_000), { now: NOW + 61_000, trigger: ownTrigger, onForgotten })).toBe(true);
		expect(forgotten).toEqual([]);
		expect(staticData.deliveryLog).toHaveLength(1);
		expect(rememberDelivery(staticData, delivery('over', NOW + 120_000), { now: NOW + 61_000, trigger: ownTrigger, onForgotten })).toBe(true);
		expect(forgotten).toEqual([]);
	});

	it('stays within its bound when deliveries past their time and a full log read back from another process meet', () => {
		const ownTrigger = trigger();
		const own: IDataObject = {};
		rememberDelivery(own, delivery('expiring', NOW + 10_000), { now: NOW, trigger: ownTrigger });
		rememberDelivery(own, delivery('in-force', NOW + MIN_RETENTION_MS), { now: NOW, trigger: ownTrigger });
		const otherProcess: IDataObject = {};
		const otherTrigger = trigger();
		for (let index = 0; index < MAX_REMEMBERED_DELIVERIES; index++) {
			rememberDelivery(otherProcess, { id: `other-${index}`, digest: digest(`other-${index}`), until: NOW + MIN_RETENTION_MS }, { now: NOW, trigger: otherTrigger });
		}
		const copy = structuredClone(otherProcess);
		expect(rememberDelivery(copy, delivery('next', NOW + MIN_RETENTION_MS), { now: NOW + 11_000, trigger: ownTrigger })).toBe(true);
		expect(copy.deliveryLog).toHaveLength(MAX_REMEMBERED_DELIVERIES);
	});

	it('keeps a delivery in force up to its last millisecond, and forgets it after', () => {
		const staticData: IDataObject = {};
		const ownTrigger = trigger();
		expect(rememberDelivery(staticData, delivery('edge', NOW + 60_000), { now: NOW, trigger: ownTrigger })).toBe(true);
		const replay = { id: 'replay', digest: digest('edge'), until: NOW + 120_000 };
		expect(rememberDelivery(staticData, replay, { now: NOW + 60_000, trigger: ownTrigger })).toBe(false);
		expect(rememberDelivery(staticData, replay, { now: NOW + 60_001, trigger: ownTrigger })).toBe(true);
	});
});
