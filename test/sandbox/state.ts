// The sandbox's in-memory AWeber account: plain records keyed by id. Links and JSON shapes are built
// by the route modules; this module only holds data and the lookups several resource groups share.
import { randomUUID } from 'node:crypto';

import { notFound } from './errors';

export type SubscriberStatus = 'subscribed' | 'unconfirmed' | 'unsubscribed';
export type BroadcastStatus = 'draft' | 'scheduled' | 'sending' | 'sent' | 'admin_hold' | 'unknown';

/**
 * Whether AWeber accepts new subscribers for the account (docs/aweber-behaviour.md#account-standing): `on-hold`
 * refuses every change to subscribers, `subscriber-limit` refuses new ones (updates of existing ones go through).
 */
export type AccountStanding = 'good' | 'on-hold' | 'subscriber-limit';

export interface AccountRecord {
	id: number;
	uuid: string;
	company: string;
	standing?: AccountStanding;
	/** Addresses AWeber answers "cannot be accepted at this time" for (lower case). */
	refusedEmails?: string[];
}

export interface ListRecord {
	id: number;
	uuid: string;
	name: string;
	uniqueListId: string;
	/** Subscribers added through the API land as `unconfirmed` on confirmed opt-in lists (docs/aweber-behaviour.md#add-subscriber). */
	confirmedOptIn: boolean;
}

export interface CustomFieldRecord {
	id: number;
	listId: number;
	name: string;
	isSubscriberUpdateable: boolean;
}

export interface SubscriberGeo {
	/** The reference's Subscriber.area_code is an integer; dma_code stays a string (as AWeber sends it). */
	area_code: number | null;
	city: string | null;
	country: string | null;
	dma_code: string | null;
	latitude: number | null;
	longitude: number | null;
	postal_code: string | null;
	region: string | null;
}

export interface SubscriberRecord {
	id: number;
	uuid: string;
	listId: number;
	email: string;
	name: string | null;
	status: SubscriberStatus;
	isVerified: boolean;
	verifiedAt: number | null;
	subscribedAt: number;
	subscriptionMethod: 'api' | 'email' | 'import' | 'webform';
	subscriptionUrl: string | null;
	unsubscribedAt: number | null;
	unsubscribeMethod: string | null;
	adTracking: string | null;
	miscNotes: string | null;
	/** Values by custom field id, so a renamed field keeps its values. */
	customFields: Map<number, string | null>;
	tags: string[];
	ipAddress: string | null;
	geo: SubscriberGeo;
	lastFollowupMessageNumberSent: number;
	lastFollowupSentAt: number | null;
}

export interface IntegrationRecord {
	id: number;
	serviceName: string;
	login: string;
}

export interface BroadcastStats {
	num_emailed: number;
	num_undeliv: number;
	num_complaints: number;
	unique_opens: number;
	unique_clicks: number;
}

export interface BroadcastRecord {
	id: number;
	uuid: string;
	listId: number;
	status: BroadcastStatus;
	/** Only API-created drafts are listed as drafts, updated or deleted (docs/aweber-behaviour.md#broadcast-states). */
	createdByApi: boolean;
	subject: string;
	bodyHtml: string | null;
	bodyText: string | null;
	bodyAmp: string | null;
	hasCustomizedBodyText: boolean;
	clickTrackingEnabled: boolean;
	isArchived: boolean;
	notifyOnSend: boolean;
	includeListIds: number[];
	excludeListIds: number[];
	facebookIntegrationId: number | null;
	twitterIntegrationId: number | null;
	segmentId: number | null;
	createdAt: number;
	scheduledFor: number | null;
	sentAt: number | null;
	spamAssassinScore: number;
}

export interface FollowUpRecord {
	id: number;
	listId: number;
	subject: string;
	messageNumber: number;
	/** Days after the previous follow-up. */
	messageInterval: number;
	contentType: 'Text' | 'HTML' | 'Text/HTML';
	clickTrackingEnabled: boolean;
	spamAssassinScore: number;
	createdAt: number;
}

export type CampaignType = 'b' | 'f';

/** One email as sent to one subscriber (AWeber's "message" under a campaign). */
export interface MessageRecord {
	id: number;
	campaignType: CampaignType;
	campaignId: number;
	listId: number;
	subscriberId: number;
	eventTime: number;
}

export interface OpenRecord {
	id: number;
	messageId: number;
	subscriberId: number;
	eventTime: number;
}

export interface ClickRecord {
	id: number;
	messageId: number;
	subscriberId: number;
	eventTime: number;
	url: string;
}

/** A sale or web hit attributed to a subscriber; purchases create these. */
export interface TrackedEventRecord {
	id: number;
	messageId: number | null;
	subscriberId: number;
	eventTime: number;
	type: 'sale' | 'webhit';
	url: string;
	vendor: string | null;
	productName: string | null;
	eventNote: string | null;
	currency: string | null;
	value: number | null;
}

export interface SegmentRecord {
	id: number;
	listId: number;
	name: string;
	isSplitTest: boolean;
}

export interface WebFormRecord {
	id: number;
	listId: number;
	name: string;
	type: 'inline' | 'popup' | 'lightbox';
	isActive: boolean;
	totalDisplays: number;
	totalUniqueDisplays: number;
	totalSubmissions: number;
	tags: string[];
}

export interface SplitTestComponentRecord {
	id: string;
	webFormId: number;
	weight: number;
}

export interface SplitTestRecord {
	id: number;
	listId: number;
	name: string;
	isActive: boolean;
	components: SplitTestComponentRecord[];
}

export interface LandingPageRecord {
	id: string;
	listId: number;
	name: string;
	/** The reference's LandingPageNoContent.status enum: published or unpublished (no draft). */
	status: 'published' | 'unpublished';
	contentHtml: string;
	publishedHtml: string | null;
	publishedUrl: string | null;
	createdAt: number;
	modifiedAt: number;
	publishedAt: number | null;
}

export type IdKind = 'subscriber' | 'customField' | 'broadcast' | 'message' | 'open' | 'click' | 'trackedEvent';

export type UnsubscribeStatisticSpelling = 'unsubscribed' | 'unsubscribes';

export class SandboxState {
	account: AccountRecord = { id: 0, uuid: '', company: '' };
	/**
	 * Page views of a sent broadcast's archive and the pages it links to, per URL, beyond its web hits: only the
	 * 2.0-beta link report reads them (routes/beta.ts).
	 */
	readonly archivePageViews = new Map<number, Array<{ url: string; unique: number; total: number }>>();
	/** Set by a test: the campaign message endpoints answer 404, as AWeber may once its reference stopped listing them. */
	messageEndpointsRetired = false;
	/** Which spellings of the unsubscribe time series the stats entry answers (both until a test narrows them). */
	unsubscribeStatisticSpellings: UnsubscribeStatisticSpelling[] = ['unsubscribed', 'unsubscribes'];
	readonly lists = new Map<number, ListRecord>();
	readonly customFields = new Map<number, CustomFieldRecord>();
	readonly subscribers = new Map<number, SubscriberRecord>();
	/** Subscribers of each list in the order they were added (AWeber's default order). */
	readonly listSubscribers = new Map<number, SubscriberRecord[]>();
	readonly integrations = new Map<number, IntegrationRecord>();
	readonly broadcasts = new Map<number, BroadcastRecord>();
	readonly followUps = new Map<number, FollowUpRecord>();
	readonly messages = new Map<number, MessageRecord>();
	readonly opens: OpenRecord[] = [];
	readonly clicks: ClickRecord[] = [];
	readonly trackedEvents: TrackedEventRecord[] = [];
	readonly segments = new Map<number, SegmentRecord>();
	readonly webForms = new Map<number, WebFormRecord>();
	readonly splitTests = new Map<number, SplitTestRecord>();
	readonly landingPages = new Map<string, LandingPageRecord>();

	private readonly nextIds: Record<IdKind, number> = {
		subscriber: 1,
		customField: 1,
		broadcast: 1,
		message: 1,
		open: 1,
		click: 1,
		trackedEvent: 1,
	};

	/** Ids continue from the seed's highest, so new things never collide with seeded ones. */
	setNextId(kind: IdKind, next: number): void {
		this.nextIds[kind] = next;
	}

	nextId(kind: IdKind): number {
		return this.nextIds[kind]++;
	}

	list(listId: number): ListRecord {
		const list = this.lists.get(listId);
		if (list === undefined) throw notFound('List with given id not found');
		return list;
	}

	subscribersOf(listId: number): SubscriberRecord[] {
		let subscribers = this.listSubscribers.get(listId);
		if (subscribers === undefined) {
			subscribers = [];
			this.listSubscribers.set(listId, subscribers);
		}
		return subscribers;
	}

	subscriber(listId: number, subscriberId: number): SubscriberRecord {
		const subscriber = this.subscribers.get(subscriberId);
		if (subscriber === undefined || subscriber.listId !== listId) throw notFound('Subscriber not found');
		return subscriber;
	}

	/** Email addresses are matched case-insensitively, as AWeber does. */
	subscriberByEmail(listId: number, email: string): SubscriberRecord | undefined {
		const wanted = email.trim().toLowerCase();
		return this.subscribersOf(listId).find((subscriber) => subscriber.email.toLowerCase() === wanted);
	}

	insertSubscriber(subscriber: SubscriberRecord): void {
		this.subscribers.set(subscriber.id, subscriber);
		this.subscribersOf(subscriber.listId).push(subscriber);
	}

	removeSubscriber(subscriber: SubscriberRecord): void {
		this.subscribers.delete(subscriber.id);
		const onList = this.subscribersOf(subscriber.listId);
		const index = onList.indexOf(subscriber);
		if (index >= 0) onList.splice(index, 1);
	}

	customFieldsOf(listId: number): CustomFieldRecord[] {
		return [...this.customFields.values()].filter((field) => field.listId === listId).sort((a, b) => a.id - b.id);
	}

	customField(listId: number, fieldId: number): CustomFieldRecord {
		const field = this.customFields.get(fieldId);
		if (field === undefined || field.listId !== listId) throw notFound('Custom field not found');
		return field;
	}

	newSubscriber(listId: number, email: string, now: number, id = this.nextId('subscriber')): SubscriberRecord {
		return {
			id,
			uuid: randomUUID(),
			listId,
			email,
			name: null,
			status: 'subscribed',
			isVerified: false,
			verifiedAt: null,
			subscribedAt: now,
			subscriptionMethod: 'api',
			subscriptionUrl: null,
			unsubscribedAt: null,
			unsubscribeMethod: null,
			adTracking: null,
			miscNotes: null,
			customFields: new Map(),
			tags: [],
			ipAddress: null,
			geo: emptyGeo(),
			lastFollowupMessageNumberSent: 0,
			lastFollowupSentAt: null,
		};
	}
}

export function emptyGeo(): SubscriberGeo {
	return {
		area_code: null,
		city: null,
		country: null,
		dma_code: null,
		latitude: null,
		longitude: null,
		postal_code: null,
		region: null,
	};
}
