// What the Webhook Trigger's tests share: the key, a delivery posted as AWeber posts it, and receivers closed after
// each test.
import { randomUUID } from 'node:crypto';

import type { IDataObject } from 'n8n-workflow';
import { request } from 'undici';

import type { AweberTestbed } from '../harness/aweber';
import { startWebhookReceiver, type WebhookReceiver } from '../harness/webhook';
import { WEBHOOK_CONTENT_TYPE, signWebhook } from '../sandbox/webhooks';

// The key as AWeber hands it out: base64-looking text, used as-is (its UTF-8 bytes) for the HMAC.
export const KEY = 'c2FuZGJveC12ZXJpZmljYXRpb24ta2V5';
export const ALL_EVENTS = ['subscriber.added', 'subscriber.subscribed', 'subscriber.unsubscribed'];

export interface Sent {
	body: string;
	/** The Date header; now by default; null sends none. */
	date?: string | null;
	/** The AWeber-Signature header; signed with KEY by default; null sends none. */
	signature?: string | null;
	/** The AWeber-Delivery-ID header; a fresh UUID by default; null sends none. */
	id?: string | null;
	contentType?: string;
}

/** Posts a delivery as AWeber does: a fresh Date, a new id and a signature, unless told otherwise. */
export async function deliver(url: string, sent: Sent): Promise<{ status: number; answer: unknown }> {
	const date = sent.date === undefined ? new Date().toUTCString() : sent.date;
	const headers: Record<string, string> = { 'content-type': sent.contentType ?? WEBHOOK_CONTENT_TYPE };
	if (date !== null) headers.date = date;
	const id = sent.id === undefined ? randomUUID() : sent.id;
	if (id !== null) headers['aweber-delivery-id'] = id;
	const signature = sent.signature === undefined ? signWebhook(KEY, date ?? '', sent.body) : sent.signature;
	if (signature !== null) headers['aweber-signature'] = signature;
	const response = await request(url, { method: 'POST', headers, body: sent.body });
	const text = await response.body.text();
	return { status: response.statusCode, answer: text ? JSON.parse(text) : undefined };
}

/** Starts Webhook Triggers on the testbed's credential (or another), each closed after the test. */
export function useWebhookReceivers(bed: AweberTestbed): (parameters: IDataObject, credentialId?: string) => Promise<WebhookReceiver> {
	const receivers: WebhookReceiver[] = [];
	afterEach(async () => {
		await Promise.all(receivers.splice(0).map(async (receiver) => await receiver.close()));
	});
	return async (parameters, credentialId = bed.credentialId) => {
		const started = await startWebhookReceiver(bed.harness, { type: 'aWeberSubscriberTrigger', credentialId, parameters });
		receivers.push(started);
		return started;
	};
}
