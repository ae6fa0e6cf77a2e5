import { createHash } from 'node:crypto';

import type { IDataObject, INodeExecutionData, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { AWEBER_CREDENTIAL_TYPE } from '../shared/constants';
import { listIdFromLink } from '../shared/links';
import { MAX_LOG_BYTES, MAX_REMEMBERED_DELIVERIES, MIN_RETENTION_MS, rememberDelivery } from './deliveryLog';
import { checkDeliverySignature, signedContentDigest } from './signature';
import { NO_KEY_REFUSAL, acceptsUnsignedDeliveries, webhookVerificationKey } from './verificationKey';

/** What the trigger reads from n8n's request object (an Express request with n8n's `rawBody`). */
interface DeliveryRequest {
	headers: Record<string, string | string[] | undefined>;
	/**
	 * n8n reads every webhook body into this Buffer before the node runs, but a multipart form's (which it parses into
	 * fields instead, and which no AWeber delivery is); the signature covers these bytes.
	 */
	rawBody?: Buffer;
}

interface AnswerableResponse {
	status(code: number): { json(body: unknown): unknown };
}

interface DeliveryEvent {
	event?: unknown;
	payload?: IDataObject;
}

interface DeliveryBody {
	account?: unknown;
	client_id?: unknown;
	callback?: unknown;
	data?: unknown;
}

const DEFAULT_DATE_WINDOW_MINUTES = 5;

function header(request: DeliveryRequest, name: string): string | undefined {
	const value = request.headers[name];
	return Array.isArray(value) ? value[0] : value;
}

/**
 * Answers the delivery itself (so n8n sends this status) and starts no execution. AWeber only needs a non-2xx;
 * the reason helps whoever reads the response in AWeber's delivery log or in a proxy.
 */
function refuse(context: IWebhookFunctions, status: number, reason: string): IWebhookResponseData {
	context.logger.warn(`AWeber Webhook Trigger refused a delivery (${status}): ${reason}`, { node: context.getNode().name });
	(context.getResponseObject() as unknown as AnswerableResponse).status(status).json({ error: reason });
	return { noWebhookResponse: true };
}

const NOT_A_DELIVERY = 'the body is not an AWeber webhook delivery (JSON with a data list)';

function parseDelivery(rawBody: Buffer): DeliveryBody | undefined {
	try {
		const parsed: unknown = JSON.parse(rawBody.toString('utf8'));
		return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as DeliveryBody) : undefined;
	} catch {
		return undefined;
	}
}

/** AWeber's delivery ids are UUIDs; a longer header is not AWeber's, and would bloat the stored delivery log. */
const MAX_DELIVERY_ID_LENGTH = 200;

/**
 * The AWeber Webhook Trigger's webhook: verifies the delivery (signature, Date window, client id), drops deliveries
 * already seen (by id or by signed content), and turns each wanted event of the batch into one item. It makes no
 * API call, so it answers at once: AWeber may stop sending to endpoints that fail or hang.
 */
export async function receiveAweberDelivery(this: IWebhookFunctions): Promise<IWebhookResponseData> {
	const request = this.getRequestObject() as unknown as DeliveryRequest;
	const credentials = await this.getCredentials(AWEBER_CREDENTIAL_TYPE);
	const verificationKey = webhookVerificationKey(credentials);
	// Fail closed: without a key anyone who knows the (public) client id could start the workflow.
	if (verificationKey === undefined && !acceptsUnsignedDeliveries(this)) return refuse(this, 401, NO_KEY_REFUSAL);
	const rawBody = request.rawBody;
	if (rawBody === undefined) return refuse(this, 400, NOT_A_DELIVERY);
	const date = header(request, 'date');
	const windowMinutes = Number(this.getNodeParameter('options.dateWindowMinutes', DEFAULT_DATE_WINDOW_MINUTES));
	const windowMs = (windowMinutes > 0 ? windowMinutes : DEFAULT_DATE_WINDOW_MINUTES) * 60_000;
	const now = Date.now();

	if (verificationKey !== undefined) {
		const refusal = checkDeliverySignature(
			{ signature: header(request, 'aweber-signature'), date, rawBody },
			verificationKey,
			{ now, windowMs },
		);
		if (refusal !== undefined) return refuse(this, 401, refusal);
	}

	const delivery = parseDelivery(rawBody);
	if (delivery === undefined || !Array.isArray(delivery.data)) return refuse(this, 400, NOT_A_DELIVERY);
	// Compared strictly: a one-element array, which would stringify to the same text, is not the Client ID.
	if (delivery.client_id !== String(credentials.clientId ?? '')) {
		return refuse(this, 401, "client_id does not match the credential's Client ID");
	}
	// Header values arrive without surrounding whitespace (HTTP parsers strip it), so an empty value is the only blank one.
	const headerId = header(request, 'aweber-delivery-id') || undefined;
	if (headerId !== undefined && headerId.length > MAX_DELIVERY_ID_LENGTH) {
		return refuse(this, 400, `the AWeber-Delivery-ID header is longer than ${MAX_DELIVERY_ID_LENGTH} characters`);
	}

	// The id header is not signed, so a copy re-sent under another id (or none) is recognised by its signed content.
	// A verified Date lies within the window of now; an unverified one could be any date, so arrival counts then.
	const sentAt = verificationKey !== undefined && date !== undefined ? Date.parse(date) : now;
	const fingerprint = {
		id: headerId,
		digest: signedContentDigest(date ?? '', rawBody),
		// A copy is accepted until its Date leaves the window; AWeber's retries (same id) may come later still.
		until: Math.max(now, sentAt) + Math.max(windowMs, MIN_RETENTION_MS),
	};
	const trigger = `${this.getWorkflow().id ?? ''}/${this.getNode().id ?? this.getNode().name}`;
	const onForgotten = (count: number) =>
		this.logger.warn(
			`AWeber Webhook Trigger: its memory of deliveries is full (${MAX_REMEMBERED_DELIVERIES} deliveries, ${MAX_LOG_BYTES} bytes); forgot the ${count} oldest before their hour was up, so an AWeber retry of those would run again`,
			{ node: this.getNode().name },
		);
	if (!rememberDelivery(this.getWorkflowStaticData('node'), fingerprint, { now, trigger, onForgotten })) {
		return { webhookResponse: { received: true, duplicate: true } };
	}
	// Without a delivery id (never seen from AWeber) the exact bytes identify a delivery in the items.
	const deliveryId = headerId ?? `body:${createHash('sha256').update(rawBody).digest('hex')}`;

	const items = wantedEvents(this, delivery.data as DeliveryEvent[]).map(
		(event): INodeExecutionData => ({
			json: {
				event: event.event as string,
				deliveryId,
				account: (delivery.account ?? event.payload?.account ?? null) as string | null,
				list: (event.payload?.list ?? null) as string | null,
				listId: listIdFromLink((event.payload?.links as IDataObject | undefined)?.list) ?? null,
				subscriber: event.payload ?? {},
				verified: verificationKey !== undefined,
			},
		}),
	);
	if (items.length === 0) return { webhookResponse: { received: true, events: 0 } };
	// Answer here: n8n 2.38 saves the static data (the delivery just remembered) when the request is answered, and
	// when it answers itself it first starts the run, which resets the data's "changed" flag, so the delivery would
	// never be saved and a retried delivery would run again (docs/queue-mode.md, "Duplicate deliveries").
	(this.getResponseObject() as unknown as AnswerableResponse).status(200).json({ received: true, events: items.length });
	return { noWebhookResponse: true, workflowData: [items] };
}

/** The batch's events the node reacts to: a chosen event name, and the chosen list when the node filters by list. */
function wantedEvents(context: IWebhookFunctions, events: DeliveryEvent[]): DeliveryEvent[] {
	const eventNames = context.getNodeParameter('events', []) as string[];
	const filterByList = context.getNodeParameter('filterByList', false) as boolean;
	const listId = filterByList ? String(context.getNodeParameter('listId', '', { extractValue: true })).trim() : '';
	// create() stores the list's uuid: AWeber's payload names the list by uuid and by link.
	const listUuid = filterByList ? (context.getWorkflowStaticData('node').listUuid as string | undefined) : undefined;
	return events.filter((event) => {
		if (typeof event?.event !== 'string' || !eventNames.includes(event.event)) return false;
		if (!filterByList) return true;
		const payload = event.payload ?? {};
		const links = payload.links as IDataObject | undefined;
		return listIdFromLink(links?.list) === listId || (listUuid !== undefined && payload.list === listUuid);
	});
}
