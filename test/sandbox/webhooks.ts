// Webhook deliveries as AWeber makes them (docs/aweber-behaviour.md#webhook-signing): signed, batched POSTs with retries, and a log.
import { createHmac, randomUUID } from 'node:crypto';

import { Agent, request } from 'undici';

import type { SandboxClock } from './clock';
import type { DeliveryLogEntry, WebhookEventName } from './types';

export const WEBHOOK_CONTENT_TYPE = 'application/vnd.aweber.webhook+json; version=1.0';

export const WEBHOOK_EVENTS: readonly WebhookEventName[] = [
	'subscriber.added',
	'subscriber.subscribed',
	'subscriber.unsubscribed',
];

/**
 * The AWeber-Signature header value: `sha256=` + hex HMAC-SHA256 over `"date:" + Date + "\n" + body` with trailing
 * whitespace stripped (Python's rstrip, as AWeber documents it).
 *
 * Key: AWeber calls the verification key "base64-encoded" but hands it out as a string to paste; the sandbox uses
 * that string's UTF-8 bytes as the HMAC key, never a base64 decoding of it, and the node verifies the same way
 * (see README-webhooks.md).
 */
export function signWebhook(verificationKey: string, date: string, body: string): string {
	const signed = `date:${date}\n${body}`.replace(/[ \t\n\r\v\f]+$/, '');
	const digest = createHmac('sha256', Buffer.from(verificationKey, 'utf8')).update(signed, 'utf8').digest('hex');
	return `sha256=${digest}`;
}

export interface WebhookDispatcherOptions {
	/** The OAuth client the webhooks belong to (body field client_id). */
	clientId: string;
	/** The customer account (body field account). */
	accountUuid: string;
	/** Events enqueued within this many real milliseconds of the first go out in one delivery. Default 50. */
	batchWindowMs?: number;
	/** Waits before each retry, in sandbox seconds (exponential). Default 30, 60, 120: three retries. */
	retryDelaysSeconds?: number[];
}

const DEFAULT_BATCH_WINDOW_MS = 50;
const DEFAULT_RETRY_DELAYS_SECONDS = [30, 60, 120];
/** AWeber documents no batch size; a cap keeps bodies of bulk imports reasonable. */
const MAX_EVENTS_PER_DELIVERY = 100;
/** Retry timers re-check the sandbox clock at least this often (real ms), so clock.advance() is noticed. */
const RETRY_CLOCK_POLL_MS = 250;
/** A callback that hangs counts as a failed attempt after this long (real ms). */
const ATTEMPT_TIMEOUT_MS = 10_000;

interface Registration {
	callbackUrl: string;
	verificationKey: string;
	events: ReadonlySet<WebhookEventName>;
	/** Body field callback: AWeber identifies the webhook subscription by a uuid. */
	callbackId: string;
}

interface WebhookEvent {
	event: WebhookEventName;
	payload: Record<string, unknown>;
}

interface Delivery {
	id: string;
	registration: Registration;
	events: WebhookEventName[];
	body: string;
	attemptsMade: number;
	/** Sandbox time the next retry is due. */
	retryAt: number;
	retryTimer?: NodeJS.Timeout;
	/** Deliveries from before a reset() are dropped instead of logged. */
	generation: number;
}

function isWebhookEvent(name: string): name is WebhookEventName {
	return (WEBHOOK_EVENTS as readonly string[]).includes(name);
}

export class WebhookDispatcher {
	private readonly registrations = new Map<string, Registration>();
	private pending: WebhookEvent[] = [];
	private batchTimer?: NodeJS.Timeout;
	private readonly waitingRetries = new Set<Delivery>();
	private readonly inFlight = new Set<Promise<void>>();
	private log: DeliveryLogEntry[] = [];
	private generation = 0;
	private stopped = false;
	private readonly agent = new Agent({
		connect: { timeout: ATTEMPT_TIMEOUT_MS },
		headersTimeout: ATTEMPT_TIMEOUT_MS,
		bodyTimeout: ATTEMPT_TIMEOUT_MS,
	});
	private readonly batchWindowMs: number;
	private readonly retryDelaysSeconds: number[];

	constructor(
		private readonly clock: SandboxClock,
		private readonly options: WebhookDispatcherOptions,
	) {
		this.batchWindowMs = options.batchWindowMs ?? DEFAULT_BATCH_WINDOW_MS;
		this.retryDelaysSeconds = options.retryDelaysSeconds ?? DEFAULT_RETRY_DELAYS_SECONDS;
	}

	/** One webhook per callback URL; registering the same URL again replaces its key and events. */
	register(callbackUrl: string, verificationKey: string, options: { events?: string[] } = {}): void {
		const url = new URL(callbackUrl);
		if (url.protocol !== 'http:' && url.protocol !== 'https:') {
			throw new Error(`A webhook callback must be an http(s) URL, got ${callbackUrl}`);
		}
		if (verificationKey === '') throw new Error('A webhook needs a verification key');
		const events = options.events ?? [...WEBHOOK_EVENTS];
		const unknown = events.filter((name) => !isWebhookEvent(name));
		if (unknown.length > 0) {
			throw new Error(`Unknown webhook event(s): ${unknown.join(', ')}; known: ${WEBHOOK_EVENTS.join(', ')}`);
		}
		this.registrations.set(callbackUrl, {
			callbackUrl,
			verificationKey,
			events: new Set(events as WebhookEventName[]),
			callbackId: this.registrations.get(callbackUrl)?.callbackId ?? randomUUID(),
		});
	}

	/** Without a registered webhook the event is dropped, as AWeber sends nothing then. */
	enqueue(event: WebhookEventName, payload: Record<string, unknown>): void {
		if (this.stopped || this.registrations.size === 0) return;
		this.pending.push({ event, payload });
		if (this.batchTimer === undefined) {
			this.batchTimer = setTimeout(() => this.dispatchPending(), this.batchWindowMs);
			this.batchTimer.unref();
		}
	}

	/** Sends the pending batch and any retry already due on the sandbox clock, and waits for those attempts. */
	async flush(): Promise<void> {
		this.dispatchPending();
		const now = this.clock.now();
		for (const delivery of [...this.waitingRetries]) {
			if (delivery.retryAt <= now) this.retryNow(delivery);
		}
		while (this.inFlight.size > 0) await Promise.all([...this.inFlight]);
	}

	/** One entry per attempt, oldest first. */
	deliveries(): DeliveryLogEntry[] {
		return this.log.map((entry) => ({ ...entry, events: [...entry.events], headers: { ...entry.headers } }));
	}

	reset(): void {
		this.generation += 1;
		this.registrations.clear();
		this.pending = [];
		this.clearTimers();
		this.log = [];
	}

	async stop(): Promise<void> {
		this.stopped = true;
		this.reset();
		while (this.inFlight.size > 0) await Promise.all([...this.inFlight]);
		await this.agent.close();
	}

	private clearTimers(): void {
		clearTimeout(this.batchTimer);
		this.batchTimer = undefined;
		for (const delivery of this.waitingRetries) clearTimeout(delivery.retryTimer);
		this.waitingRetries.clear();
	}

	private dispatchPending(): void {
		clearTimeout(this.batchTimer);
		this.batchTimer = undefined;
		const events = this.pending;
		this.pending = [];
		if (events.length === 0) return;
		for (const registration of this.registrations.values()) {
			const wanted = events.filter(({ event }) => registration.events.has(event));
			for (let start = 0; start < wanted.length; start += MAX_EVENTS_PER_DELIVERY) {
				this.send(this.newDelivery(registration, wanted.slice(start, start + MAX_EVENTS_PER_DELIVERY)));
			}
		}
	}

	private newDelivery(registration: Registration, events: WebhookEvent[]): Delivery {
		const body = JSON.stringify({
			account: this.options.accountUuid,
			client_id: this.options.clientId,
			callback: registration.callbackId,
			data: events.map(({ event, payload }) => ({ event, payload })),
		});
		return {
			id: randomUUID(),
			registration,
			events: events.map(({ event }) => event),
			body,
			attemptsMade: 0,
			retryAt: 0,
			generation: this.generation,
		};
	}

	private send(delivery: Delivery): void {
		const attempt = this.attempt(delivery);
		this.inFlight.add(attempt);
		void attempt.finally(() => this.inFlight.delete(attempt));
	}

	/** A retry keeps its AWeber-Delivery-ID (receivers dedupe on it) but gets a fresh Date and signature. */
	private async attempt(delivery: Delivery): Promise<void> {
		delivery.attemptsMade += 1;
		const sentAt = this.clock.now();
		const date = new Date(sentAt).toUTCString();
		const headers: Record<string, string> = {
			'Content-Type': WEBHOOK_CONTENT_TYPE,
			'AWeber-Delivery-ID': delivery.id,
			Date: date,
			'AWeber-Signature': signWebhook(delivery.registration.verificationKey, date, delivery.body),
		};
		let status: number | null = null;
		let error: string | undefined;
		try {
			const response = await request(delivery.registration.callbackUrl, {
				method: 'POST',
				headers,
				body: delivery.body,
				dispatcher: this.agent,
			});
			status = response.statusCode;
			await response.body.dump();
		} catch (failure) {
			error = failure instanceof Error ? failure.message : String(failure);
		}
		if (delivery.generation !== this.generation) return;

		this.log.push({
			deliveryId: delivery.id,
			callbackUrl: delivery.registration.callbackUrl,
			attempt: delivery.attemptsMade,
			time: new Date(sentAt).toISOString(),
			status,
			...(error === undefined ? {} : { error }),
			events: [...delivery.events],
			headers,
			body: delivery.body,
		});
		const delivered = status !== null && status >= 200 && status < 300;
		if (delivered || this.stopped) return;
		const delaySeconds = this.retryDelaysSeconds[delivery.attemptsMade - 1];
		if (delaySeconds === undefined) return; // retries exhausted: the delivery is dropped, as AWeber may do
		delivery.retryAt = this.clock.now() + delaySeconds * 1000;
		this.waitingRetries.add(delivery);
		this.waitForRetry(delivery);
	}

	private waitForRetry(delivery: Delivery): void {
		const remaining = delivery.retryAt - this.clock.now();
		if (remaining <= 0) {
			this.retryNow(delivery);
			return;
		}
		const wait = Math.min(this.clock.toRealMs(remaining), RETRY_CLOCK_POLL_MS);
		delivery.retryTimer = setTimeout(() => this.waitForRetry(delivery), Math.ceil(wait));
		delivery.retryTimer.unref();
	}

	private retryNow(delivery: Delivery): void {
		clearTimeout(delivery.retryTimer);
		delivery.retryTimer = undefined;
		if (!this.waitingRetries.delete(delivery)) return;
		this.send(delivery);
	}
}
