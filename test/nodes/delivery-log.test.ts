// The Webhook Trigger's log of accepted deliveries in the workflow's static data: how it recognises a copy and what
// it forgets (docs/triggers.md). The bounds under bursts are in trigger-bursts.test.ts.
import type { IDataObject } from 'n8n-workflow';

import { MAX_REMEMBERED_DELIVERIES, MIN_RETENTION_MS, rememberDelivery } from '../../nodes/AWeberSubscriberTrigger/deliveryLog';

describe('AWeber Webhook Trigger delivery log (workflow static data)', () => {
	const NOW = Date.parse('2026-01-01T00:00:00Z');
	const digest = (index: number) => index.toString(16).padStart(64, '0');
	const entry = (index: number, until = NOW + MIN_RETENTION_MS) => ({ id: `delivery-${index}`, digest: digest(index), until });

	it('remembers every delivery up to MAX_REMEMBERED_DELIVERIES, forgetting the oldest beyond', () => {
		const staticData: IDataObject = {};
		const trigger = `workflow-${Math.random()}/node`;
		for (let index = 0; index <= MAX_REMEMBERED_DELIVERIES; index++) rememberDelivery(staticData, entry(index), { now: NOW, trigger });
		expect(staticData.deliveryLog).toHaveLength(MAX_REMEMBERED_DELIVERIES);
		expect(rememberDelivery(staticData, entry(MAX_REMEMBERED_DELIVERIES), { now: NOW, trigger })).toBe(false);
		expect(rememberDelivery(staticData, entry(0), { now: NOW, trigger })).toBe(true);
	});

	it('forgets a delivery once its time is up, and keeps it until then', () => {
		const staticData: IDataObject = {};
		expect(rememberDelivery(staticData, entry(1, NOW + 60_000), { now: NOW })).toBe(true);
		expect(rememberDelivery(staticData, entry(1, NOW + 120_000), { now: NOW + 60_000 })).toBe(false);
		expect(rememberDelivery(staticData, entry(2), { now: NOW + 60_001 })).toBe(true);
		expect(staticData.deliveryLog).toHaveLength(1);
		expect(rememberDelivery(staticData, entry(1, NOW + 120_000), { now: NOW + 60_001 })).toBe(true);
	});

	it('recognises a delivery by its id or by its signed content, whichever matches', () => {
		const staticData: IDataObject = {};
		expect(rememberDelivery(staticData, { id: 'a', digest: digest(1), until: NOW + 1000 }, { now: NOW })).toBe(true);
		expect(rememberDelivery(staticData, { id: 'a', digest: digest(2), until: NOW + 1000 }, { now: NOW })).toBe(false);
		expect(rememberDelivery(staticData, { id: 'b', digest: digest(1), until: NOW + 1000 }, { now: NOW })).toBe(false);
		expect(rememberDelivery(staticData, { digest: digest(2), until: NOW + 1000 }, { now: NOW })).toBe(false);
		// A replay under a new id adds nothing, so replays cannot push genuine deliveries out of the log.
		expect(staticData.deliveryLog).toHaveLength(2);
	});

	it('carries over the delivery ids saved by earlier versions', () => {
		const staticData: IDataObject = { seenDeliveryIds: ['old-id'] };
		expect(rememberDelivery(staticData, { id: 'old-id', digest: digest(1), until: NOW + 1000 }, { now: NOW })).toBe(false);
		expect(staticData.seenDeliveryIds).toBeUndefined();
		expect(staticData.deliveryLog).toHaveLength(2);
		expect(rememberDelivery(staticData, { id: 'old-id', digest: digest(3), until: NOW + 1000 }, { now: NOW })).toBe(false);
	});
});
